package route

import (
	"context"
	"cordillera/route/internal/corridor"
	"cordillera/route/track"
	"cordillera/route/track/tracktest"
	"cordillera/terrain"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// lappedLoop is three laps of a 1.4 km loop whose recorded elevations
// disagree by up to 25 m, as a barometer drifts (nc-run-tcxparser.tcx has
// three laps 33 m apart), on a 1 m GPS noise.
func lappedLoop() *track.Track {
	kLat := track.EarthRadius * math.Pi / 180
	kLon := kLat * math.Cos(46*math.Pi/180)
	rng := rand.New(rand.NewPCG(3, 4))
	var seg []track.Point
	for lap, off := range []float64{0, 15, -10} {
		for i := range 400 {
			a := 2 * math.Pi * float64(i) / 400
			x, y := 250*math.Cos(a)+3*math.Sin(float64(lap*7+i)), 180*math.Sin(a)
			seg = append(seg, track.Point{Lat: 46 + y/kLat, Lon: 14 + x/kLon, Ele: 120 + 20*math.Sin(3*a) + off + rng.NormFloat64(), HasEle: true})
		}
	}
	return &track.Track{Format: "synthetic", Segments: [][]track.Point{seg}}
}

// Following the track between the solved points, with and without a
// road, leaves no crease where passes over the same ground meet. The
// curvature along the route (99th percentile within the ground the
// follow step or the road changed) is 0.94 times the 99th percentile of
// the ground outside without a road and 0.99 with a 4 m one, against the
// issue's target of 2. The road's shoulder as a blend by the smoothed
// centreline's density gave 4.90 with the road; the correction before
// that, the residual of the nearest point of the track fading over a
// lattice cell, and the road that copied the nearest point's height, gave
// 4.3 and 4.4 against the whole map: a seam wherever the nearest pass
// changes.
func TestFollowLeavesNoCrease(t *testing.T) {
	for _, c := range []struct{ road, bound float64 }{{0, 2}, {4, 2}} {
		res := generateMessy(t, "laps", lappedLoop(), func(p *terrain.Params) { p.RoadWidth = c.road })
		ratio, err := res.CreaseRatio(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("road %g m (%.1f samples): crease ratio %.2f, track max error %.2f m", c.road, c.road/res.Map.CellSize, ratio, res.TrackMaxError*res.Map.VerticalScale)
		if !(ratio > 0.5 && ratio <= c.bound) {
			t.Errorf("road %g m: curvature along the route is %.2f times the 99th percentile outside it, want at most %g", c.road, ratio, c.bound)
		}
	}
}

// An altitude that jumps 40 m between two fixes 5 m apart, and goes on
// climbing from there (korita-zbevnica.gpx has one), is a step: spread
// over a ramp as steep as the track's own steep grade, so the map meets
// the whole track within 1 % of its heights or 2 m (generateMessy) rather
// than missing it by half the step on one side.
func TestElevationStepRepaired(t *testing.T) {
	seg := tracktest.Walk(1400, 5, func(i int) float64 {
		e := 400 + 30*math.Sin(float64(i)/90)
		if i >= 700 {
			e += 40
		}
		return e
	})
	res := generateMessy(t, "step", &track.Track{Format: "synthetic", Segments: [][]track.Point{seg}}, nil)
	steps := 0
	for _, r := range res.Path.Repairs {
		if r.Kind == "step" {
			steps++
			if r.Points != 2 || math.Abs(r.Change) < 10 || math.Abs(r.Change) > 20 {
				t.Errorf("step repair %+v: want the 2 points of the step, each side moved by about half of 40 m", r)
			}
		}
	}
	if steps != 1 {
		t.Errorf("repairs %+v, want one step", res.Path.Repairs)
	}
	// Away from the ramp the track keeps its recorded levels.
	first, last := res.Path.Segments[0][0], res.Path.Segments[len(res.Path.Segments)-1]
	end := last[len(last)-1]
	if math.Abs(first.Ele-400) > 1 || math.Abs(end.Ele-(440+30*math.Sin(1399.0/90))) > 1 {
		t.Errorf("track from %.1f m to %.1f m: the levels either side of the step moved", first.Ele, end.Ele)
	}
}

// A road wider than the gap between switchbacks (80 m against 60 m)
// overlaps its own next leg, up to 250 m higher: two level roads would
// meet there in a step (172 m between neighbouring samples when each
// sample takes its nearest leg's level). Between the legs the road keeps
// the followed ground and blends it into the level road, so no step on
// the road is steeper than the hillside beside it (6.4 m against 11.4 m
// per 1.22 m sample), and the track is met within its allowance (2.4 m;
// the shoulder blended by the smoothed centreline missed it by 6.8 m).
// (The corridor covers this map, so the crease ratio compares it with
// itself.)
func TestRoadOverSwitchbacksHasNoStep(t *testing.T) {
	res := generateMessy(t, "switchbacks", switchbacks(), func(p *terrain.Params) { p.RoadWidth = 80 })
	vs := res.Map.VerticalScale
	allowed := trackAllowance(vs)
	m := res.Map
	var curv []float64
	sharpest := 0.0
	for r := 1; r < m.Height-1; r++ {
		for c := 1; c < m.Width-1; c++ {
			curv = append(curv, corridor.Curvature(m, c, r))
			sharpest = max(sharpest, curv[len(curv)-1])
		}
	}
	p99 := corridor.Percentile(curv, corridor.CreasePercentile)
	// The steepest step between neighbouring samples on the road, metres.
	on := make([]bool, len(m.Samples))
	hw := 40 / m.CellSize
	err := corridor.NearestEdges(context.Background(), m, corridor.TrackEdges(res.Path), hw, func(row, col, _ int, _, _ float64) { on[row*m.Width+col] = true })
	if err != nil {
		t.Fatal(err)
	}
	step, offRoad := 0.0, 0.0
	for i, ok := range on {
		for _, j := range []int{i + 1, i + m.Width} {
			if j >= len(on) || (j == i+1 && j%m.Width == 0) {
				continue
			}
			d := math.Abs(float64(m.Samples[i]-m.Samples[j])) * vs
			if ok && on[j] {
				step = max(step, d)
			} else if !ok && !on[j] {
				offRoad = max(offRoad, d)
			}
		}
	}
	t.Logf("sharpest bend %.1f× the map's p99, steepest step on the road %.2f m over %.2f m (off it %.2f m), track max error %.2f m (allowed %.2f m)", sharpest/p99, step, m.CellSize, offRoad, res.TrackMaxError*vs, allowed)
	if step > offRoad {
		t.Errorf("a step of %.2f m on the road, steeper than any beside it (%.2f m)", step, offRoad)
	}
	if res.TrackMaxError*vs > allowed {
		t.Errorf("track missed by %.2f m, allowed %.2f m", res.TrackMaxError*vs, allowed)
	}
}

// A wide road on a jittery track: GPS positions scattered by 2 m about a
// gently bending walk, and a 60 m road. Levelled across its nearest point
// on the raw track, every jog fans the nearest points out across the road
// and draws a line of bends across it (crease ratio 5.7); on the
// smoothed track the ground along the route bends as the ground around
// it does (1.0), and the points are still met.
func TestWideRoadOverGPSJitter(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	kLat := track.EarthRadius * math.Pi / 180
	kLon := kLat * math.Cos(46*math.Pi/180)
	pts := tracktest.Walk(600, 4, tracktest.Rolling)
	for i := range pts {
		pts[i].Lat += 2 * rng.NormFloat64() / kLat
		pts[i].Lon += 2 * rng.NormFloat64() / kLon
	}
	tr := &track.Track{Format: "synthetic", Segments: [][]track.Point{pts}}
	crease := func(smooth bool) float64 {
		saved := rawRoadCentreline
		rawRoadCentreline = !smooth
		defer func() { rawRoadCentreline = saved }()
		res := generateMessy(t, fmt.Sprintf("jitter, smoothed centreline %v", smooth), tr, func(p *terrain.Params) { p.RoadWidth = 60 })
		c, err := res.CreaseRatio(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	raw, smooth := crease(false), crease(true)
	t.Logf("crease ratio with a 60 m road: %.2f on the raw track, %.2f on the smoothed one", raw, smooth)
	if smooth > 0.8*raw {
		t.Errorf("crease %.2f on the smoothed track, %.2f on the raw one", smooth, raw)
	}
}
