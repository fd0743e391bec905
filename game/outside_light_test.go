package game

import (
	"context"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"cordillera/terrain"
)

// generatedWorldBeyond is the default preset's world made at size, with
// the land beyond its map.
func generatedWorldBeyond(tb testing.TB, size int) *World {
	tb.Helper()
	p, err := terrain.PresetParams("default")
	if err != nil {
		tb.Fatal(err)
	}
	p.Size = size
	m, err := terrain.Generate(context.Background(), p, nil)
	if err != nil {
		tb.Fatal(err)
	}
	w := NewWorld(m)
	AddOutside(context.Background(), w, p)
	if w.Outside == nil {
		tb.Fatal("the default world has no land beyond it")
	}
	return w
}

// beyondWorld is the default preset's world with the land beyond its map.
func beyondWorld(t *testing.T) *World {
	t.Helper()
	base := presetWorld(t, "default")
	p, err := terrain.PresetParams("default")
	if err != nil {
		t.Fatal(err)
	}
	p.Size, p.CellSize = base.Map.Width, base.Map.CellSize
	w := *base
	AddOutside(context.Background(), &w, p)
	if w.Outside == nil {
		t.Fatal("the default world has no land beyond it")
	}
	return &w
}

// The coarse light grid spans the land beyond from its first line to its
// last, and its heights are the map's on the map's square and the land
// beyond's at the map's sample spacing (FineHeight) beyond it.
func TestOutsideLightGrid(t *testing.T) {
	w := beyondWorld(t)
	m, o := w.Map, w.Outside
	const level, side = -3, 97
	g, hm := outsideLightGrid(m, o, level, side)
	cs := o.CellSize
	ew, ed := m.Extent()
	r := lightReach * max(ew, ed)
	c0, r0, c1, _ := o.Bounds()
	x0, z0 := max(float64(c0)*cs, -r), max(float64(r0)*cs, -r)
	if g.X0 != x0 || g.Z0 != z0 || g.Side != side {
		t.Fatalf("grid %+v; want its first texel on the outside's first lines or %v map widths out (%v, %v)", g, lightReach, x0, z0)
	}
	x1 := min(float64(c1)*cs, ew+r)
	if end := g.X0 + float64(side-1)*g.Texel; math.Abs(end-x1) > 1e-6*end {
		t.Errorf("the grid ends at x %v; want %v", end, x1)
	}
	on, off := 0, 0
	for j := 0; j < side; j++ {
		for i := 0; i < side; i++ {
			x, z := g.X0+float64(i)*g.Texel, g.Z0+float64(j)*g.Texel
			want := o.FineHeight(x, z, level)
			if x >= 0 && x <= ew && z >= 0 && z <= ed {
				want = m.GroundHeight(x, z)
				on++
			} else {
				off++
			}
			if got := float64(hm.At(i, j)); math.Abs(got-want) > 1e-3*(1+math.Abs(want)) {
				t.Fatalf("texel (%d, %d) at world (%.1f, %.1f): height %v, want %v", i, j, x, z, got, want)
			}
		}
	}
	if on == 0 || off == 0 {
		t.Errorf("%d texels on the map, %d beyond it: want both", on, off)
	}
}

// The light image holds the land beyond's light below the map's: shadows
// there at a low sun, none with the sun overhead.
func TestOutsideLightPacked(t *testing.T) {
	w := beyondWorld(t)
	v := DefaultViewer()
	v.Shadows, v.Occlusion = true, false
	var l Lighter
	shadowed := func(elevation float32) (dark, total int) {
		v.SunElevation, v.SunAzimuth = elevation, 30
		lm := l.compute(context.Background(), lightKeyOf(w, &v))
		if lm == nil || lm.Outside == nil {
			t.Fatal("no light for the land beyond")
		}
		g := lm.Outside
		if lm.Width < max(lm.MapWidth, g.Side) || lm.Height != lm.MapHeight+g.Side+lightLevelsHeight(lm.MapHeight) || len(lm.Pix) != 4*lm.Width*lm.Height {
			t.Fatalf("light image %d×%d (%d bytes) for a %d×%d map and %d² beyond", lm.Width, lm.Height, len(lm.Pix), lm.MapWidth, lm.MapHeight, g.Side)
		}
		for j := 0; j < g.Side; j++ {
			for i := 0; i < g.Side; i++ {
				p := lm.Pix[4*((lm.MapHeight+j)*lm.Width+i):]
				if p[1] != 255 {
					t.Fatalf("texel (%d, %d) beyond: sky %d with occlusion off", i, j, p[1])
				}
				if p[0] < 128 {
					dark++
				}
				total++
			}
		}
		return dark, total
	}
	if dark, total := shadowed(4); dark < total/50 {
		t.Errorf("sun at 4°: %d of %d texels beyond the map in shadow; want the hills' shadows", dark, total)
	}
	if dark, _ := shadowed(90); dark != 0 {
		t.Errorf("sun overhead: %d texels beyond the map in shadow", dark)
	}
}

