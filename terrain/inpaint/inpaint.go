// Package inpaint fills the holes of a heightmap (a DEM's no-data
// samples) with the smoothest surface that meets their edges.
package inpaint

import (
	"math"

	"cordillera/terrain"
)

// FillNoData replaces the samples where valid is false with the membrane
// surface through the valid ones: the solution of Laplace's equation
// Δu = 0 inside every hole, u equal to the valid samples around it and no
// slope across the map's edge (Neumann). It is the smoothest surface
// (least Dirichlet energy ∫|∇u|²) that meets the hole's edge, so a hole
// closes without creases, terraces or the streaks of a row-by-row fill,
// and a plane or a saddle through the edge is filled exactly.
//
// The discrete equation at a hole sample is n·u = Σ of its n in-map
// 4-neighbours, solved by geometric multigrid with Galerkin coarse grids
// (Briggs, Henson, McCormick, "A Multigrid Tutorial", ch. 3–4 and 8):
// V-cycles of Gauss–Seidel relaxation, the residual moved onto a grid of
// half the resolution and the correction interpolated back bilinearly
// (P), each coarse operator Pᵀ·A·P of the one above it. Galerkin operators
// carry the holes' shapes down to the coarsest grid exactly, thin valid
// rims and ragged coastlines included, where re-drawn coarse holes would
// shrink or grow by a coarse cell and slow the cycles to a crawl. The
// cycles stop when no sample would move by more than a ten-millionth of the
// map's heights: a 1024² hole costs a few dozen passes over its samples
// where plain relaxation would need about a million. At least one sample
// is valid.
func FillNoData(m *terrain.Heightmap, valid []bool) {
	ringFill(m, valid) // a start close to the answer: fewer cycles
	fine := newMembrane(m.Width, m.Height, valid, m.Samples)
	lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
	for i, v := range m.Samples {
		if valid[i] {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	// Stop at float32's precision: when a cycle no longer halves the
	// largest step, rounding is all that is left.
	tol := 1e-7 * max(float64(hi)-float64(lo), math.Abs(float64(lo)), math.Abs(float64(hi)), 1e-30)
	last := math.Inf(1)
	for range maxMembraneCycles {
		step := fine.maxStep()
		if step <= tol || step > last/2 {
			return
		}
		last = step
		fine.vcycle()
	}
}

// maxMembraneCycles bounds the V-cycles of a fill; each cuts the error
// by a factor of five or more, so a few dozen reach float32 precision
// from any start.
const maxMembraneCycles = 60

// coarsestUnknowns is the size at which a grid is solved by relaxation
// alone.
const coarsestUnknowns = 16

// membrane is the finest grid: the map's samples, the holes free.
type membrane struct {
	w, h   int
	u      []float32
	fixed  []bool
	free   [2][]int32 // free cells by colour, (x+y) even then odd
	coarse *galerkinLevel
}

// galerkinLevel is a coarse grid: corrections u for right-hand sides f
// on the cells cells, each with its 3×3 stencil (row-major, centre at 4).
type galerkinLevel struct {
	w, h    int
	u, f    []float32
	cells   []int32
	stencil [][9]float32
	slot    []int32 // cell → its index in cells, -1 if not an unknown
	coarse  *galerkinLevel
}

func newMembrane(w, h int, fixed []bool, u []float32) *membrane {
	l := &membrane{w: w, h: h, u: u, fixed: fixed}
	for i, f := range fixed {
		if !f {
			x, y := i%w, i/w
			l.free[(x+y)&1] = append(l.free[(x+y)&1], int32(i))
		}
	}
	if len(l.free[0])+len(l.free[1]) > coarsestUnknowns {
		l.coarse = galerkin(w, h, func(visit func(i int, row func(func(j int, a float32)))) {
			for _, cells := range l.free {
				for _, i := range cells {
					visit(int(i), func(add func(j int, a float32)) { l.row(int(i), add) })
				}
			}
		})
	}
	return l
}

// row gives the finest operator's row of free cell i, its free columns
// only: n on the diagonal, −1 for each free 4-neighbour (fixed ones are
// the boundary, where the error is zero).
func (l *membrane) row(i int, add func(j int, a float32)) {
	x, y, n := i%l.w, i/l.w, float32(0)
	for _, j := range [4]int{i - 1, i + 1, i - l.w, i + l.w} {
		switch {
		case j == i-1 && x == 0, j == i+1 && x == l.w-1, j == i-l.w && y == 0, j == i+l.w && y == l.h-1:
			continue
		}
		n++
		if !l.fixed[j] {
			add(j, -1)
		}
	}
	add(i, n)
}

// prolongation calls add for each coarse cell fine cell (x, y) takes a
// part of, with its weight: the coarse grid holds every other fine
// sample (vertex-centred, coarse (X, Y) is fine (2X, 2Y)) and the ones
// between are interpolated bilinearly, the last of an even side from its
// one coarse neighbour. With this P the Galerkin operators of a 5-point
// Laplacian stay 3×3 stencils on every grid.
func prolongation(x, y, cw, ch int, add func(c int, wgt float32)) {
	x0, x1, wx := coarseAxis(x, cw)
	y0, y1, wy := coarseAxis(y, ch)
	add(y0*cw+x0, wx*wy)
	if x1 >= 0 {
		add(y0*cw+x1, (1-wx)*wy)
	}
	if y1 >= 0 {
		add(y1*cw+x0, wx*(1-wy))
		if x1 >= 0 {
			add(y1*cw+x1, (1-wx)*(1-wy))
		}
	}
}

// coarseAxis returns the coarse index (or two, the second −1 if none) a
// fine index interpolates from along one axis, with the first's weight.
func coarseAxis(x, cn int) (int, int, float32) {
	if c := x / 2; x&1 == 1 && c+1 < cn {
		return c, c + 1, 0.5
	}
	return x / 2, -1, 1
}

// galerkin builds the coarse grid below a w×h grid whose rows (free cells
// and their free columns) rows visits: the operator Pᵀ·A·P on every coarse
// cell a free fine cell interpolates from.
func galerkin(w, h int, rows func(visit func(i int, row func(func(j int, a float32))))) *galerkinLevel {
	cw, ch := (w+1)/2, (h+1)/2
	c := &galerkinLevel{w: cw, h: ch, slot: make([]int32, cw*ch)}
	for i := range c.slot {
		c.slot[i] = -1
	}
	rows(func(i int, _ func(func(j int, a float32))) {
		prolongation(i%w, i/w, cw, ch, func(k int, _ float32) {
			if c.slot[k] < 0 {
				c.slot[k] = 0
			}
		})
	})
	for k, s := range c.slot {
		if s == 0 {
			c.slot[k] = int32(len(c.cells))
			c.cells = append(c.cells, int32(k))
		}
	}
	c.stencil = make([][9]float32, len(c.cells))
	rows(func(i int, row func(func(j int, a float32))) {
		prolongation(i%w, i/w, cw, ch, func(ci int, wc float32) {
			st := &c.stencil[c.slot[ci]]
			row(func(j int, a float32) {
				prolongation(j%w, j/w, cw, ch, func(di int, wd float32) {
					dx, dy := di%cw-ci%cw, di/cw-ci/cw
					st[(dy+1)*3+dx+1] += wc * a * wd
				})
			})
		})
	})
	c.u, c.f = make([]float32, cw*ch), make([]float32, cw*ch)
	if len(c.cells) > coarsestUnknowns && (cw > 1 || ch > 1) {
		c.coarse = galerkin(cw, ch, func(visit func(i int, row func(func(j int, a float32)))) {
			for _, i := range c.cells {
				visit(int(i), func(add func(j int, a float32)) { c.row(int(i), add) })
			}
		})
	}
	return c
}

// row gives the stencil of unknown cell i as matrix entries.
func (c *galerkinLevel) row(i int, add func(j int, a float32)) {
	st := &c.stencil[c.slot[i]]
	x, y := i%c.w, i/c.w
	for k, a := range st {
		if a == 0 {
			continue
		}
		if xx, yy := x+k%3-1, y+k/3-1; xx >= 0 && xx < c.w && yy >= 0 && yy < c.h {
			add(yy*c.w+xx, a)
		}
	}
}

// residual returns f − A·u at unknown slot s.
func (c *galerkinLevel) residual(s int) float64 {
	i := int(c.cells[s])
	x, y := i%c.w, i/c.w
	r := float64(c.f[i])
	for k, a := range c.stencil[s] {
		if a == 0 {
			continue
		}
		if xx, yy := x+k%3-1, y+k/3-1; xx >= 0 && xx < c.w && yy >= 0 && yy < c.h {
			r -= float64(a) * float64(c.u[yy*c.w+xx])
		}
	}
	return r
}

// relax runs Gauss–Seidel sweeps, forwards then backwards in turn.
func (c *galerkinLevel) relax(sweeps int) {
	n := len(c.cells)
	for k := range sweeps {
		for t := range n {
			s := t
			if k&1 == 1 {
				s = n - 1 - t
			}
			if d := c.stencil[s][4]; d > 0 {
				c.u[c.cells[s]] += float32(c.residual(s) / float64(d))
			}
		}
	}
}

// solve improves u towards A⁻¹·f by one V-cycle from zero.
func (c *galerkinLevel) solve() {
	for _, i := range c.cells {
		c.u[i] = 0
	}
	if c.coarse == nil {
		c.relax(4 * coarsestUnknowns)
		return
	}
	c.relax(2)
	cc := c.coarse
	for _, i := range cc.cells {
		cc.f[i] = 0
	}
	for s, i := range c.cells {
		r := float32(c.residual(s))
		prolongation(int(i)%c.w, int(i)/c.w, cc.w, cc.h, func(k int, wgt float32) { cc.f[k] += wgt * r })
	}
	cc.solve()
	for _, i := range c.cells {
		prolongation(int(i)%c.w, int(i)/c.w, cc.w, cc.h, func(k int, wgt float32) { c.u[i] += wgt * cc.u[k] })
	}
	c.relax(2)
}

// step returns the residual n·(mean of the neighbours − u) at free cell
// i of the finest grid, and n.
func (l *membrane) step(i int) (float64, float64) {
	w, x, y := l.w, i%l.w, i/l.w
	sum, n := 0.0, 0.0
	if x > 0 {
		sum += float64(l.u[i-1])
		n++
	}
	if x < w-1 {
		sum += float64(l.u[i+1])
		n++
	}
	if y > 0 {
		sum += float64(l.u[i-w])
		n++
	}
	if y < l.h-1 {
		sum += float64(l.u[i+w])
		n++
	}
	return sum - n*float64(l.u[i]), n
}

// relax runs sweeps of red-black Gauss–Seidel over the free cells.
func (l *membrane) relax(sweeps int) {
	for range sweeps {
		for _, cells := range l.free {
			for _, i := range cells {
				if r, n := l.step(int(i)); n > 0 {
					l.u[i] += float32(r / n)
				}
			}
		}
	}
}

// maxStep returns the largest change one Jacobi step would make: how far
// the grid is from the solution, in height units.
func (l *membrane) maxStep() float64 {
	worst := 0.0
	for _, cells := range l.free {
		for _, i := range cells {
			if r, n := l.step(int(i)); n > 0 {
				worst = max(worst, math.Abs(r/n))
			}
		}
	}
	return worst
}

// vcycle improves u by one multigrid V-cycle.
func (l *membrane) vcycle() {
	c := l.coarse
	if c == nil {
		l.relax(4 * coarsestUnknowns)
		return
	}
	l.relax(2)
	for _, i := range c.cells {
		c.f[i] = 0
	}
	for _, cells := range l.free {
		for _, i := range cells {
			r, _ := l.step(int(i))
			prolongation(int(i)%l.w, int(i)/l.w, c.w, c.h, func(k int, wgt float32) { c.f[k] += wgt * float32(r) })
		}
	}
	c.solve()
	for _, cells := range l.free {
		for _, i := range cells {
			prolongation(int(i)%l.w, int(i)/l.w, c.w, c.h, func(k int, wgt float32) { l.u[i] += wgt * c.u[k] })
		}
	}
	l.relax(2)
}

// ringFill gives every invalid sample the mean of its valid or already
// filled 4-neighbours, ring by ring outwards from the valid samples: a
// quick first guess for FillNoData. At least one sample is valid.
func ringFill(m *terrain.Heightmap, valid []bool) {
	w, h := m.Width, m.Height
	done := append([]bool(nil), valid...)
	var ring []int
	queued := make([]bool, len(valid))
	neighbours := func(i int, visit func(j int)) {
		x, y := i%w, i/w
		if x > 0 {
			visit(i - 1)
		}
		if x < w-1 {
			visit(i + 1)
		}
		if y > 0 {
			visit(i - w)
		}
		if y < h-1 {
			visit(i + w)
		}
	}
	for i := range valid {
		if !valid[i] {
			neighbours(i, func(j int) {
				if valid[j] && !queued[i] {
					queued[i] = true
					ring = append(ring, i)
				}
			})
		}
	}
	for len(ring) > 0 {
		vals := make([]float32, len(ring))
		for k, i := range ring {
			sum, n := 0.0, 0
			neighbours(i, func(j int) {
				if done[j] {
					sum += float64(m.Samples[j])
					n++
				}
			})
			vals[k] = float32(sum / float64(n))
		}
		var next []int
		for k, i := range ring {
			m.Samples[i] = vals[k]
			done[i] = true
		}
		for _, i := range ring {
			neighbours(i, func(j int) {
				if !done[j] && !queued[j] {
					queued[j] = true
					next = append(next, j)
				}
			})
		}
		ring = next
	}
}
