package track

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// EarthRadius is the mean radius of the Earth in metres (IUGG), used by the
// local projection.
const EarthRadius = 6371008.8

// Options says how Prepare fits a track into a square map.
type Options struct {
	Size         int     // samples per side of the map
	Margin       float64 // fraction of the side kept free of the route on each side, in [0, 0.5)
	MinCellSize  float64 // metres per sample: the real scale, kept when the route fits at it
	MedianWindow int     // points in the elevation median filter; 0 or 1 turns it off
	KeepAll      bool    // keep far fragments and elevation outliers as recorded
}

// Sample is a prepared route point: X (column) and Y (row) in map samples,
// fractional, and Ele in metres.
type Sample struct {
	X, Y, Ele float64
}

// Path is a track prepared for a map: positions in map samples, segments
// that do not bridge gaps, and an elevation at every point.
type Path struct {
	Segments [][]Sample
	CellSize float64 // metres per sample
	Length   float64 // metres along the segments; gaps are not counted
	MinEle   float64 // lowest elevation in metres, after filtering
	MaxEle   float64 // highest elevation in metres, after filtering

	// CentreLat and CentreLon (degrees) are the position of the map's
	// centre sample.
	CentreLat, CentreLon float64
	Duplicates           int      // repeated positions removed
	Splits               int      // jumps at which a segment was split
	NoElevation          int      // points dropped because their segment had no elevation at all
	NonFinite            int      // elevations that were NaN or infinite in the file, treated as missing
	Warnings             []string // the Track's, what was wrong with the file read all the same

	// Dropped are the fragments left out as far from the main body of the
	// track (dropFragments); Repairs the elevation outliers replaced
	// (repairElevations). Both stay empty with Options.KeepAll.
	Dropped []Fragment
	Repairs []Repair

	centre         tangentPlane // the projection
	planeX, planeY float64      // the map's centre sample on the plane, metres east and north
	size           int          // samples per side of the map, 0 if not fitted
}

// Plane is the map's place on the Earth for GIS tools: the map is a square
// of the azimuthal equidistant projection, on a sphere of EarthRadius,
// centred at (Lat0, Lon0) in degrees; the map's centre sample lies X
// metres east and Y metres north of that centre.
type Plane struct {
	Lat0, Lon0 float64
	X, Y       float64
}

// Plane returns where the fitted map lies on the projection plane.
func (p *Path) Plane() Plane {
	return Plane{Lat0: p.centre.lat0, Lon0: p.centre.lon0, X: p.planeX, Y: p.planeY}
}

// LatLon returns the latitude and longitude (degrees) of the map position
// (col, row), in samples, of the fitted map.
func (p *Path) LatLon(col, row float64) (lat, lon float64) {
	mid := float64(p.size-1) / 2
	return p.centre.inverse(p.planeX+(col-mid)*p.CellSize, p.planeY-(row-mid)*p.CellSize)
}

// Jumps: a step longer than jumpFactor times the track's median step, and
// longer than minJump metres, is a gap (a lost signal, a ride in a car),
// not a stretch of route to be filled in.
const (
	jumpFactor = 25
	minJump    = 100.0
)

// duplicateDistance is how close, in metres, two consecutive points must be
// to count as the same position (GPS loggers repeat fixes while standing).
const duplicateDistance = 0.01

