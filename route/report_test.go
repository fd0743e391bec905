package route

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

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
