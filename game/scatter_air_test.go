package game

import (
	"math"
	"testing"

	"cordillera/shaders"
	"github.com/hajimehoshi/ebiten/v2"
)

// terrainAir is terrain.kage's aerial perspective in Go: the light the air
// between eye and a ground point at world lays over that point (air()'s
// in-scattering times multipleScattering), for the uniforms u.
func terrainAir(t *testing.T, eye, world, sun [3]float64, u map[string][3]float64, betaM, fogBeta, fogBase, fogHeight float64) [3]float64 {
	t.Helper()
	konst := func(name string) float64 {
		v, ok := kageConst(shaders.Terrain, name)
		if !ok {
			t.Fatalf("terrain.kage has no const %s", name)
		}
		return v
	}
	rayleighScale, mieScale := konst("rayleighScale"), konst("mieScale")
	mieExt, mieG, earthR := 1/0.9, konst("mieG"), konst("earthRadius")
	thinAir, thickAir := konst("thinAir"), konst("thickAir")
	depth := func(h0, h1, d, scale float64) float64 {
		dh := h1 - h0
		if math.Abs(dh) < 1e-3*scale {
			return d * math.Exp(-0.5*(h0+h1)/scale)
		}
		return d * scale * (math.Exp(-h0/scale) - math.Exp(-h1/scale)) / dh
	}
	dx, dy, dz := world[0]-eye[0], world[1]-eye[1], world[2]-eye[2]
	d := math.Sqrt(dx*dx + dy*dy + dz*dz)
	h0, h1 := eye[1], world[1]-(dx*dx+dz*dz)/(2*earthR)
	tR, tM, tF := depth(h0, h1, d, rayleighScale), depth(h0, h1, d, mieScale), depth(h0-fogBase, h1-fogBase, d, fogHeight)
	mu := (dx*sun[0] + dy*sun[1] + dz*sun[2]) / d
	pR := 0.75 * (1 + mu*mu)
	g2 := mieG * mieG
	pM := (1 - g2) / math.Pow(max(1+g2-2*mieG*mu, 1e-4), 1.5)
	betaR := u["BetaR"]
	tg := betaR[1]*tR + mieExt*betaM*tM + fogBeta*tF
	ms := thinAir + (1-thinAir)*(1-math.Exp(-tg/thickAir))
	var in [3]float64
	for i := range 3 {
		sR, sM, sF := betaR[i]*tR, betaM*tM, fogBeta*tF
		ext := sR + mieExt*sM + sF
		src := sR*u["SkyTint"][i]*(u["AirSun"][i]*pR+u["AirSky"][i]) + sM*(u["AirSun"][i]*pM+u["AirSky"][i]) +
			sF*u["FogColor"][i]*(u["AirSun"][i]*(0.5+0.5*pM)+u["AirSky"][i])
		in[i] = src * (1 - math.Exp(-ext)) / max(ext, 1e-12) * ms
	}
	return in
}

