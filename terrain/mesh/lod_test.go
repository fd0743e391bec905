package mesh

import (
	"cmp"
	"context"
	"cordillera/internal/parallel"
	"cordillera/terrain"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
)

// hillsMap returns a w×h map of rolling hills: three sines plus smooth
// random bumps on a lattice of 8 samples, normalised to [0, 1], with unit
// cells and the given vertical scale.
func hillsMap(w, h int, seed uint64, vs float64) *terrain.Heightmap {
	return roughHillsMap(w, h, seed, vs, 0)
}

// roughHillsMap is hillsMap with white noise of amplitude rough added to
// every sample before normalising: ridges and pits one cell wide, whose
// cells fold so that one of their triangles can hide the other.
func roughHillsMap(w, h int, seed uint64, vs, rough float64) *terrain.Heightmap {
	rng := rand.New(rand.NewPCG(seed, 7))
	const lattice = 8
	lw, lh := w/lattice+2, h/lattice+2
	bumps := make([]float64, lw*lh)
	for i := range bumps {
		bumps[i] = rng.Float64()
	}
	m := terrain.NewHeightmap(w, h)
	m.VerticalScale = vs
	for row := range h {
		for col := range w {
			x, z := float64(col), float64(row)
			bx, bz := col/lattice, row/lattice
			fx, fz := (x-float64(bx*lattice))/lattice, (z-float64(bz*lattice))/lattice
			b := func(i, j int) float64 { return bumps[(bz+j)*lw+bx+i] }
			noise := (1-fz)*((1-fx)*b(0, 0)+fx*b(1, 0)) + fz*((1-fx)*b(0, 1)+fx*b(1, 1))
			v := math.Sin(x/23)*math.Cos(z/31) + 0.5*math.Sin((x+2*z)/11) + 0.25*math.Cos((3*x-z)/7) + 0.6*noise
			m.Set(col, row, float32(v+rough*rng.Float64()))
		}
	}
	m.Normalize()
	return m
}

// pinhole is a perspective camera for the tests: eye, orthonormal basis
// (right, up, forward), focal length in pixels, screen size.
type pinhole struct {
	eye, right, up, fwd [3]float64
	focal               float64
	w, h                int
}

const pinholeNear = 0.1

// newPinhole returns a camera at eye looking along yaw (degrees from +z
// towards +x) and pitch (degrees up from the horizon; −90 looks straight
// down) with a vertical field of view of fovY degrees.
func newPinhole(eye [3]float64, yaw, pitch float64, w, h int, fovY float64) pinhole {
	y, p := yaw*math.Pi/180, pitch*math.Pi/180
	fwd := [3]float64{math.Cos(p) * math.Sin(y), math.Sin(p), math.Cos(p) * math.Cos(y)}
	right := [3]float64{-math.Cos(y), 0, math.Sin(y)} // fwd × (0, 1, 0), normalised
	return pinhole{
		eye: eye, fwd: fwd, right: right, up: cross(right, fwd),
		focal: float64(h) / 2 / math.Tan(fovY*math.Pi/360),
		w:     w, h: h,
	}
}

