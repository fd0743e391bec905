package track

import (
	"math"
	"strings"
	"testing"
)

// line makes a segment of n points northwards from (lat, lon), step metres
// apart, with elevation ele(i).
func line(lat, lon float64, n int, step float64, ele func(i int) float64) []Point {
	seg := make([]Point, n)
	for i := range seg {
		seg[i] = Point{Lat: lat + float64(i)*step/(EarthRadius*math.Pi/180), Lon: lon, Ele: ele(i), HasEle: true}
	}
	return seg
}

func flat(int) float64 { return 100 }

func opts() Options { return Options{Size: 1025, Margin: 0.1, MinCellSize: 1, MedianWindow: 0} }

func TestProjectionDistances(t *testing.T) {
	cases := []struct {
		a, b Point
		want float64 // metres
	}{
		{Point{Lat: 46, Lon: 14}, Point{Lat: 46.01, Lon: 14}, 1111.95},
		{Point{Lat: 60, Lon: 10}, Point{Lat: 60, Lon: 10.01}, 555.97},
		{Point{Lat: 0, Lon: 179.999}, Point{Lat: 0, Lon: -179.999}, 222.39}, // across the antimeridian
	}
	for _, c := range cases {
		c.a.HasEle, c.b.HasEle = true, true
		p, err := Prepare(&Track{Segments: [][]Point{{c.a, c.b}}}, opts())
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(p.Length-c.want) > 0.01 {
			t.Errorf("%v → %v: %.2f m, want %.2f", c.a, c.b, p.Length, c.want)
		}
	}
}

// A loop 5 km around the North Pole, and one across the antimeridian at
// 80° N, keep their shape: a circle of the real size, as wide as it is
// tall, centred on the map at its true centre. (An equirectangular
// projection flattens the polar loop onto one row.)
func TestProjectionNearThePole(t *testing.T) {
	cases := []struct {
		lat0, lon0 float64 // the loop's centre
		radius     float64 // metres
	}{{90, 0, 5000}, {80, 180, 2000}, {-89.99, 45, 3000}}
	for _, c := range cases {
		centre := newTangentPlane(c.lat0, c.lon0)
		seg := make([]Point, 360)
		for i := range seg {
			a := 2 * math.Pi * float64(i) / float64(len(seg))
			lat, lon := centre.inverse(c.radius*math.Cos(a), c.radius*math.Sin(a))
			seg[i] = Point{Lat: lat, Lon: lon, Ele: 100, HasEle: true}
		}
		p, err := Prepare(&Track{Segments: [][]Point{seg}}, opts())
		if err != nil {
			t.Fatal(err)
		}
		xLo, xHi, yLo, yHi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for _, q := range p.Segments[0] {
			xLo, xHi, yLo, yHi = min(xLo, q.X), max(xHi, q.X), min(yLo, q.Y), max(yHi, q.Y)
		}
		width, height := (xHi-xLo)*p.CellSize, (yHi-yLo)*p.CellSize
		if math.Abs(width-2*c.radius) > 1 || math.Abs(height-2*c.radius) > 1 || math.Abs(p.Length-2*math.Pi*c.radius) > 0.01*p.Length ||
			math.Abs(p.CentreLat-c.lat0) > 1e-3 || (math.Abs(c.lat0) < 89 && math.Abs(math.Mod(p.CentreLon-c.lon0+540, 360)-180) > 1e-3) {
			t.Errorf("loop around (%g, %g): %.1f × %.1f m, %.1f m long, centre (%.4f, %.4f); want %.0f m across, %.0f m long",
				c.lat0, c.lon0, width, height, p.Length, p.CentreLat, p.CentreLon, 2*c.radius, 2*math.Pi*c.radius)
		}
	}
}

func TestFitKeepsRealScaleWhenItFits(t *testing.T) {
	tr := &Track{Segments: [][]Point{line(46, 14, 51, 10, flat)}} // 500 m north
	p, err := Prepare(tr, opts())
	if err != nil {
		t.Fatal(err)
	}
	s := p.Segments[0]
	if p.CellSize != 1 || math.Abs(s[0].Y-s[50].Y-500) > 1e-6 || math.Abs(s[0].Y+s[50].Y-1024) > 1e-6 || math.Abs(s[0].X-512) > 1e-6 {
		t.Errorf("cell %g m, rows %.3f–%.3f, column %.3f; want 1 m, 762–262 (north up, centred), 512", p.CellSize, s[0].Y, s[50].Y, s[0].X)
	}
}

func TestFitScalesDownLargeRoutesKeepingAspect(t *testing.T) {
	// An L: 20 km north, then 5 km east.
	north := line(46, 14, 201, 100, flat)
	end := north[len(north)-1]
	east := make([]Point, 51)
	for i := range east {
		east[i] = Point{Lat: end.Lat, Lon: end.Lon + float64(i)*100/(EarthRadius*math.Pi/180*math.Cos(46.09*math.Pi/180)), Ele: 100, HasEle: true}
	}
	p, err := Prepare(&Track{Segments: [][]Point{append(north, east[1:]...)}}, opts())
	if err != nil {
		t.Fatal(err)
	}
	xLo, xHi, yLo, yHi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, q := range p.Segments[0] {
		xLo, xHi, yLo, yHi = min(xLo, q.X), max(xHi, q.X), min(yLo, q.Y), max(yHi, q.Y)
	}
	if math.Abs(yLo-102.4) > 1e-6 || math.Abs(yHi-921.6) > 1e-6 {
		t.Errorf("rows %.3f–%.3f, want the usable 102.4–921.6", yLo, yHi)
	}
	if aspect := (xHi - xLo) / (yHi - yLo); math.Abs(aspect-0.25) > 0.003 {
		t.Errorf("aspect %.4f, want 0.25", aspect)
	}
	if want := 20000 / 819.2; math.Abs(p.CellSize-want) > 0.02 {
		t.Errorf("cell %.3f m, want %.3f", p.CellSize, want)
	}
}

