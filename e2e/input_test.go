package e2e

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/exp/vmhost"

	"cordillera/game"
)

// slowFrames drives the explorer as Ebiten runs it on a machine that draws
// 4 frames a second: Ebiten reads the input once per frame and then runs
// all the ticks the frame took (15 at 60 ticks per second) with it, so
// everything the user did in those 250 ms arrives at once, in order, on the
// frame's first tick. Each window injects one such quarter second of input,
// runs the frame's ticks, and draws the frame (with the guest's own 250 ms
// draw delay).
type slowFrames struct {
	a        *app
	perFrame int // ticks per frame
}

// window runs one frame with the input the user gave during it.
func (s slowFrames) window(input func(g *vmhost.GuestSession)) {
	s.a.t.Helper()
	if input != nil {
		if err := s.a.onHost(func() { input(s.a.sess) }); err != nil {
			s.a.t.Fatal(err)
		}
	}
	s.a.ticks(s.perFrame)
	if err := s.a.onHost(func() {
		s.a.sess.AdvanceFrame()
		if s.a.sess.WaitFrame() {
			s.a.sess.CompositeFrame()
		}
	}); err != nil {
		s.a.t.Fatal(err)
	}
}

// click is a 50 ms click at p, the pointer moving there in the same frame:
// move, press, release all arrive together.
func (s slowFrames) click(p [2]int) {
	s.a.t.Helper()
	s.window(func(g *vmhost.GuestSession) {
		g.MoveCursor(float64(p[0]), float64(p[1]))
		g.PressMouseButton(ebiten.MouseButtonLeft)
		g.ReleaseMouseButton(ebiten.MouseButtonLeft)
	})
}

// holdKey holds key down for n frames.
func (s slowFrames) holdKey(key ebiten.Key, n int) {
	s.a.t.Helper()
	s.window(func(g *vmhost.GuestSession) { g.PressKey(key) })
	for range n - 1 {
		s.window(nil)
	}
	s.window(func(g *vmhost.GuestSession) { g.ReleaseKey(key) })
}

// typeAt types text at perSecond characters a second: each frame gets the
// characters typed during its quarter second.
func (s slowFrames) typeAt(text string, perSecond int) {
	s.a.t.Helper()
	rs := []rune(text)
	framesPerSecond := ebitenTPS(s.a) / s.perFrame
	for frame := 0; len(rs) > 0; frame++ {
		// Character i is typed at i/perSecond s, in frame i·fps/perSecond.
		var now []rune
		for len(rs) > 0 && (len(text)-len(rs))*framesPerSecond/perSecond <= frame {
			now, rs = append(now, rs[0]), rs[1:]
		}
		s.window(func(g *vmhost.GuestSession) {
			for _, r := range now {
				g.TypeRune(r)
			}
		})
	}
}

func ebitenTPS(a *app) int { return a.sess.RequestedTPS() }

// keyRepeats is how many times a key held for n ticks acts in a text
// field: once when it goes down, then, after 0.4 s, every 4 ticks (15 a
// second at 60 ticks per second), as in any desktop text field.
func keyRepeats(n, tps int) int {
	delay := tps * 24 / 60
	count := 0
	for d := 1; d <= n; d++ {
		if d == 1 || d >= delay && (d-delay)%4 == 0 {
			count++
		}
	}
	return count
}

// panelHeaders finds the panel headers in a fresh frame, pointer kept.
func panelHeaders(a *app, name string) []widget {
	a.t.Helper()
	f := a.frame(name)
	return headers(f, findWidgets(f, uiWindow(f)))
}

