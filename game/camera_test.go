package game

import (
	"context"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"cordillera/terrain"
	"cordillera/terrain/mesh"
)

func slopeMap(n int, slope float32) *terrain.Heightmap {
	m := terrain.NewHeightmap(n, n)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			m.Set(x, y, slope*float32(x)/float32(n-1))
		}
	}
	m.VerticalScale = float64(n - 1)
	return m
}

func TestCameraAxes(t *testing.T) {
	c := NewCamera()
	for _, yaw := range []float32{0, 0.7, 2, -2.5} {
		for _, pitch := range []float32{-1.5, -0.3, 0, 0.9} {
			c.Yaw, c.Pitch = yaw, pitch
			f, r := c.Forward(), c.Right()
			if math.Abs(float64(f.Len()-1)) > 1e-5 || math.Abs(float64(r.Len()-1)) > 1e-5 || math.Abs(float64(f.Dot(r))) > 1e-5 {
				t.Fatalf("yaw %v pitch %v: forward %v right %v not orthonormal", yaw, pitch, f, r)
			}
			// A point straight ahead projects to the screen centre, one to the
			// right lands right of it.
			c.Pos = mgl32.Vec3{10, 20, 30}
			vp := viewProjection(c, 640, 480)
			p := newProjector(vp, 640, 480, c.Near)
			ahead := p.vertex(surfaceVertex{pos: c.Pos.Add(f.Mul(50))})
			right := p.vertex(surfaceVertex{pos: c.Pos.Add(f.Mul(50)).Add(r.Mul(5))})
			if math.Abs(float64(ahead.DstX-320)) > 0.01 || math.Abs(float64(ahead.DstY-240)) > 0.01 {
				t.Errorf("yaw %v pitch %v: a point ahead projects to (%v, %v)", yaw, pitch, ahead.DstX, ahead.DstY)
			}
			if right.DstX <= ahead.DstX+1 {
				t.Errorf("yaw %v pitch %v: a point to the right projects left of centre", yaw, pitch)
			}
		}
	}
}

func TestLookClampsPitch(t *testing.T) {
	c := NewCamera()
	c.Look(0, 10)
	if c.Pitch != math.Pi/2 {
		t.Errorf("pitch %v, want π/2", c.Pitch)
	}
	c.Look(0, -20)
	if c.Pitch != -math.Pi/2 {
		t.Errorf("pitch %v, want −π/2", c.Pitch)
	}
	// Straight down still has a valid view matrix.
	v := c.View()
	for _, x := range v {
		if x != x {
			t.Fatal("view matrix has NaN looking straight down")
		}
	}
}

func TestWalkKeepsEyeHeightOnSlope(t *testing.T) {
	m := slopeMap(65, 0.5) // rises 32 units over 64: a 27° slope
	c := NewCamera()
	c.Pos = mgl32.Vec3{5, 50, 30}
	c.SetMode(Walk, m)
	for i := 0; i < 600; i++ { // ten seconds up the slope
		c.Step(Input{Forward: 1}, 1.0/60, m)
		ground := float32(m.GroundHeight(float64(c.Pos[0]), float64(c.Pos[2])))
		if c.Pos[1] < ground+EyeHeight-1e-3 {
			t.Fatalf("tick %d: eye %v below ground %v + eye height", i, c.Pos[1], ground)
		}
	}
	if c.Pos[0] < 40 {
		t.Errorf("walked to x=%v in ten seconds, want ≥ 40", c.Pos[0])
	}
}

func TestWalkGravityAndJump(t *testing.T) {
	m := slopeMap(33, 0)
	c := NewCamera()
	c.Pos = mgl32.Vec3{10, 0, 10}
	c.SetMode(Walk, m)
	c.Step(Input{Jump: true}, 1.0/60, m)
	peak := c.Pos[1]
	for i := 0; i < 120; i++ {
		c.Step(Input{}, 1.0/60, m)
		peak = max(peak, c.Pos[1])
	}
	want := float32(EyeHeight + JumpSpeed*JumpSpeed/(2*Gravity))
	if math.Abs(float64(peak-want)) > 0.1 {
		t.Errorf("jump peak %v, want about %v", peak, want)
	}
	if c.Pos[1] != EyeHeight {
		t.Errorf("after landing eye at %v, want %v", c.Pos[1], EyeHeight)
	}
}

