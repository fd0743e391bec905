package game

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"cordillera/terrain"
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
