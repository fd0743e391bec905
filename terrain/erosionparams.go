package terrain

// ErosionParams are the parameters of the erosion stages (terrain/erosion),
// part of Params and of the one parameter table.
type ErosionParams struct {
	Erosion string `json:"erosion"` // "none" or the stages to run, in order: hydraulic, thermal, fluvial
}

// The erosion stages a -erosion list may name.
const (
	HydraulicErosion = "hydraulic"
	ThermalErosion   = "thermal"
	FluvialErosion   = "fluvial"
)

// ErosionStages lists the erosion stages.
var ErosionStages = []string{HydraulicErosion, ThermalErosion, FluvialErosion}

// erosionSpecs are the parameters of the erosion stages.
var erosionSpecs = grouped("erosion", []Spec{
	listSpec("erosion", "none", ErosionStages, "erosion stages to run after the generator, in order: hydraulic (droplets), thermal (talus), fluvial (stream power)",
		func(p *Params) *string { return &p.Erosion }),
})
