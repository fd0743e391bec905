package noise

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestWorleyNearestExact checks the pruned search against a brute-force
// search of the 7×7 cells around each point, and that the points tested
// include cases that a plain 3×3 search gets wrong.
func TestWorleyNearestExact(t *testing.T) {
	for _, mode := range []WorleyMode{F1, F2MinusF1} {
		w := NewWorley(8, mode).(worleyNoise)
		r := rand.New(rand.NewPCG(29, 31))
		beyond3x3 := 0
		for k := range 200000 {
			x, y := 400*r.Float64()-200, 400*r.Float64()-200
			if k%2 == 0 { // near cell corners, where far cells matter most
				x, y = math.Round(x)+0.01*r.Float64()-0.005, math.Round(y)+0.01*r.Float64()-0.005
			}
			got := w.nearest(x, y)
			want := bruteDistances(w, x, y)
			f1, f2 := math.Sqrt(got.d1), math.Sqrt(got.d2)
			if math.Abs(f1-want[0]) > 1e-12 || mode == F2MinusF1 && math.Abs(f2-want[1]) > 1e-12 {
				t.Fatalf("mode %d at (%v, %v): F1, F2 = %v, %v, want %v, %v", mode, x, y, f1, f2, want[0], want[1])
			}
			near := nearest3x3(w, x, y)
			if near[0] != want[0] || mode == F2MinusF1 && near[1] != want[1] {
				beyond3x3++
			}
		}
		if beyond3x3 == 0 {
			t.Errorf("mode %d: no test point needed a cell beyond the 3×3 block", mode)
		}
		t.Logf("mode %d: %d points needed a cell beyond the 3×3 block", mode, beyond3x3)
	}
}

// nearest3x3 returns the two smallest distances over the 3×3 cells only.
func nearest3x3(w worleyNoise, x, y float64) [2]float64 {
	i, u := floorFrac(x)
	j, v := floorFrac(y)
	d := [2]float64{math.Inf(1), math.Inf(1)}
	for oj := -1; oj <= 1; oj++ {
		for oi := -1; oi <= 1; oi++ {
			f := w.featurePoint(rowKey(w.key, j+oj), i+oi)
			ox, oy := float64(oi)+f.x-u, float64(oj)+f.y-v
			e := math.Sqrt(ox*ox + oy*oy)
			if e < d[0] {
				d[0], d[1] = e, d[0]
			} else if e < d[1] {
				d[1] = e
			}
		}
	}
	return d
}

// TestWorleyGradientAtFeaturePoint checks the documented value and zero
// gradient exactly on a feature point.
func TestWorleyGradientAtFeaturePoint(t *testing.T) {
	w := NewWorley(4, F1).(worleyNoise)
	f := w.featurePoint(rowKey(w.key, 3), -2)
	v, dx, dy := w.Eval(-2+f.x, 3+f.y)
	if v != -1 || dx != 0 || dy != 0 {
		t.Errorf("on a feature point: Eval = (%v, %v, %v), want (-1, 0, 0)", v, dx, dy)
	}
}
