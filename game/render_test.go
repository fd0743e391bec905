package game

import (
	"context"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/hajimehoshi/ebiten/v2"

	"cordillera/internal/testenv"
	"cordillera/terrain"
)

var (
	worldsMu sync.Mutex
	worlds   = map[int]*World{}
)

// testWorld is the default preset at the given size, generated once.
func testWorld(t testing.TB, size int) *World {
	t.Helper()
	worldsMu.Lock()
	defer worldsMu.Unlock()
	if w, ok := worlds[size]; ok {
		return w
	}
	p := terrain.DefaultParams()
	p.Size = size
	m, err := terrain.Generate(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	m.CellSize = 1025.0 / float64(size-1) // keep the world's extent whatever the resolution
	w := NewWorld(m)
	worlds[size] = w
	return w
}

// newTestGame returns a game on a world, created on the loop thread.
func newTestGame(t testing.TB, w *World) *Game {
	t.Helper()
	var g *Game
	var err error
	onLoop(func() { g, err = New(w) })
	if err != nil {
		t.Fatal(err)
	}
	g.HUD, g.ShowUI, g.ShowMinimap = false, false, false
	t.Cleanup(g.Close)
	// Frames compared with each other must not see the light map arrive
	// in between.
	waitLight(t, g)
	return g
}

// renderFrame draws one frame of g into a testW×testH image and reads it back.
func renderFrame(g *Game, skyOnly bool) *image.RGBA {
	var img *image.RGBA
	onLoop(func() {
		screen := ebiten.NewImage(testW, testH)
		defer screen.Deallocate()
		if skyOnly {
			g.scene.frame = frame{}
			g.render.draw(screen, g.Camera, &g.View, g.World, &g.scene.frame)
		} else {
			g.Draw(screen)
		}
		img = ScreenPixels(screen)
	})
	return img
}

// differing counts the pixels whose colours differ by more than tol in any channel.
func differing(a, b *image.RGBA, rows image.Rectangle, tol int) (n, total int) {
	for y := rows.Min.Y; y < rows.Max.Y; y++ {
		for x := rows.Min.X; x < rows.Max.X; x++ {
			i := a.PixOffset(x, y)
			for c := 0; c < 3; c++ {
				d := int(a.Pix[i+c]) - int(b.Pix[i+c])
				if d > tol || d < -tol {
					n++
					break
				}
			}
			total++
		}
	}
	return n, total
}

func TestSkyAboveTerrainBelow(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 257))
	full := renderFrame(g, false)
	sky := renderFrame(g, true)
	top := image.Rect(0, 0, testW, testH/10)
	bottom := image.Rect(0, testH*9/10, testW, testH)
	if n, total := differing(full, sky, top, 2); n > total/100 {
		t.Errorf("top tenth: %d of %d pixels are not sky", n, total)
	}
	if n, total := differing(full, sky, bottom, 2); n < total*99/100 {
		t.Errorf("bottom tenth: only %d of %d pixels are terrain", n, total)
	}
	// The sky is blue-ish and bright where no sun is.
	c := sky.RGBAAt(testW/2, 2)
	if !(c.B >= c.R && c.B > 150) {
		t.Errorf("sky pixel at the top %v is not sky-coloured", c)
	}
}

// The sun's glow is centred where the camera maths puts the sun.
func TestSunGlowWhereCameraPutsIt(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 257))
	g.View.SunElevation, g.View.SunAzimuth = 20, 30
	for _, off := range [][2]float32{{0, 0}, {-12, 5}, {15, -6}} {
		g.Camera.Yaw = mgl32.DegToRad(30 + off[0])
		g.Camera.Pitch = mgl32.DegToRad(20 + off[1])
		g.Camera.Pos = mgl32.Vec3{500, 2000, 500}
		sky := renderFrame(g, true)
		vp := viewProjection(g.Camera, testW, testH)
		p := newProjector(vp, testW, testH, g.Camera.Near)
		sun := p.vertex(surfaceVertex{pos: g.Camera.Pos.Add(g.View.SunDir().Mul(1000))})
		bx, by, best := 0, 0, -1000
		for y := 0; y < testH; y++ {
			for x := 0; x < testW; x++ {
				// The sun is a white-hot disc over a blue sky: the glow's
				// centre is the first of the brightest pixels from the top
				// (the haze at the horizon below it can be as white).
				c := sky.RGBAAt(x, y)
				if v := int(c.R) + int(c.G) + int(c.B); v > best {
					bx, by, best = x, y, v
				}
			}
		}
		if d := math.Hypot(float64(bx)-float64(sun.DstX), float64(by)-float64(sun.DstY)); d > 8 {
			t.Errorf("camera offset %v: brightest pixel (%d, %d), sun projects to (%.1f, %.1f): %.1f px apart",
				off, bx, by, sun.DstX, sun.DstY, d)
		}
	}
}

