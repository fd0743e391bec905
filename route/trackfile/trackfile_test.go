package trackfile

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cordillera/internal/testenv"
	"cordillera/route/track"
)

const gpx10 = `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.0" creator="test" xmlns="http://www.topografix.com/GPX/1/0">
<wpt lat="1" lon="1"><name>not part of the route</name></wpt>
<trk><name>empty</name><trkseg></trkseg></trk>
<trk><trkseg>
 <trkpt lat="46.0" lon="14.0"><ele>100</ele><time>2010-10-04T05:13:19Z</time></trkpt>
 <trkpt lat="46.001" lon="14.0"><ele>110.5</ele></trkpt>
 <trkpt lat="46.001" lon="14.0"><ele>110.5</ele></trkpt>
 <trkpt lat="46.002" lon="14.0"></trkpt>
</trkseg><trkseg>
 <trkpt lat="46.01" lon="14.01"><ele>130</ele></trkpt>
 <trkpt lat="46.011" lon="14.01"><ele>131</ele></trkpt>
</trkseg></trk>
</gpx>`

// GPX 1.1 with every element under a namespace prefix and Strava's
// extensions.
const gpx11Prefixed = `<?xml version="1.0" encoding="UTF-8"?>
<g:gpx xmlns:g="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1" version="1.1" creator="strava">
 <g:metadata><g:time>2015-01-19T21:24:20Z</g:time></g:metadata>
 <g:trk><g:name>run</g:name><g:trkseg>
  <g:trkpt lat="37.80" lon="-122.41"><g:ele>11.2</g:ele><g:extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>120</gpxtpx:hr></gpxtpx:TrackPointExtension></g:extensions></g:trkpt>
  <g:trkpt lat="37.801" lon="-122.41"><g:ele>12.4</g:ele></g:trkpt>
  <g:trkpt lat="37.802" lon="-122.411"><g:ele>13.9</g:ele></g:trkpt>
 </g:trkseg></g:trk>
</g:gpx>`

const gpxRoute = `<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
<rte><rtept lat="45" lon="7"><ele>1000</ele></rtept><rtept lat="45.01" lon="7"><ele>1100</ele></rtept></rte>
</gpx>`

const tcx = `<?xml version="1.0" encoding="UTF-8"?>
<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
 <Activities><Activity Sport="Running"><Id>2012-12-26T21:29:53Z</Id>
  <Lap StartTime="2012-12-26T21:29:53Z"><Track>
   <Trackpoint><Time>2012-12-26T21:29:53Z</Time><Position><LatitudeDegrees>35.95</LatitudeDegrees><LongitudeDegrees>-79.09</LongitudeDegrees></Position><AltitudeMeters>178.9</AltitudeMeters></Trackpoint>
   <Trackpoint><Time>2012-12-26T21:29:54Z</Time><AltitudeMeters>179</AltitudeMeters></Trackpoint>
   <Trackpoint><Position><LatitudeDegrees> 35.951 </LatitudeDegrees><LongitudeDegrees>-79.09</LongitudeDegrees></Position></Trackpoint>
  </Track></Lap>
  <Lap><Track>
   <Trackpoint><Position><LatitudeDegrees>35.952</LatitudeDegrees><LongitudeDegrees>-79.091</LongitudeDegrees></Position><AltitudeMeters>181</AltitudeMeters></Trackpoint>
  </Track></Lap>
 </Activity></Activities>
</TrainingCenterDatabase>`

const geojsonCollection = `{"type": "FeatureCollection", "features": [
 {"type": "Feature", "properties": {"name": "start"}, "geometry": {"type": "Point", "coordinates": [14, 46]}},
 {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[14, 46, 100], [14, 46.001, 105], [14.001, 46.001]]}},
 {"type": "Feature", "geometry": {"type": "MultiLineString", "coordinates": [[[14.01, 46.01, 120], [14.01, 46.011, 121]], [[14.02, 46.02, 130], [14.02, 46.021, 131, 0]]]}}
]}`