func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func dot(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// project returns p's screen position (pixels, y down) and depth −1/z
// (larger is farther, affine in screen space), and false when p lies
// closer than the near plane.
func (c pinhole) project(p [3]float64) ([3]float64, bool) {
	v := [3]float64{p[0] - c.eye[0], p[1] - c.eye[1], p[2] - c.eye[2]}
	z := dot(v, c.fwd)
	if z < pinholeNear {
		return [3]float64{}, false
	}
	return [3]float64{
		float64(c.w)/2 + c.focal*dot(v, c.right)/z,
		float64(c.h)/2 - c.focal*dot(v, c.up)/z,
		-1 / z,
	}, true
}

// view returns the LOD view of the camera, its frustum built from the
// field of view: a point is inside when its camera-space x lies within
// ±z·tanX, y within ±z·tanY, and z beyond the near plane (no far plane).
func (c pinhole) view(maxErrorPx float64) View {
	tx, ty := float64(c.w)/2/c.focal, float64(c.h)/2/c.focal
	// plane returns the plane through the eye (moved by offset along its
	// normal) with normal sa·a + sb·b.
	plane := func(sa float64, a [3]float64, sb float64, b [3]float64, offset float64) [4]float64 {
		n := [3]float64{sa*a[0] + sb*b[0], sa*a[1] + sb*b[1], sa*a[2] + sb*b[2]}
		return [4]float64{n[0], n[1], n[2], -dot(n, c.eye) - offset}
	}
	return View{
		Eye: c.eye,
		Planes: [6][4]float64{
			plane(1, c.right, tx, c.fwd, 0),  // left: x ≥ −z·tanX
			plane(-1, c.right, tx, c.fwd, 0), // right: x ≤ z·tanX
			plane(1, c.up, ty, c.fwd, 0),     // bottom
			plane(-1, c.up, ty, c.fwd, 0),    // top
			plane(1, c.fwd, 0, c.fwd, pinholeNear),
			{0, 0, 0, 1}, // no far plane
		},
		PixelsPerUnit: c.focal,
		MaxErrorPx:    maxErrorPx,
	}
}

// viewProj returns the camera's OpenGL-style perspective × view matrix,
// column-major, with the given far distance.
func (c pinhole) viewProj(far float64) [16]float32 {
	// Camera space looks along −z: rows right, up, −fwd.
	var view [4][4]float64
	for k := range 3 {
		view[0][k], view[1][k], view[2][k] = c.right[k], c.up[k], -c.fwd[k]
	}
	view[0][3], view[1][3], view[2][3] = -dot(c.right, c.eye), -dot(c.up, c.eye), dot(c.fwd, c.eye)
	view[3][3] = 1
	n, f := pinholeNear, far
	var proj [4][4]float64
	proj[0][0] = 2 * c.focal / float64(c.w)
	proj[1][1] = 2 * c.focal / float64(c.h)
	proj[2][2], proj[2][3] = -(f+n)/(f-n), -2*f*n/(f-n)
	proj[3][2] = -1
	var out [16]float32
	for i := range 4 {
		for j := range 4 {
			var s float64
			for k := range 4 {
				s += proj[i][k] * view[k][j]
			}
			out[4*j+i] = float32(s)
		}
	}
	return out
}

// groundEye returns the point the given height above the terrain at
// sample position (x, z).
func groundEye(m *terrain.Heightmap, x, z, above float64) [3]float64 {
	return [3]float64{x * m.CellSize, m.GroundHeight(x*m.CellSize, z*m.CellSize) + above, z * m.CellSize}
}

func TestLODErrorsStepOneZeroAndMonotone(t *testing.T) {
	m := hillsMap(130, 97, 3, 50)
	l := NewLOD(m, 16)
	cols, rows := l.Chunks()
	if cols != 9 || rows != 6 {
		t.Fatalf("a 130×97 map in 16-cell chunks has %d×%d chunks, want 9×6", cols, rows)
	}
	nonzero := 0
	for j := range rows {
		for i := range cols {
			if e := l.Error(i, j, 1); e != 0 {
				t.Errorf("chunk (%d,%d): ε_1 = %v, want 0", i, j, e)
			}
			for _, s := range []int{2, 4, 8, 16} {
				if l.Error(i, j, s) < l.Error(i, j, s/2) {
					t.Errorf("chunk (%d,%d): ε_%d = %v < ε_%d = %v", i, j, s, l.Error(i, j, s), s/2, l.Error(i, j, s/2))
				}
			}
			if l.Error(i, j, 16) > 0 {
				nonzero++
			}
		}
	}
	if nonzero != cols*rows {
		t.Errorf("only %d of %d chunks of a hilly map have ε_16 > 0", nonzero, cols*rows)
	}
	if e := l.Error(0, 0, 32); !math.IsNaN(e) {
		t.Errorf("ε_32 with 16-cell chunks = %v, want NaN", e)
	}
}

func TestLODErrorPlanarIsZero(t *testing.T) {
	m := terrain.NewHeightmap(77, 50)
	m.VerticalScale = 10
	for row := range m.Height {
		for col := range m.Width {
			m.Set(col, row, float32(0.2+0.004*float64(col)+0.003*float64(row)))
		}
	}
	l := NewLOD(m, 16)
	cols, rows := l.Chunks()
	for j := range rows {
		for i := range cols {
			for _, s := range []int{1, 2, 4, 8, 16} {
				if e := l.Error(i, j, s); e > 1e-5 {
					t.Errorf("ramp chunk (%d,%d): ε_%d = %v, want ≈ 0", i, j, s, e)
				}
			}
		}
	}
}

func TestLODErrorSpike(t *testing.T) {
	for _, tc := range []struct {
		name     string
		col, row int
		want     map[int]float64 // ε_s in units of the spike's height
	}{
		// An odd sample is a vertex of no coarser grid: the coarse
		// surfaces stay flat under it.
		{"odd sample", 21, 37, map[int]float64{1: 0, 2: 1, 4: 1, 8: 1, 16: 1}},
		// A step-2 vertex: its axis neighbours are half-way up the step-2
		// surface; at step 4 and beyond it is gone.
		{"step-2 vertex", 22, 38, map[int]float64{1: 0, 2: 0.5, 4: 1, 8: 1, 16: 1}},
	} {
		m := terrain.NewHeightmap(65, 65)
		m.VerticalScale = 5
		m.Set(tc.col, tc.row, 1)
		l := NewLOD(m, 16)
		for j := range 4 {
			for i := range 4 {
				for s, want := range tc.want {
					if i != tc.col/16 || j != tc.row/16 {
						want = 0
					}
					if got := l.Error(i, j, s); math.Abs(got-want*5) > 1e-12 {
						t.Errorf("%s: chunk (%d,%d) ε_%d = %v, want %v", tc.name, i, j, s, got, want*5)
					}
				}
			}
		}
	}
}

// TestLODErrorUsesTheListingDiagonal: a 3×3 map that is exactly the step-2
// surface split along b–c has ε_2 = 0; split along a–d it would be 1.
func TestLODErrorUsesTheListingDiagonal(t *testing.T) {
	m := terrain.NewHeightmap(3, 3)
	copy(m.Samples, []float32{
		1, 0.5, 0,
		0.5, 0, 0.5,
		0, 0.5, 1,
	})
	if e := NewLOD(m, 2).Error(0, 0, 2); e != 0 {
		t.Errorf("ε_2 = %v, want 0 for the surface split along b–c", e)
	}
	m.Set(1, 1, 1) // now it is the surface split along a–d
	if e := NewLOD(m, 2).Error(0, 0, 2); e != 1 {
		t.Errorf("ε_2 = %v, want 1 for the surface split along a–d", e)
	}
}

// BenchmarkNewLOD4097 measures the per-chunk error table of a 4097² map,
// which the explorer builds for every new world (it was under a second on
// two cores when last measured; a benchmark, not a test, so a busy machine
// cannot fail the suite).
func BenchmarkNewLOD4097(b *testing.B) {
	m := terrain.NewHeightmap(4097, 4097)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range m.Samples {
		m.Samples[i] = rng.Float32()
	}
	for b.Loop() {
		NewLOD(m, 32)
	}
}

// selectionSetup returns a hilly 257² map and a low camera at one corner
// looking across it.
func selectionSetup() (*terrain.Heightmap, pinhole) {
	m := hillsMap(257, 257, 5, 40)
	return m, newPinhole(groundEye(m, 4, 4, 1.7), 45, -3, 320, 240, 60)
}

func TestSelectCullsBehindCamera(t *testing.T) {
	m := hillsMap(257, 257, 5, 40)
	// At the map's centre looking along +z: chunks well behind are culled.
	cam := newPinhole(groundEye(m, 128, 128, 5), 0, -10, 320, 240, 60)
	l := NewLOD(m, 16)
	got := l.Select(cam.view(2), nil)
	present := map[[2]int]bool{}
	for _, d := range got {
		present[[2]int{d.Col0 / 16, d.Row0 / 16}] = true
	}
	for _, tc := range []struct {
		i, j int
		want bool
	}{
		{8, 3, false}, {8, 0, false}, {2, 2, false}, {15, 5, false}, // behind
		{8, 12, true}, {8, 8, true}, {7, 15, true}, // ahead
	} {
		if present[[2]int{tc.i, tc.j}] != tc.want {
			t.Errorf("chunk (%d,%d) selected = %v, want %v", tc.i, tc.j, !tc.want, tc.want)
		}
	}
	if len(got) > 16*16/2+16 {
		t.Errorf("%d of 256 chunks selected looking one way, want about half at most", len(got))
	}
}

func TestSelectFull(t *testing.T) {
	for _, size := range [][2]int{{2, 2}, {3, 2}, {37, 20}, {20, 37}, {257, 257}} {
		m := hillsMap(size[0], size[1], 9, 40)
		for _, chunk := range []int{1, 8, 16} {
			l := NewLOD(m, chunk)
			_, cam := selectionSetup()
			v := cam.view(2)
			v.Full = true
			v.Eye = [3]float64{-1000, 0, -1000} // every chunk behind nothing: still all drawn
			got := l.Select(v, nil)
			cols, rows := l.Chunks()
			if len(got) != cols*rows {
				t.Fatalf("%v map, %d-cell chunks: %d chunks drawn, want all %d", size, chunk, len(got), cols*rows)
			}
			cells := make([]int, (m.Width-1)*(m.Height-1))
			for _, d := range got {
				if d.Step != 1 {
					t.Fatalf("%v map: chunk at (%d,%d) has step %d with Full", size, d.Col0, d.Row0, d.Step)
				}
				for k, h := range d.Heights {
					col, row := d.Sample(k)
					if want := float32(float64(m.At(col, row)) * m.VerticalScale); h != want {
						t.Fatalf("%v map: vertex at sample (%d,%d) has height %v, want %v", size, col, row, h, want)
					}
				}
				checkTriangles(t, &d)
				for c := 0; c < len(d.Tris); c += 6 {
					col, row := d.Sample(int(min(d.Tris[c], d.Tris[c+3])))
					cells[row*(m.Width-1)+col]++
				}
			}
			for k, n := range cells {
				if n != 1 {
					t.Fatalf("%v map, %d-cell chunks: cell %d drawn %d times", size, chunk, k, n)
				}
			}
		}
	}
}

// checkTriangles checks that d's triangles are its cells, each split as
// in listing 5.1 into (a, c, b) and (b, c, d), both triangles of a cell
// next to each other.
func checkTriangles(t *testing.T, d *ChunkDraw) {
	t.Helper()
	cells := (d.Cols - 1) * (d.Rows - 1)
	if len(d.Tris) != 6*cells {
		t.Fatalf("chunk at (%d,%d): %d indices for %d cells", d.Col0, d.Row0, len(d.Tris), cells)
	}
	seen := make([]bool, cells)
	for p := 0; p < len(d.Tris); p += 6 {
		t1, t2 := [3]uint32(d.Tris[p:p+3]), [3]uint32(d.Tris[p+3:p+6])
		if t1[0] != t2[2] && t1[2] != t2[0] {
			t.Fatalf("chunk at (%d,%d): triangles %v %v do not share the listing's diagonal", d.Col0, d.Row0, t1, t2)
		}
		if t1[2] == t2[0] { // (a, c, b) first
			t1, t2 = t2, t1
		}
		a := t2[0]
		b, c := a+1, a+uint32(d.Cols)
		if t1 != [3]uint32{b, c, c + 1} || t2 != [3]uint32{a, c, b} || int(a)%d.Cols == d.Cols-1 {
			t.Fatalf("chunk at (%d,%d): cell triangles %v %v, want (a,c,b) (b,c,d)", d.Col0, d.Row0, t2, t1)
		}
		cell := int(a)/d.Cols*(d.Cols-1) + int(a)%d.Cols
		if seen[cell] {
			t.Fatalf("chunk at (%d,%d): cell %d twice", d.Col0, d.Row0, cell)
		}
		seen[cell] = true
	}
}

// chunkDistance is the distance from the eye to chunk d's world AABB.
func chunkDistance(m *terrain.Heightmap, d *ChunkDraw, eye [3]float64) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for r := d.Row0; r <= d.Row1; r++ {
		for c := d.Col0; c <= d.Col1; c++ {
			lo = min(lo, float64(m.At(c, r))*m.VerticalScale)
			hi = max(hi, float64(m.At(c, r))*m.VerticalScale)
		}
	}
	box := [2][3]float64{
		{float64(d.Col0) * m.CellSize, lo, float64(d.Row0) * m.CellSize},
		{float64(d.Col1) * m.CellSize, hi, float64(d.Row1) * m.CellSize},
	}
	var d2 float64
	for a := range 3 {
		e := eye[a] - min(max(eye[a], box[0][a]), box[1][a])
		d2 += e * e
	}
	return math.Sqrt(d2)
}

