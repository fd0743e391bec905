package route

import (
	"context"
	"cordillera/internal/parallel"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// Constraint is one point the route terrain must pass through: X (column)
// and Y (row) in map samples, fractional, and T the value of the turbulence
// T(P) there. The height at a fractional position is the bilinear
// interpolation of the four map samples around it, which is how the
// solver measures it and how the report checks it.
type Constraint struct {
	X, Y, T float64
}

// sparseRow is one row of the constraint matrix A: the weight of every
// lattice value (by its index among all levels) in the height at one point.
type sparseRow struct {
	idx  []int32
	coef []float64
}

// row builds the constraint row of the map height at (x, y): the bilinear
// blend of the four samples around it, each the level-weighted
// interpolation of the lattice values around that sample.
func (t *turbulence) row(x, y float64) sparseRow {
	c0 := min(max(int(math.Floor(x)), 0), t.size-2)
	r0 := min(max(int(math.Floor(y)), 0), t.size-2)
	fx := min(max(x-float64(c0), 0), 1)
	fy := min(max(y-float64(r0), 0), 1)
	var r sparseRow
	add := func(k int, c float64) {
		if c == 0 {
			return
		}
		for i, j := range r.idx {
			if int(j) == k {
				r.coef[i] += c
				return
			}
		}
		r.idx = append(r.idx, int32(k))
		r.coef = append(r.coef, c)
	}
	for _, s := range [4]struct {
		dc, dr int
		b      float64
	}{{0, 0, (1 - fx) * (1 - fy)}, {1, 0, fx * (1 - fy)}, {0, 1, (1 - fx) * fy}, {1, 1, fx * fy}} {
		if s.b == 0 {
			continue
		}
		sx, sy := float64(c0+s.dc), float64(r0+s.dr)
		for n := range t.levels {
			i, wx0, wx1 := t.locate(n, sx)
			j, wy0, wy1 := t.locate(n, sy)
			side := cells(n) + 1
			k := t.offset[n] + j*side + i
			a := s.b * amplitude(n)
			add(k, a*wy0*wx0)
			add(k+1, a*wy0*wx1)
			add(k+side, a*wy1*wx0)
			add(k+side+1, a*wy1*wx1)
		}
	}
	// Sorted indices make the Gram products below run in a fixed order.
	order := make([]int, len(r.idx))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return int(r.idx[a]) - int(r.idx[b]) })
	sorted := sparseRow{idx: make([]int32, len(order)), coef: make([]float64, len(order))}
	for i, o := range order {
		sorted.idx[i], sorted.coef[i] = r.idx[o], r.coef[o]
	}
	return sorted
}

// value returns the lattice value with global index k.
func (t *turbulence) value(k int32) *float64 {
	n := len(t.offset) - 1
	for int(k) < t.offset[n] {
		n--
	}
	return &t.values[n][int(k)-t.offset[n]]
}

// constraintSystem is the constraint matrix A of a set of points (their
// positions only) with the Cholesky factor of A Aᵀ.
type constraintSystem struct {
	rows  []sparseRow
	chol  blas64.Triangular
	Ridge float64 // Tikhonov term added to A Aᵀ's diagonal (0: the exact solution)
}

// system builds A for the points' positions and factorises A Aᵀ. A Aᵀ is
// dense, one row and column per point. Should it be singular (two points
// on one spot), the smallest Tikhonov term λI that lets it factorise is
// added and the fit becomes least squares; Generate merges such
// points first so this stays rare.
func (t *turbulence) system(ctx context.Context, pts []Constraint) (*constraintSystem, error) {
	m := len(pts)
	if m == 0 {
		return nil, errors.New("route: no points to constrain")
	}
	s := &constraintSystem{rows: make([]sparseRow, m)}
	err := parallel.Rows(ctx, m, nil, 0, 0, func(i int) { s.rows[i] = t.row(pts[i].X, pts[i].Y) })
	if err != nil {
		return nil, err
	}
	for ridge := 0.0; ; {
		g, trace, err := gramMatrix(ctx, s.rows)
		if err != nil {
			return nil, err
		}
		if !(trace > 0) {
			return nil, errors.New("route: the points do not depend on the lattice")
		}
		for i := range m {
			g[i*m+i] += ridge
		}
		chol, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Upper, N: m, Data: g, Stride: m})
		if ok {
			s.chol, s.Ridge = chol, ridge
			return s, ctx.Err()
		}
		if ridge == 0 {
			ridge = 1e-12 * trace / float64(m)
		} else {
			ridge *= 100
		}
		if ridge > trace {
			return nil, fmt.Errorf("route: the constraint system is singular (%d points)", m)
		}
	}
}

