package route

import (
	"cmp"
	"context"
	"cordillera/internal/parallel"
	"cordillera/terrain"
	"math"
	"slices"
)

// trackEdges returns the straight pieces of line's segments, ends in
// samples (a lone point is a piece of length 0).
func trackEdges(line *Path) [][2]Sample {
	var edges [][2]Sample
	for _, seg := range line.Segments {
		for i := range seg {
			a, b := seg[i], seg[i]
			if i+1 < len(seg) {
				b = seg[i+1]
			} else if len(seg) > 1 {
				continue
			}
			edges = append(edges, [2]Sample{a, b})
		}
	}
	return edges
}

// nearestEdges calls apply for every map sample within reach of the
// edges, with the index of the nearest edge, the position t ∈ [0, 1] of
// the nearest point along it and the distance d to it (samples). Rows run
// in parallel; apply may write only its own row. The edges are sorted by
// their top row once, so each row looks only at the edges that can reach
// it: the work follows the edges near each row, not all of them.
func nearestEdges(ctx context.Context, m *terrain.Heightmap, edges [][2]Sample, reach float64, apply func(row, col, edge int, t, d float64)) error {
	type ranked struct {
		top float64 // the edge's top row
		k   int32
	}
	order := make([]ranked, len(edges))
	tall := 0.0 // the most rows one edge spans
	for k, e := range edges {
		order[k] = ranked{min(e[0].Y, e[1].Y), int32(k)}
		tall = max(tall, math.Abs(e[1].Y-e[0].Y))
	}
	slices.SortFunc(order, func(a, b ranked) int { return cmp.Or(cmp.Compare(a.top, b.top), cmp.Compare(a.k, b.k)) })
	return parallel.Rows(ctx, m.Height, nil, 0, 0, func(row int) {
		y := float64(row)
		dist := make([]float64, m.Width) // squared
		near := make([]int, m.Width)
		along := make([]float64, m.Width)
		for i := range dist {
			dist[i] = math.Inf(1)
		}
		first, _ := slices.BinarySearchFunc(order, y-reach-tall, func(r ranked, v float64) int { return cmp.Compare(r.top, v) })
		for _, r := range order[first:] {
			if r.top > y+reach {
				break
			}
			k := int(r.k)
			a, b := edges[k][0], edges[k][1]
			if y < min(a.Y, b.Y)-reach || y > max(a.Y, b.Y)+reach {
				continue
			}
			dx, dy := b.X-a.X, b.Y-a.Y
			l2 := dx*dx + dy*dy
			c0 := max(int(math.Ceil(min(a.X, b.X)-reach)), 0)
			c1 := min(int(math.Floor(max(a.X, b.X)+reach)), m.Width-1)
			for c := c0; c <= c1; c++ {
				x := float64(c)
				t := 0.0
				if l2 > 0 {
					t = min(max(((x-a.X)*dx+(y-a.Y)*dy)/l2, 0), 1)
				}
				ex, ey := x-(a.X+t*dx), y-(a.Y+t*dy)
				if d2 := ex*ex + ey*ey; d2 < dist[c] || (d2 == dist[c] && k < near[c]) {
					dist[c], near[c], along[c] = d2, k, t
				}
			}
		}
		for c, d2 := range dist {
			if d := math.Sqrt(d2); d < reach {
				apply(row, c, near[c], along[c], d)
			}
		}
	})
}

// smootherstep is Perlin's 6s⁵ − 15s⁴ + 10s³ on s clamped to [0, 1]: its
// slope and curvature vanish at both ends, so a blend with it leaves no
// crease where it starts or stops.
func smootherstep(s float64) float64 { return fade(min(max(s, 0), 1)) }

// Road shoulders: a shoulder is roadShoulder times the road's half-width
// wide, and at least roadMinShoulder samples: the level road meets the
// terrain's own slope over that distance with a smootherstep, whose
// curvature at most 5.8·Δh/w² stays within the terrain's own.
const (
	roadShoulder    = 3.0
	roadMinShoulder = 6.0
)

// applyRoad levels a road along the track: every sample within halfWidth
// (in samples) of the track takes the height of the nearest point of the
// track's centreline, so the ground is level across the road, and a
// shoulder (roadShoulder times the half-width, at least roadMinShoulder
// samples) blends it back into the terrain with a smootherstep. The
// centreline keeps the terrain's own height along the track, which meets
// the route's targets; a last pass restores them exactly where the
// levelling moved the map (fixConstraints).
func applyRoad(ctx context.Context, m *terrain.Heightmap, track *Path, cons []Constraint, halfWidth float64) error {
	shoulder := max(roadShoulder*halfWidth, roadMinShoulder)
	reach := halfWidth + shoulder
	// The centreline: the track at a spacing fine against the road's width.
	edges := trackEdges(track.Resample(track.lineSpacing(max(0.5, halfWidth/4))))
	heights := make([][2]float64, len(edges))
	for k, e := range edges {
		heights[k] = [2]float64{bilinear(m, e[0].X, e[0].Y), bilinear(m, e[1].X, e[1].Y)}
	}
	level := make([]float32, len(m.Samples))
	weight := make([]float32, len(m.Samples))
	err := nearestEdges(ctx, m, edges, reach, func(row, col, k int, t, d float64) {
		w := 1.0
		if d > halfWidth {
			w = smootherstep(1 - (d-halfWidth)/shoulder)
		}
		i := row*m.Width + col
		level[i] = float32(heights[k][0] + t*(heights[k][1]-heights[k][0]))
		weight[i] = float32(w)
	})
	if err != nil {
		return err
	}
	for i, w := range weight {
		if w > 0 {
			m.Samples[i] += w * (level[i] - m.Samples[i])
		}
	}
	fixConstraints(m, cons)
	return nil
}

// fixConstraints moves the samples around each constraint point by the
// least that makes the map's bilinear height there equal the target: for
// one point the minimum-norm change of its four samples is the residual
// times each sample's bilinear weight over the sum of the squared weights.
// Points that share samples are swept in turn (Gauss–Seidel on the
// normal equations) until the largest residual is at float32 rounding.
func fixConstraints(m *terrain.Heightmap, cons []Constraint) {
	for sweep := 0; sweep < 100; sweep++ {
		worst := 0.0
		for _, c := range cons {
			e := c.T - bilinear(m, c.X, c.Y)
			worst = max(worst, math.Abs(e))
			c0 := min(max(int(math.Floor(c.X)), 0), m.Width-2)
			r0 := min(max(int(math.Floor(c.Y)), 0), m.Height-2)
			fx := min(max(c.X-float64(c0), 0), 1)
			fy := min(max(c.Y-float64(r0), 0), 1)
			b := [4]float64{(1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy}
			norm := b[0]*b[0] + b[1]*b[1] + b[2]*b[2] + b[3]*b[3]
			for k, idx := range [4]int{r0*m.Width + c0, r0*m.Width + c0 + 1, (r0+1)*m.Width + c0, (r0+1)*m.Width + c0 + 1} {
				m.Samples[idx] = float32(float64(m.Samples[idx]) + e*b[k]/norm)
			}
		}
		if worst < 1e-6 {
			return
		}
	}
}
