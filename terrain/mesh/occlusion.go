package mesh

import (
	"context"
	"math"
	"runtime"

	"cordillera/internal/parallel"
)

// Occlusion culling for a heightfield drawn back to front.
//
// Looking across a hilly map, most chunks in the frustum lie wholly behind
// nearer hills, and the painter's algorithm would still shade every one of
// their pixels. Select therefore walks the selected chunks front to back
// (the reverse of the drawing order) over a coarse coverage grid of the
// screen. Every chunk's footprint is cut into 4×4 parts, and each part is
// bounded by a slab: two parallel planes fitted to its samples, one shifted
// down below all of them, one up above all of them. The drawn surface over a
// part interpolates the part's own samples, so it lies inside the slab. A
// drawn chunk adds occluders below its parts' lower planes: a continuous
// surface through the corners of the part grid, each corner at the lowest
// of the lower planes meeting there, two triangles per part. Coverage is
// kept per pixel centre, the sampling the rasterizer itself uses, so the
// occluders' union counts whole. A chunk whose parts all project onto
// covered pixel centres only is not drawn, and in a drawn chunk the
// triangles of such parts are left out.
//
// Why that is safe: with the eye over the map and above the drawn surface,
// a ray through a point of an occluder is, there, at or below the surface,
// so it crossed the surface at that point or nearer. The
// back-to-front order is a front-to-back order along every ray's horizontal
// projection, so every chunk visited later lies farther along that ray than
// the rectangle: it is hidden behind drawn terrain. Chunks culled this way
// keep their level of detail in the stitching of their neighbours, so the
// drawn geometry is the same with or without the culling.

// occlusionParts is how many parts a chunk's footprint is cut into along
// each axis for its bounds.
const occlusionParts = 4

// coverage records which pixel centres are covered, a bit per pixel.
type coverage struct {
	w, h, words int
	bits        []uint64
}

func (g *coverage) reset(w, h int) {
	g.w, g.h, g.words = w, h, (w+63)/64
	g.bits = resize(g.bits, g.words*h)
	clear(g.bits)
}

// screenPoint projects a world point; ok is false behind the near plane.
func screenPoint(vp *[16]float32, w, h int, x, y, z float64, nearW float64) (sx, sy float64, ok bool) {
	cx := float64(vp[0])*x + float64(vp[4])*y + float64(vp[8])*z + float64(vp[12])
	cy := float64(vp[1])*x + float64(vp[5])*y + float64(vp[9])*z + float64(vp[13])
	cw := float64(vp[3])*x + float64(vp[7])*y + float64(vp[11])*z + float64(vp[15])
	if cw < nearW {
		return 0, 0, false
	}
	return (cx/cw + 1) / 2 * float64(w), (1 - cy/cw) / 2 * float64(h), true
}

// spanEps keeps float rounding from counting a pixel centre just outside a
// triangle as covered.
const spanEps = 1e-6

// fillTriangle marks the pixel centres (x+½, y+½) inside the screen
// triangle a, b, c.
func (g *coverage) fillTriangle(a, b, c [2]float64) {
	if a[1] > b[1] {
		a, b = b, a
	}
	if b[1] > c[1] {
		b, c = c, b
	}
	if a[1] > b[1] {
		a, b = b, a
	}
	if c[1]-a[1] <= 0 {
		return
	}
	y0 := max(int(math.Ceil(a[1]-0.5)), 0)
	y1 := min(int(math.Floor(c[1]-0.5)), g.h-1)
	edge := func(p, q [2]float64, y float64) float64 { return p[0] + (q[0]-p[0])*(y-p[1])/(q[1]-p[1]) }
	for y := y0; y <= y1; y++ {
		yc := float64(y) + 0.5
		xl := edge(a, c, yc)
		var xr float64
		if yc < b[1] || b[1] == c[1] {
			if b[1] == a[1] {
				continue
			}
			xr = edge(a, b, yc)
		} else {
			xr = edge(b, c, yc)
		}
		if xl > xr {
			xl, xr = xr, xl
		}
		x0 := max(int(math.Ceil(xl-0.5+spanEps)), 0)
		x1 := min(int(math.Floor(xr-0.5-spanEps)), g.w-1)
		if x0 <= x1 {
			g.setSpan(y, x0, x1)
		}
	}
}

