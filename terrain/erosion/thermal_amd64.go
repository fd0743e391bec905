//go:build amd64 && !purego

package erosion

import "golang.org/x/sys/cpu"

// thermalAVX2 is whether the interior kernel runs four samples at a time
// in AVX2 (thermal_amd64.s).
var thermalAVX2 = cpu.X86.HasAVX2

// thermalCellsAVX2 runs the interior kernel over n groups of four
// samples: the sample at column x of mid reads up, mid and down at x−1, x
// and x+1, where the pointers are at the columns just left of the first
// group; it writes next at the group's columns and returns out plus what
// each sample sends out, added one sample at a time. c holds k and the
// axial and diagonal talus drops.
//
//go:noescape
func thermalCellsAVX2(up, mid, down, next *float64, n int, c *[3]float64, out float64) float64

// interior is the interior kernel: groups of four samples in AVX2 where
// the machine has it, and the rest in Go.
func (th *thermalSweep) interior(up, mid, down, next []float64, out float64) float64 {
	w := len(mid)
	x := 1
	if n := (w - 2) / 4; thermalAVX2 && n > 0 {
		_, _, _ = up[w-1], down[w-1], next[w-1]
		c := [3]float64{th.k, th.axial, th.diagonal}
		out = thermalCellsAVX2(&up[0], &mid[0], &down[0], &next[0], n, &c, out)
		x += 4 * n
	}
	return th.interiorGo(up, mid, down, next, x, out)
}
