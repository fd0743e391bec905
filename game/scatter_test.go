package game

import (
	"context"
	"image"
	"math"
	"os"
	"regexp"
	"strconv"
	"sync"
	"testing"

	"cordillera/shaders"
	"cordillera/terrain"
	"cordillera/terrain/scatter"
	"github.com/go-gl/mathgl/mgl32"
)

// alpineWorld is the default generator's map at an alpine scale, 20 km
// across with 2500 m of relief: with the default snow line it has a
// forest belt, a tree line at 900 m and ground far above it.
var alpineWorld = sync.OnceValues(func() (*World, error) {
	p := terrain.DefaultParams()
	p.Size = 257
	m, err := terrain.Generate(context.Background(), p, nil)
	if err != nil {
		return nil, err
	}
	m.CellSize, m.VerticalScale = 20480.0/256, 2500
	return NewWorld(m), nil
})

// scatterTestGame is a game on the alpine world, its light map and
// plants in place.
func scatterTestGame(t *testing.T) *Game {
	t.Helper()
	needLoop(t)
	w, err := alpineWorld()
	if err != nil {
		t.Fatal(err)
	}
	g := newTestGame(t, w)
	g.render.scatter.onlyTrees = true
	return g
}

// treeView finds where a walker sees the most trees 20–300 m ahead,
// looking along one of the map's axes, and puts g's camera there.
func treeView(g *Game, set *scatter.Set) {
	m := g.World.Map
	w, _ := m.Extent()
	best, bx, bz, byaw := -1, 0.0, 0.0, 0.0
	for z := 0.1 * w; z < 0.9*w; z += 0.02 * w {
		for x := 0.1 * w; x < 0.9*w; x += 0.02 * w {
			for _, yaw := range []float64{0, 90, 180, 270} {
				dx, dz := math.Cos(yaw*math.Pi/180), math.Sin(yaw*math.Pi/180)
				n := 0
				for _, pl := range set.Plants {
					px, pz := float64(pl.X)-x, float64(pl.Z)-z
					along := px*dx + pz*dz
					if pl.Kind != scatter.Rock && along > 20 && along < 300 && math.Abs(px*dz-pz*dx) < 0.4*along {
						n++
					}
				}
				if n > best {
					best, bx, bz, byaw = n, x, z, yaw
				}
			}
		}
	}
	c := g.Camera
	c.Pos = mgl32.Vec3{float32(bx), float32(m.GroundHeight(bx, bz)) + EyeHeight, float32(bz)}
	c.Yaw, c.Pitch = mgl32.DegToRad(float32(byaw)), mgl32.DegToRad(-4)
}

// treePixels counts the pixels of on that differ from off and show
// foliage or bark: darker than the sky, green or brown, not grey.
func treePixels(on, off *image.RGBA) (n int) {
	b := on.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			i := on.PixOffset(x, y)
			r, g, bl := int(on.Pix[i]), int(on.Pix[i+1]), int(on.Pix[i+2])
			d := max(abs(r-int(off.Pix[i])), abs(g-int(off.Pix[i+1])), abs(bl-int(off.Pix[i+2])))
			if d > 12 && bl < g && (g > r || r-bl > 10) && r+g+bl < 3*200 {
				n++
			}
		}
	}
	return n
}

// With the scatter on, a walker in the forest belt sees trees: a good
// share of the frame turns to foliage and bark. (Seen failing before the
// scatter: no pixel changed.)
func TestScatterTreesInForestBelt(t *testing.T) {
	g := scatterTestGame(t)
	set := waitScatter(t, g)
	treeView(g, set)
	g.View.Scatter = false
	off := renderFrame(g, false)
	g.View.Scatter = true
	on := renderFrame(g, false)
	n := treePixels(on, off)
	t.Logf("%d tree pixels of %d", n, testW*testH)
	if n < testW*testH/50 {
		t.Errorf("a walker in the forest belt sees %d tree pixels; want at least 2 %% of the frame", n)
	}
}

