//go:build js

package game

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"

	"cordillera/pipeline"
	"cordillera/terrain"
	"cordillera/web"
)

// The explorer in a web page (web/index.html loads it): the world comes
// from the URL fragment, and the page talks to the game through a few
// globals:
//
//	cordilleraLink()            the fragment of a link to the world shown (the Copy link button)
//	cordilleraOpen(name, bytes) open a file's content as if it were dropped (the Open file button)
//	cordilleraState             the explorer's State as JSON, every few ticks (what the tests read)
//
// Dropped files come through ebiten.DroppedFiles as on the desktop, and
// saved files become downloads through the page's in-memory file system.

// webStateEvery is how many ticks pass between two updates of
// cordilleraState: the map checksum in it reads every sample.
const webStateEvery = 10

// webGame is the explorer with the page's requests applied between ticks.
type webGame struct {
	*Game
	mu        sync.Mutex
	pending   []func() // what the page asked for, run on the game's goroutine
	shownLink string   // the fragment of a link to what the latest tick showed
	frames    int64
	busyDrawn int64 // frames drawn while a world was being made
	// fullDrawn counts the frames drawn while the full world (past the
	// preview, its finishing work included) was being made,
	// and fullSteps those among them drawn at a higher progress than the
	// frame before: the page's polls come too seldom, on a loaded machine,
	// to catch a busy state themselves.
	fullDrawn, fullSteps int64
	lastProgress         float64 // of the frame before, 0 when not busy

	// made is the last link made and linkOf what it was made of: the link
	// is made anew only when that changes, not on every tick.
	made   string
	linkOf linkKey
}

// linkKey is what a link depends on.
type linkKey struct {
	params terrain.Params
	preset int
	lesson string // the lesson's keys and values
	made   bool
}

// RunWeb runs the explorer in the browser page, on the world the page's
// URL fragment names (web.ParseFragment); a bad fragment is said in the
// UI and the default world opens. It returns when the game ends.
func RunWeb() error {
	markStartup("main")
	document := js.Global().Get("document")
	link, linkErr := web.ParseFragment(js.Global().Get("location").Get("hash").String())
	first := firstWorld(link.Params)
	markStartup("preview")
	g, err := NewWithParams(first, link.Params)
	if err != nil {
		return err
	}
	markStartup("game")
	defer g.Close()
	wg := &webGame{Game: g}
	wg.apply(link)
	if linkErr != nil {
		g.ui.fail(linkErr)
	}
	g.ScreenshotDir = "" // screenshots are named for the download, not a folder
	g.Resolution.Auto = true
	wg.shownLink = wg.link()

	js.Global().Set("cordilleraLink", js.FuncOf(func(js.Value, []js.Value) any {
		wg.mu.Lock()
		defer wg.mu.Unlock()
		return wg.shownLink
	}))
	js.Global().Set("cordilleraOpen", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 2 || args[1].Type() != js.TypeObject {
			return nil
		}
		name, data := args[0].String(), make([]byte, args[1].Get("length").Int())
		js.CopyBytesToGo(data, args[1])
		wg.later(func() { g.loadData(name, data) })
		return nil
	}))
	js.Global().Get("window").Call("addEventListener", "hashchange", js.FuncOf(func(js.Value, []js.Value) any {
		l, err := web.ParseFragment(js.Global().Get("location").Get("hash").String())
		wg.later(func() {
			if err != nil {
				g.ui.fail(err)
				return
			}
			wg.apply(l)
		})
		return nil
	}))
	document.Set("title", "Cordillera — "+link.Params.Describe())
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	return ebiten.RunGame(wg)
}

// firstWorld is a coarse world for the first frames, made at once while
// the regenerator makes the real one, or a flat one when p cannot be made.
func firstWorld(p terrain.Params) *World {
	if pw, err := pipeline.Preview(context.Background(), p, terrain.PreviewStride(p, 65), pipeline.Options{}); err == nil {
		return NewWorld(pw.Map)
	}
	m := terrain.NewHeightmap(65, 65)
	m.CellSize = 16
	return NewWorld(m)
}