func TestFlyStaysAboveGround(t *testing.T) {
	m := slopeMap(65, 0.5)
	c := NewCamera()
	c.Pos = mgl32.Vec3{30, 40, 30}
	c.Pitch = -1.2
	for i := 0; i < 600; i++ {
		c.Step(Input{Forward: 1, Boost: true}, 1.0/60, m)
	}
	if g := float32(m.GroundHeight(float64(c.Pos[0]), float64(c.Pos[2]))); c.Pos[1] < g {
		t.Errorf("flew into the ground: eye %v, ground %v", c.Pos[1], g)
	}
}

// Clipping at the near plane keeps exactly the part of a triangle in front
// of the camera: every output vertex is at or beyond the near plane and on
// the original triangle's plane; one vertex behind leaves a quad (two
// triangles), two behind leave one triangle.
func TestClipTriangle(t *testing.T) {
	c := NewCamera() // looking along +x
	c.Pos = mgl32.Vec3{0, 1, 0}
	vp := viewProjection(c, 640, 480)
	p := newProjector(vp, 640, 480, c.Near)
	up := mgl32.Vec3{0, 1, 0}
	cases := []struct {
		name           string
		a, b, d        mgl32.Vec3
		tris, vertices int
	}{
		{"one behind", mgl32.Vec3{-1, 0, 0}, mgl32.Vec3{5, 0, -1}, mgl32.Vec3{5, 0, 1}, 2, 4},
		{"two behind", mgl32.Vec3{-1, 0, -1}, mgl32.Vec3{5, 0, 0}, mgl32.Vec3{-1, 0, 1}, 1, 3},
	}
	for _, tc := range cases {
		tri := [3]surfaceVertex{{pos: tc.a, normal: up}, {pos: tc.b, normal: up}, {pos: tc.d, normal: up}}
		var w [3]float32
		for i := range tri {
			w[i] = p.clipW(tri[i].pos)
		}
		var d drawCall
		n := d.clipTriangle(&p, tri, w)
		if n != tc.tris || len(d.vertices) != tc.vertices || len(d.indices) != 3*n {
			t.Errorf("%s: %d triangles, %d vertices, %d indices; want %d, %d", tc.name, n, len(d.vertices), len(d.indices), tc.tris, tc.vertices)
		}
		for _, v := range d.vertices {
			if depth := 1 / v.Custom3; depth < c.Near*(1-1e-4) {
				t.Errorf("%s: vertex at depth %v, before the near plane %v", tc.name, depth, c.Near)
			}
			if y := v.Custom1 / v.Custom3; math.Abs(float64(y)) > 1e-5 {
				t.Errorf("%s: clipped vertex left the triangle's plane: y=%v", tc.name, y)
			}
			if ny := v.ColorG / v.Custom3; math.Abs(float64(ny-1)) > 1e-5 {
				t.Errorf("%s: interpolated normal y %v, want 1", tc.name, ny)
			}
		}
	}
}

