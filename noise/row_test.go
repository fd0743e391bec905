package noise

import (
	"math"
	"math/rand/v2"
	"testing"
)

// rowCases are the xs of the row tests: the layouts a grid-aware row form
// could get wrong.
func rowCases() map[string][]float64 {
	span := func(from, step float64, n int) []float64 {
		xs := make([]float64, n)
		for k := range xs {
			xs[k] = from + float64(k)*step
		}
		return xs
	}
	reversed := func(xs []float64) []float64 {
		out := make([]float64, len(xs))
		for k, x := range xs {
			out[len(xs)-1-k] = x
		}
		return out
	}
	r := rand.New(rand.NewPCG(13, 17))
	shuffled := make([]float64, 300)
	for k := range shuffled {
		shuffled[k] = 40*r.Float64() - 20
	}
	return map[string][]float64{
		"increasing across zero": span(-3.3, 0.037, 200),
		"lattice lines":          span(-6, 0.5, 25),
		"integers":               span(-5, 1, 11),
		"decreasing":             reversed(span(-3.3, 0.037, 200)),
		"random order":           shuffled,
		"skipping cells":         span(-17.1, 1.7, 30),
		"large positive":         span(1e6, 0.013, 200),
		"large negative":         reversed(span(-1e6-2.6, 0.013, 200)),
		"around zero":            {-1e-300, math.Copysign(0, -1), 0, 1e-300, -1e-17, 1 - 1e-16, -1, 1},
		"one sample":             {0.3},
		"empty":                  {},
	}
}

var rowYs = []float64{-2.5, 0, 3, 0.999999, -1e-300, 1e6 + 0.25, -1e6 - 0.75}

// TestRowsMatchPoints checks that ValueRow and EvalRow return bit for bit
// what Value and Eval return at the same points.
func TestRowsMatchPoints(t *testing.T) {
	for _, b := range allBases(t, 2024) {
		for name, xs := range rowCases() {
			for _, y := range rowYs {
				v := make([]float64, len(xs))
				ev, dx, dy := make([]float64, len(xs)), make([]float64, len(xs)), make([]float64, len(xs))
				b.ValueRow(xs, y, v)
				b.EvalRow(xs, y, ev, dx, dy)
				for k, x := range xs {
					pv := b.Value(x, y)
					qv, qx, qy := b.Eval(x, y)
					if !same(v[k], pv) {
						t.Errorf("%T %s: ValueRow at (%v, %v) = %v, Value = %v", b, name, x, y, v[k], pv)
					}
					if !same(ev[k], qv) || !same(dx[k], qx) || !same(dy[k], qy) {
						t.Errorf("%T %s: EvalRow at (%v, %v) = (%v, %v, %v), Eval = (%v, %v, %v)",
							b, name, x, y, ev[k], dx[k], dy[k], qv, qx, qy)
					}
				}
			}
		}
	}
}

// TestValueMatchesEval checks that Value, the derivative-free fast path, is
// bit for bit Eval's value.
func TestValueMatchesEval(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 23))
	for _, b := range allBases(t, 77) {
		for range 20000 {
			x, y := 200*r.Float64()-100, 200*r.Float64()-100
			if k := r.IntN(4); k == 0 {
				x = math.Round(x) // on a lattice line
			} else if k == 1 {
				y = math.Round(y)
			}
			if v, ev := b.Value(x, y), first(b.Eval(x, y)); !same(v, ev) {
				t.Fatalf("%T: Value(%v, %v) = %v, Eval's value = %v", b, x, y, v, ev)
			}
		}
	}
}

func same(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

func first(v, _, _ float64) float64 { return v }
