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

// roadKernelReach is how far the road's kernel reaches, as a multiple of
// the road's half-width plus its shoulder: the road's weight falls over
// the kernel's flank, so a longer reach spreads the bend from the level
// road back onto the slope wider. With the wider blend across the road
// below, the crease ratio with a 10 m road went from 26 to 15.5 on
// sf-strava-run.gpx and from 81 to 50 on mojstrovka.gpx (against the
// ground outside the road, creaseRatio).
const roadKernelReach = 4.0 / 3

// roadPasses is how many times applyRoad corrects the centreline heights
// it smooths, so that the smoothed road keeps the terrain's height on
// the track.
const roadPasses = 4

// applyRoad levels a road along the track, halfWidth samples either side
// of it, blended into the terrain over a shoulder (roadShoulder times the
// half-width, at least roadMinShoulder samples).
//
// Over the shoulder the road's height is the normalised convolution of
// the centreline's heights with a cubic B-spline kernel reaching over
// road and shoulder (splineKernel): L = S(h·ds)/S(ds). Along the road it
// is h smoothed, and where passes meet or the track turns it is their
// weighted mean: no seam where the nearest piece of the track changes,
// as a road that copies the nearest point's height has on the inside of
// every bend and between the legs of a hairpin (mojstrovka's crease ratio
// 13.9 → 6.0). Across the road itself, and one sample beyond, the height
// is the nearest centreline point's, level across by construction (the
// convolution alone tilts 0.05–0.1 m over a 48 m road on a bend); the two
// blend with a smootherstep over that sample. The road's weight is a
// smootherstep of the centreline density S(ds) against the density a
// straight track has at the road's edge: 1 across the road, falling to 0
// where the kernel ends, C² like the density, so the shoulder leaves no
// crease. The centreline heights are corrected roadPasses times so that
// the smoothed road keeps the terrain's height on the track, and
// reconstrain then meets the route's targets exactly by the smooth
// lattice correction, not by moving four samples per point.
func applyRoad(ctx context.Context, m *terrain.Heightmap, track *Path, fit routeFit, halfWidth float64) error {
	wide := roadKernel(halfWidth)
	// The centreline: the track at a spacing fine against the road's width.
	line := track.Resample(track.lineSpacing(max(0.5, halfWidth/4)))
	var pts []Sample
	for _, seg := range line.Segments {
		pts = append(pts, seg...)
	}
	ds := 0.5
	if len(pts) > 0 {
		ds = max(line.Length/line.CellSize/float64(len(pts)), 1e-3)
	}
	want := make([]float64, len(pts))
	for i, q := range pts {
		want[i] = bilinear(m, q.X, q.Y)
	}
	w, h := m.Width, m.Height
	levelW, densW, err := roadLevel(ctx, wide, pts, want, ds, w, h)
	if err != nil {
		return err
	}
	// Across the middle of the road the height is the nearest centreline
	// point's, level across by construction; it gives way to the smoothed
	// road from half the half-width to one sample beyond the road's edge,
	// so the seams where the nearest piece of the track changes lie only
	// between legs of the track closer than the road's width. Given way
	// over one sample at the edge, the two heights' difference (0.4 m at a
	// jog of sf-strava-run.gpx) made the sharpest bend of the map there.
	inner := halfWidth + 1
	edges := trackEdges(line)
	levelN := make([]float64, w*h)
	blendN := make([]float64, w*h)
	err = nearestEdges(ctx, m, edges, inner, func(row, col, k int, t, d float64) {
		a, b := edges[k][0], edges[k][1]
		ha, hb := bilinear(m, a.X, a.Y), bilinear(m, b.X, b.Y)
		i := row*w + col
		levelN[i] = ha + t*(hb-ha)
		blendN[i] = smootherstep((inner - d) / (inner - halfWidth/2))
	})
	if err != nil {
		return err
	}
	line0 := wide.lineDensity()
	for i, d := range densW {
		if d > 0 {
			level := levelW[i] + blendN[i]*(levelN[i]-levelW[i])
			a := wide.roadWeight(d/line0, halfWidth)
			m.Samples[i] = float32(float64(m.Samples[i]) + a*(level-float64(m.Samples[i])))
		}
	}
	if fit.turb == nil {
		fixConstraints(m, fit.cons)
		return nil
	}
	return reconstrain(ctx, m, fit)
}

