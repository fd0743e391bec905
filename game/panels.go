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
		ctx.Header(name, g.ui.panelStartsOpen(name) != g.ui.flipped[name], g.unfolded(name, body))
	})
}

// openPanel unfolds a panel if it is folded (T opens Teach with its
// lesson).
func (u *uiState) openPanel(name string) {
	if !u.built { // the window is built anew: from where it starts
		if u.remembered != nil {
			u.remembered[name] = true
			return
		}
		if u.open == nil {
			u.open, u.closed = map[string]bool{}, map[string]bool{}
		}
		u.open[name] = true
		delete(u.closed, name)
		return
	}
	if slices.Contains(u.unfolded, name) {
		return
	}
	if u.flipped == nil {
		u.flipped = map[string]bool{}
	}
	u.flipped[name] = !u.flipped[name]
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
func (u *uiState) panelStartsOpen(name string) bool {
	if u.remembered != nil {
		return u.remembered[name]
	}
	if name == "Generator" {
		return !u.closed[name]
	}
	return u.open[name]
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
