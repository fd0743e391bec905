package terrain

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"cordillera/noise"
)

// Algorithm names a heightmap generator.
type Algorithm string

// The generators.
const (
	Midpoint          Algorithm = "midpoint"           // midpoint displacement, iterative (course notes 000, listing 2)
	MidpointRecursive Algorithm = "midpoint-recursive" // midpoint displacement, recursive (course notes 000, listing 3)
	DiamondSquareAlg  Algorithm = "diamond-square"     // diamond-square (000, papers 001 and 003)
	FBm               Algorithm = "fbm"                // fractional Brownian motion (thesis listing 6.1)
	Hetero            Algorithm = "hetero"             // heterogeneous multifractal (thesis listing 6.2)
	Hybrid            Algorithm = "hybrid"             // hybrid multifractal (thesis listing 6.3)
	Quilez            Algorithm = "quilez"             // Quilez's gradient-damped turbulence (thesis listing 6.4)
	Ridged            Algorithm = "ridged"             // Musgrave's ridged multifractal on (1−|N|)² (thesis 8.2 proposes ridged noise)
	Billow            Algorithm = "billow"             // billowy noise, fBm of |N| (thesis 8.2)
	Swiss             Algorithm = "swiss"              // de Carpentier's Swiss turbulence (thesis 8.2)
)

// Algorithms lists every generator in the order a user sees them.
var Algorithms = []Algorithm{Midpoint, MidpointRecursive, DiamondSquareAlg, FBm, Hetero, Hybrid, Quilez, Ridged, Billow, Swiss}

// IsSubdivision reports whether a is one of the subdivision generators, which
// need a (2^k+1)² grid and ignore the noise parameters.
func (a Algorithm) IsSubdivision() bool {
	return a == Midpoint || a == MidpointRecursive || a == DiamondSquareAlg
}

// Effect names a post-effect T_post (thesis section 6.2).
type Effect string

// The post-effects.
const (
	NoEffect Effect = "none"
	Glacier  Effect = "glacier" // bias, thesis eq. 6.3
	Canyon   Effect = "canyon"  // gain, thesis eq. 6.4
	Plateau  Effect = "plateau" // two-sided gain, thesis eq. 6.5
)

// Effects lists every post-effect.
var Effects = []Effect{NoEffect, Glacier, Canyon, Plateau}

// Corner initialisations for the subdivision generators.
const (
	CornersRandom = "random" // corners drawn as A·R, R uniform in [−1, 1] (paper 001)
	CornersFixed  = "fixed"  // all four corners set to CornerValue·A (paper 003 uses 0)
)

// Interpolation names how a lattice level is interpolated between its points.
type Interpolation string

// The interpolations of the route terrain (route.Generate).
const (
	Bilinear Interpolation = "bilinear" // paper 002, eq. (1)
	Quintic  Interpolation = "quintic"  // weights faded by 6t⁵ − 15t⁴ + 10t³: no creases along lattice lines
)

// Interpolations lists the lattice interpolations.
var Interpolations = []Interpolation{Bilinear, Quintic}

// MaxLevels caps the route terrain's lattice levels: level n holds
// (2ⁿ+1)² values, so 12 levels hold 22 M values (180 MB).
const MaxLevels = 12

// RouteLevels is the route terrain's lattice levels: p.Levels, or, where
// it is 0 (the default), as many as leave the finest lattice cell two
// samples wide, ⌊log₂(size − 1)⌋ within [1, AutoLevels]: the ground then
// holds detail as fine as the track the map follows (paper 002's map is
// its finest lattice; ours interpolates one level below it). Seven
// levels, the paper's, left a 1025² map no detail finer than 16 samples,
// smoother than the tracks it follows: the road's crease on
// korita-zbevnica.gpx was 3.1 times the ground's 99th-percentile
// curvature at 7 levels and 1.3 at 10.
func (p Params) RouteLevels() int {
	if p.Levels > 0 {
		return p.Levels
	}
	return min(max(bits.Len(uint(max(p.Size-1, 1)))-1, 1), AutoLevels)
}