// roadWeight is the road's weight where the centreline's smoothed
// density is ratio times a straight line's on itself: 1 on the road, 0
// at the kernel's reach, and between them a smootherstep of the distance
// a straight line would be at to have that density (the inverse of the
// continuous cubic B-spline the four boxes approximate), so that the
// shoulder bends the ground evenly over its whole width. A smootherstep
// of the density itself put the whole bend in the middle third of the
// shoulder, where the B-spline falls fastest.
func (k splineKernel) roadWeight(ratio, halfWidth float64) float64 {
	// The continuous cubic B-spline with the boxes' variance: knots
	// spaced s = 2·√(h² + h) apart, reaching 2s.
	h := float64(k.half)
	s := 2 * math.Sqrt(h*h+h)
	d := s * bsplineInverse(ratio)
	end := 0.95 * float64(k.radius())
	if d <= halfWidth || end <= halfWidth {
		return 1
	}
	return 1 - smootherstep((d-halfWidth)/(end-halfWidth))
}

// bsplineInverse returns u ∈ [0, 2] where the cubic B-spline over its
// centre value, B(u) = 1 − 1.5u² + 0.75u³ (u ≤ 1) and (2 − u)³/4
// (1 ≤ u ≤ 2), equals r: 0 for r ≥ 1, 2 for r ≤ 0.
func bsplineInverse(r float64) float64 {
	switch {
	case r >= 1:
		return 0
	case r <= 0:
		return 2
	case r <= 0.25:
		return 2 - math.Cbrt(4*r)
	}
	lo, hi := 0.0, 1.0 // B falls monotonically on [0, 1]
	for range 40 {
		mid := (lo + hi) / 2
		if 1-1.5*mid*mid+0.75*mid*mid*mid > r {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// roadKernel is the kernel that smooths the road's height and sets its
// weight for a road halfWidth samples either side of the centreline: it
// reaches roadKernelReach times the half-width and the shoulder. Its
// radius is the ground the road changes.
func roadKernel(halfWidth float64) splineKernel {
	shoulder := max(roadShoulder*halfWidth, roadMinShoulder)
	return newSplineKernel(roadKernelReach * (halfWidth + shoulder))
}

// roadLevel returns the road's height as k's normalised convolution of
// the centreline points pts (ds samples apart), and the smoothed density
// of the centreline, zero beyond k's reach. The heights convolved are
// corrected roadPasses times so that the road's height on the centreline
// is want.
func roadLevel(ctx context.Context, k splineKernel, pts []Sample, want []float64, ds float64, w, h int) (level, density []float64, err error) {
	density = make([]float64, w*h)
	for _, q := range pts {
		splat(density, w, h, q.X, q.Y, ds)
	}
	if err := k.smooth(ctx, density, w, h); err != nil {
		return nil, nil, err
	}
	heights := slices.Clone(want)
	level = make([]float64, w*h)
	for pass := 0; ; pass++ {
		clear(level)
		for i, q := range pts {
			splat(level, w, h, q.X, q.Y, heights[i]*ds)
		}
		if err := k.smooth(ctx, level, w, h); err != nil {
			return nil, nil, err
		}
		for i, d := range density {
			if d > 0 {
				level[i] /= d
			}
		}
		if pass == roadPasses {
			return level, density, nil
		}
		for i, q := range pts {
			heights[i] += want[i] - bilinearField(level, w, h, q.X, q.Y)
		}
	}
}

// bilinearField is bilinear on a w×h field of float64.
func bilinearField(f []float64, w, h int, x, y float64) float64 {
	c0 := min(max(int(math.Floor(x)), 0), w-2)
	r0 := min(max(int(math.Floor(y)), 0), h-2)
	fx := min(max(x-float64(c0), 0), 1)
	fy := min(max(y-float64(r0), 0), 1)
	i := r0*w + c0
	return (1-fy)*((1-fx)*f[i]+fx*f[i+1]) + fy*((1-fx)*f[i+w]+fx*f[i+w+1])
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
