package terrain

import (
	"context"
	"math"
	"testing"

	"cordillera/noise"
)

// TestCellularFastPathMatchesReference checks issue 15 part B end to end:
// with each noise kernel this machine runs forced in turn, the fractal
// generators over simplex and both Worley modes give the point-by-point
// reference's map bit for bit, for several seeds, odd map sizes (rows
// that are not a multiple of the kernels' 8 lanes), feature sizes and
// with the domain distortion on and off.
func TestCellularFastPathMatchesReference(t *testing.T) {
	for _, kernel := range noise.Kernels() {
		t.Run(string(kernel), func(t *testing.T) {
			useKernel(t, kernel)
			for _, basis := range []noise.Kind{noise.Simplex, noise.Worley, noise.WorleyEdge} {
				for _, alg := range []Algorithm{FBm, Hybrid, Quilez, Ridged} {
					for k, seed := range []int64{3, -11, 1<<40 + 5} {
						for _, distortion := range []float64{0, 40} {
							p := smallParams(alg)
							p.Basis, p.Seed, p.Distortion = basis, seed, distortion
							p.Size = []int{33, 75, 101}[k]
							p.FeatureSize = []float64{0, 60, 95}[k]
							p.Octaves = 7
							fast, err := Generate(context.Background(), p, nil)
							if err != nil {
								t.Fatal(err)
							}
							ref, err := GenerateReference(context.Background(), p)
							if err != nil {
								t.Fatal(err)
							}
							for i := range fast.Samples {
								if math.Float32bits(fast.Samples[i]) != math.Float32bits(ref.Samples[i]) {
									t.Fatalf("%s/%s seed %d size %d distortion %v: sample %d fast %v != reference %v",
										alg, basis, seed, p.Size, distortion, i, fast.Samples[i], ref.Samples[i])
								}
							}
						}
					}
				}
			}
		})
	}
}

// useKernel makes k the noise kernel for the rest of t (the vector paths
// the fast generators take), and the previous one again after it.
func useKernel(t *testing.T, k noise.Kernel) {
	t.Helper()
	previous, err := noise.UseKernel(k)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { noise.UseKernel(previous) })
}
