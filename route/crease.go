package route

import (
	"context"
	"cordillera/terrain"
	"math"
	"slices"
)

// curvature is the larger magnitude of the second differences of m at
// (col, row) along the row and along the column: the discrete second
// derivative a crease shows as, in map units per sample². Border samples
// have none and return 0.
func curvature(m *terrain.Heightmap, col, row int) float64 {
	if col < 1 || row < 1 || col >= m.Width-1 || row >= m.Height-1 {
		return 0
	}
	i := row*m.Width + col
	h := 2 * float64(m.Samples[i])
	cx := float64(m.Samples[i-1]) + float64(m.Samples[i+1]) - h
	cy := float64(m.Samples[i-m.Width]) + float64(m.Samples[i+m.Width]) - h
	return max(math.Abs(cx), math.Abs(cy))
}

// creaseRatio measures how well the map near the track blends into the
// rest: the 99th percentile of the curvature within reach samples of the
// track, over the 99th percentile of the curvature of the whole map. A
// ratio near 1 means the ground along the route bends no more sharply
// than the steeper ground elsewhere; a crease (a road cut into a slope, a
// correction that stops short) shows as a ratio of 10 or more. The
// constrained turbulence alone, before the track is followed, gives
// 1.3–4.3 on the real tracks in ../shared/data. It returns 0 for a map
// without curvature.
func creaseRatio(ctx context.Context, m *terrain.Heightmap, track *Path, reach float64) (float64, error) {
	all := make([]float64, 0, (m.Width-2)*(m.Height-2))
	for row := 1; row < m.Height-1; row++ {
		for col := 1; col < m.Width-1; col++ {
			all = append(all, curvature(m, col, row))
		}
	}
	if len(all) == 0 {
		return 0, nil
	}
	slices.Sort(all)
	p99 := all[int(0.99*float64(len(all)-1))]
	if p99 <= 0 {
		return 0, nil
	}
	near := make([]bool, len(m.Samples))
	err := nearestEdges(ctx, m, trackEdges(track), reach, func(row, col, _ int, _, _ float64) {
		near[row*m.Width+col] = true
	})
	if err != nil {
		return 0, err
	}
	var corridor []float64
	for i, in := range near {
		if in {
			corridor = append(corridor, curvature(m, i%m.Width, i/m.Width))
		}
	}
	if len(corridor) == 0 {
		return 0, nil
	}
	slices.Sort(corridor)
	return corridor[int(0.99*float64(len(corridor)-1))] / p99, nil
}