// apply opens the world, lesson and panels of a link.
func (wg *webGame) apply(l web.Link) {
	g := wg.Game
	g.Params = l.Params
	g.UsePreset(l.Preset)
	g.gen.regen.Request(l.Params)
	if len(l.Open) > 0 {
		g.OpenPanels(l.Open...)
	}
	g.OpenLesson(l.State, true) // a link without a lesson ends the one shown
}

// link is the fragment of a link to the world shown: the preset chosen in
// the Generator panel, the parameters that differ from it, the lesson
// with its stage, octave or batch, plot and camera.
func (wg *webGame) link() string {
	g := wg.Game
	p, st := g.LessonState()
	var pairs strings.Builder
	for _, kv := range st.Pairs() {
		pairs.WriteString(kv[0] + "=" + kv[1] + "&")
	}
	key := linkKey{p, g.ui.preset, pairs.String(), true}
	if key == wg.linkOf {
		return wg.made
	}
	wg.linkOf = key
	l := web.Link{Preset: "default", Params: p, State: st}
	if i := g.ui.preset; i >= 0 && i < len(terrain.Presets) {
		l.Preset = terrain.Presets[i].Name
	}
	wg.made = l.Fragment()
	return wg.made
}

// later queues f to run on the game's goroutine before the next tick.
func (wg *webGame) later(f func()) {
	wg.mu.Lock()
	wg.pending = append(wg.pending, f)
	wg.mu.Unlock()
}

// Update runs what the page asked for, then the explorer's tick, and
// publishes the state for the page.
func (wg *webGame) Update() error {
	wg.mu.Lock()
	pending := wg.pending
	wg.pending = nil
	wg.mu.Unlock()
	for _, f := range pending {
		f()
	}
	if err := wg.Game.Update(); err != nil {
		return err
	}
	link := wg.link()
	wg.mu.Lock()
	wg.shownLink = link
	wg.mu.Unlock()
	if wg.ui.ticks%webStateEvery == 0 {
		if data, err := json.Marshal(webState{State: wg.state(wg.ui.ticks), Frames: wg.frames, BusyFrames: wg.busyDrawn,
			FullFrames: wg.fullDrawn, FullSteps: wg.fullSteps, Link: link, Progress: wg.progress()}); err == nil {
			js.Global().Set("cordilleraState", string(data))
		}
	}
	return nil
}

// Draw draws the explorer's frame and counts it.
func (wg *webGame) Draw(screen *ebiten.Image) {
	wg.Game.Draw(screen)
	if busy, f := wg.gen.regen.Status(); busy {
		wg.busyDrawn++
		if f > previewShare {
			wg.fullDrawn++
			if f > wg.lastProgress {
				wg.fullSteps++
			}
		}
		wg.lastProgress = f
	} else {
		wg.lastProgress = 0
	}
	if wg.frames == 0 { // how long the page took to show the world, for the tests and the curious
		js.Global().Set("cordilleraFirstFrame", js.Global().Get("performance").Call("now"))
		markStartup("firstFrame")
	}
	wg.frames++
}

// webState is State with what only the page needs.
type webState struct {
	State
	Frames int64 `json:"frames"` // frames drawn: they go on while a map is made
	// BusyFrames counts the frames drawn while a world was being made:
	// the page polls the state too seldom to see every one.
	BusyFrames int64 `json:"busy_frames"`
	// FullFrames counts the frames drawn while the full world was made,
	// past its preview (its finishing work included), and
	// FullSteps those drawn at a higher progress than the frame before.
	FullFrames int64   `json:"full_frames"`
	FullSteps  int64   `json:"full_steps"`
	Link       string  `json:"link"`     // the fragment cordilleraLink returns
	Progress   float64 `json:"progress"` // of the generation under way, 0…1
}

func (wg *webGame) progress() float64 {
	_, f := wg.gen.regen.Status()
	return f
}

// markStartup notes in globalThis.cordilleraStartup when a step of the
// start-up ended, in milliseconds since navigation (performance.now): main
// (the Go runtime and every package initialised), preview (the coarse
// first world made), game (the explorer set up), firstFrame. The tests log
// them; they show where the wait before the first frame goes.
func markStartup(step string) {
	marks := js.Global().Get("cordilleraStartup")
	if marks.IsUndefined() {
		marks = js.Global().Get("Object").New()
		js.Global().Set("cordilleraStartup", marks)
	}
	marks.Set(step, js.Global().Get("performance").Call("now"))
}
