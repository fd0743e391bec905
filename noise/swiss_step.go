package noise

import "math"

// SwissWarp is de Carpentier's warp factor of Swiss turbulence: how far the
// accumulated gradient pushes the sample point of later octaves.
const SwissWarp = 0.15

// SwissStep folds one octave of de Carpentier's Swiss turbulence into a
// row of running states and writes the next octave's displaced points:
// for every sample k,
//
//	sum += amp·(1 − |n|), dsx += amp·dx·(−n), dsy += amp·dy·(−n),
//	amp *= gain·min(max(sum, 0), 1),
//	px = (xs + SwissWarp·dsx)·freq, py = (ys + SwissWarp·dsy)·freq,
//
// each product rounded before its sum, bit for bit terrain's per-sample
// swissStep (its oracle) and the displacement of terrain's swiss. The
// AVX-512 kernel, where selected (UseKernel), does 8 samples at once. All
// slices must have len(sum) elements.
func SwissStep(sum, amp, dsx, dsy, n, dx, dy, xs, ys, px, py []float64, gain, freq float64) {
	m := len(sum)
	amp, dsx, dsy, n, dx, dy = amp[:m], dsx[:m], dsy[:m], n[:m], dx[:m], dy[:m]
	xs, ys, px, py = xs[:m], ys[:m], px[:m], py[:m]
	done := swissLanes(currentKernel(), sum, amp, dsx, dsy, n, dx, dy, xs, ys, px, py, gain, freq)
	for k := done; k < m; k++ {
		s := sum[k] + float64(amp[k]*(1-math.Abs(n[k])))
		sx := dsx[k] + float64(amp[k]*dx[k]*-n[k])
		sy := dsy[k] + float64(amp[k]*dy[k]*-n[k])
		sum[k], dsx[k], dsy[k] = s, sx, sy
		amp[k] *= gain * min(max(s, 0), 1)
		px[k], py[k] = (xs[k]+float64(SwissWarp*sx))*freq, (ys[k]+float64(SwissWarp*sy))*freq
	}
}
