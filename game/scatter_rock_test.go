package game

import (
	"image"
	"math"
	"testing"

	"cordillera/terrain"
	"cordillera/terrain/scatter"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/hajimehoshi/ebiten/v2"
)

// renderOnePlant draws plant pl on a flat map, seen by cam, onto a
// 320×240 image with uniforms uni (no air unless uni sets it), the way
// scatterView.draw paints the plants: its billboards and meshes only.
func renderOnePlant(t *testing.T, pl scatter.Plant, cam *Camera, uni map[string]any) *image.RGBA {
	return renderOnePlantAt(t, pl, cam, uni, 320, 240)
}

// renderOnePlantAt is renderOnePlant onto a w×h image.
func renderOnePlantAt(t *testing.T, pl scatter.Plant, cam *Camera, uni map[string]any, w, h int) *image.RGBA {
	t.Helper()
	m := terrain.NewHeightmap(65, 65)
	m.CellSize = 4
	var sv *scatterView
	var err error
	onLoop(func() { sv, err = newScatterView() })
	if err != nil {
		t.Fatal(err)
	}
	sv.set = oneTreeSet(m, pl)
	sun := uni["SunDir"].([]float32)
	sv.build(cam, w, h, m, [3]float32{sun[0], sun[1], sun[2]})
	u := map[string]any{"CameraPos": cam.Pos[:], "Gamma": float32(2.2), "FogHeight": float32(100),
		"SkyTint": []float32{1, 1, 1}, "AirSun": []float32{0, 0, 0}, "AirSky": []float32{0, 0, 0}, "BetaR": []float32{0, 0, 0}}
	for k, v := range uni {
		u[k] = v
	}
	var px *image.RGBA
	onLoop(func() {
		img := ebiten.NewImage(w, h)
		defer img.Deallocate()
		op := &ebiten.DrawTrianglesShaderOptions{Uniforms: u}
		op.Images[0], op.Images[1] = sv.albedo, sv.normal
		if len(sv.sprites.indices) > 0 {
			img.DrawTrianglesShader32(sv.sprites.vertices, sv.sprites.indices, sv.shader, op)
		}
		px = ScreenPixels(img)
	})
	return px
}

// lin is a display-referred 8-bit value in linear light (gamma 2.2).
func lin(v uint8) float64 { return math.Pow(float64(v)/255, 2.2) }

