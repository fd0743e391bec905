package road

import (
	"context"
	"cordillera/route/internal/corridor"
	"cordillera/route/track"
	"cordillera/terrain"
	"math"
	"slices"
)

// smootherstep is Perlin's 6s⁵ − 15s⁴ + 10s³ on s clamped to [0, 1]: its
// slope and curvature vanish at both ends, so a blend with it leaves no
// crease where it starts or stops.
func smootherstep(s float64) float64 {
	s = min(max(s, 0), 1)
	return s * s * s * (s*(s*6-15) + 10)
}

// Road shoulders: the least a shoulder is, roadShoulder times the road's
// half-width and roadMinShoulder samples, and the most the track's cross
// slopes may widen it to, roadMaxShoulder samples (the fill's work grows
// with the ground it covers).
const (
	roadShoulder    = 3.0
	roadMinShoulder = 6.0
	roadMaxShoulder = 64.0
)

// roadMinHalf is the least half-width, in samples, of the ground held
// level across the road: a road narrower than a sample is still level
// over the samples either side of its centreline.
const roadMinHalf = 0.75

// roadPasses is how many times Apply corrects the centreline heights
// it smooths, so that the smoothed road keeps the terrain's height on
// the track.
const roadPasses = 4

// roadLevelReach is how far the kernel that smooths the road's level
// reaches, in road half-widths (at least 4 samples, corridor.Kernel).
const roadLevelReach = 2.0

// roadFillTolerance is how far the least-curvature fill's residual falls
// (leastCurvature): further changes the crease ratio on the real tracks
// in the fourth digit.
const roadFillTolerance = 1e-4

// Road is a level road along a track.
type Road struct {
	// HalfWidth is how far the road reaches either side of the track, in
	// samples; at least roadMinHalf is levelled.
	HalfWidth float64
	// Away is how far from the track, in samples, the ground was already
	// changed (the route's follow step): the map's own curvature, which
	// the shoulder's width answers to, is measured beyond it.
	Away float64
	// RawCentreline levels a road at least 2 samples wide across its
	// nearest point on the track as given rather than on the smoothed
	// track (smoothLine): tests compare the two.
	RawCentreline bool
}

// Apply levels the road along the track path on m and bends the ground
// back to the terrain over a shoulder of least curvature. It returns how
// far from the track the ground changed.
//
// Across the middle half of the road the height is the terrain's at the
// nearest point of the centreline (read by Catmull–Rom, so that it bends
// smoothly along the track), level across by construction. The
// centreline of a road at least 2 samples wide is the track smoothed
// along its way over a quarter of the road's width (smoothLine): on the
// raw track every GPS jog fans the nearest points out across a wide road
// (a 100 m road on sf-strava-run.gpx: crease ratio 2.57 → 1.39). Towards the
// road's edges it gives way, by a smootherstep, to the road's level
// smoothed along the track: the centreline's heights convolved with a
// cubic B-spline kernel roadLevelReach half-widths wide and normalised
// (corrected roadPasses times so that it keeps the terrain's height on
// the track), which is smooth where the nearest point jumps: inside bends,
// and where GPS jitter fans the nearest points out across a wide road.
// Beyond the road and its shoulder the terrain is kept. In between, the
// change to the terrain is the one of least curvature (leastCurvature):
// it meets the road and the terrain beyond with their slopes, is a cubic
// across a straight road, and has no seam where the nearest piece of the
// track changes. The shoulder is as wide as the cross slopes beside the
// track need (roadShoulders). Before it, the shoulder was a blend by a
// smootherstep weight of the smoothed centreline's density, which bends
// more sharply than the cubic and as much on gentle ground as on steep.
//
// Where the nearest piece of the track jumps from one leg to another
// along the road itself (an out-and-back, a crossing, a hairpin tighter
// than the road), two level roads at different heights would meet in a
// step (172 m between neighbouring samples on TestRoadOverSwitchbacks-
// HasNoStep's track). Within twice the road's width of such a seam the
// road is left to the fill, except its centreline, which keeps the
// ground the follow step left there (it meets both legs as well as one
// surface can) and turns back into the level road by a smootherstep of
// the distance to the seam beyond the road's width. The caller then
// meets the route's points again by its own smooth correction, rather
// than the road moving four samples per point.
func (r Road) Apply(ctx context.Context, m *terrain.Heightmap, path *track.Path) (reach float64, err error) {
	road, away := max(r.HalfWidth, roadMinHalf), r.Away
	line := path.Resample(path.LineSpacing(max(0.5, r.HalfWidth/4)))
	if road >= 2 && !r.RawCentreline {
		line = smoothLine(line, road/2)
	}
	// The shoulder, found along a coarser line (corridor.BandEdges), as wide at
	// each edge as the cross slopes there need.
	band := corridor.BandEdges(line, road+roadMaxShoulder)
	shoulders, err := roadShoulders(ctx, m, band, road, away)
	if err != nil {
		return 0, err
	}
	outer := road + slices.Max(shoulders)
	// The fill runs on the map padded by the band's width (at most
	// roadMaxShoulder), so that a shoulder reaching the map's edge bends
	// as it would inside (the ground beyond the edge is more shoulder, let
	// go where the band or the padding ends) instead of meeting a held
	// border.
	f := newRoadFill(m.Width, m.Height, int(math.Ceil(min(outer, roadMaxShoulder)))+2)
	if err := f.holdRoad(ctx, m, line, road); err != nil {
		return 0, err
	}
	if err := f.guessShoulder(ctx, m, band, shoulders, road, outer); err != nil {
		return 0, err
	}
	if err := f.freeSeams(ctx, road); err != nil {
		return 0, err
	}
	if _, err := leastCurvature(ctx, f.pw, f.ph, f.class, f.delta, roadFillTolerance, 1000); err != nil {
		return 0, err
	}
	for r := range f.h {
		for c := range f.w {
			if i := (r+f.pad)*f.pw + c + f.pad; f.class[i] != fillZero {
				m.Samples[r*f.w+c] = float32(float64(m.Samples[r*f.w+c]) + f.delta[i])
			}
		}
	}
	return outer + 1, nil
}

