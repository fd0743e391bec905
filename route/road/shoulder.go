package road

import (
	"context"
	"cordillera/internal/parallel"
	"math"
)

// The samples of a least-curvature fill: held at zero, free, or held at
// the value given.
const (
	fillZero uint8 = iota
	fillFree
	fillHeld
)

// fillChunk is how many samples one worker takes at a time in the fill's
// sweeps; the sums of each chunk are added in chunk order, so the result
// does not depend on the number of cores.
const fillChunk = 4096

// The multigrid preconditioner's damped Jacobi smoother: its weight (the
// Hessian's largest eigenvalue over its diagonal is at most 64/20, so a
// weight under 0.625 keeps every mode from growing), the sweeps before and
// after each coarser correction, and the sweeps on the coarsest grid.
const (
	fillOmega          = 0.5
	fillSweeps         = 3
	fillCoarsestSweeps = 24
)

// leastCurvature sets the free samples of the w×h field f (class
// fillFree) to the values of least curvature given the others, which
// keep their values (zero for fillZero). Least curvature is the least sum
// of the squared five-point Laplacian over the map's interior, the
// discrete thin plate: its minimiser is biharmonic between the held
// samples, meets both their values and their slopes (two rings of them
// take part in every Laplacian that reaches a free sample), and is a
// cubic across a straight band. It is found by conjugate gradients
// preconditioned with a multigrid V-cycle (the same energy on grids of
// half the resolution, down to where the free band is a few samples
// wide), from the free values given as the first guess, until the
// residual has fallen by tol or after maxIter steps; it returns the steps
// taken. Free samples on the map's border are held at the value given:
// with only a neighbour's Laplacian reaching them, the least curvature
// would not fix them.
func leastCurvature(ctx context.Context, w, h int, class []uint8, f []float64, tol float64, maxIter int) (int, error) {
	top := fillLevels(w, h, class)
	if top == nil {
		return 0, nil
	}
	cg := &fillCG{top: top, f: f, r: make([]float64, w*h), q: top.t, p: make([]float64, w*h)}
	r0, err := cg.start(ctx)
	if err != nil || r0 == 0 {
		return 0, err
	}
	for it := 1; it <= maxIter; it++ {
		if done, err := cg.step(ctx, tol*r0); done || err != nil {
			return it, err
		}
	}
	return maxIter, nil
}

// fillLevels lays out the energy on the map's grid, holding free samples
// on its border (class fillHeld), and on coarser grids down to where the
// free band is a few samples wide. It returns nil where no sample is free.
func fillLevels(w, h int, class []uint8) *fillLevel {
	free := make([]bool, w*h)
	for i, k := range class {
		free[i] = k == fillFree
	}
	top := newFillLevel(w, h, free, 1)
	for i, k := range class {
		if k == fillFree && !top.isFree[i] {
			class[i] = fillHeld
		}
	}
	if len(top.free) == 0 {
		return nil
	}
	for l := top; len(l.free) > 64 && l.w > 4 && l.h > 4; l = l.coarse {
		l.coarse = l.coarsen()
		if len(l.coarse.free) == 0 {
			l.coarse = nil
			break
		}
	}
	return top
}

// fillCG is leastCurvature's preconditioned conjugate gradients on the
// field f.
type fillCG struct {
	top *fillLevel
	f   []float64
	r   []float64 // the residual, on the free samples
	q   []float64 // the operator applied to p; free again before each V-cycle, which uses it
	p   []float64 // the search direction, zero off the free samples
	rz  float64   // r·z, z the preconditioned residual
}

// start sets the residual of the first guess and the first search
// direction, and returns the residual's norm.
func (cg *fillCG) start(ctx context.Context) (float64, error) {
	top, r, p := cg.top, cg.r, cg.p
	if err := top.apply(ctx, cg.f, r); err != nil {
		return 0, err
	}
	r0, err := top.each(ctx, func(idx []int32) (s float64) {
		for _, i := range idx {
			r[i] = -r[i]
			s += r[i] * r[i]
		}
		return s
	})
	if err != nil || r0 == 0 {
		return 0, err
	}
	r0 = math.Sqrt(r0)
	z, err := top.vcycle(ctx, r)
	if err != nil {
		return 0, err
	}
	cg.rz, err = top.each(ctx, func(idx []int32) (s float64) {
		for _, i := range idx {
			p[i] = z[i]
			s += r[i] * z[i]
		}
		return s
	})
	if err != nil {
		return 0, err
	}
	return r0, nil
}

