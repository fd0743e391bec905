package trackfile

import (
	"strings"
	"testing"
)

// Every format Detect tells has a parser in the table, and every list of
// formats is made from it: FormatNames and ErrUnknownFormat name them all.
func TestFormatTableCoversDetect(t *testing.T) {
	samples := map[string][]byte{
		"gpx":     []byte(`<gpx version="1.1"></gpx>`),
		"tcx":     []byte(`<TrainingCenterDatabase></TrainingCenterDatabase>`),
		"kml":     []byte(`<kml></kml>`),
		"geojson": []byte(`{"type": "LineString"}`),
		"csv":     []byte("lat,lon,ele\n1,2,3\n"),
	}
	for name, data := range samples {
		f := Detect(data)
		if f == "" {
			t.Fatalf("%s: Detect told no format", name)
		}
		found := false
		for _, p := range parsers {
			found = found || p.format == f
		}
		if !found {
			t.Errorf("%s: Detect says %q, which has no parser in the table", name, f)
		}
	}
	if got, want := FormatNames(", ", " or "), "GPX, TCX, KML, FIT, GeoJSON or CSV"; got != want {
		t.Errorf("FormatNames = %q, want %q", got, want)
	}
	for _, p := range parsers {
		if !strings.Contains(ErrUnknownFormat.Error(), p.name) {
			t.Errorf("ErrUnknownFormat %q does not name %s", ErrUnknownFormat, p.name)
		}
	}
}
