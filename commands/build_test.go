package commands

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"cordillera/terrain/world"
)

// build runs the build command and returns its standard output.
func runBuild(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if err := Build(args, &stdout, &stderr); err != nil {
		t.Fatalf("build %v: %v\n%s", args, err, stderr.String())
	}
	return stdout.String()
}

// build's flags reach the world (the parameter flags as generate reads
// them), and its tiles are generate -tiles' tiles of the same map, byte
// for byte; a second run keeps every tile.
func TestBuildCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "w")
	params := []string{"-algorithm", "ridged", "-seed", "3", "-cell-size", "5"}
	out := runBuild(t, append([]string{"-o", dir, "-world", "65", "-tile", "17", "-format", "tif,r16"}, params...)...)
	if !strings.Contains(out, "built 16 tiles, kept 0 finished") || !strings.Contains(out, "16 of 16 tiles finished: the world is complete") {
		t.Errorf("build printed %q", out)
	}
	m, err := world.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p := m.Description.Params; p.Seed != 3 || p.Algorithm != "ridged" || p.Size != 65 || m.CellSize != 5 || m.State != "complete" {
		t.Errorf("manifest: %+v", m)
	}

	gen := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := Generate(append([]string{"-size", "65", "-tiles", "4", "-o", filepath.Join(gen, "t.tif"), "-o", filepath.Join(gen, "t.r16")}, params...), &stdout, &stderr); err != nil {
		t.Fatal(err, stderr.String())
	}
	for _, tile := range []string{"x0_y0", "x2_y1", "x3_y3"} {
		for _, ext := range []string{".tif", ".r16"} {
			a, errA := os.ReadFile(filepath.Join(dir, "tiles", tile+ext))
			b, errB := os.ReadFile(filepath.Join(gen, "t_"+tile+ext))
			if errA != nil || errB != nil || !bytes.Equal(a, b) {
				t.Errorf("tile %s%s differs from generate -tiles' (%v, %v)", tile, ext, errA, errB)
			}
		}
	}
	if again := runBuild(t, append([]string{"-o", dir, "-world", "65", "-tile", "17", "-format", "tif,r16"}, params...)...); !strings.Contains(again, "built 0 tiles, kept 16 finished") {
		t.Errorf("second build printed %q", again)
	}
}

// -from builds the world a manifest describes, shard by shard on other
// machines, without its flags: the same tiles, byte for byte; flags that
// would change the description are refused beside it.
func TestBuildFrom(t *testing.T) {
	first := filepath.Join(t.TempDir(), "first")
	runBuild(t, "-o", first, "-world", "65", "-tile", "17", "-format", "tif,exr", "-algorithm", "swiss", "-seed", "9", "-only", "x1_y2")
	manifest := filepath.Join(t.TempDir(), "copy.json")
	b, err := os.ReadFile(filepath.Join(first, world.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(manifest, b, 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "other")
	out := runBuild(t, "-o", other, "-from", manifest, "-shard", "2/2")
	if !strings.Contains(out, "swiss/perlin 65² seed 9") || !strings.Contains(out, "built 8 tiles") {
		t.Errorf("build -from printed %q", out)
	}
	runBuild(t, "-o", first, "-from", first) // the folder itself: the rest of its tiles
	for _, name := range []string{"tiles/x1_y2.tif", "tiles/x1_y2.exr", "tiles/x3_y3.tif", "tiles/x1_y0.exr"} {
		a, errA := os.ReadFile(filepath.Join(first, name))
		b, errB := os.ReadFile(filepath.Join(other, name))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between the first machine and -from's (%v, %v)", name, errA, errB)
		}
	}
	for _, args := range [][]string{
		{"-o", other, "-from", manifest, "-seed", "10"},
		{"-o", other, "-from", manifest, "-tile", "33"},
	} {
		var stdout, stderr bytes.Buffer
		if err := Build(args, &stdout, &stderr); err == nil || !strings.Contains(err.Error(), "would change it") {
			t.Errorf("build %v: err %v", args, err)
		}
	}
	var stdout, stderr bytes.Buffer
	if err := Build([]string{"-o", other, "-from", filepath.Join(t.TempDir(), "none.json")}, &stdout, &stderr); err == nil || !strings.Contains(err.Error(), "none.json") {
		t.Errorf("a missing manifest: err %v", err)
	}
}

// Bad command lines are refused with a message naming the flag and what
// to change, and write nothing.
func TestBuildFlagErrors(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "w")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-world", "65"}, "-o DIR is missing"},
		{[]string{"-o", dir, "-size", "65"}, "a world's side is -world"},
		{[]string{"-o", dir, "-world", "60", "-tile", "17"}, "world 60, tile 17"},
		{[]string{"-o", dir, "-world", "65", "-tile", "17", "-shard", "2of3"}, `-shard "2of3": want K/N`},
		{[]string{"-o", dir, "-world", "65", "-tile", "17", "-shard", "4/3"}, `-shard "4/3"`},
		{[]string{"-o", dir, "-world", "65", "-tile", "17", "-shard", "1/2", "-only", "x0_y0"}, "give one"},
		{[]string{"-o", dir, "-world", "65", "-tile", "17", "-only", "x0_y9"}, `tile "x0_y9" is not in the world`},
		{[]string{"-o", dir, "-world", "65", "-tile", "17", "-algorithm", "diamond-square"}, "subdivision"},
		{[]string{"-o", dir, "-world", "65", "-tile", "17", "-erosion", "hydraulic"}, "erosion hydraulic cannot be built by tiles"},
		{[]string{"-o", dir, "-world", "65", "-tile", "17", "-erosion", "thermal", "-thermal-iterations", "9", "-halo", "8"}, "a halo of at least 9"},
		{[]string{"-o", dir, "-world", "65", "-tile", "17", "-thermal-iterations", "9"}, "-thermal-iterations is not used"},
		{[]string{"-o", dir, "-world", "65", "-tile", "17", "-format", "tif,png"}, `format "png"`},
		{[]string{"-o", dir, "-world", "65", "-tile", "17", "-octaves", "99"}, "octaves"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		err := Build(tt.args, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error()+stderr.String(), tt.want) {
			t.Errorf("build %v: err %v, stderr %q; want %q", tt.args, err, stderr.String(), tt.want)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Fatalf("build %v made the folder", tt.args)
		}
	}
}

