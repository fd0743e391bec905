package game

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"cordillera/internal/zbuffer"
	"cordillera/terrain"
)

// emittedTri is one triangle as the renderer hands it to Ebiten: screen
// vertices plus the world xz of each, to recognise triangles that touch.
type emittedTri struct {
	screen [3][3]float64 // x, y, depth (−1/w: affine in screen space)
	xz     [3][2]float64
}

func collect(f *frame) []emittedTri {
	var out []emittedTri
	for _, b := range f.batches {
		for _, d := range b.calls() {
			for i := 0; i+2 < len(d.indices); i += 3 {
				var t emittedTri
				for q := 0; q < 3; q++ {
					v := d.vertices[d.indices[i+q]]
					t.screen[q] = [3]float64{float64(v.DstX), float64(v.DstY), -float64(v.Custom3)}
					t.xz[q] = [2]float64{float64(v.Custom0 / v.Custom3), float64(v.Custom2 / v.Custom3)}
				}
				out = append(out, t)
			}
		}
	}
	return out
}

// touches reports whether two emitted triangles meet seen from above (a
// shared vertex or edge, or a vertex on the other's edge where LOD steps
// differ, clipped pieces included) within 1.5 pixels of pixel (x, y): there
// the two depths are equal up to rounding.
func touches(a, b *emittedTri, x, y int) bool {
	var shared [][3]float64
	for q := 0; q < 3; q++ {
		if onTriangle(b.xz, a.xz[q]) {
			shared = append(shared, a.screen[q])
		}
		if onTriangle(a.xz, b.xz[q]) {
			shared = append(shared, b.screen[q])
		}
	}
	px, py := float64(x)+0.5, float64(y)+0.5
	for i := range shared {
		for j := i; j < len(shared); j++ {
			if segDist(px, py, shared[i], shared[j]) <= 1.5 {
				return true
			}
		}
	}
	return false
}

func onTriangle(t [3][2]float64, p [2]float64) bool {
	const eps = 1e-3
	side := func(a, b [2]float64) float64 {
		l := math.Hypot(b[0]-a[0], b[1]-a[1])
		if l == 0 {
			return 0
		}
		return ((b[0]-a[0])*(p[1]-a[1]) - (b[1]-a[1])*(p[0]-a[0])) / l
	}
	s0, s1, s2 := side(t[0], t[1]), side(t[1], t[2]), side(t[2], t[0])
	return (s0 >= -eps && s1 >= -eps && s2 >= -eps) || (s0 <= eps && s1 <= eps && s2 <= eps)
}

func segDist(x, y float64, p, q [3]float64) float64 {
	dx, dy := q[0]-p[0], q[1]-p[1]
	t := 0.0
	if l2 := dx*dx + dy*dy; l2 > 0 {
		t = min(max(((x-p[0])*dx+(y-p[1])*dy)/l2, 0), 1)
	}
	return math.Hypot(x-p[0]-t*dx, y-p[1]-t*dy)
}

// testPose is a camera for the CPU rasterizer tests: x, z as fractions of
// the map, height above the ground in world units, yaw and pitch in degrees.
type testPose struct {
	x, z, above, yaw, pitch float32
}

// testPoses are high and low views, walking height on slopes, straight
// down, corners and outside the map.
var testPoses = []testPose{
	{0.05, 0.05, 300, 45, -20}, {0.5, 0.5, 600, 10, -60}, {0.9, 0.2, 40, 200, -8},
	{0.3, 0.7, 1.7, 80, -5}, {0.6, 0.4, 1.7, 300, -25}, {0.5, 0.5, 1.7, 0, -89.9},
	{0.2, 0.2, 20, 135, -90}, {-0.2, 0.5, 150, 0, -15}, {0.99, 0.99, 5, 225, -3},
}

// forTestViews calls f for every camera of testPoses over each of three
// presets' 257² worlds (cell size 4), the views both CPU rasterizer tests
// use. The worlds are made once.
func forTestViews(t *testing.T, f func(preset string, ps testPose, c *Camera, m *terrain.Heightmap, world *World)) {
	t.Helper()
	for _, preset := range []string{"default", "scenario-3", "diamond-square"} {
		world := presetWorld(t, preset)
		m := world.Map
		ext, _ := m.Extent()
		for _, ps := range testPoses {
			c := NewCamera()
			x, z := ps.x*float32(ext), ps.z*float32(ext)
			c.Pos = mgl32.Vec3{x, float32(m.GroundHeight(float64(x), float64(z))) + ps.above, z}
			c.Yaw, c.Pitch = mgl32.DegToRad(ps.yaw), mgl32.DegToRad(ps.pitch)
			f(preset, ps, c, m, world)
		}
	}
}

var presetWorlds = map[string]*World{}