func TestTogglesChangeTheFrame(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 257))
	base := renderFrame(g, false)
	all := image.Rect(0, 0, testW, testH)
	for _, tc := range []struct {
		name   string
		toggle func(v *Viewer)
	}{
		{"wireframe", func(v *Viewer) { v.Wireframe = !v.Wireframe }},
		{"colour scheme", func(v *Viewer) { v.ColourScheme = !v.ColourScheme }},
		{"flat shading", func(v *Viewer) { v.FlatShading = !v.FlatShading }},
		{"slope texturing", func(v *Viewer) { v.Texturing = BySlope + ByRules - v.Texturing }}, // rules ↔ slope
	} {
		tc.toggle(&g.View)
		changed := renderFrame(g, false)
		tc.toggle(&g.View)
		if n, total := differing(base, changed, all, 8); n < total/20 {
			t.Errorf("%s changed only %d of %d pixels", tc.name, n, total)
		}
	}
	again := renderFrame(g, false)
	if n, _ := differing(base, again, all, 0); n != 0 {
		t.Errorf("toggling back left %d pixels different", n)
	}
}

// Walking on a slope or looking straight down from low over the ground shows
// terrain in every pixel: no holes from near-plane clipping.
func TestNoHolesCloseToTheGround(t *testing.T) {
	needLoop(t)
	w := testWorld(t, 257)
	g := newTestGame(t, w)
	all := image.Rect(0, 0, testW, testH)
	for _, pose := range []CameraPose{
		{X: 400, Z: 600, Yaw: 0, Pitch: -90, Walk: true},
		{X: 700, Z: 300, Yaw: 135, Pitch: -89, Walk: true},
		{X: 500, Y: 3, Z: 500, Yaw: 45, Pitch: -90},
	} {
		g.SetPose(pose)
		if !pose.Walk {
			g.Camera.Pos[1] += float32(w.Map.GroundHeight(float64(pose.X), float64(pose.Z)))
		}
		full := renderFrame(g, false)
		sky := renderFrame(g, true)
		if n, total := differing(full, sky, all, 0); n != total {
			t.Errorf("pose %+v: %d of %d pixels show sky through the ground", pose, total-n, total)
		}
	}
}

// lowView is the benchmarks' camera: low over the map's edge, looking across it.
func lowView(c *Camera, m *terrain.Heightmap) {
	w, d := m.Extent()
	c.Pos = mgl32.Vec3{float32(w * 0.1), 0, float32(d * 0.1)}
	c.Pos[1] = float32(m.GroundHeight(float64(c.Pos[0]), float64(c.Pos[2]))) + 40
	c.Yaw, c.Pitch = mgl32.DegToRad(45), mgl32.DegToRad(-8)
}

// benchmarkFrameCPU measures the CPU's work for one frame: level of detail,
// projection, clipping and the DrawTrianglesShader32 submission. Each
// iteration runs in its own tick so that Ebiten flushes between them; the
// flush and the GPU work are not timed.
func benchmarkFrameCPU(b *testing.B, full bool) {
	needLoop(b)
	g := newTestGame(b, testWorld(b, 1025))
	g.FullMesh = full
	lowView(g.Camera, g.World.Map)
	var screen *ebiten.Image
	onLoop(func() { screen = ebiten.NewImage(testW, testH) })
	b.ResetTimer()
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		onLoop(func() {
			b.StartTimer()
			g.scene.frame.build(g.Camera, testW, testH, g.World.Map, g.World.LOD, g.World.Normals, g.FullMesh, g.View.DetailDist)
			g.render.draw(screen, g.Camera, &g.View, g.World, &g.scene.frame)
			b.StopTimer()
		})
	}
	b.ReportMetric(float64(g.scene.frame.triangles), "triangles")
}

func BenchmarkFrameCPU1025(b *testing.B)         { benchmarkFrameCPU(b, false) }
func BenchmarkFrameCPU1025FullMesh(b *testing.B) { benchmarkFrameCPU(b, true) }

// benchmarkFPS measures whole frames on screen, GPU (llvmpipe under Xvfb)
// included: one iteration is one frame at 640×480.
func benchmarkFPS(b *testing.B, full bool) {
	needLoop(b)
	g := newTestGame(b, testWorld(b, 1025))
	g.FullMesh = full
	lowView(g.Camera, g.World.Map)
	setDraw(g.Draw)
	defer setDraw(nil)
	waitFrames(2)
	b.ResetTimer()
	waitFrames(int64(b.N))
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "fps")
}

