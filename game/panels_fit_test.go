package game

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cordillera/route"
	"cordillera/route/track"
	"cordillera/terrain"
	"cordillera/terrain/erosion"
)

// partsWarning is what the route package says of a file holding several
// recordings far apart: the Route panel's longest note.
const partsWarning = "the file holds 3 recordings far apart; the map is of part 1: 3000 points, 9.0 km long, 5.5 km across, around 46.0247° N 14.0342° E (the longest); left out: part 2: 1000 points, 3.0 km long, 1.8 km across, around 47.1234° N 14.0114° E, 122 km away; part 3: 500 points, 1.6 km long, 0.9 km across, around 41.4176° N 14.0057° E, 512 km away; -route-part N (1 to 3) picks another"

// panelFit is one section open alone in a state that shows many of its
// rows, and optionally one of its subsections unfolded.
type panelFit struct {
	name, section, unfold string
	setup                 func(g *Game)
}

// panelFits are the states TestPanelsFitTheWindow lays out.
func panelFits() []panelFit {
	allStages := func(g *Game) {
		g.Params.Erosion = "fluvial,hydraulic,thermal"
		g.World.Masks = &erosion.Masks{}
		g.gen.budget = erosion.Budget{Eroded: 1e6, Deposited: 6e5, Suspended: 3e5, CarriedOff: 1e5}
	}
	fits := []panelFit{
		{name: "generator", section: "Generator"},
		{name: "generator-hetero-effect", section: "Generator", setup: func(g *Game) {
			g.Params.Algorithm, g.Params.Effect = terrain.Hetero, terrain.Effects[1]
		}},
		{name: "generator-diamond-square", section: "Generator", setup: func(g *Game) { g.Params.Algorithm = terrain.DiamondSquareAlg }},
		{name: "erosion", section: "Erosion", setup: allStages},
		{name: "route", section: "Route"},
		{name: "route-notes", section: "Route", setup: func(g *Game) {
			m := g.World.Map
			g.World.Route = NewRouteView(&route.Result{Map: m, Path: &track.Path{CellSize: m.CellSize,
				Segments: [][]track.Sample{{{X: 10, Y: 10}, {X: 100, Y: 90}}}, Warnings: []string{partsWarning}}})
		}},
		{name: "viewer", section: "Viewer", setup: func(g *Game) { g.View.FogDensity = DefaultFog(g.World.Map) }},
		{name: "file", section: "File"},
		{name: "teach-subdivision", section: "Teach", setup: func(g *Game) { g.setTeachMode(teachSubdivision); g.teachStep(1) }},
		{name: "teach-octaves", section: "Teach", setup: func(g *Game) { g.setTeachMode(teachOctaves) }},
		{name: "teach-erosion", section: "Teach", setup: func(g *Game) { g.setTeachMode(teachErosion); g.erosionStep() }},
		{name: "teach-droplet", section: "Teach", setup: func(g *Game) { g.setTeachMode(teachErosion); g.dropletStep() }},
		{name: "teach-thermal", section: "Teach", setup: func(g *Game) { g.setTeachMode(teachThermal); g.thermalTo(2) }},
		{name: "teach-fluvial", section: "Teach", setup: func(g *Game) { g.setTeachMode(teachFluvial); g.fluvialTo(1) }},
		{name: "teach-compare", section: "Teach", setup: func(g *Game) { g.setTeachMode(teachCompare); g.teachStep(3) }},
		{name: "teach-profile", section: "Teach", setup: func(g *Game) { g.setTeachMode(teachProfile) }},
	}
	for _, fold := range viewerFolds { // each with the fog's and the auto resolution's rows shown
		fits = append(fits, panelFit{name: "viewer-" + strings.ToLower(strings.Fields(fold)[0]), section: "Viewer", unfold: fold, setup: func(g *Game) {
			g.View.FogDensity, g.Resolution.Auto = DefaultFog(g.World.Map), true
		}})
	}
	for _, stage := range erosionStageOrder {
		fits = append(fits, panelFit{name: "erosion-" + stage, section: "Erosion", unfold: erosionStageNames[stage] + " settings", setup: allStages})
	}
	return fits
}

