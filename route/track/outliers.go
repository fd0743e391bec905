package track

import (
	"math"
	"slices"
)

// Fragment is a piece of a track left out of the map because it lies far
// from the main body of the track and holds little of it: a stale fix from
// where the receiver was last switched on, a lone point after a jump.
type Fragment struct {
	Points   int     `json:"points"`
	Length   float64 `json:"length_m"`   // metres along it
	Distance float64 `json:"distance_m"` // metres from the main body's bounding box
}

// Repair is a run of elevation outliers replaced by the elevations around
// them (repairElevations), or a step spread over a ramp (repairSteps).
type Repair struct {
	// Kind is "settling" (an altitude converging at the start of a
	// recording or after a pause, repairSettling), "start" or "end"
	// (outliers at a segment's first or last fixes), "spike", "step" or
	// "median" (the median filter's changes to one segment).
	Kind   string  `json:"kind"`
	Points int     `json:"points"`
	Change float64 `json:"change_m"` // the largest change, repaired − recorded, metres
	At     float64 `json:"at_m"`     // metres along the track (gaps not counted) to the largest change
}

// Fragments: pieces (segments after the split at jumps) whose bounding
// boxes come within fragmentLink metres of each other, or within
// fragmentLinkShare of the whole track's length, belong to one body. The
// body with the longest length is the main one; another body is a fragment
// when it holds less than fragmentShare of the points and of the length.
const (
	fragmentLink      = 1000.0
	fragmentLinkShare = 0.05
	fragmentShare     = 0.10
)

// dropFragments removes the bodies of the track that are far from its
// main body and small beside it, recording each in p.Dropped. A map's
// extent is set by the points it must hold: two stray fixes 60 km away
// would otherwise turn a 1 km walk into a 75 km map.
func (p *Path) dropFragments(segs [][]Sample) [][]Sample {
	if len(segs) < 2 {
		return segs
	}
	type box struct{ xLo, xHi, yLo, yHi float64 }
	boxes := make([]box, len(segs))
	lengths := make([]float64, len(segs))
	total, points := 0.0, 0
	for k, seg := range segs {
		b := box{math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)}
		for i, q := range seg {
			b.xLo, b.xHi = min(b.xLo, q.X), max(b.xHi, q.X)
			b.yLo, b.yHi = min(b.yLo, q.Y), max(b.yHi, q.Y)
			if i > 0 {
				lengths[k] += Dist(seg[i-1], q)
			}
		}
		boxes[k] = b
		total += lengths[k]
		points += len(seg)
	}
	gap := func(a, b box) float64 {
		dx := max(a.xLo-b.xHi, b.xLo-a.xHi, 0)
		dy := max(a.yLo-b.yHi, b.yLo-a.yHi, 0)
		return math.Hypot(dx, dy)
	}
	// Union-find over the pieces linked by proximity.
	sets := newDisjointSets(len(segs))
	find := sets.find
	link := max(fragmentLink, fragmentLinkShare*total)
	for i := range segs {
		for j := i + 1; j < len(segs); j++ {
			if gap(boxes[i], boxes[j]) <= link {
				sets.join(i, j)
			}
		}
	}
	type body struct {
		points int
		length float64
		box    box
	}
	bodies := map[int]*body{}
	for k, seg := range segs {
		r := find(k)
		b := bodies[r]
		if b == nil {
			b = &body{box: boxes[k]}
			bodies[r] = b
		}
		b.points += len(seg)
		b.length += lengths[k]
		b.box = box{min(b.box.xLo, boxes[k].xLo), max(b.box.xHi, boxes[k].xHi),
			min(b.box.yLo, boxes[k].yLo), max(b.box.yHi, boxes[k].yHi)}
	}
	if len(bodies) < 2 {
		return segs
	}
	main := -1
	for r, b := range bodies {
		if m := bodies[main]; main < 0 || b.length > m.length || (b.length == m.length && (b.points > m.points || (b.points == m.points && r < main))) {
			main = r
		}
	}
	drop := map[int]bool{}
	roots := make([]int, 0, len(bodies))
	for r := range bodies {
		roots = append(roots, r)
	}
	slices.Sort(roots) // report in track order
	for _, r := range roots {
		b := bodies[r]
		if r == main || float64(b.points) >= fragmentShare*float64(points) || b.length >= fragmentShare*total {
			continue
		}
		drop[r] = true
		p.Dropped = append(p.Dropped, Fragment{Points: b.points, Length: b.length, Distance: gap(b.box, bodies[main].box)})
	}
	out := segs[:0]
	for k, seg := range segs {
		if !drop[find(k)] {
			out = append(out, seg)
		}
	}
	return out
}

// Elevation outliers: a point whose elevation is farther from the median
// of its neighbourhood (outlierWindow metres either side, at least
// outlierMinPoints points) than outlierSigmas robust standard deviations
// of all such residuals, than outlierFloor metres, and than the rise the
// track's own steep grade (its 90th percentile) gives over half the
// window (and over the point's distance from the window's middle, near an
// end), is an outlier.
const (
	outlierWindow    = 50.0
	outlierMinPoints = 3
	outlierSigmas    = 6.0
	outlierFloor     = 15.0
)

