package terrain

import (
	"testing"

	"cordillera/noise"
)

// The fast path must give the reference's bits with every noise kernel this
// machine runs (Go, AVX2, AVX-512; see noise.Kernels), not only with the
// fastest, which the other tests use: they run again here with each of the
// others forced, so that the pure Go path is tested even where vector
// kernels exist.
func TestFastPathMatchesReferenceWithEveryKernel(t *testing.T) {
	kernels := noise.Kernels()
	for _, k := range kernels[:len(kernels)-1] {
		t.Run(string(k), func(t *testing.T) {
			previous, err := noise.UseKernel(k)
			if err != nil {
				t.Fatal(err)
			}
			defer noise.UseKernel(previous)
			TestFastPathMatchesReference(t)
			TestFastPathMatchesReferenceAcrossSeeds(t)
			TestTileableFastMatchesReference(t)
		})
	}
}
