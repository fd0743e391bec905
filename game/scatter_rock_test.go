package game

import (
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

// A stone is lit as the ground is: its faces turned from the sun get no
// sunlight (no light passes through rock, as it does through a crown),
// so with the sun low behind it and no sky light, a boulder is black,
// not a grey card glowing on shaded grass. The whole rock drawing at mip
// level 1 onto a 64×128 image, 20 m from the eye, no air; no pixel over
// 2 of 255. The same drawing lit as foliage (the stone flag off, as
// every stone was lit before) shows 20 % of its pixels over 2 of 255, up
// to 19, which the test logs.
func TestScatterRockUnlitFromBehind(t *testing.T) {
	needLoop(t)
	var sv *scatterView
	var err error
	onLoop(func() { sv, err = newScatterView() })
	if err != nil {
		t.Fatal(err)
	}
	o := scatterCellOrigin(rocks)
	uni := map[string]any{
		"CameraPos": []float32{0, 1, 0}, "SunDir": []float32{0.995, 0.1, 0},
		"SunColor": []float32{1, 1, 1}, "SkyColor": []float32{0, 0, 0},
		"Lighting": float32(1), "Ambient": float32(0), "Gamma": float32(1),
		"SkyTint": []float32{1, 1, 1}, "AirSun": []float32{0, 0, 0}, "AirSky": []float32{0, 0, 0},
		"BetaR": []float32{0, 0, 0}, "FogHeight": float32(100),
	}
	for _, rock := range []bool{true, false} {
		var lit, covered, brightest int
		onLoop(func() {
			img := ebiten.NewImage(64, 128)
			defer img.Deallocate()
			var vs [4]ebiten.Vertex
			for i, c := range [4][2]float32{{0, 0}, {1, 0}, {1, 1}, {0, 1}} {
				vs[i] = ebiten.Vertex{DstX: 64 * c[0], DstY: 128 * c[1],
					SrcX: float32(o.X) + 0.5 + (scatterCellW-1)*c[0], SrcY: float32(o.Y) + 0.5 + (scatterCellH-1)*c[1],
					ColorR: 1, ColorG: 1, ColorB: 1, ColorA: 4*1 + 1,
					Custom0: 20, Custom1: 1, Custom2: 0, Custom3: 1}
				if rock {
					vs[i].ColorA += 64
				}
			}
			op := &ebiten.DrawTrianglesShaderOptions{Uniforms: uni}
			op.Images[0], op.Images[1] = sv.albedo, sv.normal
			img.DrawTrianglesShader32(vs[:], []uint32{0, 1, 2, 0, 2, 3}, sv.shader, op)
			px := ScreenPixels(img)
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
		})
		t.Logf("stone %v: %d of %d covered pixels over 2 of 255, the brightest %d", rock, lit, covered, brightest)
		if covered < 500 {
			t.Fatalf("the rock covers %d pixels; want most of the image", covered)
		}
		if rock && lit > 0 {
			t.Errorf("a stone lit from behind, no sky: %d of %d pixels over 2 of 255 (up to %d); want black", lit, covered, brightest)
		}
	}
}
