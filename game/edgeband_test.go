package game

import (
	"image"
	"math"
	"testing"
)

// Seen from high above, the map does not read as a denser patch than the
// land beyond it: the local contrast (the mean luminance step between
// neighbouring pixels) in the map's middle and in a band of the land
// beyond at the view's side are about the same (the map was shaded with
// its one-sample normals and light, the land beyond with slopes drawn
// from one sample every 16 and more, and the map's middle stepped 1.18 to
// 1.25 times as much).
func TestMapNoDenserFromAbove(t *testing.T) {
	needLoop(t)
	// The default world at the size whose look was judged: the land
	// beyond's cells are 16 of its samples, a 64th of its side.
	w := generatedWorldBeyond(t, 1025)
	g := newTestGame(t, w)
	ew, _ := w.Map.Extent()
	for _, height := range []float64{1.5, 4} {
		topDown(g, float32(ew/2), float32(height*ew), float32(ew/2))
		waitLight(t, g)
		img := renderFrame(g, false)
		step := func(x0, y0, x1, y1 int) float64 {
			var sum, n float64
			for y := y0; y < y1; y++ {
				for x := x0; x < x1; x++ {
					sum += math.Abs(pixelLum(img, x, y) - pixelLum(img, x+1, y))
					n++
				}
			}
			return sum / n
		}
		// The map's middle (inside it from both heights) and the view's
		// left band (land beyond only).
		in, out := step(testW/2-48, testH/2-48, testW/2+48, testH/2+48), step(0, 0, 96, testH)
		t.Logf("from %.1f map widths up: local contrast %.2f in the map's middle, %.2f beyond it (ratio %.2f)", height, in, out, in/out)
		if r := in / out; r > 1.12 || r < 0.85 {
			t.Errorf("from %.1f map widths up: local contrast %.2f in the map's middle, %.2f beyond it (ratio %.2f)", height, in, out, r)
		}
	}
}

func pixelLum(img *image.RGBA, x, y int) float64 {
	c := img.RGBAAt(x, y)
	return 0.3*float64(c.R) + 0.59*float64(c.G) + 0.11*float64(c.B)
}
