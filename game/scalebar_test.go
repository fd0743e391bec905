package game

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
		length, px := scaleBar(tc.ppm, tc.maxPx)
		if length != tc.want || px > tc.maxPx || math.Abs(px-length*tc.ppm) > 1e-9 {
			t.Errorf("%v px/m, at most %v px: %v m in %v px; want %v m", tc.ppm, tc.maxPx, length, px, tc.want)
		}
	}
	for v, want := range map[float64]string{50: "50 m", 2000: "2 km", 1500: "1.5 km", 5: "5 m", 0.5: "0.5 m"} {
		if got := metres(v); got != want {
			t.Errorf("metres(%v) = %q; want %q", v, got, want)
		}
	}
}

// The 3D view's scale bar measures the ground where the view's centre
// meets it: from the overview, a metre there spans focal/distance pixels.
func TestViewScaleAtTheCentre(t *testing.T) {
	m := slopeMap(65, 0)
	m.VerticalScale = 5 // low enough that the overview looks at the map
	g := &Game{Camera: NewCamera(), World: &World{Map: m}}
	g.Camera.Overview(m)
	ppm, dist, ok := g.viewPixelsPerMetre(720)
	if !ok {
		t.Fatal("the overview's centre does not meet the ground")
	}
	c := g.Camera
	// On flat ground at height 0 the centre ray meets it at y/sin(-pitch).
	want := float64(c.Pos[1]) / math.Sin(-float64(c.Pitch))
	if math.Abs(dist-want) > 0.01*want {
		t.Errorf("the centre meets the ground %v m away; want %v", dist, want)
	}
	focal := 720 / (2 * math.Tan(float64(c.FovY)/2))
	if math.Abs(ppm-focal/want) > 0.01*ppm {
		t.Errorf("%v px per metre there; want %v", ppm, focal/want)
	}
	g.Camera.Pitch = 0.3 // looking up
	if _, _, ok := g.viewPixelsPerMetre(720); ok {
		t.Error("looking at the sky gives a scale")
	}
}
