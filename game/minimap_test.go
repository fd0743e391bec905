package game

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"math"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/hajimehoshi/ebiten/v2"

	"cordillera/terrain"
)

// minimapTestMap is a 257×129 map with 2-unit cells (extent 512×256) of
// gentle hills with a plateau in its north-west corner.
func minimapTestMap() *terrain.Heightmap {
	m := terrain.NewHeightmap(257, 129)
	m.CellSize, m.VerticalScale = 2, 100
	for row := range m.Height {
		for col := range m.Width {
			h := 0.35 + 0.15*math.Sin(float64(col)/13)*math.Cos(float64(row)/9)
			if col < 60 && row < 30 {
				h = 0.9
			}
			m.Set(col, row, float32(h))
		}
	}
	return m
}

func TestMinimapRect(t *testing.T) {
	square := terrain.NewHeightmap(65, 65)
	wide := terrain.NewHeightmap(129, 65)
	tall := terrain.NewHeightmap(33, 65)
	for _, tc := range []struct {
		name   string
		m      *terrain.Heightmap
		size   int
		sw, sh int
		want   image.Rectangle
	}{
		{"square, room to spare", square, 200, 1280, 720, image.Rect(1070, 510, 1270, 710)},
		{"square, a third of 480", square, 200, 640, 480, image.Rect(470, 310, 630, 470)},
		{"wide", wide, 200, 1280, 720, image.Rect(1070, 610, 1270, 710)},
		{"tall", tall, 200, 1280, 720, image.Rect(1170, 510, 1270, 710)},
		{"default size", square, 0, 1920, 1080, image.Rect(1710, 870, 1910, 1070)},
		{"screen too small", square, 200, 2, 2, image.Rectangle{}},
	} {
		if got := NewMinimap(tc.m, tc.size).Rect(image.Rect(0, 0, tc.sw, tc.sh)); got != tc.want {
			t.Errorf("%s: Rect(%d, %d) = %v, want %v", tc.name, tc.sw, tc.sh, got, tc.want)
		}
	}
}

// WorldAt gives the world point under a pixel's centre, and MapToScreen
// takes it back there; a world point goes to a pixel whose centre is
// within half a pixel of it.
func TestMinimapWorldAtInvertsMapToScreen(t *testing.T) {
	m := minimapTestMap()
	mm := NewMinimap(m, 160)
	for _, s := range [][2]int{{640, 480}, {1280, 720}, {300, 200}} {
		sw, sh := s[0], s[1]
		r := mm.Rect(image.Rect(0, 0, sw, sh))
		for py := r.Min.Y - 1; py <= r.Max.Y; py++ {
			for px := r.Min.X - 1; px <= r.Max.X; px++ {
				x, z, ok := mm.WorldAt(px, py, image.Rect(0, 0, sw, sh))
				if in := image.Pt(px, py).In(r); ok != in {
					t.Fatalf("%v: WorldAt(%d, %d) ok = %v, want %v (Rect %v)", s, px, py, ok, in, r)
				}
				if !ok {
					continue
				}
				bx, by := mm.MapToScreen(x, z, image.Rect(0, 0, sw, sh))
				if math.Abs(bx-(float64(px)+0.5)) > 1e-9 || math.Abs(by-(float64(py)+0.5)) > 1e-9 {
					t.Fatalf("%v: MapToScreen(WorldAt(%d, %d)) = (%v, %v), want the pixel's centre", s, px, py, bx, by)
				}
			}
		}
		ew, ed := m.Extent()
		cellX, cellZ := ew/float64(r.Dx()), ed/float64(r.Dy()) // world size of a pixel
		for _, p := range [][2]float64{{0.3, 0.3}, {100, 17}, {511.7, 255.9}, {256, 128}, {1, 250}} {
			px, py := mm.MapToScreen(p[0], p[1], image.Rect(0, 0, sw, sh))
			x, z, ok := mm.WorldAt(int(math.Floor(px)), int(math.Floor(py)), image.Rect(0, 0, sw, sh))
			if !ok || math.Abs(x-p[0]) > cellX/2+1e-9 || math.Abs(z-p[1]) > cellZ/2+1e-9 {
				t.Errorf("%v: WorldAt(MapToScreen(%v)) = (%v, %v, %v), want within half a pixel", s, p, x, z, ok)
			}
		}
	}
}

