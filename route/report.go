package route

import (
	"cordillera/internal/atomicfile"
	"encoding/json"
	"io"
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

	// Paper 002's Table 2 accuracy as a percentage (Agreement): at the
	// solved points, and along the whole track every half sample.
	Agreement      float64 `json:"agreement_pct"`
	TrackAgreement float64 `json:"track_agreement_pct"`
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

// Report summarises r for a run that took seconds.
func (r *Result) Report(seconds float64) Report {
	return Report{
		Points: r.Points, MaxError: r.MaxError, MeanError: r.MeanError, Seconds: seconds,
		MetresPerCell: r.Map.CellSize, LengthMetres: r.Path.Length,
		BaseElevation: r.Base, VerticalScale: r.Map.VerticalScale,
		Spacing: r.Spacing, Merged: r.Merged,
		TrackMaxError: r.TrackMaxError, TrackMeanError: r.TrackMeanError, Ridge: r.Ridge,
		Agreement:      Agreement(r.MeanError, r.elevationRange()),
		TrackAgreement: Agreement(r.TrackMeanError, r.elevationRange()),
	}
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
	return atomicfile.Write(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", " ")
		return enc.Encode(rep)
	})
}
