package route

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cordillera/route/track"
	"cordillera/route/trackfile"
	"cordillera/terrain"
)

// Agreement is 100·(1 − mean error / elevation range), clamped to [0, 100].
func TestAgreement(t *testing.T) {
	for _, tc := range []struct{ meanError, span, want float64 }{
		{0, 1, 100},
		{0.1, 1, 90},
		{0.0197, 0.1, 80.3},
		{0.5, 0.25, 0}, // worse than the whole range
		{0, 0, 100},    // a flat route met exactly
		{1e-3, 0, 0},   // a flat route missed
	} {
		if got := Agreement(tc.meanError, tc.span); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("Agreement(%g, %g) = %v, want %v", tc.meanError, tc.span, got, tc.want)
		}
	}
}

// The report carries paper 002's Table 2 figure, at the solved points
// (met exactly: 100 %) and along the track (a little less: detail between
// the points cannot be followed), under its JSON names.
func TestReportAgreement(t *testing.T) {
	p := terrain.DefaultParams()
	p.Size = 257
	res, err := Generate(context.Background(), p, synthTrack("serpentine", 96), nil)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := res.Report(context.Background(), 0.1)
	if err != nil {
		t.Fatal(err)
	}
	span := (res.Path.MaxEle - res.Path.MinEle) / res.Map.VerticalScale
	if span <= 0 {
		t.Fatalf("the serpentine track has no elevation range (%g)", span)
	}
	if rep.Agreement < 99.999 || rep.Agreement != Agreement(res.MeanError, span) {
		t.Errorf("agreement at the points %v %%, want 100 %% (mean error %g of a range %g)", rep.Agreement, res.MeanError, span)
	}
	if rep.TrackAgreement <= 90 || rep.TrackAgreement > rep.Agreement || rep.TrackAgreement != Agreement(res.TrackMeanError, span) {
		t.Errorf("agreement along the track %v %%, want above 90 %% and at most the points' %v %%", rep.TrackAgreement, rep.Agreement)
	}
	path := filepath.Join(t.TempDir(), "report.json")
	if err := SaveReport(path, rep); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var keys map[string]any
	if err := json.Unmarshal(data, &keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"agreement_pct", "track_agreement_pct", "max_error", "track_max_error"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("report lacks %q", k)
		}
	}
}

// Elevations that are NaN or infinite are counted, treated as missing,
// and reported.
func TestParseCountsNonFiniteElevations(t *testing.T) {
	for _, data := range []string{
		"lat,lon,ele\n46,14,NaN\n46.001,14,100\n46.002,14,Inf\n46.003,14,-inf\n",
		`<gpx version="1.1"><trk><trkseg><trkpt lat="46" lon="14"><ele>NaN</ele></trkpt><trkpt lat="46.001" lon="14"><ele>100</ele></trkpt>` +
			`<trkpt lat="46.002" lon="14"><ele>+Inf</ele></trkpt><trkpt lat="46.003" lon="14"><ele>-Inf</ele></trkpt></trkseg></trk></gpx>`,
	} {
		tr, err := trackfile.Parse([]byte(data))
		if err != nil {
			t.Fatal(err)
		}
		seg := tr.Segments[0]
		if tr.NonFinite != 3 || seg[0] != (track.Point{Lat: 46, Lon: 14}) || !seg[1].HasEle || seg[3].HasEle {
			t.Errorf("%s: %d non-finite, points %+v; want 3, counted as missing", tr.Format, tr.NonFinite, seg)
		}
		p, err := track.Prepare(tr, track.Options{Size: 1025, Margin: 0.1, MinCellSize: 1})
		if err != nil {
			t.Fatal(err)
		}
		res := &Result{Path: p}
		if p.NonFinite != 3 || len(res.Notes()) == 0 || !strings.Contains(res.Notes()[0], "3 elevation(s) were NaN or infinite") {
			t.Errorf("%s: path counts %d, notes %q", tr.Format, p.NonFinite, res.Notes())
		}
	}
}
