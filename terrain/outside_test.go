package terrain

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
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

func outsideParams(t *testing.T, set [][2]string, size int) Params {
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

// At the map's edge the outside's heights are the map's, and the height
// function it evaluates is the map's at every sample inside it too: the
// same coordinates, noise and normalisation, so the land continues.
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
			nc := len(o.Cols)
			edge := 0
			for j, row := range o.Rows {
				for i, col := range o.Cols {
					if col < 0 || row < 0 || col > m.Width-1 || row > m.Height-1 || o.Inside(i, j) {
						continue
					}
					edge++
					want := float64(m.At(col, row)) * m.VerticalScale
					if got := float64(o.Heights[j*nc+i]); math.Abs(got-want) > tol {
						t.Errorf("%s stride %d: edge sample (%d, %d) is %g outside, %g on the map", c.name, stride, col, row, got, want)
					}
					if o.Fade[j*nc+i] != 1 {
						t.Errorf("%s: edge sample (%d, %d) fades (%g)", c.name, col, row, o.Fade[j*nc+i])
					}
				}
			}
			if want := 2*(o.InnerCols[1]-o.InnerCols[0]) + 2*(o.InnerRows[1]-o.InnerRows[0]); edge != want {
				t.Errorf("%s: %d edge samples, want %d", c.name, edge, want)
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

// The outside is deterministic for a map, differs for another seed,
// reaches several map widths on every side with growing cells, and fades
// to nothing at its far end.
func TestOutsideGrid(t *testing.T) {
	ctx := context.Background()
	p := outsideParams(t, nil, 257)
	m, err := Generate(ctx, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := NewOutside(ctx, p, m)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewOutside(ctx, p, m)
	if !slices.Equal(a.Heights, b.Heights) || !slices.Equal(a.Fade, b.Fade) || !slices.Equal(a.Cols, b.Cols) {
		t.Error("two outsides of one map differ")
	}
	q := p
	q.Seed++
	mq, _ := Generate(ctx, q, nil)
	c, err := NewOutside(ctx, q, mq)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(a.Heights, c.Heights) {
		t.Error("another seed continues the same way")
	}
	if a.CellSize != m.CellSize || a.Cols[a.InnerCols[0]] != 0 || a.Cols[a.InnerCols[1]] != m.Width-1 ||
		a.Rows[a.InnerRows[0]] != 0 || a.Rows[a.InnerRows[1]] != m.Height-1 {
		t.Errorf("the map's span is not where InnerCols %v and InnerRows %v say: %v", a.InnerCols, a.InnerRows, a.Cols)
	}
	if !slices.IsSorted(a.Cols) || len(slices.Compact(slices.Clone(a.Cols))) != len(a.Cols) {
		t.Errorf("grid lines not strictly increasing: %v", a.Cols)
	}
	if got, want := float64(-a.Cols[0]), outsideReach*float64(m.Width-1); got < want || got > 1.5*want {
		t.Errorf("the outside reaches %g samples before the map, want about %g", got, want)
	}
	first, lastGap := a.Cols[a.InnerCols[0]]-a.Cols[a.InnerCols[0]-1], a.Cols[1]-a.Cols[0]
	if first != OutsideStep(m.Width) || lastGap <= 4*first {
		t.Errorf("cells beyond the map %d samples next to it and %d at the far end: want the step %d growing", first, lastGap, OutsideStep(m.Width))
	}
	nc := len(a.Cols)
	for j := range a.Rows {
		for _, i := range []int{0, nc - 1} {
			if a.Fade[j*nc+i] != 0 {
				t.Fatalf("vertex (%d, %d) at the far end fades only to %g", i, j, a.Fade[j*nc+i])
			}
		}
	}
	for k, h := range a.Heights {
		if math.IsNaN(float64(h)) || math.IsNaN(float64(a.Fade[k])) {
			t.Fatalf("vertex %d: height %g, fade %g", k, h, a.Fade[k])
		}
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

func TestOutsideStep(t *testing.T) {
	for _, c := range []struct{ side, want int }{{2, 1}, {9, 8}, {257, 16}, {513, 16}, {1025, 16}, {2049, 32}, {4097, 32}, {8193, 32}} {
		if got := OutsideStep(c.side); got != c.want {
			t.Errorf("OutsideStep(%d) = %d, want %d", c.side, got, c.want)
		}
	}
}

// Order visits every cell beyond the map once and, for eyes inside, beside
// and far from the map, each cell before every cell that lies between it
// and the eye's cell on both axes (those that can hide part of it, seen
// from above: terrain/mesh order.go).
func TestOutsideOrder(t *testing.T) {
	p := outsideParams(t, nil, 129)
	m, err := Generate(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	o, err := NewOutside(context.Background(), p, m)
	if err != nil {
		t.Fatal(err)
	}
	ext := float64(m.Width-1) * m.CellSize
	nc, nr := len(o.Cols)-1, len(o.Rows)-1
	for _, eye := range [][2]float64{{0.3 * ext, 0.6 * ext}, {-0.5 * ext, 0.2 * ext}, {1.7 * ext, -0.9 * ext}, {-9 * ext, 9 * ext}} {
		camCol, camRow := outsideCell(o.Cols, eye[0]/o.CellSize), outsideCell(o.Rows, eye[1]/o.CellSize)
		at := make(map[[2]int]int)
		o.Order(eye[0], eye[1], func(i, j int) {
			if _, twice := at[[2]int{i, j}]; twice {
				t.Fatalf("eye %v: cell (%d, %d) visited twice", eye, i, j)
			}
			at[[2]int{i, j}] = len(at)
		})
		inner := (o.InnerCols[1] - o.InnerCols[0]) * (o.InnerRows[1] - o.InnerRows[0])
		if len(at) != nc*nr-inner {
			t.Fatalf("eye %v: %d cells visited, want %d", eye, len(at), nc*nr-inner)
		}
		// between reports whether b lies between a and the eye's cell on an axis.
		between := func(b, a, cam int) bool { return (a <= b && b <= cam) || (cam <= b && b <= a) }
		for a, ka := range at {
			for b, kb := range at {
				if a != b && between(b[0], a[0], camCol) && between(b[1], a[1], camRow) && kb < ka {
					t.Fatalf("eye %v (cell %d, %d): cell %v, which can hide %v, comes first", eye, camCol, camRow, b, a)
				}
			}
		}
	}
}

// From over the map every cell lies beyond it; from beside it, the cells
// between the eye and the map do not, and those across the map do.
func TestOutsideBehindMap(t *testing.T) {
	p := outsideParams(t, nil, 129)
	m, _ := Generate(context.Background(), p, nil)
	o, err := NewOutside(context.Background(), p, m)
	if err != nil {
		t.Fatal(err)
	}
	ext := float64(m.Width-1) * m.CellSize
	midRow := (o.InnerRows[0] + o.InnerRows[1]) / 2
	last := len(o.Cols) - 2
	o.Order(0.5*ext, 0.5*ext, func(i, j int) {
		if !o.BehindMap(i, j, 0.5*ext, 0.5*ext) {
			t.Fatalf("cell (%d, %d) is not beyond the map from over it", i, j)
		}
	})
	east := 1.3 * ext // beyond the east edge, level with the map's middle
	if o.BehindMap(o.InnerCols[1], midRow, east, 0.5*ext) {
		t.Error("the cell just east of the map is behind it seen from the east")
	}
	if !o.BehindMap(o.InnerCols[0]-1, midRow, east, 0.5*ext) || !o.BehindMap(0, midRow, east, 0.5*ext) {
		t.Error("the cells west of the map are not behind it seen from the east")
	}
	if o.BehindMap(last, 0, east, 0.5*ext) {
		t.Error("the far north-east corner is behind the map seen from the east")
	}
}

// The outside's slopes are the map's own at its sample spacing: along the
// map's edges, where the grid's vertices are map samples, the slope along
// the edge is the map's central difference there. Slopes taken over the
// grid's cells instead (16 samples and more) are far smaller on rough
// maps, and this test fails with them.
func TestOutsideSlopesAreTheMaps(t *testing.T) {
	ctx := context.Background()
	p := outsideParams(t, [][2]string{{"algorithm", "ridged"}, {"hurst", "0.9"}, {"amplitude", "300"}}, 161)
	m, err := Generate(ctx, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	o, err := NewOutside(ctx, p, m)
	if err != nil {
		t.Fatal(err)
	}
	nc := len(o.Cols)
	scale := m.VerticalScale / (2 * m.CellSize)
	checked, steep := 0, 0
	for j := o.InnerRows[0] + 1; j < o.InnerRows[1]; j++ {
		row := o.Rows[j]
		for _, i := range []int{o.InnerCols[0], o.InnerCols[1]} {
			col := o.Cols[i]
			want := float64(m.At(col, row+1)-m.At(col, row-1)) * scale
			got := float64(o.SlopeZ[j*nc+i])
			if math.Abs(got-want) > 1e-4*max(1, math.Abs(want)) {
				t.Errorf("slope along the edge at sample (%d, %d): %g, the map's is %g", col, row, got, want)
			}
			checked++
			if math.Abs(want) > 0.5 {
				steep++
			}
		}
	}
	if checked < 10 || steep == 0 {
		t.Fatalf("checked %d edge vertices, %d of them steep: the case does not test rough ground", checked, steep)
	}
}

// TestOutsideGroundHeightIsTheDrawnSurface checks GroundHeight against
// the plane through the three grid vertices of Surface that the explorer
// draws as the triangle over the point (split along each cell's
// north-east to south-west diagonal), at random points in cells off the
// map's square, at the grid's vertices, and beyond the grid.
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
	nc := len(o.Cols)
	cs := o.CellSize
	vertex := func(i, j int) [3]float64 {
		return [3]float64{float64(o.Cols[i]) * cs, float64(heights[j*nc+i]), float64(o.Rows[j]) * cs}
	}
	plane := func(a, b, c [3]float64, x, z float64) float64 {
		ux, uy, uz := b[0]-a[0], b[1]-a[1], b[2]-a[2]
		vx, vy, vz := c[0]-a[0], c[1]-a[1], c[2]-a[2]
		nx, ny, nz := uy*vz-uz*vy, uz*vx-ux*vz, ux*vy-uy*vx
		return a[1] - (nx*(x-a[0])+nz*(z-a[2]))/ny
	}
	rng := rand.New(rand.NewPCG(3, 4))
	checked := 0
	for range 4000 {
		i, j := rng.IntN(nc-1), rng.IntN(len(o.Rows)-1)
		// Cells touching the map's square are stitched to its samples.
		if i >= o.InnerCols[0]-1 && i <= o.InnerCols[1] && j >= o.InnerRows[0]-1 && j <= o.InnerRows[1] {
			continue
		}
		u, v := rng.Float64(), rng.Float64()
		x := (float64(o.Cols[i]) + u*float64(o.Cols[i+1]-o.Cols[i])) * cs
		z := (float64(o.Rows[j]) + v*float64(o.Rows[j+1]-o.Rows[j])) * cs
		b, c := vertex(i+1, j), vertex(i, j+1)
		third := vertex(i, j)
		if u+v > 1 {
			third = vertex(i+1, j+1)
		}
		want := plane(b, c, third, x, z)
		if got := o.GroundHeight(x, z, level); math.Abs(got-want) > 1e-3*(1+math.Abs(want)) {
			t.Fatalf("cell (%d, %d) at (%.2f, %.2f): ground %v, the drawn triangle %v", i, j, u, v, got, want)
		}
		if got := o.GroundHeight(b[0], b[2], level); math.Abs(got-b[1]) > 1e-4*(1+math.Abs(b[1])) {
			t.Fatalf("vertex (%d, %d): ground %v, surface %v", i+1, j, got, b[1])
		}
		checked++
	}
	if checked < 1000 {
		t.Fatalf("only %d points checked", checked)
	}
	far := float64(o.Cols[nc-1])*cs + 10
	if got := o.GroundHeight(far, 0, level); got != level {
		t.Errorf("beyond the grid: ground %v, want the level %v", got, float64(level))
	}
}
