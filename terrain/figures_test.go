package terrain

import "testing"

// Every figure names a preset, a parameter and values that exist, so
// 'cordillera sweep -figure' cannot fail on its own table.
func TestFigures(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range Figures {
		if seen[f.Name] {
			t.Errorf("figure %s listed twice", f.Name)
		}
		seen[f.Name] = true
		base, err := PresetParams(f.Preset)
		if err != nil {
			t.Errorf("%s: %v", f.Name, err)
			continue
		}
		if base.Size != 257 || base.Seed != 17 || base.Amplitude != 50 {
			t.Errorf("%s: base %s is not the thesis 7.3 test setting (257², seed 17, height 50)", f.Name, base.Describe())
		}
		s, ok := SpecByName(f.Param)
		if !ok {
			t.Errorf("%s: unknown parameter %q", f.Name, f.Param)
			continue
		}
		if len(f.Values) < 2 {
			t.Errorf("%s: %d values; a sweep needs at least 2", f.Name, len(f.Values))
		}
		for _, v := range f.Values {
			p := base
			if err := s.Set(&p, v); err != nil {
				t.Errorf("%s: %v", f.Name, err)
			} else if err := p.Validate(); err != nil {
				t.Errorf("%s = %s: %v", f.Param, v, err)
			}
		}
	}
	if f, ok := FigureByName("fig7.9"); !ok || f.Param != "offset" || f.Preset != "thesis-hybrid" {
		t.Errorf("FigureByName(fig7.9) = %+v, %v", f, ok)
	}
	if _, ok := FigureByName("fig9.9"); ok {
		t.Error("FigureByName found fig9.9")
	}
}
