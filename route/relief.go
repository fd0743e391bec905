package route

import (
	"cordillera/route/track"
	"cordillera/terrain"
	"math"
)

// The relief rule: by default the whole map's height range is at most
//
//	relief · (reliefRangeFactor · (track's elevation range) + reliefRangeFloor)
//
// metres, and the random relief adds no more steepness than the track
// shows: the map's slopes (the 99th percentile of the gradient) are at
// most √(g² + s_I²), with g relief times the steepest grade of the track
// between its solved points (at least reliefMinGrade) and s_I the same
// percentile of the interpolant of the points alone (the slopes the
// points themselves need, across switchbacks say). Where the points need
// little, the map keeps within about g; where they need as much as the
// track shows, the map's gradient may reach √2·g (a track's grades are
// slopes along its way, which a path picks gentler than the ground's
// steepest: for random ground the gradient's 99th percentile is 1.18
// times a fixed direction's). The bound grows continuously with g and
// s_I: until 2026-11-27 the map had to keep within g unless the
// interpolant alone broke it, and then the random part alone was held to
// g, so a track whose points needed slopes just under g got almost no
// random relief (sf-strava-run.gpx: 3.7 m of amplitude of the 62.7 m
// fitted, a glassy map around the run) where one just over got all of
// it. Neither bound depends on -levels. The amplitude fitted to the track
// is lowered until the map keeps both; -route-relief raises both bounds
// with the amplitude.
const (
	reliefRangeFactor = 3.0
	reliefRangeFloor  = 100.0
	reliefMinGrade    = 0.05
	reliefSlopeQuant  = 0.99
)

// reliefBounds is the relief rule for one track.
type reliefBounds struct {
	MaxRange float64 // metres, the whole map
	MaxSlope float64 // rise over run: g, the track's steepest grade times relief
	cellSize float64 // metres per sample

	trackMin, trackMax float64 // the track's elevations, metres
}

// newReliefBounds states the rule for path (prepared, metres) read every
// spacing samples (referenceSpacing), at relief times the default.
func newReliefBounds(path *track.Path, spacing, relief float64) *reliefBounds {
	// Steps shorter than half the spacing (where Resample cuts a corner or
	// a segment ends) are left out: over a metre or two, GPS noise reads
	// as a grade of several hundred per cent.
	grade := 0.0
	for _, seg := range path.Resample(spacing).Segments {
		for i := 1; i < len(seg); i++ {
			if d := track.Dist(seg[i-1], seg[i]); d >= spacing/2 {
				d *= path.CellSize
				grade = max(grade, math.Abs(seg[i].Ele-seg[i-1].Ele)/d)
			}
		}
	}
	return &reliefBounds{
		MaxRange: relief * (reliefRangeFactor*(path.MaxEle-path.MinEle) + reliefRangeFloor),
		MaxSlope: relief * max(grade, reliefMinGrade),
		cellSize: path.CellSize,
		trackMin: path.MinEle, trackMax: path.MaxEle,
	}
}

// weights returns the amplitude A ≤ fitted and falloff β of the random
// parts' weights A·β^p (spectrum) under the relief rule, judged on the map
// as soften leaves it, at the spectrum's evaluation points. Where the
// interpolant alone breaks the range bound (a long or steep track's
// run-on past its ends), the range bound is its range.
func (b *reliefBounds) weights(s *spectrum, z0, fitted float64) (a, beta float64) {
	h := make([]float64, len(s.interp))
	scratch := make([]float64, 0, len(s.interp)/4)
	s.heights(h, 0, 1)
	rangeI, slopeI := s.rangeAndSlope(h, scratch, b, z0)
	maxRange := max(b.MaxRange, rangeI)
	keeps := func(a, beta float64) bool {
		s.heights(h, a, beta)
		r, sl := s.rangeAndSlope(h, scratch, b, z0)
		if r > maxRange {
			return false
		}
		return sl <= math.Hypot(b.MaxSlope, slopeI)
	}
	// largest is the largest A ≤ fitted kept at falloff β, by bisection
	// on log A (range and slope both grow with A, nearly).
	largest := func(beta float64) float64 {
		if fitted <= minRelief || keeps(fitted, beta) {
			return fitted
		}
		lo, hi := minRelief, fitted
		if !keeps(lo, beta) {
			return lo
		}
		for range 10 {
			mid := math.Sqrt(lo * hi)
			if keeps(mid, beta) {
				lo = mid
			} else {
				hi = mid
			}
		}
		return lo
	}
	// Of the falloffs tried (each with the largest A the rule allows), the
	// one whose finest part weighs most: a falloff is taken only where it
	// gives every level more relief than none, the coarse levels keeping
	// the range the slopes of the fine ones had cost. Weighing the middle
	// part instead kept 3× the relief on sf-strava-run.gpx (β 0.7) but
	// smoothed the ground around the route, raising the crease ratio
	// (corridor.CreaseRatio) of a gentle lapped track from 2.3 to 3.0.
	best, bestA, bestScore := 1.0, 0.0, -1.0
	if fitted <= minRelief || keeps(fitted, 1) {
		return fitted, 1
	}
	for _, beta := range falloffs {
		a := largest(beta)
		if score := a * math.Pow(beta, float64(len(s.parts)-1)); score > bestScore {
			best, bestA, bestScore = beta, a, score
		}
	}
	return bestA, best
}

