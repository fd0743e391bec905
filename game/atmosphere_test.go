package game

import (
	"image"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"cordillera/terrain"
)

// skyline returns, per column of img, the first row from the top whose
// pixel differs from the sky-only frame sky by more than tol in a
// channel (the frame's height where nothing does).
func skyline(img, sky *image.RGBA, tol int) []int {
	rows := make([]int, testW)
	for x := range testW {
		rows[x] = testH
		for y := range testH {
			i := img.PixOffset(x, y)
			d := 0
			for c := range 3 {
				d = max(d, int(abs(int(img.Pix[i+c])-int(sky.Pix[i+c]))))
			}
			if d > tol {
				rows[x] = y
				break
			}
		}
	}
	return rows
}

// The horizon is mountains, not a ruler: looking out from the edge of a
// map that is no noise function (a heightmap as a file brings it: no
// land beyond it of its own), the row where the ground meets the sky
// varies across the width, as land synthesised from the map, as high as
// the map's, goes on beyond it.
func TestHorizonIsNotAStraightLine(t *testing.T) {
	needLoop(t)
	base := testWorld(t, 257)
	m := *base.Map
	m.VerticalScale = 1500 // mountains: the test world's relief, 1.5 km high
	w := NewWorld(&m)
	g := newTestGame(t, w)
	g.View.Antialias = false
	g.Camera.Mode = Fly
	ew, ed := m.Extent()
	// Over the map's north edge, looking away from the map, lower than
	// its peaks: what rises into the sky is the land beyond.
	g.Camera.Pos = mgl32.Vec3{float32(ew / 2), 1100, 0}
	g.Camera.Yaw, g.Camera.Pitch = mgl32.DegToRad(-90), 0
	_ = ed
	waitLight(t, g)
	full := renderFrame(g, false)
	sky := renderFrame(g, true)
	rows := skyline(full, sky, 6)
	lo, hi := testH, 0
	counts := map[int]int{}
	for _, r := range rows {
		lo, hi = min(lo, r), max(hi, r)
		counts[r]++
	}
	mode := 0
	for _, n := range counts {
		mode = max(mode, n)
	}
	t.Logf("skyline rows %d–%d, %d of %d columns on the commonest row", lo, hi, mode, testW)
	if hi >= testH || lo <= 0 {
		t.Fatalf("skyline rows %d–%d: the view misses the horizon", lo, hi)
	}
	if hi-lo < 6 || mode > testW/3 {
		t.Errorf("the skyline spans rows %d–%d with %d of %d columns on one row: a straight horizon", lo, hi, mode, testW)
	}
	if w.Outside == nil {
		t.Fatal("a world from a plain heightmap has no land beyond it")
	}
}

// The land synthesised beyond a map that is no noise function meets the
// map's edge at the map's own heights (no wall, no step), keeps the
// map's range of heights near it, and varies (it is not a copy of one
// edge value).
func TestMirroredOutsideMeetsTheMap(t *testing.T) {
	m := testWorld(t, 129).Map
	o := mirroredOutside(m)
	if o == nil {
		t.Fatal("no land beyond the map")
	}
	var lo, hi float32 = math.MaxFloat32, -math.MaxFloat32
	for k := range o.X {
		col, row := o.X[k], o.Z[k]
		h := o.Heights[k]
		onEdge := col >= 0 && col <= m.Width-1 && row >= 0 && row <= m.Height-1
		if onEdge {
			want := m.At(col, row) * float32(m.VerticalScale)
			if math.Abs(float64(h-want)) > 1e-3 {
				t.Fatalf("edge vertex (%d, %d): height %v, the map's %v", col, row, h, want)
			}
		}
		if o.Fade[k] == 1 {
			lo, hi = min(lo, h), max(hi, h)
		}
	}
	if span := float64(hi - lo); span < 0.5*m.VerticalScale {
		t.Errorf("the land beyond spans %v of the map's %v: a plain", span, m.VerticalScale)
	}
	if x0, _, _, _ := o.Bounds(); -float64(x0)*o.CellSize < beyondReach {
		t.Errorf("the land beyond reaches %v m, want at least %v", -float64(x0)*o.CellSize, float64(beyondReach))
	}
}

// Haze grows with the air crossed, not with distance alone: the same
// flat ground at the same distance hazes less seen straight down from
// high up (the ray crosses thin air) than seen along a low ray over the
// ground (dense air all the way).
func TestHazeGrowsWithOpticalDepth(t *testing.T) {
	needLoop(t)
	m := terrain.NewHeightmap(257, 257)
	m.CellSize, m.VerticalScale = 4, 100
	g := shadingGame(t, m, 100)
	g.View.Texturing, g.View.MaterialCount, g.View.BandMaterials = ByHeight, 1, [4]int{1, 1, 1, 1}
	g.View.BreakTiling, g.View.Shadows, g.View.Occlusion = false, false, false
	ew, ed := m.Extent()

	// The low ray: from 150 m over the ground, the pixel in the middle
	// column whose ground lies farthest within 12 km.
	g.Camera.Mode = Fly
	g.Camera.Pos = mgl32.Vec3{float32(ew / 2), 150, float32(ed / 2)}
	g.Camera.Yaw, g.Camera.Pitch = 0, mgl32.DegToRad(-6)
	low := renderFrame(g, false)
	near := low.RGBAAt(testW/2, testH-2) // ground a few hundred metres away: clear
	var dist float64
	var far [3]float64
	for y := testH - 1; y >= 0; y-- {
		o, d := ray(g, testW/2, y)
		if d[1] >= 0 {
			break
		}
		s := float64(-o[1] / d[1])
		if s > 12000 {
			break
		}
		c := low.RGBAAt(testW/2, y)
		dist, far = s, [3]float64{float64(c.R), float64(c.G), float64(c.B)}
	}
	if dist < 8000 {
		t.Fatalf("the low view sees ground only to %.0f m", dist)
	}

	// The high ray: straight down from that distance.
	topDown(g, float32(ew/2), float32(dist), float32(ed/2))
	high := renderFrame(g, false)
	c := high.RGBAAt(testW/2, testH/2)
	down := [3]float64{float64(c.R), float64(c.G), float64(c.B)}

	haze := func(p [3]float64) float64 {
		return math.Abs(p[0]-float64(near.R)) + math.Abs(p[1]-float64(near.G)) + math.Abs(p[2]-float64(near.B))
	}
	hl, hh := haze(far), haze(down)
	t.Logf("ground %v; at %.0f m along a low ray %v (haze %.0f), straight down %v (haze %.0f)", near, dist, far, hl, down, hh)
	if hl < 20 {
		t.Errorf("%.0f m of air near the ground hazes the ground by only %.0f levels", dist, hl)
	}
	if !(hh < 0.7*hl) {
		t.Errorf("the ground %.0f m away hazes by %.0f levels seen from above and %.0f along the ground: want less from above", dist, hh, hl)
	}
}

