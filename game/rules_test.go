package game

import (
	"math"
	"testing"
)

// Rock follows the landform, not the noise: on a plane it is absent
// below 30° of slope whatever the noise says (28° above the tree line,
// where the soil is thin), grows with the slope, and covers every plane
// of 48° and steeper; on a crest it starts earlier and in a hollow later. (The shader's rules are the reference's, pixel for
// pixel: TestShaderRulesMatchReference.)
func TestRockRisesWithSlope(t *testing.T) {
	const vs = 2000.0
	// The snow line at 1240 m puts the tree line at 590 m: 100 m lies
	// in the forest belt, 600 m above it.
	rockAt := func(deg, convex, noise, height float64) float64 {
		ny := math.Cos(deg * math.Pi / 180)
		_, score := ruleScore(ny, convex, height/vs, 0.62, 1/vs, noise)
		return smoothstep64(0.19, 0.31, score)
	}
	for _, c := range []struct{ height, bare float64 }{{100, 30}, {600, 28}} {
		for _, noise := range []float64{0, 0.5, 1} {
			prev := 0.0
			for deg := 0.0; deg <= 60; deg++ {
				r := rockAt(deg, 0, noise, c.height)
				if r < prev {
					t.Errorf("%v m, noise %v: rock falls from %.3f to %.3f at %v°", c.height, noise, prev, r, deg)
				}
				prev = r
				if deg < c.bare && r > 0 {
					t.Errorf("%v m, noise %v: %.3f rock on a %v° plane, want none below %v°", c.height, noise, r, deg, c.bare)
				}
				if deg >= 48 && r < 1 {
					t.Errorf("%v m, noise %v: only %.3f rock on a %v° plane", c.height, noise, r, deg)
				}
			}
		}
	}
	if crest, plane, hollow := rockAt(38, 0.08, 0.5, 100), rockAt(38, 0, 0.5, 100), rockAt(38, -0.15, 0.5, 100); !(crest > plane && plane > hollow) {
		t.Errorf("rock at 38°: crest %.2f, plane %.2f, hollow %.2f: want most on the crest, least in the hollow", crest, plane, hollow)
	}
}
