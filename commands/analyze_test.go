package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cordillera/terrain"
	"cordillera/terrain/analysis"
	"cordillera/terrain/heightfile"
)

func runAnalyzeCLI(args ...string) (stdout, stderr string, err error) {
	var out, errb bytes.Buffer
	err = Analyze(args, &out, &errb)
	return out.String(), errb.String(), err
}

// analyzeJSON runs analyze -json and decodes its object.
func analyzeJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	stdout, stderr, err := runAnalyzeCLI(append(args, "-json")...)
	if err != nil {
		t.Fatalf("analyze %q: %v\n%s", args, err, stderr)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("analyze %q: output is not JSON: %v\n%s", args, err, stdout)
	}
	return got
}

// valleyEXR writes a V valley in metres to an EXR, which records its cell
// size: a valley 21 cells wide and h long, 10 m cells, sides rising 5 m a
// cell, floor falling 0.5 m a row.
func valleyEXR(t *testing.T, h int) string {
	t.Helper()
	const w = 21
	m := terrain.NewHeightmap(w, h)
	m.CellSize, m.VerticalScale = 10, 100
	for row := range h {
		for col := range w {
			z := 0.5*float64(h-1-row) + 5*math.Abs(float64(col-w/2))
			m.Set(col, row, float32(z/100))
		}
	}
	path := filepath.Join(t.TempDir(), "valley.exr")
	if err := heightfile.Save(path, m, heightfile.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	return path
}

// A file's statistics come from its own cell size and metres: on the
// valley floor, which is a channel of 80 cells with a threshold of 21
// cells (2100 m²), the drainage density is 79·10 m over 21·80·100 m²; the
// MAP may come after the flags; every statistic is named in the JSON.
func TestAnalyzeFileJSON(t *testing.T) {
	path := valleyEXR(t, 80)
	got := analyzeJSON(t, "-channel-area", "2100", path)
	if got["cell_size_m"] != 10.0 || got["channel_cells"] != 80.0 {
		t.Errorf("cell size %v, channel cells %v; want the file's 10 m and the 80 floor cells", got["cell_size_m"], got["channel_cells"])
	}
	if dd, want := got["drainage_density"].(float64), 790.0/168000; math.Abs(dd-want) > 1e-9 {
		t.Errorf("drainage density %v, want %v", dd, want)
	}
	for _, key := range []string{"slope_mean_deg", "slope_p90_deg", "hypsometric_integral", "drainage_density",
		"filled_fraction", "concavity", "hack_exponent", "spectral_exponent"} {
		if _, ok := got[key]; !ok {
			t.Errorf("JSON lacks %q", key)
		}
	}
	// The floor falls evenly: no concavity (its heights lie on a 0.5 m
	// lattice, which the slopes are read over 5 m of fall for). A
	// 21-sample side is too small for a spectrum: null, not a made-up
	// number.
	if c, ok := got["concavity"].(float64); !ok || math.Abs(c) > 1e-3 {
		t.Errorf("concavity %v of an evenly falling floor, want 0", got["concavity"])
	}
	if got["spectral_exponent"] != nil {
		t.Errorf("spectral exponent %v of a 21×80 valley: want null", got["spectral_exponent"])
	}
}

// A generated world is measured as the pipeline makes it: the same numbers
// as analysis.Geomorph on generateMap's map of the same parameters.
func TestAnalyzePresetMatchesPipeline(t *testing.T) {
	got := analyzeJSON(t, "-preset", "default", "-size", "129", "-channel-area", "50")
	p, err := terrain.ResolvePreset("default")
	if err != nil {
		t.Fatal(err)
	}
	p.Size = 129
	m, err := generateMap(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := analysis.Geomorph(m, 50)
	if err != nil {
		t.Fatal(err)
	}
	for key, v := range map[string]float64{"slope_mean_deg": want.SlopeMeanDeg, "hypsometric_integral": want.HypsometricIntegral,
		"drainage_density": want.DrainageDensity, "spectral_exponent": want.SpectralExponent, "cell_size_m": p.CellSize} {
		if got[key] != v {
			t.Errorf("%s: analyze says %v, the pipeline's map %v", key, got[key], v)
		}
	}
}

// The table names every statistic with its unit; -picture draws the
// channels in blue over the relief, the map's size.
func TestAnalyzeTableAndPicture(t *testing.T) {
	path := valleyEXR(t, 40)
	pic := filepath.Join(t.TempDir(), "relief.png")
	stdout, _, err := runAnalyzeCLI(path, "-channel-area", "2100", "-picture", pic)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"valley.exr: 21×40, 10 m per cell", "≥ 2100 m² (40 cells)", "slope_mean_deg", "drainage_density", "1/m", "wrote " + pic} {
		if !strings.Contains(stdout, want) {
			t.Errorf("table lacks %q:\n%s", want, stdout)
		}
	}
	f, err := os.Open(pic)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 21 || b.Dy() != 40 {
		t.Fatalf("picture %v, want 21×40", b)
	}
	for row := range 40 {
		for col := range 21 {
			r, g, b, _ := img.At(col, row).RGBA()
			blue := r>>8 == uint32(channelColour.R) && g>>8 == uint32(channelColour.G) && b>>8 == uint32(channelColour.B)
			if blue != (col == 10) {
				t.Fatalf("pixel (%d, %d) channel blue %v, want it on the floor column 10 only", col, row, blue)
			}
		}
	}
}

// A file without a cell size is measured at -cell-size, and the table
// says what was assumed.
func TestAnalyzeCellSizeFlag(t *testing.T) {
	m := terrain.NewHeightmap(32, 32)
	for row := range 32 {
		for col := range 32 {
			m.Set(col, row, float32(col)/31)
		}
	}
	path := filepath.Join(t.TempDir(), "ramp.r16")
	if err := heightfile.Save(path, m, heightfile.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	// White at 31 m over 31 cells of 2 m: a slope of ½.
	got := analyzeJSON(t, path, "-cell-size", "2", "-map-height", "31")
	if want := math.Atan(0.5) * 180 / math.Pi; math.Abs(got["slope_mean_deg"].(float64)-want) > 0.01 {
		t.Errorf("slope %v°, want %.3f°", got["slope_mean_deg"], want)
	}
	stdout, _, err := runAnalyzeCLI(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "no cell size") || !strings.Contains(stdout, "no heights in metres") {
		t.Errorf("table does not say what it assumed:\n%s", stdout)
	}
}

func TestAnalyzeBadInput(t *testing.T) {
	dir := t.TempDir()
	valley := valleyEXR(t, 40)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{filepath.Join(dir, "missing.png")}, "missing.png"},
		{[]string{valley, "-channel-area", "-3"}, "-channel-area -3"},
		{[]string{valley, "-channel-area", "NaN"}, "-channel-area NaN"},
		{[]string{valley, "-picture", filepath.Join(dir, "x.jpg")}, "want a .png"},
		{[]string{valley, "-preset", "eroded-alps"}, "not both"},
		{[]string{valley, "-hurst", "0.5"}, "-hurst makes a map"},
		{[]string{valley, "other.png"}, `unexpected argument "other.png"`},
		{[]string{"-map-height", "100"}, "-map-height needs a MAP"},
		{[]string{"-preset", "no-such-preset"}, "no-such-preset"},
		{[]string{valley, "-picture", valley}, "valley.exr"},
		{[]string{"-size", "8193"}, "-size 8193: a 8193×8193 map needs about 6.7 GB to analyze"},
	} {
		_, stderr, err := runAnalyzeCLI(tc.args...)
		if err == nil || !strings.Contains(err.Error()+stderr, tc.want) {
			t.Errorf("%q: error %v, want one naming %q", tc.args, err, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.jpg")); err == nil {
		t.Error("a refused -picture was written")
	}
}

// A real GeoTIFF DEM through the project's own reader: Big Tujunga (SRTM,
// 30 m, Int16 with a nodata value it never uses) gets its cell size from
// the file, and its mean slope is gdaldem's 21.5197° (terrain/analysis
// checks that against gdaldem itself).
func TestAnalyzeRealGeoTIFF(t *testing.T) {
	got := analyzeJSON(t, filepath.Join("..", "terrain", "analysis", "testdata", "dems", "bigtujunga30m.tif"))
	if got["cell_size_m"] != 30.0 || got["width"] != 1197.0 || got["height"] != 643.0 {
		t.Errorf("grid %v×%v at %v m, want 1197×643 at 30 m", got["width"], got["height"], got["cell_size_m"])
	}
	if s := got["slope_mean_deg"].(float64); math.Abs(s-21.5197) > 0.001 {
		t.Errorf("mean slope %.4f°, gdaldem says 21.5197°", s)
	}
	if r := got["relief_m"].(float64); r != 1980 {
		t.Errorf("relief %v m, want 2295 − 315 = 1980", r)
	}
}
