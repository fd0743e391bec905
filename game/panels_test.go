package game

import (
	"slices"
	"testing"

	"cordillera/terrain"
)

// The Generator panel lists only what acts on the chosen algorithm.
func TestGeneratorPanelShowsWhatApplies(t *testing.T) {
	names := func(p terrain.Params) []string {
		var out []string
		for _, s := range generatorSpecsShown(p) {
			out = append(out, s.Name)
		}
		return out
	}
	p := terrain.DefaultParams()
	fbm := names(p)
	p.Algorithm = terrain.Hetero
	hetero := names(p)
	p.Algorithm = terrain.DiamondSquareAlg
	ds := names(p)
	for _, c := range []struct {
		list []string
		name string
		want bool
	}{
		{fbm, "offset", false}, {hetero, "offset", true}, {fbm, "octaves", true},
		{ds, "octaves", false}, {ds, "corners", true}, {fbm, "corners", false}, {fbm, "seed", true},
		{fbm, "intensity", false}, {fbm, "levels", false},
	} {
		if slices.Contains(c.list, c.name) != c.want {
			t.Errorf("%s shown %v in %q; want %v", c.name, !c.want, c.list, c.want)
		}
	}
}

// The Generator's Erosion and Route sections come back as they were after
// U hid the panels, like the panels themselves.
func TestSectionsRememberedAcrossU(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 65))
	g.OpenPanels("Generator", "Erosion")
	var err error
	onLoop(func() { g.ShowUI = true; err = g.Update() }) // builds the UI once
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(g.ui.unfolded, "Erosion") || slices.Contains(g.ui.unfolded, "Route") {
		t.Fatalf("unfolded %q, want Erosion and not Route", g.ui.unfolded)
	}
	g.rememberPanels()
	if !g.panelStartsOpen("Erosion") || g.panelStartsOpen("Route") {
		t.Errorf("after U: Erosion open %v, Route open %v; want them as they were", g.panelStartsOpen("Erosion"), g.panelStartsOpen("Route"))
	}
}
