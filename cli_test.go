package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cordillera/terrain"
)

func runCLI(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	err = runGenerate(args, &out, &errb)
	return out.String(), errb.String(), err
}

func TestGenerateWritesEveryFormat(t *testing.T) {
	dir := t.TempDir()
	for _, ext := range []string{".png", ".r16", ".obj"} {
		out := filepath.Join(dir, "map"+ext)
		stdout, _, err := runCLI(t, "-size", "65", "-o", out)
		if err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		if !strings.Contains(stdout, "generated in") || !strings.Contains(stdout, "heights 0–200") {
			t.Errorf("%s: output %q lacks the time and the height range", ext, stdout)
		}
		m, err := loadAny(out)
		if err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		if m != nil && (m.Width != 65 || m.Height != 65) {
			t.Errorf("%s: read back %d×%d, want 65×65", ext, m.Width, m.Height)
		}
	}
}

// loadAny reads back a heightmap file, or checks the vertex count of an OBJ.
func loadAny(path string) (*terrain.Heightmap, error) {
	if filepath.Ext(path) == ".obj" {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if n := bytes.Count(data, []byte("\nv ")); n != 65*65 {
			return nil, &os.PathError{Op: "count", Path: path, Err: os.ErrInvalid}
		}
		return nil, nil
	}
	return terrain.LoadHeightmap(path)
}

// Saving the parameters and regenerating from them reproduces the map bit
// for bit.
func TestParamsOutRegeneratesBitForBit(t *testing.T) {
	dir := t.TempDir()
	a, js, b := filepath.Join(dir, "a.r16"), filepath.Join(dir, "p.json"), filepath.Join(dir, "b.r16")
	if _, _, err := runCLI(t, "-preset", "scenario-3", "-size", "129", "-seed", "-5", "-distortion", "30", "-o", a, "-params-out", js); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, "-preset", js, "-o", b); err != nil {
		t.Fatal(err)
	}
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if len(da) != 2*129*129 || !bytes.Equal(da, db) {
		t.Fatalf("regenerated map differs (%d vs %d bytes)", len(da), len(db))
	}
	p, err := terrain.LoadParams(js)
	if err != nil || p.Algorithm != terrain.Hybrid || p.Seed != -5 || p.Distortion != 30 {
		t.Fatalf("saved parameters %+v, %v", p, err)
	}
}

func TestFlagsOverridePresetInAnyOrder(t *testing.T) {
	opt, err := parseGenerateFlags([]string{"-hurst", "0.4", "-preset", "scenario-2", "-o", "x.png"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if opt.params.Hurst != 0.4 || opt.params.Effect != terrain.Plateau {
		t.Errorf("got %+v, want scenario-2 with hurst 0.4", opt.params)
	}
}

func TestGenerateBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.png")
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"hurst": "high"}`), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-hurst", "NaN", "-o", out}, "not a finite number"},
		{[]string{"-octaves", "-3", "-o", out}, "out of range"},
		{[]string{"-size", "99999", "-o", out}, "out of range [2, 8193]: larger maps would need more than 2 GB"},
		{[]string{"-algorithm", "diamond-square", "-size", "1000", "-o", out}, "nearest valid sizes are 513 and 1025"},
		{[]string{"-basis", "plaid", "-o", out}, "not one of"},
		{[]string{"-size", "65"}, "-o OUT is required"},
		{[]string{"-o", filepath.Join(dir, "out.tiff")}, `unknown format ".tiff"`},
		{[]string{"-preset", "nowhere", "-o", out}, "unknown preset"},
		{[]string{"-preset", bad, "-o", out}, "hurst: want a number"},
		{[]string{"-preset", filepath.Join(dir, "missing.json"), "-o", out}, "no such file"},
		{[]string{"-size", "65", "-o", out, "-params-out", filepath.Join(dir, "p.txt")}, "want a .json file"},
		{[]string{"-size", "65", "-o", filepath.Join(dir, "no", "such", "dir.png")}, "no such file"},
		{[]string{"-nonsense", "-o", out}, "flag provided but not defined"},
		{[]string{"-size", "65", "-o", out, "extra"}, `unexpected argument "extra"`},
	}
	for _, c := range cases {
		_, stderr, err := runCLI(t, c.args...)
		msg := stderr
		if err != nil {
			msg += err.Error()
		}
		if err == nil || !strings.Contains(msg, c.want) {
			t.Errorf("%v: error %v, stderr %q; want %q", c.args, err, stderr, c.want)
		}
		if _, statErr := os.Stat(out); statErr == nil {
			t.Fatalf("%v: an output file was written despite the error", c.args)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "bad.json" {
			t.Errorf("left behind %s", e.Name())
		}
	}
}
