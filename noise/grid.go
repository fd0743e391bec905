package noise

// Grid evaluation: a basis sampled on every row of a grid whose rows share
// one set of x coordinates, as a fractal generator's octave is. Everything
// that depends only on the column — the lattice cell, the offset u, u − 1
// and the fades w(u), w'(u) — is computed once per generation in a Grid;
// the lattice rows' gradients (or values) are hashed once per lattice row
// and kept by each worker's GridRows while its rows stay inside that
// lattice row. The arithmetic per sample is the same expression, in the
// same order, as the point forms', so the values are bit for bit those of
// Value and Eval. On amd64 the loop over the columns of a row of Perlin or
// value noise values runs in a vector kernel (kernel.go), lane by lane the
// same expression.

// gridKind is how a Grid evaluates its basis.
type gridKind int

const (
	gridRowForms gridKind = iota // any other basis: its own ValueRow and EvalRow
	gridPerlin
	gridValue
	gridWorley  // Worley noise: the feature points kept per lattice row (worley_grid.go)
	gridSimplex // simplex noise: its Value row in the vector kernel (simplex_row.go)
)

// Grid is a lattice basis prepared for a fixed row of x coordinates. It is
// read-only once made and may be shared by any number of GridRows.
type Grid struct {
	basis  Basis
	worley *worleyGrid // gridWorley's tables
	xs     []float64
	kind   gridKind
	key    uint64
	py     int      // lattice period along y; 0: none
	hashed []int    // lattice column of every prepared column: i and i+1 of each cell, wrapped where periodic
	hx     []uint64 // i·primeX of every prepared column i, its part of hashCell
	// The samples fall into runs inside one lattice cell: run k ends before
	// sample runEnd[k], and its cell's left column is prepared column
	// runLeft[k] (the right one is runLeft[k]+1).
	runEnd, runLeft []int32
	// left is, per sample, its cell's left column, for rows whose runs are
	// too short to be worth looping over (nil otherwise).
	left           []int32
	u, um1, wu, du []float64 // per sample: u, u − 1, w(u), w'(u)
	// A Perlin or value Grid made with a vector kernel keeps its tables
	// of the whole blocks of laneWidth samples from the first, and the left
	// column of every sample after them, which the Go loop does.
	kernel Kernel
	blocks []laneBlock
	tail   []int32
	// simplexNear is whether every x lies within ±simplexAVX2Reach, as
	// the AVX2 simplex kernel needs.
	simplexNear bool
}

// laneWidth is the samples of a vector kernel's block: one AVX-512
// register of float64, two of AVX2.
const laneWidth = 8

// laneBlock is a Grid's tables of laneWidth samples as the vector
// kernels read them (internal/asmgen fixes the layout): per sample u, w(u)
// and the left column minus base, the block's first column. The kernels
// make u − 1 themselves, which keeps the tables smaller.
// A sample adds at most two prepared columns, so a block's samples read
// at most 2·(laneWidth−1) + 2 = 16 columns from base: two AVX-512
// registers, which one permute picks from.
type laneBlock struct {
	u, wu [laneWidth]float64
	rel   [laneWidth]int64
	base  int64
	_     [laneWidth - 1]int64 // to 256 bytes, so that blocks stay 64-byte aligned
}

// laneReach is how far past a block's base its samples read.
const laneReach = 2 * laneWidth

