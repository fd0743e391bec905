package beyond

import (
	"context"
	"math"
	"testing"
)

// The cells are square: a tensor grid of lines through the map has cells
// beside the map a step wide and thousands of samples long (their heights
// and texturing streak from above: an aspect of 4 on a 129² map reaching
// three map widths, over 1000 on a 1025² one reaching 120 km). Here each is at most twice as long as wide
// (three times in the odd cells at the map's far corner where the map's
// side is no multiple of the step), and a cell's size grows with its
// distance from the map: never coarser than the step plus the distance
// over RingCells, never finer than the distance over twice that
// (and a little: the rings' outer edges are rounded out to the next
// ring's cells).
func TestCellsAreSquare(t *testing.T) {
	for _, side := range []int{129, 257, 1025, 150, 1000} {
		o, err := New(context.Background(), side, side, 1, 1, 120000, func(col, row int) float64 { return 0 })
		if err != nil {
			t.Fatal(err)
		}
		step := Step(side)
		bound := 2.0
		if (side-1)%step != 0 {
			bound = 3
		}
		worst := 0.0
		for _, c := range o.Cells {
			w, h := float64(c.X1-c.X0), float64(c.Z1-c.Z0)
			if w <= 0 || h <= 0 {
				t.Fatalf("%d²: cell %+v has no area", side, c)
			}
			worst = max(worst, w/h, h/w)
			size := max(w, h)
			// How far the cell's nearest point lies beyond the map.
			d := float64(max(-c.X1, c.X0-(side-1), -c.Z1, c.Z0-(side-1), 0))
			if size > 1.5*float64(step)+d/RingCells {
				t.Fatalf("%d²: cell %d–%d × %d–%d, %g wide at %g from the map: too coarse", side, c.X0, c.X1, c.Z0, c.Z1, size, d)
			}
			if size*2*(RingCells+2) < d {
				t.Fatalf("%d²: cell %d–%d × %d–%d, %g wide at %g from the map: too fine", side, c.X0, c.X1, c.Z0, c.Z1, size, d)
			}
		}
		if worst > bound {
			t.Errorf("%d²: a cell %.2f times as long as wide, want at most %g", side, worst, bound)
		}
		t.Logf("%d²: %d rings, %d vertices, %d cells, aspect at most %.2f", side, len(o.Rings), len(o.X), len(o.Cells), worst)
	}
}