func TestParseFormats(t *testing.T) {
	cases := []struct {
		name   string
		data   string
		format track.Format
		segs   []int // points per segment
		eles   int   // points with an elevation
	}{
		{"gpx 1.0, empty track, waypoint, missing time and elevation", gpx10, track.GPX, []int{4, 2}, 5},
		{"gpx 1.1, namespace prefix, extensions", gpx11Prefixed, track.GPX, []int{3}, 3},
		{"gpx route without tracks", gpxRoute, track.GPX, []int{2}, 2},
		{"tcx, a trackpoint without position, two laps", tcx, track.TCX, []int{2, 1}, 2},
		{"geojson collection", geojsonCollection, track.GeoJSON, []int{3, 2, 2}, 6},
		{"geojson bare geometry", `{"type":"LineString","coordinates":[[1,2,3],[1,2.1,4]]}`, track.GeoJSON, []int{2}, 2},
		{"csv", "lat,lon,ele\n46,14,100\n46.001,14,101\n", track.CSV, []int{2}, 2},
		{"csv semicolons, decimal commas, names in other words", "Time;Latitude;Longitude;Altitude (m)\n1;46,5;14,25;100,5\n2;46,6;14,3;\n", track.CSV, []int{2}, 1},
		{"csv tabs, lng, elevation first, comment", "# exported\nElevation\tLng\tLAT\n100\t14\t46\n101\t14\t46.001\n", track.CSV, []int{2}, 2},
		{"csv with a '#' header line (OpenTracks), a comment, blank and position-less rows", "#time,trackpoint_type,latitude,longitude,altitude\n# resumed\n1,TRACKPOINT,46,14,100\n\n,,,,\n2,SEGMENT_START_MANUAL,,,\n3,TRACKPOINT,46.001,14,101\n4,MARKER\n", track.CSV, []int{2}, 2},
		{"csv without an elevation column, quoted names, BOM", "\xef\xbb\xbf\"lat\",\"long\"\n46,14\n46.1,14\n", track.CSV, []int{2}, 0},
	}
	for _, c := range cases {
		tr, err := Parse([]byte(c.data))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if tr.Format != c.format {
			t.Errorf("%s: format %s, want %s", c.name, tr.Format, c.format)
		}
		var segs []int
		eles := 0
		for _, s := range tr.Segments {
			segs = append(segs, len(s))
			for _, p := range s {
				if p.HasEle {
					eles++
				}
			}
		}
		if !equalInts(segs, c.segs) || eles != c.eles {
			t.Errorf("%s: segments %v with %d elevations, want %v with %d", c.name, segs, eles, c.segs, c.eles)
		}
	}
}

func TestParseValues(t *testing.T) {
	tr, err := Parse([]byte("Time;Latitude;Longitude;Altitude (m)\n1;46,5;14,25;100,5\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p := tr.Segments[0][0]; p != (track.Point{Lat: 46.5, Lon: 14.25, Ele: 100.5, HasEle: true}) {
		t.Errorf("csv point %+v", p)
	}
	tr, err = Parse([]byte(tcx))
	if err != nil {
		t.Fatal(err)
	}
	if p := tr.Segments[0][1]; p != (track.Point{Lat: 35.951, Lon: -79.09}) {
		t.Errorf("tcx point without altitude %+v", p)
	}
	tr, err = Parse([]byte(gpx11Prefixed))
	if err != nil {
		t.Fatal(err)
	}
	if p := tr.Segments[0][2]; p != (track.Point{Lat: 37.802, Lon: -122.411, Ele: 13.9, HasEle: true}) {
		t.Errorf("gpx point %+v", p)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ data, want string }{
		{"", "empty file"},
		{"   \n", "empty file"},
		{`<svg xmlns="http://www.w3.org/2000/svg"></svg>`, "root element is <svg>"},
		{`<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><Point><coordinates>14,46,300</coordinates></Point></Placemark></kml>`,
			"kml: no <LineString> or <gx:Track> in 1 placemark(s)"},
		{`<gpx version="1.1"><wpt lat="46" lon="14"><ele>300</ele></wpt><wpt lat="46.1" lon="14"/></gpx>`,
			"gpx: only 2 waypoint(s) (<wpt>), no track (<trk>) or route (<rte>)"},
		{`[1, 2]`, "a JSON array"},
		{"time,speed\n1,2\n", "names no latitude and longitude columns"},
		{"lat,lon,ele\n46,14,100\n46.1,abc,100\n", "line 3: longitude \"abc\" is not a number"},
		{"lat,lon,ele\n46,14,100\n95,14,100\n", "latitude 95 is not in [-90, 90]"},
		{"lat,lon,ele\n46,14,1e9\n46,14.1,1\n", "is not a height on Earth"},
		{`{"type":"LineString","coordinates":[[1],[2]]}`, "position 1 has 1 numbers"},
		{`{"type":"Polygonal","coordinates":[]}`, `unknown type "Polygonal"`},
		{`{"type":"LineString","coordinates":"x"}`, "want [[lon, lat, ele], ...]"},
		{`{"features": [}`, "geojson:"},
		{`<gpx version="1.1"><trk><trkseg><trkpt lat="x" lon="1"/></trkseg></trk></gpx>`, "gpx:"},
		{`<gpx version="1.1"><trk><trkseg><trkpt lat="1" lon="1">`, "gpx:"},
		{"<gpx version=\"1.1\"><trk><trkseg><trkpt lat=\"1\" lon=\"1\"><ele>5</ele></trkpt>\n<trkpt lat=\"1.1\" lon=\"1\"><ele>5 m</ele></trkpt></trkseg></trk></gpx>",
			`track point 2 (line 2): <ele> "5 m" is not a number`},
		{`<gpx version="1.1"><rte><rtept lat="1" lon="1"><ele>1e999</ele></rtept></rte></gpx>`, `route point 1 (line 1): <ele> "1e999" is out of range`},
		{`<TrainingCenterDatabase><Trackpoint><Position><LatitudeDegrees>a</LatitudeDegrees><LongitudeDegrees>1</LongitudeDegrees></Position></Trackpoint></TrainingCenterDatabase>`,
			`trackpoint 1: LatitudeDegrees "a" is not a number`},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.data, err, c.want)
		}
	}
}

