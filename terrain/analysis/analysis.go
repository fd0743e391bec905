// Package analysis measures and pictures a heightmap for teaching: height
// profiles, histograms, the power spectrum with its fitted slope, and
// shaded relief. plot, game and the commands draw from it; it knows the
// Heightmap and nothing of how a map was made.
package analysis

import (
	"cordillera/terrain"
	"fmt"
	"math"
)

// Measurements of a heightmap for teaching (issue 6): the heights along a
// line and their distribution. The power spectrum is in spectrum.go.

// Profile returns n heights sampled at equal steps along the segment from
// (x0, y0) to (x1, y1), both ends included, in sample coordinates (column,
// row; (0, 0) is the first sample, (Width−1, Height−1) the last). Each
// height is interpolated bilinearly between the four samples around the
// point (terrain.Heightmap.Bilinear); points outside the map take the nearest
// edge's value. With n = 1 it is the height at (x0, y0); n < 1 gives nil,
// and a coordinate that is not finite NaN heights.
func Profile(m *terrain.Heightmap, x0, y0, x1, y1 float64, n int) []float64 {
	if n < 1 || m.Width <= 0 || m.Height <= 0 {
		return nil
	}
	out := make([]float64, n)
	if sum := x0 + y0 + x1 + y1; math.IsNaN(sum) || math.IsInf(sum, 0) {
		for i := range out {
			out[i] = math.NaN()
		}
		return out
	}
	for i := range out {
		t := 0.0
		if n > 1 {
			t = float64(i) / float64(n-1)
		}
		out[i] = m.Bilinear(x0+t*(x1-x0), y0+t*(y1-y0))
	}
	return out
}

// Histogram counts the samples in bins equal slices of [0, 1], the range of
// a generated (normalised) map, so that histograms of different maps can
// be compared bin by bin. Bin k holds k/bins ≤ h < (k+1)/bins; h = 1 falls
// in the last bin, values below 0 in the first and above 1 in the last.
// NaN samples are not counted. bins < 1 gives nil.
func Histogram(m *terrain.Heightmap, bins int) []int {
	if bins < 1 {
		return nil
	}
	counts := make([]int, bins)
	for _, v := range m.Samples {
		if v != v { // NaN
			continue
		}
		k := int(math.Floor(float64(v) * float64(bins)))
		counts[min(max(k, 0), bins-1)]++
	}
	return counts
}

// MapLine converts a line given in map fractions — (0, 0) the north-west
// corner, (1, 1) the south-east one — to sample coordinates. Every
// fraction must be a number in [0, 1].
func MapLine(m *terrain.Heightmap, fx0, fy0, fx1, fy1 float64) (x0, y0, x1, y1 float64, err error) {
	for _, f := range []float64{fx0, fy0, fx1, fy1} {
		if !(f >= 0 && f <= 1) { // also catches NaN
			return 0, 0, 0, 0, fmt.Errorf("line %g,%g,%g,%g: every coordinate must be a map fraction in [0, 1]", fx0, fy0, fx1, fy1)
		}
	}
	sx, sy := float64(m.Width-1), float64(m.Height-1)
	return fx0 * sx, fy0 * sy, fx1 * sx, fy1 * sy, nil
}