// setSpan marks pixels x0..x1 of row y.
func (g *coverage) setSpan(y, x0, x1 int) {
	row := g.bits[y*g.words : (y+1)*g.words]
	for w := x0 / 64; w <= x1/64; w++ {
		lo, hi := max(x0-w*64, 0), min(x1-w*64, 63)
		row[w] |= (^uint64(0) >> (63 - hi + lo)) << lo
	}
}

// full reports whether pixels x0..x1 of rows y0..y1 are all covered.
func (g *coverage) full(x0, y0, x1, y1 int) bool {
	for y := y0; y <= y1; y++ {
		row := g.bits[y*g.words : (y+1)*g.words]
		for w := x0 / 64; w <= x1/64; w++ {
			lo, hi := max(x0-w*64, 0), min(x1-w*64, 63)
			mask := (^uint64(0) >> (63 - hi + lo)) << lo
			if row[w]&mask != mask {
				return false
			}
		}
	}
	return true
}

// slab bounds the drawn surface over a rectangle of the map: between the
// planes y = h + a·(x − x0) + b·(z − z0) + lo and … + hi.
type slab struct {
	x0, z0, x1, z1 float64 // world rectangle
	h, a, b        float64 // plane through the samples' least-squares fit
	lo, hi         float64 // offsets of the lower and upper bounding planes
}

func (s *slab) at(x, z, off float64) float64 { return s.h + s.a*(x-s.x0) + s.b*(z-s.z0) + off }

// pixelBox is the pixel centres a slab's screen bounding box holds: those
// of columns x0..x1 and rows y0..y1, or none (never hidden: the slab
// reaches behind the near plane; always hidden: it holds no pixel centre
// on screen).
type pixelBox struct {
	x0, y0, x1, y1 int32
	never, always  bool
}

// slabBox returns the pixel centres in the screen bounding box of the
// slab's eight corners on a w×h coverage grid.
func slabBox(v *View, s *slab, w, h int) pixelBox {
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for c := range 8 {
		x, z := s.x0, s.z0
		if c&1 != 0 {
			x = s.x1
		}
		if c&2 != 0 {
			z = s.z1
		}
		off := s.lo
		if c&4 != 0 {
			off = s.hi
		}
		sx, sy, ok := screenPoint(&v.ViewProj, v.Width, v.Height, x, s.at(x, z, off), z, v.NearW)
		if !ok {
			return pixelBox{never: true}
		}
		minX, maxX = min(minX, sx), max(maxX, sx)
		minY, maxY = min(minY, sy), max(maxY, sy)
	}
	x0, x1 := max(int(math.Ceil(minX-0.5)), 0), min(int(math.Floor(maxX-0.5)), w-1)
	y0, y1 := max(int(math.Ceil(minY-0.5)), 0), min(int(math.Floor(maxY-0.5)), h-1)
	if x0 > x1 || y0 > y1 {
		return pixelBox{always: true}
	}
	return pixelBox{x0: int32(x0), y0: int32(y0), x1: int32(x1), y1: int32(y1)}
}

// hiddenBox reports whether every pixel centre of b is covered.
func (g *coverage) hiddenBox(b pixelBox) bool {
	switch {
	case b.never:
		return false
	case b.always:
		return true
	}
	return g.full(int(b.x0), int(b.y0), int(b.x1), int(b.y1))
}

// hiddenSlab reports whether every pixel centre in the screen bounding box
// of the slab's eight corners is covered. A slab reaching behind the near
// plane is never hidden.
func (g *coverage) hiddenSlab(v *View, s *slab) bool {
	return g.hiddenBox(slabBox(v, s, g.w, g.h))
}

