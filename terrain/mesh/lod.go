// Package mesh turns a heightmap into what the explorer draws each frame:
// chunks at a level of detail chosen by screen-space error, stitched so no
// cracks show, culled by the view frustum and by terrain occlusion, and
// visited back to front (Ebiten has no depth buffer). It is plain Go,
// testable without a display, and knows nothing of Ebiten or shaders.
package mesh

// Chunked level of detail for drawing a heightmap on the CPU side.
//
// The map is cut into square chunks of chunkCells cells. Each chunk can be
// drawn on every step-th sample (step 1, 2, 4, 8 or 16); NewLOD measures,
// once, how far each coarser surface strays from the full-resolution one
// (the geometric error ε), and Select picks per frame, for every chunk in
// the view frustum, the coarsest step whose error projects to at most
// MaxErrorPx pixels. Borders of a chunk next to a coarser one are bent onto
// the coarser edge so that no cracks open, and chunks and triangles come out
// back to front (order.go), ready for a renderer without a depth buffer.

import (
	"context"
	"cordillera/internal/parallel"
	"cordillera/terrain"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// lodSteps are the sampling steps a chunk can be drawn with, finest first.
var lodSteps = [...]int{1, 2, 4, 8, 16}

// parallelEmitFrom is the triangle count from which Select builds the
// chunks' vertices and triangles on all cores; below it starting the
// goroutines costs more than it saves.
const parallelEmitFrom = 1 << 15

// LOD holds the per-chunk bounds and geometric errors of a heightmap, and
// Select's scratch space. The heightmap must not change while the LOD is in
// use. Select reuses the scratch space, so one LOD serves one goroutine at a
// time.
type LOD struct {
	m          *terrain.Heightmap
	chunkCells int
	cols, rows int // chunks across and down
	levels     int // how many of lodSteps fit in a chunk
	chunks     []lodChunk

	selected  []int     // Select's step per chunk, 0 outside the frustum
	dist      []float64 // Select's distance from the eye per chunk, −1 outside the frustum
	hidden    []bool    // Select's chunks behind nearer terrain (occlusion.go)
	partCells int       // side of the parts occlusion bounds separately
	// corners are the occluders' heights at the part grid's corners,
	// cornerCols × cornerRows, row-major (occlusion.go).
	corners                []float64
	cornerCols, cornerRows int
	occluderLift           float64 // tests raise the occluders to show a wrong bound is caught
	partHidden             []bool  // per part, hidden behind nearer terrain (Select's chunks only)
	partsHidden            []bool  // per chunk: some of its parts are hidden
	order                  []int   // Select's frustum chunks, back to front
	cover                  coverage
	plans                  []chunkPlan // occlusion's per chunk of order (occlusion.go)
	serialOcclusion        bool        // occlude one chunk after another: the tests' reference
	plannedFrames          int         // frames whose culling made the chunks' plans on all cores (the tests check the path ran)
	planView               View        // the view occlude's workers plan for
	planOrder              []int       // the chunks they plan, back to front
}

// lodChunk is one chunk's extent and errors.
type lodChunk struct {
	c0, r0, c1, r1 int           // first and last sample column and row
	box            [2][3]float64 // world AABB: min and max corner
	err            [len(lodSteps)]float64
	whole          slab   // bounds of the surface over the chunk (occlusion.go)
	parts          []slab // the same per part of partCells² cells
	partBase       int    // index of its first part in LOD.partHidden
}

// View is what Select needs to know of the camera.
type View struct {
	Eye [3]float64 // world position of the eye
	// Planes are the frustum's planes (a, b, c, d) in world space; a point
	// p is inside when a·p.x + b·p.y + c·p.z + d ≥ 0 for all six.
	// FrustumPlanes builds them from a view-projection matrix.
	Planes [6][4]float64
	// PixelsPerUnit turns a world length at unit distance into pixels:
	// screen height / (2·tan(fovY/2)).
	PixelsPerUnit float64
	// MaxErrorPx is the largest screen-space geometric error allowed, in
	// pixels; 1 to 2 is invisible with shading, 4 shows on silhouettes.
	MaxErrorPx float64
	// Full draws every chunk at step 1 without culling: the reference.
	Full bool
	// MaxTriangles, when positive, bounds the triangles Select emits, so
	// that a frame's memory and drawing time stay bounded on any map: when
	// the error budget above would exceed it, the error allowed grows by
	// the smallest factor that makes the selection fit (with Full, every
	// chunk takes the finest common step that fits). Only a chunk around
	// the eye, whose distance is 0, keeps step 1 whatever the budget, and
	// the coarsest step everywhere is the floor (8 triangles per 32-cell
	// chunk, plus its stitching).
	MaxTriangles int

	// Occlusion culling (occlusion.go) needs the screen: the view-
	// projection matrix (column-major, OpenGL clip space), the screen size
	// in pixels and the near plane's clip w. Width 0 turns it off.
	ViewProj      [16]float32
	Width, Height int
	NearW         float64
}

// ChunkDraw is one chunk as Select emits it.
type ChunkDraw struct {
	// The vertex grid: Cols×Rows vertices, vertex k = j·Cols+i at sample
	// (min(Col0+i·Step, Col1), min(Row0+j·Step, Row1)); only a chunk's
	// last column and row can be closer than Step to the previous one.
	Col0, Row0, Step, Cols, Rows int
	Col1, Row1                   int // last sample column and row of the chunk
	// Heights are the world heights of the grid's vertices, row-major,
	// after the borders next to coarser chunks were moved onto their
	// edges, then those of Edge's vertices.
	Heights []float32
	// Edge holds the samples (column, row) of the vertices that follow the
	// grid, Cols·Rows, Cols·Rows+1, …: the border vertices of finer
	// neighbours, which lie on this chunk's edges. Border triangles are
	// cut at them, so that both chunks end in the same screen segments: a
	// vertex of one chunk in the middle of the other's edge (a T-junction)
	// projects a rounding error off that edge, and pixel centres fall
	// through the sliver between them as sky-coloured pinholes.
	Edge [][2]int
	// Tris holds three vertex indices per triangle, back to front. Each
	// cell (corners a, b = a+1, c = a+Cols, d = c+1) is split along b–c into
	// (a, c, b) and (b, c, d), the diagonal and winding of thesis listing
	// 5.1 and Normals: counter-clockwise seen from above. A border triangle
	// with Edge vertices on its border edge is cut into a fan of pieces in
	// its own plane, listed where it would be.
	Tris []uint32

	// sides are the Edge vertices on the top, bottom, left and right
	// borders.
	sides [4]edgeSide
}

// The borders of a chunk, as indices of ChunkDraw.sides.
const (
	sideTop = iota
	sideBottom
	sideLeft
	sideRight
)

// edgeSide describes the Edge vertices on one border of a chunk: those of
// a neighbour drawn with the finer step fine (0: none), at every multiple
// of fine from the chunk's corner that is not a vertex of the chunk, per
// of them in each full border segment, the first one Edge[base].
type edgeSide struct {
	base, fine, per int
}

// Sample returns the map column and row of vertex k.
func (d *ChunkDraw) Sample(k int) (col, row int) {
	if g := d.Cols * d.Rows; k >= g {
		e := d.Edge[k-g]
		return e[0], e[1]
	}
	return min(d.Col0+k%d.Cols*d.Step, d.Col1), min(d.Row0+k/d.Cols*d.Step, d.Row1)
}

// World returns the world position of vertex k on a map of the given cell
// size.
func (d *ChunkDraw) World(k int, cellSize float64) [3]float64 {
	col, row := d.Sample(k)
	return [3]float64{float64(col) * cellSize, float64(d.Heights[k]), float64(row) * cellSize}
}

// NewLOD cuts m into chunks of chunkCells×chunkCells cells (a power of two
// such as 32 is usual; any size ≥ 1 works) and measures each chunk's
// bounds and geometric errors on all cores. Chunks at the right and bottom
// edges are smaller when m's cells do not divide evenly. A map narrower
// than two samples has no chunks.
func NewLOD(m *terrain.Heightmap, chunkCells int) *LOD {
	// context.Background is never done, so NewLODContext cannot fail here.
	l, _ := NewLODContext(context.Background(), m, chunkCells)
	return l
}

// NewLODContext is NewLOD as cancellable background work: it returns
// ctx.Err() soon after ctx is done, and in the browser it gives the page
// its frames while it runs (parallel.Rows).
func NewLODContext(ctx context.Context, m *terrain.Heightmap, chunkCells int) (*LOD, error) {
	return NewLODProgress(ctx, m, chunkCells, nil)
}

// lodRowsShare is the share of NewLODProgress's reports given to the
// chunk rows measured: the corners' heights, measured after them, take
// the rest, so that 1 comes only once the LOD is whole.
const lodRowsShare = 0.99

// NewLODProgress is NewLODContext reporting to progress, if set, the
// fraction of the chunk rows measured (the work is the same for every
// row), never going back, and 1 once the LOD is whole. Reports come from
// the workers, one at a time.
func NewLODProgress(ctx context.Context, m *terrain.Heightmap, chunkCells int, progress terrain.Progress) (*LOD, error) {
	if chunkCells < 1 {
		panic(fmt.Sprintf("terrain: LOD chunk size %d cells, must be at least 1", chunkCells))
	}
	l := &LOD{m: m, chunkCells: chunkCells, partCells: max(chunkCells/occlusionParts, 1)}
	for chunkCells%l.partCells != 0 { // parts must tile chunks
		l.partCells--
	}
	for l.levels < len(lodSteps) && lodSteps[l.levels] <= chunkCells {
		l.levels++
	}
	if m.Width < 2 || m.Height < 2 {
		if progress != nil {
			progress(1)
		}
		return l, nil
	}
	l.cols = (m.Width - 2 + chunkCells) / chunkCells
	l.rows = (m.Height - 2 + chunkCells) / chunkCells
	l.chunks = make([]lodChunk, l.cols*l.rows)
	l.selected = make([]int, len(l.chunks))
	l.hidden = make([]bool, len(l.chunks))
	err := parallel.Rows(ctx, l.rows, progress, 0, lodRowsShare, func(j int) {
		for i := range l.cols {
			l.measure(i, j)
			l.measureParts(&l.chunks[j*l.cols+i])
		}
	})
	if err != nil {
		return nil, err
	}
	l.measureCorners()
	n := 0
	for k := range l.chunks {
		l.chunks[k].partBase = n
		n += len(l.chunks[k].parts)
	}
	l.partHidden = make([]bool, n)
	l.partsHidden = make([]bool, len(l.chunks))
	if progress != nil {
		progress(1)
	}
	return l, nil
}

// Chunks returns the number of chunks across and down.
func (l *LOD) Chunks() (cols, rows int) { return l.cols, l.rows }

// Error returns ε_step of chunk (i, j) in world units, or NaN for a step
// the LOD does not use.
func (l *LOD) Error(i, j, step int) float64 {
	for lvl := range l.levels {
		if lodSteps[lvl] == step {
			return l.chunks[j*l.cols+i].err[lvl]
		}
	}
	return math.NaN()
}

// worldHeight is the world height of sample (col, row) as vertices carry it.
func (l *LOD) worldHeight(col, row int) float32 {
	return float32(float64(l.m.Samples[row*l.m.Width+col]) * l.m.VerticalScale)
}

// measure fills in chunk (i, j): its bounds, and for every step s
// ε_s = max over its samples of |full-resolution height − height of the
// step-s triangulated surface|, made non-decreasing in s (each ε_s at
// least ε_{s/2}) so that Select can take the coarsest step that fits.
func (l *LOD) measure(i, j int) {
	m := l.m
	ch := &l.chunks[j*l.cols+i]
	ch.c0, ch.r0 = i*l.chunkCells, j*l.chunkCells
	ch.c1, ch.r1 = min(ch.c0+l.chunkCells, m.Width-1), min(ch.r0+l.chunkCells, m.Height-1)
	lo, hi := math.Inf(1), math.Inf(-1)
	for r := ch.r0; r <= ch.r1; r++ {
		for _, v := range m.Samples[r*m.Width+ch.c0 : r*m.Width+ch.c1+1] {
			lo = min(lo, float64(v))
			hi = max(hi, float64(v))
		}
	}
	cs, vs := m.CellSize, m.VerticalScale
	ch.box = [2][3]float64{
		{float64(ch.c0) * cs, lo * vs, float64(ch.r0) * cs},
		{float64(ch.c1) * cs, hi * vs, float64(ch.r1) * cs},
	}
	for lvl := 1; lvl < l.levels; lvl++ {
		ch.err[lvl] = max(l.surfaceError(ch, lodSteps[lvl]), ch.err[lvl-1])
	}
}

// surfaceError returns max |h − h_s| over the chunk's samples, h_s being
// the surface of the step-s vertex grid split like Normals: in a coarse
// cell with local coordinates u, v ∈ [0, 1] and corners a (0,0), b (1,0),
// c (0,1), d (1,1), h_s = h_a + u(h_b−h_a) + v(h_c−h_a) where u+v ≤ 1
// (triangle a, c, b) and h_d + (1−u)(h_c−h_d) + (1−v)(h_b−h_d) elsewhere.
func (l *LOD) surfaceError(ch *lodChunk, s int) float64 {
	m := l.m
	vs := m.VerticalScale
	h := func(c, r int) float64 { return float64(m.Samples[r*m.Width+c]) * vs }
	e := 0.0
	for ra := ch.r0; ra < ch.r1; ra += s {
		rb := min(ra+s, ch.r1)
		dv := 1 / float64(rb-ra)
		for ca := ch.c0; ca < ch.c1; ca += s {
			cb := min(ca+s, ch.c1)
			du := 1 / float64(cb-ca)
			ha, hb, hc, hd := h(ca, ra), h(cb, ra), h(ca, rb), h(cb, rb)
			for r := ra; r <= rb; r++ {
				v := float64(r-ra) * dv
				row := m.Samples[r*m.Width : (r+1)*m.Width]
				for c := ca; c <= cb; c++ {
					u := float64(c-ca) * du
					var hs float64
					if u+v <= 1 {
						hs = ha + u*(hb-ha) + v*(hc-ha)
					} else {
						hs = hd + (1-u)*(hc-hd) + (1-v)*(hb-hd)
					}
					e = max(e, math.Abs(float64(row[c])*vs-hs))
				}
			}
		}
	}
	return e
}

// Select returns, in back-to-front order for v.Eye, the chunks whose
// bounding boxes meet the frustum (all of them with v.Full) and, when v
// gives the screen, are not hidden behind nearer terrain, each with the
// coarsest step whose error ε_s projects to at most v.MaxErrorPx pixels at
// the distance d from the eye to the chunk's box: ε_s·PixelsPerUnit ≤
// MaxErrorPx·d, so that a chunk around the eye (d = 0) gets an exact step,
// in practice step 1. It reuses dst and the slices in its elements; after
// the first frames it allocates nothing but the goroutines that build large
// selections.
func (l *LOD) Select(v View, dst []ChunkDraw) []ChunkDraw {
	dst = dst[:0]
	if len(l.chunks) == 0 {
		return dst
	}
	l.dist = resize(l.dist, len(l.chunks))
	for k := range l.chunks {
		l.dist[k] = l.distance(&l.chunks[k], &v)
		l.selected[k] = l.chooseStep(&l.chunks[k], l.dist[k], &v, 1)
	}
	if v.MaxTriangles > 0 && l.selectedTriangles() > v.MaxTriangles {
		l.fitBudget(&v)
	}
	m := l.m
	ex, ez := v.Eye[0]/m.CellSize, v.Eye[2]/m.CellSize
	c := float64(l.chunkCells)
	camCol := cellOf(ex, 0, c, float64(m.Width-1), l.cols)
	camRow := cellOf(ez, 0, c, float64(m.Height-1), l.rows)
	l.order = l.order[:0]
	backToFront(l.rows, camRow, func(j int) {
		backToFront(l.cols, camCol, func(i int) {
			if l.selected[j*l.cols+i] != 0 {
				l.order = append(l.order, j*l.cols+i)
			}
		})
	})
	clear(l.hidden)
	clear(l.partsHidden)
	if l.canOcclude(&v) {
		if l.serialOcclusion {
			l.occludeSerial(&v, l.order)
		} else {
			l.occlude(&v, l.order)
		}
	}
	tris := 0
	for _, k := range l.order {
		if l.hidden[k] {
			continue
		}
		if len(dst) < cap(dst) {
			dst = dst[:len(dst)+1]
		} else {
			dst = append(dst, ChunkDraw{})
		}
		ch, s := &l.chunks[k], l.selected[k]
		d := &dst[len(dst)-1]
		d.Col0, d.Row0, d.Col1, d.Row1, d.Step = ch.c0, ch.r0, ch.c1, ch.r1, s
		d.Cols = (ch.c1-ch.c0+s-1)/s + 1
		d.Rows = (ch.r1-ch.r0+s-1)/s + 1
		tris += 2 * (d.Cols - 1) * (d.Rows - 1)
	}

	workers := min(runtime.GOMAXPROCS(0), len(dst))
	if tris < parallelEmitFrom || workers < 2 {
		for k := range dst {
			l.emit(&dst[k], ex, ez)
		}
		return dst
	}
	draws := dst // the workers' own copy, so that dst stays on the stack
	var next atomic.Int64
	var wg sync.WaitGroup
	work := func() {
		for k := int(next.Add(1) - 1); k < len(draws); k = int(next.Add(1) - 1) {
			l.emit(&draws[k], ex, ez)
		}
	}
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	return dst
}

// distance returns the distance from the eye to chunk ch's box, or −1 when
// the box lies outside one of the frustum's planes (never with v.Full).
func (l *LOD) distance(ch *lodChunk, v *View) float64 {
	if v.Full {
		return 0
	}
	for _, p := range v.Planes {
		// The box corner farthest along the plane's normal.
		var q [3]float64
		for a := range 3 {
			q[a] = ch.box[0][a]
			if p[a] > 0 {
				q[a] = ch.box[1][a]
			}
		}
		if p[0]*q[0]+p[1]*q[1]+p[2]*q[2]+p[3] < 0 {
			return -1
		}
	}
	var d2 float64
	for a := range 3 {
		e := v.Eye[a] - min(max(v.Eye[a], ch.box[0][a]), ch.box[1][a])
		d2 += e * e
	}
	return math.Sqrt(d2)
}

// chooseStep returns the step chunk ch at distance d from the eye is drawn
// with, the error allowed scaled by scale, or 0 when it is culled (d < 0).
func (l *LOD) chooseStep(ch *lodChunk, d float64, v *View, scale float64) int {
	if v.Full {
		return 1
	}
	if d < 0 {
		return 0
	}
	budget := v.MaxErrorPx * scale * d
	for lvl := l.levels - 1; lvl > 0; lvl-- {
		if ch.err[lvl]*v.PixelsPerUnit <= budget {
			return lodSteps[lvl]
		}
	}
	return 1
}

// selectedTriangles returns how many triangles emit makes of the selected
// chunks when none is hidden: two per grid cell, and one more for every
// Edge vertex, the border vertices of finer neighbours.
func (l *LOD) selectedTriangles() int {
	n := 0
	for k, s := range l.selected {
		if s == 0 {
			continue
		}
		ch := &l.chunks[k]
		w, h := ch.c1-ch.c0, ch.r1-ch.r0
		n += 2 * ((w + s - 1) / s) * ((h + s - 1) / s)
		// A side of length m next to a neighbour of step f < s gets the
		// multiples of f that are not multiples of s.
		side := func(f, m int) {
			if f != 0 && f < s {
				n += (m+f-1)/f - (m+s-1)/s
			}
		}
		i, j := k%l.cols, k/l.cols
		if j > 0 {
			side(l.selected[k-l.cols], w)
		}
		if j < l.rows-1 {
			side(l.selected[k+l.cols], w)
		}
		if i > 0 {
			side(l.selected[k-1], h)
		}
		if i < l.cols-1 {
			side(l.selected[k+1], h)
		}
	}
	return n
}

// fitBudget coarsens the selection until it has at most v.MaxTriangles
// triangles: with v.Full the finest common step that fits, otherwise the
// smallest factor 2^x, x in [0, 64], by which the allowed error must grow,
// found by doubling and then bisection on x (triangles fall as the error
// allowed grows) to within 1/4096. Where even the coarsest choice does
// not fit, that is what stays.
func (l *LOD) fitBudget(v *View) {
	if v.Full {
		for lvl := 1; lvl < l.levels; lvl++ {
			for k := range l.selected {
				l.selected[k] = lodSteps[lvl]
			}
			if l.selectedTriangles() <= v.MaxTriangles {
				return
			}
		}
		return
	}
	choose := func(x float64) int {
		scale := math.Exp2(x)
		for k := range l.chunks {
			l.selected[k] = l.chooseStep(&l.chunks[k], l.dist[k], v, scale)
		}
		return l.selectedTriangles()
	}
	// Double x until the selection fits (2^64 times the error allowed gives
	// every chunk not around the eye its coarsest step), then halve the
	// bracket until x is within 1/4096 of the boundary: the error allowed
	// is then at most 0.02 % more than the budget needs, after about 20
	// selections instead of the 30 a bisection of [0, 64] to 6e-8 took
	// (each is a pass over every chunk, on every frame the camera moves).
	lo, hi := 0.0, 1.0 // lo does not fit; hi fits or is the coarsest there is
	for hi < 64 && choose(hi) > v.MaxTriangles {
		lo, hi = hi, 2*hi
	}
	for hi-lo > 1.0/4096 {
		mid := (lo + hi) / 2
		if choose(mid) <= v.MaxTriangles {
			hi = mid
		} else {
			lo = mid
		}
	}
	choose(hi)
}

// emit fills in d's heights and triangles for an eye above sample position
// (ex, ez).
func (l *LOD) emit(d *ChunkDraw, ex, ez float64) {
	s := d.Step
	d.Heights = resize(d.Heights, d.Cols*d.Rows)
	k := 0
	for j := range d.Rows {
		r := min(d.Row0+j*s, d.Row1)
		for i := range d.Cols {
			d.Heights[k] = l.worldHeight(min(d.Col0+i*s, d.Col1), r)
			k++
		}
	}
	l.stitch(d)
	l.addEdgeVertices(d)

	nc, nr := d.Cols-1, d.Rows-1
	d.Tris = resize(d.Tris, 6*nc*nr)[:0]
	camCol := cellOf(ex, float64(d.Col0), float64(s), float64(d.Col1), nc)
	camRow := cellOf(ez, float64(d.Row0), float64(s), float64(d.Row1), nr)
	// Parts of the chunk that occlusion found hidden are left out.
	k = (d.Row0/l.chunkCells)*l.cols + d.Col0/l.chunkCells
	var hiddenParts []bool
	partsAcross := (d.Col1 - d.Col0 + l.partCells - 1) / l.partCells
	if l.partsHidden[k] && s <= l.partCells {
		hiddenParts = l.partHidden[l.chunks[k].partBase:]
	}
	backToFront(nr, camRow, func(j int) {
		r0 := float64(d.Row0 + j*s)
		r1 := float64(min(d.Row0+(j+1)*s, d.Row1))
		backToFront(nc, camCol, func(i int) {
			if hiddenParts != nil && hiddenParts[(j*s/l.partCells)*partsAcross+i*s/l.partCells] {
				return // behind nearer terrain (occlusion.go)
			}
			c0 := float64(d.Col0 + i*s)
			c1 := float64(min(d.Col0+(i+1)*s, d.Col1))
			a := uint32(j*d.Cols + i)
			b, c := a+1, a+uint32(d.Cols)
			// Border edges of the two triangles, each in its triangle's
			// winding: a→c (left) and b→a (top) of (a, c, b), c→d
			// (bottom) and d→b (right) of (b, c, d).
			var acb, bcd [3]edgeRun
			if i == 0 {
				acb[0] = d.run(sideLeft, j, false)
			}
			if j == 0 {
				acb[2] = d.run(sideTop, i, true)
			}
			if j == nr-1 {
				bcd[1] = d.run(sideBottom, i, false)
			}
			if i == nc-1 {
				bcd[2] = d.run(sideRight, j, true)
			}
			if lowerFirst(ex, ez, c0, r0, c1, r1) {
				d.Tris = appendCut(d.Tris, [3]uint32{b, c, c + 1}, bcd)
				d.Tris = appendCut(d.Tris, [3]uint32{a, c, b}, acb)
			} else {
				d.Tris = appendCut(d.Tris, [3]uint32{a, c, b}, acb)
				d.Tris = appendCut(d.Tris, [3]uint32{b, c, c + 1}, bcd)
			}
		})
	})
}

// edgeRun is a run of Edge vertices along one edge of a triangle: vertex
// indices first, first+1, … last−1, or in reverse order when rev.
type edgeRun struct {
	first, last uint32
	rev         bool
}

func (r edgeRun) len() int { return int(r.last - r.first) }

// at returns the vertex index of the run's i-th vertex along the edge.
func (r edgeRun) at(i int) uint32 {
	if r.rev {
		return r.last - 1 - uint32(i)
	}
	return r.first + uint32(i)
}

// run returns the Edge vertices inside border segment seg (between the
// chunk's vertices seg and seg+1 along the side), reversed when rev.
func (d *ChunkDraw) run(side, seg int, rev bool) edgeRun {
	e := d.sides[side]
	if e.fine == 0 {
		return edgeRun{}
	}
	start, end := d.Col0, d.Col1
	if side == sideLeft || side == sideRight {
		start, end = d.Row0, d.Row1
	}
	lo := start + seg*d.Step
	n := min(e.per, (min(lo+d.Step, end)-lo+e.fine-1)/e.fine-1)
	first := uint32(d.Cols*d.Rows + e.base + seg*e.per)
	return edgeRun{first: first, last: first + uint32(n), rev: rev}
}

// appendCut appends triangle v, cut at the Edge vertices on its edges:
// on[e] lie on the edge from v[e] to v[(e+1)%3], in that order. The
// pieces fan from the vertex opposite a cut edge and keep v's winding;
// they lie in v's plane and do not overlap, so their order does not
// matter.
func appendCut(tris []uint32, v [3]uint32, on [3]edgeRun) []uint32 {
	for e := range 3 {
		n := on[e].len()
		if n == 0 {
			continue
		}
		a, b, apex := v[e], v[(e+1)%3], v[(e+2)%3]
		q := a
		for i := range n {
			next := on[e].at(i)
			if i == 0 { // the piece on edge apex→a
				tris = appendCut(tris, [3]uint32{q, next, apex}, [3]edgeRun{2: on[(e+2)%3]})
			} else {
				tris = append(tris, q, next, apex)
			}
			q = next
		}
		// The piece on edge b→apex.
		return appendCut(tris, [3]uint32{q, b, apex}, [3]edgeRun{1: on[(e+1)%3]})
	}
	return append(tris, v[0], v[1], v[2])
}

// addEdgeVertices appends to d the Edge vertices of its finer selected
// neighbours' border vertices, with the heights those neighbours move
// them to (stitchEdge), and records them per side.
func (l *LOD) addEdgeVertices(d *ChunkDraw) {
	d.Edge = d.Edge[:0]
	d.sides = [4]edgeSide{}
	i, j := d.Col0/l.chunkCells, d.Row0/l.chunkCells
	k := j*l.cols + i
	add := func(side, fine int) {
		if fine == 0 || fine >= d.Step {
			return
		}
		d.sides[side] = edgeSide{base: len(d.Edge), fine: fine, per: d.Step/fine - 1}
		alongRows := side == sideLeft || side == sideRight
		start, end, fixed := d.Col0, d.Col1, d.Row0
		switch side {
		case sideBottom:
			fixed = d.Row1
		case sideLeft:
			start, end, fixed = d.Row0, d.Row1, d.Col0
		case sideRight:
			start, end, fixed = d.Row0, d.Row1, d.Col1
		}
		for pos := start + fine; pos < end; pos += fine {
			if (pos-start)%d.Step == 0 {
				continue
			}
			h := l.edgeHeight(alongRows, fixed, pos, start, end, d.Step)
			if alongRows {
				d.Edge = append(d.Edge, [2]int{fixed, pos})
			} else {
				d.Edge = append(d.Edge, [2]int{pos, fixed})
			}
			d.Heights = append(d.Heights, h)
		}
	}
	if j > 0 {
		add(sideTop, l.selected[k-l.cols])
	}
	if j < l.rows-1 {
		add(sideBottom, l.selected[k+l.cols])
	}
	if i > 0 {
		add(sideLeft, l.selected[k-1])
	}
	if i < l.cols-1 {
		add(sideRight, l.selected[k+1])
	}
}

// stitch closes the cracks between d and coarser selected neighbours: each
// of d's border vertices on an edge shared with a chunk of a larger step
// moves onto that chunk's edge, the straight line between its two
// neighbouring coarse vertices, so both chunks end in the same 3D polyline.
// Chunk corners are vertices at every step and never move; a neighbour that
// was culled is not drawn, and its edge does not matter.
func (l *LOD) stitch(d *ChunkDraw) {
	i, j := d.Col0/l.chunkCells, d.Row0/l.chunkCells
	k := j*l.cols + i
	if i > 0 && l.selected[k-1] > d.Step {
		l.stitchEdge(d, 0, d.Cols, l.selected[k-1])
	}
	if i < l.cols-1 && l.selected[k+1] > d.Step {
		l.stitchEdge(d, d.Cols-1, d.Cols, l.selected[k+1])
	}
	if j > 0 && l.selected[k-l.cols] > d.Step {
		l.stitchEdge(d, 0, 1, l.selected[k-l.cols])
	}
	if j < l.rows-1 && l.selected[k+l.cols] > d.Step {
		l.stitchEdge(d, (d.Rows-1)*d.Cols, 1, l.selected[k+l.cols])
	}
}

// stitchEdge moves the border vertices first, first+stride, … of d onto the
// edge of a neighbour drawn with step coarse. Along the edge the vertices
// sit at offsets 0, s, 2s, … (the last one clamped to the chunk's end) from
// the chunk's corner, and the neighbour's at multiples of coarse, which is
// a multiple of s.
func (l *LOD) stitchEdge(d *ChunkDraw, first, stride, coarse int) {
	// The edge runs along a column (stride Cols) or along a row (stride 1).
	alongRows := stride != 1
	n, start, end := d.Cols, d.Col0, d.Col1
	if alongRows {
		n, start, end = d.Rows, d.Row0, d.Row1
	}
	col, row := d.Sample(first)
	fixed := row
	if alongRows {
		fixed = col
	}
	for v := range n {
		pos := min(start+v*d.Step, end)
		d.Heights[first+v*stride] = l.edgeHeight(alongRows, fixed, pos, start, end, coarse)
	}
}

// edgeHeight is the height at sample pos of a chunk border from start to
// end, on column fixed (alongRows) or row fixed, drawn with step coarse:
// the straight line between the border's vertices around pos. Both
// chunks of a shared edge compute it here, so that their vertices agree
// to the bit.
func (l *LOD) edgeHeight(alongRows bool, fixed, pos, start, end, coarse int) float32 {
	at := func(p int) float32 {
		if alongRows {
			return l.worldHeight(fixed, p)
		}
		return l.worldHeight(p, fixed)
	}
	a := start + (pos-start)/coarse*coarse
	b := min(a+coarse, end)
	if pos == a || pos == b {
		return at(pos)
	}
	ha, hb := at(a), at(b)
	t := float64(pos-a) / float64(b-a)
	return float32(float64(ha) + t*(float64(hb)-float64(ha)))
}

// resize returns s with length n, reusing its array when large enough.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// FrustumPlanes returns the six planes of the frustum of a view-projection
// matrix, column-major as mgl32.Mat4 stores it, for OpenGL clip space
// (−w ≤ x, y, z ≤ w), in View.Planes's form: left, right, bottom, top,
// near, far, each scaled so that a·x+b·y+c·z+d is a distance in world
// units (Gribb and Hartmann, "Fast extraction of viewing frustum planes
// from the world-view-projection matrix", 2001).
func FrustumPlanes(viewProj [16]float32) [6][4]float64 {
	var row [4][4]float64
	for i := range 4 {
		for k := range 4 {
			row[i][k] = float64(viewProj[4*k+i])
		}
	}
	var planes [6][4]float64
	for p := range 6 {
		axis, sign := p/2, 1.0
		if p%2 == 1 {
			sign = -1
		}
		for k := range 4 {
			planes[p][k] = row[3][k] + sign*row[axis][k]
		}
		if n := math.Sqrt(planes[p][0]*planes[p][0] + planes[p][1]*planes[p][1] + planes[p][2]*planes[p][2]); n > 0 {
			for k := range 4 {
				planes[p][k] /= n
			}
		}
	}
	return planes
}
