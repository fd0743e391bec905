package terrain

import (
	"fmt"
	"testing"

	"cordillera/noise"
)

// Swiss turbulence runs octave-major along each row (swissRow): every
// sample's displaced point of an octave, then one noise.EvalPoints for the
// row (value and Perlin noise in the AVX-512 point kernel, whole blocks of
// 8 and the tail in Go), then the fold. With every kernel this machine
// runs it must give the point-by-point reference's bits: for every basis,
// with and without domain distortion (the distorted first octave comes
// through noise.ValuePoints' kernel too), on periodic lattices, at widths
// below one block, of odd blocks and with tails, at feature sizes from one
// sample (displaced points far from the row) to the whole map, and with a
// basis transform and a lacunarity that is not a power of two.
func TestSwissRowsMatchReference(t *testing.T) {
	for _, k := range noise.Kernels() {
		t.Run(string(k), func(t *testing.T) {
			useKernel(t, k)
			for _, basis := range noise.Kinds {
				for _, size := range []int{5, 24, 57, 100} {
					for _, seed := range []int64{-7, 0, 1<<40 + 3} {
						for _, c := range []struct {
							distortion, feature, lacunarity float64
							octaves                         int
							tile                            bool
							tin                             BasisTransform
						}{
							{0, 90, 2, 8, false, PlainBasis},
							{40, 60, 1.9871, 7, false, PlainBasis},
							{0, 0, 2, 6, false, BasisTransforms[len(BasisTransforms)-1]},
							{25, 100, 2, 5, true, PlainBasis},
						} {
							if c.tile && (basis == noise.Simplex || basis == noise.Worley || basis == noise.WorleyEdge) {
								continue
							}
							p := DefaultParams()
							p.Algorithm, p.Basis, p.Size, p.Seed = Swiss, basis, size, seed
							p.Distortion, p.FeatureSize, p.Lacunarity = c.distortion, c.feature, c.lacunarity
							p.Octaves, p.Tileable, p.BasisTransform = c.octaves, c.tile, c.tin
							name := fmt.Sprintf("%s size %d seed %d distortion %v feature %v λ %v octaves %d tile %v %s",
								basis, size, seed, c.distortion, c.feature, c.lacunarity, c.octaves, c.tile, c.tin)
							assertMatchesReference(t, p, name)
						}
					}
				}
			}
		})
	}
}

// A distorted fBm over the default map: its octaves at scattered points
// through noise.ValuePoints, with each kernel, beside the reference.
func BenchmarkFBmPerlinDistorted1025(b *testing.B) { benchDistortedKernel(b, noise.Perlin, "") }
func BenchmarkFBmPerlinDistorted1025GoKernel(b *testing.B) {
	benchDistortedKernel(b, noise.Perlin, noise.KernelGo)
}
func BenchmarkFBmPerlinDistorted1025Reference(b *testing.B) {
	benchFBmDistorted(b, noise.Perlin, true)
}

func benchDistortedKernel(b *testing.B, kind noise.Kind, kernel noise.Kernel) {
	if kernel != "" {
		previous, err := noise.UseKernel(kernel)
		if err != nil {
			b.Skip(err)
		}
		defer noise.UseKernel(previous)
	}
	benchFBmDistorted(b, kind, false)
}
