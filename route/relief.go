package route

import (
	"cordillera/terrain"
	"math"
	"slices"
)

// The relief rule: by default the whole map's height range is at most
//
//	relief · (reliefRangeFactor · (track's elevation range) + reliefRangeFloor)
//
// metres, and its slopes (the 99th percentile of the gradient) at most
// relief times the steepest grade of the track between its solved points
// (at least reliefMinGrade). Neither depends on -levels. The amplitude
// fitted to the track is lowered until the map keeps both; -route-relief
// raises both bounds with the amplitude.
const (
	reliefRangeFactor = 3.0
	reliefRangeFloor  = 100.0
	reliefMinGrade    = 0.05
	reliefSlopeQuant  = 0.99
)

// reliefBounds is the relief rule for one track.
type reliefBounds struct {
	MaxRange float64 // metres, the whole map
	MaxSlope float64 // rise over run, the map's 99th percentile
	cellSize float64 // metres per sample

	trackMin, trackMax float64 // the track's elevations, metres
}

// newReliefBounds states the rule for path (prepared, metres) solved
// every spacing samples, at relief times the default.
func newReliefBounds(path *Path, spacing, relief float64) *reliefBounds {
	grade := 0.0
	for _, seg := range path.Resample(spacing).Segments {
		for i := 1; i < len(seg); i++ {
			if d := dist(seg[i-1], seg[i]) * path.CellSize; d > 0 {
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

// amplitude returns the largest amplitude A ≤ fitted (metres per unit of
// T) for which the map I + A·R keeps the bounds, where I is the
// interpolant of the track in metres and R the random part in units of T
// (routeTerrain). Both the range and, nearly, the slope grow with A, so a
// bisection on log A finds it. Slopes are read on a grid of at most
// slopeGrid² samples.
func (b *reliefBounds) amplitude(interp, random *terrain.Heightmap, fitted float64) float64 {
	const slopeGrid = 128
	n := interp.Width
	step := max(1, (n-1)/slopeGrid)
	var gI, gR [][2]float64
	for y := step; y < n-1; y += step {
		for x := step; x < n-1; x += step {
			d := func(m *terrain.Heightmap) [2]float64 {
				return [2]float64{float64(m.At(x+1, y)-m.At(x-1, y)) / 2, float64(m.At(x, y+1)-m.At(x, y-1)) / 2}
			}
			gI, gR = append(gI, d(interp)), append(gR, d(random))
		}
	}
	slopes := make([]float64, len(gI))
	keeps := func(a float64) bool {
		lo, hi := math.Inf(1), math.Inf(-1)
		for i, v := range interp.Samples {
			h := float64(v) + a*float64(random.Samples[i])
			lo, hi = min(lo, h), max(hi, h)
		}
		if hi-lo > b.MaxRange {
			return false
		}
		if len(slopes) == 0 {
			return true
		}
		for i := range slopes {
			slopes[i] = math.Hypot(gI[i][0]+a*gR[i][0], gI[i][1]+a*gR[i][1]) / b.cellSize
		}
		slices.Sort(slopes)
		return slopes[int(reliefSlopeQuant*float64(len(slopes)-1))] <= b.MaxSlope
	}
	if fitted <= minRelief || keeps(fitted) {
		return fitted
	}
	lo, hi := minRelief, fitted
	if !keeps(lo) {
		return lo
	}
	for range 20 {
		mid := math.Sqrt(lo * hi)
		if keeps(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// soften keeps the map's height range within MaxRange where lowering the
// amplitude could not: far from the track the interpolant of a long or
// steep track runs on past its ends. Heights within a quarter of the
// spare range (MaxRange less the track's range) of the track's range stay
// as they are; beyond, they approach half the spare range with a tanh,
// whose slope is 1 at the knee, so no crease shows. The track's own
// heights are not touched. m holds T, metres = z0 + amp·T.
func (b *reliefBounds) soften(m *terrain.Heightmap, z0, amp float64) {
	spare := (b.MaxRange - (b.trackMax - b.trackMin)) / 2 // either side
	if !(spare > 0) {
		return
	}
	lo, hi := b.trackMin-spare/2, b.trackMax+spare/2
	w := spare / 2
	for i, v := range m.Samples {
		h := z0 + amp*float64(v)
		switch {
		case h > hi:
			h = hi + w*math.Tanh((h-hi)/w)
		case h < lo:
			h = lo - w*math.Tanh((lo-h)/w)
		default:
			continue
		}
		m.Samples[i] = float32((h - z0) / amp)
	}
}
