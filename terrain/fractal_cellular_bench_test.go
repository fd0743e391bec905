package terrain

import (
	"context"
	"testing"

	"cordillera/noise"
)

// Issue 15, part B: fBm of simplex and Worley noise over the default
// 1025² map (8 octaves), the fast path beside the point-by-point reference
// in one run, so that the gain is a ratio. Like BenchmarkFBmPerlin1025
// they loop over b.N, so that -cpu 1 and -cpu 2 each get their own figure.

func benchFBmBasis(b *testing.B, kind noise.Kind, reference bool) {
	benchFBmBasisKernel(b, kind, reference, "")
}

// benchFBmBasisKernel is benchFBmBasis with the noise kernel forced ("":
// the fastest this machine runs).
func benchFBmBasisKernel(b *testing.B, kind noise.Kind, reference bool, kernel noise.Kernel) {
	if kernel != "" {
		previous, err := noise.UseKernel(kernel)
		if err != nil {
			b.Skip(err)
		}
		defer noise.UseKernel(previous)
	}
	p := DefaultParams()
	p.Basis = kind
	for range b.N {
		var err error
		if reference {
			_, err = GenerateReference(context.Background(), p)
		} else {
			_, err = Generate(context.Background(), p, nil)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFBmSimplex1025(b *testing.B)             { benchFBmBasis(b, noise.Simplex, false) }
func BenchmarkFBmSimplex1025Reference(b *testing.B)    { benchFBmBasis(b, noise.Simplex, true) }
func BenchmarkFBmWorley1025(b *testing.B)              { benchFBmBasis(b, noise.Worley, false) }
func BenchmarkFBmWorley1025Reference(b *testing.B)     { benchFBmBasis(b, noise.Worley, true) }
func BenchmarkFBmWorleyEdge1025(b *testing.B)          { benchFBmBasis(b, noise.WorleyEdge, false) }
func BenchmarkFBmWorleyEdge1025Reference(b *testing.B) { benchFBmBasis(b, noise.WorleyEdge, true) }

// The Go row path alone, every vector kernel off.
func BenchmarkFBmSimplex1025GoKernel(b *testing.B) {
	benchFBmBasisKernel(b, noise.Simplex, false, noise.KernelGo)
}
func BenchmarkFBmWorley1025GoKernel(b *testing.B) {
	benchFBmBasisKernel(b, noise.Worley, false, noise.KernelGo)
}
func BenchmarkFBmWorleyEdge1025GoKernel(b *testing.B) {
	benchFBmBasisKernel(b, noise.WorleyEdge, false, noise.KernelGo)
}

// The AVX2 kernels on a machine that also has AVX-512 (skipped without AVX2).
func BenchmarkFBmSimplex1025AVX2(b *testing.B) {
	benchFBmBasisKernel(b, noise.Simplex, false, noise.KernelAVX2)
}
func BenchmarkFBmWorley1025AVX2(b *testing.B) {
	benchFBmBasisKernel(b, noise.Worley, false, noise.KernelAVX2)
}
func BenchmarkFBmWorleyEdge1025AVX2(b *testing.B) {
	benchFBmBasisKernel(b, noise.WorleyEdge, false, noise.KernelAVX2)
}

// With the domain distortion on, the octaves are evaluated at scattered
// points (noise.ValuePoints): simplex noise in the vector kernel, Worley
// noise point by point.
func benchFBmDistorted(b *testing.B, kind noise.Kind, reference bool) {
	p := DefaultParams()
	p.Basis, p.Distortion = kind, 40
	for range b.N {
		var err error
		if reference {
			_, err = GenerateReference(context.Background(), p)
		} else {
			_, err = Generate(context.Background(), p, nil)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFBmSimplexDistorted1025(b *testing.B) { benchFBmDistorted(b, noise.Simplex, false) }
func BenchmarkFBmSimplexDistorted1025Reference(b *testing.B) {
	benchFBmDistorted(b, noise.Simplex, true)
}
