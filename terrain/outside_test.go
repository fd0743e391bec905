package terrain

import (
	"context"
	"cordillera/terrain/beyond"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// outsideCases are noise generators with every part of the final mapping:
// plain fBm (the fused fast path), the multifractals, the gradient-using
// ones, domain distortion, a post-effect, a basis transform, tiling.
var outsideCases = []struct {
	name string
	set  [][2]string
}{
	{"fbm", nil},
	{"hetero", [][2]string{{"algorithm", "hetero"}, {"offset", "0.5"}}},
	{"hybrid-glacier", [][2]string{{"algorithm", "hybrid"}, {"hurst", "0.25"}, {"offset", "0.7"}, {"effect", "glacier"}, {"intensity", "25"}}},
	{"ridged", [][2]string{{"algorithm", "ridged"}, {"hurst", "0.9"}, {"feature-size", "88"}, {"amplitude", "300"}}},
	{"quilez-value", [][2]string{{"algorithm", "quilez"}, {"basis", "value"}}},
	{"billow-canyon", [][2]string{{"algorithm", "billow"}, {"effect", "canyon"}, {"intensity", "60"}}},
	{"swiss", [][2]string{{"algorithm", "swiss"}, {"hurst", "0.9"}}},
	{"distorted-simplex", [][2]string{{"distortion", "50"}, {"basis", "simplex"}, {"basis-transform", "ridged"}}},
	{"tileable", [][2]string{{"tileable", "true"}, {"feature-size", "70"}}},
}

func outsideParams(t testing.TB, set [][2]string, size int) Params {
	t.Helper()
	p := DefaultParams()
	p.Size = size
	p.CellSize = 2
	for _, kv := range set {
		spec, ok := SpecByName(kv[0])
		if !ok {
			t.Fatalf("no parameter %q", kv[0])
		}
		if err := spec.Set(&p, kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// outsideOf makes the outside of a default map of side samples.
func outsideOf(t testing.TB, set [][2]string, side int) (*Outside, *Heightmap, Params) {
	t.Helper()
	p := outsideParams(t, set, side)
	m, err := Generate(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	o, err := NewOutside(context.Background(), p, m)
	if err != nil {
		t.Fatal(err)
	}
	return o, m, p
}

// At the map's edge the outside's heights are the map's, and the height
// function it evaluates is the map's at every sample inside it too: the
// same coordinates, noise and normalisation, so the land continues. No
// vertex lies inside the map.
func TestOutsideMeetsTheMap(t *testing.T) {
	ctx := context.Background()
	for _, c := range outsideCases {
		for _, stride := range []int{1, 4} { // the full map and a preview of every 4th sample
			p := outsideParams(t, c.set, 161)
			m, err := GeneratePreview(ctx, p, stride, nil)
			if err != nil {
				t.Fatal(err)
			}
			o, err := NewOutside(ctx, p, m)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			tol := 1e-5 * m.VerticalScale
			edge := 0
			for k := range o.X {
				col, row := o.X[k], o.Z[k]
				if col < 0 || row < 0 || col > m.Width-1 || row > m.Height-1 {
					continue
				}
				if col > 0 && row > 0 && col < m.Width-1 && row < m.Height-1 {
					t.Fatalf("%s: vertex (%d, %d) inside the map", c.name, col, row)
				}
				edge++
				want := float64(m.At(col, row)) * m.VerticalScale
				if got := float64(o.Heights[k]); math.Abs(got-want) > tol {
					t.Errorf("%s stride %d: edge sample (%d, %d) is %g outside, %g on the map", c.name, stride, col, row, got, want)
				}
				if o.Fade[k] != 1 {
					t.Errorf("%s: edge sample (%d, %d) fades (%g)", c.name, col, row, o.Fade[k])
				}
			}
			step := beyond.Step(m.Width)
			if want := 4 * ((m.Width - 1 + step - 1) / step); edge < want-4 || edge > want {
				t.Errorf("%s: %d edge samples, want about %d", c.name, edge, want)
			}
			f, err := newHeightField(p, m, stride)
			if err != nil {
				t.Fatal(err)
			}
			for row := 0; row < m.Height; row += 3 {
				for col := 0; col < m.Width; col += 5 {
					if got, want := f.height(col, row), float64(m.At(col, row)); math.Abs(got-want) > 1e-5 {
						t.Fatalf("%s stride %d: the height function gives %g at (%d, %d), the map %g", c.name, stride, got, col, row, want)
					}
				}
			}
		}
	}
}

// Every vertex's height and slopes are the noise's at the vertex itself:
// not an average over its cell, not interpolated from a coarser ring.
func TestOutsideHeightsAreTheNoiseAtEachVertex(t *testing.T) {
	o, m, p := outsideOf(t, [][2]string{{"algorithm", "ridged"}, {"amplitude", "300"}}, 129)
	f, err := newHeightField(p, m, 1)
	if err != nil {
		t.Fatal(err)
	}
	slope := m.VerticalScale / m.CellSize
	for k := range o.X {
		x, z := o.X[k], o.Z[k]
		if want := float32(f.height(x, z) * m.VerticalScale); o.Heights[k] != want {
			t.Fatalf("vertex (%d, %d): height %v, the noise there %v", x, z, o.Heights[k], want)
		}
		// The slope averaged over the vertex's cell: differences across
		// it, half a cell either side, at a quarter cell either side.
		s := o.SlopeBox(x, z)
		h, q := s/2, s/4
		wantX := (f.height(x+h, z-q) - f.height(x-h, z-q) + f.height(x+h, z+q) - f.height(x-h, z+q)) / float64(4*h) * slope
		wantZ := (f.height(x-q, z+h) - f.height(x-q, z-h) + f.height(x+q, z+h) - f.height(x+q, z-h)) / float64(4*h) * slope
		if s < 2 {
			wantX = (f.height(x+1, z) - f.height(x-1, z)) / 2 * slope
			wantZ = (f.height(x, z+1) - f.height(x, z-1)) / 2 * slope
		}
		if o.SlopeX[k] != float32(wantX) {
			t.Fatalf("vertex (%d, %d), cells %d wide: slope x %v, the noise's over the cell %v", x, z, s, o.SlopeX[k], wantX)
		}
		if o.SlopeZ[k] != float32(wantZ) {
			t.Fatalf("vertex (%d, %d), cells %d wide: slope z %v, the noise's over the cell %v", x, z, s, o.SlopeZ[k], wantZ)
		}
	}
}

// The land beyond's vertex slopes are the relief of their cells' size,
// not a one-sample slope drawn at random every 16 samples and more: over
// the vertices off the map's edge, the slopes vary far less than the
// one-sample slopes at the same vertices (which shaded and textured the
// land beyond as blotches the size of its cells).
func TestOutsideSlopesAreOfTheCellsBand(t *testing.T) {
	o, m, p := outsideOf(t, [][2]string{{"algorithm", "fbm"}, {"amplitude", "200"}}, 257)
	f, err := newHeightField(p, m, 1)
	if err != nil {
		t.Fatal(err)
	}
	slope := m.VerticalScale / (2 * m.CellSize)
	var got, point float64
	n := 0
	for k := range o.X {
		x, z := o.X[k], o.Z[k]
		if o.Distance(x, z) == 0 || o.Fade[k] < 1 {
			continue
		}
		px := (f.height(x+1, z) - f.height(x-1, z)) * slope
		pz := (f.height(x, z+1) - f.height(x, z-1)) * slope
		got += float64(o.SlopeX[k])*float64(o.SlopeX[k]) + float64(o.SlopeZ[k])*float64(o.SlopeZ[k])
		point += px*px + pz*pz
		n++
	}
	if n < 100 {
		t.Fatalf("only %d vertices off the map's edge", n)
	}
	if ratio := math.Sqrt(got / point); ratio > 0.85 {
		t.Fatalf("RMS slope of the vertices %.3f of the one-sample slopes' at them: the cells' slopes are not averaged", ratio)
	}
}

// The outside is deterministic for a map, differs for another seed,
// reaches several map widths on every side, and fades to nothing at its
// far end.
func TestOutsideGrid(t *testing.T) {
	a, m, p := outsideOf(t, nil, 257)
	b, _, _ := outsideOf(t, nil, 257)
	if !slices.Equal(a.Heights, b.Heights) || !slices.Equal(a.Fade, b.Fade) || !slices.Equal(a.X, b.X) || !slices.Equal(a.Z, b.Z) {
		t.Error("two outsides of one map differ")
	}
	c, _, _ := outsideOf(t, [][2]string{{"seed", strconv.FormatInt(int64(p.Seed)+1, 10)}}, 257)
	if slices.Equal(a.Heights, c.Heights) {
		t.Error("another seed continues the same way")
	}
	if a.CellSize != m.CellSize || a.Width != m.Width || a.Height != m.Height {
		t.Errorf("outside of %d×%d, cell %g; the map %d×%d, %g", a.Width, a.Height, a.CellSize, m.Width, m.Height, m.CellSize)
	}
	x0, z0, x1, z1 := a.Bounds()
	want := beyond.Reach * float64(m.Width-1)
	for _, got := range []int{-x0, -z0, x1 - (m.Width - 1), z1 - (m.Height - 1)} {
		if float64(got) < want || float64(got) > 2*want {
			t.Errorf("the outside reaches %d samples beyond the map (bounds %d %d %d %d), want about %g", got, x0, z0, x1, z1, want)
		}
	}
	far := 0
	for k := range a.X {
		if a.X[k] == x0 || a.X[k] == x1 || a.Z[k] == z0 || a.Z[k] == z1 {
			far++
			if a.Fade[k] != 0 {
				t.Fatalf("vertex (%d, %d) at the far end fades only to %g", a.X[k], a.Z[k], a.Fade[k])
			}
		}
		if h := a.Heights[k]; math.IsNaN(float64(h)) || math.IsNaN(float64(a.Fade[k])) {
			t.Fatalf("vertex %d: height %g, fade %g", k, h, a.Fade[k])
		}
	}
	if far == 0 {
		t.Fatal("no vertex on the outer edge")
	}
}

// Only the noise generators continue; a map that is not the parameters'
// is refused.
func TestOutsideRefuses(t *testing.T) {
	ctx := context.Background()
	p := outsideParams(t, [][2]string{{"algorithm", "diamond-square"}}, 129)
	m := NewHeightmap(129, 129)
	if _, err := NewOutside(ctx, p, m); !errors.Is(err, ErrNoOutside) {
		t.Errorf("diamond-square: %v, want ErrNoOutside", err)
	}
	p = outsideParams(t, nil, 129)
	m.CellSize = p.CellSize
	if _, err := NewOutside(ctx, p, NewHeightmap(100, 100)); err == nil {
		t.Error("a 100² map accepted as the 129² one")
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := NewOutside(done, p, m); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// The outside's slopes are the map's own at its sample spacing: along the
// map's edges, where the vertices are map samples, the slope along the
// edge is the map's central difference there. Slopes taken over the
// cells instead (16 samples and more) are far smaller on rough maps, and
// this test fails with them.
func TestOutsideSlopesAreTheMaps(t *testing.T) {
	o, m, _ := outsideOf(t, [][2]string{{"algorithm", "ridged"}, {"hurst", "0.9"}, {"amplitude", "300"}}, 161)
	scale := m.VerticalScale / (2 * m.CellSize)
	checked, steep := 0, 0
	for k := range o.X {
		col, row := o.X[k], o.Z[k]
		if (col != 0 && col != m.Width-1) || row <= 0 || row >= m.Height-1 {
			continue
		}
		want := float64(m.At(col, row+1)-m.At(col, row-1)) * scale
		got := float64(o.SlopeZ[k])
		if math.Abs(got-want) > 1e-4*max(1, math.Abs(want)) {
			t.Errorf("slope along the edge at sample (%d, %d): %g, the map's is %g", col, row, got, want)
		}
		checked++
		if math.Abs(want) > 0.5 {
			steep++
		}
	}
	if checked < 10 || steep == 0 {
		t.Fatalf("checked %d edge vertices, %d of them steep: the case does not test rough ground", checked, steep)
	}
}

// TestOutsideGroundHeightIsTheDrawnSurface checks GroundHeight against
// the plane through the three vertices of Surface that the explorer draws
// as the triangle over the point (a plain cell split along its north-east
// to south-west diagonal, a cell along a finer ring as its fan), at
// random points in cells off the map's edge, at the vertices, and beyond
// the outside.
func TestOutsideGroundHeightIsTheDrawnSurface(t *testing.T) {
	ctx := context.Background()
	p := outsideParams(t, nil, 129)
	p.CellSize = 2.5
	m, err := Generate(ctx, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	o, err := NewOutside(ctx, p, m)
	if err != nil {
		t.Fatal(err)
	}
	const level = -7
	heights, _ := o.Surface(level, nil, nil)
	cs := o.CellSize
	vertex := func(k int) [3]float64 { return [3]float64{float64(o.X[k]), float64(heights[k]), float64(o.Z[k])} }
	rng := rand.New(rand.NewPCG(3, 4))
	checked, fans := 0, 0
	for range 6000 {
		c := rng.IntN(len(o.Cells))
		cl := &o.Cells[c]
		if cl.OnMap {
			continue // stitched to the map's samples
		}
		x := float64(cl.X0) + rng.Float64()*float64(cl.X1-cl.X0)
		z := float64(cl.Z0) + rng.Float64()*float64(cl.Z1-cl.Z0)
		want, found := 0.0, false
		o.Triangles(c, func(a, b, d int) {
			va, vb, vd := vertex(a), vertex(b), vertex(d)
			det := (vb[0]-va[0])*(vd[2]-va[2]) - (vd[0]-va[0])*(vb[2]-va[2])
			u := ((x-va[0])*(vd[2]-va[2]) - (vd[0]-va[0])*(z-va[2])) / det
			v := ((vb[0]-va[0])*(z-va[2]) - (x-va[0])*(vb[2]-va[2])) / det
			if u >= 0 && v >= 0 && u+v <= 1 && !found {
				want, found = va[1]+u*(vb[1]-va[1])+v*(vd[1]-va[1]), true
			}
		})
		if !found {
			t.Fatalf("cell %+v: no triangle over (%g, %g)", *cl, x, z)
		}
		if got := o.GroundHeight(x*cs, z*cs, level); math.Abs(got-want) > 1e-3*(1+math.Abs(want)) {
			t.Fatalf("cell %+v at (%.2f, %.2f): ground %v, the drawn triangle %v", *cl, x, z, got, want)
		}
		k := cl.Corners[rng.IntN(4)]
		if got := o.GroundHeight(float64(o.X[k])*cs, float64(o.Z[k])*cs, level); math.Abs(got-float64(heights[k])) > 1e-4*(1+math.Abs(float64(heights[k]))) {
			t.Fatalf("vertex (%d, %d): ground %v, surface %v", o.X[k], o.Z[k], got, heights[k])
		}
		checked++
		if len(cl.Extra) > 0 {
			fans++
		}
	}
	if checked < 1000 || fans == 0 {
		t.Fatalf("only %d points checked, %d of them in fans", checked, fans)
	}
	x0, _, x1, _ := o.Bounds()
	for _, x := range []float64{float64(x1)*cs + 10, float64(x0)*cs - 10, 0.5 * float64(m.Width-1) * cs} {
		if got := o.GroundHeight(x, 0.5*float64(m.Height-1)*cs, level); got != level {
			t.Errorf("at x %v, beyond the outside or on the map: ground %v, want the level %v", x, got, float64(level))
		}
	}
}

// BenchmarkOutside1025 makes the land beyond the default 1025² map, as
// AddOutside does for every generated world, and reports its vertices.
func BenchmarkOutside1025(b *testing.B) {
	p := outsideParams(b, nil, 1025)
	p.CellSize = 1
	m, err := Generate(context.Background(), p, nil)
	if err != nil {
		b.Fatal(err)
	}
	var o *Outside
	for b.Loop() {
		if o, err = NewOutsideReaching(context.Background(), p, m, 120000); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(o.X)), "vertices")
}
