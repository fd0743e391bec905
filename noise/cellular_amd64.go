//go:build amd64 && !purego

package noise

import (
	"math"

	"golang.org/x/sys/cpu"
)

// simplexVector is whether the AVX-512 kernel runs simplex noise, and value
// and Perlin noise at scattered points, here: they need AVX512DQ besides
// AVX512F. Elsewhere the Go loops do.
var simplexVector = cpu.X86.HasAVX512DQ

// simplexLanes runs kernel k's simplex noise over the whole blocks of
// laneWidth samples of xs on the row y, writing N to out, and returns how
// many samples it did: none where k has no simplex kernel. near says that
// every x lies within ±simplexAVX2Reach, which the AVX2 kernel needs of
// the xs and y.
func simplexLanes(k Kernel, key uint64, xs []float64, y float64, out []float64, near bool) int {
	n := len(xs) / laneWidth
	switch {
	case n == 0:
		return 0
	case k == KernelAVX512 && simplexVector:
		_ = out[n*laneWidth-1]
		simplexRowAVX512(&out[0], &xs[0], y, key, &gradients[0].x, n)
	case k != KernelGo && near && math.Abs(y) <= simplexAVX2Reach:
		// KernelAVX2, or KernelAVX512 on a CPU without AVX512DQ.
		_ = out[n*laneWidth-1]
		simplexRowAVX2(&out[0], &xs[0], y, key, &gradients[0].x, n)
	default:
		return 0
	}
	return n * laneWidth
}

// worleyLanes runs kernel k's Worley noise of the given mode over the
// blocks, writing N to out from its first sample, with the feature points
// in feat and the row's terms t, and returns how many samples it did.
// inner picks the kernels that search the inner 3×3 cells only
// (worleyNoise.innerOnly).
// Every sample's cell lies at least two prepared columns inside each of
// feat's rows (newWorleyGrid), so the gathers stay inside feat; the
// AVX-512 permutes read worleyPickSpan columns from a block's base, inside
// its row's slot (worleyGrid.stride).
func worleyLanes(k Kernel, mode WorleyMode, inner bool, blocks []worleyBlock, out []float64, feat []vec2, t *worleyRowTerms) int {
	n := len(blocks)
	if n == 0 || k == KernelGo {
		return 0
	}
	_ = out[n*laneWidth-1]
	p := &feat[0].x
	switch {
	case inner && k == KernelAVX512 && mode == F1:
		worleyF1RowInnerAVX512(&out[0], &blocks[0].u[0], p, &t.offs[0], &t.gy2[0], t.v, worleyF1Scale, n)
	case inner && k == KernelAVX512:
		worleyF2F1RowInnerAVX512(&out[0], &blocks[0].u[0], p, &t.offs[0], &t.gy2[0], t.v, worleyF2F1Scale, n)
	case inner && mode == F1:
		worleyF1RowInnerAVX2(&out[0], &blocks[0].u[0], p, &t.offs[0], &t.gy2[0], t.v, worleyF1Scale, n)
	case inner:
		worleyF2F1RowInnerAVX2(&out[0], &blocks[0].u[0], p, &t.offs[0], &t.gy2[0], t.v, worleyF2F1Scale, n)
	case k == KernelAVX512 && mode == F1:
		worleyF1RowAVX512(&out[0], &blocks[0].u[0], p, &t.offs[0], &t.gy2[0], t.v, worleyF1Scale, n)
	case k == KernelAVX512:
		worleyF2F1RowAVX512(&out[0], &blocks[0].u[0], p, &t.offs[0], &t.gy2[0], t.v, worleyF2F1Scale, n)
	case mode == F1:
		worleyF1RowAVX2(&out[0], &blocks[0].u[0], p, &t.offs[0], &t.gy2[0], t.v, worleyF1Scale, n)
	default:
		worleyF2F1RowAVX2(&out[0], &blocks[0].u[0], p, &t.offs[0], &t.gy2[0], t.v, worleyF2F1Scale, n)
	}
	return n * laneWidth
}

// simplexPointLanes is simplexLanes at the points (xs[k], ys[k]).
func simplexPointLanes(k Kernel, key uint64, xs, ys []float64, out []float64) int {
	n := len(xs) / laneWidth
	switch {
	case n == 0:
		return 0
	case k == KernelAVX512 && simplexVector:
		_, _ = out[n*laneWidth-1], ys[n*laneWidth-1]
		simplexPointsAVX512(&out[0], &xs[0], &ys[0], key, &gradients[0].x, n)
	case k != KernelGo && simplexNear(xs[:n*laneWidth]) && simplexNear(ys[:n*laneWidth]):
		_, _ = out[n*laneWidth-1], ys[n*laneWidth-1]
		simplexPointsAVX2(&out[0], &xs[0], &ys[0], key, &gradients[0].x, n)
	default:
		return 0
	}
	return n * laneWidth
}

// evalPointLanes runs kernel k's value (or Perlin) noise and gradient at
// the points (xs[k], ys[k]) over the whole blocks of laneWidth samples,
// writing Eval's N, ∂N/∂x, ∂N/∂y to v, dx, dy, and returns how many
// samples it did: none where k has no such kernel.
func evalPointLanes(k Kernel, value bool, key uint64, xs, ys, v, dx, dy []float64) int {
	n := len(xs) / laneWidth
	if n == 0 || k != KernelAVX512 || !simplexVector {
		return 0
	}
	_, _, _, _ = ys[n*laneWidth-1], v[n*laneWidth-1], dx[n*laneWidth-1], dy[n*laneWidth-1]
	if value {
		valuePointsAVX512(&v[0], &dx[0], &dy[0], &xs[0], &ys[0], key, n)
	} else {
		perlinPointsAVX512(&v[0], &dx[0], &dy[0], &xs[0], &ys[0], key, &gradientX[0], &gradientY[0], n)
	}
	return n * laneWidth
}

// perlinValueLanes is evalPointLanes for Perlin noise's N alone
// (ValuePoints), in the kernel without the gradient.
func perlinValueLanes(k Kernel, key uint64, xs, ys, v []float64) int {
	n := len(xs) / laneWidth
	if n == 0 || k != KernelAVX512 || !simplexVector {
		return 0
	}
	_, _ = ys[n*laneWidth-1], v[n*laneWidth-1]
	perlinPointValuesAVX512(&v[0], &xs[0], &ys[0], key, &gradientX[0], &gradientY[0], n)
	return n * laneWidth
}
