package noise

import "testing"

// Simplex and Worley noise along 1025-sample rows (issue 15, part B): the
// point loop (BenchmarkSimplexValue, BenchmarkWorleyValue in
// bench_test.go) beside the row forms and the Grid, the fractal
// generators' path, in one run.

func BenchmarkSimplexValueRow(b *testing.B)     { benchValueRow(b, NewSimplex(1)) }
func BenchmarkSimplexGridValue(b *testing.B)    { benchGrid(b, NewSimplex(1), false) }
func BenchmarkSimplexGridEval(b *testing.B)     { benchGrid(b, NewSimplex(1), true) }
func BenchmarkWorleyEdgeValue(b *testing.B)     { benchPointLoop(b, NewWorley(1, F2MinusF1)) }
func BenchmarkWorleyGridValue(b *testing.B)     { benchGrid(b, NewWorley(1, F1), false) }
func BenchmarkWorleyGridEval(b *testing.B)      { benchGrid(b, NewWorley(1, F1), true) }
func BenchmarkWorleyEdgeGridValue(b *testing.B) { benchGrid(b, NewWorley(1, F2MinusF1), false) }

// BenchmarkCellularKernels compares the kernels on 1025-sample Grid rows at
// 8 samples per lattice cell, the middle octave of the default map, with
// the point loop as the yardstick, sub-benchmark by sub-benchmark in one
// run.
func BenchmarkCellularKernels(b *testing.B) {
	xs := benchRow(8)
	v := make([]float64, len(xs))
	for _, c := range []struct {
		label string
		basis Basis
	}{{"simplex", NewSimplex(1)}, {"worley", NewWorley(1, F1)}, {"worleyF2F1", NewWorley(1, F2MinusF1)}} {
		label, basis := c.label, c.basis
		b.Run(label+"/point", func(b *testing.B) {
			for k := 0; b.Loop(); k++ {
				y := 0.1 + float64(k%1025)/8
				for c, x := range xs {
					v[c] = basis.Value(x, y)
				}
			}
		})
		for _, kernel := range Kernels() {
			b.Run(label+"/"+string(kernel), func(b *testing.B) {
				previous, _ := UseKernel(kernel)
				rows := NewGrid(basis, xs).Rows()
				UseKernel(previous)
				for k := 0; b.Loop(); k++ {
					rows.Value(0.1+float64(k%1025)/8, v)
				}
			})
		}
	}
	sink = v[0]
}
