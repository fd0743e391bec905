package noise

// perlinNoise is improved Perlin gradient noise with the quintic fade
// (thesis section 6.3.2, listings 6.7 and 6.8). Every lattice point carries a
// pseudo-random unit gradient g; the corner values are g · (p − corner), and
// N is their bilinear interpolation with quintic-faded weights. N is 0 at
// every lattice point.
type perlinNoise struct{ key uint64 }

// NewPerlin returns Perlin noise for a seed. It is unscaled, like the
// thesis's: the range is [-√½, √½], reached only at a cell centre with all
// four gradients pointing away from it; typical extremes are about ±0.6.
func NewPerlin(seed int64) Basis { return perlinNoise{key: seedKey(seed, saltPerlin)} }

// perlinCell holds what one row needs of one cell. With the corner gradients
// ga = g(i, j), gb = g(i+1, j), gc = g(i, j+1), gd = g(i+1, j+1), the corner
// values of thesis eq. A.8 are
//
//	a = ga·(u, v), b = gb·(u−1, v), c = gc·(u, v−1), d = gd·(u−1, v−1).
//
// Interpolating in v first, e = lerp(w(v), a, c) and f = lerp(w(v), b, d)
// are linear in u on a row: e = e1·u + e0 and f = f1·(u−1) + f0. Then
// N = e + (f − e)·w(u), the thesis's Lerp(wv, Lerp(wu, a, b), Lerp(wu, c, d))
// rearranged, and a sample inside a known cell costs two multiply-adds, a
// lerp and a fade.
type perlinCell struct{ e1, e0, f1, f0 float64 }

// perlinSlope holds the further per-cell terms of ∂N/∂y:
// c − a = ex·u + ey, d − b = fx·(u−1) + fy, and ev, fv, the parts of ∂e/∂v
// and ∂f/∂v that do not depend on u.
type perlinSlope struct{ ex, ey, fx, fy, ev, fv float64 }

func newPerlinCell(ga, gb, gc, gd vec2, v, wv float64) perlinCell {
	ay, cy := float64(ga.y*v), float64(gc.y*(v-1))
	by, dy := float64(gb.y*v), float64(gd.y*(v-1))
	return perlinCell{
		e1: ga.x + float64((gc.x-ga.x)*wv),
		e0: ay + float64((cy-ay)*wv),
		f1: gb.x + float64((gd.x-gb.x)*wv),
		f0: by + float64((dy-by)*wv),
	}
}

func newPerlinSlope(ga, gb, gc, gd vec2, v, wv float64) perlinSlope {
	ay, cy := float64(ga.y*v), float64(gc.y*(v-1))
	by, dy := float64(gb.y*v), float64(gd.y*(v-1))
	return perlinSlope{
		ex: gc.x - ga.x, ey: cy - ay,
		fx: gd.x - gb.x, fy: dy - by,
		ev: ga.y + float64((gc.y-ga.y)*wv),
		fv: gb.y + float64((gd.y-gb.y)*wv),
	}
}

// edges returns e(u) and f(u), the interpolated values on the cell's left
// and right edge carried to column u.
func (c *perlinCell) edges(u float64) (e, f float64) {
	return float64(c.e1*u) + c.e0, float64(c.f1*(u-1)) + c.f0
}

// value is N = e + (f − e)·w(u).
func (c *perlinCell) value(u, wu float64) float64 {
	e, f := c.edges(u)
	return e + float64((f-e)*wu)
}

// eval is N and its gradient, thesis eq. A.11 in the same arrangement:
//
//	∂N/∂x = e1 + (f1 − e1)·w(u) + (f − e)·w'(u)
//	∂N/∂y = ∂e/∂v + (∂f/∂v − ∂e/∂v)·w(u), where
//	∂e/∂v = ga_y + (gc_y − ga_y)·w(v) + (c − a)·w'(v),
//	∂f/∂v = gb_y + (gd_y − gb_y)·w(v) + (d − b)·w'(v).
func (c *perlinCell) eval(s *perlinSlope, u, wu, du, dv float64) (n, dx, dy float64) {
	e, f := c.edges(u)
	n = e + float64((f-e)*wu)
	dx = c.e1 + float64((c.f1-c.e1)*wu) + float64((f-e)*du)
	dedv := s.ev + float64((float64(s.ex*u)+s.ey)*dv)
	dfdv := s.fv + float64((float64(s.fx*(u-1))+s.fy)*dv)
	dy = dedv + float64((dfdv-dedv)*wu)
	return n, dx, dy
}

