package commands

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cordillera/terrain"
	"cordillera/terrain/heightfile"
)

func runPlotCLI(args ...string) (stdout string, err error) {
	var out, errb bytes.Buffer
	err = Plot(args, &out, &errb)
	return out.String() + errb.String(), err
}

// pngSize reads a PNG's width and height.
func pngSize(t *testing.T, path string) (int, int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Width, cfg.Height
}

func TestPlotEveryKind(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-kind", "profile", "-size", "65", "-line", "0,0,1,1"}, "profile of 92 points"},
		{[]string{"-kind", "histogram", "-size", "65", "-bins", "10"}, "histogram of 4225 samples in 10 bins"},
		{[]string{"-kind", "spectrum", "-size", "257", "-feature-size", "100", "-octaves", "8", "-hurst", "0.5"}, "fBm theory -(2H+2) for H 0.5: -3.000"},
		{[]string{"-kind", "spectrum", "-size", "257", "-band", "1/64,1/4"}, "over f in [0.015625, 0.25]"},
	} {
		out := filepath.Join(dir, tc.args[1]+".png")
		stdout, err := runPlotCLI(append(tc.args, "-o", out, "-width", "640", "-height", "400")...)
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if !strings.Contains(stdout, tc.want) || !strings.Contains(stdout, "wrote "+out) {
			t.Errorf("%q: output %q lacks %q", tc.args, stdout, tc.want)
		}
		if w, h := pngSize(t, out); w != 640 || h != 400 {
			t.Errorf("%q: image %d×%d, want 640×400", tc.args, w, h)
		}
	}
}

// The spectrum's summary reports the fitted slope of the map actually
// measured: a rough map's slope is shallower than a smooth one's.
func TestPlotSpectrumSlope(t *testing.T) {
	dir := t.TempDir()
	slope := func(hurst string) float64 {
		stdout, err := runPlotCLI("-kind", "spectrum", "-size", "513", "-feature-size", "100", "-octaves", "9", "-hurst", hurst, "-o", filepath.Join(dir, "s.png"))
		if err != nil {
			t.Fatal(err)
		}
		_, after, _ := strings.Cut(stdout, "spectrum slope ")
		v, err := strconv.ParseFloat(strings.Fields(after)[0], 64)
		if err != nil {
			t.Fatalf("output %q: %v", stdout, err)
		}
		return v
	}
	rough, smooth := slope("0.3"), slope("0.9")
	if !(rough > smooth+0.8) { // theory: −2.6 and −3.8
		t.Errorf("slopes H 0.3: %.3f, H 0.9: %.3f; want the rough map's shallower by about 1.2", rough, smooth)
	}
}

// A heightmap file can be plotted too; -hurst picks the theory line.
func TestPlotHeightmapFile(t *testing.T) {
	dir := t.TempDir()
	p := terrain.DefaultParams()
	p.Size = 129
	m, err := generateMap(t.Context(), p)
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "map.png")
	if err := heightfile.SaveHeightmap(in, m); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "plot.png")
	stdout, err := runPlotCLI("-kind", "spectrum", "-heightmap", in, "-hurst", "0.7", "-o", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "for H 0.7") {
		t.Errorf("output %q: want the theory for -hurst 0.7", stdout)
	}
}

func TestPlotErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "plot.png")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-kind", "pie", "-o", out}, `-kind "pie" is not one of profile, histogram, spectrum`},
		{[]string{"-o", out}, "-kind is required: profile, histogram, spectrum"},
		{[]string{"-kind", "profile"}, "-o FILE.png is required"},
		{[]string{"-kind", "profile", "-o", filepath.Join(dir, "plot.svg")}, "-o FILE.png is required"},
		{[]string{"-kind", "profile", "-line", "0,0,1", "-o", out}, `-line: "0,0,1": want four numbers`},
		{[]string{"-kind", "profile", "-line", "0,NaN,1,1", "-o", out}, `-line: "0,NaN,1,1": coordinate 2 (NaN) is not a map fraction`},
		{[]string{"-kind", "profile", "-line", "0,0,1.5,1", "-o", out}, `-line: "0,0,1.5,1": coordinate 3 (1.5) is not a map fraction`},
		{[]string{"-kind", "profile", "-line", "0.5,0.5,0.5,0.5", "-o", out}, `-line: "0.5,0.5,0.5,0.5": the two ends are the same point`},
		{[]string{"-kind", "histogram", "-line", "0,0,1,1", "-o", out}, "-line applies only to -kind profile"},
		{[]string{"-kind", "profile", "-bins", "10", "-o", out}, "-bins applies only to -kind histogram"},
		{[]string{"-kind", "histogram", "-bins", "0", "-o", out}, "-bins 0: want 1 to 1000"},
		{[]string{"-kind", "spectrum", "-band", "1/8,1/64", "-o", out}, `-band: "1/8,1/64": want 0 < fmin < fmax`},
		{[]string{"-kind", "spectrum", "-band", "x,1/8", "-o", out}, `-band: "x,1/8": "x" is not a number`},
		{[]string{"-kind", "spectrum", "-band", "1/0,1/8", "-o", out}, `-band: "1/0,1/8": "1/0" is not a number`},
		{[]string{"-kind", "spectrum", "-size", "9", "-o", out}, "a 9×9 map is too small"},
		{[]string{"-kind", "spectrum", "-size", "33", "-band", "0.46,0.5", "-o", out}, "annuli with power in the band [0.46, 0.5]"},
		{[]string{"-kind", "profile", "-width", "10", "-o", out}, "-width 10 -height 600: want 200 to 8192"},
		{[]string{"-kind", "profile", "-hurst", "3", "-o", out}, `invalid value "3" for flag -hurst: 3 is out of range`},
	} {
		output, err := runPlotCLI(tc.args...)
		if err == nil {
			t.Errorf("%q: no error", tc.args)
			continue
		}
		// A flag the flag package rejects reports on the output; every
		// case here names flags that exist, so "not defined" is a failure.
		msg := err.Error()
		if err == ErrUsage {
			msg = output
		}
		if !strings.Contains(msg, tc.want) || strings.Contains(output, "not defined") {
			t.Errorf("%q: error %q (output %q) lacks %q", tc.args, msg, output, tc.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("failed plots left files: %v", entries)
	}
}
