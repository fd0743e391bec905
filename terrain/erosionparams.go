package terrain

// ErosionParams are the parameters of the erosion stages (terrain/erosion),
// part of Params and of the one parameter table. Each stage's fields carry
// its name as a prefix; the meanings, units and ranges are in erosionSpecs.
type ErosionParams struct {
	Erosion string `json:"erosion"` // "none" or the stages to run, in order: hydraulic, thermal, fluvial

	// Hydraulic erosion by droplets (Beyer 2015).
	HydraulicDroplets    float64 `json:"hydraulic-droplets"`    // droplets per map cell
	HydraulicInertia     float64 `json:"hydraulic-inertia"`     // share of a droplet's direction kept each step
	HydraulicCapacity    float64 `json:"hydraulic-capacity"`    // sediment a droplet can carry per unit of slope, speed and water
	HydraulicMinSlope    float64 `json:"hydraulic-min-slope"`   // slope below which capacity stops shrinking
	HydraulicErosion     float64 `json:"hydraulic-erosion"`     // share of the free capacity picked up per step
	HydraulicDeposition  float64 `json:"hydraulic-deposition"`  // share of the excess sediment dropped per step
	HydraulicEvaporation float64 `json:"hydraulic-evaporation"` // share of the water lost per step
	HydraulicGravity     float64 `json:"hydraulic-gravity"`     // acceleration per unit of drop
	HydraulicLifetime    int     `json:"hydraulic-lifetime"`    // steps before a droplet dies
	HydraulicRadius      int     `json:"hydraulic-radius"`      // radius of the erosion brush in cells

	// Thermal erosion: talus slopes (Musgrave, Kolb and Mace 1989; Olsen 2004).
	ThermalTalus      float64 `json:"thermal-talus"`      // angle of repose in degrees
	ThermalIterations int     `json:"thermal-iterations"` // relaxation sweeps
	ThermalRate       float64 `json:"thermal-rate"`       // share of the excess moved per sweep

	// Fluvial stream-power erosion with uplift (Braun and Willett 2013).
	FluvialUplift     float64 `json:"fluvial-uplift"`     // U at the highest point of the input, m/yr
	FluvialK          float64 `json:"fluvial-k"`          // erodibility K in dh/dt = U − K·A^m·S^n
	FluvialM          float64 `json:"fluvial-m"`          // drainage-area exponent m
	FluvialN          float64 `json:"fluvial-n"`          // slope exponent n
	FluvialDt         float64 `json:"fluvial-dt"`         // time step in years
	FluvialSteps      int     `json:"fluvial-steps"`      // most time steps; fewer once steady
	FluvialHead       float64 `json:"fluvial-head"`       // drainage area in cells of a channel head
	FluvialWander     float64 `json:"fluvial-wander"`     // random share of the slope in the choice of receiver
	FluvialDeposition float64 `json:"fluvial-deposition"` // deposition coefficient G (Yuan et al. 2019)
}

// The erosion stages a -erosion list may name.
const (
	HydraulicErosion = "hydraulic"
	ThermalErosion   = "thermal"
	FluvialErosion   = "fluvial"
)

// ErosionStages lists the erosion stages.
var ErosionStages = []string{HydraulicErosion, ThermalErosion, FluvialErosion}