func TestSelectStepsMeetErrorBudget(t *testing.T) {
	m, cam := selectionSetup()
	l := NewLOD(m, 16)
	for _, maxPx := range []float64{0.5, 1, 2, 4} {
		v := cam.view(maxPx)
		got := l.Select(v, nil)
		for _, d := range got {
			i, j := d.Col0/16, d.Row0/16
			dist := chunkDistance(m, &d, v.Eye)
			px := l.Error(i, j, d.Step) * v.PixelsPerUnit
			if px > maxPx*dist {
				t.Errorf("MaxErrorPx %v: chunk (%d,%d) step %d projects ε = %v px at distance %v", maxPx, i, j, d.Step, px/dist, dist)
			}
			// And it is the coarsest such step.
			if next := l.Error(i, j, 2*d.Step); d.Step < 16 && next*v.PixelsPerUnit <= maxPx*dist {
				t.Errorf("MaxErrorPx %v: chunk (%d,%d) took step %d though step %d fits (%v px)", maxPx, i, j, d.Step, 2*d.Step, next*v.PixelsPerUnit/dist)
			}
		}
	}
}

func TestSelectFarChunksCoarser(t *testing.T) {
	m, cam := selectionSetup()
	l := NewLOD(m, 16)
	v := cam.view(2)
	got := l.Select(v, nil)
	nearStep, farStep := 0, 0
	nearDist, farDist := math.Inf(1), 0.0
	for _, d := range got {
		dist := chunkDistance(m, &d, v.Eye)
		if dist < nearDist {
			nearDist, nearStep = dist, d.Step
		}
		if dist > farDist {
			farDist, farStep = dist, d.Step
		}
	}
	if nearStep != 1 || farStep < 4 {
		t.Errorf("nearest chunk (%.0f units) has step %d, farthest (%.0f units) step %d; want 1 and ≥ 4", nearDist, nearStep, farDist, farStep)
	}
	// The mean step grows with distance: compare the nearest and farthest thirds.
	slices.SortFunc(got, func(a, b ChunkDraw) int {
		return cmp.Compare(chunkDistance(m, &a, v.Eye), chunkDistance(m, &b, v.Eye))
	})
	third := len(got) / 3
	mean := func(ds []ChunkDraw) float64 {
		s := 0
		for _, d := range ds {
			s += d.Step
		}
		return float64(s) / float64(len(ds))
	}
	if near, far := mean(got[:third]), mean(got[len(got)-third:]); near >= far {
		t.Errorf("mean step of the nearest third %v ≥ the farthest third's %v", near, far)
	}
}

