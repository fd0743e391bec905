package commands

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"cordillera/internal/testenv"
	"cordillera/terrain"
	"cordillera/terrain/heightfile"
)

// A DEM with a nodata hole, converted to a GeoTIFF whole and in tiles,
// comes out with a GDAL_NODATA value that GDAL reads and the hole's
// samples set to it, and no others. The old writer wrote no nodata.
func TestGenerateKeepsNoData(t *testing.T) {
	translate := testenv.NeedTool(t, "gdal_translate", "gdal-bin")
	info := testenv.NeedTool(t, "gdalinfo", "gdal-bin")
	dir := t.TempDir()
	const n = 41
	m := terrain.NewHeightmap(n, n)
	hole := func(x, y int) bool { return (x-12)*(x-12)+(y-25)*(y-25) < 20 }
	for i := range m.Samples {
		if !hole(i%n, i/n) {
			m.Samples[i] = 0.3 + 0.4*float32(i%n)/n
		}
	}
	png, dem := filepath.Join(dir, "in.png"), filepath.Join(dir, "dem.tif")
	if err := heightfile.SaveHeightmap(png, m); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(translate, "-q", "-ot", "Float32", "-a_nodata", "0", "-a_srs", "EPSG:32633",
		"-a_ullr", "500000", "5000000", "500410", "4999590", png, dem).CombinedOutput(); err != nil {
		t.Fatalf("gdal_translate: %v\n%s", err, out)
	}
	for _, tiles := range []string{"1", "2"} {
		out := filepath.Join(dir, "out"+tiles+".tif")
		args := []string{"-heightmap", dem, "-o", out}
		if tiles == "2" {
			args = append(args, "-tiles", "2")
		}
		if _, _, err := runCLI(t, args...); err != nil {
			t.Fatal(err)
		}
		files := []string{out}
		if tiles == "2" {
			files, _ = filepath.Glob(filepath.Join(dir, "out2_x*_y*.tif"))
		}
		for _, f := range files {
			text, err := exec.Command(info, f).CombinedOutput()
			if err != nil || !strings.Contains(string(text), "NoData Value=65535") {
				t.Fatalf("gdalinfo %s: %v; no NoData Value=65535 in\n%s", f, err, text)
			}
			var col, row int
			if tiles == "2" {
				base := strings.TrimSuffix(filepath.Base(f), ".tif")
				col, row = int(base[len(base)-4]-'0')*20, int(base[len(base)-1]-'0')*20
			}
			raw := filepath.Join(dir, "raw.bin")
			if text, err := exec.Command(translate, "-q", "-of", "ENVI", f, raw).CombinedOutput(); err != nil {
				t.Fatalf("gdal_translate %s: %v\n%s", f, err, text)
			}
			b, err := os.ReadFile(raw)
			if err != nil {
				t.Fatal(err)
			}
			w := 21
			if tiles == "1" {
				w = n
			}
			for i := 0; i+1 < len(b); i += 2 {
				x, y := col+i/2%w, row+i/2/w
				if got := binary.LittleEndian.Uint16(b[i:]) == 65535; got != hole(x, y) {
					t.Fatalf("%s: sample (%d,%d) nodata %v, want %v", f, x, y, got, !got)
				}
			}
		}
	}
}