// AutoLevels caps the levels RouteLevels picks by size: beyond 2049²
// the finest cell widens. The solved points, one per finest cell along
// the track, are factorised densely; at 12 levels on a 4097² map a 2-hour
// ride (gpsbabel's gtrnctr_power.tcx) needed 5286 points and 17 s against
// 2550 points and 7 s at 11, for a crease ratio of 1.7 against 1.9.
const AutoLevels = 11

// MaxSize caps the side of a generated map: 8193² float32 samples are 268 MB,
// and generation holds a few such buffers, so memory stays under 2 GB.
const MaxSize = 8193

// Params is every parameter of a generation. Its fields are described, with
// defaults and ranges, by Specs: the CLI flags, the JSON files and the debug
// UI are all built from that table.
type Params struct {
	Algorithm   Algorithm  `json:"algorithm"`
	Basis       noise.Kind `json:"basis"`
	Size        int        `json:"size"`
	Seed        int64      `json:"seed"`
	FeatureSize float64    `json:"feature-size"`
	Octaves     int        `json:"octaves"`
	Lacunarity  float64    `json:"lacunarity"`
	Hurst       float64    `json:"hurst"`
	Offset      float64    `json:"offset"`
	Amplitude   float64    `json:"amplitude"`
	Corners     string     `json:"corners"`
	CornerValue float64    `json:"corner-value"`
	Distortion  float64    `json:"distortion"`
	Effect      Effect     `json:"effect"`
	Intensity   float64    `json:"intensity"`
	CellSize    float64    `json:"cell-size"`
	Tileable    bool       `json:"tileable"` // periodic noise, the map wraps (fractal generators)
	// WorleyJitter is how far the Worley bases' feature points may stray
	// from their cells' centres: 1 anywhere in the cell (exact Worley noise,
	// the maps as before), less for more regular cells and faster noise.
	WorleyJitter float64 `json:"worley-jitter"`

	// BasisTransform is T_in, applied to the basis before any fractal algorithm.
	BasisTransform BasisTransform `json:"basis-transform"`

	// Erosion stages run after the generator (or on a loaded map) and
	// before the route constraint; see terrain/erosion.
	ErosionParams

	// Route-constrained generation (paper 002); used only with a route.
	Levels        int           `json:"levels"`
	Interpolation Interpolation `json:"interpolation"`
	RouteMargin   float64       `json:"route-margin"`
	RouteMedian   int           `json:"route-median"`
	RouteRelief   float64       `json:"route-relief"`
	RouteKeepAll  bool          `json:"route-keep-all"` // keep far fragments and elevation outliers
	RoadWidth     float64       `json:"road-width"`
}

// SpecKind is the type of a parameter's value.
type SpecKind int

// The parameter types.
const (
	IntParam SpecKind = iota
	FloatParam
	ChoiceParam
	ListParam // a comma-separated list of Choices, in order, or "none"
	BoolParam // yes or no: "false" or "true" as text (its Choices), a boolean in JSON; off by default
)

// Spec describes one parameter: its name (the CLI flag and the JSON key),
// default, range or choices, and a one-line meaning.
type Spec struct {
	Name     string
	Kind     SpecKind
	Default  string // as a user would type it
	Min, Max float64
	Choices  []string
	Usage    string
	Why      string // why the range stops where it does, added to out-of-range errors
	Group    string // the section of the debug UI and of -h it belongs to: "" (generator), "erosion" or "route"

	get func(p *Params) string
	set func(p *Params, s string) error
}

// Specs is the single source of truth for every generation parameter, in
// pipeline order: the generator's, the erosion stages' (erosionSpecs) and
// the route terrain's.
var Specs = slices.Concat(generatorSpecs, erosionSpecs, routeSpecs)

