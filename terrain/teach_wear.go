package terrain

import "math"

// TeachingDtShare is the share of the map's relief by which the fluvial
// lesson's time step lifts the map's highest point.
const TeachingDtShare = 1.0 / 50

// FluvialTeachingDt is the largest time step Δt, in years, the fluvial
// lesson takes for m. The stage's own Δt is made for a run to steady
// state in a few dozen steps: at the defaults Δt·U lifts the highest
// point 1000 m a step, more than a small map's whole relief, and two
// steps turn it into mesas. The lesson's step lifts the highest point by
// at most TeachingDtShare of m's relief, Δt rounded down to 1, 2 or 5
// times a power of ten so that it reads as a number, and never more than
// p's Δt. A flat map, or no uplift, keeps p's Δt.
func FluvialTeachingDt(m *Heightmap, p Params) float64 {
	lo, hi := m.Range()
	relief := float64(hi-lo) * m.VerticalScale
	if relief <= 0 || p.FluvialUplift <= 0 {
		return p.FluvialDt
	}
	return min(roundDown125(TeachingDtShare*relief/p.FluvialUplift), p.FluvialDt)
}

// LowerTeachingDt is the time step below dt on the 1, 2, 5 series.
func LowerTeachingDt(dt float64) float64 { return roundDown125(dt * 0.99) }

// roundDown125 rounds dt > 0 down to 1, 2 or 5 times a power of ten.
func roundDown125(dt float64) float64 {
	decade := math.Pow(10, math.Floor(math.Log10(dt)))
	if 10*decade <= dt { // Log10 of a power of ten may fall just short of it
		decade *= 10
	}
	step := decade
	for _, f := range []float64{2, 5} {
		if f*decade <= dt {
			step = f * decade
		}
	}
	return step
}
