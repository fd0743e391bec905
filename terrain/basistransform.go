package terrain

import "math"

// BasisTransform names T_in, a transform of the basis value applied before
// any fractal algorithm folds an octave into the height: thesis eq. 3.4,
// H(p) = T_post(Σ w^j T_in(N(T_pre(λ^j p), e_j))), with the ridged and
// billowy T_in of its figure 3.3, which section 8.2 proposes to add "as
// transforms applied to the basis function".
type BasisTransform string

// The basis transforms.
const (
	PlainBasis  BasisTransform = "none"   // T_in(h) = h
	RidgedBasis BasisTransform = "ridged" // T_in(h) = 1 − |h| (thesis fig. 3.3 b)
	BillowBasis BasisTransform = "billow" // T_in(h) = |h| (thesis fig. 3.3 c)
)

// BasisTransforms lists every basis transform.
var BasisTransforms = []BasisTransform{PlainBasis, RidgedBasis, BillowBasis}

// apply returns T_in(n) and its gradient from the basis value n and
// gradient (dx, dy): thesis 8.2 notes that the algorithms reading the local
// gradient (Quilez, Swiss) need the transform's derivative too, which is
// ∓sign(n)·∇n. At n = 0, where |n| has no derivative, the gradient of the
// n ≥ 0 side is taken.
func (t BasisTransform) apply(n, dx, dy float64) (float64, float64, float64) {
	switch t {
	case RidgedBasis:
		if n < 0 {
			return 1 - math.Abs(n), dx, dy
		}
		return 1 - n, -dx, -dy
	case BillowBasis:
		if n < 0 {
			return -n, -dx, -dy
		}
		return n, dx, dy
	}
	return n, dx, dy
}