// edgeHeights returns, for the border of d at column col (alongRows) or
// row row, the height at every sample from Row0 to Row1 (or Col0 to Col1),
// interpolated linearly between d's border vertices.
func edgeHeights(d *ChunkDraw, alongRows bool, index int) []float64 {
	n, stride, first, start, end := d.Rows, d.Cols, index, d.Row0, d.Row1
	if !alongRows {
		n, stride, first, start, end = d.Cols, 1, index*d.Cols, d.Col0, d.Col1
	}
	out := make([]float64, end-start+1)
	for v := range n - 1 {
		p0, p1 := min(start+v*d.Step, end), min(start+(v+1)*d.Step, end)
		h0, h1 := float64(d.Heights[first+v*stride]), float64(d.Heights[first+(v+1)*stride])
		for p := p0; p <= p1; p++ {
			out[p-start] = h0 + float64(p-p0)/float64(p1-p0)*(h1-h0)
		}
	}
	return out
}

// cracks counts the shared-edge samples of adjacent chunks in got whose
// heights differ by more than 1e-6 relative, and the edges between chunks
// of different steps.
func cracks(got []ChunkDraw, chunkCells int) (bad, mixedEdges int) {
	at := map[[2]int]*ChunkDraw{}
	for k := range got {
		at[[2]int{got[k].Col0 / chunkCells, got[k].Row0 / chunkCells}] = &got[k]
	}
	compare := func(a, b []float64) {
		for k := range a {
			if math.Abs(a[k]-b[k]) > 1e-6*max(math.Abs(a[k]), math.Abs(b[k]), 1) {
				bad++
			}
		}
	}
	for key, d := range at {
		if r := at[[2]int{key[0] + 1, key[1]}]; r != nil {
			compare(edgeHeights(d, true, d.Cols-1), edgeHeights(r, true, 0))
			if r.Step != d.Step {
				mixedEdges++
			}
		}
		if b := at[[2]int{key[0], key[1] + 1}]; b != nil {
			compare(edgeHeights(d, false, d.Rows-1), edgeHeights(b, false, 0))
			if b.Step != d.Step {
				mixedEdges++
			}
		}
	}
	return bad, mixedEdges
}

