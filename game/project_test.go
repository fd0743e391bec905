package game

import (
	"context"
	"image"
	"math"
	"reflect"
	"runtime"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/hajimehoshi/ebiten/v2"

	"cordillera/terrain"
	"cordillera/terrain/mesh"
)

// sameFrame reports the first difference between two frames' geometry:
// draw calls, vertices, indices and counts, to the bit.
func sameFrame(a, b *frame) string {
	if a.triangles != b.triangles || len(a.chunks) != len(b.chunks) {
		return "triangle or chunk counts differ"
	}
	var ca, cb []drawCall
	for i := range a.batches {
		ca = append(ca, a.batches[i].calls()...)
	}
	for i := range b.batches {
		cb = append(cb, b.batches[i].calls()...)
	}
	if len(ca) != len(cb) {
		return "draw call counts differ"
	}
	for i := range ca {
		if ca[i].noDetail != cb[i].noDetail || !reflect.DeepEqual(ca[i].indices, cb[i].indices) || !reflect.DeepEqual(ca[i].vertices, cb[i].vertices) {
			return "a draw call differs"
		}
	}
	return ""
}

// A frame that keeps its geometry while the camera stands still comes out
// the same as one rebuilt every time, over a walk that stands, moves,
// returns to an earlier pose, changes the screen size and the world.
func TestFrameReuseMatchesRebuild(t *testing.T) {
	worldA, worldB := presetWorld(t, "default"), presetWorld(t, "scenario-3")
	c := NewCamera()
	ext, _ := worldA.Map.Extent()
	pose := func(x, z, yaw float32) {
		c.Pos = mgl32.Vec3{x * float32(ext), float32(worldA.Map.GroundHeight(float64(x)*ext, float64(z)*ext)) + 30, z * float32(ext)}
		c.Yaw, c.Pitch = mgl32.DegToRad(yaw), mgl32.DegToRad(-10)
	}
	steps := []struct {
		x, z, yaw float32
		w, h      int
		world     *World
	}{
		{0.2, 0.2, 45, 320, 240, worldA}, {0.2, 0.2, 45, 320, 240, worldA}, // stands
		{0.3, 0.2, 45, 320, 240, worldA}, {0.3, 0.2, 60, 320, 240, worldA}, // moves, turns
		{0.2, 0.2, 45, 320, 240, worldA}, {0.2, 0.2, 45, 320, 240, worldA}, // back where it was
		{0.2, 0.2, 45, 400, 240, worldA},                                   // the screen widens
		{0.2, 0.2, 45, 400, 240, worldB}, {0.2, 0.2, 45, 400, 240, worldB}, // another world
	}
	var kept, fresh frame
	fresh.noReuse = true
	for i, s := range steps {
		pose(s.x, s.z, s.yaw)
		w := s.world
		kept.build(c, s.w, s.h, w.Map, w.LOD, w.Normals, false, 120)
		fresh.build(c, s.w, s.h, w.Map, w.LOD, w.Normals, false, 120)
		if d := sameFrame(&kept, &fresh); d != "" {
			t.Fatalf("step %d: %s between the kept and the rebuilt frame", i, d)
		}
		if kept.triangles == 0 {
			t.Fatalf("step %d: nothing in view", i)
		}
	}
}

