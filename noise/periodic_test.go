package noise

import (
	"math"
	"testing"
)

// A periodic basis repeats in value and gradient, and inside one period
// it is the plain basis with the same seed.
func TestPeriodic(t *testing.T) {
	for _, kind := range []Kind{Value, Perlin} {
		p, err := NewPeriodic(kind, 7, 5, 3)
		if err != nil {
			t.Fatal(err)
		}
		plain, _ := New(kind, 7)
		for _, pt := range [][2]float64{{0.3, 0.7}, {1.9, 2.2}, {4.5, 0.1}, {-0.4, -2.6}} {
			x, y := pt[0], pt[1]
			v, dx, dy := p.Eval(x, y)
			for _, sh := range [][2]float64{{5, 0}, {0, 3}, {-10, 6}} {
				v2, dx2, dy2 := p.Eval(x+sh[0], y+sh[1])
				if math.Abs(v-v2) > 1e-12 || math.Abs(dx-dx2) > 1e-12 || math.Abs(dy-dy2) > 1e-12 {
					t.Errorf("%s (%v,%v) + %v: %v %v %v, want %v %v %v", kind, x, y, sh, v2, dx2, dy2, v, dx, dy)
				}
			}
			// Cells whose corners all lie inside the period are the plain basis's.
			if x >= 0 && x < 4 && y >= 0 && y < 2 {
				if pv, want := p.Value(x, y), plain.Value(x, y); pv != want {
					t.Errorf("%s (%v,%v) = %v, plain %v", kind, x, y, pv, want)
				}
			}
			row := make([]float64, 1)
			p.ValueRow([]float64{x}, y, row)
			if row[0] != v {
				t.Errorf("%s ValueRow %v, Value %v", kind, row[0], v)
			}
		}
	}
	if _, err := NewPeriodic(Simplex, 1, 4, 4); err == nil {
		t.Error("periodic simplex noise accepted")
	}
	if _, err := NewPeriodic(Perlin, 1, 0, 4); err == nil {
		t.Error("period 0 accepted")
	}
}
