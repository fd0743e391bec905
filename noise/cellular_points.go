package noise

// ValuePoints fills v[k] = b.Value(xs[k], ys[k]) at scattered points, such
// as a distorted octave's, where no two samples share a row and a Grid
// cannot help. Simplex noise runs in the AVX-512 kernel where the CPU has
// one for it (see simplexLanes), Perlin noise in the point kernel without
// the gradient, and value noise in EvalPoints's kernel (whose N is Value's
// bits; the gradient goes to a scratch buffer), with the kernel selected
// now (UseKernel); every basis gives Value's bits. ys and v must have
// len(xs) elements.
func ValuePoints(b Basis, xs, ys, v []float64) {
	v, ys = v[:len(xs)], ys[:len(xs)]
	done := 0
	switch n := b.(type) {
	case simplexNoise:
		done = simplexPointLanes(currentKernel(), n.key, xs, ys, v)
	case perlinNoise:
		done = perlinValueLanes(currentKernel(), n.key, xs, ys, v)
	case valueNoise:
		done = valuePointChunks(n.key, xs, ys, v)
	}
	for k := done; k < len(xs); k++ {
		v[k] = b.Value(xs[k], ys[k])
	}
}

// valuePointChunks runs value noise's evalPointLanes over xs in chunks that
// fit a scratch gradient on the stack, and returns how many samples it did.
func valuePointChunks(key uint64, xs, ys, v []float64) int {
	var dx, dy [32 * laneWidth]float64
	k := currentKernel()
	done := 0
	for done < len(xs) {
		m := min(len(dx), len(xs)-done)
		did := evalPointLanes(k, true, key, xs[done:done+m], ys[done:done+m], v[done:done+m], dx[:m], dy[:m])
		done += did
		if did < m {
			break
		}
	}
	return done
}