// roughWorld is the roughest map the generator makes (H = 0, no feature
// size: white noise over every octave), which the error budget alone
// would draw at step 1 nearly everywhere.
func roughWorld(t testing.TB, size int) *World {
	t.Helper()
	p := terrain.DefaultParams()
	p.Size, p.Hurst, p.FeatureSize = size, 0, 0
	m, err := terrain.Generate(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	return NewWorld(m)
}

// On the roughest map seen whole, a frame stays within MaxTriangles (plus
// the near plane's cuts) and every draw call within maxCallVertices (plus
// one chunk), although the error budget alone would draw far more; and on
// the default world the budget changes nothing.
func TestFrameStaysWithinTriangleBudget(t *testing.T) {
	w := roughWorld(t, 1025)
	c := NewCamera()
	c.Overview(w.Map)
	var f frame
	f.build(c, 1280, 720, w.Map, w.LOD, w.Normals, false, 120)
	unbudgeted := selectTriangles(c, 1280, 720, w)
	if unbudgeted <= MaxTriangles {
		t.Fatalf("the rough map takes only %d triangles without the budget: the test cannot fail", unbudgeted)
	}
	if f.triangles > MaxTriangles*11/10 || f.triangles < MaxTriangles/4 {
		t.Errorf("rough 1025² overview: %d triangles, want about the budget %d (%d without it)", f.triangles, MaxTriangles, unbudgeted)
	}
	t.Logf("rough 1025² overview: %d triangles drawn, %d without the budget", f.triangles, unbudgeted)
	for i := range f.batches {
		for _, d := range f.batches[i].calls() {
			if len(d.vertices) > maxCallVertices+4096 {
				t.Errorf("a draw call has %d vertices, want at most about %d", len(d.vertices), maxCallVertices)
			}
		}
	}

	def := testWorld(t, 1025)
	c.Overview(def.Map)
	if n := selectTriangles(c, 1280, 720, def); n > MaxTriangles/2 {
		t.Errorf("the default world's overview takes %d triangles: the budget %d would coarsen ordinary views", n, MaxTriangles)
	}
}

// selectTriangles is how many triangles the level of detail selects for
// the camera without a triangle budget and without occlusion culling.
func selectTriangles(c *Camera, w, h int, world *World) int {
	vp := viewProjection(c, w, h)
	chunks := world.LOD.Select(mesh.View{
		Eye:           [3]float64{float64(c.Pos[0]), float64(c.Pos[1]), float64(c.Pos[2])},
		Planes:        mesh.FrustumPlanes([16]float32(vp)),
		PixelsPerUnit: float64(h) / (2 * math.Tan(float64(c.FovY)/2)),
		MaxErrorPx:    MaxErrorPx,
	}, nil)
	n := 0
	for _, d := range chunks {
		n += len(d.Tris) / 3
	}
	return n
}

// benchmarkFrameBuild measures the CPU's share of a frame on the default
// 1025² world at 1280×720 (level of detail, occlusion culling, projection),
// without Ebiten: with the camera standing still (rebuilt every frame as
// before, or kept) and walking.
func BenchmarkFrameBuild1025(b *testing.B) {
	w := testWorld(b, 1025)
	for _, bc := range []struct {
		name          string
		walk, rebuild bool
	}{{"still-rebuilt", false, true}, {"still-kept", false, false}, {"walking", true, false}} {
		b.Run(bc.name, func(b *testing.B) {
			c := NewCamera()
			lowView(c, w.Map)
			f := frame{noReuse: bc.rebuild}
			for i := 0; b.Loop(); i++ {
				if bc.walk {
					c.Pos[0] += 0.5
				}
				f.build(c, 1280, 720, w.Map, w.LOD, w.Normals, false, 120)
			}
			b.ReportMetric(float64(f.triangles), "triangles")
		})
	}
}

// The explorer's world (level of detail, normals, minimap) takes memory
// in proportion to the map, the same per sample on a 513² and a 2049² map
// and a few dozen bytes each, smooth or rough: nothing in it grows with
// the relief or faster than the map.
func TestWorldMemoryProportional(t *testing.T) {
	if testing.Short() {
		t.Skip("generates three maps up to 2049²")
	}
	perSample := func(w *terrain.Heightmap) float64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		world := NewWorld(w)
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(world)
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(len(w.Samples))
	}
	gen := func(size int, hurst, feature float64) *terrain.Heightmap {
		p := terrain.DefaultParams()
		p.Size, p.Hurst, p.FeatureSize = size, hurst, feature
		m, err := terrain.Generate(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	def := terrain.DefaultParams()
	small, large := perSample(gen(513, def.Hurst, def.FeatureSize)), perSample(gen(2049, def.Hurst, def.FeatureSize))
	rough := perSample(gen(2049, 0, 0))
	t.Logf("bytes allocated per sample building the world: 513² %.1f, 2049² %.1f, rough 2049² %.1f", small, large, rough)
	for _, b := range []float64{small, large, rough} {
		if b > 32 {
			t.Errorf("the world takes %.1f bytes per sample, want at most 32", b)
		}
	}
	if large > 1.25*small || rough > 1.1*large {
		t.Errorf("bytes per sample grow with the map or its roughness: 513² %.1f, 2049² %.1f, rough %.1f", small, large, rough)
	}
}

// projectedTriangle is one triangle as the GPU receives it: its three
// vertices and the shader variant it is drawn with.
type projectedTriangle struct {
	v        [3]ebiten.Vertex
	noDetail bool
}

// frameTriangles flattens a frame's draw calls, batch after batch, into
// the triangles they draw in order.
func frameTriangles(f *frame) []projectedTriangle {
	var out []projectedTriangle
	for i := range f.batches {
		for _, d := range f.batches[i].calls() {
			for t := 0; t+2 < len(d.indices); t += 3 {
				out = append(out, projectedTriangle{
					v:        [3]ebiten.Vertex{d.vertices[d.indices[t]], d.vertices[d.indices[t+1]], d.vertices[d.indices[t+2]]},
					noDetail: d.noDetail,
				})
			}
		}
	}
	return out
}

// referenceTriangles projects f's chunks the straightforward way, one
// triangle after another on one core: every vertex of every triangle
// built and projected afresh, triangles crossing the near plane clipped,
// triangles wholly in front of it that wind anticlockwise on the screen
// (facing away) or have no area dropped.
func referenceTriangles(f *frame, c *Camera, w, h int, m *terrain.Heightmap, normals []float32, detailDist float32) []projectedTriangle {
	p := newProjector(viewProjection(c, w, h), w, h, c.Near)
	p.curveAround(c.Pos) // the Earth's curve, as the frame draws it
	cs := float32(m.CellSize)
	// Facing away is culled only with the eye over the drawn surface.
	cull := float64(c.Pos[1]) > meshHeight(m, float64(c.Pos[0]), float64(c.Pos[2]))
	var out []projectedTriangle
	for i := range f.chunks {
		ch := &f.chunks[i]
		noDetail := chunkDistance(ch, c.Pos, m) >= detailDist
		surface := func(k uint32) surfaceVertex {
			col, row := ch.Sample(int(k))
			s := (row*m.Width + col) * 3
			return surfaceVertex{
				pos:     mgl32.Vec3{float32(col) * cs, ch.Heights[k], float32(row) * cs},
				normal:  mgl32.Vec3{normals[s], normals[s+1], normals[s+2]},
				spacing: cs * float32(ch.Step),
			}
		}
		for t := 0; t+2 < len(ch.Tris); t += 3 {
			v := [3]surfaceVertex{surface(ch.Tris[t]), surface(ch.Tris[t+1]), surface(ch.Tris[t+2])}
			cw := [3]float32{p.clipW(v[0].pos), p.clipW(v[1].pos), p.clipW(v[2].pos)}
			in := 0
			for _, x := range cw {
				if x >= p.near {
					in++
				}
			}
			var d drawCall
			switch in {
			case 0:
			case 3:
				d.vertices = []ebiten.Vertex{p.vertex(v[0]), p.vertex(v[1]), p.vertex(v[2])}
				a, b, c := d.vertices[0], d.vertices[1], d.vertices[2]
				if cull && (b.DstX-a.DstX)*(c.DstY-a.DstY) >= (c.DstX-a.DstX)*(b.DstY-a.DstY) {
					continue
				}
				d.indices = []uint32{0, 1, 2}
			default:
				d.clipTriangle(&p, v, cw)
			}
			d.noDetail = noDetail
			var one frame
			one.batches = []batch{{draws: []drawCall{d}, n: 1}}
			out = append(out, frameTriangles(&one)...)
		}
	}
	return out
}

// A frame's draw calls hold, in order, exactly the triangles of the
// straightforward projection, to the bit, on 1, 2 and 8 cores, over a walk
// and a flight (the walk close enough to the ground that the near plane
// cuts triangles) on the default world and a rough map.
func TestFrameProjectionMatchesReference(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	c := NewCamera()
	clipped := 0
	for _, w := range []*World{testWorld(t, 513), roughWorld(t, 257)} {
		ext, _ := w.Map.Extent()
		for _, procs := range []int{1, 2, 8} {
			runtime.GOMAXPROCS(procs)
			var f frame
			for i := range 12 {
				above, pitch := EyeHeight, float32(-3)
				if i%2 == 1 {
					above, pitch = 40, -8
				}
				s := ext * (0.1 + 0.05*float64(i))
				c.Pos = mgl32.Vec3{float32(s), float32(w.Map.GroundHeight(s, s) + above), float32(s)}
				c.Yaw, c.Pitch = math.Pi/4, mgl32.DegToRad(pitch)
				f.build(c, 640, 360, w.Map, w.LOD, w.Normals, false, 120)
				got := frameTriangles(&f)
				want := referenceTriangles(&f, c, 640, 360, w.Map, w.Normals, 120)
				if len(got) != len(want) || len(got) != f.triangles {
					t.Fatalf("%d cores, pose %d: %d triangles drawn (%d counted), the reference draws %d", procs, i, len(got), f.triangles, len(want))
				}
				for k := range got {
					if got[k] != want[k] {
						t.Fatalf("%d cores, pose %d: triangle %d differs from the reference: %+v, want %+v", procs, i, k, got[k], want[k])
					}
				}
				clipped += crossingNear(&f, c, 640, 360, w.Map.CellSize)
			}
		}
	}
	if clipped == 0 {
		t.Error("no triangle crossed the near plane: the clipping path was not compared")
	}
}

// crossingNear is how many of f's chunk triangles cross the near plane.
func crossingNear(f *frame, c *Camera, w, h int, cellSize float64) int {
	p := newProjector(viewProjection(c, w, h), w, h, c.Near)
	n := 0
	for i := range f.chunks {
		ch := &f.chunks[i]
		for t := 0; t+2 < len(ch.Tris); t += 3 {
			in := 0
			for q := range 3 {
				x := ch.World(int(ch.Tris[t+q]), cellSize)
				if p.clipW(mgl32.Vec3{float32(x[0]), float32(x[1]), float32(x[2])}) >= p.near {
					in++
				}
			}
			if in == 1 || in == 2 {
				n++
			}
		}
	}
	return n
}

// Dropping the triangles that face away from the eye leaves the picture
// as it was (they are always painted over), at the start view, walking,
// and from beyond the map's edge (where the skirts close the surface),
// while it drops many of them.
func TestBackFacingTrianglesAreHidden(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 513))
	for _, view := range []string{"start", "walk", "beyond the edge"} {
		switch view {
		case "walk":
			lowView(g.Camera, g.World.Map)
			g.Camera.SetMode(Walk, g.World.Map)
		case "beyond the edge":
			g.Camera.SetMode(Fly, g.World.Map)
			ext, _ := g.World.Map.Extent()
			g.Camera.Pos = mgl32.Vec3{float32(0.5 * ext), 0.6 * float32(ext), float32(1.9 * ext)}
			g.Camera.Yaw, g.Camera.Pitch = -mgl32.DegToRad(90), -mgl32.DegToRad(25)
		}
		g.scene.frame.keepBack = true
		g.scene.view.invalidate() // the view's key knows nothing of keepBack
		all := renderFrame(g, false)
		drawn := g.scene.frame.triangles
		g.scene.frame.keepBack = false
		g.scene.view.invalidate()
		culled := renderFrame(g, false)
		dropped := drawn - g.scene.frame.triangles
		n, total := differing(all, culled, image.Rect(0, 0, testW, testH), 0)
		t.Logf("%s: %d of %d triangles face away; %d of %d pixels differ", view, dropped, drawn, n, total)
		if dropped < drawn/20 {
			t.Errorf("%s: only %d of %d triangles dropped", view, dropped, drawn)
		}
		if n > 0 {
			t.Errorf("%s: %d pixels differ without the triangles facing away", view, n)
		}
	}
}

