package noise

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// TestGradientMatchesFiniteDifferences checks every basis's analytic
// gradient against central differences, (N(p + h) − N(p − h))/2h, whose
// error here is around 1e-9.
func TestGradientMatchesFiniteDifferences(t *testing.T) {
	const (
		points = 4000
		h      = 1e-5
	)
	tests := []struct {
		kind  Kind
		scale float64 // typical largest |∇N|; the tolerance is 1e-5 of it
	}{
		{Value, 4},
		{Perlin, 2},
		{Simplex, 8},
		{Worley, math.Sqrt2},
		{WorleyEdge, 2.6},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind), func(t *testing.T) {
			b, err := New(tt.kind, 42)
			if err != nil {
				t.Fatal(err)
			}
			tol := 1e-5 * tt.scale
			r := rand.New(rand.NewPCG(7, 11))
			checked, worst := 0, 0.0
			for checked < points {
				x, y := 80*r.Float64()-40, 80*r.Float64()-40
				if w, ok := b.(worleyNoise); ok && nearTie(w, x, y, 1e-3) {
					continue
				}
				_, dx, dy := b.Eval(x, y)
				fdx := (b.Value(x+h, y) - b.Value(x-h, y)) / (2 * h)
				fdy := (b.Value(x, y+h) - b.Value(x, y-h)) / (2 * h)
				e := max(math.Abs(dx-fdx), math.Abs(dy-fdy))
				worst = max(worst, e)
				if e > tol {
					t.Errorf("at (%v, %v): ∇N = (%v, %v), finite differences (%v, %v)", x, y, dx, dy, fdx, fdy)
				}
				checked++
			}
			t.Logf("largest difference %.2g (tolerance %.2g)", worst, tol)
		})
	}
}

// nearTie reports whether (x, y) lies within margin of a place where w's
// distance function is not smooth: a feature point (F = 0), or a border
// where the nearest (or, for F2MinusF1, the second-nearest) point changes.
func nearTie(w worleyNoise, x, y, margin float64) bool {
	d := bruteDistances(w, x, y)
	if d[0] < margin || d[1]-d[0] < margin {
		return true
	}
	return w.mode == F2MinusF1 && d[2]-d[1] < margin
}

// bruteDistances returns the distances from (x, y) to the feature points of
// the 7×7 cells around it, nearest first.
func bruteDistances(w worleyNoise, x, y float64) []float64 {
	i, u := floorFrac(x)
	j, v := floorFrac(y)
	var d []float64
	for oj := -3; oj <= 3; oj++ {
		r := rowKey(w.key, j+oj)
		for oi := -3; oi <= 3; oi++ {
			f := w.featurePoint(r, i+oi)
			ox, oy := float64(oi)+f.x-u, float64(oj)+f.y-v
			d = append(d, math.Sqrt(ox*ox+oy*oy))
		}
	}
	sort.Float64s(d)
	return d
}
