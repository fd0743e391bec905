package terrain

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
)

// The world beyond the map. Noise synthesis defines a height at every
// point of the plane, not only on the map's square, so the explorer can
// show the same land continuing to the horizon: the same bases, octaves,
// sample coordinates (col·stride·freq + gridOffset, domain distortion
// included) and the same final mapping as the map — onto [0, 1] by the
// map's raw range, the post-effect, the amplitude — evaluated on a coarse
// grid around the map. The map's square stays the part that is edited
// and exported; the outside is only drawn. Subdivision generators have no
// such function (every sample depends on the whole map's coarser levels).

// ErrNoOutside is returned for maps whose generator defines no heights
// beyond the map: the subdivision algorithms.
var ErrNoOutside = errors.New("terrain: only the noise generators continue beyond the map")

// Outside is a coarse tensor grid of heights around a map, the map's own
// square left out. Columns and rows are in the map's samples (the map
// spans columns 0 … W−1 and rows 0 … H−1); the grid's lines inside that
// span fall on the map's samples, so its heights there are the map's.
type Outside struct {
	Cols, Rows []int // sample columns and rows of the grid's lines, increasing
	// InnerCols and InnerRows are the indices in Cols and Rows of the
	// map's first and last sample column and row.
	InnerCols, InnerRows [2]int
	// Heights are world heights (the map's heights × VerticalScale) of
	// the grid's vertices, row-major, len(Cols)·len(Rows); vertices
	// strictly inside the map are not evaluated and hold 0.
	Heights []float32
	// Fade is, per vertex, how much of the noise shows against the level
	// ground the explorer continues with: 1 up to outsideFadeFrom of the
	// reach, 0 at its end, smooth between, so that the far ring meets the
	// plane beyond it.
	Fade []float32
	// SlopeX and SlopeZ are, per vertex, the height's gradient (world
	// height per world distance) at the map's own sample spacing, by
	// central differences over neighbouring map samples. The grid's cells
	// are 16 and more samples wide, so differences over the grid itself
	// would give the smooth slopes of a blurred land: snow would blanket
	// peaks whose map counterparts are rock. With these the land beyond
	// is lit and textured as the map's coarse chunks are, which take
	// their normals from the map's samples.
	SlopeX, SlopeZ []float32
	// CellSize is the map's cell size: the world distance between
	// neighbouring map samples.
	CellSize float64
}

// Inside reports whether grid vertex (i, j) lies strictly inside the map.
func (o *Outside) Inside(i, j int) bool {
	return i > o.InnerCols[0] && i < o.InnerCols[1] && j > o.InnerRows[0] && j < o.InnerRows[1]
}

// The grid's layout: outsideCellsAcross coarse cells across the map
// (spacing a power of two between outsideMinStep and outsideMaxStep map
// samples; at least 16, so that its lines along the map's edges fall on
// vertices of the explorer's chunks, 32 cells drawn every 1st to 16th
// sample), then cells growing by outsideGrowth per line out to
// outsideReach map widths beyond each edge; a geometric growth keeps the
// far cells, which the aerial perspective hazes, few.
const (
	outsideCellsAcross = 64
	outsideMinStep     = 16
	outsideMaxStep     = 32
	outsideGrowth      = 1.15
	outsideReach       = 3.0
	outsideFadeFrom    = 0.4
)

// OutsideStep is the spacing, in map samples, of the outside grid's
// lines across a map of side samples.
func OutsideStep(side int) int {
	step := outsideMinStep
	for step < outsideMaxStep && step*outsideCellsAcross < side-1 {
		step *= 2
	}
	return max(min(step, side-1), 1)
}

