package noise

// EvalPoints fills v[k], dx[k], dy[k] with b.Eval(xs[k], ys[k]) at
// scattered points, such as Swiss turbulence's displaced octaves, where no
// two samples share a row and a Grid cannot help. Value and Perlin noise
// run in the AVX-512 kernel where the CPU has one (see evalPointLanes),
// with the kernel selected now (UseKernel); every basis gives Eval's bits.
// ys, v, dx and dy must have len(xs) elements.
func EvalPoints(b Basis, xs, ys, v, dx, dy []float64) {
	ys, v, dx, dy = ys[:len(xs)], v[:len(xs)], dx[:len(xs)], dy[:len(xs)]
	done := 0
	switch n := b.(type) {
	case perlinNoise:
		done = evalPointLanes(currentKernel(), false, n.key, xs, ys, v, dx, dy)
	case valueNoise:
		done = evalPointLanes(currentKernel(), true, n.key, xs, ys, v, dx, dy)
	}
	evalPointsGo(b, xs[done:], ys[done:], v[done:], dx[done:], dy[done:])
}

// evalPointsGo is EvalPoints one point at a time: the fallback for the
// samples after the last whole block, and the oracle of the kernels.
func evalPointsGo(b Basis, xs, ys, v, dx, dy []float64) {
	for k := range xs {
		v[k], dx[k], dy[k] = b.Eval(xs[k], ys[k])
	}
}
