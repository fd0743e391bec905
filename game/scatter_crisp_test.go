package game

import (
	"math"
	"testing"

	"cordillera/terrain/scatter"
	"github.com/go-gl/mathgl/mgl32"
)

// A broadleaf tree 20 m from a walker, 15 m tall, at 1280×720, reads as
// a tree, not a blurred ball: inside its crown neighbouring pixels
// differ (leaves and the gaps between clusters), a mean step of at
// least 0.006 in linear green between a pixel and the one beside it over
// the crown's covered pixels; and the crown has holes: at least 4 % of
// the pixels inside the crown's outline (covered rows, between the
// first and last covered pixel of each) are sky. (Seen failing on the
// old drawings of smooth clumps at 128×256 texels: a mean step of 0.0029
// and 0.18 % of holes; the new drawings give 0.0082 and 15.6 %.)
func TestScatterNearTreeCrisp(t *testing.T) {
	needLoop(t)
	uni := map[string]any{"Lighting": float32(1), "Ambient": float32(1), "SunColor": []float32{2.5, 2.4, 2.2}, "SkyColor": []float32{0.25, 0.3, 0.4},
		"SunDir": []float32{-0.5, 0.7, 0.5}}
	cam := NewCamera()
	cam.Pos = mgl32.Vec3{108, EyeHeight, 128}
	cam.Pitch = mgl32.DegToRad(15)
	var steps, holes, inside, covered float64
	for v := range uint8(4) {
		pl := scatter.Plant{X: 128, Y: 0, Z: 128, Height: 15, Width: 12, Kind: scatter.Broadleaf, Variant: v, Rank: 0.01}
		px := renderOnePlantAt(t, pl, cam, uni, 1280, 720)
		for y := range 720 {
			x0, x1 := -1, -1
			for x := range 1280 {
				if px.Pix[y*px.Stride+4*x+3] > 200 {
					if x0 < 0 {
						x0 = x
					}
					x1 = x
				}
			}
			for x := x0; x >= 0 && x <= x1; x++ {
				inside++
				k := y*px.Stride + 4*x
				if px.Pix[k+3] < 30 {
					holes++
					continue
				}
				if px.Pix[k+3] > 200 && px.Pix[k+7] > 200 && x < x1 {
					covered++
					steps += math.Abs(lin(px.Pix[k+1]) - lin(px.Pix[k+5]))
				}
			}
		}
	}
	step, hole := steps/max(covered, 1), holes/max(inside, 1)
	t.Logf("mean step %.4f over %.0f pixels; holes %.2f %% of %.0f", step, covered, 100*hole, inside)
	if covered < 1e5 {
		t.Fatalf("the trees cover %.0f pixels; want four trees filling much of the frame", covered)
	}
	if step < 0.006 {
		t.Errorf("the crown's mean step between neighbouring pixels %.4f; want at least 0.006 (leaves, not a blur)", step)
	}
	if hole < 0.04 {
		t.Errorf("%.2f %% of the crown's outline is sky; want at least 4 %% (gaps between clusters)", 100*hole)
	}
}