// step takes one step along the search direction and turns it, and
// reports whether the fill is done: the residual's norm has fallen to
// stop, or the direction no longer descends.
func (cg *fillCG) step(ctx context.Context, stop float64) (bool, error) {
	top, f, r, q, p := cg.top, cg.f, cg.r, cg.q, cg.p
	if err := top.apply(ctx, p, q); err != nil {
		return false, err
	}
	pq, err := top.dot(ctx, p, q)
	if err != nil {
		return false, err
	}
	if !(pq > 0) {
		return true, nil
	}
	alpha := cg.rz / pq
	rr, err := top.each(ctx, func(idx []int32) (s float64) {
		for _, i := range idx {
			f[i] += alpha * p[i]
			r[i] -= alpha * q[i]
			s += r[i] * r[i]
		}
		return s
	})
	if err != nil {
		return false, err
	}
	if math.Sqrt(rr) <= stop {
		return true, nil
	}
	z, err := top.vcycle(ctx, r)
	if err != nil {
		return false, err
	}
	next, err := top.dot(ctx, r, z)
	if err != nil {
		return false, err
	}
	beta := next / cg.rz
	cg.rz = next
	_, err = top.each(ctx, func(idx []int32) float64 {
		for _, i := range idx {
			p[i] = z[i] + beta*p[i]
		}
		return 0
	})
	return false, err
}

// fillLevel is the least-curvature energy on one grid of the multigrid:
// scale times the sum of the squared Laplacian, over the free samples.
type fillLevel struct {
	w, h    int
	scale   float64 // 1 on the map's grid, a quarter on each coarser one
	isFree  []bool
	free    []int32   // the free samples
	terms   []int32   // the interior samples whose Laplacian reaches a free one
	invDiag []float32 // one over the Hessian's diagonal (halved), on the free samples
	lap     []float64 // scratch: the Laplacian on the terms
	x, b    []float64 // the V-cycle's solution and, on coarser grids, right-hand side
	t       []float64 // scratch: the operator applied
	coarse  *fillLevel
}

// newFillLevel lays out the energy on a w×h grid with the free samples
// marked; those on the grid's border are held, so that every free sample
// has its own Laplacian among the terms and the energy has one minimiser
// (with free border samples, which only a neighbour's Laplacian reaches,
// the fill could bend them at will).
func newFillLevel(w, h int, free []bool, scale float64) *fillLevel {
	l := &fillLevel{w: w, h: h, scale: scale, isFree: make([]bool, w*h), invDiag: make([]float32, w*h)}
	interior := func(r, c int) bool { return r >= 1 && c >= 1 && r <= h-2 && c <= w-2 }
	inTerms := make([]bool, w*h)
	for i, ok := range free {
		r, c := i/w, i%w
		if !ok || !interior(r, c) {
			continue
		}
		l.isFree[i] = true
		l.free = append(l.free, int32(i))
		d := 16.0
		for _, n := range [5][2]int{{0, 0}, {0, -1}, {0, 1}, {-1, 0}, {1, 0}} {
			if interior(r+n[0], c+n[1]) {
				inTerms[(r+n[0])*w+c+n[1]] = true
				if n != [2]int{0, 0} {
					d++
				}
			}
		}
		l.invDiag[i] = float32(1 / (scale * d))
	}
	for i, in := range inTerms {
		if in {
			l.terms = append(l.terms, int32(i))
		}
	}
	l.lap = make([]float64, w*h)
	l.x = make([]float64, w*h)
	l.t = make([]float64, w*h)
	return l
}

// coarsen returns the level on the grid of every other sample: a coarse
// sample is free where its fine sample is.
func (l *fillLevel) coarsen() *fillLevel {
	cw, ch := (l.w+1)/2, (l.h+1)/2
	free := make([]bool, cw*ch)
	for r := range ch {
		for c := range cw {
			all := true
			for dr := -1; dr <= 1 && all; dr++ {
				for dc := -1; dc <= 1; dc++ {
					fr, fc := 2*r+dr, 2*c+dc
					if fr >= 0 && fc >= 0 && fr < l.h && fc < l.w && !l.isFree[fr*l.w+fc] {
						all = false
						break
					}
				}
			}
			free[r*cw+c] = all
		}
	}
	// The Galerkin product of bilinear prolongation with the fine energy
	// is a quarter of the same energy rediscretised on the coarse grid.
	c := newFillLevel(cw, ch, free, l.scale/4)
	c.b = make([]float64, cw*ch)
	return c
}

// each calls fn on the free samples in chunks of fillChunk, across the
// cores, and adds what it returns, chunk by chunk in order.
func (l *fillLevel) each(ctx context.Context, fn func(idx []int32) float64) (float64, error) {
	return chunked(ctx, l.free, fn)
}

