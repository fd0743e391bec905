package noise

// QuilezStep folds one octave of Quilez turbulence (thesis listing 6.4)
// into a row of running states: for every sample k,
//
//	ddx[k] += ndx[k], ddy[k] += ndy[k],
//	h[k] += amp·n[k] / (1 + ddx[k]·ddx[k] + ddy[k]·ddy[k]),
//
// each product rounded before its sum, bit for bit terrain's per-sample
// quilezStep (its oracle). The selected kernel (UseKernel) does several
// samples at once; the division, slow one lane at a time, is most of the
// step's cost. All slices must have len(h) elements.
func QuilezStep(h, ddx, ddy, n, ndx, ndy []float64, amp float64) {
	m := len(h)
	ddx, ddy, n, ndx, ndy = ddx[:m], ddy[:m], n[:m], ndx[:m], ndy[:m]
	done := quilezLanes(currentKernel(), h, ddx, ddy, n, ndx, ndy, amp)
	for k := done; k < m; k++ {
		dx, dy := ddx[k]+ndx[k], ddy[k]+ndy[k]
		ddx[k], ddy[k] = dx, dy
		h[k] += amp * n[k] / (1 + float64(dx*dx) + float64(dy*dy))
	}
}