// addSurface adds the occluders of a rectangle of the map: two triangles
// through its corners at heights c00, c10, c01, c11 (x0 z0, x1 z0, x0 z1,
// x1 z1), split like the mesh along (x1, z0)–(x0, z1).
func (g *coverage) addSurface(v *View, x0, z0, x1, z1, c00, c10, c01, c11 float64) {
	var q [4][2]float64
	for k, c := range [4][3]float64{{x0, c00, z0}, {x1, c10, z0}, {x0, c01, z1}, {x1, c11, z1}} {
		sx, sy, ok := screenPoint(&v.ViewProj, v.Width, v.Height, c[0], c[1], c[2], v.NearW)
		if !ok {
			return
		}
		q[k] = [2]float64{sx, sy}
	}
	g.fillTriangle(q[0], q[2], q[1])
	g.fillTriangle(q[1], q[2], q[3])
}

// effectiveStep is the coarsest step the drawn surface of chunk k
// interpolates over: its own or, at a border bent onto a coarser
// neighbour, that neighbour's.
func (l *LOD) effectiveStep(k int) int {
	i, j := k%l.cols, k/l.cols
	step := l.selected[k]
	if i > 0 {
		step = max(step, l.selected[k-1])
	}
	if i < l.cols-1 {
		step = max(step, l.selected[k+1])
	}
	if j > 0 {
		step = max(step, l.selected[k-l.cols])
	}
	if j < l.rows-1 {
		step = max(step, l.selected[k+l.cols])
	}
	return step
}

// fitSlab bounds the samples of [c0, c1] × [r0, r1] by two parallel planes:
// the least-squares plane shifted down to the lowest sample and up to the
// highest.
func (l *LOD) fitSlab(c0, r0, c1, r1 int) slab {
	m := l.m
	cs, vs := m.CellSize, m.VerticalScale
	s := slab{x0: float64(c0) * cs, z0: float64(r0) * cs, x1: float64(c1) * cs, z1: float64(r1) * cs}
	// Least squares for y = h + a·u + b·w over a full grid, u and w measured
	// from the rectangle's centre, is separable: the grid is symmetric.
	uc, wc := float64(c0+c1)/2, float64(r0+r1)/2
	var sy, suy, swy, suu, sww, n float64
	for r := r0; r <= r1; r++ {
		for c := c0; c <= c1; c++ {
			y := float64(m.Samples[r*m.Width+c]) * vs
			u, w := (float64(c)-uc)*cs, (float64(r)-wc)*cs
			sy += y
			suy += u * y
			swy += w * y
			suu += u * u
			sww += w * w
			n++
		}
	}
	if suu > 0 {
		s.a = suy / suu
	}
	if sww > 0 {
		s.b = swy / sww
	}
	s.h = sy/n - s.a*(uc*cs-s.x0) - s.b*(wc*cs-s.z0)
	s.lo, s.hi = math.Inf(1), math.Inf(-1)
	for r := r0; r <= r1; r++ {
		for c := c0; c <= c1; c++ {
			d := float64(m.Samples[r*m.Width+c])*vs - s.at(float64(c)*cs, float64(r)*cs, 0)
			s.lo, s.hi = min(s.lo, d), max(s.hi, d)
		}
	}
	// Rounding in the evaluation above must not let a sample poke through.
	pad := 1e-9 * (math.Abs(s.h) + math.Abs(s.a)*(s.x1-s.x0) + math.Abs(s.b)*(s.z1-s.z0) + 1)
	s.lo -= pad
	s.hi += pad
	return s
}

// measureParts fits the slabs of chunk ch: the whole chunk's, and one per
// part of partCells × partCells cells, row by row.
func (l *LOD) measureParts(ch *lodChunk) {
	ch.whole = l.fitSlab(ch.c0, ch.r0, ch.c1, ch.r1)
	ch.parts = ch.parts[:0]
	for r := ch.r0; r < ch.r1; r += l.partCells {
		for c := ch.c0; c < ch.c1; c += l.partCells {
			ch.parts = append(ch.parts, l.fitSlab(c, r, min(c+l.partCells, ch.c1), min(r+l.partCells, ch.r1)))
		}
	}
}

