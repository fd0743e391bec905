package web

import (
	"strings"
	"testing"

	"cordillera/internal/lesson"
	"cordillera/terrain"
)

// A teacher's link opens the preset with the link's parameters over it.
func TestParseFragmentPresetAndSeed(t *testing.T) {
	l, err := ParseFragment("#preset=scenario-3&seed=5&lesson=subdivision&open=Teach,Viewer")
	if err != nil {
		t.Fatal(err)
	}
	want, err := terrain.PresetParams("scenario-3")
	if err != nil {
		t.Fatal(err)
	}
	want.Seed = 5
	if l.Preset != "scenario-3" || l.Params != want || l.Lesson != "subdivision" || strings.Join(l.Open, ",") != "Teach,Viewer" {
		t.Errorf("got preset %q, lesson %q, open %v, params %+v; want scenario-3 with seed 5, subdivision, Teach,Viewer", l.Preset, l.Lesson, l.Open, l.Params)
	}
	if l, err := ParseFragment(""); err != nil || l.Preset != "default" || l.Params != terrain.DefaultParams() {
		t.Errorf("an empty fragment gives %+v, %v; want the default world", l, err)
	}
}

// Fragment writes only what differs from the preset, in the parameter
// table's order, and ParseFragment reads it back to the same world.
func TestFragmentRoundTrip(t *testing.T) {
	p, _ := terrain.PresetParams("scenario-3")
	p.Seed, p.Octaves, p.Erosion = 5, 3, "hydraulic,thermal"
	l := Link{Preset: "scenario-3", Params: p, State: lesson.State{Lesson: "octaves"}}
	frag := l.Fragment()
	if frag != "preset=scenario-3&seed=5&octaves=3&erosion=hydraulic%2Cthermal&lesson=octaves" {
		t.Errorf("Fragment() = %q", frag)
	}
	back, err := ParseFragment("#" + frag)
	if err != nil {
		t.Fatal(err)
	}
	if back.Preset != l.Preset || back.Params != l.Params || back.Lesson != l.Lesson {
		t.Errorf("%q reads back as %+v; want %+v", frag, back, l)
	}
	for _, pr := range terrain.Presets {
		p, err := terrain.PresetParams(pr.Name)
		if err != nil {
			t.Fatal(err)
		}
		frag := Link{Preset: pr.Name, Params: p}.Fragment()
		want := "preset=" + pr.Name
		if pr.Name == "default" {
			want = ""
		}
		if frag != want {
			t.Errorf("preset %s as it is links as %q; want %q", pr.Name, frag, want)
		}
	}
}

// A bad link is an error naming what was wrong, and the default world.
func TestParseFragmentErrors(t *testing.T) {
	for _, c := range []struct{ fragment, want string }{
		{"seed=many", "seed"},
		{"colour=red", `unknown parameter "colour"`},
		{"preset=alps", `unknown preset "alps"`},
		{"seed=1&seed=2", "seed is given 2 times"},
		{"octaves=1000", "octaves"},
		{"lesson=algebra", `lesson "algebra"`},
		{"open=Teach,Kitchen", `open "Kitchen"`},
		{"seed=%zz", "invalid URL escape"},
	} {
		l, err := ParseFragment(c.fragment)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "link") {
			t.Errorf("#%s: error %v; want one starting with link and naming %s", c.fragment, err, c.want)
		}
		if l.Preset != "default" || l.Params != terrain.DefaultParams() || l.Lesson != "" || l.Open != nil {
			t.Errorf("#%s: the link gives %+v; want the default world", c.fragment, l)
		}
	}
}
