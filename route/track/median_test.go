package track

import (
	"math"
	"slices"
	"testing"
)

// A sparse summit route (named camps about 5 km apart, climbing 4000 m
// to a 6900 m summit and down again): the filter keeps the summit and
// the camps below it, which lie on their neighbours' grades; a spike of
// one point and one of two points on the same route's walk-in, a dense track, are
// still removed, and every change is reported (count, where, how much).
func TestMedianKeepsASummitBetweenTwoClimbs(t *testing.T) {
	camps := []float64{2900, 3400, 4200, 5100, 5900, 6500, 6900, 6450, 5800, 5000, 4100, 3300}
	seg := line(28, 86.9, len(camps), 5000, func(i int) float64 { return camps[i] })
	walkIn := line(27.5, 86.9, 60, 20, func(i int) float64 { return 2500 + 2*float64(i) })
	walkIn[20].Ele += 12
	walkIn[40].Ele -= 12
	walkIn[41].Ele -= 12
	o := opts()
	o.MedianWindow = 5
	p, err := Prepare(&Track{Segments: [][]Point{seg}}, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range p.Repairs {
		t.Errorf("summit route: %+v; want no change", r)
	}
	for i, q := range p.Segments[0] {
		if q.Ele != camps[i] {
			t.Errorf("camp %d: %.0f m, want %.0f m as recorded", i+1, q.Ele, camps[i])
		}
	}
	if p.MaxEle != 6900 {
		t.Errorf("the map's track tops out at %.0f m, want the 6900 m summit", p.MaxEle)
	}
	if p, err = Prepare(&Track{Segments: [][]Point{walkIn}}, o); err != nil {
		t.Fatal(err)
	}
	for i, q := range p.Segments[0] {
		if want := 2500 + 2*float64(i); math.Abs(q.Ele-want) > 4.5 {
			t.Errorf("walk-in point %d: %.1f m, want %.0f m (spikes removed; a median is a step off beside a spike)", i, q.Ele, want)
		}
	}
	var median *Repair
	for i, r := range p.Repairs {
		if r.Kind == "median" {
			median = &p.Repairs[i]
		}
	}
	if median == nil || median.Points < 3 || math.Abs(median.Change) < 8 || !slices.Contains([]float64{400, 800, 820}, math.Round(median.At)) {
		t.Fatalf("repairs %+v: want the median filter's changes reported, 3 or more points, the largest 8–12 m at a spike (400, 800 or 820 m along)", p.Repairs)
	}
}
