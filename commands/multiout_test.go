package commands

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// withBar makes generate draw its progress bar on stderr, as on a
// terminal, from the first moment, for the rest of the test.
func withBar(t *testing.T) {
	t.Helper()
	old := generateBar
	generateBar = func(w io.Writer) *phaseBar { return newPhaseBar(w, 0) }
	t.Cleanup(func() { generateBar = old })
}

// barLine is a phase's line: its name, the bar and percentage where it
// reports a fraction, and its time.
var barLine = regexp.MustCompile(`^(.+?) +(\[[= ]*\] +\d+% )?[0-9.]+(ns|µs|ms|s|m[0-9.]*s)\b`)

// phasesOf returns the phases a bar drew, in order: each ended phase
// leaves its last line, ending in a newline.
func phasesOf(stderr string) []string {
	var phases []string
	for _, line := range strings.Split(stderr, "\n") {
		if i := strings.LastIndex(line, "\r"); i >= 0 {
			line = line[i+1:]
		}
		if m := barLine.FindStringSubmatch(line); m != nil {
			phases = append(phases, m[1])
		}
	}
	return phases
}

// Several -o files from one build: each is byte for byte the file a run
// with that -o alone writes (its own format, scale and metadata), and the
// map is built and eroded once. Before, -o given twice kept the last.
func TestOneBuildWritesEveryOutput(t *testing.T) {
	withBar(t)
	dir := t.TempDir()
	common := []string{"-size", "129", "-erosion", "thermal", "-params-out", filepath.Join(dir, "p.json")}
	exts := []string{".png", ".exr", ".r16", ".glb", ".tif"}
	var args []string
	for _, ext := range exts {
		args = append(args, "-o", filepath.Join(dir, "all"+ext))
	}
	stdout, stderr, err := runCLI(t, slices.Concat(common, args)...)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"generating", "thermal erosion"}
	for _, ext := range exts {
		want = append(want, "writing all"+ext)
	}
	want = append(want, "writing p.json")
	if got := phasesOf(stderr); !slices.Equal(got, want) {
		t.Errorf("phases %q, want %q: the map built and eroded once, then each file written", got, want)
	}
	if !strings.Contains(stdout, "wrote "+filepath.Join(dir, "all.png")+", "+filepath.Join(dir, "all.exr")) {
		t.Errorf("stdout %q does not list the outputs in order", stdout)
	}
	for _, ext := range exts {
		alone := filepath.Join(dir, "alone"+ext)
		if _, _, err := runCLI(t, "-size", "129", "-erosion", "thermal", "-o", alone); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(alone)
		b, err := os.ReadFile(filepath.Join(dir, "all"+ext))
		if err != nil {
			t.Fatal(err)
		}
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s: %d bytes from the shared build differ from the %d of a run writing it alone", ext, len(b), len(a))
		}
	}
}

// Every output is checked before anything is made: an unknown format, a
// file named twice, an output that is an input. A failing write names its
// file, and none of the outputs is left.
func TestOutputsCheckedBeforeTheBuild(t *testing.T) {
	withBar(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "in.png")
	if _, _, err := runCLI(t, "-size", "65", "-o", in); err != nil {
		t.Fatal(err)
	}
	track := writeTrack(t, dir, 30)
	good := filepath.Join(dir, "good.png")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-size", "257", "-erosion", "thermal", "-o", good, "-o", filepath.Join(dir, "x.jpg")}, `x.jpg: unknown format ".jpg"`},
		{[]string{"-size", "257", "-o", good, "-o", filepath.Join(dir, ".", "good.png")}, "good.png: the same file as -o " + good},
		{[]string{"-heightmap", in, "-erosion", "thermal", "-o", good, "-o", in}, "in.png: is also an input"},
		{[]string{"-size", "257", "-route", track, "-o", good, "-o", filepath.Join(dir, "track.r16"), "-o", track}, "unknown format"},
		{[]string{"-size", "257", "-target", "godot", "-o", filepath.Join(dir, "g.exr"), "-o", good}, "-target godot imports .exr, .r16 heightmaps; -o " + good},
		{[]string{"-size", "257", "-mesh-error", "1", "-o", good, "-o", filepath.Join(dir, "m.exr")}, "-mesh-error and -bake-texture shape a mesh"},
	} {
		_, stderr, err := runCLI(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.args, err, c.want)
		}
		if phases := phasesOf(stderr); len(phases) != 0 {
			t.Errorf("%v: refused after %q; want before anything is made", c.args, phases)
		}
		if _, err := os.Stat(good); err == nil {
			t.Fatalf("%v: good.png was written", c.args)
		}
	}
	_, _, err := runCLI(t, "-size", "65", "-o", good, "-o", filepath.Join(dir, "missing", "x.exr"))
	if err == nil || !strings.Contains(err.Error(), "-o cannot write into folder "+filepath.Join(dir, "missing")) {
		t.Errorf("an output in a missing folder: error %v, want it to name the folder", err)
	}
	if names := dirNames(t, dir); !slices.Equal(names, []string{"in.png", "track.csv"}) {
		t.Errorf("after a failed write the folder holds %q", names)
	}
}