// A boulder is a body, not a card: seen from 25 m straight above, a rock
// 2 m across shows its top, at least three quarters of the area of a
// disc 1.3 m across at its distance; with the sun from +x, 40° up, its
// faces towards the sun are brighter than those away from it, as the
// ground's are; and it is the terrain's grey rock: its mean colour lit
// by the sun from straight above lies within 0.45–1.1 of the terrain's
// rock albedo on level ground under the same light, neither white nor
// tinted (red over blue as the albedo's, ±0.15). (Seen failing on the
// billboard stones: from straight above the card was not drawn at all,
// 0 pixels; seen from the side it covered 263 pixels where the mesh
// covers 983.)
func TestScatterRockIsABoulder(t *testing.T) {
	needLoop(t)
	pl := scatter.Plant{X: 128, Y: 0, Z: 128, Height: 1.4, Width: 2, Kind: scatter.Rock, Rank: 0.01, Hash: 0x5a5a5a5a}
	cam := NewCamera()
	cam.Pos = mgl32.Vec3{128, 25, 128}
	cam.Pitch = mgl32.DegToRad(-89.9)
	lit := map[string]any{"Lighting": float32(1), "Ambient": float32(0), "SunColor": []float32{1, 1, 1}, "SkyColor": []float32{0, 0, 0}}
	lit["SunDir"] = []float32{0, 1, 0}
	px := renderOnePlant(t, pl, cam, lit)
	covered := 0
	var sum [3]float64
	for i := 0; i < len(px.Pix); i += 4 {
		if px.Pix[i+3] > 128 {
			covered++
			for c := range 3 {
				sum[c] += lin(px.Pix[i+c])
			}
		}
	}
	focal := 120 / math.Tan(float64(cam.FovY)/2)
	disc := math.Pi * 0.65 * 0.65 * math.Pow(focal/(25-1.05), 2)
	t.Logf("from above: %d pixels, a 1.3 m disc %.0f", covered, disc)
	if float64(covered) < 0.75*disc {
		t.Fatalf("from above the rock covers %d pixels; want at least %.0f (three quarters of a 1.3 m disc)", covered, 0.75*disc)
	}
	for c := range 3 {
		sum[c] /= float64(covered)
	}
	for c := range 3 {
		if r := sum[c] / float64(rockAlbedo[c]); r < 0.45 || r > 1.1 {
			t.Errorf("channel %d: the rock's mean %.3f is %.2f of the terrain rock's %.3f; want 0.45–1.1", c, sum[c], r, rockAlbedo[c])
		}
	}
	if got, want := sum[0]/sum[2], float64(rockAlbedo[0]/rockAlbedo[2]); math.Abs(got-want) > 0.15 {
		t.Errorf("the rock's red over blue %.2f, the terrain rock's %.2f", got, want)
	}
	// The sun from +x: the half of the rock's pixels on the +x side of
	// its centre on screen (found by projecting) brighter than the other.
	lit["SunDir"] = []float32{0.766, 0.643, 0}
	px = renderOnePlant(t, pl, cam, lit)
	var sunSide, shadeSide []float64
	vp := viewProjection(cam, 320, 240)
	c0 := vp.Mul4x1(mgl32.Vec4{128, 1, 128, 1})
	c1 := vp.Mul4x1(mgl32.Vec4{129, 1, 128, 1})
	ax, ay := float64(c1[0]/c1[3]-c0[0]/c0[3]), -float64(c1[1]/c1[3]-c0[1]/c0[3]) // +x on screen
	cx, cy := (float64(c0[0]/c0[3])+1)*160, (1-float64(c0[1]/c0[3]))*120
	for y := range 240 {
		for x := range 320 {
			p := px.RGBAAt(x, y)
			if p.A < 200 {
				continue
			}
			v := lin(p.G)
			if (float64(x)+0.5-cx)*ax+(float64(y)+0.5-cy)*ay > 0 {
				sunSide = append(sunSide, v)
			} else {
				shadeSide = append(shadeSide, v)
			}
		}
	}
	mean := func(v []float64) float64 {
		s := 0.0
		for _, x := range v {
			s += x
		}
		return s / max(float64(len(v)), 1)
	}
	t.Logf("sun side %.4f (%d px), shade side %.4f (%d px)", mean(sunSide), len(sunSide), mean(shadeSide), len(shadeSide))
	if mean(sunSide) < 1.3*mean(shadeSide) {
		t.Errorf("the faces towards the sun %.4f, those away %.4f; want the sun side 1.3 times brighter", mean(sunSide), mean(shadeSide))
	}
}

