package noise

// simplexNoise is Perlin's simplex noise in 2-D (Gustavson, "Simplex noise
// demystified", 2005): the plane is skewed so that the square lattice becomes
// one of equilateral triangles, and each of the three corners of the triangle
// holding p contributes a radial kernel (½ − r²)⁴ times its gradient's dot
// product with the offset d from the corner. The gradients are the unit
// vectors of Perlin noise, drawn by the same hashing.
type simplexNoise struct{ key uint64 }

// Skewing constants of the 2-D simplex lattice.
const (
	skew2   = 0.36602540378443864676 // F₂ = (√3 − 1)/2: (x, y) → lattice coordinates
	unskew2 = 0.21132486540518711775 // G₂ = (3 − √3)/6: lattice → (x, y)
)

// simplexScale maps the kernel sum onto [-1, 1]. With unit gradients the sum
// is at most max Σ (½ − r²)⁴·r over the corners, reached at the midpoint of a
// triangle edge (r² = 1/6 to two corners, the third out of reach):
// 2·(1/3)⁴/√6, so the scale is 81·√6/2 (checked by TestSimplexScale).
const simplexScale = 99.204334582718712977

// NewSimplex returns simplex noise for a seed. Its range is [-1, 1]; the
// 256 gradient directions come within 0.01 % of the bound.
func NewSimplex(seed int64) Basis { return simplexNoise{key: seedKey(seed, saltSimplex)} }

// simplexCorner is one corner's contribution: its lattice point's gradient
// g, the offset (x, y) from the corner to p, and t = ½ − r² (the kernel
// reaches only t > 0).
type simplexCorner struct {
	g    vec2
	x, y float64
	t    float64
}

// corners finds the triangle holding (x, y) and returns its three corners.
func (n simplexNoise) corners(x, y float64) [3]simplexCorner {
	i, j := simplexCell(x, y)
	c, upper := simplexOffsets(x, y, i, j)
	r0, r1 := rowKey(n.key, j), rowKey(n.key, j+1)
	c[0].g, c[2].g = gradient(r0, i), gradient(r1, i+1)
	if upper {
		c[1].g = gradient(r1, i)
	} else {
		c[1].g = gradient(r0, i+1)
	}
	return c
}

// simplexCell returns the skewed lattice cell (i, j) holding (x, y).
func simplexCell(x, y float64) (i, j int) {
	s := float64((x + y) * skew2)
	i, _ = floorFrac(x + s)
	j, _ = floorFrac(y + s)
	return i, j
}

// simplexOffsets returns the corners of the triangle holding (x, y) in
// cell (i, j), without their gradients: corner 0 is (i, j), corner 2 is
// (i+1, j+1), and corner 1 is (i, j+1) in the upper triangle (upper) and
// (i+1, j) in the lower one.
func simplexOffsets(x, y float64, i, j int) (c [3]simplexCorner, upper bool) {
	t := float64(float64(i+j) * unskew2)
	x0, y0 := x-(float64(i)-t), y-(float64(j)-t)
	// The lower triangle (x0 > y0) steps to (i+1, j) first, the upper one
	// to (i, j+1); the far corner is (i+1, j+1).
	i1, j1 := 0, 1
	if x0 > y0 {
		i1, j1 = 1, 0
	}
	x1, y1 := x0-float64(i1)+unskew2, y0-float64(j1)+unskew2
	x2, y2 := x0+(2*unskew2-1), y0+(2*unskew2-1)
	return [3]simplexCorner{
		{x: x0, y: y0, t: 0.5 - float64(x0*x0) - float64(y0*y0)},
		{x: x1, y: y1, t: 0.5 - float64(x1*x1) - float64(y1*y1)},
		{x: x2, y: y2, t: 0.5 - float64(x2*x2) - float64(y2*y2)},
	}, j1 == 1
}

// kernel is the corner's term t⁴·(g·d), or 0 out of reach.
func (c *simplexCorner) kernel() float64 {
	if c.t <= 0 {
		return 0
	}
	t2 := c.t * c.t
	return float64(t2 * t2 * (float64(c.g.x*c.x) + float64(c.g.y*c.y)))
}

// slope is the corner's term's gradient,
// ∇[t⁴·(g·d)] = t⁴·g − 8t³·(g·d)·d, since ∇t = −2d.
func (c *simplexCorner) slope() (dx, dy float64) {
	if c.t <= 0 {
		return 0, 0
	}
	t2 := c.t * c.t
	t4, gd8 := t2*t2, 8*t2*c.t*(float64(c.g.x*c.x)+float64(c.g.y*c.y))
	return float64(t4*c.g.x) - float64(gd8*c.x), float64(t4*c.g.y) - float64(gd8*c.y)
}

// Value returns N(x, y).
func (n simplexNoise) Value(x, y float64) float64 { return simplexValue(n.corners(x, y)) }

// simplexValue is N from the triangle's corners.
func simplexValue(c [3]simplexCorner) float64 {
	return simplexScale * (c[0].kernel() + c[1].kernel() + c[2].kernel())
}

// Eval returns N(x, y) and its gradient.
func (n simplexNoise) Eval(x, y float64) (v, dx, dy float64) { return simplexEval(n.corners(x, y)) }

// simplexEval is N and its gradient from the triangle's corners.
func simplexEval(c [3]simplexCorner) (v, dx, dy float64) {
	dx0, dy0 := c[0].slope()
	dx1, dy1 := c[1].slope()
	dx2, dy2 := c[2].slope()
	v = simplexScale * (c[0].kernel() + c[1].kernel() + c[2].kernel())
	return v, simplexScale * (dx0 + dx1 + dx2), simplexScale * (dy0 + dy1 + dy2)
}

// ValueRow fills v[k] = N(xs[k], y), hashing the corner gradients once
// per skewed cell that consecutive samples share (see simplexRow).
func (n simplexNoise) ValueRow(xs []float64, y float64, v []float64) {
	v = v[:len(xs)]
	var r simplexRow
	for k, x := range xs {
		v[k] = simplexValue(r.corners(n.key, x, y))
	}
}

// EvalRow fills v[k], dx[k], dy[k] with Eval(xs[k], y), like ValueRow.
func (n simplexNoise) EvalRow(xs []float64, y float64, v, dx, dy []float64) {
	v, dx, dy = v[:len(xs)], dx[:len(xs)], dy[:len(xs)]
	var r simplexRow
	for k, x := range xs {
		v[k], dx[k], dy[k] = simplexEval(r.corners(n.key, x, y))
	}
}