// generatorSpecs are the parameters of the generators and post-effects. The
// defaults are those of thesis section 7.3 (Perlin, seed 17, feature size
// 90 %, 8 octaves, λ = 2, H = 1).
var generatorSpecs = []Spec{
	choiceSpec("algorithm", string(FBm), names(Algorithms), "generator: subdivision (midpoint, diamond-square) or fractal noise synthesis",
		func(p *Params) *string { return (*string)(&p.Algorithm) }),
	choiceSpec("basis", string(noise.Perlin), names(noise.Kinds), "basis noise N of the fractal generators",
		func(p *Params) *string { return (*string)(&p.Basis) }),
	choiceSpec("basis-transform", string(PlainBasis), names(BasisTransforms), "T_in on the basis before any fractal algorithm (thesis eq. 3.4, 8.2): none, ridged 1 − |N|, billow |N|",
		func(p *Params) *string { return (*string)(&p.BasisTransform) }),
	floatSpec("worley-jitter", 1, 0, 1, "J: the Worley bases' feature points lie in the centred square of side J of their cells; 1 = anywhere (the maps as before), smaller = more regular cells, searched faster (FastNoise2's default is about 0.87)",
		func(p *Params) *float64 { return &p.WorleyJitter }),
	withWhyAbove(intSpec("size", 1025, 2, MaxSize, "samples per side of the square map (subdivision needs 2^k+1)",
		func(p *Params) *int { return &p.Size }), "larger maps would need more than 2 GB of memory"),
	intSpec("seed", 17, math.MinInt64, math.MaxInt64, "random seed: the same seed always gives the same map",
		func(p *Params) *int64 { return &p.Seed }),
	floatSpec("feature-size", 90, 0, 100, "size of the largest features, % on a log scale: 0 = one sample, 100 = the whole map",
		func(p *Params) *float64 { return &p.FeatureSize }),
	intSpec("octaves", 8, 1, 24, "number of noise bands n summed by the fractal generators",
		func(p *Params) *int { return &p.Octaves }),
	floatSpec("lacunarity", 2, 1.01, 16, "λ: frequency ratio between successive octaves",
		func(p *Params) *float64 { return &p.Lacunarity }),
	floatSpec("hurst", 1, 0, 2, "H: roughness decay, amplitude λ^(−iH) per octave or 2^(−nH) per subdivision; larger is smoother",
		func(p *Params) *float64 { return &p.Hurst }),
	floatSpec("offset", 0.5, -1, 2, "o: sea-level shift of the hetero and hybrid multifractals",
		func(p *Params) *float64 { return &p.Offset }),
	floatSpec("amplitude", 200, 1e-3, 1e6, "A: height of the terrain in world units (subdivision: z = A·R·2^(−nH))",
		func(p *Params) *float64 { return &p.Amplitude }),
	choiceSpec("corners", CornersRandom, []string{CornersRandom, CornersFixed}, "subdivision corner start: random A·R, or the fixed corner-value",
		func(p *Params) *string { return &p.Corners }),
	floatSpec("corner-value", 0, -1, 1, "height of the four corners with -corners fixed, in units of A (paper 003 uses 0)",
		func(p *Params) *float64 { return &p.CornerValue }),
	floatSpec("distortion", 0, 0, 100, "α in %: domain distortion T_pre(x,y) = (x + αN₁, y + αN₂)",
		func(p *Params) *float64 { return &p.Distortion }),
	choiceSpec("effect", string(NoEffect), names(Effects), "post-effect on the normalised heights: glacier (bias), canyon (gain), plateau",
		func(p *Params) *string { return (*string)(&p.Effect) }),
	floatSpec("intensity", 50, 0, 99, "s in %: strength of the post-effect (0 = none)",
		func(p *Params) *float64 { return &p.Intensity }),
	floatSpec("cell-size", 1, 1e-3, 1e4, "horizontal distance between samples in world units",
		func(p *Params) *float64 { return &p.CellSize }),
	boolSpec("tileable", "true: periodic noise, so the map wraps: its left column equals its right, its top row its bottom, slopes continuous (fractal generators, value or Perlin basis, integer λ)",
		func(p *Params) *bool { return &p.Tileable }),
}

