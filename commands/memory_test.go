package commands

import (
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cordillera/terrain"
	"cordillera/terrain/erosion"
)

// The memory budgets of README's table, checked by running a command in a
// child process (this test binary, re-run) and reading its peak resident
// set from the kernel.

// memoryChildEnv carries the command line a child runs, fields separated
// by a unit separator.
const memoryChildEnv = "CORDILLERA_MEMORY_CHILD"

// TestMemoryChild is the child: it runs the command it is given and exits.
func TestMemoryChild(t *testing.T) {
	line := os.Getenv(memoryChildEnv)
	if line == "" {
		t.Skip("run by the memory budget tests")
	}
	args := strings.Split(line, "\x1f")
	commands := map[string]func([]string, io.Writer, io.Writer) error{"plot": Plot, "sweep": Sweep, "generate": Generate}
	if err := commands[args[0]](args[1:], io.Discard, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// The peak of this process's own memory: VmHWM is kept per address
	// space, so it starts afresh at exec. (The kernel's ru_maxrss does not:
	// it also holds the parent's resident set at the fork.)
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			fmt.Println(line)
		}
	}
	os.Exit(0)
}

// peakMB runs a command in a child process and returns its peak resident
// set in MB.
func peakMB(t *testing.T, args ...string) float64 {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestMemoryChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), memoryChildEnv+"="+strings.Join(args, "\x1f"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		if strings.Contains(string(out), "/proc/self/status") {
			t.Skipf("SKIPPED: no /proc on this system to read the peak from: %s", out)
		}
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmHWM:" && f[2] == "kB" {
			kb, err := strconv.ParseFloat(f[1], 64)
			if err != nil {
				t.Fatalf("%v: child printed %q", args, line)
			}
			return kb / 1024
		}
	}
	t.Fatalf("%v: the child printed no VmHWM line:\n%s", args, out)
	return 0
}

// rampPNG writes a side×side 16-bit PNG of a diagonal ramp: heights that
// vary (a spectrum can be fitted) and compress well (quick to write).
func rampPNG(t *testing.T, side int) string {
	t.Helper()
	img := image.NewGray16(image.Rect(0, 0, side, side))
	for y := range side {
		row := img.Pix[y*img.Stride : y*img.Stride+2*side]
		for x := range side {
			v := uint16((x*7 + y*13) % 65536)
			row[2*x], row[2*x+1] = byte(v>>8), byte(v)
		}
	}
	path := filepath.Join(t.TempDir(), "ramp.png")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// plotBudgetMB is README's memory budget of plot for a map of the given
// samples: 64 MB, 8 bytes per sample (the file's pixels and the heights),
// and for a spectrum 32 bytes per sample of its transform, at most 4096².
func plotBudgetMB(samples, transformSide int) float64 {
	return 64 + (8*float64(samples)+32*float64(transformSide*transformSide))/(1<<20)
}

// plot measures the heights alone: without the explorer's world (level of
// detail, normals, minimap: 133 MB for a histogram of a 2049² PNG, over
// this budget) it stays within its budget. Before, plot built the whole
// world and a spectrum as large as the map: 1.5 GB for a histogram of an
// 8193² PNG, 2.5 GB for its spectrum (now 0.37 and 0.70 GB).
func TestPlotMemoryBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("runs plot on a 2049² map in child processes")
	}
	const side = 2049
	png := rampPNG(t, side)
	for _, tc := range []struct {
		kind      string
		transform int
	}{{"histogram", 0}, {"spectrum", 2048}} {
		budget := plotBudgetMB(side*side, tc.transform)
		peak := peakMB(t, "plot", "-kind", tc.kind, "-heightmap", png, "-o", filepath.Join(t.TempDir(), "p.png"))
		t.Logf("plot -kind %s of a %d² PNG: peak %.0f MB, budget %.0f MB", tc.kind, side, peak, budget)
		if peak > budget {
			t.Errorf("plot -kind %s of a %d² PNG: peak %.0f MB over the budget of %.0f MB", tc.kind, side, peak, budget)
		}
	}
}

// exportBudgetMB is the memory budget of generate's exports (a heightmap
// with its normal and splat maps, or a glTF mesh, decimated and textured
// or not) for a map of the given samples: 64 MB and 24 bytes a sample —
// the map (4 bytes), a decimated mesh's vertex numbers (4) and its baked
// texture (4), and the garbage collector's headroom over what is live.
// At 8193² that is 1.6 GB, within README's 2 GB for generate.
func exportBudgetMB(samples int) float64 {
	return 64 + 24*float64(samples)/(1<<20)
}

// generate's normal and splat maps and its glTF meshes are written a band
// of rows at a time, so they stay within the export budget. Before, the
// normal and splat maps held the whole map's normals, weights and images
// (2.9 GB at 8193²) and the mesh was built whole in memory and copied into
// one buffer (2.9 GB at 4097², out of memory at 8193²); at 2049² they
// took 212 MB (normal and splat maps), 735 MB (.glb), 1634 MB (.gltf) and
// 287 MB (decimated and textured), against a budget of 160 MB.
func TestGenerateExportMemoryBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 2049² maps in child processes")
	}
	const side = 2049
	budget := exportBudgetMB(side * side)
	dir := t.TempDir()
	for _, args := range [][]string{
		{"-o", filepath.Join(dir, "d.r16"), "-normal-map", filepath.Join(dir, "n.png"), "-splat-map", filepath.Join(dir, "s.png")},
		{"-o", filepath.Join(dir, "m.glb")},
		{"-o", filepath.Join(dir, "m.gltf")},
		{"-o", filepath.Join(dir, "e.glb"), "-mesh-error", "0.5", "-bake-texture"},
	} {
		args = append([]string{"generate", "-size", strconv.Itoa(side)}, args...)
		peak := peakMB(t, args...)
		what := strings.ReplaceAll(strings.Join(args, " "), dir+string(filepath.Separator), "")
		t.Logf("%s: peak %.0f MB, budget %.0f MB", what, peak, budget)
		if peak > budget {
			t.Errorf("%s: peak %.0f MB over the budget of %.0f MB", what, peak, budget)
		}
	}
}