// A walker heading into the sea wades up to WadeDepth and stops there;
// without water it walks on; one set down in deep water walks out; along
// the shore it slides rather than sticks.
func TestWalkStopsAtTheWater(t *testing.T) {
	m := slopeMap(65, 0.5) // ground rises along +x from 0 to 32: half of it lies under a level of 16
	water := float32(16)
	walk := func(wet bool, x, z, yaw float32, seconds int) *Camera {
		c := NewCamera()
		c.Pos = mgl32.Vec3{x, 40, z}
		c.Yaw = yaw
		c.Water, c.Wet = water, wet
		c.SetMode(Walk, m)
		for range seconds * 60 {
			c.Step(Input{Forward: 1}, 1.0/60, m)
		}
		return c
	}
	c := walk(true, 50, 30, math.Pi, 20) // downhill, towards the water, 80 m of walking
	depth := water - float32(m.GroundHeight(float64(c.Pos[0]), float64(c.Pos[2])))
	if depth > WadeDepth || depth < WadeDepth-0.2 {
		t.Errorf("the walker stopped %v deep in the water, want just under %v (at x %v)", depth, WadeDepth, c.Pos[0])
	}
	if dry := walk(false, 50, 30, math.Pi, 20); dry.Pos[0] > 1 {
		t.Errorf("without water the walker stopped at x %v, not at the map's edge", dry.Pos[0])
	}
	if out := walk(true, 5, 30, 0, 10); out.Pos[0] < 40 {
		t.Errorf("a walker set down in deep water got only to x %v walking out", out.Pos[0])
	}
	if in := walk(true, 5, 30, math.Pi, 2); in.Pos[0] > 5 || in.Pos[0] < 4.9 {
		t.Errorf("a walker in deep water walked deeper, to x %v", in.Pos[0])
	}
	// Heading along the shore at 45° into the water: the step along the
	// shore is kept.
	slide := walk(true, 40, 10, 3*math.Pi/4, 10)
	if slide.Pos[2] < 35 { // 10 s at 4 m/s: 28 m along z from 10 if nothing stops it
		t.Errorf("walking obliquely into the water the walker stuck at z %v instead of sliding along the shore", slide.Pos[2])
	}
}

// The overview (the first view and Home's) frames the map: seen from over
// its north edge, above its peaks, about half the view or more looks down
// at the map's square (rays through a grid of pixels meet the plane of
// its middle height inside the square; the top of the view is sky), the
// far corners are in view, and on maps as wide as the default 1025² one
// the top tenth of the view is sky. The explorer's small default world,
// 257² samples 1 m apart under 200 m of relief, filled 11 % of the view
// from the old overview, over its corner; it must keep the camera above
// its peaks, so it fills less than the wider maps.
func TestOverviewFramesTheMap(t *testing.T) {
	for _, c := range []struct {
		side      int
		cell, amp float64
		sky       bool
		fill      float64 // least share of the view
	}{{257, 1, 200, false, 0.35}, {257, 4, 200, true, 0.5}, {1025, 1, 200, true, 0.5}, {647, 92.7, 4356, false, 0.5}} {
		m := terrain.NewHeightmap(c.side, c.side)
		m.CellSize, m.VerticalScale = c.cell, c.amp
		cam := NewCamera()
		cam.Overview(m)
		w, d := m.Extent()
		const sw, sh = 1280, 720
		if float64(cam.Pos[1]) < 1.1*c.amp {
			t.Errorf("%d² × %g m: the camera is %v m up, below the peaks of a %g m range", c.side, c.cell, cam.Pos[1], c.amp)
		}
		inv := viewProjection(cam, sw, sh).Inv()
		ray := func(px, py float64) mgl32.Vec3 {
			ndc := mgl32.Vec4{float32(2*px/sw - 1), float32(1 - 2*py/sh), 1, 1}
			far := inv.Mul4x1(ndc)
			return far.Vec3().Mul(1 / far[3]).Sub(cam.Pos).Normalize()
		}
		mid := float32(c.amp / 3)
		hits, n := 0, 0
		for j := 0; j < 18; j++ {
			for i := 0; i < 32; i++ {
				r := ray((float64(i)+0.5)*sw/32, (float64(j)+0.5)*sh/18)
				n++
				if r[1] >= 0 {
					continue
				}
				p := cam.Pos.Add(r.Mul((mid - cam.Pos[1]) / r[1]))
				if p[0] >= 0 && float64(p[0]) <= w && p[2] >= 0 && float64(p[2]) <= d {
					hits++
				}
			}
		}
		if share := float64(hits) / float64(n); share < c.fill {
			t.Errorf("%d² × %g m: the map fills %.0f %% of the view, want at least %.0f %%", c.side, c.cell, 100*share, 100*c.fill)
		}
		vp := newProjector(viewProjection(cam, sw, sh), sw, sh, cam.Near)
		for _, x := range []float64{0, w} {
			farCorner := vp.vertex(surfaceVertex{pos: mgl32.Vec3{float32(x), mid, float32(d)}})
			if farCorner.DstX < 0 || farCorner.DstX > sw || farCorner.DstY < 0 || farCorner.DstY > sh {
				t.Errorf("%d² × %g m: the far corner at x %g is out of view at %v, %v", c.side, c.cell, x, farCorner.DstX, farCorner.DstY)
			}
		}
		if top := ray(sw/2, sh/10); c.sky && top[1] <= 0 {
			t.Errorf("%d² × %g m: the top tenth of the view looks down (%v), not at the sky", c.side, c.cell, top)
		}
	}
}