// With the eye inside the mountain (under the drawn triangles, though over
// the bilinear ground the camera is held above: a ridge cell of a rough
// map), nothing is culled for facing away: from there every nearby
// triangle faces away, and culling them would show the sky through the
// mountain. Over the surface the cull is back.
func TestNoBackFaceCullUnderTheSurface(t *testing.T) {
	w := roughWorld(t, 257)
	m := w.Map
	// The cell centre where the triangles rise most above the bilinear
	// ground.
	var bx, bz, rise float64
	for r := 1; r < m.Height-2; r++ {
		for c := 1; c < m.Width-2; c++ {
			x, z := (float64(c)+0.5)*m.CellSize, (float64(r)+0.5)*m.CellSize
			if d := meshHeight(m, x, z) - m.GroundHeight(x, z); d > rise {
				bx, bz, rise = x, z, d
			}
		}
	}
	if rise < 0.05 {
		t.Fatalf("the triangles rise at most %.3f over the bilinear ground: the test cannot fail", rise)
	}
	count := func(y float64, keepBack bool) int {
		c := NewCamera()
		c.Pos, c.Yaw, c.Pitch = mgl32.Vec3{float32(bx), float32(y), float32(bz)}, 0.3, -0.2
		f := frame{keepBack: keepBack}
		f.build(c, 640, 360, m, w.LOD, w.Normals, false, 120)
		return f.triangles
	}
	ground, surface := m.GroundHeight(bx, bz), meshHeight(m, bx, bz)
	inside := (ground + surface) / 2
	if all, culled := count(inside, true), count(inside, false); culled != all {
		t.Errorf("eye %.3f under the triangles (over the ground by %.3f): %d of %d triangles drawn, want all", surface-inside, inside-ground, culled, all)
	}
	above := surface + 1
	if all, culled := count(above, true), count(above, false); culled >= all {
		t.Errorf("eye over the surface: %d of %d triangles drawn, want fewer", culled, all)
	}
}
