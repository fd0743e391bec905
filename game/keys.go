package game

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
)

// keyBinding is one row of the explorer's key table: the keys as the help
// overlay and docs/explorer.md name them, what they do, and, for a key
// that acts when it is pressed, the keys and the action.
type keyBinding struct {
	name string // the keys as a user reads them: "H or F1"
	help string // what they do, in a few words for the help overlay
	doc  string // the longer explanation in docs/explorer.md; "" means help

	// keys and act: pressing any of keys runs act once. Both are nil for
	// input read elsewhere: the held movement keys (readMovement), the
	// mouse (handleMouse) and the Ctrl chords (handleUndoKeys).
	keys []ebiten.Key
	act  func(g *Game)
}

// keyBindings is the one key table: handleKeys acts on it, the help
// overlay lists it, and docs/explorer.md's key table is generated from it
// (TestKeysDoc). Actions run in this order when several keys are pressed
// in one tick.
var keyBindings = []keyBinding{
	{name: "W A S D, arrows", help: "move"},
	{name: "Space / E, C / Q", help: "up, down (Space jumps)", doc: "up, down (flying); Space jumps (walking)"},
	{name: "Shift", help: "faster"},
	{name: "mouse drag (left or right)", help: "look around", doc: "look around, turning in place (L captures the pointer, so the mouse looks without a button)"},
	{name: "mouse wheel", help: "flying speed"},
	{name: "Tab", help: "fly or walk", doc: "fly or walk (walking keeps the eye 1.7 units above the ground and starts looking level)",
		keys: []ebiten.Key{ebiten.KeyTab}, act: func(g *Game) {
			mode := Walk
			if g.Camera.Mode == Walk {
				mode = Fly
			}
			g.Camera.SwitchMode(mode, g.World.Map)
			g.ui.say("camera: " + mode.String())
		}},
	{name: "Home", help: "back to the overview", doc: "back to the overview: the map seen from above the middle of its north edge, looking south over it",
		keys: []ebiten.Key{ebiten.KeyHome}, act: func(g *Game) {
			g.Camera.Overview(g.World.Map)
			g.Follow = false
			g.ui.say("camera: overview")
		}},
	{name: "Ctrl+Z; Ctrl+Shift+Z or Ctrl+Y", help: "undo; redo", doc: "undo, redo a change of the Generator, Erosion, Route or Viewer settings (a slider drag is one step)"},
	{name: "F2", help: "wireframe",
		keys: []ebiten.Key{ebiten.KeyF2}, act: func(g *Game) { g.View.Wireframe = !g.View.Wireframe }},
	{name: "F3", help: "colour scheme", doc: "paper 001's colour scheme by height (sand, grass, rock, snow)",
		keys: []ebiten.Key{ebiten.KeyF3}, act: func(g *Game) { g.View.ColourScheme = !g.View.ColourScheme }},
	{name: "F4", help: "flat shading", doc: "flat or smooth shading",
		keys: []ebiten.Key{ebiten.KeyF4}, act: func(g *Game) { g.View.FlatShading = !g.View.FlatShading }},
	{name: "F5", help: "materials by rules, height, slope", doc: "materials by rules (the default), by height, by slope",
		keys: []ebiten.Key{ebiten.KeyF5}, act: func(g *Game) { g.View.Texturing = (g.View.Texturing + 1) % 3 }},
	{name: "F6", help: "fog", doc: "distance fog (its visibility in metres in the Viewer panel)",
		keys: []ebiten.Key{ebiten.KeyF6}, act: func(g *Game) {
			if g.View.FogDensity == 0 {
				g.View.FogDensity = DefaultFog(g.World.Map)
			} else {
				g.View.FogDensity = 0
			}
		}},
	{name: "F7", help: "level of detail on/off", doc: "level of detail on or off (draws every triangle when off)",
		keys: []ebiten.Key{ebiten.KeyF7}, act: func(g *Game) {
			g.FullMesh = !g.FullMesh
			g.ui.say(fmt.Sprintf("level of detail: %v", !g.FullMesh))
		}},
	{name: "H or F1", help: "this help", doc: "the help overlay with these keys",
		keys: []ebiten.Key{ebiten.KeyF1, ebiten.KeyH}, act: func(g *Game) { g.ShowHelp = !g.ShowHelp }},
	{name: "M", help: "minimap (click to teleport)", doc: "show or hide the minimap; click it to teleport there",
		keys: []ebiten.Key{ebiten.KeyM}, act: func(g *Game) { g.ShowMinimap = !g.ShowMinimap }},
	{name: "U", help: "panels", doc: "show or hide the panels",
		keys: []ebiten.Key{ebiten.KeyU}, act: func(g *Game) {
			if g.ShowUI {
				g.ui.rememberPanels()
			}
			g.ShowUI = !g.ShowUI
		}},
	{name: "R", help: "follow the GPS route (W/S faster/slower)", doc: "follow the GPS route at eye height, looking along it and up or down its grade (W and S walk faster and slower; speed in the Viewer panel)",
		keys: []ebiten.Key{ebiten.KeyR}, act: func(g *Game) { g.setFollow(!g.Follow) }},
	{name: "T", help: "teaching: subdivision stages, octaves, erosion, off", doc: "teaching: subdivision stages, then octaves, then erosion, then off (the Teach panel has the controls)",
		keys: []ebiten.Key{ebiten.KeyT}, act: func(g *Game) { g.setTeachMode((g.teach.mode + 1) % len(teachModes)) }},
	{name: "F12", help: "screenshot", doc: "save a screenshot PNG in the current folder",
		keys: []ebiten.Key{ebiten.KeyF12}, act: func(g *Game) { g.scene.shotPending = true }},
	{name: "L", help: "capture the pointer (Esc releases it)", doc: "capture the pointer: the mouse looks around without a button (Esc releases it)",
		keys: []ebiten.Key{ebiten.KeyL}, act: func(g *Game) { g.input.setCapture(!g.input.captured) }},
	{name: "Esc", help: "release the captured pointer",
		keys: []ebiten.Key{ebiten.KeyEscape}, act: func(g *Game) {
			if g.input.captured {
				g.input.setCapture(false)
			}
		}},
}

// handleKeys runs the action of every key of keyBindings pressed this tick.
func (g *Game) handleKeys() {
	for _, b := range keyBindings {
		if b.act != nil && slices.ContainsFunc(b.keys, inpututil.IsKeyJustPressed) {
			b.act(g)
		}
	}
}

// helpText is the help overlay: keyBindings, one a line.
var helpText = keysHelp()

func keysHelp() string {
	width := 0
	for _, b := range keyBindings {
		width = max(width, len(b.name))
	}
	var s strings.Builder
	s.WriteString("Cordillera: keys\n")
	for _, b := range keyBindings {
		fmt.Fprintf(&s, "%-*s  %s\n", width, b.name, b.help)
	}
	s.WriteString("Drop a heightmap (.png, .r16), parameters (.json) or a route on the window.")
	return s.String()
}

// pointerState is the pointer's part in looking around.
type pointerState struct {
	captured bool   // pointer captured for mouse look
	leftLook bool   // the left button went down on the 3D view and is held: it looks around
	cursor   [2]int // last cursor position, for mouse look
}