// roadFill is the grid Apply's least-curvature fill runs on: the w×h
// map padded by pad samples on every side (pw×ph), with each sample's
// class (fillHeld, fillFree or fillZero), the change delta to the
// terrain, where along the track its nearest point lies and its
// distance to it.
type roadFill struct {
	w, h, pad, pw, ph int
	class             []uint8
	delta             []float64
	along             []float64
	dist              []float32
}

func newRoadFill(w, h, pad int) *roadFill {
	pw, ph := w+2*pad, h+2*pad
	return &roadFill{w: w, h: h, pad: pad, pw: pw, ph: ph,
		class: make([]uint8, pw*ph), delta: make([]float64, pw*ph),
		along: make([]float64, pw*ph), dist: make([]float32, pw*ph)}
}

// shift returns edges moved onto the padded grid.
func (f *roadFill) shift(edges [][2]track.Sample) [][2]track.Sample {
	out := make([][2]track.Sample, len(edges))
	for k, e := range edges {
		for j := range e {
			out[k][j] = track.Sample{X: e[j].X + float64(f.pad), Y: e[j].Y + float64(f.pad)}
		}
	}
	return out
}

// inside returns the map's index of the padded grid's sample (row, col),
// and whether it lies on the map.
func (f *roadFill) inside(row, col int) (int, bool) {
	r, c := row-f.pad, col-f.pad
	return r*f.w + c, r >= 0 && c >= 0 && r < f.h && c < f.w
}

// holdRoad holds the road's samples at the road's height: level across
// the middle of the road at the terrain's height at the nearest point of
// line, giving way towards the road's edges to the road's level smoothed
// along the track (roadLevel).
func (f *roadFill) holdRoad(ctx context.Context, m *terrain.Heightmap, line *track.Path, road float64) error {
	edges := corridor.TrackEdges(line)
	// Where along the track each edge starts; segments lie far apart.
	arc := make([]float64, len(edges))
	pos := 0.0
	for k, e := range edges {
		if k > 0 && edges[k-1][1] != e[0] {
			pos += 1e9
		}
		arc[k] = pos
		pos += math.Hypot(e[1].X-e[0].X, e[1].Y-e[0].Y)
	}
	var pts []track.Sample
	for _, seg := range line.Segments {
		pts = append(pts, seg...)
	}
	ds := max(line.Length/line.CellSize/float64(max(len(pts), 1)), 1e-3)
	want := make([]float64, len(pts))
	for i, q := range pts {
		want[i] = corridor.Bilinear(m, q.X, q.Y)
	}
	level, err := roadLevel(ctx, corridor.NewKernel(roadLevelReach*road), pts, want, ds, f.w, f.h)
	if err != nil {
		return err
	}
	grid := &terrain.Heightmap{Width: f.pw, Height: f.ph}
	return corridor.NearestEdges(ctx, grid, f.shift(edges), road, func(row, col, k int, t, d float64) {
		j, ok := f.inside(row, col)
		if !ok {
			return
		}
		a, b := edges[k][0], edges[k][1]
		i := row*f.pw + col
		// Level across the middle of the road, the smoothed level
		// towards its edges.
		across := catmullRom(m, a.X+t*(b.X-a.X), a.Y+t*(b.Y-a.Y))
		s := smootherstep((road - d) / (road / 2))
		f.class[i], f.delta[i] = fillHeld, level[j]+s*(across-level[j])-float64(m.Samples[j])
		f.dist[i] = float32(d)
		f.along[i] = arc[k] + t*math.Hypot(b.X-a.X, b.Y-a.Y)
	})
}

