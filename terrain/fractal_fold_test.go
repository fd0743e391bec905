package terrain

import (
	"context"
	"fmt"
	"math"
	"testing"

	"cordillera/noise"
)

// fBm, the heterogeneous and hybrid multifractals and Quilez turbulence
// run fused along each row (noise.NewMultifractal, noise.NewQuilez: every
// octave folded in registers by the vector kernels, two blocks at a time
// and an odd one alone, in Go after the last whole block). With every
// kernel this
// machine runs, they must give the point-by-point reference's bits at
// widths of one block and a tail, an odd number of blocks (the AVX-512
// kernel's single block after its pairs), whole blocks only, and blocks
// with a longer tail; at offsets where the hybrid weight is capped at 1
// often or never; at feature sizes from one sample (the finest octaves'
// lattice finer than the samples) to the whole map; on periodic lattices.
func TestFusedRowsMatchReference(t *testing.T) {
	for _, k := range noise.Kernels() {
		t.Run(string(k), func(t *testing.T) {
			useKernel(t, k)
			for _, alg := range []Algorithm{FBm, Hetero, Hybrid, Quilez} {
				for _, basis := range []noise.Kind{noise.Perlin, noise.Value} {
					for _, size := range []int{9, 24, 57, 100} {
						for _, seed := range []int64{-7, 0, 1<<40 + 3} {
							for _, c := range []struct {
								offset, feature float64
								octaves         int
								tile            bool
							}{{0.7, 90, 10, false}, {0, 0, 7, false}, {1.6, 60, 1, false}, {0.3, 100, 8, true}} {
								p := DefaultParams()
								p.Algorithm, p.Basis, p.Size, p.Seed = alg, basis, size, seed
								p.Offset, p.FeatureSize, p.Octaves, p.Tileable = c.offset, c.feature, c.octaves, c.tile
								name := fmt.Sprintf("%s/%s size %d seed %d offset %v feature %v octaves %d tile %v",
									alg, basis, size, seed, c.offset, c.feature, c.octaves, c.tile)
								assertMatchesReference(t, p, name)
							}
						}
					}
				}
			}
		})
	}
}

// assertMatchesReference fails t unless Generate gives GenerateReference's
// bits for p.
func assertMatchesReference(t *testing.T, p Params, name string) {
	t.Helper()
	fast, err := Generate(context.Background(), p, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	ref, err := GenerateReference(context.Background(), p)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for i := range fast.Samples {
		if math.Float32bits(fast.Samples[i]) != math.Float32bits(ref.Samples[i]) {
			t.Fatalf("%s: sample %d fast %v != reference %v", name, i, fast.Samples[i], ref.Samples[i])
		}
	}
}

// benchAlgorithmKernel times Generate of the default 1025² map made with
// alg, with the noise kernel forced ("": the fastest this machine runs).
func benchAlgorithmKernel(b *testing.B, alg Algorithm, kernel noise.Kernel) {
	if kernel != "" {
		previous, err := noise.UseKernel(kernel)
		if err != nil {
			b.Skip(err)
		}
		defer noise.UseKernel(previous)
	}
	p := DefaultParams()
	p.Algorithm = alg
	for range b.N { // not b.Loop: see BenchmarkFBmPerlin1025
		if _, err := Generate(context.Background(), p, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// Quilez turbulence and the heterogeneous multifractal over the default
// map with each kernel: the fused rows of AVX-512 and AVX2 beside pure Go.
func BenchmarkQuilez1025(b *testing.B)         { benchAlgorithmKernel(b, Quilez, "") }
func BenchmarkQuilez1025AVX2(b *testing.B)     { benchAlgorithmKernel(b, Quilez, noise.KernelAVX2) }
func BenchmarkQuilez1025GoKernel(b *testing.B) { benchAlgorithmKernel(b, Quilez, noise.KernelGo) }
func BenchmarkHetero1025(b *testing.B)         { benchAlgorithmKernel(b, Hetero, "") }
func BenchmarkHetero1025AVX2(b *testing.B)     { benchAlgorithmKernel(b, Hetero, noise.KernelAVX2) }
func BenchmarkHetero1025GoKernel(b *testing.B) { benchAlgorithmKernel(b, Hetero, noise.KernelGo) }

// Swiss turbulence over the default map: its later octaves at displaced
// points through noise.EvalPoints, with each kernel, beside the reference.
func BenchmarkSwiss1025(b *testing.B)         { benchAlgorithmKernel(b, Swiss, "") }
func BenchmarkSwiss1025AVX2(b *testing.B)     { benchAlgorithmKernel(b, Swiss, noise.KernelAVX2) }
func BenchmarkSwiss1025GoKernel(b *testing.B) { benchAlgorithmKernel(b, Swiss, noise.KernelGo) }
func BenchmarkSwiss1025Reference(b *testing.B) {
	p := DefaultParams()
	p.Algorithm = Swiss
	for range b.N {
		if _, err := GenerateReference(context.Background(), p); err != nil {
			b.Fatal(err)
		}
	}
}