// routeSpecs are the parameters of route-constrained generation (paper 002).
var routeSpecs = grouped("route", []Spec{
	withWhyAbove(intSpec("levels", 0, 0, MaxLevels, "N: lattice levels of the route terrain Σ Noise(P·2ⁿ)/2ⁿ; level n has 2ⁿ+1 points per side; 0 = by size, the finest cell 2 samples wide (10 at 1025², at most 11)",
		func(p *Params) *int { return &p.Levels }), "finer levels would hold more lattice values than memory allows"),
	choiceSpec("interpolation", string(Quintic), names(Interpolations), "lattice interpolation of the route terrain: smooth quintic, or the paper's bilinear (creases along lattice lines)",
		func(p *Params) *string { return (*string)(&p.Interpolation) }),
	floatSpec("route-margin", 10, 0, 45, "% of the map side kept free of the route on every side",
		func(p *Params) *float64 { return &p.RouteMargin }),
	intSpec("route-median", 5, 0, 51, "median filter over this many track points against elevation spikes; 0 = off",
		func(p *Params) *int { return &p.RouteMedian }),
	floatSpec("route-relief", 1, 0.1, 10, "relief of the terrain around the route, relative to the route's own: 1 = as rough as the route",
		func(p *Params) *float64 { return &p.RouteRelief }),
	boolSpec("route-keep-all", "true: keep every fragment of the track and every elevation as recorded; false: drop far fragments and repair elevation outliers",
		func(p *Params) *bool { return &p.RouteKeepAll }),
	floatSpec("road-width", 0, 0, 1000, "width in metres of a level road along the route; 0 = none",
		func(p *Params) *float64 { return &p.RoadWidth }),
})

// grouped puts specs into a section of the debug UI.
func grouped(group string, specs []Spec) []Spec {
	for i := range specs {
		specs[i].Group = group
	}
	return specs
}

// DefaultParams returns the parameters with every default of Specs.
func DefaultParams() Params {
	var p Params
	for _, s := range Specs {
		if err := s.set(&p, s.Default); err != nil {
			panic("terrain: bad default for " + s.Name + ": " + err.Error())
		}
	}
	return p
}

// SpecByName returns the spec of the named parameter.
func SpecByName(name string) (Spec, bool) {
	for _, s := range Specs {
		if s.Name == name {
			return s, true
		}
	}
	return Spec{}, false
}

// RangeText describes the accepted values: "[lo, hi]" or "a|b|c".
func (s Spec) RangeText() string {
	switch s.Kind {
	case ChoiceParam, BoolParam:
		return strings.Join(s.Choices, "|")
	case ListParam:
		return "none or a list of " + strings.Join(s.Choices, ",")
	}
	return "[" + fmtNum(s.Min) + ", " + fmtNum(s.Max) + "]"
}

// Get returns p's value of this parameter as text.
func (s Spec) Get(p *Params) string { return s.get(p) }

// Set parses text into p's value of this parameter, checking its range.
func (s Spec) Set(p *Params, text string) error { return s.set(p, text) }

// Validate checks every parameter against its range and the combinations
// the generators need. The error names the parameter and the problem.
func (p *Params) Validate() error {
	for _, s := range Specs {
		if err := s.set(&Params{}, s.get(p)); err != nil {
			return err
		}
	}
	if p.Algorithm.IsSubdivision() {
		if err := CheckSubdivisionSize(p.Size); err != nil {
			return err
		}
	}
	return nil
}

// CheckSubdivisionSize reports whether n is a valid subdivision size 2^k+1,
// naming the nearest valid sizes if it is not.
func CheckSubdivisionSize(n int) error {
	if n >= 3 && (n-1)&(n-2) == 0 {
		return nil
	}
	lo, hi := 3, 3
	for hi < n {
		lo, hi = hi, 2*hi-1
	}
	if n <= 3 {
		return fmt.Errorf("size %d: subdivision needs a size of 2^k+1; the smallest is 3", n)
	}
	return fmt.Errorf("size %d: subdivision needs a size of 2^k+1; nearest valid sizes are %d and %d", n, lo, hi)
}

// MarshalJSON writes every parameter, by its spec name.
func (p Params) MarshalJSON() ([]byte, error) {
	type plain Params
	return json.Marshal(plain(p))
}

