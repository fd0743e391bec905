package noise

import (
	"fmt"
	"testing"
)

// gridYs are row sequences a GridRows could get wrong: rows inside one
// lattice row, steps to the next and previous lattice row, jumps, and the
// same row twice.
var gridYs = [][]float64{
	{0.1, 0.2, 0.7, 0.99, 1.0, 1.3, 2.01, 2.5, 1.5, 0.5, -0.25, -1.75, 17.5, 17.5, -1e6 - 0.75, 3},
	{0, 1, 2, 3, 2, 1, 0, -1, -2},
	{1e6 + 0.25, 1e6 + 0.5, 1e6 + 1.25, -1e-300, 0.999999},
}

// gridCases are rowCases plus rows as long as a map's, at the spacings of
// the fractal generators' octaves, so that the vector kernels run many
// blocks, in cells of many samples and of fewer than one.
func gridCases() map[string][]float64 {
	cases := rowCases()
	for _, perCell := range []float64{64, 4, 1, 0.6, 0.45} {
		xs := make([]float64, 1025)
		for k := range xs {
			xs[k] = 0.37 + float64(k)/perCell
		}
		cases[fmt.Sprintf("1025 at %g per cell", perCell)] = xs
	}
	return cases
}

// useKernel selects kernel k for the test and the previous one after it.
func useKernel(t *testing.T, k Kernel) {
	t.Helper()
	previous, err := UseKernel(k)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { UseKernel(previous) })
}

// TestGridMatchesPoints checks that a Grid's rows are bit for bit the
// point forms' values at the same points, for every basis, periodic ones
// included, whatever order the rows come in, with every kernel this
// machine runs.
func TestGridMatchesPoints(t *testing.T) {
	bases := allBases(t, 2025)
	for _, kind := range []Kind{Value, Perlin} {
		p, err := NewPeriodic(kind, 2025, 7, 5)
		if err != nil {
			t.Fatal(err)
		}
		bases = append(bases, p)
	}
	for _, kernel := range Kernels() {
		t.Run(string(kernel), func(t *testing.T) {
			useKernel(t, kernel)
			for _, b := range bases {
				for name, xs := range gridCases() {
					g := NewGrid(b, xs)
					for s, ys := range gridYs {
						values, evals := g.Rows(), g.Rows()
						for _, y := range ys {
							v := make([]float64, len(xs))
							ev, dx, dy := make([]float64, len(xs)), make([]float64, len(xs)), make([]float64, len(xs))
							values.Value(y, v)
							evals.Eval(y, ev, dx, dy)
							for k, x := range xs {
								pv := b.Value(x, y)
								qv, qx, qy := b.Eval(x, y)
								if !same(v[k], pv) {
									t.Fatalf("%T %s, sequence %d: grid Value at (%v, %v) = %v, Value = %v", b, name, s, x, y, v[k], pv)
								}
								if !same(ev[k], qv) || !same(dx[k], qx) || !same(dy[k], qy) {
									t.Fatalf("%T %s, sequence %d: grid Eval at (%v, %v) = (%v, %v, %v), Eval = (%v, %v, %v)",
										b, name, s, x, y, ev[k], dx[k], dy[k], qv, qx, qy)
								}
							}
						}
					}
				}
			}
		})
	}
}

// TestKernelTables checks that each kernel gets its tables, and that the
// AVX-512 permute indices stay inside the 16 columns a block may read.
func TestKernelTables(t *testing.T) {
	for _, kernel := range Kernels() {
		useKernel(t, kernel)
		for name, xs := range gridCases() {
			g := NewGrid(NewPerlin(1), xs)
			if g.kernel != kernel {
				t.Fatalf("%s: grid made with kernel %s, want %s", name, g.kernel, kernel)
			}
			if blocks := len(xs) / laneWidth; kernel != KernelGo && (len(g.blocks) != blocks || len(g.tail) != len(xs)-blocks*laneWidth) {
				t.Errorf("%s: %d blocks and %d tail samples for %d samples", name, len(g.blocks), len(g.tail), len(xs))
			}
			for b, blk := range g.blocks {
				for c, r := range blk.rel {
					if r < 0 || r+1 >= laneReach || blk.base+r+1 >= int64(len(g.hashed)) {
						t.Fatalf("%s: sample %d reads columns %d and %d from %d of %d", name, b*laneWidth+c, r, r+1, blk.base, len(g.hashed))
					}
				}
			}
		}
	}
}

// benchGrid evaluates 1025-sample rows through a Grid, the fractal
// generators' path, beside benchValueRow's row forms.
func benchGrid(b *testing.B, n Basis, eval bool) {
	for _, pc := range benchSpacings {
		b.Run(fmt.Sprintf("perCell=%d", pc), func(b *testing.B) {
			xs := benchRow(pc)
			rows := NewGrid(n, xs).Rows()
			v, dx, dy := make([]float64, len(xs)), make([]float64, len(xs)), make([]float64, len(xs))
			for k := 0; b.Loop(); k++ {
				y := 0.1 + float64(k%1025)/float64(pc)
				if eval {
					rows.Eval(y, v, dx, dy)
				} else {
					rows.Value(y, v)
				}
			}
			sink = v[0]
		})
	}
}

func BenchmarkPerlinGridValue(b *testing.B) { benchGrid(b, NewPerlin(1), false) }
func BenchmarkPerlinGridEval(b *testing.B)  { benchGrid(b, NewPerlin(1), true) }
func BenchmarkValueGridValue(b *testing.B)  { benchGrid(b, NewValue(1), false) }
func BenchmarkValueGridEval(b *testing.B)   { benchGrid(b, NewValue(1), true) }
