package route

import (
	"math"
	"testing"

	"cordillera/route/track"
	"cordillera/route/track/tracktest"
)

// The map's floor stays near the track: no ground more than the track's
// range plus 50 m below its lowest point, and none below sea level under
// a track above it; a track below sea level keeps its heights. The walks
// are shaped like the real ones whose maps went below the sea: a hilly
// walk of 170–438 m, a coastal route from the shore at 0 m up to 235 m, a
// dead-flat plain at 7–12 m; and a polder at −6 to −1 m.
func TestMapFloorNearTheTrack(t *testing.T) {
	cases := []struct {
		name string
		ele  func(i int) float64
		step float64 // metres between fixes; 4 unless set
	}{
		{"hilly walk", func(i int) float64 { return 304 - 134*math.Cos(float64(i)/300) }, 0},
		{"coast", func(i int) float64 { return 117.5 - 117.5*math.Cos(float64(i)/450) }, 0},
		{"sparse climb", func(i int) float64 { return 295 + 798*math.Sin(float64(i)/50) }, 80},
		{"plain", func(i int) float64 { return 9.5 + 2.5*math.Sin(float64(i)/200) }, 0},
		{"polder", func(i int) float64 { return -3.5 + 2.5*math.Sin(float64(i)/200) }, 0},
	}
	for _, c := range shortOr(cases, cases[1:3]) {
		seg := tracktest.Walk(2800, 4, c.ele)
		if c.step > 0 {
			seg = tracktest.Walk(80, c.step, c.ele)
		}
		res := generateMessy(t, c.name, &track.Track{Format: "synthetic", Segments: [][]track.Point{seg}}, nil)
		lo, hi := res.Path.MinEle, res.Path.MaxEle
		floor := lo - (hi - lo + 50)
		if lo >= 0 {
			floor = max(floor, 0)
		}
		if got := ruleFloor(res); math.Abs(got-floor) > 1e-9 {
			t.Errorf("%s: the rule's floor is %.2f m, want %.2f m", c.name, got, floor)
		}
		if res.Base < floor-0.01 {
			t.Errorf("%s: ground down to %.1f m under a track of %.0f–%.0f m, below the floor %.1f m", c.name, res.Base, lo, hi, floor)
		}
		if err := res.CheckTrack(); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