func TestSelectNoCracks(t *testing.T) {
	m := hillsMap(257, 201, 11, 60)
	l := NewLOD(m, 16)
	rng := rand.New(rand.NewPCG(4, 4))
	var dst []ChunkDraw
	mixed, unstitched := 0, 0
	for trial := range 60 {
		x, z := rng.Float64()*300-20, rng.Float64()*240-20
		eye := groundEye(m, x, z, 1.7+rng.Float64()*rng.Float64()*150)
		cam := newPinhole(eye, rng.Float64()*360, -rng.Float64()*60, 320, 240, 40+rng.Float64()*50)
		dst = l.Select(cam.view(0.5+rng.Float64()*6), dst)
		bad, edges := cracks(dst, 16)
		if bad > 0 {
			t.Errorf("camera %d: %d shared-edge samples differ between neighbouring chunks", trial, bad)
		}
		mixed += edges
		// The same selection without the stitching has cracks.
		for k := range dst {
			d := &dst[k]
			for v := range d.Heights {
				col, row := d.Sample(v)
				d.Heights[v] = float32(float64(m.At(col, row)) * m.VerticalScale)
			}
		}
		bad, _ = cracks(dst, 16)
		unstitched += bad
	}
	if mixed < 100 {
		t.Errorf("only %d edges between chunks of different steps over all cameras", mixed)
	}
	if unstitched == 0 {
		t.Error("no cracks even without stitching: the check cannot fail")
	}
	t.Logf("%d edges between different steps; unstitched they would have %d cracked samples", mixed, unstitched)
}

