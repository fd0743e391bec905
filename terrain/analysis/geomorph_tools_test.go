package analysis

import (
	"cordillera/internal/testenv"
	"cordillera/terrain"
	"encoding/binary"
	"encoding/json"
	"image"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// The statistics of real DEMs against independent tools: GDAL's gdaldem
// for the slope, GRASS GIS's r.watershed for the D8 flow accumulation.
// The rasters are read through GDAL too (gdal_translate to raw floats),
// not through terrain/heightfile, which sits beside this package in the
// pipeline and is no independent reader anyway.

// Mont Blanc from SRTM, as ../shared/data/heightmaps/alps-montblanc_presets.txt
// describes it: 647×647 samples over 60 km, heights 454–4810 m spread over
// the PNG's 0–65535.
const (
	montBlancPNG     = "alps-montblanc_16bit.png"
	montBlancSide    = 647
	montBlancExtentM = 60000.0
	montBlancLowM    = 454.0
	montBlancHighM   = 4810.0
)

// montBlanc loads the DEM in metres (16-bit grey through image/png) and
// writes it as a Float32 GeoTIFF in UTM metres with gdal_translate (the
// PNG records no scale, so both sides are given the one above).
func montBlanc(t *testing.T) (*terrain.Heightmap, string) {
	t.Helper()
	path := testenv.SharedData(t, "heightmaps", montBlancPNG)
	translate := testenv.NeedTool(t, "gdal_translate", "gdal-bin")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	gray, ok := img.(*image.Gray16)
	if !ok || gray.Bounds().Dx() != montBlancSide || gray.Bounds().Dy() != montBlancSide {
		t.Fatalf("%s: %T %v, want a %d² 16-bit grey PNG", path, img, img.Bounds(), montBlancSide)
	}
	m := terrain.NewHeightmap(montBlancSide, montBlancSide)
	m.CellSize = montBlancExtentM / montBlancSide
	for row := range montBlancSide {
		for col := range montBlancSide {
			v := float64(gray.Gray16At(col, row).Y) / 65535
			m.Set(col, row, float32(montBlancLowM+v*(montBlancHighM-montBlancLowM)))
		}
	}
	tif := filepath.Join(t.TempDir(), "montblanc.tif")
	testenv.RunTool(t, translate, "-q", "-ot", "Float32", "-scale", "0", "65535", ftoa(montBlancLowM), ftoa(montBlancHighM),
		"-a_srs", "EPSG:32632", "-a_ullr", "300000", "5100000", ftoa(300000+montBlancExtentM), ftoa(5100000-montBlancExtentM), path, tif)
	return m, tif
}

// gdalRaster reads band 1 of a raster through GDAL: gdalinfo -json for its
// size, cell size and nodata value, gdal_translate to raw little-endian
// float32 for its values. The map holds the values as they are
// (VerticalScale 1); nodata marks the cells equal to the nodata value.
func gdalRaster(t *testing.T, path string) (m *terrain.Heightmap, nodata []bool) {
	t.Helper()
	gdalinfo := testenv.NeedTool(t, "gdalinfo", "gdal-bin")
	translate := testenv.NeedTool(t, "gdal_translate", "gdal-bin")
	var info struct {
		Size         [2]int    `json:"size"`
		GeoTransform []float64 `json:"geoTransform"`
		Bands        []struct {
			NoData *float64 `json:"noDataValue"`
		} `json:"bands"`
	}
	if err := json.Unmarshal([]byte(testenv.RunTool(t, gdalinfo, "-json", path)), &info); err != nil || len(info.Bands) == 0 {
		t.Fatalf("gdalinfo -json %s: %v", path, err)
	}
	raw := filepath.Join(t.TempDir(), "raster.bin")
	testenv.RunTool(t, translate, "-q", "-of", "ENVI", "-ot", "Float32", "-co", "INTERLEAVE=BSQ", path, raw)
	data, err := os.ReadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	w, h := info.Size[0], info.Size[1]
	if len(data) < 4*w*h {
		t.Fatalf("%s: %d bytes of raw floats for %d×%d", path, len(data), w, h)
	}
	m = terrain.NewHeightmap(w, h)
	if len(info.GeoTransform) == 6 {
		m.CellSize = info.GeoTransform[1]
	}
	for i := range m.Samples {
		v := math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
		m.Samples[i] = v
		if nd := info.Bands[0].NoData; nd != nil && float64(v) == float64(float32(*nd)) {
			if nodata == nil {
				nodata = make([]bool, w*h)
			}
			nodata[i] = true
		}
	}
	return m, nodata
}

// The mean slope and its 90th percentile match gdaldem slope (Horn's
// kernel, degrees, the edge cells left out) on the same DEM: the mean as
// gdalinfo -stats reports it, the percentile over gdaldem's raster. Mont
// Blanc goes through gdal_translate, and so do the DEMs in testdata.
func TestSlopeMatchesGdaldem(t *testing.T) {
	m, tif := montBlanc(t)
	compareSlopeWithGdaldem(t, m, tif)
	for _, name := range testDEMs {
		path := filepath.Join("testdata", "dems", name)
		compareSlopeWithGdaldem(t, testDEM(t, name), path)
	}
}

// testDEMs are the real DEMs in testdata/dems (README.md there).
var testDEMs = []string{"bigtujunga30m.tif", "frontrange90m.tif", "orkhon92m.tif", "bijou-escarpment30m.tif", "bijou-gully5m.tif"}

// testDEM reads one of testDEMs, which have data on every cell.
func testDEM(t *testing.T, name string) *terrain.Heightmap {
	t.Helper()
	m, nodata := gdalRaster(t, filepath.Join("testdata", "dems", name))
	if nodata != nil || !(m.CellSize > 0) {
		t.Fatalf("%s: nodata cells %v, cell size %g; want a full DEM on a metric grid", name, nodata != nil, m.CellSize)
	}
	return m
}

func compareSlopeWithGdaldem(t *testing.T, m *terrain.Heightmap, tif string) {
	t.Helper()
	gdaldem := testenv.NeedTool(t, "gdaldem", "gdal-bin")
	gdalinfo := testenv.NeedTool(t, "gdalinfo", "gdal-bin")
	slopeTIF := filepath.Join(t.TempDir(), "slope.tif")
	testenv.RunTool(t, gdaldem, "slope", "-q", tif, slopeTIF)
	var info struct {
		Bands []struct {
			Metadata map[string]map[string]string `json:"metadata"`
		} `json:"bands"`
	}
	if err := json.Unmarshal([]byte(testenv.RunTool(t, gdalinfo, "-json", "-stats", slopeTIF)), &info); err != nil || len(info.Bands) != 1 {
		t.Fatalf("gdalinfo -json -stats %s: %v", slopeTIF, err)
	}
	gdalMean := atof(t, info.Bands[0].Metadata[""]["STATISTICS_MEAN"])

	slope, nodata := gdalRaster(t, slopeTIF)
	var angles []float64
	for i, v := range slope.Samples {
		if nodata == nil || !nodata[i] {
			angles = append(angles, float64(v))
		}
	}
	if want := (m.Width - 2) * (m.Height - 2); len(angles) != want {
		t.Fatalf("%s: gdaldem gives %d slopes, want the %d interior cells", tif, len(angles), want)
	}
	slices.Sort(angles)
	gdalP90 := angles[percentileRank(len(angles), 0.9)]

	g, _ := geomorph(t, m, 0)
	t.Logf("%s slope: mean %.4f° (gdaldem %.4f°), p90 %.4f° (gdaldem %.4f°)", filepath.Base(tif), g.SlopeMeanDeg, gdalMean, g.SlopeP90Deg, gdalP90)
	// gdaldem sums heights of about 1700 m in float32 (a step of 0.5 mm
	// at 6800): on 5 m cells its slopes are off by up to about 0.001°.
	if !near(g.SlopeMeanDeg, gdalMean, 0.003) || !near(g.SlopeP90Deg, gdalP90, 0.003) {
		t.Errorf("%s: slope mean %.4f° p90 %.4f°, gdaldem %.4f° and %.4f°", tif, g.SlopeMeanDeg, g.SlopeP90Deg, gdalMean, gdalP90)
	}
}

// D8 flow accumulation against GRASS GIS's r.watershed -s (single flow
// direction) on the same DEM. The two route the same way down slopes but
// treat depressions differently — r.watershed searches a least-cost path
// out of a pit (A*) where RouteFlow fills it — so they are compared
// where it matters for the statistics: the channel network at 100 cells,
// and the largest basin. GRASS is not among test.sh's tools: without it
// the test skips.
func TestFlowMatchesGRASS(t *testing.T) {
	grass, err := exec.LookPath("grass")
	if err != nil {
		t.Skip("GRASS GIS (Debian's grass-core) is not installed; TestRouteFlowAgainstOracles checks the accumulation without it")
	}
	m, tif := montBlanc(t)
	dir := filepath.Dir(tif)
	accTIF := filepath.Join(dir, "acc.tif")
	script := "r.in.gdal --q input=" + tif + " output=dem && g.region raster=dem && " +
		"r.watershed -s -a --q elevation=dem accumulation=acc && r.out.gdal -c -f --q input=acc output=" + accTIF + " type=Float32"
	cmd := exec.Command(grass, "--tmp-location", tif, "--exec", "bash", "-c", script)
	cmd.Env = append(os.Environ(), "GRASS_MESSAGE_FORMAT=silent")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("grass r.watershed: %v\n%s", err, out)
	}
	acc, _ := gdalRaster(t, accTIF)
	f, err := RouteFlow(m)
	if err != nil {
		t.Fatal(err)
	}
	const threshold = 100 // cells
	cell := f.CellSize * f.CellSize
	var both, either, equal int
	var grassMax, oursMax float64
	for i, v := range acc.Samples {
		grassCells := float64(v)
		ours := math.Round(f.Area[i] / cell)
		if grassCells == ours {
			equal++
		}
		a, b := grassCells >= threshold, ours >= threshold
		if a && b {
			both++
		}
		if a || b {
			either++
		}
		grassMax, oursMax = max(grassMax, grassCells), max(oursMax, ours)
	}
	jaccard := float64(both) / float64(either)
	t.Logf("Mont Blanc D8 vs r.watershed -s: %.1f %% of cells equal accumulation; channel cells (≥ %d cells) overlap %.3f (Jaccard); largest basin %g cells (GRASS %g)",
		100*float64(equal)/float64(len(f.Area)), threshold, jaccard, oursMax, grassMax)
	if jaccard < 0.9 {
		t.Errorf("channel networks overlap %.3f (Jaccard), want at least 0.9", jaccard)
	}
	if math.Abs(oursMax-grassMax) > 0.01*grassMax {
		t.Errorf("largest basin %g cells, GRASS %g", oursMax, grassMax)
	}
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func atof(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

// Real landscapes of several kinds (testdata/dems/README.md) fall in the
// ranges the geomorphology literature reports, measured at a channel
// threshold of 100 cells: a hypsometric integral between 0.3 and 0.7
// (Strahler 1952), Hack's exponent 0.45 to 0.6 (Hack 1957; Rigon et al.
// 1996), concavity 0.15 to 0.7 (Whipple 2004 gives 0.3–0.6 for bedrock
// rivers; DEM slopes over short reaches read lower), a spectral exponent of
// 2.5 to 4.5 (β = 2H + 2 with H 0.25–1), and pits and flats on at most a
// few per cent of the cells. This is what a broken router or fit would
// miss by far, not a tight check on any one number (docs/analyze.md has
// the values).
func TestRealDEMsInLiteratureRanges(t *testing.T) {
	for _, name := range testDEMs {
		m := testDEM(t, name)
		g, _ := geomorph(t, m, 100*m.CellSize*m.CellSize)
		t.Logf("%s: HI %.3f, Hack %.3f, θ %.3f, β %.3f, filled %.4f", name, g.HypsometricIntegral, g.HackExponent, g.Concavity, g.SpectralExponent, g.FilledFraction)
		for _, c := range []struct {
			what      string
			v, lo, hi float64
		}{
			{"hypsometric integral", g.HypsometricIntegral, 0.3, 0.7},
			{"Hack exponent", g.HackExponent, 0.45, 0.6},
			{"concavity", g.Concavity, 0.15, 0.7},
			{"spectral exponent", g.SpectralExponent, 2.5, 4.5},
			{"filled fraction", g.FilledFraction, 0, 0.05},
		} {
			if !(c.v >= c.lo && c.v <= c.hi) {
				t.Errorf("%s: %s %.4f, outside %g–%g", name, c.what, c.v, c.lo, c.hi)
			}
		}
	}
}
