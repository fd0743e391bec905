package terrain

import (
	"strings"
	"testing"
)

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
	// Figure 7.3 compares the two bases the thesis has, value then Perlin, one octave.
	if f, ok := FigureByName("fig7.3"); !ok || f.Param != "basis" || strings.Join(f.Values, ",") != "value,perlin" {
		t.Errorf("FigureByName(fig7.3) = %+v, %v; want basis = value, perlin", f, ok)
	} else if p, _ := PresetParams(f.Preset); p.Octaves != 1 {
		t.Errorf("fig7.3: base %s has %d octaves, want the basis alone", f.Preset, p.Octaves)
	}
	if _, ok := FigureByName("fig9.9"); ok {
		t.Error("FigureByName found fig9.9")
	}
}