// TestWalkStandsOnTheDrawnTriangles walks over a map of ridges and
// valleys on every cell's diagonal, where the drawn triangles and the
// bilinear patch differ by half the vertical scale: the eye must stay
// EyeHeight above the triangle drawn under it (found by its plane through
// three corners, not by the code under test), never inside the ridge,
// and exactly there while it stands (it falls freely off a ridge).
func TestWalkStandsOnTheDrawnTriangles(t *testing.T) {
	const n = 17
	m := terrain.NewHeightmap(n, n)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			m.Set(x, y, float32((x+y)%2))
		}
	}
	m.VerticalScale = 20
	// drawn is the height of the triangle over (x, z): each cell is split
	// along its diagonal from (c+1, r) to (c, r+1).
	drawn := func(x, z float64) float64 {
		c, r := math.Floor(x), math.Floor(z)
		corner := func(dc, dr float64) [3]float64 {
			return [3]float64{c + dc, float64(m.At(int(c+dc), int(r+dr))) * m.VerticalScale, r + dr}
		}
		p, q, s := corner(1, 0), corner(0, 1), corner(0, 0)
		if (x-c)+(z-r) > 1 {
			s = corner(1, 1)
		}
		// The plane through p, q, s: solve for y at (x, z).
		ux, uy, uz := q[0]-p[0], q[1]-p[1], q[2]-p[2]
		vx, vy, vz := s[0]-p[0], s[1]-p[1], s[2]-p[2]
		nx, ny, nz := uy*vz-uz*vy, uz*vx-ux*vz, ux*vy-uy*vx
		return p[1] - (nx*(x-p[0])+nz*(z-p[2]))/ny
	}
	c := NewCamera()
	c.Pos = mgl32.Vec3{2.3, 0, 2.1}
	c.Yaw = 0.3
	c.SetMode(Walk, m)
	worst := 0.0
	for i := 0; i < 240; i++ {
		c.Step(Input{Forward: 1}, 1.0/60, m)
		x, z := float64(c.Pos[0]), float64(c.Pos[2])
		want := drawn(x, z) + EyeHeight
		if d := math.Abs(float64(c.Pos[1]) - want); c.grounded && d > worst {
			worst = d
		}
		if float64(c.Pos[1]) < want-1e-3 {
			t.Fatalf("tick %d at (%.2f, %.2f): eye %.3f under the drawn ground %.3f + eye height", i, x, z, c.Pos[1], drawn(x, z))
		}
	}
	if worst > 1e-3 {
		t.Errorf("a grounded walker's eye strays up to %.3f from the drawn ground + eye height", worst)
	}
	if c.Pos[0] < 8 {
		t.Errorf("walked to x=%v in four seconds", c.Pos[0])
	}
}