// NewGrid prepares b for rows at the coordinates xs. Value and Perlin noise,
// periodic or not, get the grid-aware evaluation; other bases use their own
// row forms.
func NewGrid(b Basis, xs []float64) *Grid {
	g := &Grid{basis: b, xs: xs, kernel: KernelGo}
	px := 0
	switch n := b.(type) {
	case perlinNoise:
		g.kind, g.key = gridPerlin, n.key
	case valueNoise:
		g.kind, g.key = gridValue, n.key
	case periodicPerlin:
		g.kind, g.key, px, g.py = gridPerlin, n.key, n.px, n.py
	case periodicValue:
		g.kind, g.key, px, g.py = gridValue, n.key, n.px, n.py
	case worleyNoise:
		if g.worley = newWorleyGrid(n, xs); g.worley != nil {
			g.kind = gridWorley
		}
		return g
	case simplexNoise:
		g.kind, g.key, g.kernel = gridSimplex, n.key, currentKernel()
		g.simplexNear = simplexNear(xs)
		return g
	default:
		return g
	}
	g.u, g.um1 = make([]float64, len(xs)), make([]float64, len(xs))
	g.wu, g.du = make([]float64, len(xs)), make([]float64, len(xs))
	ci, have := 0, false
	for k, x := range xs {
		i, u := floorFrac(x)
		g.u[k], g.um1[k], g.wu[k], g.du[k] = u, u-1, fade(u), fadeD(u)
		if have && i == ci {
			g.runEnd[len(g.runEnd)-1] = int32(k + 1)
			continue
		}
		// A new cell: its left column is the previous cell's right one
		// when the cells are neighbours, else two new columns.
		if !have || i != ci+1 {
			g.hashed = append(g.hashed, g.wrap(i, px))
		}
		g.hashed = append(g.hashed, g.wrap(i+1, px))
		g.runEnd = append(g.runEnd, int32(k+1))
		g.runLeft = append(g.runLeft, int32(len(g.hashed)-2))
		ci, have = i, true
	}
	g.hx = make([]uint64, len(g.hashed))
	for k, i := range g.hashed {
		g.hx[k] = uint64(i) * primeX
	}
	if 2*len(g.runEnd) > len(xs) { // fewer than two samples per cell
		g.left = g.leftColumns()
	}
	if g.kernel = currentKernel(); g.kernel != KernelGo {
		g.makeBlocks()
	}
	return g
}

// leftColumns returns every sample's cell's left prepared column.
func (g *Grid) leftColumns() []int32 {
	left := make([]int32, len(g.xs))
	start := 0
	for k, end := range g.runEnd {
		for c := start; c < int(end); c++ {
			left[c] = g.runLeft[k]
		}
		start = int(end)
	}
	return left
}

// makeBlocks makes the vector kernels' tables.
func (g *Grid) makeBlocks() {
	left := g.leftColumns()
	g.blocks = make([]laneBlock, len(left)/laneWidth)
	for b := range g.blocks {
		blk, c0 := &g.blocks[b], b*laneWidth
		blk.base = int64(left[c0])
		for c := range laneWidth {
			blk.u[c], blk.wu[c] = g.u[c0+c], g.wu[c0+c]
			blk.rel[c] = int64(left[c0+c]) - blk.base
		}
	}
	g.tail = left[len(g.blocks)*laneWidth:]
}

// wrap is the lattice index hashed for index i, with period p (0: none).
func (*Grid) wrap(i, p int) int {
	if p == 0 {
		return i
	}
	return wrap(i, p)
}

// GridRows evaluates rows of a Grid. It keeps the hashed lattice rows
// between calls, so one GridRows should serve one worker's rows, in order;
// it is not safe for concurrent use.
type GridRows struct {
	g       *Grid
	j       int       // the lattice row of the kept lattice terms g0 (and j+1: g1)
	have    bool      // whether any lattice row is kept
	g0, g1  gradRow   // Perlin: the gradients of rows j and j+1
	a0, a1  []float64 // value noise: lattice values of rows j and j+1
	cs, co  []float64 // Perlin columns on the current row: slope s and offset o
	cso     []float64 // the AVX2 kernel's view of them: s and o of each column in turn
	sx, sy  []float64 // Perlin column slope terms for ∂N/∂y
	sv      []float64
	sxy     []float64 // the AVX2 kernel's view of sx and sy: the pair of each column in turn
	ve, vca []float64 // value noise columns: e and c − a

	worley *worleyRows // gridWorley's kept lattice rows
}

