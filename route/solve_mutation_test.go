package route

import (
	"context"
	"math"
	"testing"

	"cordillera/terrain"
)

// Two points on one spot make A Aᵀ singular: the system adds the smallest
// Tikhonov term of the series 10⁻¹²·trace/m, ×100 each try, that lets it
// factorise, and the least-squares fit still meets both points' common
// target. Distinct points need none. (Found by the mutation run of issue
// 19: the ridge path was never taken.)
func TestSystemRidgeForPointsOnOneSpot(t *testing.T) {
	turb, err := newTurbulence(65, 5, terrain.Bilinear, 7)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	distinct := []Constraint{{10.5, 20.25, 0.3}, {40, 12, -0.2}, {33.3, 50.7, 0.1}}
	s, err := turb.system(ctx, distinct)
	if err != nil {
		t.Fatal(err)
	}
	if s.Ridge != 0 {
		t.Errorf("distinct points: ridge %g, want 0 (the exact solution)", s.Ridge)
	}
	same := append(distinct, Constraint{10.5, 20.25, 0.3})
	s, err = turb.system(ctx, same)
	if err != nil {
		t.Fatal(err)
	}
	_, trace, err := gramMatrix(ctx, s.rows)
	if err != nil {
		t.Fatal(err)
	}
	want := 1e-12 * trace / float64(len(same))
	for want < s.Ridge/2 {
		want *= 100
	}
	if !(s.Ridge > 0) || math.Abs(s.Ridge-want) > 1e-9*want {
		t.Fatalf("two points on one spot: ridge %g, want the first of 10⁻¹²·%g/%d·100^k that factorises (%g)", s.Ridge, trace, len(same), want)
	}
	// The least-squares heights A Aᵀ λ ≈ T at the points.
	targets := []float64{0.3, -0.2, 0.1, 0.3}
	lambda := s.solve(targets)[0]
	for i, r := range s.rows {
		got := 0.0
		for j, q := range s.rows {
			got += lambda[j] * rowDot(r, q)
		}
		if math.Abs(got-targets[i]) > 1e-6 {
			t.Errorf("point %d: fitted %v, want %v", i, got, targets[i])
		}
	}
}

// rowDot is the dot product of two constraint rows, index by index.
func rowDot(a, b sparseRow) float64 {
	sum := 0.0
	for i, k := range a.idx {
		for j, l := range b.idx {
			if k == l {
				sum += a.coef[i] * b.coef[j]
			}
		}
	}
	return sum
}

// incrementVariance is ⅓·|a − b|² over the union of the rows' indices,
// whether they interleave, nest, share all or none (checked densely).
func TestIncrementVarianceMatchesDense(t *testing.T) {
	row := func(idx []int32, coef []float64) sparseRow { return sparseRow{idx: idx, coef: coef} }
	for _, tc := range []struct {
		name string
		a, b sparseRow
	}{
		{"interleaved", row([]int32{1, 4, 9}, []float64{0.5, -1, 2}), row([]int32{2, 4, 7, 12}, []float64{3, 0.25, -0.5, 1})},
		{"disjoint, a first", row([]int32{0, 1}, []float64{1, 2}), row([]int32{5, 6}, []float64{-3, 4})},
		{"disjoint, b first", row([]int32{8, 9}, []float64{1, 2}), row([]int32{0, 3}, []float64{-3, 4})},
		{"same indices", row([]int32{3, 5}, []float64{1, 2}), row([]int32{3, 5}, []float64{0.5, -2})},
		{"b empty", row([]int32{3, 5}, []float64{1, 2}), row(nil, nil)},
		{"a empty", row(nil, nil), row([]int32{0, 2}, []float64{-1, 0.5})},
	} {
		dense := make([]float64, 16)
		for i, k := range tc.a.idx {
			dense[k] += tc.a.coef[i]
		}
		for i, k := range tc.b.idx {
			dense[k] -= tc.b.coef[i]
		}
		want := 0.0
		for _, d := range dense {
			want += d * d
		}
		want /= 3
		if got := incrementVariance(tc.a, tc.b); math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: incrementVariance %v, want ⅓·|a − b|² = %v", tc.name, got, want)
		}
	}
}
