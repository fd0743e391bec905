package noise

// perlinNoise is improved Perlin gradient noise with the quintic fade
// (thesis section 6.3.2, listings 6.7 and 6.8). Every lattice point carries a
// pseudo-random unit gradient g; the corner values are g · (p − corner), and
// N is their bilinear interpolation with quintic-faded weights. N is 0 at
// every lattice point.
type perlinNoise struct{ key uint64 }

// NewPerlin returns Perlin noise for a seed. It is unscaled, like the
// thesis's: the range is [-√½, √½], reached only at a cell centre with all
// four gradients pointing away from it; samples rarely pass ±0.6.
func NewPerlin(seed int64) Basis { return perlinNoise{key: seedKey(seed, saltPerlin)} }

// perlinColumn is one lattice column i on the current row. With the cell's
// corner gradients ga = g(i, j), gb = g(i+1, j), gc = g(i, j+1),
// gd = g(i+1, j+1), the corner values of thesis eq. A.8 are
//
//	a = ga·(u, v), b = gb·(u−1, v), c = gc·(u, v−1), d = gd·(u−1, v−1).
//
// Interpolating in v first, e = lerp(w(v), a, c) depends only on the left
// column's gradients and is linear in u: e = s·u + o. The right column gives
// f = lerp(w(v), b, d) = s'·(u−1) + o' by the same formula, and
// N = e + (f − e)·w(u) — the thesis's Lerp(wv, Lerp(wu, a, b),
// Lerp(wu, c, d)) rearranged. So a row computes each column once, and a
// sample inside a known cell costs two multiply-adds, a lerp and a fade.
type perlinColumn struct{ s, o float64 }

// perlinColumnSlope holds a column's further terms of ∂N/∂y:
// c − a = sx·u + sy, and sv, the part of ∂e/∂v that does not depend on u.
type perlinColumnSlope struct{ sx, sy, sv float64 }

// newPerlinColumn returns the column with gradients g0 at row j and g1 at
// row j+1, on the row at offset v, w(v) = wv.
func newPerlinColumn(g0, g1 vec2, v, wv float64) perlinColumn {
	y0, y1 := float64(g0.y*v), float64(g1.y*(v-1))
	return perlinColumn{s: g0.x + float64((g1.x-g0.x)*wv), o: y0 + float64((y1-y0)*wv)}
}

func newPerlinColumnSlope(g0, g1 vec2, v, wv float64) perlinColumnSlope {
	y0, y1 := float64(g0.y*v), float64(g1.y*(v-1))
	return perlinColumnSlope{sx: g1.x - g0.x, sy: y1 - y0, sv: g0.y + float64((g1.y-g0.y)*wv)}
}

// edges returns e(u) and f(u), the values interpolated to the row on the
// cell's left column l and right column r, carried to offset u.
func edges(l, r *perlinColumn, u float64) (e, f float64) {
	return float64(l.s*u) + l.o, float64(r.s*(u-1)) + r.o
}

// perlinAt is N = e + (f − e)·w(u) in the cell between columns l and r.
func perlinAt(l, r *perlinColumn, u, wu float64) float64 {
	e, f := edges(l, r, u)
	return e + float64((f-e)*wu)
}

// perlinEval is N and its gradient, thesis eq. A.11 in the same arrangement:
//
//	∂N/∂x = s + (s' − s)·w(u) + (f − e)·w'(u)
//	∂N/∂y = ∂e/∂v + (∂f/∂v − ∂e/∂v)·w(u), where
//	∂e/∂v = ga_y + (gc_y − ga_y)·w(v) + (c − a)·w'(v),
//	∂f/∂v = gb_y + (gd_y − gb_y)·w(v) + (d − b)·w'(v).
func perlinEval(l, r *perlinColumn, ls, rs *perlinColumnSlope, u, wu, du, dv float64) (n, dx, dy float64) {
	e, f := edges(l, r, u)
	n = e + float64((f-e)*wu)
	dx = l.s + float64((r.s-l.s)*wu) + float64((f-e)*du)
	dedv := ls.sv + float64((float64(ls.sx*u)+ls.sy)*dv)
	dfdv := rs.sv + float64((float64(rs.sx*(u-1))+rs.sy)*dv)
	dy = dedv + float64((dfdv-dedv)*wu)
	return n, dx, dy
}

