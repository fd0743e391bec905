package route

import (
	"context"
	"cordillera/internal/atomicfile"
	"cordillera/route/track"
	"encoding/json"
	"fmt"
	"io"
	"slices"
)

// Report is the JSON report of a route terrain: one entry per solved
// point (positions in map samples, column and row; target and height in
// the map's normalised units, 0 = black and 1 = white, heights read from
// the float map), the errors in the same units, and the scale.
//
// A 16-bit PNG rounds heights to the nearest 1/65535, which adds at most
// 0.5/65535 ≈ 7.6·10⁻⁶ to every error.
type Report struct {
	Points    []SolvedPoint `json:"points"`
	MaxError  float64       `json:"max_error"`
	MeanError float64       `json:"mean_error"`
	Seconds   float64       `json:"seconds"`

	MetresPerCell  float64 `json:"metres_per_cell"`
	LengthMetres   float64 `json:"length_m"`         // along the track, gaps not counted
	BaseElevation  float64 `json:"base_elevation_m"` // metres at height 0
	VerticalScale  float64 `json:"vertical_scale_m"` // metres from height 0 to height 1
	Spacing        float64 `json:"spacing"`          // samples between solved points along the track
	Merged         int     `json:"merged"`           // points merged into a point of another pass
	TrackMaxError  float64 `json:"track_max_error"`  // map against the track's own elevation, every half sample
	TrackMeanError float64 `json:"track_mean_error"`
	Ridge          float64 `json:"ridge"` // Tikhonov term the solve needed; 0 when exact
	// CreaseRatio is the 99th-percentile curvature along the route (the
	// road and its shoulders, or the ground the track-following changed)
	// over the whole map's (Result.CreaseRatio).
	CreaseRatio float64 `json:"crease_ratio"`

	// Paper 002's Table 2 accuracy as a percentage (Agreement): at the
	// solved points, and along the whole track every half sample.
	Agreement      float64 `json:"agreement_pct"`
	TrackAgreement float64 `json:"track_agreement_pct"`

	// What preparation changed: fragments dropped as far from the track,
	// elevation outliers repaired, the largest change reconciling laps.
	Dropped   []track.Fragment `json:"dropped"`
	Repairs   []track.Repair   `json:"repairs"`
	LapShift  float64          `json:"lap_shift_m"`
	NonFinite int              `json:"non_finite_elevations"` // NaN or infinite, treated as missing
	Warnings  []string         `json:"warnings"`              // what was wrong with the file read all the same

	// The relief rule (relief.go) and what the map made of it, in metres.
	TrackMinElevation float64 `json:"track_min_m"`
	TrackMaxElevation float64 `json:"track_max_m"`
	MaxRelief         float64 `json:"max_relief_m"`       // the rule's bound on the map's height range
	Floor             float64 `json:"floor_m"`            // the rule's lowest height for the map (reliefBounds.floor)
	MaxSlope          float64 `json:"max_slope"`          // the rule's bound on the 99th-percentile slope
	Amplitude         float64 `json:"amplitude_m"`        // metres per unit of the turbulence
	FittedAmplitude   float64 `json:"fitted_amplitude_m"` // before the rule
	// Falloff is β of the random levels' weights amplitude·β^level (1: the
	// paper's turbulence; less where the fine levels were damped to keep
	// the map's slopes within the track's).
	Falloff float64 `json:"falloff"`
}

// Agreement is the percentage paper 002 reports in its Table 2 (80.32 %
// to 100 %) for how well the map meets the route. The paper does not
// define it; ours is
//
//	agreement = 100 · (1 − mean |h − e| / (e_max − e_min))
//
// the mean distance between the map's height h and the route's elevation
// e, as a share of the route's elevation range, clamped to [0, 100]. Both
// are in the same units. A flat route (no range) agrees 100 % only when
// the map meets it exactly.
func Agreement(meanError, elevationRange float64) float64 {
	if elevationRange <= 0 {
		if meanError == 0 {
			return 100
		}
		return 0
	}
	return min(max(100*(1-meanError/elevationRange), 0), 100)
}

