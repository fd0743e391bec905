//go:build amd64 && !purego

package noise

import "golang.org/x/sys/cpu"

//go:generate sh -c "cd internal/asmgen && go run . -pkg noise -out ../../kernels_amd64.s -stubs ../../kernels_amd64_stubs.go"

var supportedKernels = func() []Kernel {
	ks := []Kernel{KernelGo}
	if cpu.X86.HasAVX2 {
		ks = append(ks, KernelAVX2)
		if cpu.X86.HasAVX512F {
			ks = append(ks, KernelAVX512)
		}
	}
	return ks
}()

// perlinLanes runs kernel k over the blocks, writing N to out from its
// first sample, and returns how many samples it did. cs and co must reach
// laneReach columns past the last block's base; cso (AVX2) holds their
// pairs.
func perlinLanes(k Kernel, blocks []laneBlock, out, cs, co, cso []float64) int {
	n := len(blocks)
	if n == 0 {
		return 0
	}
	_ = out[n*laneWidth-1]
	if k == KernelAVX512 {
		_, _ = cs[blocks[n-1].base+laneReach-1], co[blocks[n-1].base+laneReach-1]
		perlinRowAVX512(&out[0], &blocks[0].u[0], &cs[0], &co[0], n)
	} else {
		_ = cso[2*len(cs)-2*laneReach-1]
		perlinRowAVX2(&out[0], &blocks[0].u[0], &cso[0], &cso[0], n)
	}
	return n * laneWidth
}

// valueLanes is perlinLanes for value noise, with the columns' values ve.
func valueLanes(k Kernel, blocks []laneBlock, out, ve []float64) int {
	n := len(blocks)
	if n == 0 {
		return 0
	}
	_, _ = out[n*laneWidth-1], ve[blocks[n-1].base+laneReach-1]
	if k == KernelAVX512 {
		valueRowAVX512(&out[0], &blocks[0].u[0], &ve[0], &ve[0], n)
	} else {
		valueRowAVX2(&out[0], &blocks[0].u[0], &ve[0], &ve[0], n)
	}
	return n * laneWidth
}

// fbmLanes runs kernel k's fused fBm of Perlin (or value) noise, its
// octaves folded by fold (with offset: see Fold), over the first n blocks
// of every octave, writing float32 sums to out and folding them into rng
// (see fbmRow in internal/asmgen), and returns how many samples it did.
func fbmLanes(k Kernel, fold Fold, value bool, octaves []laneOctave, n int, out []float32, rng *[3][laneWidth]float32, offset float64) int {
	if n == 0 {
		return 0
	}
	_ = out[n*laneWidth-1]
	basis := 0
	if value {
		basis = 1
	}
	ks := &foldKernels[fold][basis]
	switch {
	case k == KernelAVX512:
		if pairs := n / 2; pairs > 0 {
			ks[1](&out[0], &octaves[0].amp, len(octaves), 0, pairs, &rng[0][0], offset)
		}
		if n%2 == 1 {
			ks[0](&out[(n-1)*laneWidth], &octaves[0].amp, len(octaves), n-1, 1, &rng[0][0], offset)
		}
	default:
		ks[2](&out[0], &octaves[0].amp, len(octaves), 0, n, &rng[0][0], offset)
	}
	return n * laneWidth
}

// foldKernel is a fused row kernel (fbmRow in internal/asmgen).
type foldKernel func(out *float32, octaves *float64, count, first, n int, rng *float32, offset float64)

// foldKernels holds, per Fold and basis (Perlin, value noise), the
// AVX-512 kernels of one and of two blocks at a time and the AVX2 kernel.
var foldKernels = [...][2][3]foldKernel{
	FoldFBm: {
		{noOffset(fbmPerlinAVX512x1), noOffset(fbmPerlinAVX512x2), noOffset(fbmPerlinAVX2x1)},
		{noOffset(fbmValueAVX512x1), noOffset(fbmValueAVX512x2), noOffset(fbmValueAVX2x1)},
	},
	FoldHetero: {
		{heteroPerlinAVX512x1, heteroPerlinAVX512x2, heteroPerlinAVX2x1},
		{heteroValueAVX512x1, heteroValueAVX512x2, heteroValueAVX2x1},
	},
	FoldHybrid: {
		{hybridPerlinAVX512x1, hybridPerlinAVX512x2, hybridPerlinAVX2x1},
		{hybridValueAVX512x1, hybridValueAVX512x2, hybridValueAVX2x1},
	},
}

