package noise

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// swissStepPoint is one sample of SwissStep written as terrain's swiss
// writes it: the oracle of every kernel's step.
func swissStepPoint(sum, amp, dsx, dsy, n, dx, dy, x, y, gain, freq float64) (s, a, sx, sy, px, py float64) {
	sum += float64(amp * (1 - math.Abs(n)))
	dsx += float64(amp * dx * -n)
	dsy += float64(amp * dy * -n)
	amp *= gain * min(max(sum, 0), 1)
	return sum, amp, dsx, dsy, (x + float64(SwissWarp*dsx)) * freq, (y + float64(SwissWarp*dsy)) * freq
}

// TestSwissStepMatchesPoints checks SwissStep with every kernel against
// the per-sample oracle, for rows around the block of 8 (below one block,
// whole blocks, tails), with running sums below 0, between 0 and 1 and
// above 1 (the clamp's three cases), ±0, and NaN and infinite inputs
// (any NaN will do where the oracle gives NaN; see sameOrNaN).
func TestSwissStepMatchesPoints(t *testing.T) {
	special := []float64{0, math.Copysign(0, -1), 1, -1, math.NaN(), math.Inf(1), math.Inf(-1)}
	for _, kernel := range Kernels() {
		t.Run(string(kernel), func(t *testing.T) {
			useKernel(t, kernel)
			r := rand.New(rand.NewPCG(3, 4))
			for _, m := range []int{1, 7, 8, 9, 16, 23, 1025} {
				in := make([][]float64, 11)
				for k := range in {
					in[k] = make([]float64, m)
					for c := range in[k] {
						in[k][c] = (r.Float64()*4 - 1.5) * math.Pow(2, float64(r.IntN(9)-4))
						if r.IntN(20) == 0 {
							in[k][c] = special[r.IntN(len(special))]
						}
					}
				}
				sum, amp, dsx, dsy, n, dx, dy, xs, ys, px, py := in[0], in[1], in[2], in[3], in[4], in[5], in[6], in[7], in[8], in[9], in[10]
				var want [][6]float64
				for c := range sum {
					s, a, sx, sy, qx, qy := swissStepPoint(sum[c], amp[c], dsx[c], dsy[c], n[c], dx[c], dy[c], xs[c], ys[c], 0.51, 2.03)
					want = append(want, [6]float64{s, a, sx, sy, qx, qy})
				}
				SwissStep(sum, amp, dsx, dsy, n, dx, dy, xs, ys, px, py, 0.51, 2.03)
				for c, w := range want {
					got := [6]float64{sum[c], amp[c], dsx[c], dsy[c], px[c], py[c]}
					for q := range got {
						if !sameOrNaN(got[q], w[q]) {
							t.Fatalf("%s", fmt.Sprintf("%d samples, sample %d: (sum, amp, dsx, dsy, px, py) = %v, want %v", m, c, got, w))
						}
					}
				}
			}
		})
	}
}