// Prepare fits t into a map (paper 3.1):
//
//  0. Of a file holding several recordings far apart (Track.Parts), keep
//     one, Track.Part or the longest, with a warning naming the others.
//  1. Project latitude and longitude to local metres on the plane tangent
//     to the Earth at the track's centre (azimuthal equidistant, project):
//     right near the poles and across the antimeridian, and over a track
//     tens of kilometres across the scale error stays under 10⁻⁵.
//  2. Remove repeated positions and split segments at jumps.
//  3. Fill in missing elevations along each segment (linearly by distance);
//     a segment with none at all is dropped.
//  4. Drop fragments far from the main body of the track (dropFragments),
//     unless opt.KeepAll.
//  5. Take off altitude settling at the start of every segment
//     (repairSettling), repair elevation outliers and spikes, found by
//     robust statistics along the track (repairElevations), and spread
//     steps, altitudes that jump tens of metres between neighbouring fixes
//     (repairSteps), unless opt.KeepAll.
//  6. Median-filter the elevations over opt.MedianWindow points: GPS
//     elevations carry spikes of 100 m and more that no terrain has.
//  7. Fit the track into the map, centred, with opt.Margin free on every
//     side and its aspect kept: at opt.MinCellSize metres per sample when it
//     fits at that scale, at a coarser scale otherwise.
func Prepare(t *Track, opt Options) (*Path, error) {
	if opt.Size < 2 {
		return nil, fmt.Errorf("route: map size %d is too small", opt.Size)
	}
	if !(opt.Margin >= 0 && opt.Margin < 0.5) {
		return nil, fmt.Errorf("route: margin %v is not in [0, 0.5)", opt.Margin)
	}
	if !(opt.MinCellSize > 0) || math.IsInf(opt.MinCellSize, 0) {
		return nil, fmt.Errorf("route: cell size %v must be positive", opt.MinCellSize)
	}
	if err := t.Check(); err != nil {
		return nil, err
	}
	t = t.chosenPart()
	path := &Path{NonFinite: t.NonFinite, Warnings: t.Warnings}
	segs := path.project(t)
	segs = path.dropDuplicateGeometry(segs, t.Labels)
	segs = path.removeDuplicates(segs)
	segs = path.splitJumps(segs)
	segs = path.fillElevation(segs)
	if len(segs) == 0 {
		return nil, errors.New("route: no segment has both a position and an elevation")
	}
	if !opt.KeepAll {
		segs = path.dropFragments(segs)
		path.repairSettling(segs)
		path.repairElevations(segs)
		path.repairSteps(segs)
	}
	along := 0.0 // metres along the track to the segment's start
	for _, seg := range segs {
		if n, change, at := medianFilter(seg, opt.MedianWindow); n > 0 {
			path.Repairs = append(path.Repairs, Repair{Kind: "median", Points: n, Change: change, At: along + Cumulative(seg)[at]})
		}
		along += Cumulative(seg)[len(seg)-1]
	}
	if err := path.fit(segs, opt); err != nil {
		return nil, err
	}
	return path, nil
}

// project converts every point to metres east (X) and north (Y) on the
// plane tangent to the Earth at the track's centre, by the azimuthal
// equidistant projection (Snyder, "Map Projections: A Working Manual",
// eqs. 25-2, 3-4, 22-4, 22-5): distances and bearings from the centre
// are kept exactly, and over a track tens of kilometres across the scale
// error stays under 10⁻⁵. The centre is the mean of the points as unit
// vectors, so a track around a pole or across the antimeridian is
// projected as it lies, not cut or stretched along a parallel.
func (p *Path) project(t *Track) [][]Sample {
	c := trackCentre(t)
	segs := make([][]Sample, 0, len(t.Segments))
	for _, seg := range t.Segments {
		out := make([]Sample, len(seg))
		for i, q := range seg {
			ele := math.NaN() // missing, filled in later
			if q.HasEle {
				ele = q.Ele
			}
			x, y := c.forward(q.Lat, q.Lon)
			out[i] = Sample{X: x, Y: y, Ele: ele}
		}
		segs = append(segs, out)
	}
	p.centre = c
	return segs
}

// tangentPlane is the azimuthal equidistant projection around (φ₀, λ₀).
type tangentPlane struct {
	lat0, lon0       float64 // degrees
	sinLat0, cosLat0 float64
}

// trackCentre is the centre of the projection: the direction of the sum of
// the points' unit vectors. Should they cancel out (points spread around
// the whole Earth), the first point is the centre.
func trackCentre(t *Track) tangentPlane {
	const rad = math.Pi / 180
	var sx, sy, sz float64
	for _, seg := range t.Segments {
		for _, q := range seg {
			sx += math.Cos(q.Lat*rad) * math.Cos(q.Lon*rad)
			sy += math.Cos(q.Lat*rad) * math.Sin(q.Lon*rad)
			sz += math.Sin(q.Lat * rad)
		}
	}
	lat0, lon0 := t.Segments[0][0].Lat, t.Segments[0][0].Lon
	if n := math.Sqrt(sx*sx + sy*sy + sz*sz); n > 1e-9*float64(t.Points()) {
		lat0, lon0 = math.Atan2(sz, math.Hypot(sx, sy))/rad, math.Atan2(sy, sx)/rad
	}
	return newTangentPlane(lat0, lon0)
}

func newTangentPlane(lat0, lon0 float64) tangentPlane {
	s, c := math.Sincos(lat0 * math.Pi / 180)
	return tangentPlane{lat0: lat0, lon0: lon0, sinLat0: s, cosLat0: c}
}