// At 1280×720 every section, open alone, fits the window without
// scrolling, with any one of its subsections unfolded; so it does at each
// larger scale of the panels (UIScales) on the screen that scale is for:
// 1.5× on 1920×1080, 2× on 2560×1440. With CORDILLERA_PANEL_SHOTS=DIR
// each layout is also saved there as a PNG.
func TestPanelsFitTheWindow(t *testing.T) {
	needLoop(t)
	shots := os.Getenv("CORDILLERA_PANEL_SHOTS")
	for _, scale := range UIScales {
		w, h := int(ScreenWidth*scale), int(ScreenHeight*scale)
		prefix := ""
		if scale != 1 {
			prefix = strconv.FormatFloat(scale, 'g', -1, 64) + "x-"
		}
		for _, c := range panelFits() {
			t.Run(prefix+c.name, func(t *testing.T) {
				g := layOutPanels(t, c, scale, w, h)
				if g.ui.scrolls {
					t.Errorf("%s scrolls at %dx%d at scale %g", c.name, w, h, scale)
				}
				if shots != "" && scale == 1 {
					img := renderSized(g, w, h)
					if err := SavePNG(filepath.Join(shots, prefix+c.name+".png"), img); err != nil {
						t.Fatal(err)
					}
				}
			})
		}
	}
}

// At 2× on a 1280×720 window (a projector that shows a laptop's screen)
// the sections cannot all fit: each one's window stays on the screen, its
// last row reachable by scrolling, and the 3D view keeps a usable width
// beside it.
func TestPanelsScrollAtTwiceOnSmallScreen(t *testing.T) {
	needLoop(t)
	for _, c := range panelFits() {
		t.Run(c.name, func(t *testing.T) {
			g := layOutPanels(t, c, 2, ScreenWidth, ScreenHeight)
			if body := g.ui.tip.body; g.ui.px(body.Max.Y) > ScreenHeight || g.ui.px(body.Max.X) > g.ui.strip() {
				t.Errorf("the window's body %v (×2) leaves the %dx%d screen or the %d-pixel strip", body, ScreenWidth, ScreenHeight, g.ui.strip())
			}
			if vr := g.viewRect(ScreenWidth, ScreenHeight); vr.Min.X != g.ui.strip() || vr.Dx() < minViewWidth {
				t.Errorf("the 3D view is %v beside a %d-pixel strip, want it right of the strip and at least %d wide", vr, g.ui.strip(), minViewWidth)
			}
		})
	}
}

// layOutPanels builds the window at scale on a w×h screen with c's
// section open alone.
func layOutPanels(t *testing.T, c panelFit, scale float64, w, h int) *Game {
	t.Helper()
	g := newTestGame(t, testWorld(t, 129))
	g.ShowUI, g.HUD, g.ShowMinimap = true, true, true
	if err := g.SetUIScale(scale); err != nil {
		t.Fatal(err)
	}
	g.Layout(w, h)
	g.OpenPanels(c.section)
	g.ui.unfold = c.unfold
	var err error
	onLoop(func() {
		if c.setup != nil {
			c.setup(g)
		}
	})
	if strings.HasPrefix(c.name, "teach") {
		t.Cleanup(func() { onLoop(func() { g.setTeachMode(teachOff) }) })
	}
	for range 3 { // the window takes its content's height from the update before
		if onLoop(func() { err = g.Update() }); err != nil {
			t.Fatal(err)
		}
	}
	if len(g.ui.unfolded) != 1 || g.ui.unfolded[0] != c.section {
		t.Fatalf("unfolded %q; want %s alone", g.ui.unfolded, c.section)
	}
	return g
}
