package noise

import "math"

// simplexRow keeps the four corner gradients of the last skewed cell a row
// of samples visited. A row of a fractal octave crosses each cell in
// several samples, so it hashes each cell's corners once instead of three
// corners per sample; the arithmetic per sample is the point form's, so
// the values are bit for bit Value's and Eval's.
type simplexRow struct {
	i, j               int
	have               bool
	g00, g10, g01, g11 vec2 // the gradients of (i, j), (i+1, j), (i, j+1), (i+1, j+1)
}

// corners is simplexNoise.corners for the basis key, through the kept cell.
func (r *simplexRow) corners(key uint64, x, y float64) [3]simplexCorner {
	i, j := simplexCell(x, y)
	if !r.have || i != r.i || j != r.j {
		r0, r1 := rowKey(key, j), rowKey(key, j+1)
		if r.have && j == r.j && i == r.i+1 { // the next cell along the row shares a side
			r.g00, r.g01 = r.g10, r.g11
		} else {
			r.g00, r.g01 = gradient(r0, i), gradient(r1, i)
		}
		r.g10, r.g11 = gradient(r0, i+1), gradient(r1, i+1)
		r.i, r.j, r.have = i, j, true
	}
	c, upper := simplexOffsets(x, y, i, j)
	c[0].g, c[2].g = r.g00, r.g11
	if upper {
		c[1].g = r.g01
	} else {
		c[1].g = r.g10
	}
	return c
}

// simplexValues fills v[k] = N(xs[k], y) for a simplex Grid: the vector
// kernel, where the Grid has one that runs simplex noise, does the whole
// blocks of laneWidth samples from the first, the kept cell the rest.
func (g *Grid) simplexValues(y float64, v []float64) {
	v = v[:len(g.xs)]
	done := simplexLanes(g.kernel, g.key, g.xs, y, v, g.simplexNear)
	var r simplexRow
	for k := done; k < len(v); k++ {
		v[k] = simplexValue(r.corners(g.key, g.xs[k], y))
	}
}

// simplexAVX2Reach bounds the coordinates the AVX2 simplex kernel takes:
// it finds the skewed cell through int32, exact while |x + s| < 2³¹, and
// |x + s| ≤ (1 + 2·skew2)·max(|x|, |y|) < 1.74·2²⁹ here.
const simplexAVX2Reach = 1 << 29

// simplexNear is whether every coordinate in cs lies within
// ±simplexAVX2Reach (NaN does not).
func simplexNear(cs []float64) bool {
	for _, c := range cs {
		if !(math.Abs(c) <= simplexAVX2Reach) {
			return false
		}
	}
	return true
}