// waitFrames blocks until the loop has drawn n more frames.
func waitFrames(n int64) {
	start := loop.frames.Load()
	for loop.frames.Load() < start+n {
		onLoop(func() {})
	}
}

func BenchmarkFPS1025(b *testing.B)         { benchmarkFPS(b, false) }
func BenchmarkFPS1025FullMesh(b *testing.B) { benchmarkFPS(b, true) }

// benchmarkFPSLook measures whole frames at 1280×720 (the window's
// default size) with the look set changes to the default viewer.
func benchmarkFPSLook(b *testing.B, set func(v *Viewer)) {
	needLoop(b)
	w := worldBeyond(b, 1025)
	g := newTestGame(b, w)
	set(&g.View)
	lowView(g.Camera, g.World.Map)
	benchmarkWindowFrames(b, g)
}

// worldBeyond is the default world of size² samples as the explorer
// shows it: with the land beyond the map.
func worldBeyond(b *testing.B, size int) *World {
	w := *testWorld(b, size)
	p := terrain.DefaultParams()
	p.Size = size
	AddOutside(context.Background(), &w, p)
	if w.Outside == nil {
		b.Fatal("the default world has no land beyond the map")
	}
	return &w
}

// benchmarkWindowFrames draws g's view b.N times at 1280×720 (the
// window's size) once its light map is made, and reports the frame rate
// and the CPU time a frame costs.
func benchmarkWindowFrames(b *testing.B, g *Game) {
	waitLight(b, g)
	onLoop(func() { loop.w, loop.h = ScreenWidth, ScreenHeight })
	defer onLoop(func() { loop.w, loop.h = testW, testH })
	setDraw(g.Draw)
	defer setDraw(nil)
	waitFrames(2)
	cpu0, haveCPU := testenv.ProcessCPU()
	b.ResetTimer()
	waitFrames(int64(b.N))
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "fps")
	// On a machine shared with other work the frame rate swings with the
	// others' load; the CPU time a frame costs (llvmpipe's rasterizer
	// threads included) swings much less.
	if cpu1, ok := testenv.ProcessCPU(); ok && haveCPU {
		b.ReportMetric((cpu1-cpu0).Seconds()*1e3/float64(b.N), "cpu-ms/frame")
	}
}

// BenchmarkFPS1025Look is the default look with everything on:
// materials by rules, shadows, ambient occlusion and water. LOOKOFF, a
// comma-separated list of aa, tile, water, light, rules, detail and scatter,
// switches those features off, to find what each costs.
func BenchmarkFPS1025Look(b *testing.B) {
	benchmarkFPSLook(b, func(v *Viewer) {
		v.Water = 0.25
		for _, f := range strings.Split(os.Getenv("LOOKOFF"), ",") {
			switch f {
			case "aa":
				v.Antialias = false
			case "tile":
				v.BreakTiling = false
			case "water":
				v.Water = 0
			case "light":
				v.Shadows, v.Occlusion = false, false
			case "rules":
				v.Texturing = ByHeight
			case "detail":
				v.DetailMaps = false
			case "scatter":
				v.Scatter = false
			}
		}
	})
}

// BenchmarkFPS1025Thesis is the thesis's look: height bands, no shadows or
// occlusion, no anti-aliasing, the textures' repeat not hidden.
func BenchmarkFPS1025Thesis(b *testing.B) {
	benchmarkFPSLook(b, func(v *Viewer) {
		v.Texturing, v.Shadows, v.Occlusion = ByHeight, false, false
		v.Antialias, v.BreakTiling = false, false
	})
}

// The shader variants (features compiled out when off or out of reach)
// draw exactly what the full shader draws.
func TestShaderVariantsDrawTheSameFrame(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 257))
	lowView(g.Camera, g.World.Map)
	all := image.Rect(0, 0, testW, testH)
	for _, tc := range []struct {
		name string
		set  func(v *Viewer)
	}{
		{"default", func(v *Viewer) {}},
		{"no detail maps", func(v *Viewer) { v.DetailMaps = false }},
		{"planar", func(v *Viewer) { v.Triplanar = false }},
		{"colour scheme", func(v *Viewer) { v.ColourScheme = true }},
		{"short detail reach", func(v *Viewer) { v.DetailDist = 30 }},
		{"thesis height bands", func(v *Viewer) { v.Texturing = ByHeight }},
		{"repeat not hidden", func(v *Viewer) { v.Texturing, v.BreakTiling = ByHeight, false }},
		{"no shadows", func(v *Viewer) { v.Shadows = false }},
		{"no light map", func(v *Viewer) { v.Shadows, v.Occlusion = false, false }},
		{"water", func(v *Viewer) { v.Water = 0.3 }},
	} {
		g.View = DefaultViewer()
		tc.set(&g.View)
		waitLight(t, g)
		g.render.allFeatures = false
		fast := renderFrame(g, false)
		g.render.allFeatures = true
		ref := renderFrame(g, false)
		g.render.allFeatures = false
		if n, total := differing(fast, ref, all, 1); n > 0 {
			t.Errorf("%s: %d of %d pixels differ from the full shader", tc.name, n, total)
		}
	}
}

