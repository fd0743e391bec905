package game

import (
	"image"
	"math"
	"testing"
)

// chunkTriangles projects f's chunks one by one and returns their
// triangles in draw order with, for each, the index of its chunk.
func chunkTriangles(f *frame, c *Camera, w, h int, world *World) (tris []emittedTri, chunkOf []int) {
	p := newProjector(viewProjection(c, w, h), w, h, c.Near)
	for i := range f.chunks {
		var b batch
		b.addChunk(&p, &f.chunks[i], world.Map, world.Normals, false, false)
		for _, t := range collect(&frame{batches: []batch{b}}) {
			tris = append(tris, t)
			chunkOf = append(chunkOf, i)
		}
	}
	return tris, chunkOf
}

// minAltitude is a triangle's smallest height in pixels, twice its area
// over its longest side: how close its lines come to each other on
// screen. The wireframe fades lines closer than a few pixels.
func minAltitude(t *emittedTri) float64 {
	a, b, c := t.screen[0], t.screen[1], t.screen[2]
	area2 := math.Abs((b[0]-a[0])*(c[1]-a[1]) - (c[0]-a[0])*(b[1]-a[1]))
	longest := 0.0
	for q := range 3 {
		p, r := t.screen[q], t.screen[(q+1)%3]
		longest = max(longest, math.Hypot(p[0]-r[0], p[1]-r[1]))
	}
	if longest == 0 {
		return 0
	}
	return area2 / longest
}

// onWireLine reports whether the side from a to b (world x, z) lies on
// one of the lines the wireframe draws: constant x, constant z or constant
// x + z (cuts at the near plane and fans towards a finer neighbour's
// vertices are not among them).
func onWireLine(a, b [2]float64) bool {
	const eps = 1e-3
	return math.Abs(a[0]-b[0]) < eps || math.Abs(a[1]-b[1]) < eps || math.Abs(a[0]+a[1]-b[0]-b[1]) < eps
}

// hasSide reports whether t has the side from a to b (world x, z).
func hasSide(t *emittedTri, a, b [2]float64) bool {
	has := func(p [2]float64) bool {
		for _, v := range t.xz {
			if math.Abs(v[0]-p[0]) < 1e-3 && math.Abs(v[1]-p[1]) < 1e-3 {
				return true
			}
		}
		return false
	}
	return has(a) && has(b)
}

// chunkLines counts, per chunk, the midpoints of its visible mesh edges
// that were checked and those drawn dark by the wireframe.
type chunkLines struct{ checked, drawn int }

// countLines looks at the midpoint of every side on a wire line of the
// triangles at least minHeight pixels high in every direction, where the
// z-buffer shows that side: the wireframe frame must differ from the plain
// one within a pixel of it.
func countLines(plain, wire *image.RGBA, tris []emittedTri, chunkOf []int, n, w, h int, minHeight float64) []chunkLines {
	z := depthImage(tris, w, h)
	// The wireframe is the only difference between the two frames.
	drawn := func(x, y int) bool {
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				o := plain.PixOffset(x+dx, y+dy)
				for c := range 3 {
					if d := int(plain.Pix[o+c]) - int(wire.Pix[o+c]); d > 12 || d < -12 {
						return true
					}
				}
			}
		}
		return false
	}
	out := make([]chunkLines, n)
	for id := range tris {
		t := &tris[id]
		if minAltitude(t) < minHeight {
			continue
		}
		for q := range 3 {
			a, b := t.screen[q], t.screen[(q+1)%3]
			if !onWireLine(t.xz[q], t.xz[(q+1)%3]) {
				continue
			}
			x, y := int(math.Floor((a[0]+b[0])/2)), int(math.Floor((a[1]+b[1])/2))
			if x < 1 || y < 1 || x >= w-1 || y >= h-1 {
				continue
			}
			if seen := z.ID[y*w+x]; seen < 0 || chunkOf[seen] != chunkOf[id] || !hasSide(&tris[seen], t.xz[q], t.xz[(q+1)%3]) {
				continue // hidden, or another chunk's surface
			}
			k := &out[chunkOf[id]]
			k.checked++
			if drawn(x, y) {
				k.drawn++
			}
		}
	}
	return out
}

// Every chunk keeps its wireframe lines: over the 27 cameras of the draw
// order test at 1280×720, the visible mesh edges of each chunk's
// triangles that are large enough for the lines not to fade out as too
// dense (10 pixels high in every direction) are drawn dark. The frames
// are drawn once for this test and the pinhole test (testViewChecks).
func TestEveryChunkHasWireframeLines(t *testing.T) {
	checked := 0
	for _, v := range testViewChecks(t) {
		for k, cl := range v.lines {
			if cl.checked < 4 {
				continue
			}
			checked++
			if cl.drawn*10 < cl.checked*9 {
				ch := v.chunks[k]
				t.Errorf("%s %+v: chunk at (%d,%d) step %d: lines on %d of %d mesh edges", v.preset, v.pose, ch.col, ch.row, ch.step, cl.drawn, cl.checked)
			}
		}
	}
	if checked < 50 {
		t.Errorf("only %d chunks checked; the views should show many with wide triangles", checked)
	}
	t.Logf("%d chunks checked", checked)
}
