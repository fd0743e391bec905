package terrain

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestDefaultsAreThesisSection73(t *testing.T) {
	p := DefaultParams()
	want := Params{Algorithm: FBm, Basis: "perlin", Size: 1025, Seed: 17, FeatureSize: 90, Octaves: 8,
		Lacunarity: 2, Hurst: 1, Offset: 0.5, Amplitude: 200, Corners: CornersRandom, CornerValue: 0,
		Distortion: 0, Effect: NoEffect, Intensity: 50, CellSize: 1, Tileable: false, BasisTransform: PlainBasis, WorleyJitter: 1,
		Levels: 0, Interpolation: Quintic, RouteMargin: 10, RouteMedian: 5, RouteRelief: 1, RouteKeepAll: false, RoadWidth: 0}
	want.ErosionParams = p.ErosionParams // erosion defaults are tested in erosionparams_test.go
	if p != want {
		t.Fatalf("defaults\n got %+v\nwant %+v", p, want)
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
}

// Every field of Params has exactly one spec, under its JSON name, so a new
// parameter cannot be forgotten in the flags, the files or the UI.
func TestSpecsCoverEveryField(t *testing.T) {
	var fields []reflect.StructField // the leaves: embedded groups are flattened, as in JSON
	for _, f := range reflect.VisibleFields(reflect.TypeOf(Params{})) {
		if !f.Anonymous {
			fields = append(fields, f)
		}
	}
	if len(fields) != len(Specs) {
		t.Fatalf("Params has %d fields, Specs has %d entries", len(fields), len(Specs))
	}
	for _, f := range fields {
		name := f.Tag.Get("json")
		s, ok := SpecByName(name)
		if !ok {
			t.Errorf("field %s (json %q) has no spec", f.Name, name)
			continue
		}
		if s.Usage == "" {
			t.Errorf("%s: no usage text", name)
		}
		// Setting the spec must change exactly this field.
		p := DefaultParams()
		var alt string
		switch s.Kind {
		case ChoiceParam, ListParam, BoolParam:
			alt = s.Choices[len(s.Choices)-1]
			if alt == s.Default {
				alt = s.Choices[0]
			}
		case IntParam:
			alt = strconv.FormatInt(int64(s.Min), 10)
			if alt == s.Default {
				alt = strconv.FormatInt(int64(s.Max), 10)
			}
		default:
			alt = fmtNum(s.Min)
			if alt == s.Default {
				alt = fmtNum(s.Max)
			}
		}
		if err := s.Set(&p, alt); err != nil {
			t.Fatalf("%s: set %q: %v", name, alt, err)
		}
		if got := s.Get(&p); got != alt {
			t.Errorf("%s: set %q, got back %q", name, alt, got)
		}
		if reflect.ValueOf(p).FieldByIndex(f.Index).Interface() == reflect.ValueOf(DefaultParams()).FieldByIndex(f.Index).Interface() {
			t.Errorf("%s: setting %q did not change field %s", name, alt, f.Name)
		}
	}
}

func TestSpecRejectsBadValues(t *testing.T) {
	cases := []struct{ name, value, want string }{
		{"hurst", "NaN", "not a finite number"},
		{"hurst", "+Inf", "not a finite number"},
		{"hurst", "abc", "not a number"},
		{"hurst", "2.5", "out of range"},
		{"octaves", "0", "out of range"},
		{"octaves", "2.5", "not a whole number"},
		{"size", "1", "out of range"},
		{"size", "100000", "out of range"},
		{"lacunarity", "1", "out of range"},
		{"basis", "gabor", "not one of value, perlin, simplex, worley"},
		{"algorithm", "erosion", "not one of midpoint"},
		{"effect", "volcano", "not one of none, glacier"},
		{"intensity", "100", "out of range"},
		{"seed", "99999999999999999999", "out of range"},
		{"seed", "18446744073709551616", "out of range [-2^63, 2^63-1]"},
		{"size", "1e20", "out of range [2, 8193]"},
		{"size", "1e400", "out of range"},
		{"size", "-1e400", "out of range"},
		{"size", "65.5", "not a whole number"},
	}
	for _, c := range cases {
		s, _ := SpecByName(c.name)
		p := DefaultParams()
		err := s.Set(&p, c.value)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), c.name+":") {
			t.Errorf("%s=%s: error %v, want one starting %q and containing %q", c.name, c.value, err, c.name, c.want)
		}
		if p != DefaultParams() {
			t.Errorf("%s=%s: a rejected value changed the parameters", c.name, c.value)
		}
	}
}