// generate with all three erosion stages and -masks holds, per sample of
// the map beyond what a tiny map costs, at most what the estimate that
// generate refuses by allows (erosion.PeakBytesPerSample: 32 bytes, the
// thermal stage's two float64 grids beside the map and two masks, with the
// collector's headroom), and the fixed part stays under 64 MB. Each
// sample costs the difference between a 1025² run and a 257² one. Before,
// the stages held the three masks from the start, the fluvial stage a copy
// of the input, the flow mask every array of its network at once, and
// saving a normalised copy of each mask and a sorted copy of its non-zero
// values: this test measured 71 bytes a sample (now 28.5).
func TestErosionStagesMemoryBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("erodes a 1025² map with all three stages in a child process")
	}
	const stages = "fluvial,hydraulic,thermal"
	dir := t.TempDir()
	run := func(side int) float64 {
		return peakMB(t, "generate", "-size", strconv.Itoa(side), "-erosion", stages,
			"-masks", filepath.Join(dir, "masks"), "-o", filepath.Join(dir, "e.r16"))
	}
	const small, side = 257, 1025
	fixed, peak := run(small), run(side)
	perSample := (peak - fixed) * (1 << 20) / float64(side*side-small*small)
	p := terrain.DefaultParams()
	p.Erosion = stages
	budget := erosion.PeakBytesPerSample(p, true)
	t.Logf("three erosion stages with masks: peak %.0f MB at %d², %.0f MB at %d²: %.1f bytes a sample, budget %d", peak, side, fixed, small, perSample, budget)
	if fixed > 64 {
		t.Errorf("three erosion stages with masks at %d²: peak %.0f MB, over the 64 MB the budget allows for the fixed part", small, fixed)
	}
	if perSample > float64(budget) {
		t.Errorf("three erosion stages with masks: %.1f bytes a sample (peak %.0f MB at %d², %.0f MB at %d²), over the budget of %d", perSample, peak, side, fixed, small, budget)
	}
}

// generate refuses, before it starts, erosion whose estimated peak passes
// 2 GB, and says what would fit. Before, the three stages with -masks at
// 8193² set out to use about 4.7 GB.
func TestGenerateRefusesOverMemory(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "a.r16")
	err := Generate([]string{"-size", "8193", "-erosion", "fluvial,hydraulic,thermal", "-masks", filepath.Join(dir, "m"), "-o", out}, io.Discard, io.Discard)
	if err == nil {
		t.Fatal("generate -size 8193 with three stages and -masks: no error")
	}
	for _, want := range []string{"8193×8193", "2.2 GB", "over generate's 2 GB", "no -masks", "-erosion fluvial,hydraulic", "-size 4097"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if _, serr := os.Stat(out); serr == nil {
		t.Errorf("%s was written", out)
	}
	// Without -masks the three stages fit.
	p := terrain.DefaultParams()
	p.Size, p.Erosion = 8193, "fluvial,hydraulic,thermal"
	if err := checkMemory(p, p.Size, p.Size, 0, false, "-size"); err != nil {
		t.Errorf("three stages without masks at 8193²: %v", err)
	}
}

// fluvialBytesPerSample is what generate -erosion fluvial may hold per
// sample of the map beyond what a tiny map costs: the map (4 bytes), the
// fluvial stage's float64 heights (8), receivers and drainage areas (8),
// its byte of marks and the flood's front, and the collector's headroom.
// With the runtime and the generator's fixed part (under 64 MB) that is
// 64 MB + 28 × 8193² bytes = 1.9 GB at 8193², within README's 2 GB for
// generate.
const fluvialBytesPerSample = 28

// The fluvial stage reaches its peak in its first step, when every array
// it keeps is made; two steps measure it quickly. Each sample costs the
// difference between a 2049² run and a 257² one (which holds the runtime
// and the fixed part). Before, the stage held 46 bytes a sample (the
// wander factors and Δt·U each in a grid of their own, a bool and an
// int32 where a byte does): this test measured 45 bytes a sample.
func TestFluvialMemoryBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("erodes a 2049² map in a child process")
	}
	dir := t.TempDir()
	run := func(side int) float64 {
		return peakMB(t, "generate", "-size", strconv.Itoa(side), "-erosion", "fluvial", "-fluvial-steps", "2",
			"-o", filepath.Join(dir, "f.r16"))
	}
	const small, side = 257, 2049
	fixed, peak := run(small), run(side)
	perSample := (peak - fixed) * (1 << 20) / float64(side*side-small*small)
	t.Logf("fluvial: peak %.0f MB at %d², %.0f MB at %d²: %.1f bytes a sample, budget %d", peak, side, fixed, small, perSample, fluvialBytesPerSample)
	if fixed > 64 {
		t.Errorf("fluvial at %d²: peak %.0f MB, over the 64 MB the budget allows for the fixed part", small, fixed)
	}
	if perSample > fluvialBytesPerSample {
		t.Errorf("fluvial: %.1f bytes a sample (peak %.0f MB at %d², %.0f MB at %d²), over the budget of %d", perSample, peak, side, fixed, small, fluvialBytesPerSample)
	}
}