// outsideAxis returns the grid lines along one axis of a map of n samples:
// reach samples of geometrically growing cells before 0, every step-th
// sample across the map and its last one, and the same beyond n−1; and
// the indices of 0 and n−1.
func outsideAxis(n, step int, reach float64) (lines []int, inner [2]int) {
	var out []int
	d, at := float64(step), 0.0
	for at < reach {
		at += d
		out = append(out, int(math.Round(at)))
		d *= outsideGrowth
	}
	for k := len(out) - 1; k >= 0; k-- {
		lines = append(lines, -out[k])
	}
	inner[0] = len(lines)
	for c := 0; c < n-1; c += step {
		lines = append(lines, c)
	}
	inner[1] = len(lines)
	lines = append(lines, n-1)
	for _, o := range out {
		lines = append(lines, n-1+o)
	}
	return lines, inner
}

// outsideFade is the noise's weight at d samples from the map, out of a
// reach of r: 1 near the map, falling smoothly to 0 at r.
func outsideFade(d, r float64) float32 {
	t := min(max((d/r-outsideFadeFrom)/(1-outsideFadeFrom), 0), 1)
	return float32(1 - t*t*(3-2*t))
}

// NewOutside evaluates the world beyond m, the map Generate or
// GeneratePreview made from p (before any erosion or route: those change
// the map but not the noise, so the two would no longer meet), on a
// coarse grid reaching outsideReach map widths beyond each edge. At the
// map's edge its heights are the map's own.
func NewOutside(ctx context.Context, p Params, m *Heightmap) (*Outside, error) {
	return NewOutsideReaching(ctx, p, m, 0)
}

