package noise

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestQuilezStep checks every kernel's QuilezStep bit for bit against the
// step written out sample by sample, over several octaves in a row, on
// lengths around the kernels' step of 16 samples, with gradients large
// enough to damp and a NaN and infinities among them.
func TestQuilezStep(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, kernel := range Kernels() {
		t.Run(string(kernel), func(t *testing.T) {
			useKernel(t, kernel)
			for _, m := range []int{0, 1, 15, 16, 17, 31, 33, 1025} {
				h, ddx, ddy := make([]float64, m), make([]float64, m), make([]float64, m)
				wh, wdx, wdy := make([]float64, m), make([]float64, m), make([]float64, m)
				n, ndx, ndy := make([]float64, m), make([]float64, m), make([]float64, m)
				for octave, amp := range []float64{1, 0.5, 1.0 / 3, 0.1, 1e-3} {
					for k := range n {
						n[k], ndx[k], ndy[k] = 2*r.Float64()-1, 6*r.Float64()-3, 6*r.Float64()-3
						if k == 5 && octave == 2 {
							n[k], ndx[k] = math.Inf(1), math.NaN()
						}
					}
					for k := range wh {
						wdx[k] += ndx[k]
						wdy[k] += ndy[k]
						wh[k] = wh[k] + amp*n[k]/(1+float64(wdx[k]*wdx[k])+float64(wdy[k]*wdy[k]))
					}
					QuilezStep(h, ddx, ddy, n, ndx, ndy, amp)
					for k := range h {
						if !sameOrNaN(h[k], wh[k]) || !sameOrNaN(ddx[k], wdx[k]) || !sameOrNaN(ddy[k], wdy[k]) {
							t.Fatalf("%d samples, octave %d: sample %d = (%v, %v, %v), want (%v, %v, %v)",
								m, octave, k, h[k], ddx[k], ddy[k], wh[k], wdx[k], wdy[k])
						}
					}
				}
			}
		})
	}
}

// sameOrNaN reports whether a and b have the same bits or are both NaN,
// whose payloads the scalar and vector units may set differently.
func sameOrNaN(a, b float64) bool { return same(a, b) || a != a && b != b }