// Above the tree line no tree is drawn: looking down on ground that lies
// wholly above it, the frame with the trees on equals the frame with them
// off.
func TestScatterNoTreesAboveTreeLine(t *testing.T) {
	g := scatterTestGame(t)
	set := waitScatter(t, g)
	m := g.World.Map
	line := scatter.TreeLine(scatterSnowLine(g.World, &g.View))
	// The highest ground: a summit far above the tree line.
	top, tx, tz := -1.0, 0.0, 0.0
	w, _ := m.Extent()
	for z := 0.05 * w; z < 0.95*w; z += 0.01 * w {
		for x := 0.05 * w; x < 0.95*w; x += 0.01 * w {
			if y := m.GroundHeight(x, z); y > top {
				top, tx, tz = y, x, z
			}
		}
	}
	if top < line+600 {
		t.Fatalf("the test map's summit (%.0f m) is not far above the tree line (%.0f m)", top, line)
	}
	// Looking down from 60 m above it, the view reaches only a few
	// hundred metres.
	g.Camera.Pos = mgl32.Vec3{float32(tx), float32(top) + 60, float32(tz)}
	g.Camera.Yaw, g.Camera.Pitch = 0, mgl32.DegToRad(-60)
	near := 0
	for _, pl := range set.Plants {
		if pl.Kind != scatter.Rock && math.Hypot(float64(pl.X)-tx, float64(pl.Z)-tz) < 500 {
			near++
		}
	}
	if near != 0 {
		t.Fatalf("the placement has %d trees within 500 m of the summit", near)
	}
	g.View.Scatter = false
	off := renderFrame(g, false)
	g.View.Scatter = true
	on := renderFrame(g, false)
	if n, total := differing(on, off, on.Bounds(), 0); n != 0 {
		t.Errorf("above the tree line %d of %d pixels changed with the trees on; want none", n, total)
	}
}

// With the scatter off the frame is the frame without it: the renderer
// with no scatter at all draws the same pixels.
func TestScatterOffFrameUnchanged(t *testing.T) {
	g := scatterTestGame(t)
	waitScatter(t, g)
	treeView(g, g.render.scatter.set)
	g.View.Scatter = false
	off := renderFrame(g, false)
	keep := g.render.scatter
	g.render.scatter = nil
	none := renderFrame(g, false)
	g.render.scatter = keep
	if n, total := differing(off, none, off.Bounds(), 0); n != 0 {
		t.Errorf("with the scatter off %d of %d pixels differ from a frame without it", n, total)
	}
}

// waitScatter renders until g's plants are placed and returns them.
func waitScatter(t *testing.T, g *Game) *scatter.Set {
	t.Helper()
	waitLight(t, g)
	var set *scatter.Set
	onLoop(func() { set = g.render.scatter.set })
	if set == nil || len(set.Plants) == 0 {
		t.Fatal("no plants were placed")
	}
	return set
}

// The shader's atlas layout is the Go drawings'.
func TestScatterAtlasLayout(t *testing.T) {
	for name, v := range map[string]float64{"cellW": scatterCellW, "cellH": scatterCellH, "blockW": scatterBlockW, "maxLevel": scatterLevels - 1} {
		if got, ok := kageConst(shaders.Scatter, name); !ok || got != v {
			t.Errorf("scatter.kage: const %s = %v (found %v), want %v", name, got, ok, v)
		}
	}
}

// Every drawing of a kind differs from the others: the trees and rocks
// are not all alike.
func TestScatterDrawingsDiffer(t *testing.T) {
	albedo, _, _ := scatterAtlas()
	for kind := 0; kind < blobCell; kind += drawings {
		for a := kind; a < kind+drawings; a++ {
			for b := a + 1; b < kind+drawings; b++ {
				oa, ob := scatterCellOrigin(a), scatterCellOrigin(b)
				diff := 0
				for y := range scatterCellH {
					for x := range scatterCellW {
						if albedo.RGBAAt(oa.X+x, oa.Y+y).A != albedo.RGBAAt(ob.X+x, ob.Y+y).A {
							diff++
						}
					}
				}
				if diff < scatterCellW*scatterCellH/50 {
					t.Errorf("drawings %d and %d differ in %d texels' coverage only", a, b, diff)
				}
			}
		}
	}
}

// kageConst is the value of `const name = value` in a Kage source.
func kageConst(src []byte, name string) (float64, bool) {
	m := regexp.MustCompile(`(?m)^const ` + name + ` = ([0-9.]+)`).FindSubmatch(src)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(m[1]), 64)
	return v, err == nil
}

// BenchmarkFPS1025Forest is BenchmarkFPS1025Look's frame in a forest:
// the default map at an alpine scale (20 km, 2500 m), a walker in a
// wooded valley of the belt looking across it at the slopes. SCATTER=off
// draws it without the trees, to compare side by side.
func BenchmarkFPS1025Forest(b *testing.B) {
	needLoop(b)
	p := terrain.DefaultParams()
	m, err := terrain.Generate(context.Background(), p, nil)
	if err != nil {
		b.Fatal(err)
	}
	m.CellSize, m.VerticalScale = 20, 2500
	g := newTestGame(b, NewWorld(m))
	g.View.Scatter = os.Getenv("SCATTER") != "off"
	c := g.Camera
	c.Pos = mgl32.Vec3{6500, float32(m.GroundHeight(6500, 11000)) + EyeHeight, 11000}
	c.Yaw, c.Pitch = mgl32.DegToRad(180), mgl32.DegToRad(4)
	benchmarkWindowFrames(b, g)
	b.ReportMetric(float64(g.render.scatter.triangles()), "scatter-triangles")
}

