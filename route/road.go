package route

import (
	"context"
	"cordillera/internal/parallel"
	"cordillera/terrain"
	"math"
)

// applyRoad levels a road along the track: every sample within halfWidth
// (in samples) of the track takes the height of the nearest point of the
// track's centreline, so the ground is level across the road, and a
// shoulder as wide again (at least 1.5 samples) blends it back into the
// terrain with a smoothstep. The centreline keeps the terrain's own height
// along the track, which meets the route's targets; a last pass restores
// them exactly where the levelling moved the map (fixConstraints).
func applyRoad(ctx context.Context, m *terrain.Heightmap, track *Path, cons []Constraint, halfWidth float64) error {
	shoulder := max(halfWidth, 1.5)
	reach := halfWidth + shoulder
	// The centreline: the track at a spacing fine against the road's width.
	line := track.Resample(max(0.5, reach/8))
	type edge struct {
		ax, ay, bx, by float64 // ends, in samples
		ha, hb         float64 // the terrain's height at the ends
		yLo, yHi       float64 // rows the edge reaches
	}
	var edges []edge
	for _, seg := range line.Segments {
		for i := range seg {
			a, b := seg[i], seg[i]
			if i+1 < len(seg) {
				b = seg[i+1]
			} else if len(seg) > 1 {
				continue
			}
			edges = append(edges, edge{a.X, a.Y, b.X, b.Y, bilinear(m, a.X, a.Y), bilinear(m, b.X, b.Y),
				min(a.Y, b.Y) - reach, max(a.Y, b.Y) + reach})
		}
	}
	err := parallel.Rows(ctx, m.Height, nil, 0, 0, func(row int) {
		y := float64(row)
		dist := make([]float64, m.Width)
		level := make([]float64, m.Width)
		for i := range dist {
			dist[i] = math.Inf(1)
		}
		for _, e := range edges {
			if y < e.yLo || y > e.yHi {
				continue
			}
			dx, dy := e.bx-e.ax, e.by-e.ay
			l2 := dx*dx + dy*dy
			c0 := max(int(math.Ceil(min(e.ax, e.bx)-reach)), 0)
			c1 := min(int(math.Floor(max(e.ax, e.bx)+reach)), m.Width-1)
			for c := c0; c <= c1; c++ {
				x := float64(c)
				t := 0.0
				if l2 > 0 {
					t = min(max(((x-e.ax)*dx+(y-e.ay)*dy)/l2, 0), 1)
				}
				d := math.Hypot(x-(e.ax+t*dx), y-(e.ay+t*dy))
				if d < dist[c] {
					dist[c] = d
					level[c] = e.ha + t*(e.hb-e.ha)
				}
			}
		}
		out := m.Samples[row*m.Width : (row+1)*m.Width]
		for c, d := range dist {
			if d >= reach {
				continue
			}
			w := 1.0
			if d > halfWidth {
				s := 1 - (d-halfWidth)/shoulder
				w = s * s * (3 - 2*s)
			}
			out[c] = float32(float64(out[c]) + w*(level[c]-float64(out[c])))
		}
	})
	if err != nil {
		return err
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
