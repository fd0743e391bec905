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

// TestWorleyJitterMaps checks -worley-jitter end to end: the default 1
// gives the map of the plain Worley basis (noise.New) bit for bit; a
// smaller jitter changes the map, and its fast path gives the point-by-point
// reference's map bit for bit under every kernel, distortion on and off;
// the jitter leaves other bases alone.
func TestWorleyJitterMaps(t *testing.T) {
	for _, basis := range []noise.Kind{noise.Worley, noise.WorleyEdge} {
		p := smallParams(FBm)
		p.Basis, p.Size, p.Octaves = basis, 75, 5
		if p.WorleyJitter != 1 {
			t.Fatalf("default worley-jitter %v, want 1", p.WorleyJitter)
		}
		full, err := Generate(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		// The plain basis from noise.New, octave by octave, as before the
		// parameter existed.
		for i := range p.Octaves {
			b, err := newBasis(p, i, 0)
			if err != nil {
				t.Fatal(err)
			}
			plain, _ := noise.New(basis, octaveSeed(p.Seed, i))
			if b != plain {
				t.Fatalf("%s octave %d: jitter 1 basis %+v, want noise.New's %+v", basis, i, b, plain)
			}
		}
		for _, jitter := range []float64{0, 0.5, 0.9} {
			p.WorleyJitter = jitter
			bounded, err := Generate(context.Background(), p, nil)
			if err != nil {
				t.Fatal(err)
			}
			differ := 0
			for i := range full.Samples {
				if full.Samples[i] != bounded.Samples[i] {
					differ++
				}
			}
			if differ < len(full.Samples)/2 {
				t.Fatalf("%s jitter %v: only %d of %d samples differ from jitter 1", basis, jitter, differ, len(full.Samples))
			}
			for _, kernel := range noise.Kernels() {
				useKernel(t, kernel)
				for _, distortion := range []float64{0, 40} {
					q := p
					q.Distortion = distortion
					fast, err := Generate(context.Background(), q, nil)
					if err != nil {
						t.Fatal(err)
					}
					ref, err := GenerateReference(context.Background(), q)
					if err != nil {
						t.Fatal(err)
					}
					for i := range fast.Samples {
						if math.Float32bits(fast.Samples[i]) != math.Float32bits(ref.Samples[i]) {
							t.Fatalf("%s jitter %v kernel %s distortion %v: sample %d fast %v != reference %v",
								basis, jitter, kernel, distortion, i, fast.Samples[i], ref.Samples[i])
						}
					}
				}
			}
		}
	}
	p := smallParams(FBm)
	want, err := Generate(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.WorleyJitter = 0.3
	got, err := Generate(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want.Samples {
		if math.Float32bits(want.Samples[i]) != math.Float32bits(got.Samples[i]) {
			t.Fatalf("Perlin: worley-jitter 0.3 changed sample %d", i)
		}
	}
}
