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
	return float64(float64(int64(hashCell(row, i))>>11) * 0x1p-52)
}

// valueColumn is one lattice column i on the current row: with its values
// a = (i, j) and c = (i, j+1), the value interpolated to the row,
// e = lerp(w(v), a, c), and c − a for ∂N/∂y.
//
// A cell is a left and a right column, and N = e_L + (e_R − e_L)·w(u): the
// thesis's Lerp(wv, Lerp(wu, a, b), Lerp(wu, c, d)) with the two
// interpolations swapped, which is the same function. So a row computes each
// column once, and the samples of a cell share everything but the last lerp.
type valueColumn struct{ e, ca float64 }

func newValueColumn(a, c, wv float64) valueColumn {
	ca := c - a
	return valueColumn{e: a + float64(ca*wv), ca: ca}
}

// column returns column i between the rows with keys r0 (row j) and r1
// (row j+1).
func (valueNoise) column(r0, r1 uint64, i int, wv float64) valueColumn {
	return newValueColumn(latticeValue(r0, i), latticeValue(r1, i), wv)
}

// valueAt is N = e_L + (e_R − e_L)·w(u) in the cell between columns l and r.
func valueAt(l, r *valueColumn, wu float64) float64 {
	return l.e + float64((r.e-l.e)*wu)
}

// valueEval is N and its gradient by thesis eq. A.6, where b − a + (a − b −
// c + d)·w(v) = e_R − e_L and a − b − c + d = (c − a)_R − (c − a)_L:
//
//	∂N/∂x = (e_R − e_L)·w'(u)
//	∂N/∂y = ((c − a)_L + ((c − a)_R − (c − a)_L)·w(u))·w'(v)
func valueEval(l, r *valueColumn, wu, du, dv float64) (n, dx, dy float64) {
	return valueAt(l, r, wu), (r.e - l.e) * du, (l.ca + float64((r.ca-l.ca)*wu)) * dv
}

// Value returns N(x, y).
func (n valueNoise) Value(x, y float64) float64 {
	i, u := floorFrac(x)
	j, v := floorFrac(y)
	r0, r1, wv := rowKey(n.key, j), rowKey(n.key, j+1), fade(v)
	l, r := n.column(r0, r1, i, wv), n.column(r0, r1, i+1, wv)
	return valueAt(&l, &r, fade(u))
}

// Eval returns N(x, y) and its gradient.
func (n valueNoise) Eval(x, y float64) (v, dx, dy float64) {
	i, u := floorFrac(x)
	j, t := floorFrac(y)
	r0, r1, wv := rowKey(n.key, j), rowKey(n.key, j+1), fade(t)
	l, r := n.column(r0, r1, i, wv), n.column(r0, r1, i+1, wv)
	return valueEval(&l, &r, fade(u), fadeD(u), fadeD(t))
}

// ValueRow fills v[k] = N(xs[k], y). The row's lattice terms are computed
// once, a cell's columns once per run of samples inside it, and a step to
// a neighbouring cell reuses the column they share.
func (n valueNoise) ValueRow(xs []float64, y float64, v []float64) {
	v = v[:len(xs)]
	j, t := floorFrac(y)
	r0, r1, wv := rowKey(n.key, j), rowKey(n.key, j+1), fade(t)
	var l, r valueColumn
	ci, have := 0, false
	for k, x := range xs {
		i, u := floorFrac(x)
		if i != ci || !have {
			switch {
			case have && i == ci+1:
				l, r = r, n.column(r0, r1, i+1, wv)
			case have && i == ci-1:
				l, r = n.column(r0, r1, i, wv), l
			default:
				l, r = n.column(r0, r1, i, wv), n.column(r0, r1, i+1, wv)
			}
			ci, have = i, true
		}
		v[k] = valueAt(&l, &r, fade(u))
	}
}

// EvalRow fills v[k], dx[k], dy[k] with Eval(xs[k], y), sharing the lattice
// terms like ValueRow.
func (n valueNoise) EvalRow(xs []float64, y float64, v, dx, dy []float64) {
	v, dx, dy = v[:len(xs)], dx[:len(xs)], dy[:len(xs)]
	j, t := floorFrac(y)
	r0, r1, wv, dv := rowKey(n.key, j), rowKey(n.key, j+1), fade(t), fadeD(t)
	var l, r valueColumn
	ci, have := 0, false
	for k, x := range xs {
		i, u := floorFrac(x)
		if i != ci || !have {
			switch {
			case have && i == ci+1:
				l, r = r, n.column(r0, r1, i+1, wv)
			case have && i == ci-1:
				l, r = n.column(r0, r1, i, wv), l
			default:
				l, r = n.column(r0, r1, i, wv), n.column(r0, r1, i+1, wv)
			}
			ci, have = i, true
		}
		v[k], dx[k], dy[k] = valueEval(&l, &r, fade(u), fadeD(u), dv)
	}
}