// Rows returns a new evaluator of g's rows.
func (g *Grid) Rows() *GridRows {
	r := &GridRows{g: g}
	if g.worley != nil {
		r.worley = g.worley.rows()
	}
	n := len(g.hashed)
	switch g.kind {
	case gridPerlin:
		r.g0 = gradRow{make([]float64, n), make([]float64, n)}
		r.g1 = gradRow{make([]float64, n), make([]float64, n)}
		// The AVX-512 kernel reads laneReach columns from a block's
		// base, which may pass the last column.
		r.cs, r.co = make([]float64, n+laneReach), make([]float64, n+laneReach)
		if g.kernel == KernelAVX2 {
			r.cso = make([]float64, 2*n)
		}
	case gridValue:
		r.a0, r.a1 = make([]float64, n), make([]float64, n)
		r.ve, r.vca = make([]float64, n+laneReach), make([]float64, n+laneReach)
	}
	return r
}

// lattice brings the kept lattice rows to j and j+1, hashing only rows it
// does not keep already.
func (r *GridRows) lattice(j int) {
	if r.have && j == r.j {
		return
	}
	switch {
	case r.have && j == r.j+1:
		r.g0, r.g1 = r.g1, r.g0
		r.a0, r.a1 = r.a1, r.a0
		r.hashRow(j+1, r.g1, r.a1)
	case r.have && j == r.j-1:
		r.g0, r.g1 = r.g1, r.g0
		r.a0, r.a1 = r.a1, r.a0
		r.hashRow(j, r.g0, r.a0)
	default:
		r.hashRow(j, r.g0, r.a0)
		r.hashRow(j+1, r.g1, r.a1)
	}
	r.j, r.have = j, true
}

// gradRow is a lattice row's gradients at the prepared columns, their x
// and y apart as the hashing kernel writes them.
type gradRow struct{ x, y []float64 }

// hashRow fills lattice row j's gradients (Perlin) or values (value noise)
// at every prepared column: gradient and latticeValue, with each column's
// i·primeX from the Grid, in the hashing kernel from the first column
// where the Grid has it.
func (r *GridRows) hashRow(j int, gs gradRow, as []float64) {
	g := r.g
	key := rowKey(g.key, g.wrap(j, g.py))
	switch g.kind {
	case gridPerlin:
		done := perlinHashLanes(g.kernel, gs.x, gs.y, g.hx, key)
		gx, gy := gs.x[done:len(g.hx)], gs.y[done:len(g.hx)]
		for k, h := range g.hx[done:] {
			d := gradients[Mix64(key^h)>>56]
			gx[k], gy[k] = d.x, d.y
		}
	case gridValue:
		done := valueHashLanes(g.kernel, as, g.hx, key)
		as = as[done:len(g.hx)]
		for k, h := range g.hx[done:] {
			as[k] = float64(float64(int64(Mix64(key^h))>>11) * 0x1p-52)
		}
	}
}

// Value fills v[k] = N(xs[k], y) for the Grid's xs.
func (r *GridRows) Value(y float64, v []float64) {
	g := r.g
	switch g.kind {
	case gridPerlin:
		r.perlinRow(y, v, nil, nil)
	case gridValue:
		r.valueRow(y, v, nil, nil)
	case gridWorley:
		r.worley.value(y, v)
	case gridSimplex:
		g.simplexValues(y, v)
	default:
		g.basis.ValueRow(g.xs, y, v)
	}
}

// Eval fills v[k], dx[k], dy[k] with Eval(xs[k], y) for the Grid's xs.
func (r *GridRows) Eval(y float64, v, dx, dy []float64) {
	g := r.g
	switch g.kind {
	case gridPerlin:
		r.perlinRow(y, v, dx, dy)
	case gridValue:
		r.valueRow(y, v, dx, dy)
	case gridWorley:
		r.worley.eval(y, v, dx, dy)
	default:
		g.basis.EvalRow(g.xs, y, v, dx, dy)
	}
}