// A black plant seen through the air shows only the air's light, and
// that light is the terrain's at the same distance, eye and sun
// (terrain.kage's aerial perspective, multiple scattering included): a
// tree never stands out paler than the hillside behind it. Checked at
// 150 m, 400 m and 1500 m in thin haze and in fog, with the sun behind
// the plant (backlight, where the forward scattering is strongest) and
// beside it. (Seen failing before the scatter shader took the terrain's
// multipleScattering: the plant's haze up to 2.3 times the ground's, 60
// levels of 255 paler.)
func TestScatterHazeMatchesTerrain(t *testing.T) {
	needLoop(t)
	u := map[string][3]float64{
		"BetaR": {5.8e-6, 13.5e-6, 33.1e-6}, "SkyTint": {1, 1, 1},
		"AirSun": {1.6, 1.45, 1.2}, "AirSky": {0.25, 0.32, 0.45}, "FogColor": {0.9, 0.92, 0.95},
	}
	type airCase struct {
		name             string
		dist, fogBeta    float64
		sun              [3]float64
		betaM, fogHeight float64
	}
	low := [3]float64{0.96, 0.14, 0.24} // low, nearly behind the plant
	side := [3]float64{0, 0.6, -0.8}    // high, to the side
	var cases []airCase
	for _, d := range []float64{150, 400, 1500} {
		cases = append(cases,
			airCase{"haze backlit", d, 0, low, 2e-5, 300},
			airCase{"fog backlit", d, 1.5e-3, low, 2e-5, 300},
			airCase{"fog side", d, 1.5e-3, side, 2e-5, 300})
	}
	var sv *scatterView
	var err error
	onLoop(func() { sv, err = newScatterView() })
	if err != nil {
		t.Fatal(err)
	}
	// A texel inside the first conifer's drawing at mip level 1, all its
	// neighbours wholly covering.
	a, _, _ := scatterAtlas()
	o := scatterCellOrigin(conifers)
	sx, sy := -1, -1
	for y := scatterCellH * 3 / 4; y > scatterCellH/4 && sx < 0; y -= 2 {
		x := scatterCellW / 2
		full := true
		for dy := -4; dy <= 4; dy++ {
			for dx := -4; dx <= 4; dx++ {
				if a.RGBAAt(o.X+x+dx, o.Y+y+dy).A < 255 {
					full = false
				}
			}
		}
		if full {
			sx, sy = o.X+x, o.Y+y
		}
	}
	if sx < 0 {
		t.Fatal("no wholly covered texel in the conifer's drawing")
	}
	eye := [3]float64{0, 30, 0}
	for _, c := range cases {
		world := [3]float64{c.dist, 20, 0}
		// Both shaders roll the hazed colour off above the knee.
		want := shoulder(terrainAir(t, eye, world, c.sun, u, c.betaM, c.fogBeta, 0, c.fogHeight))
		uni := map[string]any{
			"CameraPos": []float32{float32(eye[0]), float32(eye[1]), float32(eye[2])},
			"SunDir":    []float32{float32(c.sun[0]), float32(c.sun[1]), float32(c.sun[2])},
			"Gamma":     float32(1), "Lighting": float32(0),
			"BetaM": float32(c.betaM), "FogBeta": float32(c.fogBeta), "FogBase": float32(0), "FogHeight": float32(c.fogHeight),
		}
		for k, v := range u {
			uni[k] = []float32{float32(v[0]), float32(v[1]), float32(v[2])}
		}
		var got [4]uint8
		onLoop(func() {
			img := ebiten.NewImage(8, 8)
			defer img.Deallocate()
			var vs [4]ebiten.Vertex
			for i, p := range [4][2]float32{{0, 0}, {8, 0}, {8, 8}, {0, 8}} {
				vs[i] = ebiten.Vertex{DstX: p[0], DstY: p[1], SrcX: float32(sx) + 0.5*float32(i%2), SrcY: float32(sy),
					ColorA:  4*1 + 1, // level 1, opaque, black (no tint)
					Custom0: float32(world[0]), Custom1: float32(world[1]), Custom2: float32(world[2]), Custom3: 1}
			}
			op := &ebiten.DrawTrianglesShaderOptions{Uniforms: uni}
			op.Images[0], op.Images[1] = sv.albedo, sv.normal
			img.DrawTrianglesShader32(vs[:], []uint32{0, 1, 2, 0, 2, 3}, sv.shader, op)
			px := ScreenPixels(img).RGBAAt(4, 4)
			got = [4]uint8{px.R, px.G, px.B, px.A}
		})
		for i := range 3 {
			w := math.Min(want[i], 1) * 255
			if math.Abs(float64(got[i])-w) > 3 {
				t.Errorf("%s at %.0f m: the plant's air %v, the terrain's %.0f %.0f %.0f (of 255)", c.name, c.dist, got[:3], want[0]*255, want[1]*255, want[2]*255)
				break
			}
		}
	}
}
