package noise

import "math"

// Normalize32 replaces every v[k] by float32((float64(v[k]) − lo) / span),
// the map of a range [lo, lo + span] onto [0, 1] that terrain's generators
// end with, bit for bit the scalar expression: the selected kernel
// (UseKernel) does several lanes at once, each exactly as Go does (the
// AVX-512 kernel multiplies by 1/span where that provably rounds to the
// same float32, and divides elsewhere; see internal/asmgen/rescale.go).
func Normalize32(v []float32, lo, span float64) {
	done := 0
	// The reciprocal's error bound needs it normal.
	if r := 1 / span; math.Abs(r) >= 0x1p-1022 && !math.IsInf(r, 0) {
		done = rescaleLanes(currentKernel(), v, lo, span, r)
	}
	for k, h := range v[done:] {
		v[done+k] = float32((float64(h) - lo) / span)
	}
}
