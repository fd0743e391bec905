package game

import "testing"

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
