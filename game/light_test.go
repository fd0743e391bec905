package game

import (
	"image"
	"math"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"cordillera/terrain"
)

// waitLight draws frames until the light map the view asks for is drawn.
func waitLight(t testing.TB, g *Game) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		renderFrame(g, false)
		var pending bool
		onLoop(func() { pending = g.render.lightPending(g.World, &g.View) })
		if !pending {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the light map never arrived")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// topDown looks straight down on world point (x, z) from height y.
func topDown(g *Game, x, y, z float32) {
	g.Camera.Mode = Fly
	g.Camera.Pos = mgl32.Vec3{x, y, z}
	g.Camera.Yaw, g.Camera.Pitch = 0, mgl32.DegToRad(-90)
}

// pixelAt is the frame's pixel where world point p projects.
func pixelAt(g *Game, img *image.RGBA, p mgl32.Vec3) (r, gr, b float64) {
	pr := newProjector(viewProjection(g.Camera, testW, testH), testW, testH, g.Camera.Near)
	v := pr.vertex(surfaceVertex{pos: p})
	c := img.RGBAAt(int(v.DstX), int(v.DstY))
	return float64(c.R), float64(c.G), float64(c.B)
}

func luminance(g *Game, img *image.RGBA, p mgl32.Vec3) float64 {
	r, gr, b := pixelAt(g, img, p)
	return 0.3*r + 0.59*gr + 0.11*b
}

// lightTestGame is a game on map m with plain colours (paper 001's scheme)
// and the light map's features as asked.
func lightTestGame(t *testing.T, m *terrain.Heightmap, shadows, occlusion bool) *Game {
	g := newTestGame(t, NewWorld(m))
	g.View.ColourScheme, g.View.Shadows, g.View.Occlusion = true, shadows, occlusion
	return g
}

// A wall on a flat map casts a shadow h / tan(elevation) long, within one
// cell, and none with the sun overhead.
func TestWallCastsShadow(t *testing.T) {
	needLoop(t)
	const size, wallCol, h = 129, 90, 12.0
	m := terrain.NewHeightmap(size, size)
	for r := 0; r < size; r++ {
		m.Set(wallCol, r, h)
	}
	g := lightTestGame(t, m, true, false)
	topDown(g, 64, 140, 64)
	for _, el := range []float32{20, 35, 55} {
		g.View.SunElevation, g.View.SunAzimuth = el, 0 // the sun towards +x: shadows towards −x
		waitLight(t, g)
		img := renderFrame(g, false)
		// The edge is where the brightness is halfway between open ground
		// and the shadow at the wall's foot (the wall's own cell has its
		// normals tilted by the wall).
		lit := luminance(g, img, mgl32.Vec3{20.5, 0, 64})
		dark := luminance(g, img, mgl32.Vec3{wallCol - 2.5, 0, 64})
		if dark > 0.9*lit {
			t.Fatalf("sun at %v°: no shadow at the wall's foot (%.0f, open ground %.0f)", el, dark, lit)
		}
		length := 0.0
		for x := float32(wallCol - 2); x > 20; x -= 0.25 {
			if luminance(g, img, mgl32.Vec3{x, 0, 64}) < (lit+dark)/2 {
				length = float64(wallCol) - float64(x)
			}
		}
		want := h / math.Tan(float64(el)*math.Pi/180)
		if math.Abs(length-want) > 1 {
			t.Errorf("sun at %v°: shadow %.2f cells long, want %.2f ± 1", el, length, want)
		}
	}
	g.View.SunElevation = 90
	waitLight(t, g)
	img := renderFrame(g, false)
	lit := luminance(g, img, mgl32.Vec3{20.5, 0, 64})
	for x := float32(wallCol - 2); x > 20; x-- {
		if l := luminance(g, img, mgl32.Vec3{x, 0, 64}); l < lit-2 {
			t.Fatalf("sun overhead: x = %v is darker (%.0f) than open ground (%.0f)", x, l, lit)
		}
	}
}

// Ambient occlusion leaves a flat map as it is and darkens the bottom of a
// V-valley more than its ridge.
func TestOcclusionPixels(t *testing.T) {
	needLoop(t)
	flat := terrain.NewHeightmap(65, 65)
	g := lightTestGame(t, flat, false, true)
	topDown(g, 32, 80, 32)
	waitLight(t, g)
	on := renderFrame(g, false)
	g.View.Occlusion = false
	off := renderFrame(g, false)
	if n, total := differing(on, off, image.Rect(0, 0, testW, testH), 1); n > 0 {
		t.Errorf("flat map: occlusion changed %d of %d pixels", n, total)
	}

	const size = 65
	v := terrain.NewHeightmap(size, size)
	v.VerticalScale = 40
	for r := 0; r < size; r++ {
		for c := 0; c < size; c++ {
			v.Set(c, r, float32(min(math.Abs(float64(c-size/2)), 16))/40) // 45° walls, flat tops 16 high
		}
	}
	g = lightTestGame(t, v, false, true)
	g.View.ColourScheme = false
	g.View.SunColor = [3]float32{} // only the sky's light
	topDown(g, 32, 120, 32)
	waitLight(t, g)
	on = renderFrame(g, false)
	g.View.Occlusion = false
	off = renderFrame(g, false)
	ratio := func(p mgl32.Vec3) float64 { return luminance(g, on, p) / max(luminance(g, off, p), 1) }
	bottom, ridge := ratio(mgl32.Vec3{32, 0, 32}), ratio(mgl32.Vec3{8, 16, 32})
	if !(bottom < ridge-0.1) || ridge < 0.95 {
		t.Errorf("V-valley: occlusion keeps %.2f of the light at the bottom and %.2f on the ridge", bottom, ridge)
	}
}

// With materials by rules, snow lies on gentle high ground but never on a
// slope steeper than the configured angle.
func TestNoSnowOnSteepSlopes(t *testing.T) {
	needLoop(t)
	const size = 129
	m := terrain.NewHeightmap(size, size)
	// Ten metres a cell and a kilometre of relief: the snow's softness is
	// in metres, a few tens of metres across.
	const cell = 10
	m.VerticalScale, m.CellSize = 100*cell, cell
	// High ground (all above the snow line): a gentle slope of 15° for
	// x < 64, then a face steeper than the limit.
	steep := 0.0
	for r := 0; r < size; r++ {
		for c := 0; c < size; c++ {
			y := 95 - 0.268*float64(min(c, 64))
			if c > 64 {
				y -= math.Tan(64*math.Pi/180) * float64(c-64)
			}
			m.Set(c, r, float32(max(y, 0)/100))
		}
	}
	steep = 64 + 10
	g := newTestGame(t, NewWorld(m))
	g.View.Lighting, g.View.Shadows, g.View.Occlusion = false, false, false
	g.View.SnowSlope = 50
	g.View.SnowLine = 0.62
	g.View.DetailMaps = false
	topDown(g, 64*cell, 200*cell, 64*cell)
	img := renderFrame(g, false)
	snowy := func(x0, x1 float32) (n, total int) {
		for x := x0; x < x1; x++ {
			for z := float32(10); z < size-10; z += 2 {
				y := float32(m.GroundHeight(float64(x*cell), float64(z*cell)))
				r, gr, b := pixelAt(g, img, mgl32.Vec3{x * cell, y, z * cell})
				if min(r, gr, b) > 170 && b >= r {
					n++
				}
				total++
			}
		}
		return n, total
	}
	if n, total := snowy(10, 60); n < total/2 {
		t.Errorf("gentle high ground: only %d of %d points snowy", n, total)
	}
	if n, total := snowy(float32(steep), float32(steep)+8); n > 0 {
		t.Errorf("a 64° face: %d of %d points snowy", n, total)
	}
}

// The thesis's height bands show the materials' own colours: sand low,
// grass above, rock, snow at the top, none of them tinted (the rules
// mode's tints once leaked into the bands as pure red, green and blue).
func TestHeightBandsShowTheMaterials(t *testing.T) {
	needLoop(t)
	const size = 129
	m := terrain.NewHeightmap(size, size)
	m.VerticalScale = 100
	for r := 0; r < size; r++ {
		for c := 0; c < size; c++ {
			m.Set(c, r, float32(c)/float32(size-1)) // a ramp through all four bands
		}
	}
	g := newTestGame(t, NewWorld(m))
	g.View.Texturing = ByHeight
	g.View.Lighting, g.View.Shadows, g.View.Occlusion = false, false, false
	g.View.DetailMaps = false
	topDown(g, 64, 300, 64)
	img := renderFrame(g, false)
	colour := func(c float32) (r, gr, b int) {
		var sr, sg, sb, n int
		for z := float32(20); z < size-20; z += 4 {
			x, y := c, float32(m.GroundHeight(float64(c), float64(z)))
			pr, pg, pb := pixelAt(g, img, mgl32.Vec3{x, y, z})
			sr, sg, sb, n = sr+int(pr), sg+int(pg), sb+int(pb), n+1
		}
		return sr / n, sg / n, sb / n
	}
	for _, c := range []struct {
		name string
		at   float32
		ok   func(r, g, b int) bool
	}{
		{"sand", 6, func(r, g, b int) bool { return r > b && g > b && g > r/2 }},
		{"grass", 40, func(r, g, b int) bool { return g > r && g > b && r > g/5 }},
		{"rock", 80, func(r, g, b int) bool { return r > 40 && g > 40 && b > 30 && max(r, g, b) < 2*min(r, g, b)+40 }},
		{"snow", 124, func(r, g, b int) bool { return min(r, g, b) > 170 }},
	} {
		if r, gr, b := colour(c.at); !c.ok(r, gr, b) {
			t.Errorf("%s band shows (%d, %d, %d)", c.name, r, gr, b)
		}
	}
}

// Scenario 3's look shows the thesis's own materials: snow on the flat
// and rock on the steep, not the sand the band order would give.
func TestScenario3SnowOnTheFlatRockOnTheSteep(t *testing.T) {
	needLoop(t)
	const size = 129
	m := terrain.NewHeightmap(size, size)
	m.VerticalScale = 100
	for r := 0; r < size; r++ {
		for c := 0; c < size; c++ {
			y := 0.2
			if c > 64 {
				y += 0.02 * float64(c-64) // 63° of slope: far beyond the 0.2 split
			}
			m.Set(c, r, float32(y))
		}
	}
	g := newTestGame(t, NewWorld(m))
	g.View = PresetViewer("scenario-3")
	g.View.Lighting, g.View.Shadows, g.View.Occlusion, g.View.DetailMaps = false, false, false, false
	topDown(g, 64, 400, 64)
	img := renderFrame(g, false)
	at := func(x float32) (r, gr, b float64) {
		z := float32(64)
		return pixelAt(g, img, mgl32.Vec3{x, float32(m.GroundHeight(float64(x), float64(z))), z})
	}
	if r, gr, b := at(30); min(r, gr, b) < 170 {
		t.Errorf("flat ground shows (%.0f, %.0f, %.0f), want snow", r, gr, b)
	}
	if r, gr, b := at(100); min(r, gr, b) > 150 || r > 2*b+40 {
		t.Errorf("the steep face shows (%.0f, %.0f, %.0f), want rock", r, gr, b)
	}
}