// perlinColumns makes the Perlin columns of the row at offset t in the kept
// lattice row: newPerlinColumn (and newPerlinColumnSlope when slopes) per
// prepared column.
func (r *GridRows) perlinColumns(t float64, slopes bool) {
	n := len(r.g.hashed)
	if slopes && r.sx == nil {
		// Padded like cs and co for the AVX-512 kernel.
		r.sx, r.sy, r.sv = make([]float64, n+laneReach), make([]float64, n+laneReach), make([]float64, n+laneReach)
		if r.cso != nil {
			r.sxy = make([]float64, 2*n)
		}
	}
	wv := fade(t)
	// The AVX-512 kernel makes the columns of whole blocks from the first.
	done := perlinColumnLanes(r.g.kernel, r, t, wv, slopes)
	g0x, g0y, g1x, g1y := r.g0.x[done:n], r.g0.y[done:n], r.g1.x[done:n], r.g1.y[done:n]
	cs, co := r.cs[done:n], r.co[done:n]
	for k := range g0x {
		c := newPerlinColumn(vec2{g0x[k], g0y[k]}, vec2{g1x[k], g1y[k]}, t, wv)
		cs[k], co[k] = c.s, c.o
	}
	if r.cso != nil {
		cso := r.cso[:2*n]
		for k := range r.cs[:n] {
			cso[2*k], cso[2*k+1] = r.cs[k], r.co[k]
		}
	}
	if slopes {
		sx, sy, sv := r.sx[done:n], r.sy[done:n], r.sv[done:n]
		for k := range g0x {
			c := newPerlinColumnSlope(vec2{g0x[k], g0y[k]}, vec2{g1x[k], g1y[k]}, t, wv)
			sx[k], sy[k], sv[k] = c.sx, c.sy, c.sv
		}
		if r.sxy != nil {
			sxy := r.sxy[:2*n]
			for k := range r.sx[:n] {
				sxy[2*k], sxy[2*k+1] = r.sx[k], r.sy[k]
			}
		}
	}
}

// perlinLattice brings the kept lattice rows and the Perlin columns (with
// their slope terms when slopes) to the row y, and returns y's offset t in
// its lattice row.
func (r *GridRows) perlinLattice(y float64, slopes bool) (t float64) {
	j, t := floorFrac(y)
	r.lattice(j)
	r.perlinColumns(t, slopes)
	return t
}

// perlinValues is perlinAt at every sample of the current row, with the
// column terms hoisted: out[k] = N, or with add out[k] + float64(amp·N),
// the fBm step fused into the row. The vector kernel, if any, does the
// whole blocks from the first sample of a row that is set.
func (r *GridRows) perlinValues(out []float64, amp float64, add bool) {
	g := r.g
	n := len(g.xs)
	out = out[:n]
	u, um1, wu := g.u[:n], g.um1[:n], g.wu[:n]
	cs, co := r.cs, r.co
	if !add && (g.blocks != nil || g.tail != nil) {
		done := perlinLanes(g.kernel, g.blocks, out, cs, co, r.cso)
		perlinSamples(g.tail, cs, co, u[done:], um1[done:], wu[done:], out[done:], 0, false)
		return
	}
	if g.left != nil {
		perlinSamples(g.left, cs, co, u, um1, wu, out, amp, add)
		return
	}
	start := 0
	for k, end := range g.runEnd {
		l := g.runLeft[k]
		ls, lo, rs, ro := cs[l], co[l], cs[l+1], co[l+1]
		uu := u[start:end]
		mm, ww, oo := um1[start:end][:len(uu)], wu[start:end][:len(uu)], out[start:end][:len(uu)]
		if add {
			for c, x := range uu {
				e, f := float64(ls*x)+lo, float64(rs*mm[c])+ro
				oo[c] += float64(amp * (e + float64((f-e)*ww[c])))
			}
		} else {
			for c, x := range uu {
				e, f := float64(ls*x)+lo, float64(rs*mm[c])+ro
				oo[c] = e + float64((f-e)*ww[c])
			}
		}
		start = int(end)
	}
}

// perlinSamples is perlinValues for samples whose left columns are listed.
func perlinSamples(left []int32, cs, co, u, um1, wu, out []float64, amp float64, add bool) {
	u, um1, wu, out = u[:len(left)], um1[:len(left)], wu[:len(left)], out[:len(left)]
	if add {
		for c, l := range left {
			ls, lo, rs, ro := cs[l], co[l], cs[l+1], co[l+1]
			e, f := float64(ls*u[c])+lo, float64(rs*um1[c])+ro
			out[c] += float64(amp * (e + float64((f-e)*wu[c])))
		}
		return
	}
	for c, l := range left {
		ls, lo, rs, ro := cs[l], co[l], cs[l+1], co[l+1]
		e, f := float64(ls*u[c])+lo, float64(rs*um1[c])+ro
		out[c] = e + float64((f-e)*wu[c])
	}
}

