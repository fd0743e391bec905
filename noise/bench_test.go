package noise

import (
	"fmt"
	"testing"
)

// A benchmark row is 1025 samples, like a row of the default map, at
// 2, 8 or 64 samples per lattice cell: the highest, middle and lowest octaves
// of an 8-octave fBm with the default feature size. Compare the point loop
// with the row form side by side in one run; the ratio is what matters.

var benchSpacings = []int{2, 8, 64}

func benchRow(perCell int) []float64 {
	xs := make([]float64, 1025)
	for k := range xs {
		xs[k] = 0.37 + float64(k)/float64(perCell)
	}
	return xs
}

// sink keeps the compiler from discarding benchmark results.
var sink float64

func benchPointLoop(b *testing.B, n Basis) {
	for _, pc := range benchSpacings {
		b.Run(fmt.Sprintf("perCell=%d", pc), func(b *testing.B) {
			xs := benchRow(pc)
			var s float64
			for k := 0; b.Loop(); k++ {
				y := 0.1 + float64(k%1025)/float64(pc)
				for _, x := range xs {
					s += n.Value(x, y)
				}
			}
			sink = s
		})
	}
}

func benchValueRow(b *testing.B, n Basis) {
	for _, pc := range benchSpacings {
		b.Run(fmt.Sprintf("perCell=%d", pc), func(b *testing.B) {
			xs := benchRow(pc)
			v := make([]float64, len(xs))
			for k := 0; b.Loop(); k++ {
				n.ValueRow(xs, 0.1+float64(k%1025)/float64(pc), v)
			}
			sink = v[0]
		})
	}
}

func benchEvalPointLoop(b *testing.B, n Basis) {
	xs := benchRow(8)
	var s float64
	for k := 0; b.Loop(); k++ {
		y := 0.1 + float64(k%1025)/8
		for _, x := range xs {
			v, dx, dy := n.Eval(x, y)
			s += v + dx + dy
		}
	}
	sink = s
}

func benchEvalRow(b *testing.B, n Basis) {
	xs := benchRow(8)
	v, dx, dy := make([]float64, len(xs)), make([]float64, len(xs)), make([]float64, len(xs))
	for k := 0; b.Loop(); k++ {
		n.EvalRow(xs, 0.1+float64(k%1025)/8, v, dx, dy)
	}
	sink = v[0] + dx[0] + dy[0]
}

func BenchmarkPerlinValue(b *testing.B)    { benchPointLoop(b, NewPerlin(1)) }
func BenchmarkPerlinValueRow(b *testing.B) { benchValueRow(b, NewPerlin(1)) }
func BenchmarkPerlinEval(b *testing.B)     { benchEvalPointLoop(b, NewPerlin(1)) }
func BenchmarkPerlinEvalRow(b *testing.B)  { benchEvalRow(b, NewPerlin(1)) }
func BenchmarkValueValue(b *testing.B)     { benchPointLoop(b, NewValue(1)) }
func BenchmarkValueValueRow(b *testing.B)  { benchValueRow(b, NewValue(1)) }
func BenchmarkValueEval(b *testing.B)      { benchEvalPointLoop(b, NewValue(1)) }
func BenchmarkValueEvalRow(b *testing.B)   { benchEvalRow(b, NewValue(1)) }
func BenchmarkSimplexValue(b *testing.B)   { benchPointLoop(b, NewSimplex(1)) }
func BenchmarkSimplexEval(b *testing.B)    { benchEvalPointLoop(b, NewSimplex(1)) }
func BenchmarkWorleyValue(b *testing.B)    { benchPointLoop(b, NewWorley(1, F1)) }
func BenchmarkWorleyEval(b *testing.B)     { benchEvalPointLoop(b, NewWorley(1, F1)) }
func BenchmarkWorleyEdgeEval(b *testing.B) { benchEvalPointLoop(b, NewWorley(1, F2MinusF1)) }
