package game

import (
	"bytes"
	"math"
	"regexp"
	"testing"

	"cordillera/shaders"
	"cordillera/terrain/scatter"
	"github.com/go-gl/mathgl/mgl32"
)

// A plant's highlights roll off as the terrain's and the sky's do, the
// hue kept, instead of clipping channel by channel (at dusk a clipped
// tree in the sun's glow stood out whiter than the sky behind it). A
// conifer and a boulder, lit by a warm sun from behind the eye, are
// drawn once dim (every channel below the shoulder's knee) and once
// under four times the light: each solid pixel of the bright frame is
// the shoulder of four times the dim frame's linear colour, within a
// few levels. (Seen failing on the clipping shader: the bright tree's
// red and green sat at 255, tens of levels off.)
func TestScatterHighlightsRollOff(t *testing.T) {
	needLoop(t)
	cam := NewCamera()
	cam.Pos = mgl32.Vec3{100, 1.7, 128}
	for _, c := range []struct {
		name string
		pl   scatter.Plant
		sun  float32 // the dim frame's sun
	}{
		{"conifer", scatter.Plant{X: 125, Y: 0, Z: 128, Height: 14, Width: 6, Kind: scatter.Conifer, Rank: 0.01, Hash: 0x2468ace}, 12},
		{"boulder", scatter.Plant{X: 106, Y: 0, Z: 128, Height: 1.4, Width: 2, Kind: scatter.Rock, Rank: 0.01, Hash: 0x5a5a5a5a}, 3},
	} {
		frame := func(k float32) []uint8 {
			uni := map[string]any{"Lighting": float32(1), "Ambient": float32(0), "SkyColor": []float32{0, 0, 0},
				"SunColor": []float32{k * c.sun, k * c.sun * 0.7, k * c.sun * 0.4}, "SunDir": []float32{-0.8, 0.6, 0}}
			return renderOnePlant(t, c.pl, cam, uni).Pix
		}
		dim, bright := frame(1), frame(4)
		n, above, worst := 0, 0, 0.0
		var sum float64
		for i := 0; i < len(dim); i += 4 {
			if dim[i+3] < 255 || bright[i+3] < 255 {
				continue
			}
			var v rgbf
			for ch := range 3 {
				v[ch] = 4 * lin(dim[i+ch])
			}
			if max(v[0], v[1], v[2]) > 4*0.65 {
				continue // the dim frame itself near the knee
			}
			if max(v[0], v[1], v[2]) > 0.8 {
				above++
			}
			want := shoulder(v)
			for ch := range 3 {
				d := math.Abs(255*math.Pow(want[ch], 1/2.2) - float64(bright[i+ch]))
				sum += d
				worst = max(worst, d)
			}
			n++
		}
		t.Logf("%s: %d solid pixels, %d above the knee; bright frame off the roll-off by %.2f levels in the mean, %.1f at worst", c.name, n, above, sum/float64(3*max(n, 1)), worst)
		if above < 100 {
			t.Fatalf("%s: %d solid pixels above the knee; want a lit plant", c.name, above)
		}
		if mean := sum / float64(3*n); mean > 1.5 || worst > 8 {
			t.Errorf("%s: the bright frame is %.2f levels from the shoulder in the mean, %.1f at worst; want within 1.5 and 8", c.name, mean, worst)
		}
	}
}

// The scatter's copy of the shoulder is the terrain's, knee and body.
func TestScatterShoulderAlikeTerrain(t *testing.T) {
	body := regexp.MustCompile(`(?ms)^const shoulderKnee = [0-9.]+$|^func shoulder\(c vec3\) vec3 \{$.*?^\}$`)
	want := bytes.Join(body.FindAll(shaders.Terrain, -1), []byte("\n"))
	got := bytes.Join(body.FindAll(shaders.Scatter, -1), []byte("\n"))
	if len(want) == 0 || !bytes.Equal(got, want) {
		t.Errorf("scatter.kage's shoulder:\n%s\nwant terrain.kage's:\n%s", got, want)
	}
}
