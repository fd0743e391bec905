package e2e

import (
	"image"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

// TestE2ELeftDragLooksAround drags with the left button across the 3D
// view: the camera turns with the pointer, as with the right button. A
// click without motion on the view, and a drag that starts on a panel's
// header and ends over the view, leave it facing where it did.
func TestE2ELeftDragLooksAround(t *testing.T) {
	a := launch(t, exploreArgs...)
	host := func(f func()) {
		t.Helper()
		if err := a.onHost(f); err != nil {
			t.Fatal(err)
		}
	}
	drag := func(from, to image.Point) {
		t.Helper()
		host(func() { a.sess.MoveCursor(float64(from.X), float64(from.Y)) })
		a.ticks(2)
		host(func() { a.sess.PressMouseButton(ebiten.MouseButtonLeft) })
		a.ticks(1)
		for i := 1; i <= 4; i++ {
			p := from.Add(to.Sub(from).Mul(i).Div(4))
			host(func() { a.sess.MoveCursor(float64(p.X), float64(p.Y)) })
			a.ticks(1)
		}
		host(func() { a.sess.ReleaseMouseButton(ebiten.MouseButtonLeft) })
		a.ticks(2)
	}

	s0 := a.state()
	view := image.Pt(screenW*3/4, 150) // right of the panels, above the minimap
	a.click(view.X, view.Y)
	if c := a.state().Camera; c.Yaw != s0.Camera.Yaw || c.Pitch != s0.Camera.Pitch {
		t.Errorf("a click on the view turned the camera: yaw, pitch %v°, %v° → %v°, %v°", s0.Camera.Yaw, s0.Camera.Pitch, c.Yaw, c.Pitch)
	}

	s1 := a.state()
	drag(view, view.Add(image.Pt(80, 0)))
	c := a.state().Camera
	t.Logf("an 80 px left drag on the view: yaw %v° → %v°", s1.Camera.Yaw, c.Yaw)
	if turn := c.Yaw - s1.Camera.Yaw; turn < 5 || turn > 25 {
		t.Errorf("an 80 px left drag to the right turned the camera %v°; want about 14° (0.003 rad a pixel)", turn)
	}

	s2 := a.state()
	f := a.frame("panels")
	hs := headers(f, findWidgets(f, uiWindow(f)))
	if len(hs) == 0 {
		t.Fatal("no panel header found")
	}
	h := hs[len(hs)-1].center()
	drag(h, view)
	if c := a.state().Camera; c.Yaw != s2.Camera.Yaw || c.Pitch != s2.Camera.Pitch {
		t.Errorf("a drag from the panel header at %v onto the view turned the camera: yaw, pitch %v°, %v° → %v°, %v°", h, s2.Camera.Yaw, s2.Camera.Pitch, c.Yaw, c.Pitch)
	}
}
