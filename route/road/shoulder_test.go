package road

import (
	"context"
	"cordillera/internal/parallel"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// leastCurvatureDense is the oracle for leastCurvature: the same energy,
// the sum over the interior of the squared five-point Laplacian, written
// out term by term and minimised by leastSquaresOracle.
func leastCurvatureDense(w, h int, class []uint8, f []float64) []float64 {
	free := make([]bool, len(class))
	for i, k := range class {
		free[i] = k == fillFree
	}
	var terms []map[int]float64
	for r := 1; r < h-1; r++ {
		for c := 1; c < w-1; c++ {
			i := r*w + c
			terms = append(terms, map[int]float64{i: -4, i - 1: 1, i + 1: 1, i - w: 1, i + w: 1})
		}
	}
	return leastSquaresOracle(f, free, terms)
}

// leastSquaresOracle returns v with its free values set to minimise the
// sum over terms of (Σ c·v[i])², each term a map from sample to
// coefficient, by elimination on the dense normal equations: the slow,
// plain oracle for the fills.
func leastSquaresOracle(v []float64, free []bool, terms []map[int]float64) []float64 {
	var idx []int
	at := map[int]int{}
	for i, f := range free {
		if f {
			at[i] = len(idx)
			idx = append(idx, i)
		}
	}
	n := len(idx)
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n+1)
	}
	for _, term := range terms {
		coef := map[int]float64{}
		fixed := 0.0
		for j, c := range term {
			if k, ok := at[j]; ok {
				coef[k] += c
			} else {
				fixed += c * v[j]
			}
		}
		for k, ck := range coef {
			for l, cl := range coef {
				a[k][l] += ck * cl
			}
			a[k][n] -= ck * fixed
		}
	}
	out := slices.Clone(v)
	for k, x := range solveAugmented(a) {
		out[idx[k]] = x
	}
	return out
}

// solveAugmented solves the n×n system a (augmented with its right-hand
// side as column n) by Gauss–Jordan elimination with partial pivoting.
func solveAugmented(a [][]float64) []float64 {
	n := len(a)
	for col := range n {
		p := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[p][col]) {
				p = r
			}
		}
		a[col], a[p] = a[p], a[col]
		for r := range n {
			if r != col && a[r][col] != 0 {
				m := a[r][col] / a[col][col]
				for c := col; c <= n; c++ {
					a[r][c] -= m * a[col][c]
				}
			}
		}
	}
	x := make([]float64, n)
	for k := range x {
		x[k] = a[k][n] / a[k][k]
	}
	return x
}

// fillProblem is a w×h field with a band of free samples around a wavy
// held line, zero beyond the band and on the border, and noise as the
// first guess.
func fillProblem(w, h int, seed uint64) ([]uint8, []float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	class := make([]uint8, w*h)
	f := make([]float64, w*h)
	for r := range h {
		for c := range w {
			i := r*w + c
			y := float64(h)/2 + 3*math.Sin(float64(c)/4)
			switch d := math.Abs(float64(r) - y); {
			case d < 1.5:
				class[i], f[i] = fillHeld, 0.02*float64(c)+0.1*float64(r)
			case d < 9 && r > 0 && c > 0 && r < h-1 && c < w-1:
				class[i], f[i] = fillFree, rng.Float64()
			default:
				class[i] = fillZero
			}
		}
	}
	return class, f
}

// The multigrid-preconditioned fill finds the dense solve's minimiser,
// held samples untouched, on a band wide enough for coarser grids.
func TestLeastCurvatureMatchesDense(t *testing.T) {
	const w, h = 40, 26
	class, f := fillProblem(w, h, 7)
	want := leastCurvatureDense(w, h, class, f)
	got := slices.Clone(f)
	steps, err := leastCurvature(context.Background(), w, h, slices.Clone(class), got, 1e-12, 500)
	if err != nil {
		t.Fatal(err)
	}
	worst, scale := 0.0, 0.0
	for i := range f {
		worst = max(worst, math.Abs(got[i]-want[i]))
		scale = max(scale, math.Abs(want[i]))
		if class[i] != fillFree && got[i] != f[i] {
			t.Fatalf("held sample %d changed: %v → %v", i, f[i], got[i])
		}
	}
	t.Logf("%d steps, largest difference from the dense solve %.2e (values up to %.2f)", steps, worst, scale)
	if worst > 1e-9*scale || steps >= 500 {
		t.Errorf("fill differs from the dense solve by %.2e after %d steps", worst, steps)
	}
}

// The fill is the same to the bit on any number of cores: its sums are
// added chunk by chunk in order.
func TestLeastCurvatureSameOnAnyCores(t *testing.T) {
	const w, h = 300, 200
	class, f := fillProblem(w, h, 3)
	var results [][]float64
	for _, workers := range []int{1, 2, 8} {
		got := slices.Clone(f)
		ctx := parallel.WithWorkers(context.Background(), workers)
		if _, err := leastCurvature(ctx, w, h, slices.Clone(class), got, 1e-8, 200); err != nil {
			t.Fatal(err)
		}
		results = append(results, got)
	}
	for k := 1; k < len(results); k++ {
		if !slices.Equal(results[0], results[k]) {
			t.Errorf("result %d differs from the one-core result", k)
		}
	}
}
