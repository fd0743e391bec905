package zbuffer

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestFillCoversPixelCentres(t *testing.T) {
	// The triangle (0,0), (4,0), (0,4) covers the centres with
	// x+0.5 + y+0.5 < 4, plus those on the hypotenuse x+y = 3 only where
	// the fill rule says so: the hypotenuse runs down-left, neither top
	// nor left, so they stay out; the top edge y = 0 and the left edge
	// x = 0 pass no pixel centre.
	r := NewRaster(6, 6)
	r.Fill([3]float64{0, 0, 1}, [3]float64{4, 0, 1}, [3]float64{0, 4, 1}, 7, false)
	for y := range 6 {
		for x := range 6 {
			want := x+y < 3
			if got := r.ID[y*6+x] == 7; got != want {
				t.Errorf("pixel (%d,%d) covered = %v, want %v", x, y, got, want)
			}
		}
	}
}

func TestFillTopLeftRule(t *testing.T) {
	// Edges through pixel centres: the square [0.5, 3.5]² split along its
	// diagonal. The top edge (y = 0.5) and the left edge (x = 0.5) own
	// their centres, the bottom and right edges do not; the diagonal
	// belongs to exactly one of the two triangles.
	r := NewRaster(5, 5)
	count := make([]int, 25)
	tris := [][3][3]float64{
		{{0.5, 0.5, 0}, {3.5, 0.5, 0}, {0.5, 3.5, 0}},
		{{3.5, 0.5, 0}, {3.5, 3.5, 0}, {0.5, 3.5, 0}},
	}
	for id, tri := range tris {
		r.Clear()
		r.Fill(tri[0], tri[1], tri[2], id, false)
		for i, v := range r.ID {
			if v == id {
				count[i]++
			}
		}
	}
	for y := range 5 {
		for x := range 5 {
			want := 0
			if x <= 2 && y <= 2 {
				want = 1
			}
			if got := count[y*5+x]; got != want {
				t.Errorf("pixel (%d,%d) covered %d times, want %d", x, y, got, want)
			}
		}
	}
}

// TestFillPartitionCoversOnce fans random triangles around random points:
// every pixel centre inside the fan's outline must be covered exactly
// once, whatever the winding, including vertices on pixel centres.
func TestFillPartitionCoversOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const w, h = 64, 48
	for trial := range 200 {
		// A star-shaped polygon around (cx, cy), fanned from there.
		cx, cy := 10+rng.Float64()*44, 10+rng.Float64()*28
		if trial%3 == 0 {
			cx, cy = math.Round(cx)+0.5, math.Round(cy)+0.5
		}
		n := 3 + rng.IntN(12)
		var poly [][3]float64
		for k := range n {
			ang := 2 * math.Pi * (float64(k) + 0.5*rng.Float64()) / float64(n)
			rad := 4 + rng.Float64()*40
			poly = append(poly, [3]float64{cx + rad*math.Cos(ang), cy + rad*math.Sin(ang), 0})
		}
		count := make([]int, w*h)
		r := NewRaster(w, h)
		centre := [3]float64{cx, cy, 0}
		for k := range n {
			r.Clear()
			p, q := poly[k], poly[(k+1)%n]
			if rng.IntN(2) == 0 {
				p, q = q, p
			}
			r.Fill(centre, p, q, k, false)
			for i, v := range r.ID {
				if v != Empty {
					count[i]++
				}
			}
		}
		inside := 0
		for i, c := range count {
			px, py := float64(i%w)+0.5, float64(i/w)+0.5
			if insideFan(centre, poly, px, py) {
				inside++
			}
			if c > 1 {
				t.Fatalf("trial %d: pixel (%v,%v) covered %d times", trial, px, py, c)
			}
			if c == 0 && insideFan(centre, poly, px, py) {
				t.Fatalf("trial %d: pixel (%v,%v) inside the fan left uncovered", trial, px, py)
			}
		}
		if inside == 0 {
			t.Fatalf("trial %d: no pixel centre inside the fan", trial)
		}
	}
}

