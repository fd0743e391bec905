package trackfile

import (
	"strconv"
	"strings"
	"testing"
)

// What a user's CSV export gets from the column finder, each a header a
// spreadsheet or an app writes: the points' first latitude, longitude and
// count.
func TestCSVColumnsFound(t *testing.T) {
	cases := []struct {
		name     string
		data     string
		lat, lon float64
		points   int
	}{
		// Two columns: the header's one semicolon is its delimiter.
		{"two columns by semicolons", "lat;lon\n46,5;14,25\n46,6;14,3\n", 46.5, 14.25, 2},
		// As many semicolons in a column's name as commas between
		// columns: the comma, first in the order tried, wins the tie.
		{"commas, semicolons in a name", "lat,lon,note (a;b;c)\n46,14,x\n46.1,14,y\n", 46, 14, 2},
		// A second column of the same meaning (a converted copy) is not
		// the one read: the first is.
		{"latitude named twice", "latitude,longitude,lat\n46,14,0\n46.1,14,0\n", 46, 14, 2},
		{"longitude first", "lon,lat\n14,46\n14,46.1\n", 46, 14, 2},
		// A row cut short before the longitude is left out, the rest read.
		{"a row short of the longitude", "time,lat,lon\n1,46,14\n2,47\n3,46.1,14\n", 46, 14, 2},
	}
	for _, c := range cases {
		tr, err := ParseCSV([]byte(c.data))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if len(tr.Segments) != 1 || len(tr.Segments[0]) != c.points {
			t.Errorf("%s: segments %v; want one of %d points", c.name, tr.Segments, c.points)
			continue
		}
		if p := tr.Segments[0][0]; p.Lat != c.lat || p.Lon != c.lon {
			t.Errorf("%s: the first point is at %g, %g; want %g, %g", c.name, p.Lat, p.Lon, c.lat, c.lon)
		}
	}
}

// A header that names no position is quoted in the error whole up to 80
// characters, and cut with "…" beyond.
func TestCSVHeaderQuotedInTheError(t *testing.T) {
	for _, n := range []int{80, 81} {
		header := strings.Repeat("x", n)
		_, err := ParseCSV([]byte(header + "\n1\n"))
		if err == nil {
			t.Fatalf("a %d-character header naming no position was read", n)
		}
		want := strconv.Quote(header)
		if n > 80 {
			want = strconv.Quote(header[:80] + "…")
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("a %d-character header: %q; want it to quote %s", n, err, want)
		}
	}
}

// A broken part of a GeoJSON file is named by its place, counted from 1
// as a person counts, inside the collection that holds it.
func TestGeoJSONErrorNamesThePart(t *testing.T) {
	line := `{"type":"LineString","coordinates":[[14,46],[14,46.1]]}`
	bad := `{"type":"LineString","coordinates":[[14]]}`
	for _, c := range []struct{ data, want string }{
		{`{"type":"FeatureCollection","features":[{"type":"Feature","geometry":` + line + `},{"type":"Feature","geometry":` + bad + `}]}`, "feature 2: "},
		{`{"type":"GeometryCollection","geometries":[` + line + `,` + line + `,` + bad + `]}`, "geometry 3: "},
	} {
		_, err := ParseGeoJSON([]byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v; want it to name %q", c.data, err, c.want)
		}
	}
}

// An empty route in a GPX file of routes adds no empty part: the file's
// parts are its routes that hold points.
func TestGPXEmptyRouteIsNoPart(t *testing.T) {
	data := `<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><rte><name>empty</name></rte>` +
		`<rte><rtept lat="46" lon="14"/><rtept lat="46.001" lon="14"/></rte></gpx>`
	tr, err := ParseGPX([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Segments) != 1 || len(tr.Segments[0]) != 2 {
		t.Errorf("segments %v; want the one route of 2 points", tr.Segments)
	}
}

// GeoJSON nesting is refused past maxGeoDepth levels and read up to it: a
// line inside geometry collections 8 levels down is read, 9 refused.
func TestGeoJSONNestingLimit(t *testing.T) {
	nest := func(levels int) string {
		s := `{"type":"LineString","coordinates":[[14,46],[14,46.1]]}`
		for range levels {
			s = `{"type":"GeometryCollection","geometries":[` + s + `]}`
		}
		return s
	}
	if _, err := ParseGeoJSON([]byte(nest(maxGeoDepth))); err != nil {
		t.Errorf("a line %d levels down: %v; want it read", maxGeoDepth, err)
	}
	if _, err := ParseGeoJSON([]byte(nest(maxGeoDepth + 1))); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("a line %d levels down: %v; want it refused as nested too deeply", maxGeoDepth+1, err)
	}
	// A feature collection and its feature are two of the levels.
	feature := func(levels int) string {
		return `{"type":"FeatureCollection","features":[{"type":"Feature","geometry":` + nest(levels) + `}]}`
	}
	if _, err := ParseGeoJSON([]byte(feature(maxGeoDepth - 2))); err != nil {
		t.Errorf("a line %d levels down in a feature: %v; want it read", maxGeoDepth, err)
	}
	if _, err := ParseGeoJSON([]byte(feature(maxGeoDepth - 1))); err == nil {
		t.Errorf("a line %d levels down in a feature was read; want it refused as nested too deeply", maxGeoDepth+1)
	}
}
