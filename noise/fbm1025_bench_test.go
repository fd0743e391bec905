package noise

import (
	"math"
	"runtime"
	"testing"
)

// fBm of 8 octaves over a 1025² grid, one thread, per basis and kernel:
// the measure FastNoise2 is compared on (internal/fn2bench). Besides the
// wall time per map it reports the calling thread's CPU time per
// sample-octave, which shared machines disturb less; compare the kernels,
// and against FastNoise2, side by side in one run.

func benchFBm1025(b *testing.B, basis func(seed int64) Basis) {
	for _, kernel := range Kernels() {
		b.Run(string(kernel), func(b *testing.B) {
			previous, _ := UseKernel(kernel)
			defer UseKernel(previous)
			const size, octaves = 1025, 8
			xs := make([]float64, size)
			var grids []*Grid
			var amps []float64
			for i := range octaves {
				for k := range xs {
					xs[k] = math.Ldexp(float64(k)/256, i) // the largest features a quarter of the map
				}
				grids = append(grids, NewGrid(basis(int64(i)), append([]float64(nil), xs...)))
				amps = append(amps, math.Ldexp(1, -i))
			}
			f := NewFBm(grids, amps)
			out := make([]float32, size)
			ys := make([]float64, octaves)
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ResetTimer()
			cpu := threadCPU()
			for range b.N {
				for r := range size {
					for i := range ys {
						ys[i] = math.Ldexp(float64(r)/256, i)
					}
					f.Row(ys, out)
				}
			}
			cpu = threadCPU() - cpu
			b.ReportMetric(float64(cpu)/float64(b.N*size*size*octaves), "cpu-ns/sample-octave")
		})
	}
}

func BenchmarkFBmPerlin1025(b *testing.B)  { benchFBm1025(b, NewPerlin) }
func BenchmarkFBmSimplex1025(b *testing.B) { benchFBm1025(b, NewSimplex) }
func BenchmarkFBmWorley1025(b *testing.B) {
	benchFBm1025(b, func(seed int64) Basis { return NewWorley(seed, F1) })
}
func BenchmarkFBmWorleyEdge1025(b *testing.B) {
	benchFBm1025(b, func(seed int64) Basis { return NewWorley(seed, F2MinusF1) })
}

// The Worley bases with the jitter bounded to the square that encloses
// FastNoise2's feature points (each 0.437 from its cell's centre).
const fn2Jitter = 0.874

func BenchmarkFBmWorleyJitter1025(b *testing.B) {
	benchFBm1025(b, func(seed int64) Basis { n, _ := NewWorleyJitter(seed, F1, fn2Jitter); return n })
}
func BenchmarkFBmWorleyEdgeJitter1025(b *testing.B) {
	benchFBm1025(b, func(seed int64) Basis { n, _ := NewWorleyJitter(seed, F2MinusF1, fn2Jitter); return n })
}

// The Worley bases at the largest jitters whose search needs no ring cell.
func BenchmarkFBmWorleyInner1025(b *testing.B) {
	benchFBm1025(b, func(seed int64) Basis { n, _ := NewWorleyJitter(seed, F1, worleyInnerF1); return n })
}
func BenchmarkFBmWorleyEdgeInner1025(b *testing.B) {
	benchFBm1025(b, func(seed int64) Basis { n, _ := NewWorleyJitter(seed, F2MinusF1, worleyInnerF2F1); return n })
}