// TestE2EInputAtFourFPS is issue 12's input test: with the explorer
// throttled to 4 FPS, every header click (50 ms, the pointer arriving in
// the same frame from the header above) unfolds exactly its own panel; a
// 40-character path typed at 15 characters a second arrives exactly; held
// BackSpace deletes exactly as many characters as its repeat promises; a
// quick drag on a slider moves that slider and no other.
func TestE2EInputAtFourFPS(t *testing.T) {
	a := launch(t, append(slices.Clone(exploreArgs), "-draw-delay", "250ms")...)
	tps := ebitenTPS(a)
	if tps <= 0 || tps%4 != 0 {
		t.Fatalf("the guest asks for %d ticks per second; want a fixed rate divisible by 4", tps)
	}
	s := slowFrames{a: a, perFrame: tps / 4}
	a.moveAway()
	panels := func(what string, want ...string) {
		t.Helper()
		if got := a.state().Panels; !slices.Equal(got, want) {
			t.Fatalf("%s: the unfolded panels are %q; want %q", what, got, want)
		}
	}

	// Headers: each click from the header above it, where the pointer
	// rested during the frames before.
	hs := panelHeaders(a, "start")
	if len(hs) == 0 {
		t.Fatal("no panel header in the UI window")
	}
	s.click(hs[0].centerPt())
	s.window(nil)
	panels("after clicking Generator", nil...)
	names := panelNames
	for i := 1; i < len(names); i++ {
		hs = panelHeaders(a, "headers-"+names[i])
		if len(hs) != len(names) {
			t.Fatalf("with the panels folded the UI shows %d headers; want %d", len(hs), len(names))
		}
		s.click(hs[i].centerPt()) // the pointer was on header i-1
		s.window(nil)
		panels("after clicking "+names[i], names[i])
		if i == len(names)-1 {
			break
		}
		s.click(hs[i].centerPt()) // fold it again
		s.window(nil)
		panels("after clicking "+names[i]+" again", nil...)
	}
	s.click(hs[hdrTeach].centerPt()) // fold Teach
	s.window(nil)
	panels("after folding Teach", nil...)

	// The path field: unfold File, click the field (the pointer arriving
	// from the File header in the same frame).
	hs = panelHeaders(a, "file-header")
	s.click(hs[hdrFile].centerPt())
	s.window(nil)
	panels("after unfolding File", "File")
	f := a.frame("file-open")
	ws := findWidgets(f, uiWindow(f))
	var field widget
	for _, w := range below(ws, hs[hdrFile].R.Max.Y) {
		if w.Kind == baseWidget && w.R.Dx() >= 150 {
			field = w
			break
		}
	}
	if field.R.Empty() {
		t.Fatalf("no path field under the File header; widgets: %s", describe(ws))
	}
	s.click(field.centerPt())
	start := a.state().Path
	s.holdKey(ebiten.KeyBackspace, 12) // 3 s: more than enough for "map.png"
	if got := a.state().Path; got != "" {
		t.Fatalf("holding BackSpace 3 s on %q left %q; want it all deleted (%d repeats)", start, got, keyRepeats(12*s.perFrame, tps))
	}
	path := "terrain/alps/ridged-4097/heightmap-0.png"
	if len(path) != 40 {
		t.Fatalf("the test path has %d characters; want 40", len(path))
	}
	s.typeAt(path, 15)
	s.window(nil)
	if got := a.state().Path; got != path {
		t.Fatalf("typed %q at 15 characters a second at 4 FPS; the field holds %q", path, got)
	}
	held := 8 * s.perFrame // 2 s
	want := path[:len(path)-keyRepeats(held, tps)]
	s.holdKey(ebiten.KeyBackspace, 8)
	if got := a.state().Path; got != want {
		t.Fatalf("holding BackSpace 2 s (%d ticks, %d repeats) left %q; want %q", held, keyRepeats(held, tps), got, want)
	}
	s.holdKey(ebiten.KeyBackspace, 12)
	if got := a.state().Path; got != "" {
		t.Fatalf("holding BackSpace 3 s more left %q; want nothing", got)
	}
	// A BackSpace tapped between two frames still deletes one character.
	s.typeAt("xy", 15)
	s.window(func(g *vmhost.GuestSession) {
		g.PressKey(ebiten.KeyBackspace)
		g.ReleaseKey(ebiten.KeyBackspace)
	})
	if got := a.state().Path; got != "x" {
		t.Fatalf("typing xy and tapping BackSpace within one frame left %q; want \"x\"", got)
	}

	// A quick drag on a Viewer slider, the pointer coming from the slider
	// above it: fold File, unfold Viewer.
	s.click(hs[hdrFile].centerPt())
	s.click(hs[hdrViewer].centerPt())
	s.window(nil)
	panels("after unfolding Viewer", "Viewer")
	f = a.frame("viewer-open")
	hs = headers(f, findWidgets(f, uiWindow(f)))
	var sliders []widget
	for _, w := range below(findWidgets(f, uiWindow(f)), hs[hdrViewer].R.Max.Y) {
		if w.Kind == baseWidget && w.R.Dx() >= 120 && w.R.Dy() < 40 {
			sliders = append(sliders, w)
		}
	}
	if len(sliders) < 3 {
		t.Fatalf("found %d sliders in the Viewer panel; want at least 3", len(sliders))
	}
	above, target := sliders[1], sliders[2]
	v0 := a.state().View
	s.window(func(g *vmhost.GuestSession) { g.MoveCursor(float64(above.center().X), float64(above.center().Y)) })
	s.window(nil)
	y := float64(target.center().Y)
	s.window(func(g *vmhost.GuestSession) {
		g.MoveCursor(float64(target.R.Min.X+target.R.Dx()/4), y)
		g.PressMouseButton(ebiten.MouseButtonLeft)
	})
	s.window(func(g *vmhost.GuestSession) {
		g.MoveCursor(float64(target.R.Max.X-2), y)
		g.ReleaseMouseButton(ebiten.MouseButtonLeft)
	})
	s.window(nil)
	changed, err := viewerChanges(v0, a.state().View)
	if err != nil {
		t.Fatal(err)
	}
	if len(changed) != 1 {
		t.Fatalf("a quick drag on the slider at %v changed the settings %q; want exactly one", target.R, changed)
	}
	t.Logf("the drag moved %s", changed[0])
	// The drag ended at the slider's right end: so does its thumb.
	thumbAtEnd := func(f frameView) bool {
		return kindOf(f.rgb(target.R.Max.X-4, target.R.Min.Y+3)) == buttonWidget
	}
	if thumbAtEnd(f) {
		t.Fatalf("the slider at %v starts at its right end; pick another", target.R)
	}
	if !thumbAtEnd(a.frame("dragged")) {
		t.Errorf("after a drag released at the right end of the slider at %v, its thumb is not there", target.R)
	}
}

// centerPt is the widget's centre as a pair.
func (w widget) centerPt() [2]int {
	c := w.center()
	return [2]int{c.X, c.Y}
}

// viewerChanges lists the Viewer settings that differ, with their values.
func viewerChanges(a, b game.Viewer) ([]string, error) {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if va.NumField() == 0 {
		return nil, errors.New("the state reports no Viewer settings")
	}
	var out []string
	for i := range va.NumField() {
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			out = append(out, fmt.Sprintf("%s %v → %v", va.Type().Field(i).Name, va.Field(i), vb.Field(i)))
		}
	}
	return out, nil
}
