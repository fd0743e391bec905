package noise

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// scatteredPoints returns n points spread over the lattice the way a
// distorted or displaced octave's are: no two share a row, coordinates of
// either sign and magnitudes from a fraction of a cell to 2⁴⁰ cells, with
// lattice points, −0, NaN and infinities among them.
func scatteredPoints(n int, seed uint64) (xs, ys []float64) {
	r := rand.New(rand.NewPCG(seed, 1))
	special := []float64{0, math.Copysign(0, -1), 3, -3, -1e-300, 0.9999999999999999, math.NaN(), math.Inf(1), math.Inf(-1), 1e30}
	xs, ys = make([]float64, n), make([]float64, n)
	for k := range xs {
		scale := math.Pow(2, float64(r.IntN(41)))
		xs[k], ys[k] = (r.Float64()*2-1)*scale, (r.Float64()*2-1)*scale
		if r.IntN(16) == 0 {
			xs[k] = special[r.IntN(len(special))]
		}
		if r.IntN(16) == 0 {
			ys[k] = special[r.IntN(len(special))]
		}
	}
	return xs, ys
}

// TestEvalPointsMatchesEval checks that EvalPoints, and ValuePoints, are
// bit for bit Eval and Value at scattered points with every kernel this
// machine runs, for every basis (value and Perlin noise run in the
// AVX-512 kernel, the others in Go), periodic or not, several seeds, and
// counts of points around the kernel's block of laneWidth, so that whole
// blocks, a tail and fewer points than one block all occur. Where Eval
// gives NaN (at NaN or infinite coordinates) any NaN will do: a NaN's
// sign and payload follow the operand order of the instruction that made
// it, which is not part of the contract (see sameOrNaN).
func TestEvalPointsMatchesEval(t *testing.T) {
	for _, kernel := range Kernels() {
		t.Run(string(kernel), func(t *testing.T) {
			useKernel(t, kernel)
			for _, seed := range []int64{1, -9, 1<<40 + 3} {
				var bases []Basis
				for _, kind := range Kinds {
					b, err := New(kind, seed)
					if err != nil {
						t.Fatal(err)
					}
					bases = append(bases, b)
				}
				for _, kind := range []Kind{Value, Perlin} {
					p, err := NewPeriodic(kind, seed, 9, 6)
					if err != nil {
						t.Fatal(err)
					}
					bases = append(bases, p)
				}
				for _, b := range bases {
					for _, n := range []int{0, 1, 7, 8, 9, 17, 64, 1001} {
						xs, ys := scatteredPoints(n, uint64(seed)+uint64(n))
						v, dx, dy := make([]float64, n), make([]float64, n), make([]float64, n)
						EvalPoints(b, xs, ys, v, dx, dy)
						vv := make([]float64, n)
						ValuePoints(b, xs, ys, vv)
						for k := range xs {
							name := fmt.Sprintf("%T seed %d, point %d of %d at (%v, %v)", b, seed, k, n, xs[k], ys[k])
							qv, qx, qy := b.Eval(xs[k], ys[k])
							if !sameOrNaN(v[k], qv) || !sameOrNaN(dx[k], qx) || !sameOrNaN(dy[k], qy) {
								t.Fatalf("%s: EvalPoints = (%v, %v, %v), Eval = (%v, %v, %v)", name, v[k], dx[k], dy[k], qv, qx, qy)
							}
							if q := b.Value(xs[k], ys[k]); !sameOrNaN(vv[k], q) {
								t.Fatalf("%s: ValuePoints = %v, Value = %v", name, vv[k], q)
							}
						}
					}
				}
			}
		})
	}
}

// benchEvalPoints times EvalPoints over 4096 scattered points of a
// fractal's range, with the kernel forced ("": the fastest here).
func benchEvalPoints(b *testing.B, basis Basis, kernel Kernel) {
	if kernel != "" {
		previous, err := UseKernel(kernel)
		if err != nil {
			b.Skip(err)
		}
		defer UseKernel(previous)
	}
	r := rand.New(rand.NewPCG(1, 2))
	const n = 4096
	xs, ys := make([]float64, n), make([]float64, n)
	for k := range xs {
		xs[k], ys[k] = r.Float64()*1000, r.Float64()*1000
	}
	v, dx, dy := make([]float64, n), make([]float64, n), make([]float64, n)
	for b.Loop() {
		EvalPoints(basis, xs, ys, v, dx, dy)
	}
}

func BenchmarkPerlinEvalPoints(b *testing.B)         { benchEvalPoints(b, NewPerlin(1), "") }
func BenchmarkPerlinEvalPointsGoKernel(b *testing.B) { benchEvalPoints(b, NewPerlin(1), KernelGo) }
func BenchmarkValueEvalPoints(b *testing.B)          { benchEvalPoints(b, NewValue(1), "") }
func BenchmarkValueEvalPointsGoKernel(b *testing.B)  { benchEvalPoints(b, NewValue(1), KernelGo) }