// erosionSpecs are the parameters of the erosion stages. The hydraulic
// defaults are Beyer's (2015) as popularised by Lague, with more droplets
// and a longer life so that gullies join into channels on a 1025² map; the
// thermal default is a typical angle of repose of loose rock; the fluvial
// defaults are a mid-range erodibility with m/n = 0.5, the concavity of
// real river profiles.
var erosionSpecs = grouped("erosion", []Spec{
	listSpec("erosion", "none", ErosionStages, "erosion stages to run after the generator, in the order listed, e.g. fluvial,hydraulic,thermal: hydraulic (droplets), thermal (talus), fluvial (stream power)",
		func(p *Params) *string { return &p.Erosion }),

	floatSpec("hydraulic-droplets", 0.5, 0, 100, "droplets per map cell (0 = no droplets)",
		func(p *Params) *float64 { return &p.HydraulicDroplets }),
	floatSpec("hydraulic-inertia", 0.05, 0, 0.99, "share of a droplet's direction kept each step; the rest follows the slope",
		func(p *Params) *float64 { return &p.HydraulicInertia }),
	floatSpec("hydraulic-capacity", 4, 0, 1000, "sediment capacity per unit of slope, speed and water, in cell sizes",
		func(p *Params) *float64 { return &p.HydraulicCapacity }),
	floatSpec("hydraulic-min-slope", 0.01, 0, 1, "slope (m/m) below which a droplet's capacity stops shrinking",
		func(p *Params) *float64 { return &p.HydraulicMinSlope }),
	floatSpec("hydraulic-erosion", 0.3, 0, 1, "share of a droplet's free capacity it erodes per step",
		func(p *Params) *float64 { return &p.HydraulicErosion }),
	floatSpec("hydraulic-deposition", 0.3, 0, 1, "share of a droplet's excess sediment it deposits per step",
		func(p *Params) *float64 { return &p.HydraulicDeposition }),
	floatSpec("hydraulic-evaporation", 0.01, 0, 1, "share of a droplet's water that evaporates per step",
		func(p *Params) *float64 { return &p.HydraulicEvaporation }),
	floatSpec("hydraulic-gravity", 4, 0, 100, "gain of speed² per unit of drop (m/m) in a step",
		func(p *Params) *float64 { return &p.HydraulicGravity }),
	withWhy(intSpec("hydraulic-lifetime", 30, 1, 500, "steps (cells travelled) before a droplet dies",
		func(p *Params) *int { return &p.HydraulicLifetime }), "longer-lived droplets need larger tiles, which leaves too little to run in parallel"),
	withWhy(intSpec("hydraulic-radius", 3, 1, 16, "radius in cells of the brush a droplet erodes with (1 = one sample)",
		func(p *Params) *int { return &p.HydraulicRadius }), "a wider brush blurs rather than erodes"),

	withWhy(floatSpec("thermal-talus", 33, 1, 89, "angle of repose in degrees: steeper slopes shed material to their lower neighbours",
		func(p *Params) *float64 { return &p.ThermalTalus }), "a talus angle is strictly between flat (0°) and vertical (90°)"),
	intSpec("thermal-iterations", 50, 1, 100000, "relaxation sweeps over the map",
		func(p *Params) *int { return &p.ThermalIterations }),
	floatSpec("thermal-rate", 0.5, 0.01, 1, "share of the excess over the talus slope moved per sweep (1 = fastest without oscillation)",
		func(p *Params) *float64 { return &p.ThermalRate }),

	floatSpec("fluvial-uplift", 0.001, 0, 1, "rock uplift U in m/yr at the highest point of the input, in proportion to height elsewhere",
		func(p *Params) *float64 { return &p.FluvialUplift }),
	floatSpec("fluvial-k", 1e-5, 1e-12, 1, "erodibility K in dh/dt = U − K·A^m·S^n, in m^(1−2m)/yr",
		func(p *Params) *float64 { return &p.FluvialK }),
	floatSpec("fluvial-m", 0.5, 0, 2, "drainage-area exponent m of the stream-power law",
		func(p *Params) *float64 { return &p.FluvialM }),
	floatSpec("fluvial-n", 1, 0.5, 4, "slope exponent n of the stream-power law (1 = linear, solved exactly)",
		func(p *Params) *float64 { return &p.FluvialN }),
	floatSpec("fluvial-dt", 1e6, 1, 1e9, "time step in years (the implicit solver is stable for any step)",
		func(p *Params) *float64 { return &p.FluvialDt }),
	intSpec("fluvial-steps", 100, 1, 100000, "most time steps; the run stops early once the landscape is steady",
		func(p *Params) *int { return &p.FluvialSteps }),
	floatSpec("fluvial-head", 256, 1, 1e6, "drainage area in cells of a channel head: smaller areas erode as hillslopes at the head's slope, so ridges stay slopes, not spikes",
		func(p *Params) *float64 { return &p.FluvialHead }),
	floatSpec("fluvial-wander", 0.4, 0, 0.9, "random share of each way's slope when water picks the steepest one, so rivers wander off the grid's axes (0 = plain D8)",
		func(p *Params) *float64 { return &p.FluvialWander }),
	floatSpec("fluvial-deposition", 0, 0, 1, "deposition coefficient G (dimensionless): the rivers lay down G × their sediment flux ÷ drainage area, so fans build where a channel leaves the mountains (0 = all eroded material leaves the map)",
		func(p *Params) *float64 { return &p.FluvialDeposition }),
})
