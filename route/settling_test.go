package route

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"cordillera/route/track"
	"cordillera/route/track/tracktest"
)

// settlingWalk is a 1 Hz walk of two recordings, paused in between: on
// rolling ground (200 ± 15 m) whose altitude converges over the first
// ~100 fixes from 230 m above it (a barometer warming up), and after the
// pause from 70 m below it, with half a metre of altitude noise.
func settlingWalk() (*track.Track, func(i int) float64) {
	rng := rand.New(rand.NewPCG(7, 11))
	ground := func(i int) float64 { return 200 + 15*math.Sin(float64(i)/150) }
	pts := tracktest.Walk(3000, 1.2, ground)
	for i := range pts {
		pts[i].Ele += 0.5 * rng.NormFloat64()
		if i < 1500 {
			pts[i].Ele += 230 * math.Exp(-float64(i)/25)
		} else {
			pts[i].Ele -= 70 * math.Exp(-float64(i-1500)/20)
		}
	}
	return &track.Track{Format: "synthetic", Segments: [][]track.Point{pts[:1500], pts[1500:]}}, ground
}

// Settling at the start and after a pause is repaired and reported as
// "settling": the track keeps within a few metres of its ground. Seen
// failing without the settling repair: 34 and 19 fixes repaired as
// outliers at the segments' starts, the track still 62 m off its ground.
func TestSettlingAtStartAndAfterPause(t *testing.T) {
	tr, ground := settlingWalk()
	path, err := track.Prepare(tr, track.Options{Size: 513, Margin: 0.1, MinCellSize: 1, MedianWindow: 5})
	if err != nil {
		t.Fatal(err)
	}
	var settling []track.Repair
	for _, r := range path.Repairs {
		if r.Kind == "settling" {
			settling = append(settling, r)
		}
	}
	if len(settling) != 2 || settling[0].Change > -150 || settling[1].Change < 40 || settling[1].At < 1790 {
		t.Errorf("repairs %+v; want two settling repairs, about −230 m at the start and +70 m after the pause (1.8 km along)", path.Repairs)
	}
	worst := 0.0
	for k, seg := range path.Segments {
		for i, q := range seg {
			worst = max(worst, math.Abs(q.Ele-ground(i+1500*k)))
		}
	}
	if worst > 5 {
		t.Errorf("the repaired track is up to %.1f m off its ground; want within 5 m (track %.0f–%.0f m)", worst, path.MinEle, path.MaxEle)
	}
	res := &Result{Path: path}
	if !strings.Contains(strings.Join(res.Notes(), "\n"), "settling") {
		t.Errorf("notes %q do not say settling", res.Notes())
	}
}
