package terrain

import (
	"math"
	"testing"
)

// A ray meets a flat map where geometry says, misses it looking up or
// off the map, and starts on it when it starts underground.
func TestRayGround(t *testing.T) {
	m := NewHeightmap(33, 33)
	for i := range m.Samples {
		m.Samples[i] = 0.5
	}
	m.CellSize, m.VerticalScale = 2, 10 // ground at 5
	s := math.Sqrt2 / 2
	for _, tc := range []struct {
		name        string
		origin, dir [3]float64
		want        float64 // -1: no hit
	}{
		{"45° down", [3]float64{10, 25, 10}, [3]float64{s, -s, 0}, 20 * math.Sqrt2},
		{"straight down", [3]float64{30, 15, 30}, [3]float64{0, -1, 0}, 10},
		{"up", [3]float64{10, 25, 10}, [3]float64{0, 1, 0}, -1},
		{"away from the map", [3]float64{10, 25, 10}, [3]float64{-s, 0, -s}, -1},
		{"from outside onto it", [3]float64{-20, 25, 10}, [3]float64{s, -s, 0}, 20 * math.Sqrt2},
		{"underground", [3]float64{10, 1, 10}, [3]float64{1, 0, 0}, 0},
	} {
		got, ok := m.RayGround(tc.origin, tc.dir, 1000)
		switch {
		case tc.want < 0 && ok:
			t.Errorf("%s: hit at %v; want a miss", tc.name, got)
		case tc.want >= 0 && (!ok || math.Abs(got-tc.want) > 0.05):
			t.Errorf("%s: %v, %v; want a hit at %v", tc.name, got, ok, tc.want)
		}
	}
}