// forward returns the metres east and north of (lat, lon) on the plane:
// the point lies at angular distance c from the centre in the direction
// (x′, y′), with sin c = |(x′, y′)|, so x = R·c·x′/sin c and likewise y.
func (tp tangentPlane) forward(lat, lon float64) (x, y float64) {
	const rad = math.Pi / 180
	sinLat, cosLat := math.Sincos(lat * rad)
	sinDLon, cosDLon := math.Sincos((lon - tp.lon0) * rad)
	xp := cosLat * sinDLon
	yp := tp.cosLat0*sinLat - tp.sinLat0*cosLat*cosDLon
	cosC := tp.sinLat0*sinLat + tp.cosLat0*cosLat*cosDLon
	sinC := math.Hypot(xp, yp)
	k := 1.0 // c/sin c, 1 at the centre
	if sinC > 0 {
		k = math.Atan2(sinC, cosC) / sinC
	}
	return EarthRadius * k * xp, EarthRadius * k * yp
}

// inverse returns the latitude and longitude of the point x metres east and
// y north on the plane (Snyder, eqs. 20-14, 20-15 with c = ρ/R).
func (tp tangentPlane) inverse(x, y float64) (lat, lon float64) {
	const rad = math.Pi / 180
	rho := math.Hypot(x, y)
	if rho == 0 {
		return tp.lat0, tp.lon0
	}
	sinC, cosC := math.Sincos(rho / EarthRadius)
	lat = math.Asin(min(max(cosC*tp.sinLat0+y*sinC*tp.cosLat0/rho, -1), 1)) / rad
	lon = tp.lon0 + math.Atan2(x*sinC, rho*tp.cosLat0*cosC-y*tp.sinLat0*sinC)/rad
	return lat, math.Mod(lon+540, 360) - 180
}

// removeDuplicates drops points at the position of the point before them,
// keeping the first (with its elevation, or the first elevation among the
// repeats when it has none).
func (p *Path) removeDuplicates(segs [][]Sample) [][]Sample {
	for k, seg := range segs {
		out := seg[:1]
		for _, q := range seg[1:] {
			last := &out[len(out)-1]
			if math.Hypot(q.X-last.X, q.Y-last.Y) < duplicateDistance {
				if math.IsNaN(last.Ele) {
					last.Ele = q.Ele
				}
				p.Duplicates++
				continue
			}
			out = append(out, q)
		}
		segs[k] = out
	}
	return segs
}

// splitJumps splits segments at steps much longer than the track's median
// step; in a segment whose own median step is itself such a jump (a
// sparse route, camps kilometres apart, recorded beside a dense track),
// at steps much longer than its own, or the dense track's median would
// break it into single points. The segment's median is the lower one, so
// that a short segment of one step and one jump is split.
func (p *Path) splitJumps(segs [][]Sample) [][]Sample {
	var steps []float64
	for _, seg := range segs {
		for i := 1; i < len(seg); i++ {
			steps = append(steps, Dist(seg[i-1], seg[i]))
		}
	}
	if len(steps) == 0 {
		return segs
	}
	slices.Sort(steps)
	typical := steps[len(steps)/2]
	var out [][]Sample
	for _, seg := range segs {
		own := make([]float64, 0, len(seg))
		for i := 1; i < len(seg); i++ {
			own = append(own, Dist(seg[i-1], seg[i]))
		}
		limit := max(jumpFactor*typical, minJump)
		if len(own) > 0 {
			if slices.Sort(own); own[(len(own)-1)/2] > limit {
				limit = jumpFactor * own[(len(own)-1)/2]
			}
		}
		start := 0
		for i := 1; i < len(seg); i++ {
			if Dist(seg[i-1], seg[i]) > limit {
				out = append(out, seg[start:i])
				start = i
				p.Splits++
			}
		}
		out = append(out, seg[start:])
	}
	return out
}

// fillElevation interpolates missing elevations linearly by distance along
// each segment, holding the first and last known value at the ends, and
// drops segments with no elevation at all.
func (p *Path) fillElevation(segs [][]Sample) [][]Sample {
	out := segs[:0]
	for _, seg := range segs {
		prev := -1 // index of the last point with an elevation
		for i := range seg {
			if math.IsNaN(seg[i].Ele) {
				continue
			}
			switch {
			case prev < 0:
				for j := 0; j < i; j++ {
					seg[j].Ele = seg[i].Ele
				}
			case i > prev+1:
				total, d := 0.0, make([]float64, i-prev)
				for j := prev + 1; j <= i; j++ {
					total += Dist(seg[j-1], seg[j])
					d[j-prev-1] = total
				}
				for j := prev + 1; j < i; j++ {
					f := d[j-prev-1] / total
					seg[j].Ele = seg[prev].Ele + f*(seg[i].Ele-seg[prev].Ele)
				}
			}
			prev = i
		}
		if prev < 0 {
			p.NoElevation += len(seg)
			continue
		}
		for j := prev + 1; j < len(seg); j++ {
			seg[j].Ele = seg[prev].Ele
		}
		out = append(out, seg)
	}
	return out
}

