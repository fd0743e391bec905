package trackfile

import (
	"strings"
	"testing"

	"cordillera/route/track"
	"cordillera/route/track/tracktest"
)

// seeds are small files of every format, well formed and not.
var seeds = []string{
	gpx10, gpx11Prefixed, gpxRoute, tcx, geojsonCollection,
	`{"type":"LineString","coordinates":[[1,2,3],[1,2.1,4]]}`,
	`{"type":"GeometryCollection","geometries":[{"type":"MultiLineString","coordinates":[[[0,0,1],[0,1e-9,2]]]}]}`,
	"lat,lon,ele\n46,14,100\n46.001,14,101\n",
	"Time;Latitude;Longitude;Altitude (m)\n1;46,5;14,25;100,5\n2;46,6;14,3;\n",
	"# c\nElevation\tLng\tLAT\n100\t14\t46\n101\t14\t46.001\n",
	"lat,lon\n\"46\",14\n",
	`<gpx version="1.0"><trk><trkseg><trkpt lat="0" lon="179.9999"><ele>NaN</ele></trkpt><trkpt lat="0" lon="-179.9999"><ele>1</ele></trkpt></trkseg></trk></gpx>`,
	`<TrainingCenterDatabase><Courses><Course><Track><Trackpoint><Position><LatitudeDegrees>1</LatitudeDegrees><LongitudeDegrees>2</LongitudeDegrees></Position><AltitudeMeters>3</AltitudeMeters></Trackpoint></Track></Course></Courses></TrainingCenterDatabase>`,
}

// checkParsed runs what a user's file goes through after parsing, on a
// small map, and checks the invariants: a parsed track has only valid
// positions, and a usable one prepares into points inside the map.
func checkParsed(t *testing.T, tr *track.Track, err error) {
	t.Helper()
	if err != nil {
		if tr != nil {
			t.Fatal("track returned with an error")
		}
		return
	}
	for _, seg := range tr.Segments {
		if len(seg) == 0 {
			t.Fatal("empty segment")
		}
		for _, p := range seg {
			if e := checkPosition(p); e != nil {
				t.Fatalf("accepted point %+v: %v", p, e)
			}
		}
	}
	if tr.Check() != nil {
		return
	}
	p, err := track.Prepare(tr, track.Options{Size: 65, Margin: 0.1, MinCellSize: 1, MedianWindow: 5})
	if err != nil {
		if !strings.HasPrefix(err.Error(), "route: ") {
			t.Fatalf("prepare error %q does not start with \"route: \"", err)
		}
		return
	}
	for _, seg := range p.Resample(0.5).Segments {
		for _, q := range seg {
			if !(q.X >= 6.39 && q.X <= 57.61 && q.Y >= 6.39 && q.Y <= 57.61) || q.Ele != q.Ele {
				t.Fatalf("prepared point %+v outside the map's usable 6.4–57.6", q)
			}
		}
	}
}

func FuzzParseRoute(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := Parse(data)
		checkParsed(t, tr, err)
	})
}

func FuzzParseGPX(f *testing.F) {
	for _, s := range []string{gpx10, gpx11Prefixed, gpxRoute, seeds[11]} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ParseGPX(data)
		tr, err = wrap(tr, err)
		checkParsed(t, tr, err)
	})
}

func FuzzParseTCX(f *testing.F) {
	for _, s := range []string{tcx, seeds[12]} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ParseTCX(data)
		tr, err = wrap(tr, err)
		checkParsed(t, tr, err)
	})
}

func FuzzParseGeoJSON(f *testing.F) {
	for _, s := range seeds[4:7] {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ParseGeoJSON(data)
		tr, err = wrap(tr, err)
		checkParsed(t, tr, err)
	})
}

func FuzzParseCSV(f *testing.F) {
	for _, s := range seeds[7:11] {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ParseCSV(data)
		tr, err = wrap(tr, err)
		checkParsed(t, tr, err)
	})
}

// wrap applies Parse's position check to a single-format parser's result.
func wrap(tr *track.Track, err error) (*track.Track, error) {
	if err != nil {
		return nil, err
	}
	for _, seg := range tr.Segments {
		for _, p := range seg {
			if e := checkPosition(p); e != nil {
				return nil, e
			}
		}
	}
	return tr, nil
}

func FuzzParseKML(f *testing.F) {
	f.Add([]byte(kmlTrack))
	f.Add([]byte(`<kml><Placemark><LineString><coordinates>1,2</coordinates></LineString></Placemark></kml>`))
	f.Add([]byte(`<kml><name>d</name><Placemark><name>GPS altitude</name><LineString><coordinates>1,2,3 1,2.1,4</coordinates></LineString></Placemark></kml>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ParseKML(data)
		if err == nil && len(tr.Labels) != len(tr.Segments) {
			t.Fatalf("%d labels for %d segments", len(tr.Labels), len(tr.Segments))
		}
		tr, err = wrap(tr, err)
		checkParsed(t, tr, err)
	})
}

func FuzzParseFIT(f *testing.F) {
	f.Add(fitActivity(f, tracktest.Walk(20, 5, tracktest.Rolling)))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ParseFIT(data)
		tr, err = wrap(tr, err)
		checkParsed(t, tr, err)
	})
}