// noOffset adapts an fBm kernel, which has no offset, to foldKernel.
func noOffset(k func(out *float32, octaves *float64, count, first, n int, rng *float32)) foldKernel {
	return func(out *float32, octaves *float64, count, first, n int, rng *float32, _ float64) {
		k(out, octaves, count, first, n, rng)
	}
}

// perlinEvalLanes runs kernel k's Perlin N and gradient over the blocks,
// from r's column tables on the current row, with w'(u) at du and
// w'(v) = dv, and returns how many samples it did.
func perlinEvalLanes(k Kernel, blocks []laneBlock, r *GridRows, v, dx, dy, du []float64, dv float64) int {
	n := len(blocks)
	if n == 0 {
		return 0
	}
	last := n*laneWidth - 1
	_, _, _, _ = v[last], dx[last], dy[last], du[last]
	if k == KernelAVX512 {
		reach := blocks[n-1].base + laneReach - 1
		_, _, _, _, _ = r.cs[reach], r.co[reach], r.sx[reach], r.sy[reach], r.sv[reach]
		perlinEvalRowAVX512(&v[0], &dx[0], &dy[0], &blocks[0].u[0], &du[0], &r.cs[0], &r.co[0], &r.sx[0], &r.sy[0], &r.sv[0], dv, n)
	} else {
		// The pairs of the last column read, base+rel+1, end the tables.
		_, _ = r.cso[2*len(r.g.hashed)-1], r.sxy[2*len(r.g.hashed)-1]
		perlinEvalRowAVX2(&v[0], &dx[0], &dy[0], &blocks[0].u[0], &du[0], &r.cso[0], &r.cso[0], &r.sxy[0], &r.sxy[0], &r.sv[0], dv, n)
	}
	return n * laneWidth
}

// valueEvalLanes is perlinEvalLanes for value noise, with the columns'
// values ve and differences vca.
func valueEvalLanes(k Kernel, blocks []laneBlock, ve, vca, v, dx, dy, du []float64, dv float64) int {
	n := len(blocks)
	if n == 0 {
		return 0
	}
	last := n*laneWidth - 1
	reach := blocks[n-1].base + laneReach - 1
	_, _, _, _, _, _ = v[last], dx[last], dy[last], du[last], ve[reach], vca[reach]
	if k == KernelAVX512 {
		valueEvalRowAVX512(&v[0], &dx[0], &dy[0], &blocks[0].u[0], &du[0], &ve[0], &vca[0], dv, n)
	} else {
		valueEvalRowAVX2(&v[0], &dx[0], &dy[0], &blocks[0].u[0], &du[0], &ve[0], &vca[0], dv, n)
	}
	return n * laneWidth
}

// rescaleLanes runs kernel k's Normalize32 over the whole steps of v from
// its start and returns how many samples it did.
func rescaleLanes(k Kernel, v []float32, lo, span, r float64) int {
	step := 4 * laneWidth // rescaleUnroll vectors of 8 (AVX-512) or 4 (AVX2) lanes
	if k == KernelAVX2 {
		step /= 2
	}
	n := len(v) / step
	switch {
	case n == 0 || k == KernelGo:
		return 0
	case k == KernelAVX512:
		rescale32AVX512(&v[0], n, lo, span, r)
	default:
		rescale32AVX2(&v[0], n, lo, span, r)
	}
	return n * step
}

// quilezLanes runs kernel k's QuilezStep over the whole steps of 16
// samples from the rows' start and returns how many samples it did.
func quilezLanes(k Kernel, h, ddx, ddy, n, ndx, ndy []float64, amp float64) int {
	const step = 16
	steps := len(h) / step
	if steps == 0 || k == KernelGo {
		return 0
	}
	last := steps*step - 1
	_, _, _, _, _, _ = h[last], ddx[last], ddy[last], n[last], ndx[last], ndy[last]
	if k == KernelAVX512 {
		quilezStepAVX512(&h[0], &ddx[0], &ddy[0], &n[0], &ndx[0], &ndy[0], amp, steps)
	} else {
		quilezStepAVX2(&h[0], &ddx[0], &ddy[0], &n[0], &ndx[0], &ndy[0], amp, steps)
	}
	return steps * step
}

