package terrain

import (
	"strings"
	"testing"
)

func TestErosionDefaults(t *testing.T) {
	p := DefaultParams()
	want := ErosionParams{Erosion: "none",
		HydraulicDroplets: 0.5, HydraulicInertia: 0.05, HydraulicCapacity: 4, HydraulicMinSlope: 0.01,
		HydraulicErosion: 0.3, HydraulicDeposition: 0.3, HydraulicEvaporation: 0.01, HydraulicGravity: 4,
		HydraulicLifetime: 30, HydraulicRadius: 3,
		ThermalTalus: 33, ThermalIterations: 50, ThermalRate: 0.5,
		FluvialUplift: 0.001, FluvialK: 1e-5, FluvialM: 0.5, FluvialN: 1, FluvialDt: 1e6, FluvialSteps: 100, FluvialHead: 256, FluvialWander: 0.4}
	if p.ErosionParams != want {
		t.Fatalf("erosion defaults\n got %+v\nwant %+v", p.ErosionParams, want)
	}
	for _, s := range erosionSpecs {
		if s.Group != "erosion" {
			t.Errorf("%s: group %q, want erosion", s.Name, s.Group)
		}
		if !strings.HasPrefix(s.Name, "erosion") && !strings.HasPrefix(s.Name, "hydraulic-") &&
			!strings.HasPrefix(s.Name, "thermal-") && !strings.HasPrefix(s.Name, "fluvial-") {
			t.Errorf("%s: not named after its stage", s.Name)
		}
		if strings.Contains(s.Usage, "\n") {
			t.Errorf("%s: usage is more than one line", s.Name)
		}
	}
}

func TestErosionParamsRejectBadValues(t *testing.T) {
	cases := []struct{ name, value, want string }{
		{"hydraulic-droplets", "-1", "out of range"},
		{"hydraulic-droplets", "NaN", "not a finite number"},
		{"hydraulic-inertia", "1", "out of range"},
		{"hydraulic-lifetime", "0", "out of range"},
		{"hydraulic-lifetime", "2.5", "not a whole number"},
		{"hydraulic-radius", "17", "wider brush"},
		{"thermal-talus", "0", "between flat (0°) and vertical (90°)"},
		{"thermal-talus", "90", "out of range"},
		{"thermal-talus", "-10", "out of range"},
		{"thermal-rate", "0", "out of range"},
		{"thermal-iterations", "-5", "out of range"},
		{"fluvial-k", "0", "out of range"},
		{"fluvial-m", "Inf", "not a finite number"},
		{"fluvial-n", "0", "out of range"},
		{"fluvial-dt", "-1", "out of range"},
		{"erosion", "hydraulic,glacial", `"glacial" is not one of`},
		{"erosion", "thermal,thermal", "listed twice"},
	}
	for _, c := range cases {
		s, ok := SpecByName(c.name)
		if !ok {
			t.Fatalf("no spec %s", c.name)
		}
		p := DefaultParams()
		err := s.Set(&p, c.value)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), c.name+":") {
			t.Errorf("%s=%s: error %v, want one starting %q and containing %q", c.name, c.value, err, c.name, c.want)
		}
		if p != DefaultParams() {
			t.Errorf("%s=%s: a rejected value changed the parameters", c.name, c.value)
		}
	}
	p := DefaultParams()
	s, _ := SpecByName("erosion")
	if err := s.Set(&p, " fluvial, hydraulic ,thermal"); err != nil || p.Erosion != "fluvial,hydraulic,thermal" {
		t.Errorf("erosion list: %q, %v", p.Erosion, err)
	}
}
