package game

import (
	"image"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/hajimehoshi/ebiten/v2"

	"cordillera/internal/zbuffer"
)

// The size the pinhole test renders at: cracks between triangles are
// sub-pixel, so a large frame shows more of them.
const pinholeW, pinholeH = 1280, 720

// renderView draws the sky and the terrain of g's world for camera c into
// a w×h image, with the frame f built for it, and reads both back: the
// full frame and the sky alone.
func renderView(g *Game, c *Camera, f *frame, w, h int) (full, sky *image.RGBA) {
	onLoop(func() {
		sky = drawFrame(g, c, &frame{}, w, h)
		f.build(c, w, h, g.World.Map, g.World.LOD, g.World.Normals, false, g.View.DetailDist)
		full = drawFrame(g, c, f, w, h)
	})
	return full, sky
}

// drawFrame draws the built frame f of g's world for camera c into a w×h
// image and reads it back; it runs on the loop's thread.
func drawFrame(g *Game, c *Camera, f *frame, w, h int) *image.RGBA {
	img := ebiten.NewImage(w, h)
	defer img.Deallocate()
	g.render.draw(img, c, &g.View, g.World, f)
	return ScreenPixels(img)
}

// inside reports whether pixel (x, y) lies well inside the terrain the
// z-buffer sees: it and every pixel within two of it are covered, so
// silhouettes, where the GPU and the reference may round differently,
// do not count, while a crack the reference shares (it rasterizes the
// same triangles) is still caught by its covered neighbours: at most one
// uncovered pixel in the 5×5 window is allowed.
func inside(z *zbuffer.Raster, x, y int) bool {
	if x < 2 || y < 2 || x >= z.W-2 || y >= z.H-2 {
		return false
	}
	holes := 0
	for dy := -2; dy <= 2; dy++ {
		for dx := -2; dx <= 2; dx++ {
			if z.ID[(y+dy)*z.W+x+dx] == zbuffer.Empty {
				holes++
			}
		}
	}
	return holes <= 1
}

// skyPinholes returns the pixels inside the terrain that show the sky: a
// pixel of the sky's colour (within 2 levels) where the ground around it
// (the mean of the 8 pixels 3 away) is not. A crack or a pinhole is a
// pixel or a thin line of them in ground of another colour; where the
// ground around is itself within 16 levels of the sky behind it (snow in
// the near-white haze of a view straight down), a pixel of the sky's
// colour is the ground's own, and a crack there could not be seen.
func skyPinholes(full, sky *image.RGBA, z *zbuffer.Raster) []image.Point {
	const reach, tell = 3, 16
	var holes []image.Point
	for y := 0; y < z.H; y++ {
		for x := 0; x < z.W; x++ {
			if !inside(z, x, y) {
				continue
			}
			i := full.PixOffset(x, y)
			same := true
			for c := 0; c < 3; c++ {
				if d := int(full.Pix[i+c]) - int(sky.Pix[i+c]); d > 2 || d < -2 {
					same = false
				}
			}
			if same && groundTellsFromSky(full, sky, x, y, reach, tell) {
				holes = append(holes, image.Pt(x, y))
			}
		}
	}
	return holes
}

// groundTellsFromSky reports whether the mean colour of the pixels reach
// away from (x, y) (those in the frame) differs from the sky at (x, y) by
// more than tell levels in some channel.
func groundTellsFromSky(full, sky *image.RGBA, x, y, reach, tell int) bool {
	var sum [3]int
	n := 0
	b := full.Bounds()
	for dy := -reach; dy <= reach; dy += reach {
		for dx := -reach; dx <= reach; dx += reach {
			p := image.Pt(x+dx, y+dy)
			if (dx == 0 && dy == 0) || !p.In(b) {
				continue
			}
			j := full.PixOffset(p.X, p.Y)
			for c := range sum {
				sum[c] += int(full.Pix[j+c])
			}
			n++
		}
	}
	if n == 0 {
		return true
	}
	i := sky.PixOffset(x, y)
	for c := range sum {
		if d := sum[c]/n - int(sky.Pix[i+c]); d > tell || d < -tell {
			return true
		}
	}
	return false
}