// A route terrain meets its track when the map strays from the track's
// own elevation, anywhere along it (Result.TrackMaxError), by at most
// TrackTolerance of the track's elevation range or TrackToleranceFloor
// metres, whichever is larger, and its heights stay within the relief
// rule (reliefBounds) by as much. Clean tracks stay within about 1 %; a
// track whose passes over the same ground disagree by more cannot be met.
const (
	TrackTolerance      = 0.05
	TrackToleranceFloor = 5.0
)

// trackTolerance is how far, in metres, CheckTrack lets the map miss
// the track, and exceed the relief rule's range, before it refuses it.
func trackTolerance(p *track.Path) float64 {
	return max(TrackTolerance*(p.MaxEle-p.MinEle), TrackToleranceFloor)
}

// CheckTrack returns an error saying by how much, in metres, when the map
// misses the track or exceeds the relief rule by more than the tolerance.
func (r *Result) CheckTrack() error {
	vs := r.Map.VerticalScale
	tol := trackTolerance(r.Path)
	if miss := r.TrackMaxError * vs; !(miss <= tol) {
		advice := "a larger -size holds finer detail"
		if r.prepared != nil {
			// Detail finer than the samples made misses of up to 2.6 times
			// its departure (unheldReach); a larger miss is passes that
			// disagree, which no size or median mends. After a build the
			// advice is less sure than Precheck's: passes that disagree by
			// less than the detail explains add to the miss too.
			if d := unheldDetail(r.prepared, unheldReach*r.prepared.CellSize); miss <= 3*d {
				advice = followAdvice(r.prepared, r.track, r.params, "may")
			} else {
				advice = fmt.Sprintf("a larger -size holds finer detail, but the track's detail finer than the samples explains at most %.1f m of the miss: passes over the same ground disagree", 3*d)
			}
		}
		return fmt.Errorf("the map misses the track by up to %.1f m (mean %.2f m), more than the tolerance of %.1f m (%.0f %% of the track's %.0f–%.0f m, or %.0f m): passes over the same ground may disagree, the track be too noisy to follow, or its detail finer than the map's %.1f m per sample (%s)",
			miss, r.TrackMeanError*vs, tol, 100*TrackTolerance, r.Path.MinEle, r.Path.MaxEle, TrackToleranceFloor, r.Map.CellSize, advice)
	}
	if floor := r.Bounds.floor(); !(r.Base >= floor-tol) {
		return fmt.Errorf("the map's ground reaches down to %.0f m, below the relief rule's floor of %.0f m for a track of %.0f–%.0f m",
			r.Base, floor, r.Path.MinEle, r.Path.MaxEle)
	}
	if bound := r.Bounds.MaxRange; bound > 0 && !(vs <= bound+tol) {
		return fmt.Errorf("the map's heights span %.0f m (%.0f to %.0f m), beyond the relief rule's %.0f m for a track of %.0f–%.0f m",
			vs, r.Base, r.Base+vs, bound, r.Path.MinEle, r.Path.MaxEle)
	}
	return nil
}