// The mesh has no crack: every edge of a triangle inside the outside is
// shared by exactly two triangles (a vertex in the middle of a coarse
// cell's side, a T-junction, would leave three edges used once), only the
// outer edge and the map's edge are used once, the triangles cover the
// outside's area once, and at every vertex the surface of every cell that
// touches it (finer or coarser ring) has the vertex's height.
func TestNoCracks(t *testing.T) {
	for _, side := range []int{129, 150, 1025} {
		height := func(col, row int) float64 { return math.Sin(float64(col)/37) * math.Cos(float64(row)/23) }
		o, err := New(context.Background(), side, side, 1, 100, 20000, height)
		if err != nil {
			t.Fatal(err)
		}
		x0, z0, x1, z1 := o.Bounds()
		// boundary reports whether the edge a–b lies on the outer edge or
		// on the map's.
		boundary := func(a, b int) bool {
			onMap := func(v int) bool { return v >= 0 && v <= side-1 }
			xa, za, xb, zb := o.X[a], o.Z[a], o.X[b], o.Z[b]
			switch {
			case xa == xb && (xa == x0 || xa == x1), za == zb && (za == z0 || za == z1):
				return true
			case xa == xb && (xa == 0 || xa == side-1):
				return onMap(za) && onMap(zb)
			case za == zb && (za == 0 || za == side-1):
				return onMap(xa) && onMap(xb)
			}
			return false
		}
		uses := map[[2]int]int{}
		area := 0.0
		for c := range o.Cells {
			o.Triangles(c, func(a, b, d int) {
				ar := float64((o.X[b]-o.X[a])*(o.Z[d]-o.Z[a])-(o.X[d]-o.X[a])*(o.Z[b]-o.Z[a])) / 2
				if ar == 0 {
					t.Fatalf("%d²: cell %d has a triangle of no area", side, c)
				}
				area += math.Abs(ar)
				for _, e := range [3][2]int{{a, b}, {b, d}, {d, a}} {
					uses[[2]int{min(e[0], e[1]), max(e[0], e[1])}]++
				}
			})
		}
		for e, n := range uses {
			want := 2
			if boundary(e[0], e[1]) {
				want = 1
			}
			if n != want {
				t.Fatalf("%d²: edge (%d, %d)–(%d, %d) used by %d triangles, want %d", side, o.X[e[0]], o.Z[e[0]], o.X[e[1]], o.Z[e[1]], n, want)
			}
		}
		if want := float64((x1-x0)*(z1-z0) - (side-1)*(side-1)); math.Abs(area-want) > 1e-9*want {
			t.Errorf("%d²: triangles cover %g, the outside is %g", side, area, want)
		}
		// Geometrically: at each vertex every cell touching it agrees.
		const level = -5
		faded, _ := o.Surface(level, nil, nil)
		checked := 0
		for c, cl := range o.Cells {
			for k := range o.X {
				if o.X[k] < cl.X0 || o.X[k] > cl.X1 || o.Z[k] < cl.Z0 || o.Z[k] > cl.Z1 {
					continue
				}
				if cl.OnMap && k != cl.Corners[0] && k != cl.Corners[1] && k != cl.Corners[2] && k != cl.Corners[3] {
					continue
				}
				got := o.CellHeight(c, float64(o.X[k]), float64(o.Z[k]), level)
				if math.Abs(got-float64(faded[k])) > 1e-3 {
					t.Fatalf("%d²: cell %d–%d × %d–%d at vertex (%d, %d): %v, the vertex %v", side, cl.X0, cl.X1, cl.Z0, cl.Z1, o.X[k], o.Z[k], got, faded[k])
				}
				checked++
			}
			if side == 1025 && c > 3000 {
				break // the rest as the smaller maps
			}
		}
		if checked < 4*len(o.Cells[:min(len(o.Cells), 3000)]) {
			t.Errorf("%d²: only %d cell corners checked", side, checked)
		}
		fans := 0
		for _, cl := range o.Cells {
			if len(cl.Extra) > 0 {
				fans++
			}
		}
		if fans == 0 {
			t.Errorf("%d²: no cell is stitched to a finer ring: the test checks no ring's edge", side)
		}
	}
}

func TestStep(t *testing.T) {
	for _, c := range []struct{ side, want int }{{2, 1}, {9, 8}, {257, 16}, {513, 16}, {1025, 16}, {2049, 32}, {4097, 32}, {8193, 32}} {
		if got := Step(c.side); got != c.want {
			t.Errorf("Step(%d) = %d, want %d", c.side, got, c.want)
		}
	}
}

