// Package beyond is the land beyond a map: a mesh of square cells in
// rings round the map's square, each ring's cells twice as wide as the
// last's (a clipmap's nesting), with the heights, slopes and fade of a
// height function at its vertices, how its cells are drawn without cracks,
// in what order, and the height of what is drawn at any point. It knows
// nothing of how the heights are made: package terrain gives it the noise
// of a generated map, or land synthesised from a loaded one.
package beyond

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
)

// Land is the land around a map, the map's own square left out, as a
// mesh of square cells in rings: ring 0 round the map, each ring after
// it round the one before with cells twice as wide (a clipmap's nesting).
// A tensor grid of lines through the map would do with fewer vertices,
// but its cells beside the map are a map sample step wide across the
// strip and kilometres long along it, and their heights, slopes and
// texturing streak as a cross through any view from high above; square
// cells sample the noise alike in every direction.
//
// Positions are in the map's samples (the map spans columns 0 … W−1 and
// rows 0 … H−1; north is row 0, west column 0). Vertices are shared
// between neighbouring cells and rings, and a cell's side that has more
// vertices of the mesh on it than its corners (a coarse cell's inner side
// along the finer ring, where the finer ring has a vertex at the middle of
// each coarse side) lists them, so that the mesh drawn from the cells has
// no T-junction and no crack. The cells along the map's edges list none:
// the explorer stitches them to the map's edge samples.
type Land struct {
	// X and Z are the vertices' positions in map samples.
	X, Z []int
	// Heights are the vertices' world heights (the map's heights ×
	// VerticalScale), the height function evaluated at each vertex.
	Heights []float32
	// Fade is, per vertex, how much of the heights shows against the level
	// ground the explorer continues with: 1 up to fadeFrom of the
	// reach, 0 at its end, smooth between, so that the outer ring meets
	// the plane beyond it.
	Fade []float32
	// SlopeX and SlopeZ are, per vertex, the height's gradient (world
	// height per world distance) averaged over a box half as wide as the
	// vertex's cells (boxSlope, SlopeBox). A gradient at the map's own sample
	// spacing, sampled at vertices 16 and more samples apart, aliases:
	// each vertex draws a random fine slope, and every cell shades and
	// takes rock or grass by it, as blotches the size of the cells. The
	// map, seen from as far, is shaded with its normals filtered to the
	// pixel's footprint, the same band.
	SlopeX, SlopeZ []float32
	// Cells are the mesh's cells, ring by ring.
	Cells []Cell
	// Rings are the cells' layout, ring 0 round the map first.
	Rings []Ring
	// CellSize is the map's cell size: the world distance between
	// neighbouring map samples.
	CellSize float64
	// Width and Height are the map's samples along x and z.
	Width, Height int
	// reach is where the fade ends, in samples beyond the map.
	reach float64
	// height is the height the outside was made of at any sample (in
	// the map's units), and vscale the map's vertical scale.
	height func(col, row int) float64
	vscale float64
}

// Cell is one cell of the outside: the square (or, next to the
// map's last column or row, near-square) X0 … X1 × Z0 … Z1.
type Cell struct {
	X0, Z0, X1, Z1 int
	// Corners are the vertices at (X0, Z0), (X1, Z0), (X0, Z1), (X1, Z1).
	Corners [4]int
	// Side is the one side with more to it than its corners: SideNone,
	// or the side (SideNorth at Z0, SideSouth at Z1, SideWest at X0,
	// SideEast at X1) that lies on the map's edge (OnMap) or that has
	// the vertices Extra strictly inside it, in increasing x or z.
	Side  int
	OnMap bool
	Extra []int
}

// The sides of a cell.
const (
	SideNone = iota
	SideNorth
	SideSouth
	SideWest
	SideEast
)

// Ring is one ring of cells: a tensor grid of lines Xs × Zs (in
// map samples) with the ring inside it, or the map, left out as a hole
// between lines Hole[0] … Hole[1] of Xs and Hole[2] … Hole[3] of Zs.
type Ring struct {
	Xs, Zs []int
	Hole   [4]int
	// Step is the ring's cell size in samples.
	Step int
	// cells holds, for the grid's cell (i, j), its index in Cells at
	// j·(len(Xs)−1) + i; −1 in the hole.
	cells []int
}

