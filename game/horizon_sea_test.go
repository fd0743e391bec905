package game

import (
	"math"
	"testing"

	"cordillera/terrain"
)

// seaSeen mirrors shaders/terrain.kage's water for a camera above the
// water at (0, camY, 0) looking at ground (dist, y, 0) under a surface at
// level: the share of the bed's colour that shows through (the rest is
// deep water), exp(−path under water / depth), and the shore's foam,
// which fades out over the first 6 % of depth.
func seaSeen(camY, dist, y, level, depth float64) (bed, foam float64) {
	rx, ry := dist, y-camY
	under := math.Hypot(rx, ry)
	t := min(max((level-camY)/min(ry, -1e-6), 0), 1)
	under *= 1 - t
	bed = math.Exp(-under / max(depth, 1e-6))
	s := min(max((level-y)/(0.06*depth), 0), 1)
	foam = (1 - s*s*(3-2*s)) * 0.6
	return bed, foam
}

// At any water level the ground beyond the map is sea out to the horizon:
// it lies under the water, deep enough that from any camera above the
// water, looking down or across, the bed shows through at most 1/e of the
// colour and no foam marks a shore, so no strip of land or surf lines the
// map's edge; and it never rises above the map's lowest height.
func TestSeaAtTheHorizon(t *testing.T) {
	m := terrain.NewHeightmap(2, 2)
	m.VerticalScale = 1000
	v := DefaultViewer()
	v.Water = 0
	if got := horizonLevel(&v, m); got != 0 {
		t.Errorf("without water the ground beyond the map is at %v; want 0, the map's lowest height", got)
	}
	depth := waterDepthShare * m.VerticalScale // as the terrain shader is given it
	for _, share := range []float32{0.001, 0.005, 0.01, 0.02, 0.03, 0.05, 0.2, 0.5, 0.9, 1} {
		v.Water = share
		level, ok := waterLevel(&v, m)
		if !ok {
			t.Fatalf("water %v: no water", share)
		}
		y := float64(horizonLevel(&v, m))
		if y > 0 {
			t.Errorf("water %v: the ground beyond the map is at %.1f m, above the map's lowest height 0", share, y)
		}
		for _, above := range []float64{0.5, 10, 200, 3000} {
			for _, dist := range []float64{0, 5, 100, 1e4, 1e6} {
				bed, foam := seaSeen(float64(level)+above, dist, y, float64(level), depth)
				if bed > 1/math.E+1e-9 || foam > 0 {
					t.Fatalf("water %v (level %.1f m): ground beyond the map at %.1f m seen from %.1f m above the water, %.0f m away, "+
						"shows %.0f %% of its bed and %.0f %% foam; want sea", share, level, y, above, dist, 100*bed, 100*foam)
				}
			}
		}
	}
}
