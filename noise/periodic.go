package noise

import "fmt"

// Periodic lattice noise for maps that wrap (tileable terrain): the
// lattice hashes see the column index modulo px and the row index modulo
// py, so N(x+px, y) = N(x, y + py) = N(x, y) and the gradient repeats too —
// a map spanning whole periods joins its opposite edge without a seam in
// height or slope. The bases themselves are untouched: a periodic basis is
// a separate type, so maps made without it keep every bit.

// periodicValue is value noise on a lattice that repeats every px×py cells.
type periodicValue struct {
	valueNoise
	px, py int
}

// periodicPerlin is Perlin noise on a lattice that repeats every px×py cells.
type periodicPerlin struct {
	perlinNoise
	px, py int
}

// NewPeriodic returns the basis of the given kind whose lattice repeats
// every px cells along x and py along y (both at least 1). Value and
// Perlin noise only: simplex noise's skewed triangular lattice does not
// repeat on a square grid, and Worley's feature points would need their
// own wrapping.
func NewPeriodic(kind Kind, seed int64, px, py int) (Basis, error) {
	if px < 1 || py < 1 {
		return nil, fmt.Errorf("noise: period %d×%d cells; want at least 1×1", px, py)
	}
	switch kind {
	case Value:
		return periodicValue{valueNoise{key: seedKey(seed, saltValue)}, px, py}, nil
	case Perlin:
		return periodicPerlin{perlinNoise{key: seedKey(seed, saltPerlin)}, px, py}, nil
	}
	return nil, fmt.Errorf("noise: %s noise cannot be made periodic; use %s or %s", kind, Value, Perlin)
}

// wrap returns i modulo p in [0, p).
func wrap(i, p int) int {
	i %= p
	if i < 0 {
		i += p
	}
	return i
}

// lattice returns the wrapped columns i, i+1 and the row keys of rows j,
// j+1 of the cell containing (x, y), with the fractions u, v.
func lattice(key uint64, x, y float64, px, py int) (i0, i1 int, r0, r1 uint64, u, v float64) {
	i, u := floorFrac(x)
	j, v := floorFrac(y)
	return wrap(i, px), wrap(i+1, px), rowKey(key, wrap(j, py)), rowKey(key, wrap(j+1, py)), u, v
}

// Value returns N(x, y).
func (n periodicValue) Value(x, y float64) float64 {
	i0, i1, r0, r1, u, v := lattice(n.key, x, y, n.px, n.py)
	wv := fade(v)
	l, r := n.column(r0, r1, i0, wv), n.column(r0, r1, i1, wv)
	return valueAt(&l, &r, fade(u))
}

// Eval returns N(x, y) and its gradient.
func (n periodicValue) Eval(x, y float64) (v, dx, dy float64) {
	i0, i1, r0, r1, u, t := lattice(n.key, x, y, n.px, n.py)
	wv := fade(t)
	l, r := n.column(r0, r1, i0, wv), n.column(r0, r1, i1, wv)
	return valueEval(&l, &r, fade(u), fadeD(u), fadeD(t))
}

// ValueRow fills v[k] = N(xs[k], y) point by point.
func (n periodicValue) ValueRow(xs []float64, y float64, v []float64) {
	for k, x := range xs {
		v[k] = n.Value(x, y)
	}
}

// EvalRow fills v[k], dx[k], dy[k] with Eval(xs[k], y).
func (n periodicValue) EvalRow(xs []float64, y float64, v, dx, dy []float64) {
	for k, x := range xs {
		v[k], dx[k], dy[k] = n.Eval(x, y)
	}
}

// Value returns N(x, y).
func (n periodicPerlin) Value(x, y float64) float64 {
	i0, i1, r0, r1, u, v := lattice(n.key, x, y, n.px, n.py)
	wv := fade(v)
	l, r := n.column(r0, r1, i0, v, wv), n.column(r0, r1, i1, v, wv)
	return perlinAt(&l, &r, u, fade(u))
}

// Eval returns N(x, y) and its gradient.
func (n periodicPerlin) Eval(x, y float64) (v, dx, dy float64) {
	i0, i1, r0, r1, u, t := lattice(n.key, x, y, n.px, n.py)
	wv := fade(t)
	l, ls := n.columnSlope(r0, r1, i0, t, wv)
	r, rs := n.columnSlope(r0, r1, i1, t, wv)
	return perlinEval(&l, &r, &ls, &rs, u, fade(u), fadeD(u), fadeD(t))
}

// ValueRow fills v[k] = N(xs[k], y) point by point.
func (n periodicPerlin) ValueRow(xs []float64, y float64, v []float64) {
	for k, x := range xs {
		v[k] = n.Value(x, y)
	}
}

// EvalRow fills v[k], dx[k], dy[k] with Eval(xs[k], y).
func (n periodicPerlin) EvalRow(xs []float64, y float64, v, dx, dy []float64) {
	for k, x := range xs {
		v[k], dx[k], dy[k] = n.Eval(x, y)
	}
}
