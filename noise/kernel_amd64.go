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

// fbmLanes runs kernel k's fused fBm of Perlin (or value) noise over the
// first n blocks of every octave, writing float32 sums to out and folding
// them into rng (see fbmRow in internal/asmgen), and returns how many
// samples it did.
func fbmLanes(k Kernel, value bool, octaves []laneOctave, n int, out []float32, rng *[3][laneWidth]float32) int {
	if n == 0 {
		return 0
	}
	_ = out[n*laneWidth-1]
	x1, x2 := fbmPerlinAVX512x1, fbmPerlinAVX512x2
	if value {
		x1, x2 = fbmValueAVX512x1, fbmValueAVX512x2
	}
	switch {
	case k == KernelAVX512:
		if pairs := n / 2; pairs > 0 {
			x2(&out[0], &octaves[0].amp, len(octaves), 0, pairs, &rng[0][0])
		}
		if n%2 == 1 {
			x1(&out[(n-1)*laneWidth], &octaves[0].amp, len(octaves), n-1, 1, &rng[0][0])
		}
	case value:
		fbmValueAVX2x1(&out[0], &octaves[0].amp, len(octaves), 0, n, &rng[0][0])
	default:
		fbmPerlinAVX2x1(&out[0], &octaves[0].amp, len(octaves), 0, n, &rng[0][0])
	}
	return n * laneWidth
}