// dot is the sum of a·b over the free samples.
func (l *fillLevel) dot(ctx context.Context, a, b []float64) (float64, error) {
	return l.each(ctx, func(idx []int32) (s float64) {
		for _, i := range idx {
			s += a[i] * b[i]
		}
		return s
	})
}

// chunked calls fn on idx in chunks of fillChunk, across the cores, and
// adds what it returns, chunk by chunk in order.
func chunked(ctx context.Context, idx []int32, fn func(idx []int32) float64) (float64, error) {
	chunks := (len(idx) + fillChunk - 1) / fillChunk
	partial := make([]float64, chunks)
	err := parallel.Each(ctx, chunks, func(ch int) {
		partial[ch] = fn(idx[ch*fillChunk : min((ch+1)*fillChunk, len(idx))])
	})
	s := 0.0
	for _, v := range partial {
		s += v
	}
	return s, err
}

// apply sets out, on the free samples, to half the energy's gradient for
// the field v (held samples as they are in v): the Laplacian (its own
// transpose) of v's Laplacian on the terms. Free samples are interior and
// the Laplacian is zero off the terms, so no neighbour is out of range.
func (l *fillLevel) apply(ctx context.Context, v, out []float64) error {
	w, lap := l.w, l.lap
	_, err := chunked(ctx, l.terms, func(idx []int32) float64 {
		for _, t := range idx {
			i := int(t)
			lap[i] = v[i-1] + v[i+1] + v[i-w] + v[i+w] - 4*v[i]
		}
		return 0
	})
	if err != nil {
		return err
	}
	_, err = l.each(ctx, func(idx []int32) float64 {
		for _, t := range idx {
			i := int(t)
			out[i] = l.scale * (lap[i-1] + lap[i+1] + lap[i-w] + lap[i+w] - 4*lap[i])
		}
		return 0
	})
	return err
}

// vcycle returns an approximate solution of A·x = b on the free samples
// (b on them, x zero elsewhere): damped Jacobi sweeps, the residual's
// correction on the coarser grid, and as many sweeps again, so that the
// cycle is a symmetric preconditioner. The result is l.x.
func (l *fillLevel) vcycle(ctx context.Context, b []float64) ([]float64, error) {
	x, t, inv := l.x, l.t, l.invDiag
	for _, i := range l.free {
		x[i] = 0
	}
	sweep := func() error {
		if err := l.apply(ctx, x, t); err != nil {
			return err
		}
		_, err := l.each(ctx, func(idx []int32) float64 {
			for _, i := range idx {
				x[i] += fillOmega * (b[i] - t[i]) * float64(inv[i])
			}
			return 0
		})
		return err
	}
	sweeps := fillSweeps
	if l.coarse == nil {
		sweeps = fillCoarsestSweeps
	}
	for range sweeps {
		if err := sweep(); err != nil {
			return nil, err
		}
	}
	c := l.coarse
	if c == nil {
		return x, nil
	}
	if err := l.apply(ctx, x, t); err != nil {
		return nil, err
	}
	// Restrict the residual: the transpose of bilinear prolongation. The
	// fine samples around a free coarse one are all free (coarsen).
	w, cb := l.w, c.b
	_, err := c.each(ctx, func(idx []int32) float64 {
		for _, ci := range idx {
			i := 2*(int(ci)/c.w)*w + 2*(int(ci)%c.w)
			res := func(j int) float64 { return b[j] - t[j] }
			cb[ci] = res(i) +
				0.5*(res(i-1)+res(i+1)+res(i-w)+res(i+w)) +
				0.25*(res(i-w-1)+res(i-w+1)+res(i+w-1)+res(i+w+1))
		}
		return 0
	})
	if err != nil {
		return nil, err
	}
	cx, err := c.vcycle(ctx, cb)
	if err != nil {
		return nil, err
	}
	// Prolong the correction bilinearly onto the free samples.
	_, err = l.each(ctx, func(idx []int32) float64 {
		for _, t := range idx {
			i := int(t)
			r, cl := i/w, i%w
			r0, c0 := r/2, cl/2
			r1, c1 := min(r0+r%2, c.h-1), min(c0+cl%2, c.w-1)
			x[i] += 0.25 * (cx[r0*c.w+c0] + cx[r0*c.w+c1] + cx[r1*c.w+c0] + cx[r1*c.w+c1])
		}
		return 0
	})
	if err != nil {
		return nil, err
	}
	for range fillSweeps {
		if err := sweep(); err != nil {
			return nil, err
		}
	}
	return x, nil
}