// No sky shows through solid terrain: over the 27 cameras of the draw
// order test at 1280×720, every pixel that a CPU z-buffer of the
// submitted triangles finds well inside the terrain is drawn in another
// colour than the sky behind it. Cracks along shared chunk edges, at
// T-junctions between levels of detail and where the near plane cuts
// triangles show up here as single sky-coloured pixels. The frames are
// the wireframe test's (testViewChecks), drawn without fog and without
// the land beyond the map, which could otherwise cover a crack.
func TestNoSkyPinholes(t *testing.T) {
	for _, v := range testViewChecks(t) {
		if v.covered < pinholeW*pinholeH/20 {
			t.Errorf("%s %+v: only %d pixels of terrain; the view misses the map", v.preset, v.pose, v.covered)
		}
		if len(v.holes) > 0 {
			t.Errorf("%s %+v: %d sky pixels inside the terrain, first at %v", v.preset, v.pose, len(v.holes), v.holes[:min(len(v.holes), 8)])
		}
	}
}

// Two triangles that share an edge crossing the near plane walk it in
// opposite directions; both must cut it at the same screen point, to the
// bit, or a crack opens along the bottom of the screen when walking.
func TestNearPlaneCutsAgree(t *testing.T) {
	c := NewCamera()
	c.Pos = mgl32.Vec3{0, 1.7, 0}
	c.Pitch = mgl32.DegToRad(-20)
	p := newProjector(viewProjection(c, pinholeW, pinholeH), pinholeW, pinholeH, c.Near)
	rng := rand.New(rand.NewPCG(1, 2))
	pt := func(forward float32) surfaceVertex {
		return surfaceVertex{pos: mgl32.Vec3{rng.Float32()*4 - 2, rng.Float32() - 0.5, 0}.Add(c.Forward().Mul(forward)), normal: mgl32.Vec3{0, 1, 0}}
	}
	differ, compared := 0, 0
	for range 2000 {
		front, back := pt(0.5+rng.Float32()*3), pt(-rng.Float32()*2)
		a, b := pt(2*rng.Float32()-1), pt(2*rng.Float32()-1)
		wf, wb := p.clipW(front.pos), p.clipW(back.pos)
		if wf < p.near || wb >= p.near {
			continue
		}
		cut := func(v [3]surfaceVertex) (ebiten.Vertex, bool) {
			var d drawCall
			d.clipTriangle(&p, v, [3]float32{p.clipW(v[0].pos), p.clipW(v[1].pos), p.clipW(v[2].pos)})
			// The cut on the shared edge is the vertex nearest its line.
			best, bestD := ebiten.Vertex{}, float32(math.Inf(1))
			dir := back.pos.Sub(front.pos).Normalize()
			for _, x := range d.vertices {
				q := mgl32.Vec3{x.Custom0 / x.Custom3, x.Custom1 / x.Custom3, x.Custom2 / x.Custom3}.Sub(front.pos)
				if q.Len() < 1e-4 {
					continue // the front vertex itself
				}
				if dist := q.Sub(dir.Mul(q.Dot(dir))).Len(); dist < bestD {
					best, bestD = x, dist
				}
			}
			return best, bestD < 1e-3
		}
		x, ok1 := cut([3]surfaceVertex{front, back, a})
		y, ok2 := cut([3]surfaceVertex{back, front, b})
		if !ok1 || !ok2 {
			continue
		}
		compared++
		if x.DstX != y.DstX || x.DstY != y.DstY {
			differ++
		}
	}
	if compared < 200 {
		t.Fatalf("only %d shared edges crossed the near plane", compared)
	}
	if differ > 0 {
		t.Errorf("%d of %d shared edges cut at different screen points by their two triangles", differ, compared)
	}
}