// presetWorld is a preset's map at 257² with cell size 4, made once.
func presetWorld(t *testing.T, preset string) *World {
	t.Helper()
	worldsMu.Lock()
	defer worldsMu.Unlock()
	if w, ok := presetWorlds[preset]; ok {
		return w
	}
	p, err := terrain.PresetParams(preset)
	if err != nil {
		t.Fatal(err)
	}
	p.Size = 257
	m, err := terrain.Generate(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	m.CellSize, m.VerticalScale = 4, p.Amplitude
	presetWorlds[preset] = NewWorld(m)
	return presetWorlds[preset]
}

// wrongPixels rasterizes the triangles in order with the painter's
// algorithm and with a z-buffer and counts the pixels that differ beyond
// edge ties.
func wrongPixels(tris []emittedTri, w, h int) (wrong, covered int) {
	painter, zbuf := zbuffer.NewRaster(w, h), zbuffer.NewRaster(w, h)
	for id := range tris {
		s := &tris[id].screen
		painter.Fill(s[0], s[1], s[2], id, false)
		zbuf.Fill(s[0], s[1], s[2], id, true)
	}
	return zbuffer.Compare(painter, zbuf, func(x, y, a, b int) bool { return touches(&tris[a], &tris[b], x, y) }), zbuf.Covered()
}

// The triangles the renderer submits, clipped and in their draw order,
// paint exactly what a z-buffer would, for 27 cameras over three presets:
// high and low views, walking height on slopes, straight down, corners,
// outside the map.
func TestDrawOrderMatchesZBuffer(t *testing.T) {
	const w, h = 320, 240
	steps := map[int]bool{}
	forTestViews(t, func(preset string, ps testPose, c *Camera, m *terrain.Heightmap, world *World) {
		var f frame
		f.build(c, w, h, m, world.LOD, world.Normals, false, 120)
		for _, ch := range f.chunks {
			steps[ch.Step] = true
		}
		tris := collect(&f)
		wrong, covered := wrongPixels(tris, w, h)
		if covered < w*h/20 {
			t.Errorf("%s %+v: only %d pixels of terrain; the view misses the map", preset, ps, covered)
		}
		if wrong != 0 {
			t.Errorf("%s %+v: %d of %d terrain pixels drawn in the wrong order", preset, ps, wrong, covered)
		}
	})
	if len(steps) < 3 {
		t.Errorf("only LOD steps %v appeared; the test should mix detail levels", steps)
	}
}

// The same comparison catches a wrong order: the chunks drawn front to back.
func TestReversedChunkOrderIsCaught(t *testing.T) {
	p := terrain.DefaultParams()
	p.Size = 257
	m, _ := terrain.Generate(context.Background(), p, nil)
	m.CellSize = 4
	world := NewWorld(m)
	c := NewCamera()
	c.Pos = mgl32.Vec3{50, float32(m.GroundHeight(50, 50)) + 60, 50}
	c.Yaw, c.Pitch = mgl32.DegToRad(45), mgl32.DegToRad(-12)
	var f frame
	f.build(c, 320, 240, m, world.LOD, world.Normals, false, 120)
	slices.Reverse(f.chunks)
	b := batch{}
	pr := newProjector(viewProjection(c, 320, 240), 320, 240, c.Near)
	for i := range f.chunks {
		b.addChunk(&pr, &f.chunks[i], m, world.Normals, false, false)
	}
	f.batches = []batch{b}
	wrong, covered := wrongPixels(collect(&f), 320, 240)
	if wrong < covered/50 {
		t.Errorf("front-to-back chunks: only %d of %d pixels wrong; the test cannot see ordering errors", wrong, covered)
	}
}

// depthImage rasterizes triangles with a z-buffer.
func depthImage(tris []emittedTri, w, h int) *zbuffer.Raster {
	z := zbuffer.NewRaster(w, h)
	for id := range tris {
		s := &tris[id].screen
		z.Fill(s[0], s[1], s[2], id, true)
	}
	return z
}

// Occlusion culling drops only chunks that nothing shows of: with and
// without it, a z-buffer sees the same surface at every pixel, for the
// same cameras as the ordering test, and in the low view across the map it
// removes most chunks.
func TestOcclusionCullingHidesNothingVisible(t *testing.T) {
	const w, h = 320, 240
	forTestViews(t, func(preset string, ps testPose, c *Camera, m *terrain.Heightmap, world *World) {
		var culled, all frame
		all.noOcclusion = true
		culled.build(c, w, h, m, world.LOD, world.Normals, false, 120)
		all.build(c, w, h, m, world.LOD, world.Normals, false, 120)
		a, b := depthImage(collect(&culled), w, h), depthImage(collect(&all), w, h)
		diff := 0
		for i := range a.Depth {
			if a.Depth[i] != b.Depth[i] && math.Abs(a.Depth[i]-b.Depth[i]) > 1e-9*math.Abs(b.Depth[i]) {
				diff++
			}
		}
		if diff != 0 {
			t.Errorf("%s %+v: culling changed %d pixels (%d of %d chunks drawn)", preset, ps, diff, len(culled.chunks), len(all.chunks))
		}
	})
	wld := testWorld(t, 1025)
	c := NewCamera()
	lowView(c, wld.Map)
	var culled, all frame
	all.noOcclusion = true
	culled.build(c, testW, testH, wld.Map, wld.LOD, wld.Normals, false, 120)
	all.build(c, testW, testH, wld.Map, wld.LOD, wld.Normals, false, 120)
	if culled.triangles*10 > all.triangles*6 {
		t.Errorf("low view: %d of %d triangles drawn; occlusion culling should remove a large share", culled.triangles, all.triangles)
	}
	t.Logf("low view: %d of %d chunks, %d of %d triangles drawn", len(culled.chunks), len(all.chunks), culled.triangles, all.triangles)
}

// Only vertices that some drawn triangle uses are handed to Ebiten.
func TestOnlyUsedVerticesAreSubmitted(t *testing.T) {
	w := testWorld(t, 1025)
	c := NewCamera()
	lowView(c, w.Map)
	c.Pos[1] = float32(w.Map.GroundHeight(float64(c.Pos[0]), float64(c.Pos[2]))) + 1.7 // near-plane clipping happens
	var f frame
	f.build(c, testW, testH, w.Map, w.LOD, w.Normals, false, 120)
	total := 0
	for _, b := range f.batches {
		for _, d := range b.calls() {
			used := make([]bool, len(d.vertices))
			for _, i := range d.indices {
				used[i] = true
			}
			for i, u := range used {
				if !u {
					t.Fatalf("vertex %d of a draw call is not used by any triangle", i)
				}
			}
			total += len(d.vertices)
		}
	}
	if total == 0 || f.triangles == 0 {
		t.Fatal("nothing drawn")
	}
}