// NewOutsideReaching is NewOutside with the grid reaching at least
// minReach world units beyond each edge: far enough, for a map a few
// kilometres wide, for the land to go on to the horizon.
func NewOutsideReaching(ctx context.Context, p Params, m *Heightmap, minReach float64) (*Outside, error) {
	if p.Algorithm.IsSubdivision() {
		return nil, ErrNoOutside
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	stride := int(math.Round(m.CellSize / p.CellSize))
	if stride < 1 || m.Width != (p.Size-1)/stride+1 || m.Height != m.Width || len(m.Samples) != m.Width*m.Height {
		return nil, fmt.Errorf("terrain: a %d×%d map of cell size %g is not one %s made at %d² and cell size %g",
			m.Width, m.Height, m.CellSize, p.Algorithm, p.Size, p.CellSize)
	}
	f, err := newHeightField(p, m, stride)
	if err != nil {
		return nil, err
	}
	return NewOutsideOf(ctx, m, minReach, f.height)
}

// NewOutsideOf lays the outside grid around m, reaching outsideReach map
// widths and at least minReach world units beyond each edge, with the
// heights (in the map's units, 0 … 1 on a normalised map) that height
// gives at any sample position; on the map's edge it must give the map's
// own samples. It is how maps that are no noise function (loaded files,
// routes, eroded or subdivided maps) get land beyond them: height then
// synthesises it from the map itself.
func NewOutsideOf(ctx context.Context, m *Heightmap, minReach float64, height func(col, row int) float64) (*Outside, error) {
	if m.Width < 2 || m.Height < 2 || len(m.Samples) != m.Width*m.Height {
		return nil, fmt.Errorf("terrain: a %d×%d map has no outside", m.Width, m.Height)
	}
	reach := max(outsideReach*float64(max(m.Width, m.Height)-1), minReach/m.CellSize)
	o := &Outside{CellSize: m.CellSize}
	o.Cols, o.InnerCols = outsideAxis(m.Width, OutsideStep(m.Width), reach)
	o.Rows, o.InnerRows = outsideAxis(m.Height, OutsideStep(m.Width), reach)
	nc := len(o.Cols)
	o.Heights = make([]float32, nc*len(o.Rows))
	o.Fade = make([]float32, len(o.Heights))
	o.SlopeX = make([]float32, len(o.Heights))
	o.SlopeZ = make([]float32, len(o.Heights))
	lastCol, lastRow := float64(m.Width-1), float64(m.Height-1)
	slope := m.VerticalScale / (2 * m.CellSize)
	for j, row := range o.Rows {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for i, col := range o.Cols {
			if o.Inside(i, j) {
				continue
			}
			o.Heights[j*nc+i] = float32(height(col, row) * m.VerticalScale)
			o.SlopeX[j*nc+i] = float32((height(col+1, row) - height(col-1, row)) * slope)
			o.SlopeZ[j*nc+i] = float32((height(col, row+1) - height(col, row-1)) * slope)
			dx := max(-float64(col), float64(col)-lastCol, 0)
			dz := max(-float64(row), float64(row)-lastRow, 0)
			o.Fade[j*nc+i] = outsideFade(max(dx, dz), reach)
		}
	}
	return o, nil
}

// heightField is the finished map's height as a function of any sample
// position, inside the map or beyond it.
type heightField struct {
	s      *synthesis
	lo, hi float32 // the map's raw range
	curve  func(float64) float64
}

// newHeightField recovers the map's normalisation from m itself:
// rescale sends the raw minimum to exactly 0 and the maximum to exactly
// 1, and every post-effect keeps 0 and 1, so the raw heights at m's
// lowest and highest samples are the raw range Generate used.
func newHeightField(p Params, m *Heightmap, stride int) (*heightField, error) {
	s, err := newSynthesis(p)
	if err != nil {
		return nil, err
	}
	s.stride = stride
	lo, hi := 0, 0
	for k, v := range m.Samples {
		if v < m.Samples[lo] {
			lo = k
		}
		if v > m.Samples[hi] {
			hi = k
		}
	}
	f := &heightField{s: s, curve: EffectCurve(p.Effect, p.Intensity/100)}
	if p.Effect == NoEffect || p.Effect == "" || p.Intensity == 0 {
		f.curve = nil
	}
	f.lo = float32(s.sampleReference(lo%m.Width, lo/m.Width))
	f.hi = float32(s.sampleReference(hi%m.Width, hi/m.Width))
	return f, nil
}

// height is the finished height (0 … 1 on the map) at sample (col, row)
// of the map, which may lie outside it: the raw synthesis, then what
// rescale and applyEffect do to every sample of the map.
func (f *heightField) height(col, row int) float64 {
	raw := float32(f.s.sampleReference(col, row))
	span := float64(f.hi) - float64(f.lo)
	t := float32(0)
	if span != 0 {
		t = float32((float64(raw) - float64(f.lo)) / span)
	}
	if f.curve != nil {
		t = float32(f.curve(float64(t)))
	}
	return float64(t)
}

// Surface returns the outside's heights faded towards level, the height
// of the ground beyond it (the noise's weight is Fade), and the unit
// normals of that faded surface, into the slices given. The gradient of
// fade·(h − level) is fade·∇h, with ∇h the fine slope (SlopeX, SlopeZ),
// plus (h − level)·∇fade, the fade's gradient by central differences over
// the grid's uneven spacing (one-sided at its ends).
func (o *Outside) Surface(level float32, heights []float32, normals [][3]float32) ([]float32, [][3]float32) {
	heights = append(heights[:0], o.Heights...)
	for k, h := range heights {
		heights[k] = level + o.Fade[k]*(h-level)
	}
	nc, nr := len(o.Cols), len(o.Rows)
	normals = append(normals[:0], make([][3]float32, nc*nr)...)
	cs := o.CellSize
	for j := range nr {
		j0, j1 := max(j-1, 0), min(j+1, nr-1)
		dz := float64(o.Rows[j1]-o.Rows[j0]) * cs
		for i := range nc {
			i0, i1 := max(i-1, 0), min(i+1, nc-1)
			dx := float64(o.Cols[i1]-o.Cols[i0]) * cs
			k := j*nc + i
			rise := float64(o.Heights[k] - level)
			gx := float64(o.Fade[k])*float64(o.SlopeX[k]) + rise*float64(o.Fade[j*nc+i1]-o.Fade[j*nc+i0])/dx
			gz := float64(o.Fade[k])*float64(o.SlopeZ[k]) + rise*float64(o.Fade[j1*nc+i]-o.Fade[j0*nc+i])/dz
			l := math.Sqrt(gx*gx + 1 + gz*gz)
			normals[j*nc+i] = [3]float32{float32(-gx / l), float32(1 / l), float32(-gz / l)}
		}
	}
	return heights, normals
}

// Order calls visit(i, j) for every cell of the grid outside the map
// (cell (i, j) spans lines i, i+1 and j, j+1), back to front for an eye
// at world (ex, ez), by the order of terrain/mesh (order.go): on each
// axis the cells from the far ends towards the eye's cell, rows outside,
// columns inside, so that a cell comes before every cell that can hide
// part of it.
func (o *Outside) Order(ex, ez float64, visit func(i, j int)) {
	camCol := outsideCell(o.Cols, ex/o.CellSize)
	camRow := outsideCell(o.Rows, ez/o.CellSize)
	nc, nr := len(o.Cols)-1, len(o.Rows)-1
	inner := func(i, j int) bool {
		return i >= o.InnerCols[0] && i < o.InnerCols[1] && j >= o.InnerRows[0] && j < o.InnerRows[1]
	}
	axis := func(n, cam int, f func(k int)) {
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
	axis(nr, camRow, func(j int) {
		axis(nc, camCol, func(i int) {
			if !inner(i, j) {
				visit(i, j)
			}
		})
	})
}

// outsideCell returns the index of the cell between lines holding x (in
// samples): −1 before the first line, len(lines)−1 after the last.
func outsideCell(lines []int, x float64) int {
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

// BehindMap reports whether cell (i, j) lies beyond the map for an eye at
// world (ex, ez): whether the segment from the eye to the cell's centre,
// seen from above, crosses the map's square. A cell beyond the map can be
// hidden by the map but never hides it, and one that is not can hide the
// map but is never hidden by it (the square is convex), so the first are
// drawn before the map and the others after it. From over the map every
// cell lies beyond it.
func (o *Outside) BehindMap(i, j int, ex, ez float64) bool {
	cs := o.CellSize
	x0, x1 := float64(o.Cols[o.InnerCols[0]])*cs, float64(o.Cols[o.InnerCols[1]])*cs
	z0, z1 := float64(o.Rows[o.InnerRows[0]])*cs, float64(o.Rows[o.InnerRows[1]])*cs
	cx := float64(o.Cols[i]+o.Cols[i+1]) / 2 * cs
	cz := float64(o.Rows[j]+o.Rows[j+1]) / 2 * cs
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

// GroundHeight is the height at world (x, z) of the outside's surface
// faded towards level (Surface), as the explorer draws it: each cell as
// two planar triangles split along the diagonal from its north-east
// corner (line i+1, j) to its south-west one (i, j+1). Beyond the grid it
// is level. On the map's square, where the map's own heights hold, and
// in the cells along its edges, which the explorer stitches to the map's
// edge samples, it is the coarse cell's surface: within a cell's relief
// of what is drawn there.
func (o *Outside) GroundHeight(x, z float64, level float32) float64 {
	fx, fz := x/o.CellSize, z/o.CellSize
	i, j := outsideCell(o.Cols, fx), outsideCell(o.Rows, fz)
	nc := len(o.Cols)
	if i < 0 || j < 0 || i >= nc-1 || j >= len(o.Rows)-1 {
		return float64(level)
	}
	at := func(i, j int) float64 {
		k := j*nc + i
		if o.Inside(i, j) { // not evaluated: the map's, unknown here
			return float64(level)
		}
		return float64(level) + float64(o.Fade[k])*(float64(o.Heights[k])-float64(level))
	}
	u := (fx - float64(o.Cols[i])) / float64(o.Cols[i+1]-o.Cols[i])
	v := (fz - float64(o.Rows[j])) / float64(o.Rows[j+1]-o.Rows[j])
	if u+v <= 1 {
		a := at(i, j)
		return a + u*(at(i+1, j)-a) + v*(at(i, j+1)-a)
	}
	d := at(i+1, j+1)
	return d + (1-u)*(at(i, j+1)-d) + (1-v)*(at(i+1, j)-d)
}
