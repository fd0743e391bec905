package corridor

import (
	"cmp"
	"context"
	"cordillera/internal/parallel"
	"cordillera/route/track"
	"cordillera/terrain"
	"math"
	"slices"
)

// TrackEdges returns the straight pieces of line's segments, ends in
// samples (a lone point is a piece of length 0).
func TrackEdges(line *track.Path) [][2]track.Sample {
	var edges [][2]track.Sample
	for _, seg := range line.Segments {
		for i := range seg {
			a, b := seg[i], seg[i]
			if i+1 < len(seg) {
				b = seg[i+1]
			} else if len(seg) > 1 {
				continue
			}
			edges = append(edges, [2]track.Sample{a, b})
		}
	}
	return edges
}

// NearestEdges calls apply for every map sample within reach of the
// edges, with the index of the nearest edge, the position t ∈ [0, 1] of
// the nearest point along it and the distance d to it (samples). Rows run
// in parallel; apply may write only its own row. The edges are sorted by
// their top row once, so each row looks only at the edges that can reach
// it: the work follows the edges near each row, not all of them.
func NearestEdges(ctx context.Context, m *terrain.Heightmap, edges [][2]track.Sample, reach float64, apply func(row, col, edge int, t, d float64)) error {
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

// BandEdges returns the edges of line resampled as coarsely as a band
// reach samples wide around it allows: one point per reach/16 samples
// (at least half a sample), which moves the band's edge by a small part of
// a sample on bends wider than the band. NearestEdges' work grows with
// the edges times the reach squared.
func BandEdges(line *track.Path, reach float64) [][2]track.Sample {
	return TrackEdges(line.Resample(line.LineSpacing(max(0.5, reach/16))))
}