// buildChildEnv carries the build command line a child process runs,
// fields separated by a unit separator.
const buildChildEnv = "CORDILLERA_BUILD_CHILD"

// TestBuildChild is the child of TestBuildKilledAndResumed.
func TestBuildChild(t *testing.T) {
	line := os.Getenv(buildChildEnv)
	if line == "" {
		t.Skip("run by TestBuildKilledAndResumed")
	}
	if err := Build(strings.Split(line, "\x1f"), os.Stdout, os.Stderr); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(2)
	}
	os.Exit(0)
}

// A build killed with SIGKILL part of the way through (no clean-up at
// all), then run again, keeps the tiles finished before the kill, makes
// the others, and gives the world an uninterrupted build gives, byte for
// byte.
func TestBuildKilledAndResumed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 64-tile world in a child process")
	}
	args := []string{"-world", "1025", "-tile", "129", "-format", "tif,exr", "-octaves", "4"}
	killed := filepath.Join(t.TempDir(), "killed")
	cmd := exec.Command(os.Args[0], "-test.run=^TestBuildChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), buildChildEnv+"="+strings.Join(append([]string{"-o", killed}, args...), "\x1f"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// No deadline of its own: a build that never finishes a tile is caught
	// by go test's -timeout, and a clock limit would fail on a loaded
	// machine.
	for {
		records, _ := filepath.Glob(filepath.Join(killed, "tiles", "*.json"))
		if len(records) >= 3 {
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("the build ended before it was killed: %v", err)
		default:
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-exited
	records, _ := filepath.Glob(filepath.Join(killed, "tiles", "*.json"))
	if len(records) == 64 {
		t.Skip("SKIPPED: the build finished before the kill reached it")
	}

	out := runBuild(t, append([]string{"-o", killed}, args...)...)
	counts := regexp.MustCompile(`built (\d+) tiles, kept (\d+) finished`).FindStringSubmatch(out)
	var built, kept int
	if counts != nil {
		built, _ = strconv.Atoi(counts[1])
		kept, _ = strconv.Atoi(counts[2])
	}
	t.Logf("killed with %d tiles finished; resumed: built %d, kept %d", len(records), built, kept)
	if kept < len(records) || built+kept != 64 {
		t.Fatalf("resumed build printed %q; %d tiles were finished at the kill", out, len(records))
	}
	whole := filepath.Join(t.TempDir(), "whole")
	runBuild(t, append([]string{"-o", whole}, args...)...)
	for _, name := range append(listFiles(t, whole, "tiles"), world.ManifestName, world.VRTName) {
		a, errA := os.ReadFile(filepath.Join(killed, name))
		b, errB := os.ReadFile(filepath.Join(whole, name))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: the resumed build's differs from the uninterrupted one's (%v, %v)", name, errA, errB)
		}
	}
	if left := listFiles(t, killed, "tiles"); len(left) != len(listFiles(t, whole, "tiles")) {
		t.Errorf("the resumed build's folder holds %d files, the uninterrupted one's %d", len(left), len(listFiles(t, whole, "tiles")))
	}
}

// listFiles lists the names of the files in dir/sub as sub/NAME.
func listFiles(t *testing.T, dir, sub string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, sub))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, sub+"/"+e.Name())
	}
	return names
}