// The minimap shows north (row 0, z = 0) at the top and west (x = 0) at
// the left: world z grows downward on it.
func TestMinimapCorners(t *testing.T) {
	m := minimapTestMap()
	mm := NewMinimap(m, 160)
	const sw, sh = 640, 480
	r := mm.Rect(image.Rect(0, 0, sw, sh))
	ew, ed := m.Extent()
	for _, tc := range []struct {
		name   string
		x, z   float64
		px, py int
	}{
		{"north-west", 0, 0, r.Min.X, r.Min.Y},
		{"north-east", ew, 0, r.Max.X, r.Min.Y},
		{"south-west", 0, ed, r.Min.X, r.Max.Y},
		{"south-east", ew, ed, r.Max.X, r.Max.Y},
	} {
		px, py := mm.MapToScreen(tc.x, tc.z, image.Rect(0, 0, sw, sh))
		if px != float64(tc.px) || py != float64(tc.py) {
			t.Errorf("%s corner (%v, %v): MapToScreen = (%v, %v), want (%d, %d)", tc.name, tc.x, tc.z, px, py, tc.px, tc.py)
		}
		// The pixel inside Rect at that corner holds the corner's world point.
		ix, iy := min(tc.px, r.Max.X-1), min(tc.py, r.Max.Y-1)
		x, z, ok := mm.WorldAt(ix, iy, image.Rect(0, 0, sw, sh))
		if !ok || math.Abs(x-tc.x) > ew/float64(r.Dx()) || math.Abs(z-tc.z) > ed/float64(r.Dy()) {
			t.Errorf("%s corner: WorldAt(%d, %d) = (%v, %v, %v), want near (%v, %v)", tc.name, ix, iy, x, z, ok, tc.x, tc.z)
		}
	}
}

func TestTeleport(t *testing.T) {
	m := minimapTestMap()
	ew, ed := m.Extent()
	least := minTeleportClearance * max(ew, ed)
	for _, tc := range []struct {
		name      string
		mode      Mode
		from      mgl32.Vec3
		x, z      float64 // where the click asks for
		wantX     float64 // where the camera lands, x and z
		wantZ     float64
		clearance float64 // wanted height above the ground there
	}{
		{"fly, high", Fly, mgl32.Vec3{100, 0, 100}, 400, 50, 400, 50, 80},
		{"fly, just above", Fly, mgl32.Vec3{100, 0, 100}, 20, 200, 20, 200, least},
		{"fly, below ground", Fly, mgl32.Vec3{300, 0, 40}, 250, 250, 250, 250, least},
		{"fly, from off the map", Fly, mgl32.Vec3{-300, 0, 900}, 10, 10, 10, 10, 80},
		{"fly, click off the map", Fly, mgl32.Vec3{100, 0, 100}, 600, -5, ew, 0, 80},
		{"walk", Walk, mgl32.Vec3{100, 0, 100}, 300, 120, 300, 120, EyeHeight},
	} {
		cam := NewCamera()
		cam.Pos = tc.from
		ground := m.GroundHeight(float64(tc.from[0]), float64(tc.from[2]))
		switch tc.name {
		case "fly, high", "fly, from off the map", "fly, click off the map":
			cam.Pos[1] = float32(ground + 80)
		case "fly, just above":
			cam.Pos[1] = float32(ground + 1)
		case "fly, below ground":
			cam.Pos[1] = float32(ground - 10)
		}
		cam.SetMode(tc.mode, m)
		cam.Yaw, cam.Pitch = 1.1, -0.3
		Teleport(cam, m, tc.x, tc.z)
		if cam.Yaw != 1.1 || cam.Pitch != -0.3 || cam.Mode != tc.mode {
			t.Errorf("%s: yaw %v pitch %v mode %v, want 1.1, -0.3, %v unchanged", tc.name, cam.Yaw, cam.Pitch, cam.Mode, tc.mode)
		}
		wantY := m.GroundHeight(tc.wantX, tc.wantZ) + tc.clearance
		if math.Abs(float64(cam.Pos[0])-tc.wantX) > 1e-3 || math.Abs(float64(cam.Pos[2])-tc.wantZ) > 1e-3 ||
			math.Abs(float64(cam.Pos[1])-wantY) > 1e-3 {
			t.Errorf("%s: camera at %v, want (%v, %v, %v)", tc.name, cam.Pos, tc.wantX, wantY, tc.wantZ)
		}
	}
}

