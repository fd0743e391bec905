// Package zbuffer is a small CPU triangle rasterizer that writes triangle
// ids into a pixel grid, either with a depth test (a z-buffer) or by plain
// overwriting (the painter's algorithm). Drawing the same triangles both
// ways and comparing the two grids checks a back-to-front triangle order:
// Ebiten has no depth buffer, so the terrain renderer relies on one.
//
// Coverage is exact: vertices are snapped to 1/256 pixel and the edge
// functions are evaluated in 128-bit integers, so two triangles sharing an
// edge never both cover a pixel centre on it and never both miss it (the
// top-left fill rule of Direct3D and OpenGL).
package zbuffer

import (
	"math"
	"math/bits"
)

// subpixel is the number of fixed-point steps per pixel.
const subpixel = 256

// maxCoord bounds the screen coordinates Fill accepts, in pixels: 2^40
// keeps every edge function within 128 bits and every per-pixel increment
// within 64 bits.
const maxCoord = 1 << 40

// Empty is the id of a pixel no triangle covers.
const Empty = -1

// Raster is a w×h grid of triangle ids and their depths, row-major, row 0
// at the top; pixel (x, y) has its centre at (x+0.5, y+0.5).
type Raster struct {
	W, H  int
	ID    []int     // Empty where no triangle covers the pixel
	Depth []float64 // depth of the triangle in ID at the pixel centre; +Inf where empty
}

// NewRaster returns an empty w×h raster.
func NewRaster(w, h int) *Raster {
	r := &Raster{W: w, H: h, ID: make([]int, w*h), Depth: make([]float64, w*h)}
	r.Clear()
	return r
}

// Clear empties every pixel.
func (r *Raster) Clear() {
	for i := range r.ID {
		r.ID[i] = Empty
		r.Depth[i] = math.Inf(1)
	}
}

// Fill draws the triangle a, b, c, each vertex (screen x, screen y, depth)
// with x, y in pixels (y down) and a depth that grows with distance and is
// affine in screen space (NDC z, or −1/w of a perspective projection; not
// the view distance itself). Every pixel whose centre it covers takes id
// and the interpolated depth: always when test is false (painter's
// algorithm), only where that depth is smaller than the stored one when
// test is true (z-buffer; the first of equal depths stays). Either winding
// is accepted. It returns false, drawing nothing, for a degenerate
// triangle or a vertex that is not finite or lies beyond 2^40 pixels.
func (r *Raster) Fill(a, b, c [3]float64, id int, test bool) bool {
	var v [3][2]int64
	for i, p := range [3][3]float64{a, b, c} {
		for k := range 2 {
			if !(math.Abs(p[k]) <= maxCoord) {
				return false
			}
			v[i][k] = int64(math.Round(p[k] * subpixel))
		}
	}
	d := [3]float64{a[2], b[2], c[2]}
	area := edgeAt(v[0], v[1], v[2])
	switch area.sign() {
	case 0:
		return false
	case -1:
		v[1], v[2] = v[2], v[1]
		d[1], d[2] = d[2], d[1]
		area = area.neg()
	}
	areaF := area.float()

	// Pixels whose centres lie in the vertices' bounding box.
	lo := [2]int64{min(v[0][0], v[1][0], v[2][0]), min(v[0][1], v[1][1], v[2][1])}
	hi := [2]int64{max(v[0][0], v[1][0], v[2][0]), max(v[0][1], v[1][1], v[2][1])}
	x0 := max(ceilDiv(lo[0]-subpixel/2, subpixel), 0)
	y0 := max(ceilDiv(lo[1]-subpixel/2, subpixel), 0)
	x1 := min(floorDiv(hi[0]-subpixel/2, subpixel), int64(r.W-1))
	y1 := min(floorDiv(hi[1]-subpixel/2, subpixel), int64(r.H-1))
	if x0 > x1 || y0 > y1 {
		return true
	}

	// Edge k runs from vertex k+1 to vertex k+2 and is opposite vertex k,
	// so its edge function is vertex k's barycentric weight times area.
	var e [3]edge
	start := [2]int64{x0*subpixel + subpixel/2, y0*subpixel + subpixel/2}
	for k := range 3 {
		e[k] = newEdge(v[(k+1)%3], v[(k+2)%3], start)
	}
	for y := y0; y <= y1; y++ {
		w := [3]int128{e[0].row, e[1].row, e[2].row}
		for x := x0; x <= x1; x++ {
			if e[0].covers(w[0]) && e[1].covers(w[1]) && e[2].covers(w[2]) {
				z := (w[0].float()*d[0] + w[1].float()*d[1] + w[2].float()*d[2]) / areaF
				i := int(y)*r.W + int(x)
				if !test || z < r.Depth[i] {
					r.ID[i] = id
					r.Depth[i] = z
				}
			}
			for k := range 3 {
				w[k] = w[k].add64(e[k].stepX)
			}
		}
		for k := range 3 {
			e[k].row = e[k].row.add64(e[k].stepY)
		}
	}
	return true
}

