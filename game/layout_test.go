package game

import (
	"image"
	"math"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"cordillera/terrain"
)

// renderSized draws one frame of g into a w×h screen and reads it back.
func renderSized(g *Game, w, h int) *image.RGBA {
	var img *image.RGBA
	onLoop(func() {
		screen := ebiten.NewImage(w, h)
		defer screen.Deallocate()
		g.Draw(screen)
		img = ScreenPixels(screen)
	})
	return img
}

// spikeWorld is flat ground 1 km across with, if spike, a 200 m column
// 24 m wide at its centre.
func spikeWorld(spike bool) *World {
	const size = 129
	m := terrain.NewHeightmap(size, size)
	m.CellSize, m.VerticalScale = 8, 1
	if spike {
		for y := size/2 - 1; y <= size/2+1; y++ {
			for x := size/2 - 1; x <= size/2+1; x++ {
				m.Samples[y*size+x] = 200
			}
		}
	}
	return NewWorld(m)
}

// With the panels shown the 3D view lies right of their strip: a column
// straight ahead of the camera (its forward point) is drawn at the centre
// of that rectangle, not of the window, and nothing of the terrain or sky
// is drawn on the strip. With the panels hidden the view is the whole
// window again.
func TestViewBesideThePanels(t *testing.T) {
	needLoop(t)
	const w, h = 1280, 720
	with, without := newTestGame(t, spikeWorld(true)), newTestGame(t, spikeWorld(false))
	for _, g := range []*Game{with, without} {
		g.Camera.Pos = [3]float32{512, 100, 112}
		g.Camera.Yaw, g.Camera.Pitch = math.Pi/2, 0 // along +z, level: the column is straight ahead
		// The level plane beyond the map: the land continued beyond a
		// loaded map mirrors it, column included, elsewhere in the view.
		g.View.Continue = false
	}
	for _, c := range []struct {
		name    string
		panels  bool
		centreX float64
	}{
		{"panels shown", true, float64(panelStrip+w) / 2},
		{"panels hidden", false, w / 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			with.ShowUI, without.ShowUI = c.panels, c.panels
			a, b := renderSized(with, w, h), renderSized(without, w, h)
			// A row above the horizon: sky, and the column where it stands.
			y := h/2 - 30
			sum, n := 0, 0
			for x := range w {
				if d, _ := differing(a, b, image.Rect(x, y, x+1, y+1), 8); d > 0 {
					sum += x
					n++
				}
			}
			if n < 10 {
				t.Fatalf("the column shows on %d pixels of row %d; want it in view", n, y)
			}
			if got := float64(sum)/float64(n) + 0.5; math.Abs(got-c.centreX) > 2 {
				t.Errorf("the column straight ahead is drawn at x %.1f; want the view's centre, x %.1f", got, c.centreX)
			}
			if !c.panels {
				return
			}
			for y := range h {
				for x := range panelStrip {
					i := a.PixOffset(x, y)
					if got := [3]uint8{a.Pix[i], a.Pix[i+1], a.Pix[i+2]}; got != [3]uint8{panelStripColour.R, panelStripColour.G, panelStripColour.B} {
						t.Fatalf("pixel (%d, %d) under the panels is %v; want the strip's colour, no 3D view there", x, y, got)
					}
				}
			}
		})
	}
}