func TestClipSegment(t *testing.T) {
	for _, tc := range []struct {
		in, want [4]float64
		ok       bool
	}{
		{[4]float64{1, 1, 3, 2}, [4]float64{1, 1, 3, 2}, true},            // inside
		{[4]float64{5, 5, 15, 5}, [4]float64{5, 5, 10, 5}, true},          // leaves on the right
		{[4]float64{-5, 5, 15, 5}, [4]float64{0, 5, 10, 5}, true},         // crosses
		{[4]float64{5, -10, 5, 20}, [4]float64{5, 0, 5, 10}, true},        // vertical
		{[4]float64{-2, 8, 2, 12}, [4]float64{0, 10, 0, 10}, true},        // touches a corner
		{[4]float64{11, 0, 20, 10}, [4]float64{}, false},                  // right of it
		{[4]float64{-5, 20, 20, 12}, [4]float64{}, false},                 // below it
		{[4]float64{12, 3, 12, 3}, [4]float64{}, false},                   // a point outside
		{[4]float64{5, 5, 5000, 5001}, [4]float64{5, 5, 9.998, 10}, true}, // long ray
	} {
		got, ok := clipSegment(tc.in, 0, 0, 10, 10)
		near := true
		for i := range got {
			near = near && math.Abs(got[i]-tc.want[i]) < 1e-3
		}
		if ok != tc.ok || (ok && !near) {
			t.Errorf("clip %v = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// The wedge's far edge lies at the far plane, or beyond the map when the
// far plane is farther than the map's farthest corner.
func TestMinimapFrustumTop(t *testing.T) {
	m := minimapTestMap() // extent 512×256
	mm := NewMinimap(m, 160)
	cam := NewCamera()
	cam.Pos = mgl32.Vec3{256, 100, 128}
	const aspect = 4.0 / 3
	tanHalf := aspect * math.Tan(float64(cam.FovY)/2)

	if got := mm.frustumTop(cam, aspect); len(got) != 2 {
		t.Errorf("far plane beyond the map: %d segments %v, want the two side edges only", len(got), got)
	}
	cam.Far = 50
	got := mm.frustumTop(cam, aspect)
	if len(got) != 3 {
		t.Fatalf("far plane at 50: %d segments %v, want 3", len(got), got)
	}
	want := [4]float64{306, 128 - 50*tanHalf, 306, 128 + 50*tanHalf} // yaw 0 looks along +x
	for i := range want {
		if math.Abs(got[2][i]-want[i]) > 1e-3 {
			t.Fatalf("far edge %v, want %v", got[2], want)
		}
	}
}

// drawMinimapFrame draws mm on a testW×testH image cleared to bg and reads it back.
func drawMinimapFrame(mm *Minimap, cam *Camera, bg color.Color) *image.RGBA {
	var img *image.RGBA
	onLoop(func() {
		screen := ebiten.NewImage(testW, testH)
		defer screen.Deallocate()
		screen.Fill(bg)
		mm.Draw(screen, cam, image.Rect(0, 0, testW, testH))
		img = ScreenPixels(screen)
	})
	return img
}

// colourDistance is the largest difference of the RGB channels.
func colourDistance(a, b color.RGBA) int {
	d := 0
	for _, p := range [][2]uint8{{a.R, b.R}, {a.G, b.G}, {a.B, b.B}} {
		d = max(d, int(max(p[0], p[1])-min(p[0], p[1])))
	}
	return d
}

func TestMinimapPixels(t *testing.T) {
	needLoop(t)
	m := minimapTestMap()
	mm := NewMinimap(m, 160)
	defer onLoop(mm.Deallocate)
	bg := color.RGBA{20, 40, 90, 255}
	r := mm.Rect(image.Rect(0, 0, testW, testH))
	if r.Dx() != 160 || r.Dy() != 80 {
		t.Fatalf("Rect %v: want 160×80 for a 2:1 map on %d×%d", r, testW, testH)
	}
	plain := drawMinimapFrame(mm, nil, bg)

	// The relief fills Rect at 1:1, inside a 1-pixel frame on the background.
	for y := r.Min.Y - 2; y < r.Max.Y+2; y++ {
		for x := r.Min.X - 2; x < r.Max.X+2; x++ {
			got := plain.RGBAAt(x, y)
			inFrame := image.Pt(x, y).In(r.Inset(-1))
			var want color.RGBA
			switch {
			case image.Pt(x, y).In(r):
				want = mm.relief.RGBAAt(x-r.Min.X, y-r.Min.Y)
			case inFrame:
				want = minimapFrame
			default:
				want = bg
			}
			if colourDistance(got, want) > 1 {
				t.Fatalf("relief only: pixel (%d, %d) = %v, want %v (Rect %v)", x, y, got, want, r)
			}
		}
	}

	// A minimap asked larger than the screen allows is redrawn at Rect's
	// size, pixel for pixel, not blurred.
	big := NewMinimap(m, 400)
	defer onLoop(big.Deallocate)
	if got := big.Rect(image.Rect(0, 0, testW, testH)); got != r {
		t.Fatalf("Rect of a 400-pixel minimap = %v, want %v", got, r)
	}
	if img := drawMinimapFrame(big, nil, bg); !bytes.Equal(img.Pix, plain.Pix) {
		t.Error("a 400-pixel minimap shrunk to 160 differs from a 160-pixel one")
	}

	cam := NewCamera()
	cam.Pos = mgl32.Vec3{200, 150, 120}
	cam.Yaw = mgl32.DegToRad(30)
	withCam := drawMinimapFrame(mm, cam, bg)

	// The dot: the pixel under the camera has the dot's colour.
	cx, cy := mm.MapToScreen(float64(cam.Pos[0]), float64(cam.Pos[2]), image.Rect(0, 0, testW, testH))
	if got := withCam.RGBAAt(int(cx), int(cy)); colourDistance(got, minimapDot) > 2 {
		t.Errorf("camera pixel (%d, %d) = %v, want the dot's %v", int(cx), int(cy), got, minimapDot)
	}

	// The frustum: pixels along both side edges, past the dot, differ from
	// the relief; pixels behind the camera do not.
	aspect := float64(testW) / float64(testH)
	half := math.Atan(aspect * math.Tan(float64(cam.FovY)/2))
	pixelWorld := 512.0 / float64(r.Dx())
	at := func(angle, pixels float64) image.Point {
		d := pixels * pixelWorld
		px, py := mm.MapToScreen(float64(cam.Pos[0])+d*math.Cos(angle), float64(cam.Pos[2])+d*math.Sin(angle), image.Rect(0, 0, testW, testH))
		return image.Pt(int(px), int(py))
	}
	yaw := float64(cam.Yaw)
	for _, side := range []float64{-1, 1} {
		for pixels := 8.0; pixels <= 30; pixels += 2 {
			p := at(yaw+side*half, pixels)
			if !p.In(r) {
				t.Fatalf("test set-up: frustum point %v off the minimap %v", p, r)
			}
			if d := colourDistance(withCam.RGBAAt(p.X, p.Y), plain.RGBAAt(p.X, p.Y)); d < 40 {
				t.Errorf("frustum edge %+.0f at %v px: pixel %v = %v, relief %v; want the line drawn", side, pixels, p,
					withCam.RGBAAt(p.X, p.Y), plain.RGBAAt(p.X, p.Y))
			}
		}
	}
	for pixels := 8.0; pixels <= 30; pixels += 2 {
		p := at(yaw+math.Pi, pixels)
		if got, want := withCam.RGBAAt(p.X, p.Y), plain.RGBAAt(p.X, p.Y); colourDistance(got, want) > 1 {
			t.Errorf("behind the camera at %v px: pixel %v = %v, want the relief's %v", pixels, p, got, want)
		}
	}

	// A camera off the map looking away from it leaves the relief as it is.
	away := NewCamera()
	away.Pos = mgl32.Vec3{-100, 50, 128}
	away.Yaw = math.Pi
	if img := drawMinimapFrame(mm, away, bg); !bytes.Equal(img.Pix, plain.Pix) {
		t.Error("a camera off the map looking away changed the minimap")
	}
}

// The minimap shows the ground below the water level as water, and only
// that ground.
func TestMinimapShowsWater(t *testing.T) {
	const size = 65
	m := terrain.NewHeightmap(size, size)
	for r := 0; r < size; r++ {
		for c := 0; c < size; c++ {
			m.Set(c, r, float32(c)/(size-1)) // rising to the east
		}
	}
	mm := NewMinimap(m, size)
	mm.SetWater(0.5)
	img := mm.shown()
	for y := 0; y < img.Bounds().Dy(); y += 8 {
		for x := 0; x < img.Bounds().Dx(); x++ {
			c := img.RGBAAt(x, y)
			wet := c.B > c.R+40
			if h := float32(x) / (size - 1); wet != (h < 0.5) {
				t.Fatalf("pixel (%d, %d) over height %.2f is %v: water %v, want %v", x, y, h, c, wet, h < 0.5)
			}
		}
	}
	mm.SetWater(0)
	if c := mm.shown().RGBAAt(2, 2); c.B > c.R+40 {
		t.Errorf("with no water the minimap still shows water: %v", c)
	}
}

// beyondMinimap is the minimap of a 129² fBm map (cell size 2, extent
// 256) with the land beyond it, its square 96 pixels on the 144-pixel
// minimap: 24 pixels of margin on each side on a 640×480 screen.
func beyondMinimap(t *testing.T) (*Minimap, *terrain.Heightmap, *terrain.Overview) {
	t.Helper()
	p := terrain.DefaultParams()
	p.Size, p.CellSize = 129, 2
	m, err := terrain.Generate(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	ov, err := terrain.NewOverview(context.Background(), p, m, beyondMargin, 64)
	if err != nil {
		t.Fatal(err)
	}
	return NewMinimap(m, 96).withBeyond(ov), m, ov
}

// With the land beyond the map the minimap grows by half, the map's
// square keeps its size in the middle, and WorldAt and MapToScreen stay
// exact inverses over all of it, the margin included.
func TestMinimapBeyondMapsTheMargin(t *testing.T) {
	mm, m, _ := beyondMinimap(t)
	ew, ed := m.Extent()
	if r := mm.Rect(image.Rect(0, 0, testW, testH)); r != image.Rect(640-10-144, 480-10-144, 630, 470) {
		t.Fatalf("Rect %v, want 144×144 in the corner", r)
	}
	r := mm.Rect(image.Rect(0, 0, testW, testH))
	for _, c := range []struct{ x, z, px, py float64 }{
		{0, 0, float64(r.Min.X + 24), float64(r.Min.Y + 24)},
		{ew, ed, float64(r.Min.X + 120), float64(r.Min.Y + 120)},
		{-ew / 4, -ed / 4, float64(r.Min.X), float64(r.Min.Y)},
		{1.25 * ew, 1.25 * ed, float64(r.Max.X), float64(r.Max.Y)},
	} {
		if px, py := mm.MapToScreen(c.x, c.z, image.Rect(0, 0, testW, testH)); math.Abs(px-c.px) > 1e-9 || math.Abs(py-c.py) > 1e-9 {
			t.Errorf("MapToScreen(%v, %v) = (%v, %v), want (%v, %v)", c.x, c.z, px, py, c.px, c.py)
		}
	}
	for _, s := range [][2]int{{640, 480}, {1280, 720}, {300, 200}} {
		sw, sh := s[0], s[1]
		r := mm.Rect(image.Rect(0, 0, sw, sh))
		margin := 0
		for py := r.Min.Y - 1; py <= r.Max.Y; py++ {
			for px := r.Min.X - 1; px <= r.Max.X; px++ {
				x, z, ok := mm.WorldAt(px, py, image.Rect(0, 0, sw, sh))
				if in := image.Pt(px, py).In(r); ok != in {
					t.Fatalf("%v: WorldAt(%d, %d) ok = %v, want %v (Rect %v)", s, px, py, ok, in, r)
				}
				if !ok {
					continue
				}
				if x < 0 || z < 0 || x > ew || z > ed {
					margin++
				}
				bx, by := mm.MapToScreen(x, z, image.Rect(0, 0, sw, sh))
				if math.Abs(bx-(float64(px)+0.5)) > 1e-9 || math.Abs(by-(float64(py)+0.5)) > 1e-9 {
					t.Fatalf("%v: MapToScreen(WorldAt(%d, %d)) = (%v, %v), want the pixel's centre", s, px, py, bx, by)
				}
			}
		}
		if want := r.Dx() * r.Dy() * 5 / 9; margin < want-2*r.Dx() || margin > want+2*r.Dx() {
			t.Errorf("%v: %d pixels beyond the map, want about 5/9 of %d", s, margin, r.Dx()*r.Dy())
		}
		// The scale bar's scale is the minimap's: a metre spans
		// PixelsPerMetre pixels, here 144 pixels for 1.5 map widths.
		ppm := mm.PixelsPerMetre(image.Rect(0, 0, sw, sh))
		a, _ := mm.MapToScreen(10, 0, image.Rect(0, 0, sw, sh))
		b, _ := mm.MapToScreen(110, 0, image.Rect(0, 0, sw, sh))
		if math.Abs(ppm*100-(b-a)) > 1e-9 || math.Abs(ppm-float64(r.Dx())/(1.5*ew)) > 1e-9 {
			t.Errorf("%v: %v pixels per metre, but 100 m span %v pixels", s, ppm, b-a)
		}
	}
	// Turned off, the minimap is the map's square alone again.
	mm.ShowBeyond(false)
	if r := mm.Rect(image.Rect(0, 0, testW, testH)); r != image.Rect(640-10-96, 480-10-96, 630, 470) {
		t.Errorf("land beyond off: Rect %v, want the 96-pixel square", r)
	}
	if ppm := mm.PixelsPerMetre(image.Rect(0, 0, testW, testH)); math.Abs(ppm-96/ew) > 1e-12 {
		t.Errorf("land beyond off: %v pixels per metre, want %v", ppm, 96/ew)
	}
}

// A click in the margin carries a flying camera there, at its height
// above the land beyond the map; a walking one lands on the map's edge;
// with the land beyond turned off a flying one does too.
func TestMinimapBeyondTeleport(t *testing.T) {
	mm, m, ov := beyondMinimap(t)
	ew, _ := m.Extent()
	r := mm.Rect(image.Rect(0, 0, testW, testH))
	px, py := r.Min.X+5, r.Min.Y+60 // west of the map, beside its north half
	x, z, ok := mm.WorldAt(px, py, image.Rect(0, 0, testW, testH))
	if !ok || x >= 0 || z <= 0 || z >= ew {
		t.Fatalf("test set-up: pixel (%d, %d) is world (%v, %v, %v), want west of the map", px, py, x, z, ok)
	}
	c := ov.Corner(m)
	beyondGround := ov.Map.GroundHeight(x-c, z-c)

	fly := NewCamera()
	fly.Pos = mgl32.Vec3{100, float32(m.GroundHeight(100, 100) + 60), 100}
	mm.Teleport(fly, x, z)
	if math.Abs(float64(fly.Pos[0])-x) > 1e-3 || math.Abs(float64(fly.Pos[2])-z) > 1e-3 ||
		math.Abs(float64(fly.Pos[1])-(beyondGround+60)) > 1e-3 {
		t.Errorf("flying: camera at %v, want (%v, %v, %v): 60 above the land beyond", fly.Pos, x, beyondGround+60, z)
	}

	walk := NewCamera()
	walk.Pos = mgl32.Vec3{100, 0, 100}
	walk.SetMode(Walk, m)
	mm.Teleport(walk, x, z)
	if walk.Pos[0] != 0 || math.Abs(float64(walk.Pos[2])-z) > 1e-3 ||
		math.Abs(float64(walk.Pos[1])-(float64(walk.groundAt(m))+EyeHeight)) > 1e-3 {
		t.Errorf("walking: camera at %v, want on the map's west edge at z %v", walk.Pos, z)
	}

	mm.ShowBeyond(false)
	off := NewCamera()
	off.Pos = mgl32.Vec3{100, float32(m.GroundHeight(100, 100) + 60), 100}
	mm.Teleport(off, x, z)
	if off.Pos[0] != 0 {
		t.Errorf("land beyond off: flying camera at %v, want on the map's west edge", off.Pos)
	}
}

// The margin shows water below the water level like the map does; an
// erosion overlay tints the map's square only.
func TestMinimapBeyondWaterAndOverlay(t *testing.T) {
	mm, m, ov := beyondMinimap(t)
	src := ov.Map
	sorted := slices.Clone(src.Samples)
	slices.Sort(sorted)
	mm.SetWater(sorted[len(sorted)/2])
	img := mm.shown()
	b := img.Bounds()
	wetBeyond, dryBeyond := 0, 0
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			h := src.At(min((2*x+1)*src.Width/(2*b.Dx()), src.Width-1), min((2*y+1)*src.Height/(2*b.Dy()), src.Height-1))
			c := img.RGBAAt(x, y)
			wet := int(c.B) > int(c.R)+40
			if wet != (h < mm.water) {
				t.Fatalf("pixel (%d, %d) over height %.3f: water %v, want %v (%v, level %v)", x, y, h, wet, h < mm.water, c, mm.water)
			}
			if x < 20 || y < 20 || x >= 124 || y >= 124 {
				if wet {
					wetBeyond++
				} else {
					dryBeyond++
				}
			}
		}
	}
	if wetBeyond == 0 || dryBeyond == 0 {
		t.Errorf("beyond the map %d pixels wet and %d dry: want both", wetBeyond, dryBeyond)
	}

	mm.SetWater(0)
	mask := terrain.NewHeightmap(m.Width, m.Height)
	for k := range mask.Samples {
		mask.Samples[k] = 1
	}
	tint := color.RGBA{255, 0, 0, 255}
	mm.SetOverlay("flow", mask, tint)
	img = mm.shown()
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			got, relief := img.RGBAAt(x, y), mm.beyondRelief.RGBAAt(x, y)
			on := x >= 24 && x < 120 && y >= 24 && y < 120 // the square's pixels
			if tinted := colourDistance(got, relief) > 0; tinted != on && (x != 23 && x != 120 && y != 23 && y != 120) {
				t.Fatalf("overlay at (%d, %d): tinted %v, want %v (the square only)", x, y, tinted, on)
			}
		}
	}
}

// The map's square is framed by a light line on the pixels just outside
// it over a dark band one pixel wider on each side; the relief shows
// unchanged elsewhere; the wedge reaches into the margin. Turned off, the
// minimap draws exactly what a minimap without land beyond draws.
func TestMinimapBeyondPixels(t *testing.T) {
	needLoop(t)
	mm, m, _ := beyondMinimap(t)
	defer onLoop(mm.Deallocate)
	bg := color.RGBA{20, 40, 90, 255}
	r := mm.Rect(image.Rect(0, 0, testW, testH))
	img := drawMinimapFrame(mm, nil, bg)
	sq := image.Rect(r.Min.X+24, r.Min.Y+24, r.Min.X+120, r.Min.Y+120) // the square's pixels
	light, dark := sq.Inset(-1), sq.Inset(-2)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			p := image.Pt(x, y)
			got, relief := img.RGBAAt(x, y), mm.beyondRelief.RGBAAt(x-r.Min.X, y-r.Min.Y)
			switch {
			case p.In(light) && !p.In(sq): // the light line
				if colourDistance(got, minimapSquare) > 2 {
					t.Fatalf("frame pixel (%d, %d) = %v, want the light line %v", x, y, got, minimapSquare)
				}
			case p.In(dark) && !p.In(sq.Inset(1)): // the dark band either side of it
				if lum(got) > 0.5*lum(relief)+1 {
					t.Fatalf("pixel (%d, %d) beside the frame = %v over relief %v: want darkened", x, y, got, relief)
				}
			default:
				if colourDistance(got, relief) > 1 {
					t.Fatalf("pixel (%d, %d) = %v, want the relief's %v (Rect %v, square %v)", x, y, got, relief, r, sq)
				}
			}
		}
	}

	// The camera in the square looking west: the wedge goes on over the
	// margin beyond the map's west edge.
	cam := NewCamera()
	cam.Pos = mgl32.Vec3{60, 200, 128}
	cam.Yaw = math.Pi
	withCam := drawMinimapFrame(mm, cam, bg)
	aspect := float64(testW) / float64(testH)
	half := math.Atan(aspect * math.Tan(float64(cam.FovY)/2))
	drawn := 0
	for d := 70.0; d < 120; d += 5 { // x from −10 to −60: the margin
		for _, side := range []float64{-1, 1} {
			a := float64(cam.Yaw) + side*half
			wx, wz := 60+d/math.Cos(half)*math.Cos(a), 128+d/math.Cos(half)*math.Sin(a)
			px, py := mm.MapToScreen(wx, wz, image.Rect(0, 0, testW, testH))
			p := image.Pt(int(px), int(py))
			if !p.In(r) || p.In(dark) {
				continue
			}
			if colourDistance(withCam.RGBAAt(p.X, p.Y), img.RGBAAt(p.X, p.Y)) >= 40 {
				drawn++
			}
		}
	}
	if drawn < 10 {
		t.Errorf("only %d points of the wedge's side edges in the margin drawn, want them all (about 20)", drawn)
	}

	// Off: the very pixels of a minimap that never had land beyond.
	mm.ShowBeyond(false)
	plain := NewMinimap(m, 96)
	defer onLoop(plain.Deallocate)
	for _, c := range []*Camera{nil, cam} {
		if a, b := drawMinimapFrame(mm, c, bg), drawMinimapFrame(plain, c, bg); !bytes.Equal(a.Pix, b.Pix) {
			t.Error("with the land beyond off the minimap differs from one without it")
		}
	}
}

