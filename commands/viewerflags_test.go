package commands

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"regexp"
	"strings"
	"testing"

	"cordillera/game"
)

// TestRenderHasEveryViewerFlag: render's flags include one for each Viewer
// setting that names a flag in game.ViewerSpecs, and keep the shortcuts.
func TestRenderHasEveryViewerFlag(t *testing.T) {
	var stderr bytes.Buffer
	if err := Render([]string{"-h"}, io.Discard, &stderr); !errors.Is(err, ErrHelp) {
		t.Fatalf("render -h: %v", err)
	}
	have := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  -([a-z0-9-]+)`).FindAllStringSubmatch(stderr.String(), -1) {
		have[m[1]] = true
	}
	want := []string{"slope", "no-shadows", "fog"}
	for _, s := range game.ViewerSpecs {
		if s.Flag != "" {
			want = append(want, s.Flag)
		}
	}
	for _, f := range want {
		if !have[f] {
			t.Errorf("render has no -%s flag", f)
		}
	}
}

// TestRenderViewerFlagsSetTheView: the Viewer flags given set those
// settings and leave the others as the preset had them; a bad value is
// refused with the flag's name before any world is made.
func TestRenderViewerFlagsSetTheView(t *testing.T) {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	vf := addViewerFlags(fs)
	args := []string{"-ambient", "0.3", "-aa=false", "-wireframe", "-texturing", "slope", "-water", "0", "-snow-line", "0.8", "-bands", "3"}
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	v := game.DefaultViewer()
	v.Water = 0.2 // a preset's water: -water 0 takes it away
	want := v
	want.Ambient, want.Antialias, want.Wireframe, want.Texturing, want.Water, want.SnowLine, want.MaterialCount = 0.3, false, true, game.BySlope, 0, 0.8, 3
	vf.apply(&v)
	if v != want {
		t.Errorf("%q gave\n%+v\nwant\n%+v", args, v, want)
	}

	for _, bad := range [][]string{{"-ambient", "2"}, {"-texturing", "bands"}, {"-sun-elevation", "NaN"}, {"-bands", "2.5"}, {"-water", "-0.1"}} {
		var stderr bytes.Buffer
		err := Render(append([]string{"-o", "x.png"}, bad...), io.Discard, &stderr)
		if !errors.Is(err, ErrUsage) || !strings.Contains(stderr.String(), bad[0]) || !strings.Contains(stderr.String(), bad[1]) {
			t.Errorf("render %s: %v, stderr %q; want a usage error naming the flag and its value", strings.Join(bad, " "), err, stderr.String())
		}
	}
}
