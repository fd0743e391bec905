//go:build amd64 && !purego

package noise

// swissLanes runs kernel k's Swiss turbulence step over the whole blocks
// of laneWidth samples and returns how many samples it did: none where k
// has no such kernel (only AVX-512 has one).
func swissLanes(k Kernel, sum, amp, dsx, dsy, n, dx, dy, xs, ys, px, py []float64, gain, freq float64) int {
	m := len(sum) / laneWidth * laneWidth
	if m == 0 || k != KernelAVX512 {
		return 0
	}
	_, _, _, _, _ = amp[m-1], dsx[m-1], dsy[m-1], n[m-1], dx[m-1]
	_, _, _, _, _ = dy[m-1], xs[m-1], ys[m-1], px[m-1], py[m-1]
	swissStepAVX512(&sum[0], &amp[0], &dsx[0], &dsy[0], &n[0], &dx[0], &dy[0], &xs[0], &ys[0], &px[0], &py[0], gain, freq, m)
	return m
}