// column returns column i between the rows with keys r0 (row j) and r1
// (row j+1).
func (perlinNoise) column(r0, r1 uint64, i int, v, wv float64) perlinColumn {
	return newPerlinColumn(gradient(r0, i), gradient(r1, i), v, wv)
}

// columnSlope returns column i's slope terms, like column.
func (perlinNoise) columnSlope(r0, r1 uint64, i int, v, wv float64) (perlinColumn, perlinColumnSlope) {
	g0, g1 := gradient(r0, i), gradient(r1, i)
	return newPerlinColumn(g0, g1, v, wv), newPerlinColumnSlope(g0, g1, v, wv)
}

// Value returns N(x, y).
func (n perlinNoise) Value(x, y float64) float64 {
	i, u := floorFrac(x)
	j, v := floorFrac(y)
	r0, r1, wv := rowKey(n.key, j), rowKey(n.key, j+1), fade(v)
	l, r := n.column(r0, r1, i, v, wv), n.column(r0, r1, i+1, v, wv)
	return perlinAt(&l, &r, u, fade(u))
}

// Eval returns N(x, y) and its gradient.
func (n perlinNoise) Eval(x, y float64) (v, dx, dy float64) {
	i, u := floorFrac(x)
	j, t := floorFrac(y)
	r0, r1, wv := rowKey(n.key, j), rowKey(n.key, j+1), fade(t)
	l, ls := n.columnSlope(r0, r1, i, t, wv)
	r, rs := n.columnSlope(r0, r1, i+1, t, wv)
	return perlinEval(&l, &r, &ls, &rs, u, fade(u), fadeD(u), fadeD(t))
}

// ValueRow fills v[k] = N(xs[k], y). The row's lattice terms are computed
// once, a cell's columns once per run of samples inside it, and a step to
// a neighbouring cell reuses the column they share.
func (n perlinNoise) ValueRow(xs []float64, y float64, v []float64) {
	v = v[:len(xs)]
	j, t := floorFrac(y)
	r0, r1, wv := rowKey(n.key, j), rowKey(n.key, j+1), fade(t)
	var l, r perlinColumn
	ci, have := 0, false
	for k, x := range xs {
		i, u := floorFrac(x)
		if i != ci || !have {
			switch {
			case have && i == ci+1:
				l, r = r, n.column(r0, r1, i+1, t, wv)
			case have && i == ci-1:
				l, r = n.column(r0, r1, i, t, wv), l
			default:
				l, r = n.column(r0, r1, i, t, wv), n.column(r0, r1, i+1, t, wv)
			}
			ci, have = i, true
		}
		v[k] = perlinAt(&l, &r, u, fade(u))
	}
}

// EvalRow fills v[k], dx[k], dy[k] with Eval(xs[k], y), sharing the lattice
// terms like ValueRow.
func (n perlinNoise) EvalRow(xs []float64, y float64, v, dx, dy []float64) {
	v, dx, dy = v[:len(xs)], dx[:len(xs)], dy[:len(xs)]
	j, t := floorFrac(y)
	r0, r1, wv, dv := rowKey(n.key, j), rowKey(n.key, j+1), fade(t), fadeD(t)
	var l, r perlinColumn
	var ls, rs perlinColumnSlope
	ci, have := 0, false
	for k, x := range xs {
		i, u := floorFrac(x)
		if i != ci || !have {
			switch {
			case have && i == ci+1:
				l, ls = r, rs
				r, rs = n.columnSlope(r0, r1, i+1, t, wv)
			case have && i == ci-1:
				r, rs = l, ls
				l, ls = n.columnSlope(r0, r1, i, t, wv)
			default:
				l, ls = n.columnSlope(r0, r1, i, t, wv)
				r, rs = n.columnSlope(r0, r1, i+1, t, wv)
			}
			ci, have = i, true
		}
		v[k], dx[k], dy[k] = perlinEval(&l, &r, &ls, &rs, u, fade(u), fadeD(u), dv)
	}
}
