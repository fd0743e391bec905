package game

import (
	"testing"
)

// The land's colours are those of real land cover, not a game's: seen
// from the default overview under the default look, no ground pixel is
// lime (a saturated yellow-green no meadow or forest shows from the air),
// brick (rock redder than any grey granite, gneiss or limestone) or cream
// (snow yellower than white).
func TestLandCoverColoursAreCalibrated(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 257))
	full := renderFrame(g, false)
	sky := renderFrame(g, true)
	var ground, lime, brick, cream int
	for y := range testH {
		for x := range testW {
			c, s := full.RGBAAt(x, y), sky.RGBAAt(x, y)
			if max(abs(int(c.R)-int(s.R)), abs(int(c.G)-int(s.G)), abs(int(c.B)-int(s.B))) <= 2 {
				continue // sky
			}
			ground++
			r, gr, b := float64(c.R), float64(c.G), float64(c.B)
			switch {
			case gr > 1.35*r && gr > 2*b && gr > 110: // lime: bright, saturated, yellow-green
				lime++
			case r > 1.25*gr && r > 1.4*b && r > 90: // brick: red-brown
				brick++
			case r+gr+b > 3*200 && (r+gr)/2 > b+14: // cream: bright and yellow
				cream++
			}
		}
	}
	t.Logf("%d ground pixels: %d lime, %d brick, %d cream", ground, lime, brick, cream)
	if ground < testW*testH/3 {
		t.Fatalf("only %d ground pixels: the view misses the land", ground)
	}
	for _, c := range []struct {
		name string
		n    int
	}{{"lime", lime}, {"brick", brick}, {"cream", cream}} {
		if c.n > ground/200 {
			t.Errorf("%d of %d ground pixels are %s", c.n, ground, c.name)
		}
	}
}