// F12 saves the frame as a numbered PNG in the screenshot folder.
func TestScreenshotKeySavesTheFrame(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 257))
	g.ScreenshotDir = t.TempDir()
	g.scene.shotPending = true
	frame := renderFrame(g, false)
	entries, err := os.ReadDir(g.ScreenshotDir)
	if err != nil || len(entries) != 1 {
		t.Fatalf("screenshot folder holds %v (%v), want one file", entries, err)
	}
	f, err := os.Open(filepath.Join(g.ScreenshotDir, entries[0].Name()))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	shot, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if shot.Bounds() != frame.Bounds() {
		t.Fatalf("screenshot is %v, the frame %v", shot.Bounds(), frame.Bounds())
	}
	for _, p := range []image.Point{{10, 10}, {testW / 2, testH - 10}, {testW - 5, testH / 2}} {
		if got, want := color.RGBAModel.Convert(shot.At(p.X, p.Y)), frame.At(p.X, p.Y); got != want {
			t.Errorf("pixel %v: screenshot %v, frame %v", p, got, want)
		}
	}
}

// benchmarkFrameWhileDragging measures whole frames (640×480, panels and
// minimap shown, 1025² map) while a slider is dragged: every frame changes
// H, so a regeneration is always under way in the background and each
// finished map is swapped in. drag=false is the idle reference.
func benchmarkFrameWhileDragging(b *testing.B, drag bool) {
	needLoop(b)
	g := newTestGame(b, testWorld(b, 1025))
	g.ShowUI, g.ShowMinimap = true, true
	frames, swaps := 0, uint64(0)
	setDraw(func(screen *ebiten.Image) {
		if drag {
			frames++
			g.Params.Hurst = 0.5 + 0.5*math.Abs(math.Sin(float64(frames)/30))
			g.gen.regen.Request(g.Params)
		}
		before := g.gen.worldID
		g.takeGenerated()
		if g.gen.worldID != before {
			swaps++
		}
		g.Draw(screen)
	})
	defer setDraw(nil)
	waitFrames(5)
	b.ResetTimer()
	waitFrames(int64(b.N))
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/frame")
	b.ReportMetric(float64(swaps), "worlds")
}

func BenchmarkFrameIdle1025(b *testing.B)     { benchmarkFrameWhileDragging(b, false) }
func BenchmarkFrameDragging1025(b *testing.B) { benchmarkFrameWhileDragging(b, true) }

// Chunks wholly above the water surface are drawn without the water (the
// frame's calls split by it), those reaching under it with it, and a
// frame that does not know the water keeps it everywhere.
func TestDryChunksLeaveTheWaterOut(t *testing.T) {
	world := testWorld(t, 257)
	c := NewCamera()
	lowView(c, world.Map)
	v := DefaultViewer()
	v.Water = 0.3
	count := func(f *frame) (dry, wet int) {
		f.build(c, testW, testH, world.Map, world.LOD, world.Normals, false, v.DetailDist)
		for i := range f.batches {
			for _, d := range f.batches[i].calls() {
				if d.dry {
					dry++
				} else {
					wet++
				}
			}
		}
		return dry, wet
	}
	var f frame
	f.water, f.wet = waterLevel(&v, world.Map)
	f.waterKnown = true
	if dry, wet := count(&f); dry == 0 || wet == 0 {
		t.Errorf("water at 30 %%: %d dry and %d wet calls; want both", dry, wet)
	}
	for i := range f.chunks {
		if !f.dry(&f.chunks[i]) {
			continue
		}
		for _, h := range f.chunks[i].Heights {
			if h < f.water {
				t.Fatalf("chunk %d taken for dry with a vertex at %v under the water at %v", i, h, f.water)
			}
		}
	}
	var unknown frame
	if dry, _ := count(&unknown); dry != 0 {
		t.Errorf("a frame that does not know the water has %d dry calls", dry)
	}
}
