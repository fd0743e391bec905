package game

import (
	"image"
	"math"
	"testing"

	"cordillera/terrain"
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

// corrugated is a size² map of cell size 1 rising along x at slope
// (tangent) with ridges every 8 samples across it whose own slopes reach
// ±bump (tangent) on top of it.
func corrugated(size int, slope, bump float64) *terrain.Heightmap {
	const vs = 200.0
	m := terrain.NewHeightmap(size, size)
	m.VerticalScale = vs
	a := bump * 8 / (2 * math.Pi)
	for r := 0; r < size; r++ {
		for c := 0; c < size; c++ {
			x := float64(c)
			m.Set(c, r, float32((slope*x+a*math.Sin(2*math.Pi*x/8)+a)/vs))
		}
	}
	return m
}

// rockShare is the share of the view's middle that shows rock rather
// than grass: with the flat test atlas tinted to the rules' albedos, the
// grass is green over red and blue and the rock nearly grey.
func rockShare(img *image.RGBA) float64 {
	rock, all := 0, 0
	for y := testH / 4; y < 3*testH/4; y += 2 {
		for x := testW / 4; x < 3*testW/4; x += 2 {
			c := img.RGBAAt(x, y)
			all++
			if float64(c.G) < 1.15*float64(max(c.R, c.B)) {
				rock++
			}
		}
	}
	return float64(rock) / float64(all)
}

// Rock follows the landform, not every bump: ridges 8 m apart whose
// sides reach 42° on gentle ground stay nearly all grass (read on the
// pixel's slope alone they drew rock stripes over 15 % of the ground),
// and a 50° face stays rock over the gentler sides of its ridges (the
// rules read the face's slope over about 24 m beside the pixel's own).
func TestRockFollowsTheLandform(t *testing.T) {
	needLoop(t)
	const size = 129
	for _, c := range []struct {
		what        string
		slope, bump float64
		least, most float64
	}{
		{"ridges on gentle ground", 0.1, 0.8, 0, 0.08},
		{"ridges on a steep face", 1.2, 0.7, 0.9, 1},
	} {
		g := shadingGame(t, corrugated(size, c.slope, c.bump), 90)
		g.View.SnowLine = 1.2 // no snow
		g.Camera.Pos[1] += float32(c.slope * size / 2)
		waitLight(t, g)
		share := rockShare(renderFrame(g, false))
		t.Logf("%s: %.2f rock", c.what, share)
		if share < c.least || share > c.most {
			t.Errorf("%s: %.2f of the ground is rock, want %.2f–%.2f", c.what, share, c.least, c.most)
		}
	}
}