// falloffs are the falloffs β weights tries, from none to one that all
// but removes the finest of seven levels (0.4⁶ ≈ 0.004).
var falloffs = []float64{1, 0.85, 0.7, 0.55, 0.4}

// The floor: the map's lowest height is at least the track's lowest
// elevation less the relief rule's spare range either side,
//
//	floor = trackMin − (MaxRange − range)/2 = trackMin − (relief·(1.5·range + 50 m) − range/2)
//
// with range = trackMax − trackMin: trackMin − (range + 50 m) at the
// default relief, the depth at which soften's tanh always ended. Ground around
// a track as far below its lowest point as the rule lets the map span
// beyond its range on either side. The range rule alone left the floor
// free: a map within its range could put all its spare relief below the
// track (a 170–438 m walk on ground down to −263 m). Under a track that
// is above sea level (its lowest point at 0 m or more) the floor is also
// at least 0 m: no ground below the sea beside a land track. A track
// below sea level (a polder, the Dead Sea) keeps its heights and the
// same depth below them.
func (b *reliefBounds) floor() float64 {
	f := b.trackMin - b.spare()
	if b.trackMin >= 0 {
		f = max(f, 0)
	}
	return f
}

// spare is the relief rule's range beyond the track's own, either side.
func (b *reliefBounds) spare() float64 {
	return (b.MaxRange - (b.trackMax - b.trackMin)) / 2
}

// breaks reports whether a map whose heights run from lo to hi metres
// breaks the rule's range or its floor, so that soften must squash it.
func (b *reliefBounds) breaks(lo, hi float64) bool {
	return hi-lo > b.MaxRange || lo < b.floor()
}

// knees are the heights, in metres, within which soften leaves the map as
// it is: the track's own range, a quarter of the spare range above it, and
// half the depth to the floor below it.
func (b *reliefBounds) knees() (lo, hi float64) {
	return b.trackMin - (b.trackMin-b.floor())/2, b.trackMax + b.spare()/2
}

// soften keeps the map's height range within MaxRange, and its lowest
// height above the floor, where lowering the amplitude could not: far
// from the track the interpolant of a long or steep track runs on past
// its ends. Heights between the knees stay as they are; above, they
// approach half the spare range (MaxRange less the track's range) above
// the track, below, the floor, with a tanh whose slope is 1 at the knee,
// so no crease shows. The track's own heights are not touched. m holds
// T, metres = z0 + amp·T.
func (b *reliefBounds) soften(m *terrain.Heightmap, z0, amp float64) {
	if !(b.spare() > 0) {
		return
	}
	lo, hi := b.knees()
	for i, v := range m.Samples {
		h := z0 + amp*float64(v)
		if lo <= h && h <= hi {
			continue
		}
		m.Samples[i] = float32((b.squash(h) - z0) / amp)
	}
}

// squash is soften's transfer of one height h in metres.
func (b *reliefBounds) squash(h float64) float64 {
	spare := b.spare()
	if !(spare > 0) {
		return h
	}
	lo, hi := b.knees()
	switch {
	case h > hi:
		w := spare / 2
		return hi + w*math.Tanh((h-hi)/w)
	case h < lo:
		w := lo - b.floor()
		if w <= 0 { // a track at sea level: the ground stops at it
			return lo
		}
		return lo - w*math.Tanh((lo-h)/w)
	}
	return h
}