// A stone is lit as the ground is: its faces turned from the sun get no
// sunlight, so with the sun on the horizon behind it and no sky light, a
// boulder seen from the side is black, not a grey card glowing on shaded
// grass; and it is darker where it meets the soil: unlit by the sun
// (Lighting off), its lowest fifth on screen is under 0.8 of its middle.
func TestScatterRockUnlitFromBehind(t *testing.T) {
	needLoop(t)
	pl := scatter.Plant{X: 128, Y: 0, Z: 128, Height: 1.4, Width: 2, Kind: scatter.Rock, Rank: 0.01, Hash: 0x1234567}
	cam := NewCamera()
	cam.Pos = mgl32.Vec3{120, 0.7, 128}
	uni := map[string]any{"Lighting": float32(1), "Ambient": float32(0), "SunColor": []float32{1, 1, 1}, "SkyColor": []float32{0, 0, 0},
		"SunDir": []float32{1, 0, 0}}
	px := renderOnePlant(t, pl, cam, uni)
	covered, lit, brightest := 0, 0, 0
	for i := 0; i < len(px.Pix); i += 4 {
		if px.Pix[i+3] < 200 {
			continue
		}
		covered++
		m := int(max(px.Pix[i], px.Pix[i+1], px.Pix[i+2]))
		brightest = max(brightest, m)
		if m > 2 {
			lit++
		}
	}
	t.Logf("backlit: %d of %d pixels over 2 of 255, the brightest %d", lit, covered, brightest)
	if covered < 500 {
		t.Fatalf("the rock covers %d pixels; want a boulder", covered)
	}
	if lit > covered/50 {
		t.Errorf("a stone lit from behind, no sky: %d of %d pixels over 2 of 255 (up to %d); want black", lit, covered, brightest)
	}
	uni["Lighting"] = float32(0)
	px = renderOnePlant(t, pl, cam, uni)
	y0, y1 := 240, -1
	for y := range 240 {
		for x := range 320 {
			if px.RGBAAt(x, y).A > 200 {
				y0, y1 = min(y0, y), max(y1, y)
			}
		}
	}
	band := func(a, b float64) float64 {
		s, n := 0.0, 0
		for y := y0 + int(a*float64(y1-y0)); y <= y0+int(b*float64(y1-y0)); y++ {
			for x := range 320 {
				if p := px.RGBAAt(x, y); p.A > 200 {
					s += lin(p.G)
					n++
				}
			}
		}
		return s / max(float64(n), 1)
	}
	low, mid := band(0.8, 1), band(0.4, 0.6)
	t.Logf("unlit: lowest fifth %.4f, middle %.4f", low, mid)
	if low > 0.8*mid {
		t.Errorf("the rock's foot %.4f against its middle %.4f; want it darker (under 0.8)", low, mid)
	}
}

// A rock's mesh stays within its triangle budget from any side: at most
// rockMaxTriangles[lod] triangles drawn, over every shape, 16 directions
// around it and three heights of the eye, on flat and on sloping ground.
func TestScatterRockTriangles(t *testing.T) {
	for _, slope := range []float32{0, 0.7} {
		m := terrain.NewHeightmap(65, 65)
		m.CellSize = 4
		for r := range 65 {
			for c := range 65 {
				m.Samples[r*65+c] = slope * float32(c) * 4
			}
		}
		m.VerticalScale = 1
		for lod, d := range []float32{20, 200} {
			most := 0
			for v := range uint8(rockShapes) {
				for k := range 16 {
					for _, up := range []float32{1, 10, 60} {
						a := 2 * math.Pi * float64(k) / 16
						pl := scatter.Plant{X: 128, Z: 128, Height: 2, Width: 3, Kind: scatter.Rock, Variant: v, Hash: uint32(k) * 0x9e3779b9}
						pl.Y = float32(m.GroundHeight(128, 128))
						cam := NewCamera()
						cam.Pos = mgl32.Vec3{128 - d*float32(math.Cos(a)), pl.Y + up, 128 - d*float32(math.Sin(a))}
						cam.Yaw = float32(a)
						cam.Pitch = -float32(math.Atan2(float64(up), float64(d)))
						s := &scatterView{}
						p := newProjector(viewProjection(cam, 640, 480), 640, 480, cam.Near)
						s.addRock(&p, m, cam.Pos, &pl, d, -math.MaxFloat32, 1)
						most = max(most, s.triangles())
					}
				}
			}
			t.Logf("slope %.1f, lod %d: at most %d triangles", slope, lod, most)
			if most == 0 || most > rockMaxTriangles[lod] {
				t.Errorf("slope %.1f, lod %d: a rock drew up to %d triangles; want 1–%d", slope, lod, most, rockMaxTriangles[lod])
			}
		}
	}
}
