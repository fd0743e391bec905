package mesh

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"testing"

	"cordillera/internal/zbuffer"
	"cordillera/terrain"
)

func TestBackToFront(t *testing.T) {
	for _, tc := range []struct {
		n, cam int
		want   []int
	}{
		{5, 2, []int{0, 1, 4, 3, 2}},
		{5, 0, []int{4, 3, 2, 1, 0}},
		{5, 4, []int{0, 1, 2, 3, 4}},
		{5, -1, []int{4, 3, 2, 1, 0}}, // eye before the first cell
		{5, -9, []int{4, 3, 2, 1, 0}},
		{5, 5, []int{0, 1, 2, 3, 4}}, // eye after the last cell
		{5, 12, []int{0, 1, 2, 3, 4}},
		{1, 0, []int{0}},
		{0, 0, nil},
	} {
		var got []int
		backToFront(tc.n, tc.cam, func(i int) { got = append(got, i) })
		if !slices.Equal(got, tc.want) {
			t.Errorf("backToFront(%d, %d) = %v, want %v", tc.n, tc.cam, got, tc.want)
		}
	}
}

// TestBackToFrontProperty: every index once, and every index between i
// and the eye's cell (inclusive) after i: those are the cells that can
// hide cell i.
func TestBackToFrontProperty(t *testing.T) {
	for n := range 12 {
		for cam := -2; cam <= n+1; cam++ {
			pos := make([]int, n)
			for i := range pos {
				pos[i] = -1
			}
			k := 0
			backToFront(n, cam, func(i int) {
				if pos[i] >= 0 {
					t.Fatalf("backToFront(%d, %d) visits %d twice", n, cam, i)
				}
				pos[i] = k
				k++
			})
			if k != n {
				t.Fatalf("backToFront(%d, %d) visits %d indices", n, cam, k)
			}
			c := min(max(cam, 0), n-1)
			for i := range n {
				for j := min(i, c); j <= max(i, c); j++ {
					if pos[j] < pos[i] {
						t.Errorf("backToFront(%d, %d): %d (between %d and the eye) comes before it", n, cam, j, i)
					}
				}
			}
		}
	}
}

func TestCellOf(t *testing.T) {
	for _, tc := range []struct {
		x, origin, step, last float64
		n, want               int
	}{
		{-0.5, 0, 4, 10, 3, -1},
		{0, 0, 4, 10, 3, 0},
		{3.99, 0, 4, 10, 3, 0},
		{4, 0, 4, 10, 3, 1},
		{9.5, 0, 4, 10, 3, 2}, // in the shorter last cell
		{10, 0, 4, 10, 3, 3},
		{1e300, 0, 4, 10, 3, 3},
		{math.NaN(), 0, 4, 10, 3, -1},
		{37, 32, 2, 48, 8, 2},
	} {
		if got := cellOf(tc.x, tc.origin, tc.step, tc.last, tc.n); got != tc.want {
			t.Errorf("cellOf(%v, %v, %v, %v, %d) = %d, want %d", tc.x, tc.origin, tc.step, tc.last, tc.n, got, tc.want)
		}
	}
}