// BenchmarkScatterBuild is the CPU's work for a frame's plants when the
// camera moves: choosing them, the ground in front of each, their quads.
// The views: a walker in the forest (alpine-scale 1025² map) and the
// same map from 300 m above the belt.
func BenchmarkScatterBuild(b *testing.B) {
	p := terrain.DefaultParams()
	m, err := terrain.Generate(context.Background(), p, nil)
	if err != nil {
		b.Fatal(err)
	}
	m.CellSize, m.VerticalScale = 20, 2500
	normals := terrain.Normals(m)
	set, err := scatter.Place(context.Background(), m, normals, scatter.Rules{SnowLine: 0.62 * 2500, Seed: scatterSeed})
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		above float32
		pitch float32
	}{{"walk", EyeHeight, 4}, {"air300", 300, -20}} {
		b.Run(tc.name, func(b *testing.B) {
			s := &scatterView{set: set}
			cam := &Camera{FovY: defaultFovY, Near: nearDefault, Far: 1e5, Yaw: mgl32.DegToRad(180), Pitch: mgl32.DegToRad(tc.pitch)}
			cam.Pos = mgl32.Vec3{6500, float32(m.GroundHeight(6500, 11000)) + tc.above, 11000}
			for i := 0; i < b.N; i++ {
				cam.Pos[0] += 0.01 // a moving camera: nothing kept
				s.build(cam, ScreenWidth, ScreenHeight, m, [3]float32{0.7, 0.57, 0.4})
			}
			b.ReportMetric(float64(s.triangles()), "triangles")
			b.ReportMetric(float64(len(s.items)), "chosen")
		})
	}
}

// The default world, 200 m of hills, is lowland under the climate's snow
// line: its plants include trees, every one below the tree line, and the
// tree line lies above its highest hill. (Seen failing before the tree
// line was a height in metres: the viewer's snow line, clamped to 1.2 of
// the height range, put the tree line 410 m under the map's zero and
// not one tree stood on the default world.)
func TestScatterDefaultWorldHasTrees(t *testing.T) {
	world := testWorld(t, 1025)
	v := DefaultViewer()
	v.SnowLine = metricSnowLine(world.Map)
	k := scatterKeyOf(world, &v)
	set, err := scatter.Place(context.Background(), world.Map, world.Normals, scatterRules(k, &v))
	if err != nil {
		t.Fatal(err)
	}
	line := scatter.TreeLine(float64(k.snowLine))
	trees := 0
	for _, pl := range set.Plants {
		if pl.Kind == scatter.Rock {
			continue
		}
		trees++
		if float64(pl.Y) > line {
			t.Fatalf("a tree at %.0f m, above the tree line at %.0f m", pl.Y, line)
		}
	}
	t.Logf("%d trees; tree line %.0f m on a world %.0f m high", trees, line, world.Map.VerticalScale)
	if line < world.Map.VerticalScale {
		t.Errorf("the tree line at %.0f m lies below the default world's top (%.0f m)", line, world.Map.VerticalScale)
	}
	if trees < 1000 {
		t.Errorf("the default world has %d trees; want a forest (1000 at least)", trees)
	}
}

// A tree's crown is solid: inside its silhouette (texels 3 or more from
// any texel of air) every texel of level 0 covers at least 0.6, which the
// shader draws wholly opaque close up, so that no ground shows through a
// crown at 5–20 m. The drawing's trapezoid (tops) holds every texel.
// (Seen failing on the drawings with gaps inside the crown: 5 % of each
// conifer's inside under 0.6.)
func TestScatterCrownsSolid(t *testing.T) {
	albedo, _, tops := scatterAtlas()
	const w, h = scatterCellW, scatterCellH
	for k := conifers; k < blobCell; k++ {
		o := scatterCellOrigin(k)
		cover := func(x, y int) float64 {
			if x < 0 || y < 0 || x >= w || y >= h {
				return 0
			}
			return float64(albedo.RGBAAt(o.X+x, o.Y+y).A) / 255
		}
		inside, thin := 0, 0
		for y := range h {
			for x := range w {
				if cover(x, y) > 0.004 {
					// The trapezoid from the cell's bottom edge to its top
					// edge of half-width tops[k]·w/2.
					f := float64(y) / h
					half := (float64(tops[k]) + (1-float64(tops[k]))*f) * w / 2
					if math.Abs(float64(x)+0.5-w/2) > half+0.5 {
						t.Fatalf("drawing %d: texel (%d, %d) lies outside its trapezoid", k, x, y)
					}
				}
				solid := true
				for dy := -3; dy <= 3 && solid; dy++ {
					for dx := -3; dx <= 3; dx++ {
						if cover(x+dx, y+dy) < 0.05 {
							solid = false
							break
						}
					}
				}
				if solid {
					inside++
					if cover(x, y) < 0.6 {
						thin++
					}
				}
			}
		}
		if inside == 0 || thin > inside/100 {
			t.Errorf("drawing %d: %d of %d texels inside the crown cover under 0.6", k, thin, inside)
		}
	}
}
