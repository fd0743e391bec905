package game

import (
	"slices"

	"github.com/ebitengine/debugui"

	"cordillera/terrain"
)

// panelNames are the window's panels in the order buildUI lays them out;
// docs/explorer.md's Panels section lists them so (TestPanelsDoc).
var panelNames = []string{"Generator", "Erosion", "Route", "Viewer", "File", "Teach"}

// panel is one of the window's folding panels. debugui unfolds a header
// when its initial expansion differs from whether it was clicked, so a
// panel the program opened or closed (openPanel) passes the opposite.
func (g *Game) panel(ctx *debugui.Context, name string, body func()) {
	ctx.IDScope(name, func() {
		ctx.Header(name, g.panelStartsOpen(name) != g.ui.flipped[name], g.unfolded(name, body))
	})
}

// openPanel unfolds a panel if it is folded (T opens Teach with its
// lesson).
func (g *Game) openPanel(name string) {
	if !g.ui.built { // the window is built anew: from where it starts
		if g.ui.remembered != nil {
			g.ui.remembered[name] = true
			return
		}
		if g.ui.open == nil {
			g.ui.open, g.ui.closed = map[string]bool{}, map[string]bool{}
		}
		g.ui.open[name] = true
		delete(g.ui.closed, name)
		return
	}
	if slices.Contains(g.ui.unfolded, name) {
		return
	}
	if g.ui.flipped == nil {
		g.ui.flipped = map[string]bool{}
	}
	g.ui.flipped[name] = !g.ui.flipped[name]
}

// unfolded wraps a panel's body so that the panels unfolded in a UI update
// are known (the state file reports them): debugui keeps a header's
// expansion to itself and only runs the body of an unfolded one.
func (g *Game) unfolded(name string, body func()) func() {
	return func() {
		g.ui.unfolded = append(g.ui.unfolded, name)
		body()
	}
}

// generatorSpecsShown are the Generator panel's parameters that act on
// maps made with p (terrain.Spec.AppliesTo): the offset only under the
// multifractals that have one, the corners only under subdivision, no
// noise parameters under subdivision.
func generatorSpecsShown(p terrain.Params) []terrain.Spec {
	var out []terrain.Spec
	for _, s := range terrain.Specs {
		if ok, _ := s.AppliesTo(p); s.Group == "" && ok {
			out = append(out, s)
		}
	}
	return out
}

// panelStartsOpen is whether a panel is unfolded when the window is
// built: as it was when U hid the panels, else as OpenPanels set (only
// Generator by default). debugui keeps the folding only while the window
// is shown.
func (g *Game) panelStartsOpen(name string) bool {
	if g.ui.remembered != nil {
		return g.ui.remembered[name]
	}
	if name == "Generator" {
		return !g.ui.closed[name]
	}
	return g.ui.open[name]
}

// rememberPanels keeps which panels are unfolded, for when they are shown
// again.
func (u *uiState) rememberPanels() {
	u.flipped, u.built = nil, false // the window is built anew, from what is remembered
	u.remembered = map[string]bool{}
	for _, n := range u.unfolded {
		u.remembered[n] = true
	}
}
