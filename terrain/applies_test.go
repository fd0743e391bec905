package terrain

import "testing"

// Which parameters act on which maps: offset only under the hetero and
// hybrid multifractals, corners only under subdivision, the noise
// parameters never under subdivision, intensity only with an effect, an
// erosion stage's parameters only when it runs, the route's only through
// a route.
func TestSpecAppliesTo(t *testing.T) {
	fbm := DefaultParams()
	hetero := fbm
	hetero.Algorithm = Hetero
	ds := fbm
	ds.Algorithm = DiamondSquareAlg
	fixed := ds
	fixed.Corners = CornersFixed
	canyon := fbm
	canyon.Effect = "canyon"
	thermal := fbm
	thermal.Erosion = ThermalErosion
	for _, tc := range []struct {
		name string
		p    Params
		want bool
	}{
		{"offset", fbm, false}, {"offset", hetero, true},
		{"corners", fbm, false}, {"corners", ds, true},
		{"corner-value", ds, false}, {"corner-value", fixed, true},
		{"octaves", ds, false}, {"octaves", fbm, true},
		{"basis", ds, false}, {"lacunarity", hetero, true},
		{"hurst", ds, true}, {"seed", ds, true}, {"size", fbm, true},
		{"intensity", fbm, false}, {"intensity", canyon, true},
		{"thermal-talus", fbm, false}, {"thermal-talus", thermal, true}, {"hydraulic-droplets", thermal, false},
		{"erosion", fbm, true},
		{"levels", fbm, false}, {"road-width", fbm, false},
	} {
		s, found := SpecByName(tc.name)
		if !found {
			t.Errorf("no parameter %s", tc.name)
			continue
		}
		ok, why := s.AppliesTo(tc.p)
		if ok != tc.want || ok != (why == "") {
			t.Errorf("%s on %s (effect %s, erosion %q): applies %v (%q); want %v", tc.name, tc.p.Algorithm, tc.p.Effect, tc.p.Erosion, ok, why, tc.want)
		}
	}
}
