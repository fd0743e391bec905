package game

import (
	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"cordillera/terrain"
)

// Undo and redo of the settings the panels edit: the generation
// parameters (Generator, Erosion, Route), the look (Viewer) and the preset
// chosen. A change is one step; a drag on a slider, however many values it
// passes, is one step too.

// settings is what one undo step restores.
type settings struct {
	Params terrain.Params
	View   Viewer
	Preset int
}

// undoLimit is how many steps are kept.
const undoLimit = 200

// undoHistory holds the steps either side of the present.
type undoHistory struct {
	past, future []settings
	last         settings // the settings as the last update left them
	started      bool
	gesture      bool // the last change came with the mouse button held: changes until its release join it
}

func (g *Game) settings() settings {
	return settings{Params: g.Params, View: g.View, Preset: g.ui.preset}
}

// trackChanges records the settings' change since the last update as an
// undo step. buttonHeld tells whether the mouse button is down (a drag).
func (g *Game) trackChanges(buttonHeld bool) {
	u := &g.undo
	cur := g.settings()
	switch {
	case !u.started:
		u.started = true
	case cur == u.last:
		u.gesture = u.gesture && buttonHeld
		return
	case !u.gesture:
		u.past = append(u.past, u.last)
		if len(u.past) > undoLimit {
			u.past = u.past[1:]
		}
		u.future = u.future[:0]
		u.gesture = buttonHeld
	default:
		u.gesture = buttonHeld
	}
	u.last = cur
}

// Undo restores the settings before the last change; Redo takes it again.
// Each reports whether there was a step to take.
func (g *Game) Undo() bool { return g.step(&g.undo.past, &g.undo.future, "undo") }

// Redo takes the last undone change again.
func (g *Game) Redo() bool { return g.step(&g.undo.future, &g.undo.past, "redo") }

func (g *Game) step(from, to *[]settings, what string) bool {
	if len(*from) == 0 {
		g.ui.say("nothing to " + what)
		return false
	}
	s := (*from)[len(*from)-1]
	*from = (*from)[:len(*from)-1]
	*to = append(*to, g.settings())
	g.applyParams(s.Params)
	g.View = s.View
	g.ui.preset, g.ui.presetView = s.Preset, s.Preset
	g.undo.last, g.undo.gesture = g.settings(), false
	g.ui.say(what)
	return true
}

// handleUndoKeys: Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo (Cmd on a Mac).
func (g *Game) handleUndoKeys() {
	if !ebiten.IsKeyPressed(ebiten.KeyControl) && !ebiten.IsKeyPressed(ebiten.KeyMeta) {
		return
	}
	switch {
	case inpututil.IsKeyJustPressed(ebiten.KeyZ) && ebiten.IsKeyPressed(ebiten.KeyShift),
		inpututil.IsKeyJustPressed(ebiten.KeyY):
		g.Redo()
	case inpututil.IsKeyJustPressed(ebiten.KeyZ):
		g.Undo()
	}
}

// applyParams makes p the generation parameters and starts making its
// world: a loaded map is only worn anew when nothing but erosion changed.
// A world kept from before (worldcache.go) is shown at once instead.
func (g *Game) applyParams(p terrain.Params) {
	if p == g.Params {
		return
	}
	old := g.Params
	g.Params = p
	old.ErosionParams = p.ErosionParams
	src := g.World.Source
	if old != p {
		src = nil // new parameters make a new map, not the loaded one worn anew
	}
	// A lesson has the view; the world shown after it comes from the
	// regenerator as it ends.
	if res := g.gen.worlds.get(p, src); res != nil && g.teach.mode == teachOff {
		g.gen.regen.Cancel()
		g.showGenerated(res)
		return
	}
	if src != nil {
		g.gen.regen.RequestErode(src, p)
	} else {
		g.gen.regen.Request(p)
	}
}

// presetModified reports whether the parameters differ from the chosen
// preset's.
func (g *Game) presetModified() bool {
	if g.ui.preset < 0 || g.ui.preset >= len(terrain.Presets) {
		return false
	}
	q, err := terrain.PresetParams(terrain.Presets[g.ui.preset].Name)
	return err == nil && q != g.Params
}

// presetRow is the Generator panel's preset line: the list, marked when
// the parameters have been changed since, and a button that resets them.
func (g *Game) presetRow(ctx *debugui.Context, p *terrain.Params) {
	names := make([]string, len(terrain.Presets))
	for i, pr := range terrain.Presets {
		names[i] = pr.Name
	}
	modified := g.presetModified()
	label := "Preset"
	if modified {
		label = "Preset, changed"
	}
	reset := func() {
		q, err := terrain.PresetParams(names[g.ui.preset])
		if err != nil {
			g.ui.fail(err)
			return
		}
		*p = q
	}
	if modified {
		ctx.SetGridLayout([]int{specLabelW, -1, 50}, nil)
	} else {
		ctx.SetGridLayout([]int{specLabelW, -1}, nil)
	}
	ctx.Text(label)
	ctx.Dropdown(&g.ui.preset, names).On(func() {
		reset()
		g.ui.say(terrain.Presets[g.ui.preset].Description)
	})
	if modified {
		ctx.Button("Reset").On(func() {
			reset()
			g.ui.say("parameters reset to the preset " + names[g.ui.preset])
		})
	}
}