// medianFilter replaces every elevation by the median of the window points
// centred on it (Tukey's running median), unless the change would be
// more than outlierFloor metres and the point lies on its neighbours'
// grades (onGrade): a summit between two climbs, or a camp on a sparse
// route whose neighbours are kilometres away, is the track, not noise,
// and a blind median cut the top two camps of a sparse summit route and
// 1850 m off its map. Changes within outlierFloor are a GPS's altitude
// noise, which the median smooths whatever the grades (on a dense track
// noise is as steep as its neighbours' noise). Near the ends the window shrinks to stay
// centred, and the end points follow Tukey's end-point rule,
// y₀ = median(x₀, y₁, 3y₁ − 2y₂): a straight climb passes unchanged and a
// spike on the first point goes too. A median removes a spike shorter than
// half the window entirely and keeps steps sharp, where a mean would smear
// both. It returns what it changed: the points, and the largest change
// (filtered − recorded, metres) and the index of its point.
func medianFilter(seg []Sample, window int) (points int, change float64, at int) {
	n := len(seg)
	if window < 2 || n < 3 {
		return 0, 0, 0
	}
	half := window / 2
	ele := make([]float64, n)
	for i := range seg {
		ele[i] = seg[i].Ele
	}
	buf := make([]float64, 0, window+1)
	for i := 1; i < n-1; i++ {
		h := min(half, i, n-1-i)
		buf = append(buf[:0], ele[i-h:i+h+1]...)
		if m := median(buf); m != ele[i] && (math.Abs(m-ele[i]) <= outlierFloor || !onGrade(seg, ele, i, math.Abs(m-ele[i]))) {
			seg[i].Ele = m
		}
	}
	end := func(x, y1, y2 float64) float64 { return median([]float64{x, y1, 3*y1 - 2*y2}) }
	seg[0].Ele = end(ele[0], seg[1].Ele, seg[2].Ele)
	seg[n-1].Ele = end(ele[n-1], seg[n-2].Ele, seg[n-3].Ele)
	for i := range seg {
		if c := seg[i].Ele - ele[i]; c != 0 {
			points++
			if math.Abs(c) > math.Abs(change) {
				change, at = c, i
			}
		}
	}
	return points, change, at
}

// onGrade reports whether point i of seg (elevations ele, positions in
// metres) lies on its neighbours' grades: the step into it climbs as the
// step before that one does, or the step out of it as the step after,
// within half of the larger of change metres (the change a filter would
// make to it) and that neighbouring step's rise over the same run. A
// spike is on neither: its step in and its step out both break from the
// steps around them by the spike's height, where the filter's change is
// that height too. A summit between two climbs, a valley between two
// descents, a bend from flat to steep lie on the grade of one side.
func onGrade(seg []Sample, ele []float64, i int, change float64) bool {
	step := func(a, b int) (rise, run float64) {
		return ele[b] - ele[a], max(Dist(seg[a], seg[b]), duplicateDistance)
	}
	along := func(a, b, c, d int) bool { // does step c→d climb as step a→b?
		rise, run := step(a, b)
		r, n := step(c, d)
		want := rise / run * n
		return math.Abs(r-want) <= max(change, math.Abs(want))/2
	}
	return (i >= 2 && along(i-2, i-1, i-1, i)) || (i+2 < len(seg) && along(i+1, i+2, i, i+1))
}