// cell returns the index in Cells of grid cell (i, j), −1 in the hole.
func (r *Ring) cell(i, j int) int { return r.cells[j*(len(r.Xs)-1)+i] }

// The layout: ring 0's cells are Step samples wide (at least 16,
// a power of two, so that the corners of the cells along the map's edges
// fall on vertices of the explorer's chunks, 32 cells drawn every 1st to
// 16th sample), and each ring is at least RingCells of its cells
// thick, so that a cell's size is about a tenth of its distance from the
// map, out to Reach map widths beyond each edge. That keeps the
// vertices fewer than a tensor grid growing 15 % a line (the earlier
// layout) had for a 1025² map and about as many for a 129² one, with
// cells next to the map as fine across the strips beside it and far
// finer along them.
const (
	cellsAcross = 64
	minStep     = 16
	maxStep     = 32
	RingCells   = 16
	Reach       = 3.0
	fadeFrom    = 0.4
)

// Step is the size, in map samples, of the outside's cells next
// to a map of side samples.
func Step(side int) int {
	step := minStep
	for step < maxStep && step*cellsAcross < side-1 {
		step *= 2
	}
	return max(min(step, side-1), 1)
}

// ringLines returns the lines along one axis of a ring of cells c
// samples wide from lo to hi (both multiples of c) round the span
// in0 … in1 inside them: every multiple of c, and in0 and in1, with the
// multiples nearer than c/2 to in0 or in1 left out so that no cell is
// less than half as wide as the rest. The ring round a map whose side
// is no multiple of c has its lines at the map's edges; the rings after
// it are multiples of c through and through.
func ringLines(lo, hi, in0, in1, c int) []int {
	var lines []int
	for x := lo; x <= hi; x += c {
		if x != in0 && x != in1 && (abs(x-in0)*2 < c || abs(x-in1)*2 < c) {
			continue
		}
		lines = append(lines, x)
	}
	for _, e := range []int{in0, in1} {
		if k, found := slices.BinarySearch(lines, e); !found {
			lines = slices.Insert(lines, k, e)
		}
	}
	return lines
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// floorTo and ceilTo round x down or up to a multiple of c > 0.
func floorTo(x, c int) int {
	q := x / c
	if x%c != 0 && x < 0 {
		q--
	}
	return q * c
}

func ceilTo(x, c int) int { return -floorTo(-x, c) }

// fade is the heights' weight at d samples from the map, out of a
// reach of r: 1 near the map, falling smoothly to 0 at r.
func fade(d, r float64) float32 {
	t := min(max((d/r-fadeFrom)/(1-fadeFrom), 0), 1)
	return float32(1 - t*t*(3-2*t))
}

// fadeSlope is the derivative of fade by d.
func fadeSlope(d, r float64) float64 {
	t := (d/r - fadeFrom) / (1 - fadeFrom)
	if t <= 0 || t >= 1 {
		return 0
	}
	return -6 * t * (1 - t) / ((1 - fadeFrom) * r)
}

// New lays the rings round a map of width × height samples, cellSize
// apart, reaching Reach map widths and at least minReach world units
// beyond each edge, with the heights (in the map's units, 0 … 1 on a
// normalised map, times verticalScale in the world) that heightAt gives
// at any sample position; on the map's edge it must give the map's own
// samples.
func New(ctx context.Context, width, height int, cellSize, verticalScale, minReach float64, heightAt func(col, row int) float64) (*Land, error) {
	if width < 2 || height < 2 {
		return nil, fmt.Errorf("beyond: a %d×%d map has no land beyond it", width, height)
	}
	reach := max(Reach*float64(max(width, height)-1), minReach/cellSize)
	o := &Land{CellSize: cellSize, Width: width, Height: height, reach: reach, height: heightAt, vscale: verticalScale}
	if err := o.layRings(Step(max(width, height))); err != nil {
		return nil, err
	}
	n := len(o.X)
	o.Heights = make([]float32, n)
	o.Fade = make([]float32, n)
	o.SlopeX = make([]float32, n)
	o.SlopeZ = make([]float32, n)
	for k := range n {
		if k%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		col, row := o.X[k], o.Z[k]
		o.Heights[k] = float32(heightAt(col, row) * verticalScale)
		gx, gz := boxSlope(heightAt, col, row, o.SlopeBox(col, row))
		o.SlopeX[k] = float32(gx * verticalScale / cellSize)
		o.SlopeZ[k] = float32(gz * verticalScale / cellSize)
		o.Fade[k] = fade(o.Distance(col, row), reach)
	}
	return o, nil
}

// boxSlope is the gradient (height per sample) at (col, row) of height
// averaged over a box s samples wide: the differences across the box's
// width along each axis, at a quarter of its width either side of the
// vertex across it. With s 1 (or less) it is the central difference over
// the neighbouring samples.
func boxSlope(height func(col, row int) float64, col, row, s int) (gx, gz float64) {
	if s < 2 {
		return (height(col+1, row) - height(col-1, row)) / 2, (height(col, row+1) - height(col, row-1)) / 2
	}
	h, q := s/2, max(s/4, 1)
	for _, d := range [2]int{-q, q} {
		gx += height(col+h, row+d) - height(col-h, row+d)
		gz += height(col+d, row+h) - height(col+d, row-h)
	}
	return gx / float64(4*h), gz / float64(4*h)
}

// SlopeBox is the width, in samples, of the box the slope of the vertex at
// (col, row) is averaged over: half its cells' size. A box as wide as the
// cells left the land beyond too smooth at a low sun: the mean slope of a
// cell catches little of a sun a few degrees high, where its steeper
// facets catch much, and the hills' relief and shadows faded out.
func (o *Land) SlopeBox(col, row int) int { return o.vertexStep(col, row) / 2 }

// vertexStep is the cell size, in samples, of the finest ring that holds
// the vertex at (col, row); 1 on the map's edge, where the vertex meets
// the map's samples and their one-sample normals.
func (o *Land) vertexStep(col, row int) int {
	if o.Distance(col, row) == 0 {
		return 1
	}
	for _, r := range o.Rings {
		if col >= r.Xs[0] && col <= r.Xs[len(r.Xs)-1] && row >= r.Zs[0] && row <= r.Zs[len(r.Zs)-1] {
			return r.Step
		}
	}
	return o.Rings[len(o.Rings)-1].Step
}

// Distance is how far sample (col, row) lies beyond the map, in samples,
// along the nearer axis: the fade's argument, so that the fade's lines
// are squares round the map like the rings.
func (o *Land) Distance(col, row int) float64 {
	return o.distanceAt(float64(col), float64(row))
}

// distanceAt is distance at any point (fx, fz), in samples.
func (o *Land) distanceAt(fx, fz float64) float64 {
	dx := max(-fx, fx-float64(o.Width-1), 0)
	dz := max(-fz, fz-float64(o.Height-1), 0)
	return max(dx, dz)
}

// FineHeight is the height at world (x, z), off the map's square, of the
// land the outside was made of, at the map's own sample spacing (the
// nearest sample), faded towards level as Surface fades the vertices:
// the relief the vertices' fine slopes shade, which the cells, 16 and
// more samples wide, are too coarse to hold. The light of the land
// beyond casts its shadows from it, so that they fall where the shading
// shows hills.
func (o *Land) FineHeight(x, z float64, level float32) float64 {
	fx, fz := x/o.CellSize, z/o.CellSize
	fade := float64(fade(o.distanceAt(fx, fz), o.reach))
	if fade == 0 {
		return float64(level)
	}
	h := o.height(int(math.Round(fx)), int(math.Round(fz))) * o.vscale
	return float64(level) + fade*(h-float64(level))
}

// layRings lays the rings out with ring 0's cells step samples wide,
// adding their vertices and cells, until they reach o.reach.
func (o *Land) layRings(step int) error {
	// The rings' lines first, to size what they hold.
	box := [4]int{0, 0, o.Width - 1, o.Height - 1} // x0, z0, x1, z1: the map, then each ring's outer edge
	cells := 0
	for c := step; ; c *= 2 {
		// The ring's outer edge lies on multiples of 2c, the next ring's
		// cells, so that every side of those along it has a vertex of
		// this ring at its middle.
		t := RingCells * c
		outer := [4]int{floorTo(box[0]-t, 2*c), floorTo(box[1]-t, 2*c), ceilTo(box[2]+t, 2*c), ceilTo(box[3]+t, 2*c)}
		r := Ring{Step: c, Xs: ringLines(outer[0], outer[2], box[0], box[2], c), Zs: ringLines(outer[1], outer[3], box[1], box[3], c)}
		r.Hole = [4]int{slices.Index(r.Xs, box[0]), slices.Index(r.Xs, box[2]), slices.Index(r.Zs, box[1]), slices.Index(r.Zs, box[3])}
		cells += (len(r.Xs)-1)*(len(r.Zs)-1) - (r.Hole[1]-r.Hole[0])*(r.Hole[3]-r.Hole[2])
		o.Rings = append(o.Rings, r)
		box = outer
		if float64(min(-box[0], -box[1], box[2]-(o.Width-1), box[3]-(o.Height-1))) >= o.reach {
			break
		}
	}
	o.Cells = make([]Cell, 0, cells)
	o.X, o.Z = make([]int, 0, cells+len(o.Rings)*8), make([]int, 0, cells+len(o.Rings)*8)
	// Each ring's vertices on its grid, −1 in the hole; those on the
	// hole's edge are the ring inside's outer vertices where it has
	// them there.
	var inner []int // the ring inside's vertex indices on its grid
	for l := range o.Rings {
		r := &o.Rings[l]
		nx, nz := len(r.Xs), len(r.Zs)
		at := make([]int, nx*nz)
		var prev *Ring
		if l > 0 {
			prev = &o.Rings[l-1]
		}
		for j := range nz {
			for i := range nx {
				at[j*nx+i] = -1
				if i > r.Hole[0] && i < r.Hole[1] && j > r.Hole[2] && j < r.Hole[3] {
					continue
				}
				x, z := r.Xs[i], r.Zs[j]
				if prev != nil && i >= r.Hole[0] && i <= r.Hole[1] && j >= r.Hole[2] && j <= r.Hole[3] {
					// On the hole's edge: the ring inside's vertex there.
					pi, oki := slices.BinarySearch(prev.Xs, x)
					pj, okj := slices.BinarySearch(prev.Zs, z)
					if oki && okj {
						at[j*nx+i] = inner[pj*len(prev.Xs)+pi]
						continue
					}
				}
				at[j*nx+i] = len(o.X)
				o.X, o.Z = append(o.X, x), append(o.Z, z)
			}
		}
		r.cells = make([]int, (nx-1)*(nz-1))
		for j := range nz - 1 {
			for i := range nx - 1 {
				if i >= r.Hole[0] && i < r.Hole[1] && j >= r.Hole[2] && j < r.Hole[3] {
					r.cells[j*(nx-1)+i] = -1
					continue
				}
				r.cells[j*(nx-1)+i] = len(o.Cells)
				o.Cells = append(o.Cells, Cell{X0: r.Xs[i], Z0: r.Zs[j], X1: r.Xs[i+1], Z1: r.Zs[j+1],
					Corners: [4]int{at[j*nx+i], at[j*nx+i+1], at[(j+1)*nx+i], at[(j+1)*nx+i+1]}})
			}
		}
		inner = at
	}
	return o.findSides()
}

// findSides gives every cell its side with more to it than its corners:
// the map's edge, or the vertices of the mesh strictly inside one side.
// By the layout (each ring at least two cells thick) no cell has more
// than one such side.
func (o *Land) findSides() error {
	lines := o.ringLines()
	w, h := o.Width-1, o.Height-1
	for l := range o.Rings {
		r := &o.Rings[l]
		// Inside a ring every vertex on a cell's side is a corner: only
		// the sides on its outer edge and on its hole's can have more.
		xe := [4]int{r.Xs[0], r.Xs[r.Hole[0]], r.Xs[r.Hole[1]], r.Xs[len(r.Xs)-1]}
		ze := [4]int{r.Zs[0], r.Zs[r.Hole[2]], r.Zs[r.Hole[3]], r.Zs[len(r.Zs)-1]}
		for _, c := range r.cells {
			if c < 0 {
				continue
			}
			cl := &o.Cells[c]
			for s, side := range lines.sides(cl, xe, ze, w, h) {
				if side.extra == nil && !side.onMap {
					continue
				}
				if cl.Side != SideNone {
					return fmt.Errorf("beyond: the cell %d–%d × %d–%d has more than one side to stitch", cl.X0, cl.X1, cl.Z0, cl.Z1)
				}
				cl.Side, cl.OnMap = SideNorth+s, side.onMap
				if !side.onMap {
					cl.Extra = side.extra
				}
			}
		}
	}
	return nil
}

// ringEdges are the outside's vertices along the lines rings meet on:
// along each vertical line (byX: by x, then z) and along each horizontal
// one (byZ: by z, then x).
type ringEdges struct {
	o        *Land
	byX, byZ []int
}

func (o *Land) ringLines() ringEdges {
	xl, zl := map[int]bool{}, map[int]bool{}
	for l := range o.Rings {
		r := &o.Rings[l]
		for _, k := range [4]int{0, r.Hole[0], r.Hole[1], len(r.Xs) - 1} {
			xl[r.Xs[k]] = true
		}
		for _, k := range [4]int{0, r.Hole[2], r.Hole[3], len(r.Zs) - 1} {
			zl[r.Zs[k]] = true
		}
	}
	var byX, byZ []int
	for k := range o.X {
		if xl[o.X[k]] {
			byX = append(byX, k)
		}
		if zl[o.Z[k]] {
			byZ = append(byZ, k)
		}
	}
	slices.SortFunc(byX, func(a, b int) int { return cmp.Or(o.X[a]-o.X[b], o.Z[a]-o.Z[b]) })
	slices.SortFunc(byZ, func(a, b int) int { return cmp.Or(o.Z[a]-o.Z[b], o.X[a]-o.X[b]) })
	return ringEdges{o: o, byX: byX, byZ: byZ}
}

// verticesBetween returns the vertices on line at (of sorted, on which
// line gives a vertex's line and pos its place along it) strictly between
// lo and hi, both vertices.
func verticesBetween(sorted, line, pos []int, at, lo, hi int) []int {
	find := func(p int) int {
		k, _ := slices.BinarySearchFunc(sorted, [2]int{at, p}, func(v int, t [2]int) int { return cmp.Or(line[v]-t[0], pos[v]-t[1]) })
		return k
	}
	a, b := find(lo), find(hi)
	if a+1 >= b {
		return nil
	}
	return sorted[a+1 : b]
}

// cellSide is a side of a cell: the vertices strictly inside it, and
// whether it lies on the map's edge.
type cellSide struct {
	extra []int
	onMap bool
}

// sides returns cl's sides in the order of SideNorth on: those on the
// lines xe and ze of its ring's outer edge and hole, with what lies on
// them; w and h are the map's last column and row.
func (ls ringEdges) sides(cl *Cell, xe, ze [4]int, w, h int) [4]cellSide {
	o := ls.o
	var sides [4]cellSide
	if slices.Contains(ze[:], cl.Z0) {
		sides[0].extra, sides[0].onMap = verticesBetween(ls.byZ, o.Z, o.X, cl.Z0, cl.X0, cl.X1), cl.Z0 == h && cl.X0 >= 0 && cl.X1 <= w
	}
	if slices.Contains(ze[:], cl.Z1) {
		sides[1].extra, sides[1].onMap = verticesBetween(ls.byZ, o.Z, o.X, cl.Z1, cl.X0, cl.X1), cl.Z1 == 0 && cl.X0 >= 0 && cl.X1 <= w
	}
	if slices.Contains(xe[:], cl.X0) {
		sides[2].extra, sides[2].onMap = verticesBetween(ls.byX, o.X, o.Z, cl.X0, cl.Z0, cl.Z1), cl.X0 == w && cl.Z0 >= 0 && cl.Z1 <= h
	}
	if slices.Contains(xe[:], cl.X1) {
		sides[3].extra, sides[3].onMap = verticesBetween(ls.byX, o.X, o.Z, cl.X1, cl.Z0, cl.Z1), cl.X1 == 0 && cl.Z0 >= 0 && cl.Z1 <= h
	}
	return sides
}

// Bounds returns the outside's extent in map samples: its first and last
// column and row.
func (o *Land) Bounds() (x0, z0, x1, z1 int) {
	r := &o.Rings[len(o.Rings)-1]
	return r.Xs[0], r.Zs[0], r.Xs[len(r.Xs)-1], r.Zs[len(r.Zs)-1]
}

// Fan returns how cell c is drawn when it has a side with vertices
// inside it (Side and Extra; !OnMap): the two corners o0 and o1 of the
// opposite side and the side's vertices ks from o0's end to o1's, its
// corners included, for the triangles FanTriangles makes of them.
func (o *Land) Fan(c int) (o0, o1 int, ks []int) {
	cl := &o.Cells[c]
	q := cl.Corners // (X0, Z0), (X1, Z0), (X0, Z1), (X1, Z1)
	var a, b int    // the side's ends
	switch cl.Side {
	case SideNorth:
		o0, o1, a, b = q[2], q[3], q[0], q[1]
	case SideSouth:
		o0, o1, a, b = q[0], q[1], q[2], q[3]
	case SideWest:
		o0, o1, a, b = q[1], q[3], q[0], q[2]
	default: // SideEast
		o0, o1, a, b = q[0], q[2], q[1], q[3]
	}
	ks = append(append(append(make([]int, 0, len(cl.Extra)+2), a), cl.Extra...), b)
	return o0, o1, ks
}

// FanTriangles calls tri for each triangle of a cell drawn as a coarse
// side o0–o1 and the opposite, finer side's n vertices (from o0's end to
// o1's, both ends included), naming o0 −1, o1 −2 and the finer side's
// vertices 0 … n−1: the triangle (o0, o1, the middle one), and a fan
// from each coarse corner to its half of the finer side. With one vertex
// inside the finer side, as between two rings, that is three triangles,
// and every vertex of the side is one of theirs: no T-junction.
func FanTriangles(n int, tri func(a, b, c int)) {
	mid := n / 2
	tri(-1, -2, mid)
	for k := 1; k < n; k++ {
		apex := -1
		if k > mid {
			apex = -2
		}
		tri(apex, k-1, k)
	}
}

// Triangles calls tri for each triangle (vertex indices) of cell c as
// the explorer draws it: two, split along the diagonal from the
// north-east corner (X1, Z0) to the south-west one (X0, Z1), or the fan
// of a cell with vertices inside a side. A cell along the map's edge is
// stitched to the map's samples, which the outside does not hold; here
// it is its two corner triangles.
func (o *Land) Triangles(c int, tri func(a, b, c int)) {
	cl := &o.Cells[c]
	if cl.Side == SideNone || cl.OnMap {
		q := cl.Corners
		tri(q[0], q[2], q[1])
		tri(q[1], q[2], q[3])
		return
	}
	o0, o1, ks := o.Fan(c)
	at := func(k int) int {
		switch k {
		case -1:
			return o0
		case -2:
			return o1
		}
		return ks[k]
	}
	FanTriangles(len(ks), func(a, b, c int) { tri(at(a), at(b), at(c)) })
}

// Surface returns the outside's heights faded towards level, the height
// of the ground beyond it (the heights' weight is Fade), and the unit
// normals of that faded surface, into the slices given. The gradient of
// fade·(h − level) is fade·∇h, with ∇h the fine slope (SlopeX, SlopeZ),
// plus (h − level)·∇fade, the fade's own gradient (across the square
// lines it falls along; half along each axis on their corners'
// diagonals).
func (o *Land) Surface(level float32, heights []float32, normals [][3]float32) ([]float32, [][3]float32) {
	heights = append(heights[:0], o.Heights...)
	for k, h := range heights {
		heights[k] = level + o.Fade[k]*(h-level)
	}
	normals = append(normals[:0], make([][3]float32, len(o.Heights))...)
	for k := range o.Heights {
		x, z := o.X[k], o.Z[k]
		dx := max(-x, x-(o.Width-1), 0)
		dz := max(-z, z-(o.Height-1), 0)
		d := max(dx, dz)
		// ∇d: ±1 along the axis the distance is taken on.
		var ddx, ddz float64
		if d > 0 {
			share := 1.0
			if dx == dz {
				share = 0.5
			}
			if dx == d {
				ddx = share * float64(sign(x))
			}
			if dz == d {
				ddz = share * float64(sign(z))
			}
		}
		fade := fadeSlope(float64(d), o.reach) / o.CellSize
		rise := float64(o.Heights[k] - level)
		gx := float64(o.Fade[k])*float64(o.SlopeX[k]) + rise*fade*ddx
		gz := float64(o.Fade[k])*float64(o.SlopeZ[k]) + rise*fade*ddz
		l := math.Sqrt(gx*gx + 1 + gz*gz)
		normals[k] = [3]float32{float32(-gx / l), float32(1 / l), float32(-gz / l)}
	}
	return heights, normals
}

// sign is −1 for x < 0 and +1 otherwise: the direction away from the map
// along an axis on which x lies beyond it.
func sign(x int) int {
	if x < 0 {
		return -1
	}
	return 1
}

// Order calls visit(c) for every cell c of the outside, back to front for
// an eye at world (ex, ez): a cell comes before every cell that can hide
// part of it. Each ring is a 3 × 3 tensor of blocks round the one inside
// it (the ring inside, or the map, in the middle), each block a tensor
// grid of cells, and a tensor grid is ordered as terrain/mesh (order.go)
// orders its chunks: on each axis from the far ends towards the eye's
// place, rows outside, columns inside. The blocks so, and the cells in
// each block so: a cell that can hide another lies between it and the
// eye on both axes, and so does its block, which then comes after.
//
// With keep, a block (and a ring with all inside it) for which
// keep(x0, z0, x1, z1), its extent in samples, is false is left out
// whole: the view's culling, without a look at each of its cells.
func (o *Land) Order(ex, ez float64, keep func(x0, z0, x1, z1 int) bool, visit func(c int)) {
	fx, fz := ex/o.CellSize, ez/o.CellSize
	var ring func(l int)
	ring = func(l int) {
		if l < 0 {
			return // the map's own square
		}
		r := &o.Rings[l]
		if keep != nil && !keep(r.Xs[0], r.Zs[0], r.Xs[len(r.Xs)-1], r.Zs[len(r.Zs)-1]) {
			return
		}
		bx := [4]int{0, r.Hole[0], r.Hole[1], len(r.Xs) - 1}
		bz := [4]int{0, r.Hole[2], r.Hole[3], len(r.Zs) - 1}
		lines := func(all []int, b [4]int) []int { return []int{all[b[0]], all[b[1]], all[b[2]], all[b[3]]} }
		eyeX, eyeZ := cellOf(lines(r.Xs, bx), fx), cellOf(lines(r.Zs, bz), fz)
		orderAxis(3, eyeZ, func(bj int) {
			orderAxis(3, eyeX, func(bi int) {
				if bi == 1 && bj == 1 {
					ring(l - 1)
					return
				}
				xs, zs := r.Xs[bx[bi]:bx[bi+1]+1], r.Zs[bz[bj]:bz[bj+1]+1]
				if keep != nil && !keep(xs[0], zs[0], xs[len(xs)-1], zs[len(zs)-1]) {
					return
				}
				cx, cz := cellOf(xs, fx), cellOf(zs, fz)
				orderAxis(len(zs)-1, cz, func(j int) {
					orderAxis(len(xs)-1, cx, func(i int) {
						visit(r.cell(bx[bi]+i, bz[bj]+j))
					})
				})
			})
		})
	}
	ring(len(o.Rings) - 1)
}

// orderAxis calls f for 0 … n−1 from both ends towards cam (−1 before
// the first, n after the last), cam last.
func orderAxis(n, cam int, f func(k int)) {
	cam = min(max(cam, -1), n)
	for k := 0; k < cam; k++ {
		f(k)
	}
	for k := n - 1; k > cam; k-- {
		f(k)
	}
	if cam >= 0 && cam < n {
		f(cam)
	}
}

// cellOf returns the index of the cell between lines holding x (in
// samples): −1 before the first line, len(lines)−1 after the last.
func cellOf(lines []int, x float64) int {
	if !(x >= float64(lines[0])) {
		return -1
	}
	k, _ := slices.BinarySearchFunc(lines, x, func(l int, x float64) int {
		switch {
		case float64(l) < x:
			return -1
		case float64(l) > x:
			return 1
		}
		return 0
	})
	// lines[k] is the first line ≥ x: the cell before it holds x.
	if k < len(lines) && float64(lines[k]) == x {
		return min(k, len(lines)-2)
	}
	return k - 1
}

// BehindMap reports whether cell c lies beyond the map for an eye at
// world (ex, ez): whether the segment from the eye to the cell's centre,
// seen from above, crosses the map's square. A cell beyond the map can be
// hidden by the map but never hides it, and one that is not can hide the
// map but is never hidden by it (the square is convex), so the first are
// drawn before the map and the others after it. From over the map every
// cell lies beyond it.
func (o *Land) BehindMap(c int, ex, ez float64) bool {
	cs := o.CellSize
	x0, x1 := 0.0, float64(o.Width-1)*cs
	z0, z1 := 0.0, float64(o.Height-1)*cs
	if ex >= x0 && ex <= x1 && ez >= z0 && ez <= z1 {
		return true
	}
	cl := &o.Cells[c]
	cx := float64(cl.X0+cl.X1) / 2 * cs
	cz := float64(cl.Z0+cl.Z1) / 2 * cs
	// Slab test of the segment e + t(c − e), t ∈ [0, 1], against the square.
	lo, hi := 0.0, 1.0
	for _, a := range [2][4]float64{{ex, cx, x0, x1}, {ez, cz, z0, z1}} {
		e, d := a[0], a[1]-a[0]
		if d == 0 {
			if e < a[2] || e > a[3] {
				return false
			}
			continue
		}
		t0, t1 := (a[2]-e)/d, (a[3]-e)/d
		if t0 > t1 {
			t0, t1 = t1, t0
		}
		lo, hi = max(lo, t0), min(hi, t1)
	}
	return lo <= hi
}

// CellAt returns the cell holding world (x, z), or −1 on the map's square
// and beyond the outer ring.
func (o *Land) CellAt(x, z float64) int {
	fx, fz := x/o.CellSize, z/o.CellSize
	if fx > 0 && fx < float64(o.Width-1) && fz > 0 && fz < float64(o.Height-1) {
		return -1
	}
	for l := range o.Rings {
		r := &o.Rings[l]
		if !(fx >= float64(r.Xs[0]) && fx <= float64(r.Xs[len(r.Xs)-1]) && fz >= float64(r.Zs[0]) && fz <= float64(r.Zs[len(r.Zs)-1])) {
			continue // beyond this ring: in one farther out
		}
		// Inside the ring's outer edge and not in any ring inside it
		// (nor on the map): in this ring, or on its inner edge, where
		// the cell on this side holds the point as well.
		i, j := cellOf(r.Xs, fx), cellOf(r.Zs, fz)
		if c := r.cell(i, j); c >= 0 {
			return c
		}
		// On the hole's edge: the cell beside it on the point's side.
		for _, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
			a, b := i+d[0], j+d[1]
			if a < 0 || b < 0 || a >= len(r.Xs)-1 || b >= len(r.Zs)-1 {
				continue
			}
			if c := r.cell(a, b); c >= 0 {
				cl := &o.Cells[c]
				if fx >= float64(cl.X0) && fx <= float64(cl.X1) && fz >= float64(cl.Z0) && fz <= float64(cl.Z1) {
					return c
				}
			}
		}
		return -1
	}
	return -1
}

