package game

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Texturing is the attribute that picks a material (thesis 5.2).
type Texturing int

// The texturing attributes.
const (
	ByHeight Texturing = iota
	BySlope
	// ByRules picks materials as a terrain artist would: rock on steep
	// slopes, grass and forest on gentle ground, snow above a snow line
	// that slope, facing and noise move, sand near the lowest ground, and
	// sediment and wet rock where the erosion masks say (shaders/terrain.kage).
	ByRules
)

// Viewer holds every setting of the look of the world (thesis ch. 5); the
// debug UI edits it.
type Viewer struct {
	Texturing     Texturing
	Boundaries    [4]float32 // upper end of each material's attribute range (thesis boundaries[4])
	MaterialCount int        // 1–4: sand, grass, rock, snow
	BandMaterials [4]int     // the material each band shows: 0 sand, 1 grass, 2 rock, 3 snow
	Blend         float32    // smoothstep width at each boundary (thesis: 0.05)
	Tiling        float32    // texture repeats across the map
	DetailTiling  float32    // detail map repeats across the map
	DetailDist    float32    // distance over which detail maps fade out
	Triplanar     bool
	DetailMaps    bool
	Lighting      bool
	Ambient       float32
	SunElevation  float32 // degrees above the horizon
	SunAzimuth    float32 // degrees, measured like the camera yaw (0 = +x, 90 = +z)
	SkyColor      [3]float32
	HorizonColor  [3]float32
	SunColor      [3]float32
	FogColor      [3]float32
	FogDensity    float32 // exp² fog per world unit; 0 = off
	Wireframe     bool
	FlatShading   bool
	ColourScheme  bool // paper 001's solid colours by height share instead of textures
	Gamma         float32
	Shadows       bool    // the terrain's shadows from the sun (terrain/light)
	Penumbra      float32 // degrees of sun elevation over which a shadow's edge softens (3)
	Occlusion     bool    // ambient occlusion: valleys and crevices see less of the sky
	SnowLine      float32 // ByRules: share of the height range where snow starts on level ground facing away from the sun (0.62)
	SnowSlope     float32 // ByRules: steepest slope that holds snow, degrees (50)
	Water         float32 // water level as a share of the height range; 0: no water
	Antialias     bool    // an edge anti-aliasing pass (FXAA) over the 3D view: smooth silhouettes (on; off in the thesis's scenarios)
	BreakTiling   bool    // hide the textures' repeat: a second, turned and scaled sampling blended in by noise (on; off in the thesis's scenarios)
	Continue      bool    // the noise generators' land goes on beyond the map, coarse, to the horizon (on); off: a level plane
	RouteLine     bool    // a GPS route's highlight line, a few pixels wide at any distance, over its trail (on)
	Scatter       bool    // trees and rocks where the land cover puts them (on; off in the thesis's scenarios)
}

// DefaultViewer is the look of the default world: height texturing over
// the four materials, the sun in scenario 1's direction (30°, thesis 7.6)
// but lower than its 65° — at 35° the slopes of the default world read
// from the overview camera — scenario 1's sky colour (201, 226, 255) and
// a near-white sun (255, 250, 240: sunlight above the air, which the
// atmosphere warms at a low sun; the scenarios keep the thesis's yellow
// (253, 220, 48), under which every colour turns lime). The preset scenario-1 carries
// the thesis's own settings (PresetViews).
func DefaultViewer() Viewer {
	return Viewer{
		Texturing:     ByRules,
		Boundaries:    [4]float32{0.12, 0.5, 0.78, 1},
		BandMaterials: [4]int{0, 1, 2, 3},
		MaterialCount: 4,
		Blend:         0.05,
		Tiling:        96,
		DetailTiling:  700,
		DetailDist:    120,
		Triplanar:     true,
		DetailMaps:    true,
		Lighting:      true,
		Ambient:       0.45,
		SunElevation:  35,
		SunAzimuth:    30,
		SkyColor:      rgb(201, 226, 255),
		HorizonColor:  rgb(236, 240, 244),
		SunColor:      rgb(255, 250, 240),
		FogColor:      rgb(214, 226, 238),
		FogDensity:    0,
		Gamma:         2.2,
		Shadows:       true,
		Penumbra:      3,
		Occlusion:     true,
		SnowLine:      0.62,
		SnowSlope:     50,
		Antialias:     true,
		BreakTiling:   true,
		Continue:      true,
		RouteLine:     true,
		Scatter:       true,
	}
}

// rgb converts an 8-bit sRGB colour to the linear values the shaders use.
func rgb(r, g, b uint8) [3]float32 {
	lin := func(c uint8) float32 { return float32(math.Pow(float64(c)/255, 2.2)) }
	return [3]float32{lin(r), lin(g), lin(b)}
}

// SunDir is the unit vector towards the sun.
func (v *Viewer) SunDir() mgl32.Vec3 {
	el, az := float64(mgl32.DegToRad(v.SunElevation)), float64(mgl32.DegToRad(v.SunAzimuth))
	return mgl32.Vec3{float32(math.Cos(el) * math.Cos(az)), float32(math.Sin(el)), float32(math.Cos(el) * math.Sin(az))}
}