// UnmarshalJSON reads parameters: keys missing from the input keep their
// defaults. Unknown and repeated keys, null, values of the wrong JSON type
// and out-of-range values are errors naming the key; with several bad keys
// the error is that of the first in alphabetical order, so it does not
// change from run to run. A leading UTF-8 byte-order mark is skipped.
func (p *Params) UnmarshalJSON(data []byte) error {
	raw, err := objectMembers(bytes.TrimPrefix(data, []byte("\ufeff")))
	if err != nil {
		return fmt.Errorf("parameters: %w", err)
	}
	q := DefaultParams()
	for _, key := range slices.Sorted(maps.Keys(raw)) {
		if err := setFromJSON(&q, key, raw[key]); err != nil {
			return fmt.Errorf("parameters: %w", err)
		}
	}
	if err := q.Validate(); err != nil {
		return fmt.Errorf("parameters: %w", err)
	}
	*p = q
	return nil
}

// objectMembers splits a JSON object into its members, refusing anything
// but one object (null included) and any key given twice, which
// encoding/json would silently resolve in favour of the last.
func objectMembers(data []byte) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, fmt.Errorf("want an object of parameters such as {\"size\": 257}, got %s", jsonKind(tok))
	}
	raw := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key := tok.(string) // inside an object the decoder yields keys as strings
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		if _, dup := raw[key]; dup {
			return nil, fmt.Errorf("%s: the key appears more than once", key)
		}
		raw[key] = val
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more data after the object of parameters")
	}
	return raw, nil
}

// jsonKind names the JSON value a token starts.
func jsonKind(tok json.Token) string {
	switch tok := tok.(type) {
	case nil:
		return "null"
	case json.Delim:
		if tok == '[' {
			return "an array"
		}
	case string:
		return "a string"
	case bool:
		return "a boolean"
	}
	return "a number"
}

// setFromJSON sets the parameter key from its JSON value: a string for
// choices and lists, a boolean for yes-or-no parameters (or the strings
// "true" and "false", as files written before they were booleans have
// them), a number (not a quoted one) for the others.
func setFromJSON(p *Params, key string, val json.RawMessage) error {
	s, ok := SpecByName(key)
	if !ok {
		return fmt.Errorf("unknown parameter %q", key)
	}
	want := "a number"
	switch s.Kind {
	case ChoiceParam, ListParam:
		want = "a string"
	case BoolParam:
		want = "a boolean"
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(val))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	var text string
	switch v := v.(type) {
	case string:
		if want != "a string" && want != "a boolean" {
			return fmt.Errorf("%s: want %s, got the string %s", key, want, val)
		}
		text = v
	case bool:
		if want != "a boolean" {
			return fmt.Errorf("%s: want %s, got %s", key, want, val)
		}
		text = strconv.FormatBool(v)
	case json.Number:
		if want != "a number" {
			return fmt.Errorf("%s: want %s, got the number %s", key, want, val)
		}
		text = v.String()
	default:
		return fmt.Errorf("%s: want %s, got %s", key, want, val)
	}
	return s.set(p, text)
}

// withWhy attaches the reason for a parameter's range to its out-of-range
// errors.
func withWhy(s Spec, why string) Spec { return explained(s, why, false) }

// withWhyAbove attaches the reason for a parameter's upper bound to the
// errors of values above it only: a size of 0 is not refused for memory.
func withWhyAbove(s Spec, why string) Spec { return explained(s, why, true) }

func explained(s Spec, why string, aboveOnly bool) Spec {
	set := s.set
	s.Why = why
	s.set = func(p *Params, text string) error {
		err := set(p, text)
		var re *rangeError
		if errors.As(err, &re) && (re.above || !aboveOnly) {
			return fmt.Errorf("%w: %s", err, why)
		}
		return err
	}
	return s
}

// rangeError is a value outside a parameter's range; above tells which side.
type rangeError struct {
	name, value string
	lo, hi      float64
	above       bool
}

func (e *rangeError) Error() string {
	return fmt.Sprintf("%s: %s is out of range [%s, %s]", e.name, e.value, fmtNum(e.lo), fmtNum(e.hi))
}

func names[T ~string](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = string(x)
	}
	return out
}

