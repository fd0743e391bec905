package route

import (
	"context"
	"cordillera/terrain"
	"math"
)

// followTrack brings the map onto the track between the solved points.
// The lattice cannot follow detail finer than its finest cell, so the map
// strays from the track between the points by a few metres; here the
// residual along the track (every half sample) is added to the ground
// around it: in full within a sample of the track, fading with a
// smootherstep to nothing at reach samples, so the correction leaves no
// crease. Six passes take up what the bilinear reading between samples
// left; fixConstraints then meets the solved points exactly again.
// Elevations e map to the map's units as (e − z0)/amp.
func followTrack(ctx context.Context, m *terrain.Heightmap, track *Path, cons []Constraint, z0, amp, reach float64) error {
	edges := trackEdges(track)
	resid := make([][2]float64, len(edges))
	delta := make([]float32, len(m.Samples))
	for range 6 {
		for k, e := range edges {
			for j, q := range e {
				resid[k][j] = (q.Ele-z0)/amp - bilinear(m, q.X, q.Y)
			}
		}
		clear(delta)
		err := nearestEdges(ctx, m, edges, reach, func(row, col, k int, t, d float64) {
			w := 1.0
			if d > 1 {
				w = smootherstep(1 - (d-1)/(reach-1))
			}
			delta[row*m.Width+col] = float32(w * (resid[k][0] + t*(resid[k][1]-resid[k][0])))
		})
		if err != nil {
			return err
		}
		for i, v := range delta {
			m.Samples[i] += v
		}
	}
	fixConstraints(m, cons)
	return nil
}

// harmoniseLaps reconciles passes of the track that disagree: laps of one
// loop, an out-and-back, recorded with elevations metres apart. Where
// passes meet (the points mergePasses merges at spacing), every pass takes
// their mean elevation; the change fades linearly along the track to the
// next point where the passes part. One spot of the map cannot be at two
// heights, and the map is measured against every pass. It returns the
// largest change in metres.
func (p *Path) harmoniseLaps(spacing float64) float64 {
	spacing = p.lineSpacing(spacing)
	res := p.Resample(spacing)
	out, merged, owner := mergePasses(res, spacing)
	if merged == 0 {
		return 0
	}
	shift, k := 0.0, 0
	p.MinEle, p.MaxEle = math.Inf(1), math.Inf(-1)
	for s, seg := range res.Segments {
		corr := make([]float64, len(seg))
		for i, q := range seg {
			corr[i] = out[owner[k]].Ele - q.Ele
			k++
		}
		orig := p.Segments[s]
		cum := make([]float64, len(orig))
		for i := 1; i < len(orig); i++ {
			cum[i] = cum[i-1] + dist(orig[i-1], orig[i])
		}
		total := cum[len(cum)-1]
		for i := range orig {
			c := corr[0]
			if total > 0 && len(corr) > 1 {
				u := cum[i] / total * float64(len(corr)-1)
				j := min(int(u), len(corr)-2)
				f := u - float64(j)
				c = corr[j] + f*(corr[j+1]-corr[j])
			}
			orig[i].Ele += c
			shift = max(shift, math.Abs(c))
			p.MinEle, p.MaxEle = min(p.MinEle, orig[i].Ele), max(p.MaxEle, orig[i].Ele)
		}
	}
	return shift
}