// GroundHeight is the height at world (x, z) of the outside's surface
// faded towards level (Surface), as the explorer draws it: the plane of
// the triangle of Triangles over the point. Beyond the outer ring it is
// level. On the map's square, where the map's own heights hold, it is
// level too; in the cells along the map's edges, which the explorer
// stitches to the map's edge samples, it is the cell's two corner
// triangles: within a cell's relief of what is drawn there.
func (o *Land) GroundHeight(x, z float64, level float32) float64 {
	c := o.CellAt(x, z)
	if c < 0 {
		return float64(level)
	}
	return o.CellHeight(c, x/o.CellSize, z/o.CellSize, level)
}

// CellHeight is the height of cell c's drawn surface faded towards level
// at (fx, fz), in samples, on or near the cell.
func (o *Land) CellHeight(c int, fx, fz float64, level float32) float64 {
	at := func(k int) (float64, float64, float64) {
		return float64(o.X[k]), float64(level) + float64(o.Fade[k])*(float64(o.Heights[k])-float64(level)), float64(o.Z[k])
	}
	h, best := float64(level), math.Inf(-1)
	o.Triangles(c, func(a, b, d int) {
		ax, ay, az := at(a)
		bx, by, bz := at(b)
		dx, dy, dz := at(d)
		// Barycentric coordinates of the point in the plan (x, z).
		det := (bx-ax)*(dz-az) - (dx-ax)*(bz-az)
		if det == 0 {
			return
		}
		u := ((fx-ax)*(dz-az) - (dx-ax)*(fz-az)) / det
		v := ((bx-ax)*(fz-az) - (fx-ax)*(bz-az)) / det
		// The triangle that holds the point best (the least negative
		// coordinate: on shared edges, and for rounding).
		if in := min(u, v, 1-u-v); in > best {
			best, h = in, ay+u*(by-ay)+v*(dy-ay)
		}
	})
	return h
}
