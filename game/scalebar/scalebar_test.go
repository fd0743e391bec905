package scalebar

import (
	"math"
	"testing"
)

// Scale bars are 1, 2 or 5 × 10ⁿ metres, as long as fits.
func TestScaleBarLengths(t *testing.T) {
	for _, tc := range []struct {
		ppm, maxPx, want float64
	}{
		{1, 160, 100}, {0.1, 160, 1000}, {0.3, 160, 500}, {4, 160, 20}, {0.002, 160, 50000}, {50, 160, 2},
	} {
		length, px := Fit(tc.ppm, tc.maxPx)
		if length != tc.want || px > tc.maxPx || math.Abs(px-length*tc.ppm) > 1e-9 {
			t.Errorf("%v px/m, at most %v px: %v m in %v px; want %v m", tc.ppm, tc.maxPx, length, px, tc.want)
		}
	}
	for v, want := range map[float64]string{50: "50 m", 2000: "2 km", 1500: "1.5 km", 5: "5 m", 0.5: "0.5 m"} {
		if got := Metres(v); got != want {
			t.Errorf("Metres(%v) = %q; want %q", v, got, want)
		}
	}
}
