package game

import (
	"slices"
	"strings"
	"testing"

	"cordillera/route"
	"cordillera/route/track"
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
	g.ui.rememberPanels()
	if !g.ui.panelStartsOpen("Erosion") || g.ui.panelStartsOpen("Route") {
		t.Errorf("after U: Erosion open %v, Route open %v; want them as they were", g.ui.panelStartsOpen("Erosion"), g.ui.panelStartsOpen("Route"))
	}
}

// The Route panel says what the file made the track leave out, with how
// to pick another recording, in lines that fit the panel: the explorer
// printed it on its standard output only.
func TestRouteNotesShown(t *testing.T) {
	rv := &RouteView{Stats: &route.Result{Path: &track.Path{Warnings: []string{partsWarning}}}}
	lines := routeNotes(rv)
	all := strings.Join(lines, " ")
	if all != "Note: "+partsWarning {
		t.Errorf("the Route panel's notes read %q; want the warning whole", all)
	}
	for _, l := range lines {
		if len([]rune(l)) > (uiWidth-30)/6 {
			t.Errorf("note line %q is wider than the panel", l)
		}
	}
	if !strings.Contains(all, "-route-part N (1 to 3)") {
		t.Errorf("the notes %q do not say how to pick another recording", all)
	}
	if routeNotes(nil) != nil || routeNotes(&RouteView{Stats: &route.Result{Path: &track.Path{}}}) != nil {
		t.Error("notes shown for a world without a route or without warnings")
	}
}