// corners returns the gradients of cell column i between the rows with keys
// r0 (row j) and r1 (row j+1).
func corners(r0, r1 uint64, i int) (ga, gb, gc, gd vec2) {
	return gradient(r0, i), gradient(r0, i+1), gradient(r1, i), gradient(r1, i+1)
}

// Value returns N(x, y).
func (n perlinNoise) Value(x, y float64) float64 {
	i, u := floorFrac(x)
	j, v := floorFrac(y)
	ga, gb, gc, gd := corners(rowKey(n.key, j), rowKey(n.key, j+1), i)
	c := newPerlinCell(ga, gb, gc, gd, v, fade(v))
	return c.value(u, fade(u))
}

// Eval returns N(x, y) and its gradient.
func (n perlinNoise) Eval(x, y float64) (v, dx, dy float64) {
	i, u := floorFrac(x)
	j, t := floorFrac(y)
	ga, gb, gc, gd := corners(rowKey(n.key, j), rowKey(n.key, j+1), i)
	wv := fade(t)
	c := newPerlinCell(ga, gb, gc, gd, t, wv)
	s := newPerlinSlope(ga, gb, gc, gd, t, wv)
	return c.eval(&s, u, fade(u), fadeD(u), fadeD(t))
}

// ValueRow fills v[k] = N(xs[k], y). The row's lattice terms are computed
// once, a cell's gradients and coefficients once per run of samples inside
// it, and a step to the next cell on the right reuses the shared edge's
// gradients.
func (n perlinNoise) ValueRow(xs []float64, y float64, v []float64) {
	v = v[:len(xs)]
	j, t := floorFrac(y)
	r0, r1 := rowKey(n.key, j), rowKey(n.key, j+1)
	wv := fade(t)
	var c perlinCell
	var ga, gb, gc, gd vec2
	ci, have := 0, false
	for k, x := range xs {
		i, u := floorFrac(x)
		if i != ci || !have {
			if have && i == ci+1 {
				ga, gc = gb, gd
				gb, gd = gradient(r0, i+1), gradient(r1, i+1)
			} else {
				ga, gb, gc, gd = corners(r0, r1, i)
			}
			c, ci, have = newPerlinCell(ga, gb, gc, gd, t, wv), i, true
		}
		v[k] = c.value(u, fade(u))
	}
}

// EvalRow fills v[k], dx[k], dy[k] with Eval(xs[k], y), sharing the lattice
// terms like ValueRow.
func (n perlinNoise) EvalRow(xs []float64, y float64, v, dx, dy []float64) {
	v, dx, dy = v[:len(xs)], dx[:len(xs)], dy[:len(xs)]
	j, t := floorFrac(y)
	r0, r1 := rowKey(n.key, j), rowKey(n.key, j+1)
	wv, dv := fade(t), fadeD(t)
	var c perlinCell
	var s perlinSlope
	var ga, gb, gc, gd vec2
	ci, have := 0, false
	for k, x := range xs {
		i, u := floorFrac(x)
		if i != ci || !have {
			if have && i == ci+1 {
				ga, gc = gb, gd
				gb, gd = gradient(r0, i+1), gradient(r1, i+1)
			} else {
				ga, gb, gc, gd = corners(r0, r1, i)
			}
			c, ci, have = newPerlinCell(ga, gb, gc, gd, t, wv), i, true
			s = newPerlinSlope(ga, gb, gc, gd, t, wv)
		}
		v[k], dx[k], dy[k] = c.eval(&s, u, fade(u), fadeD(u), dv)
	}
}