func TestSubdivisionSizeErrorNamesNearestSizes(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{1024, "513 and 1025"}, {1100, "1025 and 2049"}, {1000, "513 and 1025"}, {4, "3 and 5"}, {6, "5 and 9"}, {2, "smallest is 3"}} {
		err := CheckSubdivisionSize(c.n)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("size %d: %v, want mention of %q", c.n, err, c.want)
		}
	}
	for _, n := range []int{3, 5, 9, 17, 257, 1025, 4097, 8193} {
		if err := CheckSubdivisionSize(n); err != nil {
			t.Errorf("size %d: %v", n, err)
		}
	}
	p := DefaultParams()
	p.Algorithm, p.Size = DiamondSquareAlg, 1024
	if err := p.Validate(); err == nil {
		t.Error("diamond-square at 1024 validated")
	}
	p.Algorithm = FBm
	if err := p.Validate(); err != nil {
		t.Errorf("fbm at 1024: %v", err)
	}
}

func TestParamsJSONRoundTrip(t *testing.T) {
	p := DefaultParams()
	p.Algorithm, p.Basis, p.Seed, p.Hurst, p.Effect, p.Intensity = Hybrid, "simplex", -42, 0.25, Canyon, 33.3
	p.Seed = math.MinInt64 + 7
	data, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var q Params
	if err := json.Unmarshal(data, &q); err != nil {
		t.Fatal(err)
	}
	if p != q {
		t.Fatalf("round trip\n got %+v\nwant %+v\njson %s", q, p, data)
	}
	for _, s := range Specs {
		if !strings.Contains(string(data), `"`+s.Name+`":`) {
			t.Errorf("JSON lacks key %q: %s", s.Name, data)
		}
	}
}

func TestParamsJSONErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"hurst": "x"}`, "hurst: want a number"},
		{`{"octaves": 2.5}`, "octaves"},
		{`{"hurst": 7}`, "hurst: 7 is out of range"},
		{`{"colour": 1}`, `unknown parameter "colour"`},
		{`{"basis": 3}`, "basis: want a string"},
		{`{"algorithm": "midpoint", "size": 1000}`, "nearest valid sizes are 513 and 1025"},
		{`[1,2]`, "parameters"},
		{`{"hurst": 1`, "parameters"},
	}
	checkJSONErrors(t, cases)
	var p Params
	if err := json.Unmarshal([]byte(`{"hurst": 0.5}`), &p); err != nil || p.Hurst != 0.5 || p.Octaves != 8 {
		t.Errorf("partial file: %+v %v; want defaults with hurst 0.5", p, err)
	}
}

// What encoding/json lets through is refused with the key named: a key
// given twice (the last one won), null (all defaults), a quoted number, a
// value of the wrong type; a byte-order mark is skipped.
func TestParamsJSONStrictness(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"size":99999999,"size":65}`, "size: the key appears more than once"},
		{`{"size":65,"size":65}`, "size: the key appears more than once"},
		{`null`, "want an object of parameters"},
		{`{"size":null}`, "size: want a number, got null"},
		{`{"size":"257"}`, `size: want a number, got the string "257"`},
		{`{"basis":null}`, "basis: want a string, got null"},
		{`{"basis":true}`, "basis: want a string, got true"},
		{`{"size":1e20}`, "size: 1e20 is out of range [2, 8193]"},
		{`{"seed":18446744073709551616}`, "seed: 18446744073709551616 is out of range"},
		{`{"size":0}`, "size: 0 is out of range [2, 8193]"},
		{`{"size":65} {"size":9}`, "more data after the object"},
		{`"x"`, "got a string"},
	}
	checkJSONErrors(t, cases)
	var p Params
	if err := p.UnmarshalJSON([]byte("\ufeff{\"size\": 65}")); err != nil || p.Size != 65 {
		t.Errorf("byte-order mark: size %d, error %v; want 65", p.Size, err)
	}
	if err := p.UnmarshalJSON([]byte(`{"size": 65.0, "seed": 1e3}`)); err != nil || p.Size != 65 || p.Seed != 1000 {
		t.Errorf("whole numbers written as floats: size %d seed %d, error %v; want 65 and 1000", p.Size, p.Seed, err)
	}
}

// Only a value above a range gets the reason for its upper bound: -size 0
// is not too large for memory.
func TestRangeReasonOnlyAboveTheRange(t *testing.T) {
	s, _ := SpecByName("size")
	if err := s.Set(&Params{}, "0"); err == nil || strings.Contains(err.Error(), "2 GB") {
		t.Errorf("size 0: %v; want out of range without the memory reason", err)
	}
	if err := s.Set(&Params{}, "9000"); err == nil || !strings.Contains(err.Error(), "more than 2 GB") {
		t.Errorf("size 9000: %v; want the memory reason", err)
	}
}