// TestSelectKeepsUnsharedVerticesExact: only border vertices next to a
// coarser chunk move, and corners never do.
func TestSelectKeepsUnsharedVerticesExact(t *testing.T) {
	m, cam := selectionSetup()
	l := NewLOD(m, 16)
	moved := 0
	for _, d := range l.Select(cam.view(1), nil) {
		for k, h := range d.Heights {
			col, row := d.Sample(k)
			if h == float32(float64(m.At(col, row))*m.VerticalScale) {
				continue
			}
			moved++
			onCorner := (col == d.Col0 || col == d.Col1) && (row == d.Row0 || row == d.Row1)
			onBorder := col == d.Col0 || col == d.Col1 || row == d.Row0 || row == d.Row1
			if onCorner || !onBorder {
				t.Fatalf("chunk at (%d,%d) moved vertex at sample (%d,%d)", d.Col0, d.Row0, col, row)
			}
		}
	}
	if moved == 0 {
		t.Error("no border vertex moved: the view has no steps mixed")
	}
}

func TestSelectDeterministicAndAllocationFree(t *testing.T) {
	m, cam := selectionSetup()
	l := NewLOD(m, 16)
	v := cam.view(1)
	v.Full = true // large enough for the parallel path
	a := l.Select(v, nil)
	prev := runtime.GOMAXPROCS(1)
	b := l.Select(v, nil)
	runtime.GOMAXPROCS(prev)
	if len(a) != len(b) {
		t.Fatalf("%d chunks on all cores, %d on one", len(a), len(b))
	}
	for k := range a {
		if !slices.Equal(a[k].Tris, b[k].Tris) || !slices.Equal(a[k].Heights, b[k].Heights) || a[k].Col0 != b[k].Col0 || a[k].Row0 != b[k].Row0 {
			t.Fatalf("chunk %d differs between all cores and one", k)
		}
	}
	v.Full = false
	dst := l.Select(v, nil)
	if allocs := testing.AllocsPerRun(20, func() { dst = l.Select(v, dst) }); allocs != 0 {
		t.Errorf("Select allocates %v times per frame once warm", allocs)
	}
}

func TestFrustumPlanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for range 20 {
		eye := [3]float64{rng.Float64() * 100, rng.Float64() * 50, rng.Float64() * 100}
		cam := newPinhole(eye, rng.Float64()*360, rng.Float64()*180-90, 320, 240, 30+rng.Float64()*60)
		const far = 500
		vp := cam.viewProj(far)
		planes := FrustumPlanes(vp)
		fromFOV := cam.view(1).Planes
		for range 500 {
			p := [3]float64{eye[0] + rng.NormFloat64()*200, eye[1] + rng.NormFloat64()*200, eye[2] + rng.NormFloat64()*200}
			var clip [4]float64
			for i := range 4 {
				clip[i] = float64(vp[i])*p[0] + float64(vp[4+i])*p[1] + float64(vp[8+i])*p[2] + float64(vp[12+i])
			}
			w := clip[3]
			inClip := math.Abs(clip[0]) <= w && math.Abs(clip[1]) <= w && math.Abs(clip[2]) <= w
			inPlanes, inFOV, margin := true, true, math.Inf(1)
			for k, pl := range planes {
				dp := pl[0]*p[0] + pl[1]*p[1] + pl[2]*p[2] + pl[3]
				margin = min(margin, math.Abs(dp))
				inPlanes = inPlanes && dp >= 0
				if k < 5 {
					f := fromFOV[k]
					inFOV = inFOV && f[0]*p[0]+f[1]*p[1]+f[2]*p[2]+f[3] >= 0
				}
			}
			if margin < 1e-2 {
				continue // too close to a plane for float32 matrices
			}
			if inPlanes != inClip {
				t.Fatalf("point %v: inside the planes = %v, inside clip space = %v", p, inPlanes, inClip)
			}
			if inClip && !inFOV {
				t.Fatalf("point %v inside the matrix frustum but outside the test camera's planes", p)
			}
		}
	}
}

// lowView1025 is the benchmark's view: a walker 1.7 units above the ground
// near one corner of a 1025² map, looking across it.
func lowView1025(b *testing.B) (*LOD, View) {
	p := terrain.DefaultParams()
	p.Size = 1025
	m, err := terrain.Generate(context.Background(), p, nil)
	if err != nil {
		b.Fatal(err)
	}
	cam := newPinhole(groundEye(m, 40, 60, 1.7), 50, -4, 640, 480, 60)
	return NewLOD(m, 32), cam.view(1)
}

func benchmarkSelect(b *testing.B, full bool) {
	l, v := lowView1025(b)
	v.Full = full
	var dst []ChunkDraw
	for b.Loop() {
		dst = l.Select(v, dst)
	}
	tris, verts := 0, 0
	for _, d := range dst {
		tris += len(d.Tris) / 3
		verts += len(d.Heights)
	}
	b.ReportMetric(float64(tris), "tris")
	b.ReportMetric(float64(verts), "verts")
	b.ReportMetric(float64(len(dst)), "chunks")
}

func BenchmarkLODSelect1025(b *testing.B)     { benchmarkSelect(b, false) }
func BenchmarkLODSelect1025Full(b *testing.B) { benchmarkSelect(b, true) }

func TestLODDegenerateMaps(t *testing.T) {
	for _, size := range [][2]int{{1, 5}, {5, 1}, {1, 1}} {
		l := NewLOD(terrain.NewHeightmap(size[0], size[1]), 16)
		if cols, rows := l.Chunks(); cols != 0 || rows != 0 {
			t.Errorf("%v map: %d×%d chunks, want none", size, cols, rows)
		}
		if got := l.Select(View{Full: true}, nil); len(got) != 0 {
			t.Errorf("%v map: Select returned %d chunks", size, len(got))
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("NewLOD with 0-cell chunks did not panic")
		}
	}()
	NewLOD(terrain.NewHeightmap(3, 3), 0)
}

// triangleCount counts the triangles of a selection.
func triangleCount(got []ChunkDraw) int {
	n := 0
	for k := range got {
		n += len(got[k].Tris) / 3
	}
	return n
}

