package game

import (
	"math"

	"cordillera/terrain"
)

// The panels' names for the generation parameters. terrain.Specs names
// each parameter as the command line does ("hydraulic-min-slope"); a panel
// row shows a name a person would use and the unit of the value it shows,
// and keeps the flag's name and range for the tooltip. A test checks that
// every parameter of terrain.Specs has a row name here, short enough for
// its column.

// specLabels are the row names of the parameters, by flag name.
var specLabels = map[string]string{
	// Generator
	"algorithm":       "Algorithm",
	"basis":           "Basis noise",
	"basis-transform": "Basis shape",
	"worley-jitter":   "Worley jitter",
	"size":            "Samples per side",
	"seed":            "Seed",
	"feature-size":    "Feature size, m",
	"octaves":         "Octaves",
	"lacunarity":      "Freq. ratio λ",
	"hurst":           "Smoothness H",
	"offset":          "Sea-level shift o",
	"amplitude":       "Height range, m",
	"corners":         "Corners",
	"corner-value":    "Corner height, ×A",
	"distortion":      "Distortion, %",
	"effect":          "Effect",
	"intensity":       "Effect amount, %",
	"cell-size":       "Cell size, m",
	"tileable":        "Tileable",
	// Erosion
	"erosion":               "Stages",
	"hydraulic-droplets":    "Droplets per cell",
	"hydraulic-inertia":     "Inertia",
	"hydraulic-capacity":    "Sediment capacity",
	"hydraulic-min-slope":   "Min slope, m/m",
	"hydraulic-erosion":     "Erosion per step",
	"hydraulic-deposition":  "Deposit per step",
	"hydraulic-evaporation": "Evaporation/step",
	"hydraulic-gravity":     "Gravity",
	"hydraulic-lifetime":    "Lifetime, steps",
	"hydraulic-radius":      "Radius, cells",
	"thermal-talus":         "Steepest slope, °",
	"thermal-iterations":    "Passes over map",
	"thermal-rate":          "Moved per pass",
	"fluvial-uplift":        "Uplift, mm/yr",
	"fluvial-k":             "Erodibility, 1e-6",
	"fluvial-m":             "Area exponent m",
	"fluvial-n":             "Slope exponent n",
	"fluvial-dt":            "Time step, kyr",
	"fluvial-steps":         "Time steps",
	"fluvial-head":          "River head, cells",
	"fluvial-wander":        "River wander",
	"fluvial-deposition":    "River deposit G",
	// Route
	"levels":         "Detail levels N",
	"interpolation":  "Interpolation",
	"route-margin":   "Border, % of side",
	"route-median":   "Spike filter, pts",
	"route-relief":   "Roughness × route",
	"route-keep-all": "Keep every point",
	"road-width":     "Road width, m",
}

// specScales show a parameter in a unit of its own: the panel shows
// terrain's value times the scale (an uplift of 0.001 m/yr as 1 mm/yr, an
// erodibility of 1e-5 as 10 in units of 1e-6, where three decimals would
// show 0.000).
var specScales = map[string]float64{
	"fluvial-uplift": 1e3,
	"fluvial-k":      1e6,
	"fluvial-dt":     1e-3,
}

// specScale is the factor from terrain's value to the one shown.
func specScale(s terrain.Spec) float64 {
	if f, ok := specScales[s.Name]; ok {
		return f
	}
	return 1
}

// specLabel is the row name of a parameter: its panel name, or the flag's
// name for one the table misses (the test says which).
func specLabel(s terrain.Spec) string {
	if l, ok := specLabels[s.Name]; ok {
		return l
	}
	return s.Name
}

// labelChars is how many characters of the 6-pixel font a label cell
// specLabelW wide holds, between its 5-pixel paddings.
const labelChars = (specLabelW - 2*5) / debugCharW

// fitsLabel reports whether a label shows on one line of its cell.
func fitsLabel(s string) bool { return labelWidth(s) <= labelChars }

// labelWidth is the width of s in characters of the 6-pixel font: a Greek
// or Cyrillic letter (λ) is two, as the panels draw it full-width.
func labelWidth(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x0370 && r <= 0x04ff {
			n++
		}
	}
	return n
}

// Feature size in metres. terrain keeps it as a share on a log scale
// (period = size^(fs/100) samples, 0 % one sample, 100 % the whole map);
// the panel shows the period in metres, from one cell to the map's side.

// featureMetres is the feature size of p in metres.
func featureMetres(p *terrain.Params) float64 {
	return p.CellSize * math.Pow(float64(p.Size), p.FeatureSize/100)
}

// featureShare is the feature size, in terrain's %, of a period of
// metres on p's map, clamped to [0, 100].
func featureShare(p *terrain.Params, metres float64) float64 {
	if p.Size < 2 || metres <= p.CellSize {
		return 0
	}
	return math.Min(100, 100*math.Log(metres/p.CellSize)/math.Log(float64(p.Size)))
}