// With several bad keys the error is always that of the first key in
// alphabetical order; it came from Go's random map order before.
func TestParamsJSONErrorIsDeterministic(t *testing.T) {
	in := []byte(`{"octaves": 0, "hurst": 9, "size": 1, "zzz": 1, "amplitude": -1, "basis": "x"}`)
	for range 50 {
		var p Params
		err := p.UnmarshalJSON(in)
		if err == nil || !strings.Contains(err.Error(), "amplitude:") {
			t.Fatalf("error %v, want the one about amplitude, the first bad key alphabetically", err)
		}
	}
}

func TestPresets(t *testing.T) {
	seen := map[string]bool{}
	for _, pr := range Presets {
		if seen[pr.Name] {
			t.Errorf("preset %s listed twice", pr.Name)
		}
		seen[pr.Name] = true
		if _, err := PresetParams(pr.Name); err != nil {
			t.Errorf("preset %s: %v", pr.Name, err)
		}
	}
	s1, _ := PresetParams("scenario-1")
	if s1.Size != 257 || s1.Amplitude != 50 || s1.CellSize != 1 {
		t.Errorf("scenario-1 = %+v, want thesis 7.6: a 256² map (257² here), height 50, cell size 1", s1)
	}
	s2, _ := PresetParams("scenario-2")
	if s2.Algorithm != FBm || s2.FeatureSize != 100 || s2.Effect != Plateau || s2.Intensity != 75 {
		t.Errorf("scenario-2 = %+v, want thesis 7.6: fBm, feature 100 %%, plateau 75 %%", s2)
	}
	s3, _ := PresetParams("scenario-3")
	if s3.Algorithm != Hybrid || s3.FeatureSize != 95 || s3.Hurst != 0.25 || s3.Offset != 0.7 || s3.Effect != Glacier || s3.Intensity != 25 {
		t.Errorf("scenario-3 = %+v, want thesis 7.6: hybrid, feature 95 %%, H 0.25, o 0.7, glacier 25 %%", s3)
	}
	if _, err := PresetParams("nope"); err == nil || !strings.Contains(err.Error(), "scenario-2") {
		t.Errorf("unknown preset: %v, want a list of presets", err)
	}
}

func FuzzParamsJSON(f *testing.F) {
	f.Add([]byte(`{"algorithm":"hybrid","hurst":0.25}`))
	f.Add([]byte(`{"size":1e400}`))
	f.Add([]byte(`{"seed":-9223372036854775808}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var p Params
		if err := json.Unmarshal(data, &p); err != nil {
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("accepted %q but it does not validate: %v", data, err)
		}
		again, _ := json.Marshal(p)
		var q Params
		if err := json.Unmarshal(again, &q); err != nil || q != p {
			t.Fatalf("re-encoding %q: %v, %+v != %+v", data, err, q, p)
		}
	})
}

// checkJSONErrors checks that each case's input is refused with an error
// that contains its want.
func checkJSONErrors(t *testing.T, cases []struct{ in, want string }) {
	t.Helper()
	for _, c := range cases {
		var p Params
		err := p.UnmarshalJSON([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.in, err, c.want)
		}
	}
}

// Levels 0 leaves the route terrain's finest lattice cell two samples
// wide on maps up to 2049² (AutoLevels beyond); a level set by hand is
// kept.
func TestRouteLevelsFollowTheSize(t *testing.T) {
	for _, c := range []struct{ size, want int }{
		{2, 1}, {3, 1}, {5, 2}, {33, 5}, {257, 8}, {513, 9}, {1025, 10}, {1000, 9}, {2049, 11}, {4097, 11}, {8193, 11},
	} {
		p := DefaultParams()
		p.Size = c.size
		got := p.RouteLevels()
		if got != c.want {
			t.Errorf("size %d: %d levels, want %d", c.size, got, c.want)
		}
		if finest := float64(c.size-1) / float64(int(1)<<(got-1)); c.size > 2 && c.size <= 2049 && (finest < 2 || finest >= 4) {
			t.Errorf("size %d, %d levels: finest cell %.2f samples, want [2, 4)", c.size, got, finest)
		}
		p.Levels = 7
		if got := p.RouteLevels(); got != 7 {
			t.Errorf("size %d, -levels 7: %d levels", c.size, got)
		}
	}
}