// From a few kilometres up the ground keeps its colours: looking straight
// down from 5 km the air changes a level ground by little more than a
// blue tint, while along a low ray the same ground 10 km away fades
// well towards the sky (the air crossed, thin against thick).
func TestHazeFromAboveIsClear(t *testing.T) {
	needLoop(t)
	m := terrain.NewHeightmap(257, 257)
	m.CellSize, m.VerticalScale = 4, 100
	ew, ed := m.Extent()
	saved := airDensity
	t.Cleanup(func() { airDensity = saved })
	// The two views, with the air of the given density: the pixel
	// straight down from 5 km, and the pixel of the first ground 10 km
	// away along a low ray.
	views := func(density float64) (down, far [3]float64, dist float64) {
		airDensity = density
		g := shadingGame(t, m, 100)
		g.View.Texturing, g.View.MaterialCount, g.View.BandMaterials = ByHeight, 1, [4]int{1, 1, 1, 1}
		g.View.BreakTiling, g.View.Shadows, g.View.Occlusion = false, false, false
		pixel := func(img *image.RGBA, x, y int) [3]float64 {
			c := img.RGBAAt(x, y)
			return [3]float64{float64(c.R), float64(c.G), float64(c.B)}
		}
		topDown(g, float32(ew/2), 5000, float32(ed/2))
		down = pixel(renderFrame(g, false), testW/2, testH/2)
		g.Camera.Mode = Fly
		g.Camera.Pos = mgl32.Vec3{float32(ew / 2), 150, float32(ed / 2)}
		g.Camera.Yaw, g.Camera.Pitch = 0, mgl32.DegToRad(-3)
		img := renderFrame(g, false)
		for y := testH - 1; y >= 0; y-- {
			o, d := ray(g, testW/2, y)
			if d[1] >= 0 {
				break
			}
			if s := float64(-o[1] / d[1]); s > 10000 {
				return down, pixel(img, testW/2, y), s
			}
		}
		return down, far, 0
	}
	down, far, dist := views(saved)
	downClear, farClear, _ := views(0)
	diff := func(a, b [3]float64) float64 { return math.Abs(a[0]-b[0]) + math.Abs(a[1]-b[1]) + math.Abs(a[2]-b[2]) }
	hd, hf := diff(down, downClear), diff(far, farClear)
	t.Logf("straight down from 5 km: %v against %v without air (haze %.0f); %.0f m along a low ray: %v against %v (haze %.0f)", down, downClear, hd, dist, far, farClear, hf)
	if dist == 0 {
		t.Fatal("the low view sees no ground 10 km away")
	}
	if hd > 45 {
		t.Errorf("looking straight down from 5 km the air changes the ground by %.0f levels; want at most 45", hd)
	}
	if down[2]-downClear[2] < down[0]-downClear[0] {
		t.Errorf("the air seen from above adds more red (%.0f) than blue (%.0f)", down[0]-downClear[0], down[2]-downClear[2])
	}
	if hf < 150 {
		t.Errorf("10 km of air near the ground changes it by only %.0f levels; want at least 150", hf)
	}
}

// Seen from high above, the sky is a smooth gradient: no row of it steps
// from the one above by more than the dither's few levels. The view ray
// was rebuilt from world positions of the near and far planes, and at
// 30 km up float32 rounding of the near point (the camera's position plus
// a few tenths) turned the gradient into stairs several levels high.
func TestSkyHasNoStairsFromHigh(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 65))
	g.Camera.Mode = Fly
	for _, y := range []float32{2000, 30000} {
		g.Camera.Pos = mgl32.Vec3{5000, y, 5000}
		g.Camera.Yaw, g.Camera.Pitch = mgl32.DegToRad(30), mgl32.DegToRad(-10)
		img := renderFrame(g, true)
		worst, at := 0, 0
		for x := 8; x < testW; x += 64 {
			for row := 1; row < testH/4; row++ { // above the horizon's steep band
				a, b := img.Pix[img.PixOffset(x, row-1):], img.Pix[img.PixOffset(x, row):]
				for c := range 3 {
					if d := int(abs(int(a[c]) - int(b[c]))); d > worst {
						worst, at = d, row
					}
				}
			}
		}
		t.Logf("camera %.0f m up: largest step between rows %d levels (row %d)", y, worst, at)
		if worst > 3 {
			t.Errorf("camera %.0f m up: the sky steps by %d levels between rows %d and %d", y, worst, at-1, at)
		}
	}
}
