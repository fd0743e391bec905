package noise

import (
	"fmt"
	"math"
	"testing"
)

// quilezPoint is Quilez turbulence at (x, y) the straightforward way:
// every octave by a point Eval at λ^i·(x, y) (thesis listing 6.4).
func quilezPoint(octaves []Basis, amps []float64, x, y, lacunarity float64) float32 {
	var h, ddx, ddy float64
	for i, b := range octaves {
		n, dx, dy := b.Eval(x, y)
		ddx += dx
		ddy += dy
		h = h + amps[i]*n/(1+float64(ddx*ddx)+float64(ddy*ddy))
		x *= lacunarity
		y *= lacunarity
	}
	return float32(h)
}

// TestQuilezMatchesPoints checks Quilez.Row bit for bit against
// quilezPoint, and its range against the row's, with every kernel this
// machine runs (the fused AVX-512 and AVX2 kernels, and octave by octave
// through the gradient rows and QuilezStep), for several seeds, widths around the
// kernels' blocks, value and Perlin octaves (the fused cases), periodic
// ones, and a mix of bases (octave by octave on every kernel).
func TestQuilezMatchesPoints(t *testing.T) {
	const lacunarity = 2
	for _, kernel := range Kernels() {
		t.Run(string(kernel), func(t *testing.T) {
			useKernel(t, kernel)
			for _, seed := range []int64{3, 17, -40} {
				sets := map[string][]Basis{}
				for _, kind := range []Kind{Value, Perlin} {
					var plain, periodic []Basis
					for i := range 6 {
						b, err := New(kind, seed+int64(i))
						if err != nil {
							t.Fatal(err)
						}
						p, err := NewPeriodic(kind, seed+int64(i), 5<<i, 5<<i)
						if err != nil {
							t.Fatal(err)
						}
						plain, periodic = append(plain, b), append(periodic, p)
					}
					sets[string(kind)], sets["periodic "+string(kind)] = plain, periodic
				}
				sets["mixed"] = []Basis{NewPerlin(seed), NewValue(seed), NewSimplex(seed), NewPerlin(seed + 1)}
				for name, octaves := range sets {
					amps := make([]float64, len(octaves))
					for i := range amps {
						amps[i] = math.Pow(lacunarity, -0.9*float64(i))
					}
					for _, w := range []int{1, 8, 13, 64, 71, 257} {
						fused := kernel != KernelGo && name != "mixed" && w >= laneWidth
						checkQuilez(t, fmt.Sprintf("%s seed %d, %d samples", name, seed, w), octaves, amps, w, lacunarity, fused)
					}
				}
			}
		})
	}
}

// checkQuilez compares a row of w samples, 5/w lattice cells apart in the
// first octave, on several rows, and checks that the fused kernel runs
// where it should.
func checkQuilez(t *testing.T, name string, octaves []Basis, amps []float64, w int, lacunarity float64, fused bool) {
	t.Helper()
	grids := make([]*Grid, len(octaves))
	x0 := make([]float64, w)
	for k := range x0 {
		x0[k] = 0.3183 + 5*float64(k)/float64(w)
	}
	xs := x0
	for i, b := range octaves {
		grids[i] = NewGrid(b, xs)
		next := make([]float64, w)
		for k, x := range xs {
			next[k] = x * lacunarity
		}
		xs = next
	}
	q := NewQuilez(grids, amps)
	if (q.octaves != nil) != fused {
		t.Fatalf("%s: fused kernel %v, want %v", name, q.octaves != nil, fused)
	}
	out := make([]float32, w)
	ys := make([]float64, len(octaves))
	for _, y := range []float64{0.3183, 0.75, 1.5, 3.9, 2.2} {
		ys[0] = y
		for i := 1; i < len(ys); i++ {
			ys[i] = ys[i-1] * lacunarity
		}
		lo, hi := q.Row(ys, out)
		wlo, whi := float32(math.Inf(1)), float32(math.Inf(-1))
		for k, x := range x0 {
			want := quilezPoint(octaves, amps, x, y, lacunarity)
			if math.Float32bits(out[k]) != math.Float32bits(want) {
				t.Fatalf("%s: row at y %v, sample %d = %v, want %v", name, y, k, out[k], want)
			}
			wlo, whi = min(wlo, want), max(whi, want)
		}
		if lo != wlo || hi != whi {
			t.Fatalf("%s: row at y %v has range [%v, %v], want [%v, %v]", name, y, lo, hi, wlo, whi)
		}
	}
}