// edge is one edge function E(p) = (b−a)×(p−a), positive inside a
// triangle whose vertices run clockwise on screen (y down), stepped
// incrementally across the pixel grid.
type edge struct {
	row          int128 // E at the first pixel centre of the current row
	stepX, stepY int64  // change of E per pixel to the right and per row down
	topLeft      bool   // pixel centres exactly on the edge are inside
}

func newEdge(a, b, start [2]int64) edge {
	dx, dy := b[0]-a[0], b[1]-a[1]
	return edge{
		row:   mul(dx, start[1]-a[1]).sub(mul(dy, start[0]-a[0])),
		stepX: -dy * subpixel,
		stepY: dx * subpixel,
		// With the interior on the right of a→b (y down), a top edge runs
		// exactly to the right and a left edge runs upwards.
		topLeft: dy < 0 || (dy == 0 && dx > 0),
	}
}

// covers applies the top-left fill rule to the edge function value w.
func (e edge) covers(w int128) bool {
	s := w.sign()
	return s > 0 || (s == 0 && e.topLeft)
}

// edgeAt returns (b−a)×(c−a).
func edgeAt(a, b, c [2]int64) int128 {
	return mul(b[0]-a[0], c[1]-a[1]).sub(mul(b[1]-a[1], c[0]-a[0]))
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

func ceilDiv(a, b int64) int64 { return -floorDiv(-a, b) }

// int128 is a two's-complement 128-bit integer, enough for the exact edge
// functions of coordinates up to 2^48 fixed-point steps.
type int128 struct {
	hi int64
	lo uint64
}

// mul returns the full product a·b.
func mul(a, b int64) int128 {
	neg := (a < 0) != (b < 0)
	hi, lo := bits.Mul64(abs(a), abs(b))
	p := int128{int64(hi), lo}
	if neg {
		return p.neg()
	}
	return p
}

func abs(a int64) uint64 {
	if a < 0 {
		return uint64(-a)
	}
	return uint64(a)
}

func (x int128) neg() int128 {
	lo, borrow := bits.Sub64(0, x.lo, 0)
	return int128{-x.hi - int64(borrow), lo}
}

func (x int128) sub(y int128) int128 {
	lo, borrow := bits.Sub64(x.lo, y.lo, 0)
	return int128{x.hi - y.hi - int64(borrow), lo}
}

// add64 returns x + d.
func (x int128) add64(d int64) int128 {
	lo, carry := bits.Add64(x.lo, uint64(d), 0)
	return int128{x.hi + d>>63 + int64(carry), lo}
}

func (x int128) sign() int {
	switch {
	case x.hi < 0:
		return -1
	case x.hi == 0 && x.lo == 0:
		return 0
	}
	return 1
}

func (x int128) float() float64 {
	return float64(x.hi)*(1<<64) + float64(x.lo)
}

// Compare counts the pixels where a and b show different triangles,
// leaving out edge ties: pixels where the two triangles' depths agree to
// within 1e-6 relative, and pixels (x, y) where tie, if not nil, reports
// that triangles idA (shown in a) and idB (in b) meet there, on a shared
// edge or vertex, so that rounding may decide between them. A pixel
// covered in one raster and empty in the other always counts. The rasters
// must have the same size.
func Compare(a, b *Raster, tie func(x, y, idA, idB int) bool) (differ int) {
	if a.W != b.W || a.H != b.H {
		panic("zbuffer: Compare of rasters of different sizes")
	}
	for i, ia := range a.ID {
		ib := b.ID[i]
		if ia == ib {
			continue
		}
		if ia != Empty && ib != Empty {
			da, db := a.Depth[i], b.Depth[i]
			if math.Abs(da-db) <= 1e-6*max(math.Abs(da), math.Abs(db)) {
				continue
			}
			if tie != nil && tie(i%a.W, i/a.W, ia, ib) {
				continue
			}
		}
		differ++
	}
	return differ
}

// Covered returns the number of pixels some triangle covers.
func (r *Raster) Covered() int {
	n := 0
	for _, id := range r.ID {
		if id != Empty {
			n++
		}
	}
	return n
}
