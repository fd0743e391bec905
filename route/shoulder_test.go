package route

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
// out as a dense matrix over the free samples and minimised by Gaussian
// elimination on its normal equations.
func leastCurvatureDense(w, h int, class []uint8, f []float64) []float64 {
	var free []int
	index := make(map[int]int)
	for i, k := range class {
		if k == fillFree {
			index[i] = len(free)
			free = append(free, i)
		}
	}
	n := len(free)
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n+1)
	}
	for r := 1; r < h-1; r++ {
		for c := 1; c < w-1; c++ {
			// This term's Laplacian: coefficients on the free samples, and
			// the part the held ones give.
			coef := map[int]float64{}
			fixed := 0.0
			for _, n := range [5][3]int{{0, 0, -4}, {0, -1, 1}, {0, 1, 1}, {-1, 0, 1}, {1, 0, 1}} {
				j := (r+n[0])*w + c + n[1]
				if k, ok := index[j]; ok {
					coef[k] += float64(n[2])
				} else {
					fixed += float64(n[2]) * f[j]
				}
			}
			for k, ck := range coef {
				for l, cl := range coef {
					a[k][l] += ck * cl
				}
				a[k][n] -= ck * fixed
			}
		}
	}
	for col := range n { // elimination with partial pivoting
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
	out := slices.Clone(f)
	for k, i := range free {
		out[i] = a[k][n] / a[k][k]
	}
	return out
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