// guessShoulder frees the shoulder's samples, out to shoulders[k] beyond
// the road by band's edge k, with a first guess of the fill: the change
// the road would make there, fading over the shoulder (nothing beyond the
// map's edge).
func (f *roadFill) guessShoulder(ctx context.Context, m *terrain.Heightmap, band [][2]track.Sample, shoulders []float64, road, outer float64) error {
	grid := &terrain.Heightmap{Width: f.pw, Height: f.ph}
	return corridor.NearestEdges(ctx, grid, f.shift(band), outer, func(row, col, k int, t, d float64) {
		i := row*f.pw + col
		shoulder := shoulders[k]
		if f.class[i] == fillHeld || d > road+shoulder {
			return
		}
		f.class[i] = fillFree
		if j, ok := f.inside(row, col); ok {
			a, b := band[k][0], band[k][1]
			e := corridor.Bilinear(m, a.X+t*(b.X-a.X), a.Y+t*(b.Y-a.Y)) - float64(m.Samples[j])
			f.delta[i] = e * road / max(d, road) * (1 - smootherstep((d-road)/shoulder))
		}
	})
}

// freeSeams leaves to the fill the road within twice its width of a seam,
// where neighbours on the road have nearest points further apart along
// the track than a turn within the road's width can take, except the
// centreline, which turns back into the level road by a smootherstep of
// the distance to the seam.
func (f *roadFill) freeSeams(ctx context.Context, road float64) error {
	pw, ph := f.pw, f.ph
	far := 4 * (road + 1)
	seam := make([]bool, pw*ph)
	seamed := false
	for i, k := range f.class {
		if k != fillHeld {
			continue
		}
		for _, j := range [2]int{i + 1, i + pw} {
			if j < pw*ph && (j != i+1 || j%pw != 0) && f.class[j] == fillHeld && math.Abs(f.along[i]-f.along[j]) > far {
				seam[i], seam[j], seamed = true, true, true
			}
		}
	}
	if !seamed {
		return nil
	}
	near, err := squaredDistance(ctx, seam, pw, ph)
	if err != nil {
		return err
	}
	core := road + 1
	for j, d2 := range near {
		if f.class[j] != fillHeld || d2 > 4*core*core {
			continue
		}
		if float64(f.dist[j]) > roadMinHalf {
			f.class[j] = fillFree
		} else {
			f.delta[j] *= smootherstep((math.Sqrt(d2) - core) / core)
		}
	}
	return nil
}

// roadShoulders returns the shoulder's width, in samples, at each of
// edges for a road of half-width road on m: at least roadShoulder times
// the half-width and roadMinShoulder samples, and wide enough, up to
// roadMaxShoulder, that a straight road's least-curvature shoulder on the
// cross slope there bends the ground no more sharply than the 99th
// percentile of the map's own curvature beyond away samples from the
// track (the ground corridor.CreaseRatio compares with). The cross slope is the
// steepest mean slope from the centreline out to a quarter, a half and
// all of the least shoulder, either side: the ground the shoulder meets,
// which on a track cut into a hillside is steeper than at the track. The
// widths are then the largest within roadMaxShoulder along the line, so
// that the shoulder narrows only where the ground it meets has eased.
func roadShoulders(ctx context.Context, m *terrain.Heightmap, edges [][2]track.Sample, road, away float64) ([]float64, error) {
	floor := max(roadShoulder*road, roadMinShoulder)
	widths := make([]float64, len(edges))
	for k := range widths {
		widths[k] = floor
	}
	_, curv, err := corridor.CurvatureSplit(ctx, m, edges, away)
	if err != nil {
		return nil, err
	}
	if len(curv) == 0 {
		return widths, nil
	}
	kappa := corridor.Percentile(curv, corridor.CreasePercentile)
	if !(kappa > 0) {
		return widths, nil
	}
	wide := make([]float64, len(edges))
	for k, e := range edges {
		a, b := e[0], e[1]
		l := math.Hypot(b.X-a.X, b.Y-a.Y)
		if l == 0 {
			continue
		}
		x, y := (a.X+b.X)/2, (a.Y+b.Y)/2
		nx, ny := -(b.Y-a.Y)/l, (b.X-a.X)/l
		h0 := corridor.Bilinear(m, x, y)
		s := 0.0
		for _, f := range [3]float64{0.25, 0.5, 1} {
			o := road + f*floor
			for _, side := range [2]float64{-1, 1} {
				s = max(s, math.Abs(corridor.Bilinear(m, x+side*o*nx, y+side*o*ny)-h0)/o)
			}
		}
		// A straight road's least-curvature shoulder of width W, from a
		// level road of half-width r on a cross slope s back to the
		// slope, is a cubic whose sharpest bend, where it leaves the road,
		// is s·(4W + 6r)/W²; it equals κ at the W below.
		wide[k] = (4*s + math.Sqrt(16*s*s+24*kappa*s*road)) / (2 * kappa)
	}
	// The largest within roadMaxShoulder along the line, edge by edge.
	var pos []float64
	at := 0.0
	for k, e := range edges {
		if k > 0 && edges[k-1][1] != e[0] {
			at += 2 * roadMaxShoulder
		}
		pos = append(pos, at)
		at += math.Hypot(e[1].X-e[0].X, e[1].Y-e[0].Y)
	}
	lo := 0
	for k := range edges {
		for pos[k]-pos[lo] > roadMaxShoulder {
			lo++
		}
		for j := lo; j < len(edges) && pos[j]-pos[k] <= roadMaxShoulder; j++ {
			widths[k] = max(widths[k], min(wide[j], roadMaxShoulder))
		}
	}
	return widths, nil
}

