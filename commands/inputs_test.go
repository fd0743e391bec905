package commands

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// writeGeoJSONTrack writes the quarter circle of writeTrack as a GeoJSON
// LineString in a .json file: a name a -route-report could be given too.
func writeGeoJSONTrack(t *testing.T, path string, n int) {
	t.Helper()
	var coords []string
	for i := range n {
		a := math.Pi / 2 * float64(i) / float64(n-1)
		lat := 46 + 600*math.Sin(a)/111195
		lon := 14 + 600*math.Cos(a)/(111195*math.Cos(46*math.Pi/180))
		coords = append(coords, fmt.Sprintf("[%.7f,%.7f,%.1f]", lon, lat, 200+60*float64(i)/float64(n-1)))
	}
	doc := `{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[` + strings.Join(coords, ",") + `]}}`
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The user's files are never overwritten: every file generate reads (the
// track, the heightmap, a parameter file) named again as any of its
// outputs is refused, naming the file, and the file is left as it was —
// -route t.json -route-report t.json used to replace the track with the
// report.
func TestOutputsNeverOverwriteAnInput(t *testing.T) {
	dir := t.TempDir()
	track := filepath.Join(dir, "t.json")
	writeGeoJSONTrack(t, track, 30)
	heightmap := filepath.Join(dir, "in.png")
	if _, _, err := runCLI(t, "-size", "65", "-o", heightmap); err != nil {
		t.Fatal(err)
	}
	preset := filepath.Join(dir, "p.json")
	if err := os.WriteFile(preset, []byte(`{"size": 257}`), 0o644); err != nil {
		t.Fatal(err)
	}
	o := filepath.Join(dir, "o.png")
	for _, c := range []struct {
		input string
		args  []string
	}{
		{track, []string{"-route", track, "-o", o, "-route-report", track}},
		{track, []string{"-route", track, "-o", o, "-params-out", track}},
		{heightmap, []string{"-heightmap", heightmap, "-o", heightmap}},
		{heightmap, []string{"-heightmap", heightmap, "-o", o, "-normal-map", heightmap}},
		{heightmap, []string{"-heightmap", heightmap, "-o", o, "-splat-map", heightmap}},
		{preset, []string{"-preset", preset, "-o", o, "-params-out", preset}},
		{preset, []string{"-preset", preset, "-route", track, "-o", o, "-route-report", preset}},
	} {
		before, err := os.ReadFile(c.input)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = runCLI(t, c.args...)
		if want := filepath.Base(c.input) + ": is also an input"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: error %v; want %q", c.args, err, want)
		}
		if after, _ := os.ReadFile(c.input); !bytes.Equal(before, after) {
			t.Errorf("%v: %s was overwritten", c.args, filepath.Base(c.input))
		}
		if _, err := os.Stat(o); err == nil {
			t.Fatalf("%v: o.png was written despite the refusal", c.args)
		}
	}
}

// Every file flag of generate is counted as an input or an output, so the
// check above covers them all: a file flag added later must be sorted
// here (and into generateOptions.inputs or outputs), and each input flag's
// file is among the inputs the overwrite check is given.
func TestEveryGenerateFileFlagIsCounted(t *testing.T) {
	inputs := []string{"heightmap", "route", "preset"}
	outputs := []string{"o", "params-out", "route-report", "normal-map", "splat-map", "masks"}
	notFiles := []string{"target"}

	var stderr bytes.Buffer
	if err := Generate([]string{"-h"}, &bytes.Buffer{}, &stderr); !errors.Is(err, ErrHelp) {
		t.Fatalf("generate -h: %v", err)
	}
	flags := regexp.MustCompile(`(?m)^\s+-(\S+) string$`).FindAllStringSubmatch(stderr.String(), -1)
	if len(flags) == 0 {
		t.Fatalf("no string flags in the usage:\n%s", stderr.String())
	}
	for _, f := range flags {
		if name := f[1]; !slices.Contains(inputs, name) && !slices.Contains(outputs, name) && !slices.Contains(notFiles, name) {
			t.Errorf("-%s is neither an input nor an output nor known to name no file", name)
		}
	}

	dir := t.TempDir()
	preset := filepath.Join(dir, "p.json")
	if err := os.WriteFile(preset, []byte(`{"size": 257}`), 0o644); err != nil {
		t.Fatal(err)
	}
	o := filepath.Join(dir, "o.png")
	for _, args := range [][]string{
		{"-heightmap", filepath.Join(dir, "in.png")},
		{"-route", filepath.Join(dir, "t.json")},
		{"-preset", preset},
	} {
		opt, err := parseGenerateFlags(append(args, "-o", o), &bytes.Buffer{})
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if !slices.Contains(opt.inputs(), args[1]) {
			t.Errorf("%s %s is not among the inputs %q", args[0], args[1], opt.inputs())
		}
	}
}
