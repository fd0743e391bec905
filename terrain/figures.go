package terrain

// Figure is one of the thesis's parameter studies (sections 7.3–7.4): a
// base preset and one parameter shown at several values, one panel each.
// 'cordillera sweep -figure NAME' redraws it as a contact sheet.
type Figure struct {
	Name    string   // e.g. "fig7.5"
	Caption string   // what the figure shows, after the thesis's caption
	Preset  string   // the parameters every panel shares (a built-in preset)
	Param   string   // the parameter that varies: a Specs name
	Values  []string // its value in each panel, (a), (b), … in order
}

// Figures are the thesis's figures 7.3–7.14. Every base is the 7.3 test
// setting — Perlin basis, seed 17, feature size 90 %, n = 8, λ = 2, H = 1,
// a 256² map (257² here, so that subdivision could use it too) of height 50
// — with the change the caption names.
var Figures = []Figure{
	{"fig7.3", "Thesis figure 7.3: basis functions compared: value noise and Perlin noise (one octave)", "thesis-basis",
		"basis", []string{"value", "perlin"}},
	{"fig7.4", "Thesis figure 7.4: Perlin noise (one octave) for different feature sizes", "thesis-basis",
		"feature-size", []string{"0", "50", "75", "90", "100"}},
	{"fig7.5", "Thesis figure 7.5: fBm for different numbers of octaves n", "thesis-defaults",
		"octaves", []string{"1", "2", "3", "4", "5", "6"}},
	{"fig7.6", "Thesis figure 7.6: fBm for different lacunarities λ", "thesis-defaults",
		"lacunarity", []string{"1.5", "2", "5", "10"}},
	{"fig7.7", "Thesis figure 7.7: fBm for different Hurst exponents H", "thesis-defaults",
		"hurst", []string{"0", "0.7", "1", "1.5"}},
	{"fig7.8", "Thesis figure 7.8: heterogeneous multifractal for different offsets o", "thesis-hetero",
		"offset", []string{"0", "0.3", "0.5", "0.7"}},
	{"fig7.9", "Thesis figure 7.9: hybrid multifractal (H = 0.25) for different offsets o", "thesis-hybrid",
		"offset", []string{"0", "0.3", "0.5", "0.7"}},
	{"fig7.10", "Thesis figure 7.10: Quilez turbulence for different Hurst exponents H", "thesis-quilez",
		"hurst", []string{"0.5", "0.7", "1", "1.5"}},
	{"fig7.11", "Thesis figure 7.11: domain distortion for different strengths α (%)", "thesis-defaults",
		"distortion", []string{"0", "25", "50", "75"}},
	{"fig7.12", "Thesis figure 7.12: glacier effect for different intensities s (%)", "thesis-glacier",
		"intensity", []string{"0", "50", "75", "90"}},
	{"fig7.13", "Thesis figure 7.13: canyon effect for different intensities s (%)", "thesis-canyon",
		"intensity", []string{"0", "50", "75", "90"}},
	{"fig7.14", "Thesis figure 7.14: plateau effect for different intensities s (%)", "thesis-plateau",
		"intensity", []string{"0", "50", "75", "90"}},
}

// FigureByName returns the named figure.
func FigureByName(name string) (Figure, bool) {
	for _, f := range Figures {
		if f.Name == name {
			return f, true
		}
	}
	return Figure{}, false
}