// listSpec is a parameter whose value is "none" or a comma-separated list
// of its choices, each at most once, kept in the order given.
func listSpec(name, def string, choices []string, usage string, field func(*Params) *string) Spec {
	return Spec{Name: name, Kind: ListParam, Default: def, Choices: choices, Usage: usage,
		get: func(p *Params) string { return *field(p) },
		set: func(p *Params, s string) error {
			s = strings.TrimSpace(s)
			if s == "" || s == "none" {
				*field(p) = "none"
				return nil
			}
			items := strings.Split(s, ",")
			for i, it := range items {
				it = strings.TrimSpace(it)
				if !slices.Contains(choices, it) {
					return fmt.Errorf("%s: %q is not one of %s (or none)", name, it, strings.Join(choices, ", "))
				}
				if slices.Contains(items[:i], it) {
					return fmt.Errorf("%s: %q is listed twice", name, it)
				}
				items[i] = it
			}
			*field(p) = strings.Join(items, ",")
			return nil
		}}
}

func choiceSpec(name, def string, choices []string, usage string, field func(*Params) *string) Spec {
	return Spec{Name: name, Kind: ChoiceParam, Default: def, Choices: choices, Usage: usage,
		get: func(p *Params) string { return *field(p) },
		set: func(p *Params, s string) error {
			if !slices.Contains(choices, s) {
				return fmt.Errorf("%s: %q is not one of %s", name, s, strings.Join(choices, ", "))
			}
			*field(p) = s
			return nil
		}}
}

// boolSpec is a yes-or-no parameter, off by default.
func boolSpec(name, usage string, field func(*Params) *bool) Spec {
	choices := []string{"false", "true"}
	return Spec{Name: name, Kind: BoolParam, Default: "false", Choices: choices, Usage: usage,
		get: func(p *Params) string { return strconv.FormatBool(*field(p)) },
		set: func(p *Params, s string) error {
			switch s {
			case "true":
				*field(p) = true
			case "false":
				*field(p) = false
			default:
				return fmt.Errorf("%s: %q is not one of %s", name, s, strings.Join(choices, ", "))
			}
			return nil
		}}
}

func intSpec[T int | int64](name string, def int64, lo, hi float64, usage string, field func(*Params) *T) Spec {
	return Spec{Name: name, Kind: IntParam, Default: strconv.FormatInt(def, 10), Min: lo, Max: hi, Usage: usage,
		get: func(p *Params) string { return strconv.FormatInt(int64(*field(p)), 10) },
		set: func(p *Params, s string) error {
			s = strings.TrimSpace(s)
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				// 2^64 and 1e20 are whole numbers too large, 2.5 none at all.
				f, ferr := strconv.ParseFloat(s, 64)
				switch {
				case errors.Is(err, strconv.ErrRange):
					return &rangeError{name, s, lo, hi, !strings.HasPrefix(s, "-")}
				case (ferr == nil || errors.Is(ferr, strconv.ErrRange)) && !math.IsNaN(f) && (f < lo || f > hi):
					return &rangeError{name, s, lo, hi, f > hi}
				case ferr == nil && f == math.Trunc(f) && math.Abs(f) <= 1<<53:
					v = int64(f) // 1e3, 65.0: exactly a whole number
				default:
					return fmt.Errorf("%s: %q is not a whole number", name, s)
				}
			}
			if float64(v) < lo || float64(v) > hi {
				return &rangeError{name, strconv.FormatInt(v, 10), lo, hi, float64(v) > hi}
			}
			*field(p) = T(v)
			return nil
		}}
}

func floatSpec(name string, def, lo, hi float64, usage string, field func(*Params) *float64) Spec {
	return Spec{Name: name, Kind: FloatParam, Default: fmtNum(def), Min: lo, Max: hi, Usage: usage,
		get: func(p *Params) string { return strconv.FormatFloat(*field(p), 'g', -1, 64) },
		set: func(p *Params, s string) error {
			v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				return fmt.Errorf("%s: %q is not a number", name, s)
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%s: %s is not a finite number", name, s)
			}
			if v < lo || v > hi {
				return &rangeError{name, fmtNum(v), lo, hi, v > hi}
			}
			*field(p) = v
			return nil
		}}
}

func fmtNum(v float64) string {
	switch v {
	case math.MaxInt64:
		return "2^63-1"
	case math.MinInt64:
		return "-2^63"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