// TestFlyingKeepsAboveTheLandBeyond flies low beyond the map's edge
// through the land drawn there: the camera must stay above that land
// (Outside.GroundHeight), not only above the map's nearest edge sample.
func TestFlyingKeepsAboveTheLandBeyond(t *testing.T) {
	world := beyondWorld(t)
	m := world.Map
	w, _ := m.Extent()
	c := NewCamera()
	c.Beyond, c.BeyondLevel = world.Outside, 0
	c.Speed = float32(w / 10)
	c.Yaw, c.Pitch = 0, 0 // east, level
	lifted := 0
	for _, z := range []float64{0.2 * w, 0.5 * w, 0.8 * w} {
		c.Pos = mgl32.Vec3{float32(1.02 * w), float32(m.GroundHeight(w, z)), float32(z)}
		for i := 0; i < 120; i++ { // two seconds east, away from the map
			c.Step(Input{Forward: 1}, 1.0/60, m)
			x := float64(c.Pos[0])
			ground := world.Outside.GroundHeight(x, z, 0)
			if float64(c.Pos[1]) < ground+float64(c.Near)*4-1e-3 {
				t.Fatalf("at x %.0f z %.0f: camera %.2f under the land beyond %.2f + clearance", x, z, c.Pos[1], ground)
			}
			if ground > m.GroundHeight(w, z)+float64(c.Near)*4 {
				lifted++
			}
		}
	}
	if lifted == 0 {
		t.Fatal("the flight never met land beyond higher than the map's edge: the test checks nothing")
	}
}

// lodSurface is a level-of-detail selection as a DrawnSurface.
type lodSurface struct {
	m     *terrain.Heightmap
	draws []mesh.ChunkDraw
}

func (s lodSurface) DrawnHeight(m *terrain.Heightmap, x, z float64) (float64, bool) {
	if m != s.m {
		return 0, false
	}
	return mesh.DrawnHeight(s.draws, m.CellSize, x, z)
}

// TestWalkStandsOnTheLODTriangles walks out of the eye's chunk (step 1,
// its borders stitched onto coarser neighbours) into a coarse one, on a
// rough map whose triangle budget coarsens all but the eye's chunk: the
// grounded eye must stay EyeHeight above the triangles drawn at that
// level of detail (mesh.DrawnHeight, checked against the triangles
// themselves in terrain/mesh), where the finest mesh lies metres off.
// (Seen failing while the walker stood on the finest mesh: 3.27 m off.)
func TestWalkStandsOnTheLODTriangles(t *testing.T) {
	p := terrain.DefaultParams()
	p.Size = 257
	m, err := terrain.Generate(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	m.CellSize, m.VerticalScale = 8, 600
	l := mesh.NewLOD(m, 32)
	c := NewCamera()
	c.Pos = mgl32.Vec3{1000, 0, 1000}
	c.Yaw, c.Pitch = 0, -0.3
	c.SetMode(Walk, m)
	vp := viewProjection(c, 320, 240)
	v := mesh.View{
		Eye:           [3]float64{float64(c.Pos[0]), float64(c.Pos[1]), float64(c.Pos[2])},
		Planes:        mesh.FrustumPlanes([16]float32(vp)),
		PixelsPerUnit: 240 / (2 * math.Tan(float64(c.FovY)/2)),
		MaxErrorPx:    2,
		MaxTriangles:  4000,
	}
	surface := lodSurface{m: m, draws: l.Select(v, nil)}
	c.Surface = surface
	c.SetMode(Walk, m)
	worst, apart := 0.0, 0.0
	for i := 0; i < 600; i++ { // ten seconds east, 40 m, across a chunk's border
		c.Step(Input{Forward: 1}, 1.0/60, m)
		x, z := float64(c.Pos[0]), float64(c.Pos[2])
		drawn, ok := surface.DrawnHeight(m, x, z)
		if !ok {
			t.Fatalf("walked off the selection at (%.1f, %.1f)", x, z)
		}
		apart = max(apart, math.Abs(drawn-meshHeight(m, x, z)))
		if c.grounded {
			worst = max(worst, math.Abs(float64(c.Pos[1])-EyeHeight-drawn))
		}
	}
	t.Logf("the drawn triangles lie up to %.2f m from the finest mesh on the way; the eye strays %.3g m", apart, worst)
	if apart < 0.5 {
		t.Fatalf("the walk never met coarse triangles (%.2f m from the finest mesh): the test checks nothing", apart)
	}
	if worst > 1e-3 {
		t.Errorf("a grounded walker's eye strays up to %.3f m from the drawn triangles + eye height", worst)
	}
}