// repairElevations finds elevation outliers by robust statistics along
// the track and replaces them by the elevations around them (linear by
// distance, held at the ends), recording each run of them in p.Repairs.
//
// The residual of a point is its elevation less the median over its
// neighbourhood, a window 2·outlierWindow metres long that shifts to stay
// inside the segment at its ends. The median ignores a spike, and at the
// start of a segment, where a phone's barometer settles for the first tens
// of metres, the window reaches past the settling, so the settling points
// stand out as well. The scale is the median absolute residual times
// 1.4826 (the standard deviation for Gaussian noise), over the whole
// track.
func (p *Path) repairElevations(segs [][]Sample) {
	resid := make([][]float64, len(segs))
	offset := make([][]float64, len(segs)) // metres from the window's middle
	var all, grades []float64
	for k, seg := range segs {
		cum := Cumulative(seg)
		resid[k] = make([]float64, len(seg))
		offset[k] = make([]float64, len(seg))
		if len(seg) < 2*outlierMinPoints+1 {
			continue
		}
		all = appendResiduals(all, seg, cum, resid[k], offset[k])
		grades = appendGrades(grades, seg, cum)
	}
	if len(all) == 0 {
		return
	}
	sigma := 1.4826 * median(all)
	grade := 0.0
	if len(grades) > 0 {
		slices.Sort(grades)
		grade = grades[len(grades)*9/10]
	}
	limit := max(outlierFloor, outlierSigmas*sigma, 1.5*grade*outlierWindow)
	outlier := func(k, i int) bool { return math.Abs(resid[k][i]) > limit+grade*offset[k][i] }
	along := 0.0 // metres along the track to the segment's start
	for k, seg := range segs {
		cum := Cumulative(seg)
		for i := 0; i < len(seg); {
			if !outlier(k, i) {
				i++
				continue
			}
			j := i
			for j < len(seg) && outlier(k, j) {
				j++
			}
			if i == 0 && j == len(seg) {
				break // nothing to repair from
			}
			p.repairRun(seg, cum, i, j, along)
			i = j
		}
		along += cum[len(cum)-1]
	}
}

// appendResiduals sets the residual of each point of seg (cum its
// distances along it) and its distance from its window's middle, and
// returns all with the residuals' sizes appended.
func appendResiduals(all []float64, seg []Sample, cum, resid, offset []float64) []float64 {
	buf := make([]float64, 0, 64)
	for i := range seg {
		lo, hi := outlierWindowAround(cum, i)
		buf = buf[:0]
		for j := lo; j <= hi; j++ {
			buf = append(buf, seg[j].Ele)
		}
		resid[i] = seg[i].Ele - median(buf)
		// Off the window's middle (near an end) a climb itself puts the
		// point off the median: allow the track's steep grade for it.
		offset[i] = math.Abs(cum[i] - (cum[lo]+cum[hi])/2)
		all = append(all, math.Abs(resid[i]))
	}
	return all
}

// outlierWindowAround returns the first and last point of point i's
// window along a segment of distances cum: outlierWindow metres and
// outlierMinPoints points either side, reaching further the other way
// near an end.
func outlierWindowAround(cum []float64, i int) (lo, hi int) {
	last := len(cum) - 1
	lo, hi = i, i
	for lo > 0 && (cum[i]-cum[lo] < outlierWindow || i-lo < outlierMinPoints) {
		lo--
	}
	for hi < last && (cum[hi]-cum[i] < outlierWindow || hi-i < outlierMinPoints) {
		hi++
	}
	// Near an end, reach further the other way to keep the window's length.
	for lo == 0 && hi < last && (cum[hi]-cum[lo] < 2*outlierWindow || hi-lo < 2*outlierMinPoints) {
		hi++
	}
	for hi == last && lo > 0 && (cum[hi]-cum[lo] < 2*outlierWindow || hi-lo < 2*outlierMinPoints) {
		lo--
	}
	return lo, hi
}

// appendGrades returns grades with seg's grades over at least half a
// window appended, for the track's own steepness.
func appendGrades(grades []float64, seg []Sample, cum []float64) []float64 {
	j := 0
	for i := range seg {
		for j < len(seg)-1 && cum[j]-cum[i] < outlierWindow/2 {
			j++
		}
		if d := cum[j] - cum[i]; d >= outlierWindow/2 {
			grades = append(grades, math.Abs(seg[j].Ele-seg[i].Ele)/d)
		}
	}
	return grades
}

// repairRun fills in the elevations of the outliers i to j-1 of seg along
// the track and records the repair: a spike, or the start or the end of
// the segment. along is how far along the track seg starts.
func (p *Path) repairRun(seg []Sample, cum []float64, i, j int, along float64) {
	kind := "spike"
	switch {
	case i == 0:
		kind = "start"
	case j == len(seg):
		kind = "end"
	}
	rec := make([]float64, j-i)
	for q := i; q < j; q++ {
		rec[q-i] = seg[q].Ele
		seg[q].Ele = math.NaN()
	}
	p.fillElevation([][]Sample{seg})
	r := Repair{Kind: kind, Points: j - i}
	for q := i; q < j; q++ {
		if c := seg[q].Ele - rec[q-i]; math.Abs(c) > math.Abs(r.Change) {
			r.Change, r.At = c, along+cum[q]
		}
	}
	p.Repairs = append(p.Repairs, r)
}
