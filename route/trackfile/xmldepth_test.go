package trackfile

import (
	"runtime"
	"strings"
	"testing"

	"cordillera/route/track"
)

// A small route file of a million nested elements is refused for its
// nesting, without the decoder keeping every open element: the old parsers
// took about 1.5 GB on a 63 MB file of 9 million before failing with
// "0 points". Real files nest far less than the bound and are unaffected.
func TestDeepNestingRefusedEarly(t *testing.T) {
	const n = 1_000_000
	wrap := func(open, close, inner string) []byte {
		return []byte(open + strings.Repeat("<a>", n) + inner + strings.Repeat("</a>", n) + close)
	}
	cases := map[string][]byte{
		"gpx":            wrap(`<gpx><trk><trkseg>`, `</trkseg></trk></gpx>`, ""),
		"gpx waypoint":   wrap(`<gpx><wpt lat="1" lon="2">`, `</wpt></gpx>`, ""),
		"gpx trackpoint": wrap(`<gpx><trk><trkseg><trkpt lat="1" lon="2">`, `</trkpt></trkseg></trk></gpx>`, ""),
		"tcx":            wrap(`<TrainingCenterDatabase><Activities>`, `</Activities></TrainingCenterDatabase>`, ""),
		"kml":            wrap(`<kml><Document>`, `</Document></kml>`, ""),
	}
	parsers := map[string]func([]byte) (*track.Track, error){"gpx": ParseGPX, "tcx": ParseTCX, "kml": ParseKML}
	for name, data := range cases {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := parsers[strings.Fields(name)[0]](data)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), "nested more than 1000 deep") {
			t.Errorf("%s: %v; want a refusal naming the nesting", name, err)
		}
		if mb := float64(after.TotalAlloc-before.TotalAlloc) / 1e6; mb > 20 {
			t.Errorf("%s: %.0f MB allocated for a %.0f MB file; want the parse stopped at the bound", name, mb, float64(len(data))/1e6)
		}
	}
	// Nesting up to the bound is read.
	deep := `<gpx>` + strings.Repeat("<extensions>", 990) + strings.Repeat("</extensions>", 990) +
		`<trk><trkseg><trkpt lat="1" lon="2"><ele>5</ele></trkpt><trkpt lat="1.001" lon="2"><ele>6</ele></trkpt></trkseg></trk></gpx>`
	tr, err := ParseGPX([]byte(deep))
	if err != nil || len(tr.Segments) != 1 || len(tr.Segments[0]) != 2 {
		t.Errorf("990 levels of extensions: %v; want the two points read", err)
	}
}
