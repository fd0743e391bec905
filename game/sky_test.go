package game

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// At a low sun the sky's light on the ground dims far less than the
// sun's: the side of a hill turned away from it keeps a fill of at least
// 70 % of the noon sky's light, not the 40–50 % that crushed a dusk
// foreground to near-black.
func TestDuskKeepsTheSkyFill(t *testing.T) {
	v := DefaultViewer()
	v.SunElevation = 5
	l := lightOf(&v)
	for c := range 3 {
		if l.zenith[c] < 0.7*v.SkyColor[c] {
			t.Errorf("sun at 5°: sky light %.3f in channel %d, want at least 70 %% of the noon sky's %.3f", l.zenith[c], c, v.SkyColor[c])
		}
	}
	v.SunElevation = 60
	if l := lightOf(&v); l.zenith != v.SkyColor {
		t.Errorf("sun at 60°: sky light %v, want the view's own %v", l.zenith, v.SkyColor)
	}
}

// Seen from 5.6 km up, the hazy sky at the horizon is bright but not
// clipped: no pixel has a channel at full scale (clipped one by one,
// green and blue had turned a strip along the horizon flat cyan-white,
// #E6FFFF) away from the sun's disc.
func TestHorizonSkyRollsOff(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 257))
	g.Camera.Mode = Fly
	g.Camera.Pos = mgl32.Vec3{512, 5600, 512}
	g.Camera.Yaw, g.Camera.Pitch = 0, mgl32.DegToRad(-5)
	g.View.SunAzimuth = 180 // behind the eye
	img := renderFrame(g, true)
	clipped := 0
	for y := 0; y < testH; y++ {
		for x := 0; x < testW; x++ {
			c := img.RGBAAt(x, y)
			if max(c.R, c.G, c.B) == 255 {
				clipped++
			}
		}
	}
	if clipped > 0 {
		t.Errorf("%d of %d sky pixels have a channel at 255", clipped, testW*testH)
	}
}
