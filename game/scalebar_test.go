package game

import (
	"math"
	"testing"
)

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
