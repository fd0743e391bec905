package lesson

import (
	"flag"
	"io"
	"strconv"
	"strings"
	"testing"

	"cordillera/terrain"
)

// Each key's value reads back as written: Set then Pairs gives the same
// key and value, for every lesson's keys.
func TestKeysRoundTrip(t *testing.T) {
	for _, c := range []struct{ key, value string }{
		{"lesson", "subdivision"}, {"lesson", "octaves"}, {"lesson", "erosion"},
		{"stage", "1a"}, {"stage", "1b"}, {"stage", "2a"}, {"stage", "7b"},
		{"octave", "1"}, {"octave", "12"},
		{"batch", "1"}, {"batch", "40"}, {"batch", "400"},
		{"lesson", "thermal"}, {"lesson", "fluvial"},
		{"droplet", "1"}, {"droplet", "12"}, {"droplet", "1048576"},
		{"step", "1"}, {"step", "3"}, {"step", "100"},
		{"plot", "profile"}, {"plot", "histogram"}, {"plot", "spectrum"},
		{"camera", "512,900.5,-300,90,-40"}, {"camera", "0.1,-2.5,1000000,359.9,-89.9"},
	} {
		var s State
		if err := s.Set(c.key, c.value); err != nil {
			t.Errorf("%s=%s: %v", c.key, c.value, err)
			continue
		}
		pairs := s.Pairs()
		if len(pairs) != 1 || pairs[0] != [2]string{c.key, c.value} {
			t.Errorf("%s=%s reads back as %v", c.key, c.value, pairs)
		}
	}
}

// Stages read by number or by the article's label are the same stage.
func TestStageLabels(t *testing.T) {
	for k, label := range []string{"0", "1a", "1b", "2a", "2b", "3a", "3b"} {
		if got := StageLabel(k); got != label {
			t.Errorf("StageLabel(%d) = %s; want %s", k, got, label)
		}
		for _, v := range []string{label, strconv.Itoa(k)} {
			if got, err := ParseStage(v); err != nil || got != k {
				t.Errorf("ParseStage(%q) = %d, %v; want %d", v, got, err, k)
			}
		}
	}
}

// A bad value is refused with a message naming the key and what it takes.
func TestInvalidValuesNameTheKey(t *testing.T) {
	for _, c := range []struct{ key, value, want string }{
		{"lesson", "algebra", `lesson "algebra": want one of subdivision, octaves, erosion`},
		{"stage", "2c", `stage "2c": want a stage`},
		{"stage", "-1", `stage "-1": want 0 or more`},
		{"stage", "0a", `stage "0a"`},
		{"octave", "0", `octave "0": want the number of octaves summed`},
		{"octave", "x", `octave "x"`},
		{"batch", "401", `batch "401": want the droplet batches run, 0 to 400`},
		{"droplet", "-1", `droplet "-1": want the droplets run one at a time, 0 to 1048576`},
		{"droplet", "2x", `droplet "2x"`},
		{"step", "-2", `step "-2": want the thermal sweeps or fluvial time steps run`},
		{"plot", "pie", `plot "pie": want one of none, profile, histogram, spectrum`},
		{"camera", "1,2,3", `camera "1,2,3": want five numbers`},
		{"camera", "1,2,3,4,NaN", `camera "1,2,3,4,NaN": "NaN" is not a usable number`},
		{"speed", "3", `unknown lesson key "speed"`},
	} {
		var s State
		err := s.Set(c.key, c.value)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s=%s: error %v; want one containing %q", c.key, c.value, err, c.want)
		}
	}
}

// A state its map cannot show is refused, naming the key: a stage past
// the last, more octaves than the map sums, a key of another lesson.
func TestCheckRefusesWhatTheMapCannotShow(t *testing.T) {
	p := terrain.DefaultParams()
	p.Algorithm, p.Size = terrain.DiamondSquareAlg, 17
	for _, c := range []struct {
		s    State
		want string
	}{
		{State{Lesson: "subdivision", Stage: 9}, "stage 5a: the 17² map has stages 0 to 4b"},
		{State{Lesson: "octaves", Stage: 2}, "stage 1b: needs lesson subdivision"},
		{State{Lesson: "octaves", Octave: p.Octaves + 1}, "octave"},
		{State{Octave: 2}, "octave 2: needs lesson octaves"},
		{State{Lesson: "subdivision", Batch: 2}, "batch 2: needs lesson erosion"},
		{State{Lesson: "thermal", Droplet: 2}, "droplet 2: needs lesson erosion"},
		{State{Lesson: "erosion", Droplet: 2, Batch: 1}, "droplet 2: batch 1 names the other way"},
		{State{Lesson: "erosion", Step: 2}, "step 2: needs lesson thermal or fluvial"},
		{State{Lesson: "thermal", Step: p.ThermalIterations + 1}, "step 51: the thermal stage runs 50 sweeps (thermal-iterations=50)"},
		{State{Lesson: "fluvial", Step: p.FluvialSteps + 1}, "step 101: the fluvial stage runs at most 100 time steps (fluvial-steps=100)"},
	} {
		if err := c.s.Check(p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v; want an error containing %q", c.s, err, c.want)
		}
	}
	if err := (State{Lesson: "subdivision", Stage: 8}).Check(p); err != nil {
		t.Errorf("the last stage of a 17² map: %v", err)
	}
	for _, s := range []State{{Lesson: "erosion", Droplet: 12}, {Lesson: "thermal", Step: p.ThermalIterations}, {Lesson: "fluvial", Step: 3}} {
		if err := s.Check(p); err != nil {
			t.Errorf("%+v: %v", s, err)
		}
	}
	// A size that is not one of the lesson's steps the smallest map.
	p.Size = 513
	if got := Stages(p); got != 4 {
		t.Errorf("a 513² world's subdivision lesson has %d stages; want the 5² map's 4", got)
	}
}

