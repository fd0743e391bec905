// Package noise implements the seeded 2-D basis functions of fractal terrain
// synthesis — value, Perlin, simplex and Worley noise — each returning its
// value together with its analytic gradient (thesis ch. 6.3 and appendix A).
//
// Every basis is a pure function of (x, y) and its seed: there is no global
// random state, so the same seed gives the same values on every run and
// machine, and two seeds give unrelated fields.
//
// Besides point evaluation each basis can evaluate a whole row of samples at
// once (ValueRow, EvalRow). The row forms are grid-aware where the lattice
// allows it — lattice hashes and corner gradients are computed once per
// lattice cell and reused for every sample inside it — and always return
// exactly the values the point forms return for the same coordinates.
package noise

import "fmt"

// Kind names a basis function.
type Kind string

// The basis functions.
const (
	Value      Kind = "value"       // value noise, thesis listing 6.5/6.6; range [-1, 1]
	Perlin     Kind = "perlin"      // improved gradient noise (quintic fade), thesis listing 6.7/6.8; range [-√½, √½]
	Simplex    Kind = "simplex"     // Perlin's simplex noise on the skewed triangular lattice; range [-1, 1]
	Worley     Kind = "worley"      // cellular noise, distance to the nearest feature point (F1); range [-1, 1)
	WorleyEdge Kind = "worley-f2f1" // cellular noise, F2 − F1: ridges along the cell borders; range [-1, 1)
)

// Kinds lists every basis in the order a user sees them.
var Kinds = []Kind{Value, Perlin, Simplex, Worley, WorleyEdge}

// Basis is a seeded 2-D noise function with an analytic gradient.
//
// The row forms evaluate the samples (xs[i], y) for every i and write
// v[i] (and dx[i], dy[i] for EvalRow) — bit for bit what Value and Eval
// return at the same points. All slices must have len(xs) elements.
type Basis interface {
	// Value returns N(x, y).
	Value(x, y float64) float64
	// Eval returns N(x, y) and its partial derivatives ∂N/∂x, ∂N/∂y.
	Eval(x, y float64) (v, dx, dy float64)
	// ValueRow fills v[i] = N(xs[i], y).
	ValueRow(xs []float64, y float64, v []float64)
	// EvalRow fills v[i], dx[i], dy[i] with Eval(xs[i], y).
	EvalRow(xs []float64, y float64, v, dx, dy []float64)
}

// New returns the basis of the given kind for a seed.
func New(kind Kind, seed int64) (Basis, error) {
	switch kind {
	case Value:
		return NewValue(seed), nil
	case Perlin:
		return NewPerlin(seed), nil
	case Simplex:
		return NewSimplex(seed), nil
	case Worley:
		return NewWorley(seed, F1), nil
	case WorleyEdge:
		return NewWorley(seed, F2MinusF1), nil
	}
	return nil, fmt.Errorf("noise: unknown basis %q (want one of %v)", kind, Kinds)
}