// TestLowerFirst checks lowerFirst against brute force: the lower
// triangle must come first exactly when a segment from the eye to a point
// of it crosses the upper triangle, and second when the reverse happens.
func TestLowerFirst(t *testing.T) {
	const c0, r0, c1, r1 = 10.0, 20.0, 14.0, 22.0 // an uneven cell, as at a chunk's edge
	upper := [3][2]float64{{c0, r0}, {c0, r1}, {c1, r0}}
	lower := [3][2]float64{{c1, r0}, {c0, r1}, {c1, r1}}
	checked := 0
	for ex := -5.0; ex <= 30; ex += 1.3 {
		for ez := 5.0; ez <= 40; ez += 1.1 {
			eye := [2]float64{ex, ez}
			upperHidesLower := segmentCrosses(eye, lower, upper)
			lowerHidesUpper := segmentCrosses(eye, upper, lower)
			if upperHidesLower && lowerHidesUpper {
				t.Fatalf("eye %v: both triangles can hide each other", eye)
			}
			got := lowerFirst(ex, ez, c0, r0, c1, r1)
			if upperHidesLower && !got || lowerHidesUpper && got {
				t.Errorf("eye %v: lowerFirst = %v, but upper hides lower: %v, lower hides upper: %v", eye, got, upperHidesLower, lowerHidesUpper)
			}
			if upperHidesLower || lowerHidesUpper {
				checked++
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d eyes where one triangle can hide the other", checked)
	}
}

// segmentCrosses reports whether a segment from eye to some point of
// triangle target passes through the interior of triangle front.
func segmentCrosses(eye [2]float64, target, front [3][2]float64) bool {
	const n = 12
	for i := 1; i < n; i++ {
		for j := 1; i+j < n; j++ {
			u, v := float64(i)/n, float64(j)/n
			p := [2]float64{
				target[0][0] + u*(target[1][0]-target[0][0]) + v*(target[2][0]-target[0][0]),
				target[0][1] + u*(target[1][1]-target[0][1]) + v*(target[2][1]-target[0][1]),
			}
			for k := 1; k < 200; k++ {
				s := float64(k) / 200
				if strictlyInTriangle(front, eye[0]+s*(p[0]-eye[0]), eye[1]+s*(p[1]-eye[1])) {
					return true
				}
			}
		}
	}
	return false
}

func strictlyInTriangle(tri [3][2]float64, x, z float64) bool {
	side := func(a, b [2]float64) float64 { return (b[0]-a[0])*(z-a[1]) - (b[1]-a[1])*(x-a[0]) }
	s0, s1, s2 := side(tri[0], tri[1]), side(tri[1], tri[2]), side(tri[2], tri[0])
	const eps = 1e-9
	return (s0 > eps && s1 > eps && s2 > eps) || (s0 < -eps && s1 < -eps && s2 < -eps)
}

// orderCamera is one camera of the ordering test, in sample units.
type orderCamera struct {
	x, z       float64 // position over the map
	above      float64 // height above the ground there; absolute if ground is false
	ground     bool
	yaw, pitch float64
	maxErrorPx float64
}

// orderCameras are the ordering test's views of a 257² map: walking
// height, hill height and high above, several yaws and pitches, looking
// straight down, at the corners, the centre, and outside the map.
var orderCameras = []orderCamera{
	{128, 128, 1.7, true, 0, -5, 1},
	{128, 128, 1.7, true, 135, -20, 2},
	{128, 128, 1.7, true, 250, 10, 4},
	{128, 128, 25, true, 80, -30, 2},
	{128, 128, 80, true, 300, -60, 4},
	{128.5, 127.5, 40, true, 17, -90, 2}, // straight down
	{131.2, 90.7, 3, true, 30, -90, 1},   // straight down, low
	{0, 0, 1.7, true, 45, -3, 1},         // corner, walking
	{0.5, 0.5, 12, true, 45, -15, 4},
	{0, 0, 120, false, 45, -35, 2},
	{256, 256, 1.7, true, 225, -4, 2}, // far corner
	{256, 256, 60, true, 200, -25, 4},
	{256, 0, 1.7, true, 315, 0, 2},
	{0, 256, 30, true, 135, -12, 1},
	{-40, -30, 1.7, true, 50, -2, 2}, // outside the map
	{-40, -30, 90, false, 50, -20, 4},
	{300, 128, 40, true, 270, -10, 2},
	{300, 128, 5, true, 250, -8, 1},
	{128, 300, 100, false, 180, -30, 2},
	{128, -60, 200, false, 0, -45, 4},
	{128, -60, 200, false, 10, -89, 2},
	{64, 200, 1.7, true, 100, -10, 2},
	{64, 200, 1.7, true, 190, 5, 4},
	{200, 64, 8, true, 280, -25, 1},
	{200, 64, 8, true, 10, -40, 2},
	{77.3, 177.7, 3, true, 333, -7, 4},
	{177.7, 77.3, 150, false, 123, -50, 2},
	{32, 32, 20, true, 60, -70, 1},
	{224, 224, 15, true, 250, -15, 8},
	{16.5, 240.5, 1.7, true, 10, -1, 8},
}

// scene is a list of triangles in drawing order as a camera sees them,
// each with its sample positions, used to find where two meet.
type scene struct {
	cam  pinhole
	tris []sceneTri
}

type sceneTri struct {
	sample [3][2]int     // (col, row) of each vertex
	world  [3][3]float64 // world position of each vertex
}

// add appends a triangle of chunk d given by three vertex indices, unless
// a vertex lies nearer than the near plane.
func (sc *scene) add(m *terrain.Heightmap, d *ChunkDraw, v0, v1, v2 int) {
	var t sceneTri
	for q, v := range [3]int{v0, v1, v2} {
		t.sample[q][0], t.sample[q][1] = d.Sample(v)
		t.world[q] = d.World(v, m.CellSize)
		if _, ok := sc.cam.project(t.world[q]); !ok {
			return
		}
	}
	sc.tris = append(sc.tris, t)
}

// wrongPixels draws the scene in its order with the painter's algorithm
// and with a z-buffer, and counts the pixels where they differ, except
// edge ties. It also returns the number of pixels showing terrain.
func (sc *scene) wrongPixels() (wrong, covered int) {
	painter := zbuffer.NewRaster(sc.cam.w, sc.cam.h)
	zbuf := zbuffer.NewRaster(sc.cam.w, sc.cam.h)
	for id, t := range sc.tris {
		var p [3][3]float64
		for q := range 3 {
			p[q], _ = sc.cam.project(t.world[q])
		}
		painter.Fill(p[0], p[1], p[2], id, false)
		zbuf.Fill(p[0], p[1], p[2], id, true)
	}
	return zbuffer.Compare(painter, zbuf, sc.meet), zbuf.Covered()
}

// meet reports whether triangles a and b touch (seen from above: a shared
// vertex or edge, or a vertex of one on an edge of the other where chunks
// of different steps meet) within a pixel of pixel (x, y)'s centre on
// screen. There the depths of the two are equal up to rounding, and the
// vertex snapping of the rasterizer may pick either.
func (sc *scene) meet(x, y, a, b int) bool {
	ta, tb := &sc.tris[a], &sc.tris[b]
	var shared [][3]float64
	for q := range 3 {
		if inClosedTriangle(tb.sample, ta.sample[q]) {
			shared = append(shared, ta.world[q])
		}
		if inClosedTriangle(ta.sample, tb.sample[q]) {
			shared = append(shared, tb.world[q])
		}
	}
	px, py := float64(x)+0.5, float64(y)+0.5
	for i := range shared {
		for j := i; j < len(shared); j++ {
			p, _ := sc.cam.project(shared[i])
			q, _ := sc.cam.project(shared[j])
			if segmentDistance(px, py, p, q) <= 1 {
				return true
			}
		}
	}
	return false
}

// inClosedTriangle reports whether sample position p lies in triangle t or
// on its border, exactly.
func inClosedTriangle(t [3][2]int, p [2]int) bool {
	side := func(a, b [2]int) int {
		return (b[0]-a[0])*(p[1]-a[1]) - (b[1]-a[1])*(p[0]-a[0])
	}
	s0, s1, s2 := side(t[0], t[1]), side(t[1], t[2]), side(t[2], t[0])
	return (s0 >= 0 && s1 >= 0 && s2 >= 0) || (s0 <= 0 && s1 <= 0 && s2 <= 0)
}

// segmentDistance returns the distance from (x, y) to the screen segment
// p–q.
func segmentDistance(x, y float64, p, q [3]float64) float64 {
	dx, dy := q[0]-p[0], q[1]-p[1]
	t := 0.0
	if l2 := dx*dx + dy*dy; l2 > 0 {
		t = min(max(((x-p[0])*dx+(y-p[1])*dy)/l2, 0), 1)
	}
	return math.Hypot(x-p[0]-t*dx, y-p[1]-t*dy)
}

// emitted returns the scene of Select's output in its order.
func emitted(cam pinhole, m *terrain.Heightmap, dst []ChunkDraw) *scene {
	sc := &scene{cam: cam}
	for k := range dst {
		d := &dst[k]
		for p := 0; p < len(d.Tris); p += 3 {
			sc.add(m, d, int(d.Tris[p]), int(d.Tris[p+1]), int(d.Tris[p+2]))
		}
	}
	return sc
}

// rowMajor returns the scene of the same chunks drawn camera-blind: chunks
// and cells in row-major order, each cell's upper triangle first.
func rowMajor(cam pinhole, m *terrain.Heightmap, dst []ChunkDraw) *scene {
	sc := &scene{cam: cam}
	sorted := slices.Clone(dst)
	slices.SortFunc(sorted, func(a, b ChunkDraw) int { return cmp.Or(a.Row0-b.Row0, a.Col0-b.Col0) })
	for k := range sorted {
		d := &sorted[k]
		for j := range d.Rows - 1 {
			for i := range d.Cols - 1 {
				a := j*d.Cols + i
				b, c := a+1, a+d.Cols
				sc.add(m, d, a, c, b)
				sc.add(m, d, b, c, c+1)
			}
		}
	}
	return sc
}

// TestBackToFrontMatchesZBuffer draws Select's output in its order with
// the painter's algorithm and with a z-buffer, for many cameras with mixed
// LOD steps: they must agree on every pixel but edge ties. A camera-blind
// row-major order of the same triangles must not.
func TestBackToFrontMatchesZBuffer(t *testing.T) {
	m := hillsMap(257, 257, 21, 45)
	l := NewLOD(m, 16)
	var dst []ChunkDraw
	steps := map[int]bool{}
	mixedViews := 0
	var blindWrong, blindCovered int
	worstBlind := 0.0
	for n, oc := range orderCameras {
		eye := [3]float64{oc.x * m.CellSize, oc.above, oc.z * m.CellSize}
		if oc.ground {
			eye = groundEye(m, oc.x, oc.z, oc.above)
		}
		cam := newPinhole(eye, oc.yaw, oc.pitch, 320, 240, 60)
		dst = l.Select(cam.view(oc.maxErrorPx), dst)
		viewSteps := map[int]bool{}
		for _, d := range dst {
			steps[d.Step], viewSteps[d.Step] = true, true
		}
		if len(viewSteps) > 1 {
			mixedViews++
		}

		sc := emitted(cam, m, dst)
		wrong, covered := sc.wrongPixels()
		if covered < cam.w*cam.h/10 {
			t.Errorf("camera %d %+v: only %d pixels of terrain in view", n, oc, covered)
		}
		if wrong != 0 {
			t.Errorf("camera %d %+v: %d of %d pixels differ from the z-buffer (%d triangles, steps %v)", n, oc, wrong, covered, len(sc.tris), keys(viewSteps))
		}

		wrong, covered = rowMajor(cam, m, dst).wrongPixels()
		blindWrong += wrong
		blindCovered += covered
		worstBlind = max(worstBlind, float64(wrong)/float64(max(covered, 1)))
	}
	if len(steps) < 4 || mixedViews < len(orderCameras)*2/3 {
		t.Errorf("LOD steps used %v, mixed in %d of %d views: the test does not mix steps enough", keys(steps), mixedViews, len(orderCameras))
	}
	blindFrac := float64(blindWrong) / float64(blindCovered)
	if blindFrac < 0.01 || worstBlind < 0.05 {
		t.Errorf("row-major order: %.2f %% of pixels wrong overall, %.1f %% at worst; want clearly wrong", 100*blindFrac, 100*worstBlind)
	}
	t.Logf("%d cameras, steps %v mixed in %d views; row-major order: %.1f %% of pixels wrong overall, %.1f %% at worst",
		len(orderCameras), keys(steps), mixedViews, 100*blindFrac, 100*worstBlind)
}

// TestBackToFrontInsideCells checks the order of the two triangles of a
// cell on a checkerboard of heights 0 and 1, where every cell folds along
// its diagonal: a ridge or a valley, so that from a low eye one triangle
// of a cell hides part of the other. Swapping the two must show.
func TestBackToFrontInsideCells(t *testing.T) {
	m := terrain.NewHeightmap(41, 41)
	m.VerticalScale = 1.5
	for row := range m.Height {
		for col := range m.Width {
			m.Set(col, row, float32((col+row)%2))
		}
	}
	l := NewLOD(m, 8)
	swappedWrong := 0
	for _, c := range []struct{ x, z, y, yaw, pitch float64 }{
		{-6, -6, 2.5, 45, -12},
		{20.3, 20.6, 2, 10, -20},
		{20.3, 20.6, 2, 200, -25},
		{47, 10, 3, 280, -15},
		{12, 46, 1.8, 160, -8},
		{20.5, 20.5, 12, 30, -60},
	} {
		cam := newPinhole([3]float64{c.x, c.y, c.z}, c.yaw, c.pitch, 320, 240, 60)
		dst := l.Select(cam.view(0.5), nil)
		for _, d := range dst {
			if d.Step != 1 {
				t.Fatalf("camera %+v: a checkerboard chunk drawn at step %d", c, d.Step)
			}
		}
		if wrong, covered := emitted(cam, m, dst).wrongPixels(); wrong != 0 || covered < 1000 {
			t.Errorf("camera %+v: %d of %d pixels differ from the z-buffer", c, wrong, covered)
		}
		for k := range dst {
			tris := dst[k].Tris
			for p := 0; p < len(tris); p += 6 {
				for q := range 3 {
					tris[p+q], tris[p+3+q] = tris[p+3+q], tris[p+q]
				}
			}
		}
		wrong, _ := emitted(cam, m, dst).wrongPixels()
		swappedWrong += wrong
	}
	if swappedWrong < 100 {
		t.Errorf("swapping the triangles of every cell makes only %d pixels wrong", swappedWrong)
	}
	t.Logf("swapping the triangles of every cell: %d wrong pixels", swappedWrong)
}

func keys(set map[int]bool) string {
	var ks []int
	for k := range set {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return fmt.Sprint(ks)
}
