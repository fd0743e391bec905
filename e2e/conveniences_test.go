package e2e

import (
	"image"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

// panelStrip is the colour of the strip left of the 3D view that the
// panels stand on (game/resolution.go).
var panelStrip = [3]uint8{24, 24, 24}

// colourShare is the share of r's pixels (every other one) of colour c.
func colourShare(f frameView, r image.Rectangle, c [3]uint8) float64 {
	n, same := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			n++
			if f.rgb(x, y) == c {
				same++
			}
		}
	}
	return float64(same) / float64(max(n, 1))
}

// chord presses the keys together for a tick, then lets them go.
func (a *app) chord(keys ...ebiten.Key) {
	a.t.Helper()
	if err := a.onHost(func() {
		for _, k := range keys {
			a.sess.PressKey(k)
		}
	}); err != nil {
		a.t.Fatal(err)
	}
	a.ticks(1)
	if err := a.onHost(func() {
		for _, k := range keys {
			a.sess.ReleaseKey(k)
		}
	}); err != nil {
		a.t.Fatal(err)
	}
	a.ticks(1)
}

// TestE2EKeysHomeWalkUndo: Home brings the camera back to the overview
// after flying off; Tab to walk levels the view; the panels come back
// folded as they were after U hides them; Ctrl+Z undoes a setting
// changed by key (F2, wireframe), Ctrl+Y and Ctrl+Shift+Z redo it.
func TestE2EKeysHomeWalkUndo(t *testing.T) {
	a := launch(t, exploreArgs...)
	s0 := a.state()
	a.holdKey(ebiten.KeyW, 30)
	a.holdKey(ebiten.KeyD, 30)
	if s := a.state(); s.Camera == s0.Camera {
		t.Fatal("W and D did not move the camera")
	}
	a.pressKey(ebiten.KeyHome)
	if c := a.state().Camera; c != s0.Camera {
		t.Errorf("after Home the camera is %+v; want the overview %+v", c, s0.Camera)
	}

	// Fold Generator, hide the panels and show them: still folded.
	a.moveAway()
	f := a.frame("panels")
	hs := headers(f, findWidgets(f, uiWindow(f)))
	if len(hs) == 0 {
		t.Fatal("no panel header")
	}
	a.click(hs[0].center().X, hs[0].center().Y)
	if p := a.state().Panels; len(p) != 0 {
		t.Fatalf("after folding Generator the unfolded panels are %q", p)
	}
	a.pressKey(ebiten.KeyU)
	a.pressKey(ebiten.KeyU)
	if p := a.state().Panels; len(p) != 0 {
		t.Errorf("after U, U the unfolded panels are %q; want them as they were (none)", p)
	}
	// Folded, the window is as short as its headers: below them is the
	// bare strip the panels stand on (the 3D view lies beside it), not
	// the window's background.
	a.moveAway()
	f = a.frame("folded")
	hs = headers(f, findWidgets(f, uiWindow(f)))
	if len(hs) == 0 {
		t.Fatal("no panel header after U, U")
	}
	below := image.Rect(20, hs[len(hs)-1].R.Max.Y+30, 320, screenH-20)
	if share := colourShare(f, below, panelStrip); share < 0.95 {
		t.Errorf("%.0f %% of %v under the folded panels is the bare strip's colour; want all of it (the window as short as its headers)", 100*share, below)
	}

	if s0.Camera.Pitch == 0 {
		t.Fatal("the overview looks level; want it looking down")
	}
	a.pressKey(ebiten.KeyTab)
	if c := a.state().Camera; c.Mode != "walk" || c.Pitch != 0 {
		t.Errorf("after Tab the camera is %s with pitch %v°; want walk, level", c.Mode, c.Pitch)
	}

	a.pressKey(ebiten.KeyF2)
	if !a.state().Wireframe {
		t.Fatal("F2 did not turn the wireframe on")
	}
	a.chord(ebiten.KeyControlLeft, ebiten.KeyZ)
	if a.state().Wireframe {
		t.Error("Ctrl+Z did not undo the wireframe")
	}
	a.chord(ebiten.KeyControlLeft, ebiten.KeyY)
	if !a.state().Wireframe {
		t.Error("Ctrl+Y did not redo the wireframe")
	}
	a.chord(ebiten.KeyControlLeft, ebiten.KeyZ)
	a.chord(ebiten.KeyControlLeft, ebiten.KeyShiftLeft, ebiten.KeyZ)
	if !a.state().Wireframe {
		t.Error("Ctrl+Shift+Z did not redo the wireframe")
	}
}