// insideFan reports whether (x, y) lies in one of the closed triangles
// (centre, poly[k], poly[k+1]) and not within 0.01 pixel of the fan's
// outer outline, which the fill rule and the snapping of the vertices to
// 1/256 pixel may leave out.
func insideFan(centre [3]float64, poly [][3]float64, x, y float64) bool {
	const eps = 1e-9
	side := func(a, b [3]float64) float64 { return (b[0]-a[0])*(y-a[1]) - (b[1]-a[1])*(x-a[0]) }
	for k := range poly {
		a, b := poly[k], poly[(k+1)%len(poly)]
		// The angles grow clockwise on screen (y down), so each
		// triangle's inside is where side > 0 for its three edges.
		if side(centre, a) >= -eps && side(a, b) > 0.01*math.Hypot(b[0]-a[0], b[1]-a[1]) && side(b, centre) >= -eps {
			return true
		}
	}
	return false
}

func TestFillDepthTestAndPainter(t *testing.T) {
	near := [3][3]float64{{0, 0, 1}, {10, 0, 1}, {0, 10, 1}}
	far := [3][3]float64{{0, 0, 2}, {10, 0, 2}, {0, 10, 2}}
	for _, tc := range []struct {
		test  bool
		order [2]int // ids drawn first and second: 0 near, 1 far
		want  int
	}{
		{true, [2]int{0, 1}, 0},
		{true, [2]int{1, 0}, 0},
		{false, [2]int{0, 1}, 1},
		{false, [2]int{1, 0}, 0},
	} {
		r := NewRaster(4, 4)
		for _, id := range tc.order {
			tri := [][3][3]float64{near, far}[id]
			r.Fill(tri[0], tri[1], tri[2], id, tc.test)
		}
		if got := r.ID[0]; got != tc.want {
			t.Errorf("test=%v order %v: pixel 0 shows %d, want %d", tc.test, tc.order, got, tc.want)
		}
	}
}

func TestFillInterpolatesDepth(t *testing.T) {
	// Depth 0 at x = 0 rising to 8 at x = 8: the pixel centre x+0.5 has depth x+0.5.
	r := NewRaster(8, 8)
	r.Fill([3]float64{0, -1, 0}, [3]float64{8, -1, 8}, [3]float64{0, 20, 0}, 1, true)
	r.Fill([3]float64{8, -1, 8}, [3]float64{8, 20, 8}, [3]float64{0, 20, 0}, 1, true)
	for _, x := range []int{0, 3, 7} {
		if got, want := r.Depth[2*8+x], float64(x)+0.5; math.Abs(got-want) > 1e-9 {
			t.Errorf("depth at pixel (%d,2) = %v, want %v", x, got, want)
		}
	}
}

func TestFillRejects(t *testing.T) {
	r := NewRaster(4, 4)
	for _, tri := range [][3][3]float64{
		{{0, 0, 0}, {1, 1, 0}, {2, 2, 0}},          // degenerate
		{{0, 0, 0}, {math.NaN(), 1, 0}, {0, 3, 0}}, // not finite
		{{0, 0, 0}, {1e13, 0, 0}, {0, 3, 0}},       // too far off screen
	} {
		if r.Fill(tri[0], tri[1], tri[2], 1, false) {
			t.Errorf("Fill%v drew", tri)
		}
	}
	if r.Covered() != 0 {
		t.Errorf("%d pixels covered after rejected triangles", r.Covered())
	}
	// Far off-screen but within range: clipped to the raster, still exact.
	if !r.Fill([3]float64{-1e11, -1e11, 0}, [3]float64{1e11, -1e11, 0}, [3]float64{0, 1e11, 0}, 2, false) {
		t.Fatal("huge triangle rejected")
	}
	if r.Covered() != 16 {
		t.Errorf("huge triangle covers %d of 16 pixels", r.Covered())
	}
}

func TestCompare(t *testing.T) {
	a, b := NewRaster(2, 1), NewRaster(2, 1)
	a.ID[0], a.Depth[0] = 1, 5
	b.ID[0], b.Depth[0] = 2, 5+1e-7 // a depth tie
	a.ID[1], a.Depth[1] = 1, 5
	b.ID[1], b.Depth[1] = 3, 6
	if got := Compare(a, b, nil); got != 1 {
		t.Errorf("Compare = %d, want 1", got)
	}
	if got := Compare(a, b, func(x, y, i, j int) bool { return x == 1 && y == 0 && i == 1 && j == 3 }); got != 0 {
		t.Errorf("Compare with ids 1, 3 meeting at pixel (1,0) = %d, want 0", got)
	}
	b.ID[1] = Empty
	if got := Compare(a, b, func(int, int, int, int) bool { return true }); got != 1 {
		t.Errorf("Compare against an empty pixel = %d, want 1", got)
	}
}