// The bar names each phase as it runs and estimates the time it has left
// from that phase's own rate: a slow stage after a fast one is not given
// the fast one's speed. The summary's time includes writing.
func TestProgressPerPhase(t *testing.T) {
	var buf bytes.Buffer
	clock := time.Unix(0, 0)
	b := newPhaseBarClock(&buf, 0, func() time.Time { return clock })
	gen := b.Phase("generating")
	clock = clock.Add(800 * time.Millisecond)
	gen(0.001) // too little to tell
	if strings.Contains(buf.String(), "left") {
		t.Errorf("an estimate from 0.1 %%: %q", buf.String())
	}
	clock = clock.Add(200 * time.Millisecond)
	gen(0.5) // 1 s for half: 1 s left
	if !strings.Contains(buf.String(), "50% 1s, about 1s left") {
		t.Errorf("generating at half after 1 s: %q, want about 1s left", buf.String())
	}
	clock = clock.Add(time.Second)
	gen(1)
	erode := b.Phase("hydraulic erosion")
	clock = clock.Add(10 * time.Second)
	buf.Reset()
	erode(0.25) // 10 s for a quarter: 30 s left, whatever generating's rate
	if !strings.Contains(buf.String(), "25% 10s, about 30s left") {
		t.Errorf("erosion at a quarter after 10 s: %q, want about 30s left", buf.String())
	}
	b.Phase("writing p.json") // reports no fraction: its time alone
	clock = clock.Add(1500 * time.Millisecond)
	b.Finish()
	if got, want := phasesOf(buf.String()), []string{"hydraulic erosion", "writing p.json"}; !slices.Equal(got, want) {
		t.Errorf("phases %q, want %q", got, want)
	}
	if !strings.Contains(buf.String(), "writing p.json           1.5s\n") {
		t.Errorf("the writing line: %q", buf.String())
	}

	withBar(t)
	dir := t.TempDir()
	stdout, stderr, err := runCLI(t, "-size", "129", "-erosion", "thermal,fluvial", "-o", filepath.Join(dir, "m.png"), "-o", filepath.Join(dir, "m.r16"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := phasesOf(stderr), []string{"generating", "thermal erosion", "fluvial erosion", "writing m.png", "writing m.r16"}; !slices.Equal(got, want) {
		t.Errorf("generate's phases %q, want %q", got, want)
	}
	// A PNG counts its rows, an r16 its bytes (its size is known).
	for _, file := range []string{"m.png", "m.r16"} {
		if !regexp.MustCompile(`writing ` + file + ` +\[=+\] 100% `).MatchString(stderr) {
			t.Errorf("no full bar for writing %s in %q", file, stderr)
		}
	}
	if !strings.Contains(stdout, "generated in ") || !strings.Contains(stdout, ", written in ") {
		t.Errorf("summary %q; want the build's and the writing's time", stdout)
	}

	// Every heightmap and mesh writer reports its share of the work, so
	// that writing a large map shows a bar and an estimate, not its time
	// alone; a decimated mesh too, whose size is not known before.
	_, stderr, err = runCLI(t, "-size", "129", "-o", filepath.Join(dir, "m.exr"), "-o", filepath.Join(dir, "m.tif"),
		"-o", filepath.Join(dir, "m.obj"), "-o", filepath.Join(dir, "m.glb"))
	if err != nil {
		t.Fatal(err)
	}
	_, decimated, err := runCLI(t, "-size", "129", "-mesh-error", "1", "-o", filepath.Join(dir, "d.glb"))
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"m.exr", "m.tif", "m.obj", "m.glb", "d.glb"} {
		if !regexp.MustCompile(`writing ` + file + ` +\[=+\] 100% `).MatchString(stderr + decimated) {
			t.Errorf("no full bar for writing %s in %q", file, stderr+decimated)
		}
	}

	// A baked texture is a phase of its own with its bar, and the derived
	// normal and splat maps count their rows like the heightmaps.
	_, baked, err := runCLI(t, "-size", "129", "-bake-texture", "-o", filepath.Join(dir, "t.glb"),
		"-normal-map", filepath.Join(dir, "n.png"), "-splat-map", filepath.Join(dir, "s.png"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := phasesOf(baked), []string{"generating", "baking t.glb's texture", "writing t.glb", "writing n.png", "writing s.png"}; !slices.Equal(got, want) {
		t.Errorf("phases %q, want %q", got, want)
	}
	for _, phase := range []string{"baking t.glb's texture", "writing t.glb", "writing n.png", "writing s.png"} {
		if !regexp.MustCompile(regexp.QuoteMeta(phase) + ` +\[=+\] 100% `).MatchString(baked) {
			t.Errorf("no full bar for %s in %q", phase, baked)
		}
	}
}

// With -tiles each output is cut into its own tiles, each the tile a run
// with that -o alone writes, for maps built tile by tile and for maps
// built whole (erosion).
func TestSeveralOutputsInTiles(t *testing.T) {
	for _, erosion := range []string{"none", "thermal"} {
		dir := t.TempDir()
		common := []string{"-size", "129", "-tiles", "2", "-erosion", erosion}
		both := slices.Concat(common, []string{"-o", filepath.Join(dir, "both.png"), "-o", filepath.Join(dir, "both.r16")})
		if _, _, err := runCLI(t, both...); err != nil {
			t.Fatal(err)
		}
		for _, ext := range []string{".png", ".r16"} {
			if _, _, err := runCLI(t, slices.Concat(common, []string{"-o", filepath.Join(dir, "alone"+ext)})...); err != nil {
				t.Fatal(err)
			}
			for _, tile := range []string{"_x0_y0", "_x1_y0", "_x0_y1", "_x1_y1"} {
				a, _ := os.ReadFile(filepath.Join(dir, "alone"+tile+ext))
				b, _ := os.ReadFile(filepath.Join(dir, "both"+tile+ext))
				if len(a) == 0 || !bytes.Equal(a, b) {
					t.Errorf("-erosion %s: tile %s%s: %d bytes from two outputs, %d alone", erosion, tile, ext, len(b), len(a))
				}
			}
		}
	}
}