// quilezRowLanes runs kernel k's fused Quilez kernel of Perlin (or value)
// noise over the first n blocks of every octave, writing float32 heights
// to out and folding them into rng, and returns how many samples it did.
// The AVX-512 kernel does two blocks at a time and the last odd one alone.
func quilezRowLanes(k Kernel, value bool, octaves []laneGradOctave, n int, out []float32, rng *[3][laneWidth]float32) int {
	_ = out[n*laneWidth-1]
	if k == KernelAVX2 {
		x := quilezPerlinAVX2
		if value {
			x = quilezValueAVX2
		}
		x(&out[0], &octaves[0].amp, len(octaves), 0, n, &rng[0][0])
		return n * laneWidth
	}
	x1, x2 := quilezPerlinAVX512x1, quilezPerlinAVX512x2
	if value {
		x1, x2 = quilezValueAVX512x1, quilezValueAVX512x2
	}
	if pairs := n / 2; pairs > 0 {
		x2(&out[0], &octaves[0].amp, len(octaves), 0, pairs, &rng[0][0])
	}
	if n%2 == 1 {
		x1(&out[(n-1)*laneWidth], &octaves[0].amp, len(octaves), n-1, 1, &rng[0][0])
	}
	return n * laneWidth
}

// gradientX and gradientY are the gradients' x and y apart; the hashing
// kernel keeps their first quarter in registers.
var gradientX, gradientY = func() (x, y [256]float64) {
	for k, g := range gradients {
		x[k], y[k] = g.x, g.y
	}
	return x, y
}()

// hashKernel is whether the AVX-512 kernel hashes lattice rows too, which
// takes the DQ extension's 64-bit multiplies and conversions.
var hashKernel = cpu.X86.HasAVX512DQ

// perlinHashLanes runs the hashing kernel, with kernel k AVX-512, over the
// whole blocks of 8 of the columns whose i·primeX are hx, writing the
// gradients of the lattice row with key key to gx and gy, and returns how
// many columns it did.
func perlinHashLanes(k Kernel, gx, gy []float64, hx []uint64, key uint64) int {
	n := len(hx) / laneWidth
	if k != KernelAVX512 || !hashKernel || n == 0 {
		return 0
	}
	_, _ = gx[n*laneWidth-1], gy[n*laneWidth-1]
	perlinHashAVX512(&gx[0], &gy[0], &hx[0], key, &gradientX[0], &gradientY[0], n)
	return n * laneWidth
}

// valueHashLanes is perlinHashLanes for value noise's lattice values a.
func valueHashLanes(k Kernel, a []float64, hx []uint64, key uint64) int {
	n := len(hx) / laneWidth
	if k != KernelAVX512 || !hashKernel || n == 0 {
		return 0
	}
	_ = a[n*laneWidth-1]
	valueHashAVX512(&a[0], &hx[0], key, n)
	return n * laneWidth
}

// perlinColumnLanes runs, with kernel k AVX-512, the Perlin column kernel
// over the whole blocks of 8 of r's prepared columns, for the row at offset
// v, w(v) = wv, with the slope terms when slopes, and returns how many
// columns it did.
func perlinColumnLanes(k Kernel, r *GridRows, v, wv float64, slopes bool) int {
	n := len(r.g.hashed) / laneWidth
	if k != KernelAVX512 || n == 0 {
		return 0
	}
	last := n*laneWidth - 1
	_, _, _, _, _, _ = r.g0.x[last], r.g0.y[last], r.g1.x[last], r.g1.y[last], r.cs[last], r.co[last]
	if slopes {
		_, _, _ = r.sx[last], r.sy[last], r.sv[last]
		perlinColumnSlopesAVX512(&r.cs[0], &r.co[0], &r.sx[0], &r.sy[0], &r.sv[0], &r.g0.x[0], &r.g0.y[0], &r.g1.x[0], &r.g1.y[0], v, wv, n)
	} else {
		perlinColumnsAVX512(&r.cs[0], &r.co[0], &r.g0.x[0], &r.g0.y[0], &r.g1.x[0], &r.g1.y[0], v, wv, n)
	}
	return n * laneWidth
}

// valueColumnLanes is perlinColumnLanes for value noise: the columns' e
// and c − a from the lattice values a0 (row j) and a1 (row j+1).
func valueColumnLanes(k Kernel, ve, vca, a0, a1 []float64, wv float64) int {
	n := len(a0) / laneWidth
	if k != KernelAVX512 || n == 0 {
		return 0
	}
	last := n*laneWidth - 1
	_, _, _, _ = ve[last], vca[last], a0[last], a1[last]
	valueColumnsAVX512(&ve[0], &vca[0], &a0[0], &a1[0], wv, n)
	return n * laneWidth
}
