package game

import (
	"image"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// edgeView is a game whose frame shows one straight, slanted silhouette
// against the sky: a flat-coloured ramp rising along x, unlit, seen from
// in front of the map from below its top and looking up, so that its
// near edge y = slope·x climbs across the sky and the horizon lies below
// the frame.
func edgeView(t *testing.T, antialias bool) *Game {
	t.Helper()
	const size, vs = 129, 60
	g := newTestGame(t, NewWorld(ramp(size, vs)))
	onLoop(func() { g.render.setAtlas(flatAtlas()) })
	v := &g.View
	v.DetailMaps, v.Shadows, v.Occlusion, v.Lighting = false, false, false, false
	v.Texturing, v.MaterialCount = ByHeight, 1
	v.Antialias = antialias
	v.Continue = false // the ridge against the sky, no land beyond behind it
	g.Camera.Mode = Fly
	g.Camera.Pos = mgl32.Vec3{90, 0.3 * vs, -50}
	g.Camera.Yaw, g.Camera.Pitch = mgl32.DegToRad(90), mgl32.DegToRad(35)
	return g
}

// edgeMix classifies the silhouette's pixels column by column: the first
// pixel from the top that is not the sky's is split into its share t of
// the ground's colour (three rows further down) against the sky's, and
// counted as intermediate when 0.15 < t < 0.85. It returns the number of
// columns with an intermediate pixel and the number with a silhouette.
func edgeMix(full, sky *image.RGBA) (mixed, columns int) {
	b := full.Bounds()
	for x := b.Min.X + 4; x < b.Max.X-4; x++ {
		for y := b.Min.Y; y < b.Max.Y-4; y++ {
			p, s, gr := full.RGBAAt(x, y), sky.RGBAAt(x, y), full.RGBAAt(x, y+3)
			d := [3]float64{float64(p.R) - float64(s.R), float64(p.G) - float64(s.G), float64(p.B) - float64(s.B)}
			e := [3]float64{float64(gr.R) - float64(s.R), float64(gr.G) - float64(s.G), float64(gr.B) - float64(s.B)}
			if max(abs64(d[0]), abs64(d[1]), abs64(d[2])) <= 6 {
				continue // still the sky
			}
			ee := e[0]*e[0] + e[1]*e[1] + e[2]*e[2]
			if ee < 40*40 {
				break // no contrast here: not a silhouette against the sky
			}
			columns++
			if t := (d[0]*e[0] + d[1]*e[1] + d[2]*e[2]) / ee; t > 0.15 && t < 0.85 {
				mixed++
			}
			break
		}
	}
	return mixed, columns
}

// With anti-aliasing the slanted silhouette of a ridge against the sky is
// a ramp of intermediate colours; without it every pixel is either sky or
// ground (the stair steps that crawl as the camera moves).
func TestAntialiasSmoothsSilhouettes(t *testing.T) {
	needLoop(t)
	frac := map[bool]float64{}
	for _, aa := range []bool{false, true} {
		g := edgeView(t, aa)
		sky := renderFrame(g, true)
		full := renderFrame(g, false)
		mixed, columns := edgeMix(full, sky)
		if columns < testW/3 {
			t.Fatalf("antialias %v: a silhouette against the sky in only %d of %d columns: the view misses the ridge", aa, columns, testW)
		}
		frac[aa] = float64(mixed) / float64(columns)
		t.Logf("antialias %v: %d of %d silhouette columns have an intermediate pixel", aa, mixed, columns)
	}
	if frac[false] > 0.02 {
		t.Errorf("without anti-aliasing %.1f %% of the silhouette's pixels are mixed, want none", 100*frac[false])
	}
	if frac[true] < 0.3 {
		t.Errorf("with anti-aliasing only %.1f %% of the silhouette's pixels are mixed, want most", 100*frac[true])
	}
}

// BenchmarkFPS1025LookNoAA is BenchmarkFPS1025Look without the edge
// pass: the pass's cost is the difference of the two.
func BenchmarkFPS1025LookNoAA(b *testing.B) {
	benchmarkFPSLook(b, func(v *Viewer) { v.Water, v.Antialias = 0.25, false })
}

// BenchmarkFPS1025LookTiled is BenchmarkFPS1025Look with the textures'
// repeat not hidden: the second sampling's cost is the difference.
func BenchmarkFPS1025LookTiled(b *testing.B) {
	benchmarkFPSLook(b, func(v *Viewer) { v.Water, v.BreakTiling = 0.25, false })
}