func TestPrepareCleansTrack(t *testing.T) {
	seg := line(46, 14, 40, 10, func(i int) float64 { return 100 + float64(i) })
	seg = append(seg[:10], append([]Point{seg[9], seg[9], seg[9]}, seg[10:]...)...) // a pause: 3 repeats
	seg[20].Ele += 150                                                              // a spike
	seg[0].Ele -= 80                                                                // another at the start
	seg[25].HasEle, seg[26].HasEle = false, false                                   // a gap in elevation
	jump := line(46.1, 14, 10, 10, flat)                                            // 11 km away, same segment
	noEle := line(46.05, 14, 5, 10, flat)
	for i := range noEle {
		noEle[i].HasEle = false
	}
	o := opts()
	o.MedianWindow = 5
	p, err := Prepare(&Track{Segments: [][]Point{append(seg, jump...), noEle}}, o)
	if err != nil {
		t.Fatal(err)
	}
	if p.Duplicates != 3 || p.Splits != 1 || p.NoElevation != 5 || len(p.Segments) != 2 || len(p.Segments[0]) != 40 || len(p.Segments[1]) != 10 {
		t.Fatalf("%d duplicates, %d splits, %d without elevation, segments %d; want 3, 1, 5, 2 of 40 and 10",
			p.Duplicates, p.Splits, p.NoElevation, len(p.Segments))
	}
	for i, q := range p.Segments[0] {
		// The ramp 100 + i survives the median filter (off by at most one
		// step next to a spike, whose value drops out of the window), the
		// spikes do not, and the missing elevations are filled in along it.
		want, tol := 100+float64(i), 1e-9
		if i <= 2 || (i >= 15 && i <= 25) {
			tol = 1
		}
		if math.Abs(q.Ele-want) > tol {
			t.Errorf("point %d: elevation %.3f, want %.0f", i, q.Ele, want)
		}
	}
	if p.MaxEle != 139 || p.MinEle < 99 {
		t.Errorf("elevations %g–%g, want 99–139", p.MinEle, p.MaxEle)
	}
	// Without the filter the spike stays.
	o.MedianWindow, o.KeepAll = 0, true
	seg[20].Ele = 250
	p, _ = Prepare(&Track{Segments: [][]Point{seg}}, o)
	if p.MaxEle != 250 {
		t.Errorf("unfiltered maximum %g, want the spike's 250", p.MaxEle)
	}
}

func TestResampleKeepsGapsAndSpacing(t *testing.T) {
	a := line(46, 14, 11, 37, func(i int) float64 { return float64(10 * i) })
	b := line(46.1, 14, 11, 37, flat) // 11 km away: one recording with a gap
	p, err := Prepare(&Track{Segments: [][]Point{a, b}}, opts())
	if err != nil {
		t.Fatal(err)
	}
	r := p.Resample(0.5)
	if len(r.Segments) != 2 {
		t.Fatalf("%d segments, want 2", len(r.Segments))
	}
	for s, seg := range r.Segments {
		first, last := seg[0], seg[len(seg)-1]
		orig := p.Segments[s]
		if first != orig[0] || Dist(last, orig[len(orig)-1]) > 1e-9 {
			t.Errorf("segment %d: ends moved", s)
		}
		step := Dist(seg[0], seg[1])
		for i := 1; i < len(seg); i++ {
			if d := Dist(seg[i-1], seg[i]); d > 0.5+1e-9 || math.Abs(d-step) > 1e-6 {
				t.Fatalf("segment %d: step %d is %g samples, want an even %g ≤ 0.5", s, i, d, step)
			}
		}
	}
	// Elevation is interpolated along the segment: 0 to 100 m.
	seg := r.Segments[0]
	for _, q := range seg {
		if want := 100 * Dist(q, seg[0]) / Dist(seg[len(seg)-1], seg[0]); math.Abs(q.Ele-want) > 1e-6 {
			t.Fatalf("elevation %.4f at %.2f samples along, want %.4f", q.Ele, Dist(q, seg[0]), want)
		}
	}
}

func TestPrepareErrors(t *testing.T) {
	same := []Point{{Lat: 1, Lon: 1, Ele: 3, HasEle: true}, {Lat: 1, Lon: 1, Ele: 4, HasEle: true}}
	cases := []struct {
		t    *Track
		o    Options
		want string
	}{
		{&Track{Segments: [][]Point{same}}, opts(), "every point is at the same position"},
		{&Track{Segments: [][]Point{line(1, 1, 3, 10, flat)}}, Options{Size: 1, MinCellSize: 1}, "map size 1 is too small"},
		{&Track{Segments: [][]Point{line(1, 1, 3, 10, flat)}}, Options{Size: 9, Margin: 0.5, MinCellSize: 1}, "margin 0.5"},
		{&Track{Segments: [][]Point{line(1, 1, 3, 10, flat)}}, Options{Size: 9}, "cell size 0 must be positive"},
		{&Track{Segments: [][]Point{line(1, 1, 1, 10, flat)}}, opts(), "a route needs at least 2"},
	}
	for _, c := range cases {
		_, err := Prepare(c.t, c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}
