package noise

// ValuePoints fills v[k] = b.Value(xs[k], ys[k]) at scattered points, such
// as a distorted octave's, where no two samples share a row and a Grid
// cannot help. Simplex noise runs in the AVX-512 kernel where the CPU has
// one for it (see simplexLanes), with the kernel selected now (UseKernel);
// every basis gives Value's bits. ys and v must have len(xs) elements.
func ValuePoints(b Basis, xs, ys, v []float64) {
	v, ys = v[:len(xs)], ys[:len(xs)]
	done := 0
	if n, ok := b.(simplexNoise); ok {
		done = simplexPointLanes(currentKernel(), n.key, xs, ys, v)
	}
	for k := done; k < len(xs); k++ {
		v[k] = b.Value(xs[k], ys[k])
	}
}
