package track

import (
	"math"
	"slices"
)

// Elevation steps: a run of consecutive increments of the track that
// each climb (or each fall) more steeply than stepGrade, and more than
// stepFactor times the track's own steep grade (its 90th percentile over
// half an outlier window), and together by more than outlierFloor metres,
// is a step: the receiver's altitude jumped between two fixes a few
// metres apart, as a GPS altitude does when its solution changes, or a
// barometer when it is recalibrated. Both levels are plausible, so
// neither is an outlier; but no ground climbs 35 m in 10 m along a path,
// and a map asked to would miss the track by half the step on one side.
const (
	stepGrade  = 1.0
	stepFactor = 4.0
)

// repairSteps spreads every elevation step (see stepGrade) over a ramp
// as steep as the track's own steep grade, centred on the step: points
// before the step rise and points after it fall by the share of the step
// the ramp has not yet reached, so the track keeps its levels either
// side and its own ups and downs inside the ramp. Each step is recorded
// in p.Repairs as a "step". Positions are in metres (before fit).
func (p *Path) repairSteps(segs [][]Sample) {
	grade := steepGrade(segs)
	ramp := max(grade, stepGrade/4)
	along := 0.0 // metres along the track to the segment's start
	for _, seg := range segs {
		cum := Cumulative(seg)
		steep := func(i int) float64 { // the sign of a steep increment i−1 → i, else 0
			de := seg[i].Ele - seg[i-1].Ele
			if g := math.Abs(de) / max(cum[i]-cum[i-1], 1); g > stepGrade && g > stepFactor*grade {
				return math.Copysign(1, de)
			}
			return 0
		}
		for i := 1; i < len(seg); {
			sign := steep(i)
			if sign == 0 {
				i++
				continue
			}
			j := i + 1
			for j < len(seg) && steep(j) == sign {
				j++
			}
			// The step is the run of increments a−1 → a … j−2 → j−1. The
			// levels either side, medians over half an outlier window, must
			// differ by as much: noise that swings up and down again is no
			// step.
			a, b := i-1, j-1
			step := seg[b].Ele - seg[a].Ele
			i = j
			level := levelAround(seg, cum, b, +1) - levelAround(seg, cum, a, -1)
			if math.Abs(step) <= outlierFloor || level*step <= 0 || math.Abs(level) <= outlierFloor {
				continue
			}
			mid := (cum[a] + cum[b]) / 2
			half := max(math.Abs(step)/ramp, cum[b]-cum[a]) / 2
			change, at := 0.0, 0.0
			base := seg[a].Ele // before the loop moves it
			for q := range seg {
				s := cum[q] - mid
				if math.Abs(s) > half {
					continue
				}
				done := 0.0 // the share of the step the recorded track has made at q
				if q >= b {
					done = 1
				} else if q > a {
					done = (seg[q].Ele - base) / step
				}
				c := step * ((s+half)/(2*half) - done)
				seg[q].Ele += c
				if math.Abs(c) > math.Abs(change) {
					change, at = c, along+cum[q]
				}
			}
			p.Repairs = append(p.Repairs, Repair{Kind: "step", Points: b - a + 1, Change: change, At: at})
		}
		along += cum[len(cum)-1]
	}
}

// levelAround is the median elevation of the points of seg from i over
// half an outlier window (at least outlierMinPoints points) in direction
// dir (+1 along the track, −1 back).
func levelAround(seg []Sample, cum []float64, i, dir int) float64 {
	var v []float64
	for j := i; j >= 0 && j < len(seg); j += dir {
		if math.Abs(cum[j]-cum[i]) > outlierWindow/2 && len(v) >= outlierMinPoints {
			break
		}
		v = append(v, seg[j].Ele)
	}
	return median(v)
}

// steepGrade is the 90th percentile of the track's grades, each over at
// least half an outlier window: the steepest the track itself climbs.
func steepGrade(segs [][]Sample) float64 {
	var grades []float64
	for _, seg := range segs {
		cum := Cumulative(seg)
		j := 0
		for i := range seg {
			for j < len(seg)-1 && cum[j]-cum[i] < outlierWindow/2 {
				j++
			}
			if d := cum[j] - cum[i]; d >= outlierWindow/2 {
				grades = append(grades, math.Abs(seg[j].Ele-seg[i].Ele)/d)
			}
		}
	}
	if len(grades) == 0 {
		return 0
	}
	slices.Sort(grades)
	return grades[len(grades)*9/10]
}