// measureCorners sets the occluder surface's corner heights: at each corner
// of the part grid, the lowest of the lower planes of the parts that meet
// there. Over each part the surface then stays below the part's lower plane.
func (l *LOD) measureCorners() {
	m := l.m
	l.cornerCols = (m.Width-2)/l.partCells + 2
	l.cornerRows = (m.Height-2)/l.partCells + 2
	l.corners = make([]float64, l.cornerCols*l.cornerRows)
	for i := range l.corners {
		l.corners[i] = math.Inf(1)
	}
	for k := range l.chunks {
		ch := &l.chunks[k]
		for p := range ch.parts {
			s := &ch.parts[p]
			ci, cj := l.cornerIndex(s.x0, s.z0)
			for _, d := range [4][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
				x, z := s.x0, s.z0
				if d[0] == 1 {
					x = s.x1
				}
				if d[1] == 1 {
					z = s.z1
				}
				idx := (cj+d[1])*l.cornerCols + ci + d[0]
				l.corners[idx] = min(l.corners[idx], s.at(x, z, s.lo))
			}
		}
	}
}

// cornerIndex returns the part-grid corner at world (x, z), a part's
// first corner.
func (l *LOD) cornerIndex(x, z float64) (int, int) {
	cs := l.m.CellSize
	return int(math.Round(x/cs)) / l.partCells, int(math.Round(z/cs)) / l.partCells
}

// addOccluders adds chunk k's occluders: the corner surface over each of
// its parts, or, where the drawn surface interpolates over more than a part
// (steps coarser than a part), the lower plane of the whole chunk.
func (l *LOD) addOccluders(g *coverage, v *View, k int) {
	ch := &l.chunks[k]
	if l.effectiveStep(k) > l.partCells {
		s := &ch.whole
		lo := s.lo + l.occluderLift
		g.addSurface(v, s.x0, s.z0, s.x1, s.z1, s.at(s.x0, s.z0, lo), s.at(s.x1, s.z0, lo), s.at(s.x0, s.z1, lo), s.at(s.x1, s.z1, lo))
		return
	}
	lift := l.occluderLift
	for p := range ch.parts {
		s := &ch.parts[p]
		ci, cj := l.cornerIndex(s.x0, s.z0)
		c := l.corners[cj*l.cornerCols+ci:]
		n := l.cornerCols
		g.addSurface(v, s.x0, s.z0, s.x1, s.z1, c[0]+lift, c[1]+lift, c[n]+lift, c[n+1]+lift)
	}
}

// hiddenChunk reports whether every part of chunk k (the whole chunk where
// its surface interpolates over more than a part) is hidden, and marks the
// hidden parts of a chunk that is not, so that their triangles are left out.
func (l *LOD) hiddenChunk(g *coverage, v *View, k int) bool {
	ch := &l.chunks[k]
	if l.effectiveStep(k) > l.partCells {
		return g.hiddenSlab(v, &ch.whole)
	}
	hidden := l.partHidden[ch.partBase : ch.partBase+len(ch.parts)]
	all, some := true, false
	for p := range ch.parts {
		hidden[p] = g.hiddenSlab(v, &ch.parts[p])
		all = all && hidden[p]
		some = some || hidden[p]
	}
	l.partsHidden[k] = some && !all
	return all
}

// meshHeight is the height of the full-resolution triangulated surface
// (thesis listing 5.1's split) at world (x, z), clamped to the map.
func (l *LOD) meshHeight(x, z float64) float64 {
	m := l.m
	u := min(max(x/m.CellSize, 0), float64(m.Width-1))
	v := min(max(z/m.CellSize, 0), float64(m.Height-1))
	c, r := min(int(u), m.Width-2), min(int(v), m.Height-2)
	u, v = u-float64(c), v-float64(r)
	h := func(dc, dr int) float64 { return float64(m.Samples[(r+dr)*m.Width+c+dc]) * m.VerticalScale }
	if u+v <= 1 {
		return h(0, 0) + u*(h(1, 0)-h(0, 0)) + v*(h(0, 1)-h(0, 0))
	}
	return h(1, 1) + (1-u)*(h(0, 1)-h(1, 1)) + (1-v)*(h(1, 0)-h(1, 1))
}

// canOcclude reports whether the culling's premise holds for this view:
// the eye over the map and above its surface.
func (l *LOD) canOcclude(v *View) bool {
	m := l.m
	w, d := float64(m.Width-1)*m.CellSize, float64(m.Height-1)*m.CellSize
	x, y, z := v.Eye[0], v.Eye[1], v.Eye[2]
	return v.Width > 0 && v.Height > 0 && !v.Full && m.Width >= 2 && m.Height >= 2 &&
		x >= 0 && x <= w && z >= 0 && z <= d && y > l.meshHeight(x, z)
}

