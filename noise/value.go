package noise

// valueNoise is value noise (thesis section 6.3.1, listings 6.5 and 6.6):
// every lattice point carries a pseudo-random value in [-1, 1], and N is
// their bilinear interpolation with quintic-faded weights.
type valueNoise struct{ key uint64 }

// NewValue returns value noise for a seed. Its range is [-1, 1]; the
// extremes are reached at lattice points.
func NewValue(seed int64) Basis { return valueNoise{key: seedKey(seed, saltValue)} }

// latticeValue is the value in [-1, 1) of lattice point (i, j), given j's row
// key: the hash's top 53 bits as a signed fraction.
func latticeValue(row uint64, i int) float64 {
	return float64(int64(hashCell(row, i))>>11) * 0x1p-52
}

// valueCell holds what one row needs of one cell: with the corner values
// a = (i, j), b = (i+1, j), c = (i, j+1), d = (i+1, j+1) and w(v) the faded
// row offset, e = lerp(w(v), a, c) and f = lerp(w(v), b, d) are the values
// on the cell's left and right edge, and N = e + (f − e)·w(u).
//
// This is the thesis's Lerp(wv, Lerp(wu, a, b), Lerp(wu, c, d)) with the
// two interpolations swapped — the same function — so that a row shares
// everything but the last lerp between the samples of a cell.
type valueCell struct {
	e, fe float64 // e and f − e
	ca, k float64 // c − a and a − b − c + d, for ∂N/∂y
}

func newValueCell(a, b, c, d, wv float64) valueCell {
	ca, db := c-a, d-b
	e := a + float64(ca*wv)
	f := b + float64(db*wv)
	return valueCell{e: e, fe: f - e, ca: ca, k: db - ca}
}

// value is N(u, v) = e + (f − e)·w(u).
func (c *valueCell) value(wu float64) float64 {
	return c.e + float64(c.fe*wu)
}

// eval is N and its gradient by thesis eq. A.6:
// ∂N/∂x = ((b − a) + (a − b − c + d)·w(v))·w'(u) = (f − e)·w'(u),
// ∂N/∂y = ((c − a) + (a − b − c + d)·w(u))·w'(v).
func (c *valueCell) eval(wu, du, dv float64) (n, dx, dy float64) {
	return c.value(wu), c.fe * du, (c.ca + float64(c.k*wu)) * dv
}

// cornerValues returns the values a, b, c, d of cell column i between the
// rows with keys r0 (row j) and r1 (row j+1).
func cornerValues(r0, r1 uint64, i int) (a, b, c, d float64) {
	return latticeValue(r0, i), latticeValue(r0, i+1), latticeValue(r1, i), latticeValue(r1, i+1)
}

// Value returns N(x, y).
func (n valueNoise) Value(x, y float64) float64 {
	i, u := floorFrac(x)
	j, v := floorFrac(y)
	a, b, c, d := cornerValues(rowKey(n.key, j), rowKey(n.key, j+1), i)
	cell := newValueCell(a, b, c, d, fade(v))
	return cell.value(fade(u))
}

// Eval returns N(x, y) and its gradient.
func (n valueNoise) Eval(x, y float64) (v, dx, dy float64) {
	i, u := floorFrac(x)
	j, t := floorFrac(y)
	a, b, c, d := cornerValues(rowKey(n.key, j), rowKey(n.key, j+1), i)
	cell := newValueCell(a, b, c, d, fade(t))
	return cell.eval(fade(u), fadeD(u), fadeD(t))
}

// ValueRow fills v[k] = N(xs[k], y). The row's lattice terms are computed
// once, a cell's values and coefficients once per run of samples inside it,
// and a step to the next cell on the right reuses the shared edge's values.
func (n valueNoise) ValueRow(xs []float64, y float64, v []float64) {
	v = v[:len(xs)]
	j, t := floorFrac(y)
	r0, r1 := rowKey(n.key, j), rowKey(n.key, j+1)
	wv := fade(t)
	var c valueCell
	var a, b, cv, d float64
	ci, have := 0, false
	for k, x := range xs {
		i, u := floorFrac(x)
		if i != ci || !have {
			if have && i == ci+1 {
				a, b, cv, d = b, latticeValue(r0, i+1), d, latticeValue(r1, i+1)
			} else {
				a, b, cv, d = cornerValues(r0, r1, i)
			}
			c, ci, have = newValueCell(a, b, cv, d, wv), i, true
		}
		v[k] = c.value(fade(u))
	}
}

// EvalRow fills v[k], dx[k], dy[k] with Eval(xs[k], y), sharing the lattice
// terms like ValueRow.
func (n valueNoise) EvalRow(xs []float64, y float64, v, dx, dy []float64) {
	v, dx, dy = v[:len(xs)], dx[:len(xs)], dy[:len(xs)]
	j, t := floorFrac(y)
	r0, r1 := rowKey(n.key, j), rowKey(n.key, j+1)
	wv, dv := fade(t), fadeD(t)
	var c valueCell
	var a, b, cv, d float64
	ci, have := 0, false
	for k, x := range xs {
		i, u := floorFrac(x)
		if i != ci || !have {
			if have && i == ci+1 {
				a, b, cv, d = b, latticeValue(r0, i+1), d, latticeValue(r1, i+1)
			} else {
				a, b, cv, d = cornerValues(r0, r1, i)
			}
			c, ci, have = newValueCell(a, b, cv, d, wv), i, true
		}
		v[k], dx[k], dy[k] = c.eval(fade(u), fadeD(u), dv)
	}
}