// The flags read what a link's keys read, through the same Set: the flag
// names the key in its error.
func TestFlagsAreTheKeys(t *testing.T) {
	var s State
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	AddFlags(fs, &s, true)
	if err := fs.Parse([]string{"-lesson", "subdivision", "-stage", "2a", "-plot", "profile", "-camera", "1,2,3,4,5"}); err != nil {
		t.Fatal(err)
	}
	if s.Lesson != "subdivision" || s.Stage != 3 || s.Plot != "profile" || s.Camera == nil || *s.Camera != (Pose{1, 2, 3, 4, 5}) {
		t.Errorf("flags read %+v", s)
	}
	err := fs.Parse([]string{"-stage", "x"})
	if err == nil || !strings.Contains(err.Error(), "-stage") || !strings.Contains(err.Error(), "want a stage") {
		t.Errorf("-stage x: %v; want an error naming -stage", err)
	}
	fs2 := flag.NewFlagSet("explore", flag.ContinueOnError)
	AddFlags(fs2, &s, false)
	if fs2.Lookup("camera") != nil {
		t.Error("AddFlags without camera defined -camera")
	}
}

// Whatever Set accepts, Pairs writes so that Set reads it back the same.
func FuzzSet(f *testing.F) {
	for _, c := range [][2]string{{"stage", "2a"}, {"stage", "3"}, {"camera", "1,2,3,4,5"}, {"batch", "7"}, {"octave", "3"}, {"plot", "none"}, {"lesson", "erosion"}, {"droplet", "12"}, {"step", "3"}, {"lesson", "thermal"}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, key, value string) {
		var s State
		if s.Set(key, value) != nil {
			return
		}
		var back State
		for _, kv := range s.Pairs() {
			if err := back.Set(kv[0], kv[1]); err != nil {
				t.Fatalf("%s=%q wrote %s=%q, which reads as %v", key, value, kv[0], kv[1], err)
			}
		}
		if (s.Camera == nil) != (back.Camera == nil) || (s.Camera != nil && *s.Camera != *back.Camera) {
			t.Fatalf("%s=%q: camera %v reads back as %v", key, value, s.Camera, back.Camera)
		}
		s.Camera, back.Camera = nil, nil
		if s != back {
			t.Fatalf("%s=%q: %+v reads back as %+v", key, value, s, back)
		}
	})
}

// The compare and profile lessons and the clicked point round-trip as
// whole states (link → state → link): a profile's stage is an iteration
// written as a number, a point two whole numbers.
func TestNewLessonStatesRoundTrip(t *testing.T) {
	p := terrain.DefaultParams()
	p.Size = 17
	p.Algorithm = terrain.DiamondSquareAlg // the wear lessons wear a 257² map of it
	for _, link := range [][][2]string{
		{{"lesson", "compare"}, {"stage", "2b"}},
		{{"lesson", "compare"}, {"stage", "8"}},
		{{"lesson", "profile"}, {"stage", "3"}, {"octave", "4"}},
		{{"lesson", "subdivision"}, {"stage", "3a"}, {"point", "4,12"}},
		{{"lesson", "subdivision"}, {"point", "0,16"}},
		{{"lesson", "thermal"}, {"step", "3"}, {"point", "16,160"}},
		{{"lesson", "fluvial"}, {"point", "256,0"}},
	} {
		var s State
		for _, kv := range link {
			if err := s.Set(kv[0], kv[1]); err != nil {
				t.Fatalf("%v: %v", link, err)
			}
		}
		if err := s.Check(p); err != nil {
			t.Errorf("%v: %v", link, err)
		}
		want := link
		if link[1] == [2]string{"stage", "8"} {
			want = [][2]string{{"lesson", "compare"}, {"stage", "4b"}}
		}
		got := s.Pairs()
		if len(got) != len(want) {
			t.Errorf("%v reads back as %v", link, got)
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%v reads back as %v, want %v", link, got, want)
			}
		}
	}
	for _, c := range []struct {
		link [][2]string
		want string
	}{
		{[][2]string{{"lesson", "profile"}, {"stage", "5"}}, "stage 5: the 17-point profile has iterations 0 to 4"},
		{[][2]string{{"lesson", "compare"}, {"stage", "5a"}}, "stage 5a: the 17² map has stages 0 to 4b"},
		{[][2]string{{"lesson", "octaves"}, {"point", "1,1"}}, "point 1,1: needs lesson subdivision, thermal or fluvial"},
		{[][2]string{{"lesson", "erosion"}, {"point", "1,1"}}, "point 1,1: needs lesson subdivision, thermal or fluvial"},
		{[][2]string{{"lesson", "thermal"}, {"point", "257,3"}}, "point 257,3: outside the 257² map (0 to 256)"},
		{[][2]string{{"lesson", "subdivision"}, {"point", "17,0"}}, "point 17,0: outside the 17² map (0 to 16)"},
		{[][2]string{{"lesson", "erosion"}, {"stage", "1"}}, "stage 1a: needs lesson subdivision, compare, profile"},
	} {
		var s State
		for _, kv := range c.link {
			if err := s.Set(kv[0], kv[1]); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Check(p); err == nil || err.Error() != c.want {
			t.Errorf("%v: Check = %v; want %q", c.link, err, c.want)
		}
	}
	for _, bad := range []string{"1", "1,2,3", "-1,2", "a,b", "1, 2", "01,2"} {
		var s State
		if err := s.Set("point", bad); err == nil || !strings.Contains(err.Error(), "want the diagram point or sample clicked as col,row") {
			t.Errorf("point=%s: %v", bad, err)
		}
	}
}