// TestSelectTriangleBudget: on a rough map, where the error budget keeps
// nearly every chunk at step 1, MaxTriangles coarsens the selection to
// fit, still without cracks; an ample budget changes nothing; and the
// count Select budgets with is the count it emits.
func TestSelectTriangleBudget(t *testing.T) {
	m := roughHillsMap(257, 201, 12, 60, 3)
	l := NewLOD(m, 16)
	rng := rand.New(rand.NewPCG(8, 1))
	var free, capped []ChunkDraw
	for trial := range 30 {
		x, z := rng.Float64()*300-20, rng.Float64()*240-20
		eye := groundEye(m, x, z, 1.7+rng.Float64()*rng.Float64()*150)
		cam := newPinhole(eye, rng.Float64()*360, -rng.Float64()*60, 320, 240, 40+rng.Float64()*50)
		v := cam.view(1)
		free = l.Select(v, free)
		all := triangleCount(free)
		if est := l.selectedTriangles(); est != all {
			t.Fatalf("camera %d: Select budgets with %d triangles but emits %d", trial, est, all)
		}
		if all < 2000 {
			continue // too little in view to need a budget
		}
		budget := all / 4
		v.MaxTriangles = budget
		capped = l.Select(v, capped)
		if got := triangleCount(capped); got > budget || got < budget/2 {
			t.Errorf("camera %d: %d triangles under a budget of %d (%d without)", trial, got, budget, all)
		}
		if bad, _ := cracks(capped, 16); bad > 0 {
			t.Errorf("camera %d: %d cracked samples under the budget", trial, bad)
		}
		v.MaxTriangles = all
		if capped = l.Select(v, capped); triangleCount(capped) != all || len(capped) != len(free) {
			t.Errorf("camera %d: an ample budget changed the selection: %d triangles, want %d", trial, triangleCount(capped), all)
		}
	}

	// Full: the finest common step that fits.
	_, cam := selectionSetup()
	v := cam.view(1)
	v.Full, v.MaxTriangles = true, 2*256*256/4
	got := l.Select(v, nil)
	for _, d := range got {
		if d.Step != 2 {
			t.Fatalf("Full under a budget of a quarter of the cells' triangles: a chunk has step %d, want 2", d.Step)
		}
	}
	if n := triangleCount(got); n > v.MaxTriangles {
		t.Errorf("Full: %d triangles over the budget %d", n, v.MaxTriangles)
	}
}

// NewLODContext is NewLOD as cancellable work: the same chunk errors while
// its context lives, context.Canceled once it is done.
func TestNewLODContext(t *testing.T) {
	m := hillsMap(257, 193, 3, 40)
	l, err := NewLODContext(context.Background(), m, 32)
	if err != nil {
		t.Fatal(err)
	}
	want := NewLOD(m, 32)
	cols, rows := want.Chunks()
	for j := range rows {
		for i := range cols {
			for _, step := range []int{1, 2, 4, 8} {
				if a, b := l.Error(i, j, step), want.Error(i, j, step); a != b && !(math.IsNaN(a) && math.IsNaN(b)) {
					t.Fatalf("chunk (%d, %d) step %d: error %v, NewLOD's %v", i, j, step, a, b)
				}
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewLODContext(ctx, m, 32); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want context.Canceled", err)
	}
}

// Building the level of detail, the longest part of writing a decimated
// mesh, moves a progress bar row by row: the reports never go back, many
// come before the end, and 1 comes last, once the LOD is whole (its errors
// those of NewLOD).
func TestNewLODReportsItsProgress(t *testing.T) {
	m := hillsMap(513, 385, 3, 40)
	var mu sync.Mutex
	var reports []float64
	l, err := NewLODProgress(context.Background(), m, 32, func(f float64) {
		mu.Lock()
		defer mu.Unlock()
		reports = append(reports, f)
	})
	if err != nil {
		t.Fatal(err)
	}
	cols, rows := l.Chunks()
	if len(reports) < rows/parallel.RowBlock {
		t.Fatalf("%d reports for %d chunk rows; want one every %d rows", len(reports), rows, parallel.RowBlock)
	}
	prev := 0.0
	for i, f := range reports {
		if f < prev || f > 1 {
			t.Errorf("report %d is %v after %v", i, f, prev)
		}
		if f == 1 && i != len(reports)-1 {
			t.Errorf("100 %% at report %d of %d", i+1, len(reports))
		}
		prev = f
	}
	if last := reports[len(reports)-1]; last != 1 {
		t.Errorf("the last report is %v, want 1", last)
	}
	if between := len(reports) - 1; reports[between/2] <= 0 || reports[between/2] >= 1 {
		t.Errorf("the middle report is %v; want a fraction strictly between 0 and 1", reports[between/2])
	}
	want := NewLOD(m, 32)
	for j := range rows {
		for i := range cols {
			for _, step := range []int{1, 2, 4, 8, 16} {
				if a, b := l.Error(i, j, step), want.Error(i, j, step); a != b && !(math.IsNaN(a) && math.IsNaN(b)) {
					t.Fatalf("chunk (%d, %d) step %d: error %v, NewLOD's %v", i, j, step, a, b)
				}
			}
		}
	}
}
