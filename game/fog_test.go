package game

import (
	"math"
	"testing"
)

// At the visibility distance the fog leaves 5 % of the contrast, as the
// shader computes it (exp² of density × distance); the two conversions
// undo each other.
func TestFogVisibility(t *testing.T) {
	for _, v := range []float64{50, 1000, 12345} {
		rho := FogDensityFor(v)
		left := math.Exp(-math.Pow(float64(rho)*v, 2))
		if math.Abs(left-0.05) > 1e-4 {
			t.Errorf("visibility %v m: density %v leaves %.4f of the contrast there; want 0.05", v, rho, left)
		}
		if back := FogVisibility(rho); math.Abs(back-v) > 1e-3*v {
			t.Errorf("visibility %v m → density %v → %v m", v, rho, back)
		}
	}
	if FogDensityFor(0) != 0 || FogVisibility(0) != 0 {
		t.Error("no fog is not 0 both ways")
	}
}
