package terrain

import (
	"cordillera/internal/atomicfile"
	"cordillera/internal/inputfile"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// Preset is a named set of parameters: the thesis's scenarios and figures,
// and the settings of the other source documents.
type Preset struct {
	Name        string
	Description string
	Overrides   [][2]string // parameter name and value, applied over DefaultParams
}

// Presets are the built-in presets. Every override goes through the
// parameter table, so a preset cannot name a parameter that does not exist.
var Presets = []Preset{
	{"default", "the default world: thesis 7.3 defaults (fBm, Perlin, seed 17, feature 90 %, 8 octaves, λ 2, H 1) at 1025²", nil},
	{"thesis-defaults", "thesis section 7.3 test defaults exactly: 257² (the thesis's 256²), fBm, Perlin, seed 17, feature 90 %, n 8, λ 2, H 1, height 50",
		[][2]string{{"size", "257"}, {"amplitude", "50"}}},
	{"scenario-1", "thesis 7.6 scenario 1's scale: 257², height 50, cell size 1 (its map was a 256² image of a letter J, not generated; the 7.3 defaults stand in for it)",
		[][2]string{{"size", "257"}, {"amplitude", "50"}, {"cell-size", "1"}}},
	{"scenario-2", "thesis 7.6 scenario 2: fBm, feature size 100 %, plateau effect 75 %, height 200",
		[][2]string{{"feature-size", "100"}, {"effect", "plateau"}, {"intensity", "75"}, {"amplitude", "200"}}},
	{"scenario-3", "thesis 7.6 scenario 3: hybrid multifractal, feature 95 %, H 0.25, offset 0.7, glacier effect 25 %, height 300",
		[][2]string{{"algorithm", "hybrid"}, {"feature-size", "95"}, {"hurst", "0.25"}, {"offset", "0.7"}, {"effect", "glacier"}, {"intensity", "25"}, {"amplitude", "300"}}},
	{"hetero", "thesis fig. 7.8 (c): heterogeneous multifractal with offset 0.5, smooth lowlands and rough peaks",
		[][2]string{{"algorithm", "hetero"}, {"offset", "0.5"}}},
	{"quilez", "thesis fig. 7.10 (c): Quilez turbulence, H 1, value noise as in Quilez's shader",
		[][2]string{{"algorithm", "quilez"}, {"basis", "value"}}},
	{"ridged-alps", "ridged multifractal: sharp crests and smooth valleys (thesis 8.2)",
		[][2]string{{"algorithm", "ridged"}, {"hurst", "0.9"}, {"feature-size", "88"}, {"amplitude", "300"}}},
	{"swiss", "de Carpentier's Swiss turbulence: eroded gullies (thesis 8.2)",
		[][2]string{{"algorithm", "swiss"}, {"hurst", "0.9"}, {"amplitude", "250"}}},
	{"distorted", "thesis fig. 7.11 (c): fBm with domain distortion α 50 %",
		[][2]string{{"distortion", "50"}}},
	{"canyon", "thesis fig. 7.13 (c): fBm with the canyon effect at 75 %",
		[][2]string{{"effect", "canyon"}, {"intensity", "75"}}},
	{"eroded-alps", "an alpine range 66 km across (64 m cells, 3 km of relief): ridged noise cut into gullies by droplets, settled into talus slopes, then cut by rivers into trunk valleys whose channels stay cut, with fans where they leave the range",
		[][2]string{{"algorithm", "ridged"}, {"hurst", "0.9"}, {"feature-size", "88"}, {"amplitude", "3000"}, {"cell-size", "64"},
			{"erosion", "hydraulic,thermal,fluvial"}, {"hydraulic-droplets", "0.6"},
			{"fluvial-k", "6.5e-7"}, {"fluvial-m", "0.45"}, {"fluvial-steps", "5"}, {"fluvial-deposition", "0.1"}}},
	{"eroded-hills", "rolling fBm hills 10 km across (10 m cells, 450 m of relief) cut into gullies by droplets, slopes settled at 30°, then drained by rivers",
		[][2]string{{"amplitude", "450"}, {"cell-size", "10"}, {"erosion", "hydraulic,thermal,fluvial"}, {"hydraulic-droplets", "0.7"},
			{"fluvial-k", "5.5e-7"}, {"fluvial-m", "0.45"}, {"fluvial-steps", "5"}, {"fluvial-wander", "0.1"}, {"fluvial-deposition", "0.1"}, {"thermal-talus", "30"}, {"thermal-iterations", "100"}}},
	{"midpoint", "course notes 000: midpoint displacement, random corners, H 0.8",
		[][2]string{{"algorithm", "midpoint"}, {"hurst", "0.8"}}},
	{"diamond-square", "paper 001: diamond-square with random corners, H 0.8",
		[][2]string{{"algorithm", "diamond-square"}, {"hurst", "0.8"}}},
	{"diamond-square-003", "article 003: diamond-square with the corners fixed at 0",
		[][2]string{{"algorithm", "diamond-square"}, {"corners", "fixed"}, {"corner-value", "0"}, {"hurst", "0.9"}}},

	// The bases of the thesis's figures 7.4–7.14 (thesis-defaults plus one
	// change each); 'cordillera sweep -figure' varies one parameter over them.
	{"thesis-basis", "thesis fig. 7.3 (b), 7.4: the Perlin basis alone (one octave) at the 7.3 test defaults, 257², height 50",
		[][2]string{{"size", "257"}, {"amplitude", "50"}, {"octaves", "1"}}},
	{"thesis-hetero", "thesis fig. 7.8: heterogeneous multifractal at the 7.3 test defaults, 257², height 50",
		[][2]string{{"size", "257"}, {"amplitude", "50"}, {"algorithm", "hetero"}}},
	{"thesis-hybrid", "thesis fig. 7.9: hybrid multifractal with H 0.25 as Musgrave recommends, 257², height 50",
		[][2]string{{"size", "257"}, {"amplitude", "50"}, {"algorithm", "hybrid"}, {"hurst", "0.25"}}},
	{"thesis-quilez", "thesis fig. 7.10: Quilez turbulence on Perlin noise at the 7.3 test defaults, 257², height 50",
		[][2]string{{"size", "257"}, {"amplitude", "50"}, {"algorithm", "quilez"}}},
	{"thesis-glacier", "thesis fig. 7.12 (c): fBm with the glacier effect at 75 %, 257², height 50",
		[][2]string{{"size", "257"}, {"amplitude", "50"}, {"effect", "glacier"}, {"intensity", "75"}}},
	{"thesis-canyon", "thesis fig. 7.13 (c): fBm with the canyon effect at 75 %, 257², height 50",
		[][2]string{{"size", "257"}, {"amplitude", "50"}, {"effect", "canyon"}, {"intensity", "75"}}},
	{"thesis-plateau", "thesis fig. 7.14 (c): fBm with the plateau effect at 75 %, 257², height 50",
		[][2]string{{"size", "257"}, {"amplitude", "50"}, {"effect", "plateau"}, {"intensity", "75"}}},
}

// PresetParams returns the parameters of a built-in preset.
func PresetParams(name string) (Params, error) {
	for _, pr := range Presets {
		if pr.Name != name {
			continue
		}
		p := DefaultParams()
		for _, o := range pr.Overrides {
			s, ok := SpecByName(o[0])
			if !ok {
				return Params{}, fmt.Errorf("preset %s: unknown parameter %q", name, o[0])
			}
			if err := s.Set(&p, o[1]); err != nil {
				return Params{}, fmt.Errorf("preset %s: %w", name, err)
			}
		}
		return p, p.Validate()
	}
	known := make([]string, len(Presets))
	for i, pr := range Presets {
		known[i] = pr.Name
	}
	return Params{}, fmt.Errorf("unknown preset %q (built-in presets: %s; or give a .json file)", name, strings.Join(known, ", "))
}

// MaxParamsFile bounds what LoadParams reads: a parameter file is a few
// hundred bytes, so anything much larger is not one.
const MaxParamsFile = 1 << 20

// LoadParams reads parameters saved as JSON. Missing keys take their
// defaults; unknown keys and out-of-range values are errors naming the file.
// Only a regular file of at most 1 MB is read: a FIFO would block forever
// and /dev/zero or a huge sparse file would fill memory.
func LoadParams(path string) (Params, error) {
	data, err := inputfile.ReadAll(path, MaxParamsFile, "a parameter file")
	if err != nil {
		return Params{}, err
	}
	var p Params
	if err := p.UnmarshalJSON(data); err != nil {
		return Params{}, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// IsParamsFile reports whether a -preset value names a JSON parameter
// file (any name ending in .json) rather than a built-in preset.
func IsParamsFile(nameOrFile string) bool {
	return strings.EqualFold(filepath.Ext(nameOrFile), ".json")
}

// ResolvePreset returns the parameters of a built-in preset name or of a
// JSON parameter file (IsParamsFile).
func ResolvePreset(nameOrFile string) (Params, error) {
	if IsParamsFile(nameOrFile) {
		return LoadParams(nameOrFile)
	}
	return PresetParams(nameOrFile)
}

// SaveParams writes parameters as indented JSON, atomically.
func SaveParams(path string, p Params) error {
	return atomicfile.Write(path, func(w io.Writer) error { return EncodeParams(w, p) })
}

// EncodeParams writes parameters as indented JSON, as SaveParams saves them.
func EncodeParams(w io.Writer, p Params) error {
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}