// solve returns (A Aᵀ)⁻¹ b for each right-hand side b, in one pass.
func (s *constraintSystem) solve(bs ...[]float64) [][]float64 {
	m, k := s.chol.N, len(bs)
	data := make([]float64, m*k)
	for j, b := range bs {
		for i, v := range b {
			data[i*k+j] = v
		}
	}
	lapack64.Potrs(s.chol, blas64.General{Rows: m, Cols: k, Stride: k, Data: data})
	xs := make([][]float64, k)
	for j := range xs {
		xs[j] = make([]float64, m)
		for i := range xs[j] {
			xs[j][i] = data[i*k+j]
		}
	}
	return xs
}

// fitElevation estimates, from elevations e at the system's points, the
// mean z0 for which e − z0 is a typical draw of the turbulence, and the
// scale of that draw. Lattice values uniform in [−1, 1] have variance ⅓,
// so T at the points has covariance ⅓·A Aᵀ, and the generalised
// least-squares mean and the maximum-likelihood scale are
//
//	z0 = 1ᵀ(AAᵀ)⁻¹e / 1ᵀ(AAᵀ)⁻¹1,  A_ML² = 3·dᵀ(AAᵀ)⁻¹d / (m − 1),  d = e − z0.
//
// With this mean the correction need not lift or lower the whole map.
func (s *constraintSystem) fitElevation(e []float64) (z0, ml float64) {
	ones := make([]float64, len(e))
	for i := range ones {
		ones[i] = 1
	}
	x := s.solve(ones, e)
	x1, xe := x[0], x[1]
	num, den := 0.0, 0.0
	for i := range e {
		num += xe[i]
		den += x1[i]
	}
	z0 = num / den
	q := 0.0
	for i := range e { // (AAᵀ)⁻¹d = xe − z0·x1
		q += (e[i] - z0) * (xe[i] - z0*x1[i])
	}
	return z0, math.Sqrt(3 * max(q, 0) / float64(max(len(e)-1, 1)))
}

// incrementVariance is the variance of T(a) − T(b) for lattice values
// uniform in [−1, 1] (variance ⅓): ⅓·|row a − row b|².
func incrementVariance(a, b sparseRow) float64 {
	sum := 0.0
	i, j := 0, 0
	for i < len(a.idx) || j < len(b.idx) {
		switch {
		case j == len(b.idx) || (i < len(a.idx) && a.idx[i] < b.idx[j]):
			sum += a.coef[i] * a.coef[i]
			i++
		case i == len(a.idx) || b.idx[j] < a.idx[i]:
			sum += b.coef[j] * b.coef[j]
			j++
		default:
			d := a.coef[i] - b.coef[j]
			sum += d * d
			i++
			j++
		}
	}
	return sum / 3
}

// constrain changes the lattice values the points depend on, as little as
// possible, so that the map meets every target (paper 002, sec. 3.2,
// eq. 5). Where the paper fills the free unknowns at random and solves for
// the rest, this starts from the random values r of every unknown and
// applies the minimum-norm correction
//
//	δ = Aᵀ (A Aᵀ)⁻¹ (t − A r)
//
// so that A(r + δ) = t exactly. For random values that are independent and
// alike this is the most likely lattice given the route (the conditional
// mean, as in kriging): far from the route the terrain keeps its random
// character.
func (t *turbulence) constrain(s *constraintSystem, targets []float64) {
	res := make([]float64, len(targets))
	for i, r := range s.rows {
		ar := 0.0
		for e, k := range r.idx {
			ar += r.coef[e] * *t.value(k)
		}
		res[i] = targets[i] - ar
	}
	lambda := s.solve(res)[0]
	for i, r := range s.rows {
		for e, k := range r.idx {
			*t.value(k) += r.coef[e] * lambda[i]
		}
	}
}

// gramMatrix returns A Aᵀ, m×m row-major, and its trace, for the sparse
// rows of A. Every lattice value shared by two rows adds the product of
// their weights; rows are grouped by lattice value so only rows that share
// one are visited.
func gramMatrix(ctx context.Context, rows []sparseRow) ([]float64, float64, error) {
	m := len(rows)
	type entry struct {
		row  int32
		coef float64
	}
	groups := map[int32][]entry{}
	for i, r := range rows {
		for e, k := range r.idx {
			groups[k] = append(groups[k], entry{int32(i), r.coef[e]})
		}
	}
	g := make([]float64, m*m)
	err := parallel.Rows(ctx, m, nil, 0, 0, func(i int) {
		line := g[i*m : (i+1)*m]
		r := rows[i]
		for e, k := range r.idx {
			c := r.coef[e]
			for _, o := range groups[k] {
				if int(o.row) > i {
					break // groups list rows in increasing order
				}
				line[o.row] += c * o.coef
			}
		}
	})
	if err != nil {
		return nil, 0, err
	}
	trace := 0.0
	for i := range m { // mirror the lower triangle: Potrf reads the upper
		for j := 0; j < i; j++ {
			g[j*m+i] = g[i*m+j]
		}
		trace += g[i*m+i]
	}
	return g, trace, nil
}