// Report summarises r for a run that took seconds. Measuring the crease
// (Result.CreaseRatio) is the only work in it; it stops when ctx is done.
func (r *Result) Report(ctx context.Context, seconds float64) (Report, error) {
	crease, err := r.CreaseRatio(ctx)
	if err != nil {
		return Report{}, err
	}
	return Report{
		Points: r.Points, MaxError: r.MaxError, MeanError: r.MeanError, Seconds: seconds,
		MetresPerCell: r.Map.CellSize, LengthMetres: r.Path.Length,
		BaseElevation: r.Base, VerticalScale: r.Map.VerticalScale,
		Spacing: r.Spacing, Merged: r.Merged,
		TrackMaxError: r.TrackMaxError, TrackMeanError: r.TrackMeanError, Ridge: r.Ridge,
		CreaseRatio:    crease,
		Agreement:      Agreement(r.MeanError, r.elevationRange()),
		TrackAgreement: Agreement(r.TrackMeanError, r.elevationRange()),
		Dropped:        nonNil(r.Path.Dropped), Repairs: nonNil(r.Path.Repairs), LapShift: r.LapShift,
		NonFinite: r.Path.NonFinite, Warnings: nonNil(r.Path.Warnings),
		TrackMinElevation: r.Path.MinEle, TrackMaxElevation: r.Path.MaxEle,
		MaxRelief: r.Bounds.MaxRange, Floor: r.Bounds.floor(), MaxSlope: r.Bounds.MaxSlope,
		Amplitude: r.Amplitude, FittedAmplitude: r.FittedAmplitude, Falloff: r.Falloff,
	}, nil
}

// elevationRange is the route's elevation range in the map's normalised
// height units, the units of the errors.
func (r *Result) elevationRange() float64 {
	if r.Path == nil || r.Map == nil || r.Map.VerticalScale <= 0 {
		return 0
	}
	return (r.Path.MaxEle - r.Path.MinEle) / r.Map.VerticalScale
}

// SaveReport writes rep as indented JSON to path, atomically
// (atomicfile.Write).
func SaveReport(path string, rep Report) error {
	return atomicfile.Write(path, func(w io.Writer) error { return EncodeReport(w, rep) })
}

// EncodeReport writes rep as indented JSON, as SaveReport saves it.
func EncodeReport(w io.Writer, rep Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(rep)
}

// nonNil returns s, or an empty slice for nil, so JSON writes [] not null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Notes describes, one line each, what preparing the track changed: the
// fragments dropped, the elevations repaired, the laps reconciled, and
// the relief rule where it lowered the fitted relief.
func (r *Result) Notes() []string {
	notes := slices.Clone(r.Path.Warnings)
	if n := r.Path.NonFinite; n > 0 {
		notes = append(notes, fmt.Sprintf("%d elevation(s) were NaN or infinite: treated as missing and filled in along the track", n))
	}
	for _, f := range r.Path.Dropped {
		notes = append(notes, fmt.Sprintf("dropped %d point(s) (%.2f km of track) %.1f km from the main body of the track: a stale fix or a stray fragment (-route-keep-all keeps them)",
			f.Points, f.Length/1000, f.Distance/1000))
	}
	for _, rp := range r.Path.Repairs {
		if rp.Kind == "median" {
			notes = append(notes, fmt.Sprintf("the median filter (-route-median) changed %d elevation(s), by up to %+.1f m (%.2f km along the track); points on their neighbours' grades kept",
				rp.Points, rp.Change, rp.At/1000))
			continue
		}
		what := map[string]string{"start": "at the start of a segment", "end": "at the end of a segment", "spike": "a spike",
			"step":     "in a step (the altitude jumped between neighbouring fixes; spread over a ramp)",
			"settling": "settling at the start of a recording or after a pause (the altitude converging on the true one; its decay taken off)"}[rp.Kind]
		notes = append(notes, fmt.Sprintf("repaired %d elevation(s) %s, %.2f km along the track: changed by up to %+.1f m", rp.Points, what, rp.At/1000, rp.Change))
	}
	if r.LapShift > 0.05 {
		notes = append(notes, fmt.Sprintf("reconciled passes over the same ground: elevations moved by up to %.1f m", r.LapShift))
	}
	if r.Amplitude < r.FittedAmplitude || r.Falloff < 1 {
		notes = append(notes, fmt.Sprintf("relief kept plausible: heights within %.0f m, slopes (99th percentile) within %.0f %% (-route-relief asks for more)",
			r.Bounds.MaxRange, 100*r.Bounds.MaxSlope))
	}
	return notes
}