func median(v []float64) float64 {
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

// fit places the projected track (metres) on the map (samples).
func (p *Path) fit(segs [][]Sample, opt Options) error {
	xLo, xHi := math.Inf(1), math.Inf(-1)
	yLo, yHi := math.Inf(1), math.Inf(-1)
	p.MinEle, p.MaxEle = math.Inf(1), math.Inf(-1)
	for _, seg := range segs {
		for i, q := range seg {
			xLo, xHi = min(xLo, q.X), max(xHi, q.X)
			yLo, yHi = min(yLo, q.Y), max(yHi, q.Y)
			p.MinEle, p.MaxEle = min(p.MinEle, q.Ele), max(p.MaxEle, q.Ele)
			if i > 0 {
				p.Length += Dist(seg[i-1], q)
			}
		}
	}
	extent := max(xHi-xLo, yHi-yLo)
	if extent < duplicateDistance {
		return errors.New("route: every point is at the same position")
	}
	usable := float64(opt.Size-1) * (1 - 2*opt.Margin)
	p.CellSize = max(opt.MinCellSize, extent/usable)
	p.size = opt.Size
	mid := float64(opt.Size-1) / 2
	cx, cy := (xLo+xHi)/2, (yLo+yHi)/2
	p.planeX, p.planeY = cx, cy
	p.CentreLat, p.CentreLon = p.centre.inverse(cx, cy)
	for _, seg := range segs {
		for i, q := range seg {
			// Rows grow southwards: north is up in the image.
			seg[i].X = mid + (q.X-cx)/p.CellSize
			seg[i].Y = mid - (q.Y-cy)/p.CellSize
		}
	}
	p.Segments = segs
	return nil
}

// Dist is the distance between two samples, in samples.
func Dist(a, b Sample) float64 { return math.Hypot(b.X-a.X, b.Y-a.Y) }

// Points returns the number of points in all segments.
func (p *Path) Points() int {
	n := 0
	for _, seg := range p.Segments {
		n += len(seg)
	}
	return n
}

// Resample returns a copy of p whose segments have evenly spaced points,
// at most spacing samples apart (the spacing of each segment is its length
// divided by a whole number of steps, so both ends stay). Elevations are
// interpolated linearly along the segment. Gaps between segments stay gaps.
func (p *Path) Resample(spacing float64) *Path {
	q := *p
	q.Segments = make([][]Sample, 0, len(p.Segments))
	for _, seg := range p.Segments {
		q.Segments = append(q.Segments, resampleSegment(seg, spacing))
	}
	return &q
}

// MaxLinePoints bounds the points Resample and Densify make of a track
// (LineSpacing): 24 bytes each, so a track of any length and noise costs
// at most 12 MB per copy beyond its own points. On a map of fewer than
// 2·MaxLinePoints samples the bound is half its samples: a line longer
// than that passes every sample more than once and tells the map nothing
// more.
const MaxLinePoints = 1 << 19

// LineSpacing returns spacing, or the coarser spacing at which the whole
// track takes its bound of points (MaxLinePoints): memory follows the
// points kept, not the track's length over the cell size.
func (p *Path) LineSpacing(spacing float64) float64 {
	most := float64(MaxLinePoints)
	if p.size > 0 {
		most = min(most, float64(p.size*p.size/2))
	}
	return max(spacing, p.Length/p.CellSize/most)
}

// Densify returns a copy of p with points inserted, evenly, into every
// step longer than step samples (or LineSpacing(step)), keeping every
// point p has: where Resample moves the points, this keeps the track's
// corners.
func (p *Path) Densify(step float64) *Path {
	step = p.LineSpacing(step)
	q := *p
	q.Segments = make([][]Sample, 0, len(p.Segments))
	for _, seg := range p.Segments {
		n := len(seg)
		for i := 1; i < len(seg); i++ {
			n += max(int(math.Ceil(Dist(seg[i-1], seg[i])/step))-1, 0)
		}
		out := make([]Sample, 0, n)
		for i, b := range seg {
			if i > 0 {
				a := seg[i-1]
				k := max(int(math.Ceil(Dist(a, b)/step)), 1)
				for j := 1; j < k; j++ {
					f := float64(j) / float64(k)
					out = append(out, Sample{X: a.X + f*(b.X-a.X), Y: a.Y + f*(b.Y-a.Y), Ele: a.Ele + f*(b.Ele-a.Ele)})
				}
			}
			out = append(out, b)
		}
		q.Segments = append(q.Segments, out)
	}
	return &q
}

// Cumulative returns the distance along seg from its first point to each
// of its points, in the units of its positions.
func Cumulative(seg []Sample) []float64 {
	cum := make([]float64, len(seg))
	for i := 1; i < len(seg); i++ {
		cum[i] = cum[i-1] + Dist(seg[i-1], seg[i])
	}
	return cum
}

func resampleSegment(seg []Sample, spacing float64) []Sample {
	if len(seg) < 2 {
		return slices.Clone(seg)
	}
	cum := Cumulative(seg)
	total := cum[len(cum)-1]
	steps := max(1, int(math.Ceil(total/spacing-1e-9)))
	out := make([]Sample, 0, steps+1)
	j := 0
	for k := 0; k <= steps; k++ {
		s := total * float64(k) / float64(steps)
		for j < len(seg)-2 && cum[j+1] < s {
			j++
		}
		a, b := seg[j], seg[j+1]
		f := 0.0
		if l := cum[j+1] - cum[j]; l > 0 {
			f = min(max((s-cum[j])/l, 0), 1)
		}
		out = append(out, Sample{X: a.X + f*(b.X-a.X), Y: a.Y + f*(b.Y-a.Y), Ele: a.Ele + f*(b.Ele-a.Ele)})
	}
	return out
}