// occludeSerial marks hidden chunks among those selected, visiting order
// (the selected chunks back to front) in reverse, one chunk after another
// on one core: the reference occlude must agree with to the bit.
func (l *LOD) occludeSerial(v *View, order []int) {
	g := &l.cover
	g.reset(v.Width, v.Height)
	for n := len(order) - 1; n >= 0; n-- {
		k := order[n]
		if l.hiddenChunk(g, v, k) {
			l.hidden[k] = true
			continue
		}
		l.addOccluders(g, v, k)
	}
}

// chunkPlan is what occlusion culling needs of one chunk that does not
// depend on what nearer chunks cover: the pixel boxes of the slabs it is
// tested by, the whole chunk's or one per part. Projecting the slabs is
// about half the work, and every chunk's boxes can be found on any core
// in any order. The occluders are projected and marked only for chunks
// found visible, one after another, as occludeSerial does: most chunks in
// a view across hills are hidden, and projecting their occluders as well
// would cost more than sharing it out saves.
type chunkPlan struct {
	whole bool // tested and occluding as a whole (effectiveStep > partCells)
	boxes []pixelBox
}

// parallelPlanFrom is the number of chunks from which occlude makes their
// plans on all cores: a plan takes a few microseconds, about what starting
// a goroutine does.
const parallelPlanFrom = 32

// planChunk makes chunk k's plan with the same arithmetic as hiddenChunk.
func (l *LOD) planChunk(p *chunkPlan, v *View, k int) {
	ch := &l.chunks[k]
	w, h := l.cover.w, l.cover.h
	p.boxes = p.boxes[:0]
	p.whole = l.effectiveStep(k) > l.partCells
	if p.whole {
		p.boxes = append(p.boxes, slabBox(v, &ch.whole, w, h))
		return
	}
	for q := range ch.parts {
		p.boxes = append(p.boxes, slabBox(v, &ch.parts[q], w, h))
	}
}

// occlude marks hidden chunks among those selected, as occludeSerial does:
// the chunks' plans are made on all cores, then the boxes are tested and
// the visible chunks' occluders added front to back on one. Each plan
// depends on its chunk alone, and the coverage on the plans in order, so
// the result is the same on any number of cores.
func (l *LOD) occlude(v *View, order []int) {
	if len(order) < parallelPlanFrom || runtime.GOMAXPROCS(0) < 2 {
		// On one core the plans would only be kept in memory a moment
		// longer: the serial culling does the same work.
		l.occludeSerial(v, order)
		return
	}
	l.plannedFrames++
	g := &l.cover
	g.reset(v.Width, v.Height)
	if cap(l.plans) < len(order) {
		// Grown, never shrunk: plans keep their buffers from frame to frame.
		l.plans = append(l.plans[:cap(l.plans)], make([]chunkPlan, len(order)-cap(l.plans))...)
	}
	l.plans = l.plans[:len(order)]
	plans := l.plans
	// The workers read the view and the order from l, so that v and order
	// do not escape and Select allocates nothing on its serial paths.
	l.planView, l.planOrder = *v, order
	// context.Background is never done, so Each cannot fail here.
	_ = parallel.Each(context.Background(), len(order), func(n int) {
		l.planChunk(&l.plans[n], &l.planView, l.planOrder[n])
	})
	l.planOrder = nil
	for n := len(order) - 1; n >= 0; n-- {
		k, p := order[n], &plans[n]
		if p.whole {
			if g.hiddenBox(p.boxes[0]) {
				l.hidden[k] = true
				continue
			}
		} else {
			ch := &l.chunks[k]
			hidden := l.partHidden[ch.partBase : ch.partBase+len(ch.parts)]
			all, some := true, false
			for q, b := range p.boxes {
				hidden[q] = g.hiddenBox(b)
				all = all && hidden[q]
				some = some || hidden[q]
			}
			l.partsHidden[k] = some && !all
			if all {
				l.hidden[k] = true
				continue
			}
		}
		l.addOccluders(g, v, k)
	}
}
