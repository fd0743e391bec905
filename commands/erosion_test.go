package commands

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"cordillera/terrain"
	"cordillera/terrain/heightfile"
)

// generate -erosion wears the generated map: the written map differs from
// the uneroded one, is still normalised, and the masks come out named
// after the map, each with a real spread of values.
func TestGenerateErosionWritesMapAndMasks(t *testing.T) {
	dir := t.TempDir()
	plain, eroded := filepath.Join(dir, "plain.png"), filepath.Join(dir, "eroded.png")
	if _, _, err := runCLI(t, "-size", "129", "-o", plain); err != nil {
		t.Fatal(err)
	}
	masks := filepath.Join(dir, "masks")
	stdout, _, err := runCLI(t, "-size", "129", "-erosion", "fluvial,hydraulic,thermal", "-masks", masks, "-o", eroded)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "erosion fluvial → hydraulic → thermal: eroded ") {
		t.Errorf("output %q does not report the erosion budget", stdout)
	}
	a, err := heightfile.LoadHeightmap(plain)
	if err != nil {
		t.Fatal(err)
	}
	b, err := heightfile.LoadHeightmap(eroded)
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi := b.Range(); lo != 0 || hi != 1 {
		t.Errorf("eroded map spans %v–%v, want 0–1", lo, hi)
	}
	diff := 0.0
	for i := range a.Samples {
		diff += math.Abs(float64(a.Samples[i] - b.Samples[i]))
	}
	if diff/float64(len(a.Samples)) < 1e-3 {
		t.Errorf("erosion changed the map by %g on average: nothing happened", diff/float64(len(a.Samples)))
	}
	for _, name := range []string{"flow", "eroded", "deposited"} {
		m, err := heightfile.LoadHeightmap(filepath.Join(masks, "eroded-"+name+".png"))
		if err != nil {
			t.Fatalf("mask %s: %v", name, err)
		}
		if m.Width != 129 || m.Height != 129 {
			t.Fatalf("mask %s is %d×%d", name, m.Width, m.Height)
		}
		if lo, hi := m.Range(); lo < 0 || hi < 0.99 || hi-lo < 0.5 {
			t.Errorf("mask %s spans %v–%v: not normalised, or flat", name, lo, hi)
		}
		// No sample loses more than the uneroded map's whole relief;
		// the eroded map's own relief is no bound: erosion lowers the
		// peaks too, so one sample's loss can exceed what relief is left.
		checkMaskText(t, filepath.Join(masks, "eroded-"+name+".png"), name, b.CellSize, a.VerticalScale)
	}
}

// A loaded heightmap is eroded and written back with its own scale: a
// flat file stays flat, a ridge loses height to the valleys beside it.
func TestGenerateErodesLoadedHeightmap(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.png")
	m := terrain.NewHeightmap(96, 96)
	for row := 0; row < 96; row++ {
		for col := 0; col < 96; col++ {
			d := math.Abs(float64(col) - 47.5)
			m.Set(col, row, float32(math.Max(0, 0.9-d/20))) // a sharp ridge down the middle
		}
	}
	if err := heightfile.SaveHeightmap(in, m); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.r16")
	stdout, _, err := runCLI(t, "-heightmap", in, "-map-height", "60", "-cell-size", "2", "-erosion", "thermal", "-thermal-talus", "30", "-thermal-iterations", "400", "-o", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "in.png: 96×96, 2 m per cell, white at 60 m") {
		t.Errorf("output %q does not describe the loaded map", stdout)
	}
	got, err := heightfile.LoadHeightmap(out)
	if err != nil {
		t.Fatal(err)
	}
	// The ridge's flanks (0.9/20 of 60 m per 2 m cell: 53.5°) are steeper
	// than 30°: its crest came down and its flanks eased (convergence to
	// the talus angle itself is tested in terrain/erosion).
	if c, c0 := got.At(47, 48), m.At(47, 48); !(c < c0-0.01) {
		t.Errorf("crest %v, was %v: thermal erosion did not lower it", c, c0)
	}
	worst := 0.0
	for row := 1; row < 95; row++ {
		for col := 1; col < 95; col++ {
			s := math.Abs(float64(got.At(col+1, row))-float64(got.At(col, row))) * 60 / 2
			worst = max(worst, s)
		}
	}
	if deg := math.Atan(worst) * 180 / math.Pi; deg > 50 {
		t.Errorf("steepest slope %.1f° after thermal erosion at a talus of 30°, was 53.5°", deg)
	}
}

func TestGenerateErosionBadInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.png")
	if err := heightfile.SaveHeightmap(in, terrain.NewHeightmap(16, 16)); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.png")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-o", out, "-erosion", "rain"}, `"rain" is not one of hydraulic, thermal, fluvial`},
		{[]string{"-o", out, "-erosion", "thermal,thermal"}, `"thermal" is listed twice`},
		{[]string{"-o", out, "-erosion", "hydraulic", "-hydraulic-droplets", "-1"}, "out of range"},
		{[]string{"-o", out, "-erosion", "thermal", "-thermal-talus", "90"}, "out of range"},
		{[]string{"-o", out, "-erosion", "thermal", "-thermal-talus", "0"}, "out of range"},
		{[]string{"-o", out, "-erosion", "thermal", "-thermal-rate", "NaN"}, "not a finite number"},
		{[]string{"-o", out, "-masks", dir}, "-masks needs erosion"},
		{[]string{"-o", out, "-heightmap", in, "-octaves", "3"}, "-octaves makes a map"},
		{[]string{"-o", out, "-heightmap", in, "-route", "x.gpx"}, "exclude each other"},
		{[]string{"-o", out, "-heightmap", filepath.Join(dir, "missing.png"), "-erosion", "thermal"}, "no such file"},
		{[]string{"-o", out, "-map-height", "100"}, "-map-height needs -heightmap"},
		{[]string{"-o", out, "-heightmap", in, "-map-height", "-5"}, "want a positive number"},
	}
	for _, c := range cases {
		expectRefusal(t, c.args, c.want, out)
	}
}