// roadLevel returns the road's height as k's normalised convolution of
// the centreline points pts (ds samples apart), zero beyond k's reach.
// The heights convolved are corrected roadPasses times so that the
// road's height on the centreline is want.
func roadLevel(ctx context.Context, k corridor.Kernel, pts []track.Sample, want []float64, ds float64, w, h int) ([]float64, error) {
	density := make([]float64, w*h)
	for _, q := range pts {
		corridor.Splat(density, w, h, q.X, q.Y, ds)
	}
	if err := k.Smooth(ctx, density, w, h); err != nil {
		return nil, err
	}
	heights := slices.Clone(want)
	level := make([]float64, w*h)
	for pass := 0; ; pass++ {
		clear(level)
		for i, q := range pts {
			corridor.Splat(level, w, h, q.X, q.Y, heights[i]*ds)
		}
		if err := k.Smooth(ctx, level, w, h); err != nil {
			return nil, err
		}
		for i, d := range density {
			if d > 0 {
				level[i] /= d
			}
		}
		if pass == roadPasses {
			return level, nil
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

// catmullRom is m at (x, y) by Catmull–Rom cubic convolution over the
// 4×4 samples around it (clamped at the edges): it passes through every
// sample like bilinear, but its slope is continuous, so a height read
// along a line bends smoothly where the line crosses a row or column of
// samples (bilinear bends there; across a wide level road each bend drew
// a crease from edge to edge).
func catmullRom(m *terrain.Heightmap, x, y float64) float64 {
	c0, r0 := int(math.Floor(x)), int(math.Floor(y))
	fx, fy := x-float64(c0), y-float64(r0)
	weights := func(t float64) [4]float64 {
		t2, t3 := t*t, t*t*t
		return [4]float64{
			(-t3 + 2*t2 - t) / 2,
			(3*t3 - 5*t2 + 2) / 2,
			(-3*t3 + 4*t2 + t) / 2,
			(t3 - t2) / 2,
		}
	}
	wx, wy := weights(fx), weights(fy)
	s := 0.0
	for j := range 4 {
		r := min(max(r0-1+j, 0), m.Height-1)
		row := 0.0
		for i := range 4 {
			c := min(max(c0-1+i, 0), m.Width-1)
			row += wx[i] * float64(m.Samples[r*m.Width+c])
		}
		s += wy[j] * row
	}
	return s
}

// smoothLine returns line with each point moved to the Gaussian-weighted
// mean of its neighbours along its segment (sigma samples of arc, out to
// 3·sigma), as many either side, the window narrowing towards a
// segment's ends so that they stay put. A
// level road is level across its nearest point on this line: on the raw
// line every GPS jog fans the nearest points out across a wide road.
func smoothLine(line *track.Path, sigma float64) *track.Path {
	out := *line
	out.Segments = make([][]track.Sample, len(line.Segments))
	for s, seg := range line.Segments {
		cum := track.Cumulative(seg)
		sm := slices.Clone(seg)
		for i := range seg {
			// Pairs of neighbours at the same count either side, so that a
			// straight, evenly spaced line stays put and the ends do.
			sx, sy, sw := seg[i].X, seg[i].Y, 1.0
			for k := 1; i-k >= 0 && i+k < len(seg); k++ {
				a, b := cum[i]-cum[i-k], cum[i+k]-cum[i]
				if a > 3*sigma || b > 3*sigma {
					break
				}
				wa, wb := math.Exp(-a*a/(2*sigma*sigma)), math.Exp(-b*b/(2*sigma*sigma))
				sx += wa*seg[i-k].X + wb*seg[i+k].X
				sy += wa*seg[i-k].Y + wb*seg[i+k].Y
				sw += wa + wb
			}
			sm[i].X, sm[i].Y = sx/sw, sy/sw
		}
		out.Segments[s] = sm
	}
	return &out
}
