package route

import (
	"cordillera/route/track"
	"cordillera/route/track/tracktest"
	"cordillera/route/trackfile"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// gliderKML is a glider flight's KML as flight loggers' converters write
// it: the flight as a gx:Track and as a LineString, each once with the
// pressure altitude (smooth) and once with the GPS altitude (40 m above
// it, with metres of noise and a few spikes). It returns the KML and the
// pressure altitudes.
func gliderKML() (string, []float64) {
	rng := rand.New(rand.NewPCG(3, 5))
	pts := tracktest.Walk(2000, 20, func(i int) float64 {
		return 900 + 500*math.Sin(float64(i)/300) + 80*math.Sin(float64(i)/37)
	})
	baro := make([]float64, len(pts))
	gps := make([]float64, len(pts))
	for i, p := range pts {
		baro[i] = math.Round(p.Ele)
		gps[i] = math.Round(p.Ele + 40 + 4*rng.NormFloat64())
		if i%400 == 200 {
			gps[i] += 150
		}
	}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document><name>flight</name>`)
	for _, src := range []struct {
		name string
		ele  []float64
	}{{"Pressure altitude", baro}, {"GPS altitude", gps}} {
		fmt.Fprintf(&b, "<Placemark><name>%s</name><gx:Track><altitudeMode>absolute</altitudeMode>", src.name)
		for i := range pts {
			fmt.Fprintf(&b, "<when>2024-06-01T10:%02d:%02dZ</when>", i/60%60, i%60)
		}
		for i, p := range pts {
			fmt.Fprintf(&b, "<gx:coord>%.7f %.7f %.0f</gx:coord>", p.Lon, p.Lat, src.ele[i])
		}
		b.WriteString("</gx:Track></Placemark>")
	}
	for _, src := range []struct {
		name string
		ele  []float64
	}{{"Pressure altitude", baro}, {"GPS altitude", gps}} {
		fmt.Fprintf(&b, "<Placemark><name>%s (line)</name><LineString><coordinates>", src.name)
		for i, p := range pts {
			fmt.Fprintf(&b, "%.7f,%.7f,%.0f ", p.Lon, p.Lat, src.ele[i])
		}
		b.WriteString("</coordinates></LineString></Placemark>")
	}
	b.WriteString("</Document></kml>")
	return b.String(), baro
}

// A glider flight stored four times (two altitude sources, each as a
// gx:Track and a LineString) is read once, with the pressure altitude,
// the smoother, and the warning says which. Seen failing without the
// check: four segments, the two altitudes reconciled as laps (the track
// 355–1495 m, not the pressure altitude's 335–1473 m), ten GPS spikes
// repaired twice over, the map 9.3 m off the track (2.2 m now).
func TestDuplicateGeometryReadOnce(t *testing.T) {
	kml, baro := gliderKML()
	tr, err := trackfile.Parse([]byte(kml))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Segments) != 4 || len(tr.Labels) != 4 || tr.Labels[1] != "GPS altitude" {
		t.Fatalf("%d segments, labels %q; want the 4 copies, named", len(tr.Segments), tr.Labels)
	}
	path, err := track.Prepare(tr, track.Options{Size: 513, Margin: 0.1, MinCellSize: 1, MedianWindow: 5})
	if err != nil {
		t.Fatal(err)
	}
	w := strings.Join(path.Warnings, "\n")
	if len(path.Segments) != 1 || !strings.Contains(w, "4 times") || !strings.Contains(w, `altitude of line 1 "Pressure altitude"`) ||
		!strings.Contains(w, `line 2 "GPS altitude"`) {
		t.Errorf("%d segments, warnings %q; want one, with the pressure altitude, the others named", len(path.Segments), w)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, e := range baro {
		lo, hi = min(lo, e), max(hi, e)
	}
	if math.Abs(path.MinEle-lo) > 3 || math.Abs(path.MaxEle-hi) > 3 {
		t.Errorf("track %.0f–%.0f m, want the pressure altitude's %.0f–%.0f m", path.MinEle, path.MaxEle, lo, hi)
	}
	res := generateMessy(t, "glider", tr, nil)
	if err := res.CheckTrack(); err != nil {
		t.Error(err)
	}
}

// Two laps of a loop recorded as two segments, the second within 0.3 m
// of the first but with its fixes elsewhere along the way, are two passes,
// not a copy.
func TestLapsAreNotDuplicates(t *testing.T) {
	kLat := track.EarthRadius * math.Pi / 180
	kLon := kLat * math.Cos(46*math.Pi/180)
	lap := func(phase, off float64, ele float64) []track.Point {
		var seg []track.Point
		for i := 0; i < 600; i++ {
			a := 2 * math.Pi * (float64(i) + phase) / 600
			r := 300 + off
			seg = append(seg, track.Point{Lat: 46 + r*math.Sin(a)/kLat, Lon: 14 + r*math.Cos(a)/kLon, Ele: ele + 10*math.Sin(a), HasEle: true})
		}
		return seg
	}
	tr := &track.Track{Format: "synthetic", Segments: [][]track.Point{lap(0, 0, 200), lap(0.5, 0.3, 204)}}
	path, err := track.Prepare(tr, track.Options{Size: 257, Margin: 0.1, MinCellSize: 1, MedianWindow: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(path.Segments) != 2 || len(path.Warnings) != 0 {
		t.Errorf("%d segments, warnings %q; want both laps", len(path.Segments), path.Warnings)
	}
}