// Seen from above, the land beyond the map at a low sun is darker in
// places with shadows on than off, and with the sun overhead the same.
func TestOutsideShadowsDrawn(t *testing.T) {
	needLoop(t)
	w := beyondWorld(t)
	g := lightTestGame(t, w.Map, true, false)
	g.World = w
	ew, _ := w.Map.Extent()
	frameAt := func(shadows bool, elevation float32) []float64 {
		g.View.Shadows, g.View.SunElevation, g.View.SunAzimuth = shadows, elevation, 30
		topDown(g, float32(-1.3*ew), float32(0.8*ew), float32(0.5*ew))
		waitLight(t, g)
		img := renderFrame(g, false)
		var lum []float64
		// The middle of the view: land beyond the map only.
		for y := testH / 4; y < 3*testH/4; y += 2 {
			for x := testW / 4; x < 3*testW/4; x += 2 {
				c := img.RGBAAt(x, y)
				lum = append(lum, 0.3*float64(c.R)+0.59*float64(c.G)+0.11*float64(c.B))
			}
		}
		return lum
	}
	// The view's middle must lie beyond the map.
	pr := newProjector(viewProjection(&Camera{Pos: mgl32.Vec3{float32(-1.3 * ew), float32(0.8 * ew), float32(0.5 * ew)}, Pitch: mgl32.DegToRad(-90), FovY: g.Camera.FovY, Near: g.Camera.Near, Far: g.Camera.Far}, testW, testH), testW, testH, g.Camera.Near)
	for _, z := range []float64{0, 0.5 * ew, ew} {
		v := pr.vertex(surfaceVertex{pos: mgl32.Vec3{0, 0, float32(z)}})
		if v.DstX > testW/4 && v.DstX < 3*testW/4 && v.DstY > testH/4 && v.DstY < 3*testH/4 {
			t.Fatalf("the map's edge projects to %v, %v, inside the part of the view checked", v.DstX, v.DstY)
		}
	}
	// At 8°: a sun a few degrees higher than the lowest, as the land
	// beyond is shaded with its slopes averaged over half a cell, which
	// catch little of a sun at 4° where shadows darken little.
	on, off := frameAt(true, 8), frameAt(false, 8)
	darker := 0
	for i := range on {
		if on[i] < 0.8*off[i] {
			darker++
		}
	}
	t.Logf("sun at 8°: %d of %d pixels beyond the map darker with shadows on", darker, len(on))
	if darker < len(on)/200 {
		t.Errorf("sun at 8°: %d of %d pixels beyond the map darker with shadows on; want the hills' shadows", darker, len(on))
	}
	on, off = frameAt(true, 90), frameAt(false, 90)
	for i := range on {
		if math.Abs(on[i]-off[i]) > 2 {
			t.Fatalf("sun overhead: pixel %d is %.0f with shadows, %.0f without", i, on[i], off[i])
		}
	}
}

// BenchmarkOutsideLight1025 prices the light of the land beyond a 1025²
// map: the coarse field, the occlusion (once per world) and a sun (per
// sun change) apart.
func BenchmarkOutsideLight1025(b *testing.B) {
	w := generatedWorldBeyond(b, 1025)
	v := DefaultViewer()
	for _, c := range []struct {
		name               string
		shadows, occlusion bool
	}{{"field", false, false}, {"occlusion", false, true}, {"sun", true, false}} {
		b.Run(c.name, func(b *testing.B) {
			v.Shadows, v.Occlusion = c.shadows, c.occlusion
			k := lightKeyOf(w, &v)
			for b.Loop() {
				var s outsideLightState
				s.compute(context.Background(), k, nil)
			}
		})
	}
}
