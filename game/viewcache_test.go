package game

import (
	"image"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"
)

// The 3D view is drawn again only when something it shows changes: a
// frame with nothing changed copies the last view (the same pixels, no
// redraw), and a moved camera, a changed setting, new materials and a new
// world each draw it anew.
func TestViewIsRedrawnOnlyWhenItChanges(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 129))
	lowView(g.Camera, g.World.Map)
	first := renderFrame(g, false)
	n0 := g.scene.view.redraws
	again := renderFrame(g, false)
	if g.scene.view.redraws != n0 {
		t.Errorf("a frame with nothing changed drew the view again (%d redraws, want %d)", g.scene.view.redraws, n0)
	}
	all := image.Rect(0, 0, testW, testH)
	if n, total := differing(first, again, all, 0); n > 0 {
		t.Errorf("the copied view differs from the drawn one in %d of %d pixels", n, total)
	}
	for _, tc := range []struct {
		name   string
		change func()
	}{
		{"camera turned", func() { g.Camera.Yaw += mgl32.DegToRad(20) }},
		{"camera moved", func() { g.Camera.Pos[1] += 30 }},
		{"wireframe", func() { g.View.Wireframe = true }},
		{"sun lowered", func() { g.View.SunElevation = 8 }},
		{"materials", func() { onLoop(func() { g.render.setAtlas(flatAtlas()) }) }},
		{"new world", func() { g.World = testWorld(t, 65) }},
	} {
		before := renderFrame(g, false)
		n := g.scene.view.redraws
		tc.change()
		after := renderFrame(g, false)
		if g.scene.view.redraws != n+1 {
			t.Errorf("%s: %d redraws; want 1", tc.name, g.scene.view.redraws-n)
		}
		if d, _ := differing(before, after, all, 2); d == 0 {
			t.Errorf("%s: the frame did not change", tc.name)
		}
	}
}

// While the view is slow to draw and input keeps arriving, a changed view
// waits for input to be quiet for as long as a redraw takes, so that the
// redraw never swallows the next key press or click; it never waits longer
// than maxRedrawWait, and a view that is quick to draw never waits.
func TestSlowRedrawWaitsForQuietInput(t *testing.T) {
	t0 := time.Unix(1000, 0)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	old, changed := viewKey{scale: 1}, viewKey{scale: 0.5}
	var none viewCache
	if !none.needsRedraw(old, t0, time.Second) {
		t.Fatal("a view never drawn was not drawn")
	}

	slow := 300 * time.Millisecond
	// Three key presses 80 ms apart, each changing the view: nothing is
	// drawn until 300 ms after the last.
	cc := viewCacheWithImage(old)
	for i, at := range []int{0, 80, 160} {
		cc.lastInput = ms(at)
		if cc.needsRedraw(changed, ms(at+10), slow) {
			t.Fatalf("press %d: the slow view was drawn 10 ms after input", i+1)
		}
	}
	if cc.needsRedraw(changed, ms(400), slow) {
		t.Error("the slow view was drawn 240 ms after the last press; want it to wait 300 ms")
	}
	if !cc.needsRedraw(changed, ms(460), slow) {
		t.Error("the slow view was not drawn 300 ms after the last press")
	}
	// Input every 100 ms for ever: the view is drawn after maxRedrawWait.
	cc = viewCacheWithImage(old)
	drawnAt := -1
	for at := 0; at <= 3000; at += 50 {
		if at%100 == 0 {
			cc.lastInput = ms(at)
		}
		if cc.needsRedraw(changed, ms(at), slow) {
			drawnAt = at
			break
		}
	}
	if want := int(maxRedrawWait / time.Millisecond); drawnAt < want || drawnAt > want+50 {
		t.Errorf("under endless input the view was drawn at %d ms; want at %d ms", drawnAt, want)
	}
	// A quick view is drawn at once, input or not.
	cc = viewCacheWithImage(old)
	cc.lastInput = ms(0)
	if !cc.needsRedraw(changed, ms(1), 20*time.Millisecond) {
		t.Error("a view that takes 20 ms to draw waited for input to stop")
	}
	// An unchanged view is never drawn, slow or not.
	cc = viewCacheWithImage(old)
	if cc.needsRedraw(old, ms(5000), slow) {
		t.Error("an unchanged view was drawn again")
	}
}

// viewCacheWithImage is a cache showing the view with key.
func viewCacheWithImage(key viewKey) *viewCache {
	c := &viewCache{}
	c.drawn(key, nil)
	return c
}
