package game

import (
	"image"
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

// snowPixels counts the ground pixels of img (those that differ from the
// sky-only frame sky) that are snow: bright and neutral.
func snowPixels(img, sky *image.RGBA) (snow, ground int) {
	for y := range testH {
		for x := range testW {
			c, s := img.RGBAAt(x, y), sky.RGBAAt(x, y)
			if max(abs(int(c.R)-int(s.R)), abs(int(c.G)-int(s.G)), abs(int(c.B)-int(s.B))) <= 2 {
				continue
			}
			ground++
			lo, hi := min(c.R, c.G, c.B), max(c.R, c.G, c.B)
			if lo > 170 && hi-lo < 40 {
				snow++
			}
		}
	}
	return snow, ground
}

// Snow lies by altitude in metres: the default world's 200 m of hills
// carry none, and the same relief 4 km high is white only on its upper
// part, above the Alps' snow line (both seen from above).
func TestSnowLineInMetres(t *testing.T) {
	needLoop(t)
	base := testWorld(t, 257)
	count := func(vs float64) (snow, ground int) {
		// The same shape at another scale: slopes kept.
		m := *base.Map
		m.CellSize *= vs / base.Map.VerticalScale
		m.VerticalScale = vs
		g := newTestGame(t, NewWorld(&m))
		onLoop(g.fitSnowLine)
		ew, ed := m.Extent()
		topDown(g, float32(ew/2), float32(vs+0.9*ew), float32(ed/2))
		waitLight(t, g)
		return snowPixels(renderFrame(g, false), renderFrame(g, true))
	}
	hillSnow, hillGround := count(200)
	alpSnow, alpGround := count(4000)
	t.Logf("200 m of relief: %d snow pixels of %d; 4000 m: %d of %d", hillSnow, hillGround, alpSnow, alpGround)
	if hillSnow > hillGround/500 {
		t.Errorf("200 m hills: %d of %d ground pixels are snow", hillSnow, hillGround)
	}
	if alpSnow < alpGround/100 || alpSnow > alpGround/2 {
		t.Errorf("a 4000 m range: %d of %d ground pixels are snow; want its upper part white", alpSnow, alpGround)
	}
}
