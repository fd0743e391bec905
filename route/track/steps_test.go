package track

import "testing"

// A jump of 35 m between two fixes 20 m apart (a grade of 175 %) on level
// ground is a step, as every jump steeper than 100 % is: no path climbs
// that steeply, and a map asked to would miss the track by half the jump
// on one side (with the threshold at 200 % it was left, and the map
// missed its track by 11.9 m).
func TestStepJustSteeperThanAPathRepaired(t *testing.T) {
	seg := make([]Sample, 120)
	for i := range seg {
		e := 100.0
		if i >= 60 {
			e = 135
		}
		seg[i] = Sample{X: 20 * float64(i), Ele: e}
	}
	var p Path
	p.repairSteps([][]Sample{seg})
	if len(p.Repairs) != 1 || p.Repairs[0].Kind != "step" {
		t.Fatalf("repairs %+v, want the 35 m jump over 20 m repaired as one step", p.Repairs)
	}
	if g := (seg[60].Ele - seg[59].Ele) / 20; g > 1 {
		t.Errorf("after the repair the track still climbs %.0f %% between the two fixes", 100*g)
	}
}

// A step made of several steep increments (113, 126, 140 m over three
// fixes 5 m apart, between level ground at 100 m and at 140 m) becomes
// one ramp that rises monotonically: every point inside the step moves by
// the ramp's share less the share the recorded track had made, both
// measured from the level before the step.
func TestElevationStepOfSeveralIncrements(t *testing.T) {
	seg := make([]Sample, 200)
	for i := range seg {
		e := 100.0
		switch {
		case i == 100:
			e = 113
		case i == 101:
			e = 126
		case i >= 102:
			e = 140
		}
		seg[i] = Sample{X: 5 * float64(i), Ele: e}
	}
	var p Path
	p.repairSteps([][]Sample{seg})
	if len(p.Repairs) != 1 || p.Repairs[0].Kind != "step" {
		t.Fatalf("repairs %+v, want one step", p.Repairs)
	}
	for i := 1; i < len(seg); i++ {
		if seg[i].Ele < seg[i-1].Ele-1e-9 {
			t.Fatalf("after the repair the track falls from %.2f m to %.2f m at point %d: the ramp is not monotonic", seg[i-1].Ele, seg[i].Ele, i)
		}
	}
	if seg[0].Ele != 100 || seg[len(seg)-1].Ele != 140 {
		t.Errorf("levels either side moved: %.2f m and %.2f m", seg[0].Ele, seg[len(seg)-1].Ele)
	}
}
