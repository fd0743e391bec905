package corridor

import (
	"context"
	"cordillera/internal/parallel"
	"cordillera/route/track"
	"cordillera/terrain"
	"math"
)

// Curvature is the larger magnitude of the second differences of m at
// (col, row) along the row and along the column: the discrete second
// derivative a crease shows as, in map units per sample². Border samples
// have none and return 0.
func Curvature(m *terrain.Heightmap, col, row int) float64 {
	if col < 1 || row < 1 || col >= m.Width-1 || row >= m.Height-1 {
		return 0
	}
	i := row*m.Width + col
	h := 2 * float64(m.Samples[i])
	cx := float64(m.Samples[i-1]) + float64(m.Samples[i+1]) - h
	cy := float64(m.Samples[i-m.Width]) + float64(m.Samples[i+m.Width]) - h
	return max(math.Abs(cx), math.Abs(cy))
}

// CreasePercentile is the percentile of the curvature CreaseRatio
// compares: the sharpest 1 % of the ground, a ridge or a valley floor, is
// what a crease along the route must not exceed.
const CreasePercentile = 0.99

// CreaseRatio measures how well the map near the track blends into the
// rest: the 99th percentile of the curvature within reach samples of the
// track (the corridor), over the 99th percentile of the curvature of the
// map's interior outside it. A ratio near 1 means the ground along the
// route bends no more sharply than the steeper ground elsewhere; a crease
// (a road cut into a slope, a correction that stops short) shows as a
// ratio of 10 or more. The reference leaves the corridor out: a corridor
// covers 1–8 % of a 1025² map on real tracks, more
// than the 1 % a 99th percentile looks at, so a creased corridor would
// otherwise set its own reference (sf-strava-run.gpx with a 10 m road:
// 3.0 against the whole map, 26 against the ground outside). A corridor
// covering the whole map is compared with itself. It returns 0 for a map
// without curvature. The percentiles are found by selection (Percentile),
// not by sorting a million samples.
func CreaseRatio(ctx context.Context, m *terrain.Heightmap, path *track.Path, reach float64) (float64, error) {
	if m.Width < 3 || m.Height < 3 {
		return 0, nil
	}
	corridor, out, err := CurvatureSplit(ctx, m, BandEdges(path, reach), reach)
	if err != nil {
		return 0, err
	}
	if len(corridor) == 0 {
		return 0, nil
	}
	if len(out) == 0 {
		out = corridor
	}
	ref := Percentile(out, CreasePercentile)
	if !(ref > 0) {
		return 0, nil
	}
	return Percentile(corridor, CreasePercentile) / ref, nil
}

// CurvatureSplit returns the curvature of m's interior samples, split
// into those within reach of edges (the corridor) and the rest.
func CurvatureSplit(ctx context.Context, m *terrain.Heightmap, edges [][2]track.Sample, reach float64) (corridor, out []float64, err error) {
	if m.Width < 3 || m.Height < 3 {
		return nil, nil, nil
	}
	near := make([]bool, len(m.Samples))
	err = NearestEdges(ctx, m, edges, reach, func(row, col, _ int, _, _ float64) {
		near[row*m.Width+col] = true
	})
	if err != nil {
		return nil, nil, err
	}
	iw := m.Width - 2
	all := make([]float64, iw*(m.Height-2))
	err = parallel.Rows(ctx, m.Height-2, nil, 0, 0, func(r int) {
		line := all[r*iw : (r+1)*iw]
		for c := range line {
			line[c] = Curvature(m, c+1, r+1)
		}
	})
	if err != nil {
		return nil, nil, err
	}
	out = all[:0]
	for k, v := range all {
		if near[(k/iw+1)*m.Width+k%iw+1] {
			corridor = append(corridor, v)
		} else {
			out = append(out, v)
		}
	}
	return corridor, out, nil
}

// Percentile returns the element of rank ⌊q·(n−1)⌋ of v in increasing
// order, the value sorting v would put there (percentileSorted, the
// oracle), found by quickselect with a median-of-three pivot in O(n)
// expected time. It reorders v.
func Percentile(v []float64, q float64) float64 {
	k := int(q * float64(len(v)-1))
	lo, hi := 0, len(v)-1
	for hi > lo {
		// Median of three as the pivot, moved to hi.
		mid := lo + (hi-lo)/2
		if v[mid] < v[lo] {
			v[mid], v[lo] = v[lo], v[mid]
		}
		if v[hi] < v[lo] {
			v[hi], v[lo] = v[lo], v[hi]
		}
		if v[mid] < v[hi] {
			v[mid], v[hi] = v[hi], v[mid]
		}
		pivot := v[hi]
		// Three-way partition: < pivot, = pivot, > pivot, so runs of equal
		// values (a flat map's zeros) cost one pass, not a quadratic one.
		lt, i, gt := lo, lo, hi
		for i <= gt {
			switch {
			case v[i] < pivot:
				v[lt], v[i] = v[i], v[lt]
				lt++
				i++
			case v[i] > pivot:
				v[i], v[gt] = v[gt], v[i]
				gt--
			default:
				i++
			}
		}
		switch {
		case k < lt:
			hi = lt - 1
		case k > gt:
			lo = gt + 1
		default:
			return pivot
		}
	}
	return v[k]
}