// perlinRow is Perlin noise along the row y: perlinAt, or perlinEval when
// dx is not nil, at every sample, with the column terms hoisted.
func (r *GridRows) perlinRow(y float64, v, dx, dy []float64) {
	t := r.perlinLattice(y, dx != nil)
	if dx == nil {
		r.perlinValues(v, 0, false)
		return
	}
	g := r.g
	n := len(g.xs)
	v = v[:n]
	u, um1, wu := g.u[:n], g.um1[:n], g.wu[:n]
	cs, co := r.cs, r.co
	start := 0
	dx, dy = dx[:n], dy[:n]
	du := g.du[:n]
	dv := fadeD(t)
	sx, sy, sv := r.sx, r.sy, r.sv
	if g.blocks != nil || g.tail != nil {
		done := perlinEvalLanes(g.kernel, g.blocks, r, v, dx, dy, du, dv)
		r.perlinEvalSamples(g.tail, done, v[done:], dx[done:], dy[done:], dv)
		return
	}
	if g.left != nil {
		r.perlinEvalSamples(g.left, 0, v, dx, dy, dv)
		return
	}
	for k, end := range g.runEnd {
		l := g.runLeft[k]
		ls, lo, rs, ro := cs[l], co[l], cs[l+1], co[l+1]
		lsx, lsy, lsv, rsx, rsy, rsv := sx[l], sy[l], sv[l], sx[l+1], sy[l+1], sv[l+1]
		ds := rs - ls // s' − s, the same for every sample of the cell
		uu := u[start:end]
		mm, ww, dd := um1[start:end][:len(uu)], wu[start:end][:len(uu)], du[start:end][:len(uu)]
		vv, xx, yy := v[start:end][:len(uu)], dx[start:end][:len(uu)], dy[start:end][:len(uu)]
		for c, x := range uu {
			// perlinEval, with u − 1 and the fades from the table.
			e, f := float64(ls*x)+lo, float64(rs*mm[c])+ro
			vv[c] = e + float64((f-e)*ww[c])
			xx[c] = ls + float64(ds*ww[c]) + float64((f-e)*dd[c])
			dedv := lsv + float64((float64(lsx*x)+lsy)*dv)
			dfdv := rsv + float64((float64(rsx*mm[c])+rsy)*dv)
			yy[c] = dedv + float64((dfdv-dedv)*ww[c])
		}
		start = int(end)
	}
}

// perlinEvalSamples is perlinEval at the samples from the first whose
// left columns are listed, with u − 1 and the fades from the Grid's
// tables, written to v, dx and dy from their start.
func (r *GridRows) perlinEvalSamples(left []int32, first int, v, dx, dy []float64, dv float64) {
	g, m := r.g, len(left)
	u, um1, wu, du := g.u[first:][:m], g.um1[first:][:m], g.wu[first:][:m], g.du[first:][:m]
	v, dx, dy = v[:m], dx[:m], dy[:m]
	cs, co, sx, sy, sv := r.cs, r.co, r.sx, r.sy, r.sv
	for c, l := range left {
		ls, lo, rs, ro := cs[l], co[l], cs[l+1], co[l+1]
		lsx, lsy, lsv, rsx, rsy, rsv := sx[l], sy[l], sv[l], sx[l+1], sy[l+1], sv[l+1]
		x, m, w := u[c], um1[c], wu[c]
		e, f := float64(ls*x)+lo, float64(rs*m)+ro
		v[c] = e + float64((f-e)*w)
		dx[c] = ls + float64((rs-ls)*w) + float64((f-e)*du[c])
		dedv := lsv + float64((float64(lsx*x)+lsy)*dv)
		dfdv := rsv + float64((float64(rsx*m)+rsy)*dv)
		dy[c] = dedv + float64((dfdv-dedv)*w)
	}
}