// testLand is the land beyond a side² map of cells 2 apart, as flat as
// the map: what the order of its cells depends on.
func testLand(t *testing.T, side int) *Land {
	t.Helper()
	o, err := New(context.Background(), side, side, 2, 200, 0, func(col, row int) float64 { return 0 })
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// Order visits every cell once and, for eyes inside, beside and far from
// the map, each cell before every cell that can hide part of it: one that
// reaches into the box spanned by the cell and the eye, seen from above.
func TestOrder(t *testing.T) {
	o := testLand(t, 129)
	ext := float64(o.Width-1) * o.CellSize
	for _, eye := range [][2]float64{{0.3 * ext, 0.6 * ext}, {-0.5 * ext, 0.2 * ext}, {1.7 * ext, -0.9 * ext}, {-2.2 * ext, 3.1 * ext}, {-9 * ext, 9 * ext}} {
		ex, ez := eye[0]/o.CellSize, eye[1]/o.CellSize
		at := make([]int, len(o.Cells))
		for c := range at {
			at[c] = -1
		}
		n := 0
		o.Order(eye[0], eye[1], nil, func(c int) {
			if at[c] >= 0 {
				t.Fatalf("eye %v: cell %d visited twice", eye, c)
			}
			at[c] = n
			n++
		})
		if n != len(o.Cells) {
			t.Fatalf("eye %v: %d cells visited, want %d", eye, n, len(o.Cells))
		}
		for a, ca := range o.Cells {
			// The box spanned by cell a and the eye.
			bx0, bx1 := min(float64(ca.X0), ex), max(float64(ca.X1), ex)
			bz0, bz1 := min(float64(ca.Z0), ez), max(float64(ca.Z1), ez)
			for b, cb := range o.Cells {
				if a == b || at[b] > at[a] {
					continue
				}
				if float64(cb.X0) < bx1 && float64(cb.X1) > bx0 && float64(cb.Z0) < bz1 && float64(cb.Z1) > bz0 {
					t.Fatalf("eye %v: cell %+v, which can hide %+v, comes first", eye, cb, ca)
				}
			}
		}
	}
}

// Order leaves out the blocks keep refuses, here those wholly west of the
// map's middle, and no cell of the rest, in the same order.
func TestOrderKeep(t *testing.T) {
	o := testLand(t, 129)
	mid := (o.Width - 1) / 2
	var all, kept []int
	o.Order(10, 20, nil, func(c int) { all = append(all, c) })
	o.Order(10, 20, func(x0, z0, x1, z1 int) bool { return x1 > mid }, func(c int) { kept = append(kept, c) })
	var want []int
	for _, c := range all {
		if o.Cells[c].X0 >= mid {
			want = append(want, c)
		}
	}
	if len(kept) >= len(all) || len(kept) < len(want) {
		t.Fatalf("%d of %d cells kept; %d lie east of the middle", len(kept), len(all), len(want))
	}
	// The kept cells in the full order's order, those east of the
	// middle among them.
	at := map[int]int{}
	for k, c := range all {
		at[c] = k
	}
	seen := map[int]bool{}
	for k, c := range kept {
		seen[c] = true
		if k > 0 && at[c] < at[kept[k-1]] {
			t.Fatalf("cell %d comes before %d kept, after it in the full order", c, kept[k-1])
		}
	}
	// The blocks west of each ring's hole (its west side and corners)
	// lie wholly west of the middle.
	for l := range o.Rings {
		r := &o.Rings[l]
		for _, c := range r.cells {
			if c >= 0 && o.Cells[c].X1 <= r.Xs[r.Hole[0]] && seen[c] {
				t.Fatalf("cell %+v of a block west of the map kept", o.Cells[c])
			}
		}
	}
	for _, c := range want {
		if !seen[c] {
			t.Fatalf("cell %+v east of the middle left out", o.Cells[c])
		}
	}
}

// From over the map every cell lies beyond it; from beside it, the cells
// between the eye and the map do not, and those across the map do.
func TestBehindMap(t *testing.T) {
	o := testLand(t, 129)
	ext := float64(o.Width-1) * o.CellSize
	o.Order(0.5*ext, 0.5*ext, nil, func(c int) {
		if !o.BehindMap(c, 0.5*ext, 0.5*ext) {
			t.Fatalf("cell %+v is not beyond the map from over it", o.Cells[c])
		}
	})
	east := 1.3 * ext // beyond the east edge, level with the map's middle
	at := func(x, z float64) int {
		c := o.CellAt(x*ext, z*ext)
		if c < 0 {
			t.Fatalf("no cell at (%g, %g) map widths", x, z)
		}
		return c
	}
	if o.BehindMap(at(1.01, 0.5), east, 0.5*ext) {
		t.Error("the cell just east of the map is behind it seen from the east")
	}
	if !o.BehindMap(at(-0.01, 0.5), east, 0.5*ext) || !o.BehindMap(at(-2.5, 0.5), east, 0.5*ext) {
		t.Error("the cells west of the map are not behind it seen from the east")
	}
	if o.BehindMap(at(3.5, -3.5), east, 0.5*ext) {
		t.Error("the far north-east corner is behind the map seen from the east")
	}
}
