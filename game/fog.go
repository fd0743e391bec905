package game

import (
	"math"

	"github.com/ebitengine/debugui"
)

// Fog as a person sets it: a visibility distance in metres. The viewer
// keeps it as an exp² density ρ (exp(-(ρV)²) = 0.05 at the visibility V,
// the meteorological optical range's threshold of 5 % of an object's
// contrast, so ρ = √(ln 20) / V); the atmosphere (sky.go) turns it into a
// layer of grey scatterers whose extinction on the map's lowest ground
// leaves that 5 % at V and thins out over the map's height range, so the
// density shows looking down from high up as well as along the valleys.

// fogContrastLeft is the contrast left at the visibility distance.
const fogContrastLeft = 0.05

// FogDensityFor is the exp² density whose visibility is v metres (0: no fog).
func FogDensityFor(v float64) float32 {
	if v <= 0 {
		return 0
	}
	return float32(math.Sqrt(-math.Log(fogContrastLeft)) / v)
}

// FogVisibility is the visibility in metres of an exp² density (0: no fog).
func FogVisibility(density float32) float64 {
	if density <= 0 {
		return 0
	}
	return math.Sqrt(-math.Log(fogContrastLeft)) / float64(density)
}

// fogWidgets are the Viewer panel's fog settings, on one row under label:
// on or off (F6), and the visibility, from a tenth of the map's larger side to four
// times it.
func (g *Game) fogWidgets(ctx *debugui.Context, label string) {
	v := &g.View
	on := v.FogDensity > 0
	ctx.Checkbox(&on, label).On(func() {
		if on {
			v.FogDensity = DefaultFog(g.World.Map)
		} else {
			v.FogDensity = 0
		}
	})
	if !on {
		ctx.Text("Off — press F6")
		return
	}
	w, d := g.World.Map.Extent()
	side := max(w, d)
	vis := math.Round(FogVisibility(v.FogDensity))
	ctx.SliderF(&vis, math.Round(side/10), math.Round(4*side), math.Max(1, math.Round(side/200)), 0).On(func() {
		v.FogDensity = FogDensityFor(vis)
	})
}