// A file that parses but cannot shape a terrain says why, with its name.
func TestLoadUnusable(t *testing.T) {
	dir := t.TempDir()
	cases := []struct{ name, data, want string }{
		{"noele.gpx", `<gpx version="1.1"><trk><trkseg><trkpt lat="1" lon="1"/><trkpt lat="1.1" lon="1"/></trkseg></trk></gpx>`,
			"noele.gpx: gpx: none of the 2 points has an elevation"},
		{"one.csv", "lat,lon,ele\n46,14,100\n", "one.csv: csv: 1 point(s) with a position; a route needs at least 2"},
		{"empty.geojson", `{"type":"FeatureCollection","features":[]}`, "empty.geojson: geojson: 0 point(s)"},
		{"nopos.tcx", `<TrainingCenterDatabase><Track><Trackpoint><AltitudeMeters>3</AltitudeMeters></Trackpoint></Track></TrainingCenterDatabase>`,
			"nopos.tcx: tcx: 0 point(s) with a position"},
		{"photo.gpx", "\x89PNG\r\n\x1a\n", `photo.gpx: not a GPX, TCX, KML, FIT, GeoJSON or CSV route: binary data starting "\x89PNG\r\n\x1a\n" (the name says .gpx, the content is not GPX)`},
		{"photo.png", "\x89PNG\r\n\x1a\n", `photo.png: not a GPX, TCX, KML, FIT, GeoJSON or CSV route: binary data starting "\x89PNG\r\n\x1a\n"`},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, []byte(c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := Load(filepath.Join(dir, "missing.gpx")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// The content decides the format, whatever the name says.
func TestLoadDetectsFromContent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "track.csv")
	if err := os.WriteFile(path, []byte(gpx10), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := Load(path)
	if err != nil || tr.Format != track.GPX {
		t.Fatalf("got %v, %v; want a GPX track", tr, err)
	}
}

// sharedData returns ../shared/data/sub beside the repository, or skips
// the test in a clone without it (fails it when CORDILLERA_REQUIRE_DATA=1).
func sharedData(t testing.TB, sub string) string {
	t.Helper()
	return testenv.SharedData(t, sub)
}

// Every real track of ../shared/data parses with the counts and
// elevations its README lists.
func TestRealTracks(t *testing.T) {
	want := map[string]struct {
		format         track.Format
		points         int
		eleLo, eleHi   float64
		lengthKm       float64 // after preparation
		dup, segsAtMin int
	}{
		"gpx/korita-zbevnica.gpx":      {track.GPX, 871, 722, 1051, 14.6, 0, 4},
		"gpx/munich-edge800-bike.gpx":  {track.GPX, 1286, 510, 554, 25.1, 0, 8},
		"gpx/sf-strava-run.gpx":        {track.GPX, 1118, 11, 104, 3.6, 22, 1},
		"gpx/mojstrovka.gpx":           {track.GPX, 184, 1615, 2057, 2.4, 0, 1},
		"gpx/visnjan.gpx":              {track.GPX, 413, 245, 304, 4.4, 0, 1},
		"routes/sf-strava-run.geojson": {track.GeoJSON, 1118, 11, 104, 3.6, 22, 1},
		"routes/nc-run-tcxparser.tcx":  {track.TCX, 383, 158, 216, 4.7, 0, 3},
	}
	root := sharedData(t, "")
	for name, w := range want {
		tr, err := Load(filepath.Join(root, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, s := range tr.Segments {
			for _, p := range s {
				if p.HasEle {
					lo, hi = min(lo, p.Ele), max(hi, p.Ele)
				}
			}
		}
		if tr.Format != w.format || tr.Points() != w.points || math.Round(lo) != w.eleLo || math.Round(hi) != w.eleHi {
			t.Errorf("%s: %s, %d points, elevation %.0f–%.0f; want %s, %d, %.0f–%.0f",
				name, tr.Format, tr.Points(), lo, hi, w.format, w.points, w.eleLo, w.eleHi)
		}
		p, err := track.Prepare(tr, track.Options{Size: 1025, Margin: 0.1, MinCellSize: 1})
		if err != nil {
			t.Errorf("%s: prepare: %v", name, err)
			continue
		}
		if math.Abs(p.Length/1000-w.lengthKm) > 0.05 || p.Duplicates != w.dup || len(p.Segments) < w.segsAtMin {
			t.Errorf("%s: %.2f km, %d duplicates, %d segments; want %.1f km, %d, at least %d",
				name, p.Length/1000, p.Duplicates, len(p.Segments), w.lengthKm, w.dup, w.segsAtMin)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
