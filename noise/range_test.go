package noise

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRange checks each basis's documented range on many points, and that
// the range is used: the extremes come close to the bounds.
func TestRange(t *testing.T) {
	tests := []struct {
		kind     Kind
		lo, hi   float64 // documented bounds
		hiOpen   bool    // hi itself is excluded
		reachLo  float64 // the smallest sample must be at most this
		reachHi  float64 // the largest sample must be at least this
		meanNear float64 // the mean must lie within 0.05 of this
	}{
		{Value, -1, 1, false, -0.95, 0.95, 0},
		{Perlin, -math.Sqrt2 / 2, math.Sqrt2 / 2, false, -0.6, 0.6, 0},
		{Simplex, -1, 1, false, -0.95, 0.95, 0},
		{Worley, -1, 1, true, -0.99, 0.5, -0.39},
		{WorleyEdge, -1, 1, true, -0.99, 0.4, -0.66},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind), func(t *testing.T) {
			b, err := New(tt.kind, 99)
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(3, 5))
			const n = 200000
			lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
			for range n {
				x, y := 1000*r.Float64()-500, 1000*r.Float64()-500
				v := b.Value(x, y)
				if !(v >= tt.lo && v <= tt.hi) || tt.hiOpen && v == tt.hi {
					t.Fatalf("N(%v, %v) = %v, outside [%v, %v]", x, y, v, tt.lo, tt.hi)
				}
				lo, hi, sum = min(lo, v), max(hi, v), sum+v
			}
			if lo > tt.reachLo || hi < tt.reachHi {
				t.Errorf("samples span [%.4f, %.4f], want at least [%v, %v]", lo, hi, tt.reachLo, tt.reachHi)
			}
			if m := sum / n; math.Abs(m-tt.meanNear) > 0.05 {
				t.Errorf("mean %.4f, want %v ± 0.05", m, tt.meanNear)
			}
		})
	}
}

// TestSimplexScale checks simplexScale against the kernel sum's true
// maximum: for unit gradients aligned with the offsets, the sum is
// Σ t⁴·r over the corners, which must stay at most 1/simplexScale and reach
// it at a triangle edge's midpoint.
func TestSimplexScale(t *testing.T) {
	n := simplexNoise{}
	bound := func(x, y float64) float64 {
		s := 0.0
		for _, c := range n.corners(x, y) {
			if c.t > 0 {
				s += c.t * c.t * c.t * c.t * math.Hypot(c.x, c.y)
			}
		}
		return simplexScale * s
	}
	const steps = 600
	worst := 0.0
	for a := 0; a <= steps; a++ {
		for b := 0; b <= steps; b++ {
			worst = max(worst, bound(2*float64(a)/steps-1, 2*float64(b)/steps-1))
		}
	}
	// The edge from lattice (0, 0) to (1, 1) runs from (0, 0) to
	// (1−2G₂, 1−2G₂) in the plane; its midpoint is the maximum.
	mid := 0.5 - unskew2
	peak := bound(mid, mid)
	if worst > 1+1e-12 || peak > 1+1e-12 {
		t.Errorf("kernel bound reaches %v (grid) and %v (edge midpoint), want ≤ 1", worst, peak)
	}
	if peak < 1-1e-12 {
		t.Errorf("kernel bound at the edge midpoint is %v, want 1: simplexScale is too small", peak)
	}
}