// valueLattice brings the kept lattice rows and the value noise columns to
// the row y, and returns y's offset t in its lattice row.
func (r *GridRows) valueLattice(y float64) (t float64) {
	j, t := floorFrac(y)
	r.lattice(j)
	n := len(r.g.hashed)
	wv := fade(t)
	done := valueColumnLanes(r.g.kernel, r.ve, r.vca, r.a0[:n], r.a1[:n], wv)
	ve, vca := r.ve[done:n], r.vca[done:n]
	a0, a1 := r.a0[done:n], r.a1[done:n]
	for k := range a0 {
		c := newValueColumn(a0[k], a1[k], wv)
		ve[k], vca[k] = c.e, c.ca
	}
	return t
}

// valueRow is value noise along the row y: valueAt, or valueEval when dx
// is not nil, at every sample, with the column terms hoisted.
func (r *GridRows) valueRow(y float64, v, dx, dy []float64) {
	g := r.g
	t := r.valueLattice(y)
	n := len(g.hashed)
	ve, vca := r.ve[:n], r.vca[:n]
	m := len(g.xs)
	v = v[:m]
	wu := g.wu[:m]
	start := 0
	if dx == nil && (g.blocks != nil || g.tail != nil) {
		done := valueLanes(g.kernel, g.blocks, v, r.ve)
		for c, l := range g.tail {
			le, re := ve[l], ve[l+1]
			v[done+c] = le + float64((re-le)*wu[done+c])
		}
		return
	}
	if dx == nil && g.left != nil {
		for c, l := range g.left[:m] {
			le, re := ve[l], ve[l+1]
			v[c] = le + float64((re-le)*wu[c])
		}
		return
	}
	if dx == nil {
		for k, end := range g.runEnd {
			l := g.runLeft[k]
			le, de := ve[l], ve[l+1]-ve[l]
			ww := wu[start:end]
			vv := v[start:end][:len(ww)]
			for c, w := range ww {
				vv[c] = le + float64(de*w)
			}
			start = int(end)
		}
		return
	}
	dx, dy = dx[:m], dy[:m]
	du := g.du[:m]
	dv := fadeD(t)
	if g.blocks != nil || g.tail != nil {
		done := valueEvalLanes(g.kernel, g.blocks, r.ve, r.vca, v, dx, dy, du, dv)
		r.valueEvalSamples(g.tail, done, v[done:], dx[done:], dy[done:], dv)
		return
	}
	if g.left != nil {
		r.valueEvalSamples(g.left, 0, v, dx, dy, dv)
		return
	}
	for k, end := range g.runEnd {
		l := g.runLeft[k]
		le, de, lca, dca := ve[l], ve[l+1]-ve[l], vca[l], vca[l+1]-vca[l]
		ww := wu[start:end]
		dd, vv := du[start:end][:len(ww)], v[start:end][:len(ww)]
		xx, yy := dx[start:end][:len(ww)], dy[start:end][:len(ww)]
		for c, w := range ww {
			// valueEval, with the fades from the table.
			vv[c] = le + float64(de*w)
			xx[c] = de * dd[c]
			yy[c] = (lca + float64(dca*w)) * dv
		}
		start = int(end)
	}
}

// valueEvalSamples is valueEval at the samples from the first whose left
// columns are listed, with the fades from the Grid's tables, written to v,
// dx and dy from their start.
func (r *GridRows) valueEvalSamples(left []int32, first int, v, dx, dy []float64, dv float64) {
	g, m := r.g, len(left)
	wu, du := g.wu[first:][:m], g.du[first:][:m]
	v, dx, dy = v[:m], dx[:m], dy[:m]
	ve, vca := r.ve, r.vca
	for c, l := range left {
		le, re, lca, rca := ve[l], ve[l+1], vca[l], vca[l+1]
		v[c] = le + float64((re-le)*wu[c])
		dx[c] = (re - le) * du[c]
		dy[c] = (lca + float64((rca-lca)*wu[c])) * dv
	}
}
