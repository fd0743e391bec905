package game

import (
	"image"
	"math"
	"testing"

	"cordillera/terrain"
)

// dome is a size² map of a spherical cap filling the map (a flat rim
// around it), so that its ground faces every way: its normals pass
// through every mix of the three projections' weights.
func dome(size int, vs float64) *terrain.Heightmap {
	m := terrain.NewHeightmap(size, size)
	m.VerticalScale = vs
	c := float64(size-1) / 2
	for r := 0; r < size; r++ {
		for col := 0; col < size; col++ {
			d := math.Hypot(float64(col)-c, float64(r)-c) / c
			m.Set(col, r, float32(math.Sqrt(math.Max(0, 1-d*d))))
		}
	}
	return m
}

// With the repeat hidden the textures are sampled from two projections
// (biplanar) and the tile-breaking second sampling from the dominant one
// alone. Both must keep a flat texture exactly flat on ground facing any
// way, as the thesis's three-projection sampling does: their weights have
// to sum to one. With the flat atlas the two ways draw the same frame.
func TestBiplanarKeepsFlatTexturesFlat(t *testing.T) {
	needLoop(t)
	const size, vs = 129, 50.0
	g := shadingGame(t, dome(size, vs), 160)
	g.View.Texturing, g.View.Shadows, g.View.Occlusion = ByHeight, false, false
	g.View.BreakTiling = true
	look := renderFrame(g, false)
	g.View.BreakTiling = false
	thesis := renderFrame(g, false)
	all := image.Rect(0, 0, testW, testH)
	if n, total := differing(look, thesis, all, 2); n > 0 {
		t.Errorf("%d of %d pixels differ between the two-plane and the three-plane sampling of a flat texture", n, total)
	}
	// The dome must fill much of the view for the check to mean anything.
	if n, total := differing(look, renderFrame(g, true), all, 8); n < total/4 {
		t.Fatalf("only %d of %d pixels show ground", n, total)
	}
}