// lum is a colour's brightness, the mean of its channels.
func lum(c color.RGBA) float64 { return (float64(c.R) + float64(c.G) + float64(c.B)) / 3 }

// AddOutside gives the minimap of a noise world the land beyond its map,
// on a minimap of its own (worlds that share one keep theirs), and none to
// a subdivision world.
func TestAddOutsideGivesTheMinimapTheLandBeyond(t *testing.T) {
	base := presetWorld(t, "default")
	mm := beyondWorld(t).Minimap
	if mm == base.Minimap || base.Minimap.beyond != nil {
		t.Fatal("AddOutside changed the minimap of the world it copied")
	}
	if mm.beyond == nil || !mm.beyondShown() || mm.beyondRelief == nil {
		t.Fatal("the default world's minimap has no land beyond")
	}
	last := base.Map.Width - 1
	if got := mm.beyond.Step * (mm.beyond.Map.Width - 1 - 2*mm.beyond.Margin); got != last {
		t.Errorf("the overview spans %d map samples across the square, want %d", got, last)
	}
	if share := float64(mm.beyond.Margin*mm.beyond.Step) / float64(last); math.Abs(share-beyondMargin) > 0.01 {
		t.Errorf("margin %v of the map's side, want %v", share, beyondMargin)
	}
	sub := *base
	q, _ := terrain.PresetParams("diamond-square")
	AddOutside(context.Background(), &sub, q)
	if sub.Minimap.beyond != nil {
		t.Error("a diamond-square world's minimap shows land beyond the map")
	}
}
