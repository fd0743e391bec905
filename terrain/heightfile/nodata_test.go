package heightfile

import (
	"math"
	"path/filepath"
	"testing"

	"cordillera/internal/testenv"
)

// A DEM's nodata samples stay nodata through Cordillera: read, filled,
// and written to a GeoTIFF whose GDAL_NODATA tag GDAL reports, the same
// samples nodata for GDAL (its statistics leave them out) and for our
// reader, the other heights kept. The old writer wrote no nodata tag.
func TestTIFFNoDataRoundTripThroughGDAL(t *testing.T) {
	translate := testenv.NeedTool(t, "gdal_translate", "gdal-bin")
	dir := t.TempDir()
	m := randomHeightmap(40, 30, 3)
	for i := range m.Samples {
		m.Samples[i] = 0.2 + 0.7*m.Samples[i]
	}
	hole := func(x, y int) bool { return (x-20)*(x-20)+(y-15)*(y-15) < 36 || x == 0 && y == 0 }
	for i := range m.Samples {
		if hole(i%40, i/40) {
			m.Samples[i] = 0
		}
	}
	png := filepath.Join(dir, "in.png")
	if err := SaveHeightmap(png, m); err != nil {
		t.Fatal(err)
	}
	dem := filepath.Join(dir, "dem.tif")
	testenv.RunTool(t, translate, "-q", "-ot", "Float32", "-a_nodata", "0", "-a_srs", "EPSG:32633",
		"-a_ullr", "500000", "5000000", "500400", "4999700", png, dem)
	src, err := Load(dem)
	if err != nil {
		t.Fatal(err)
	}
	if len(src.NoData) != 40*30 {
		t.Fatalf("read a nodata mask of %d samples, want %d", len(src.NoData), 40*30)
	}
	holes := 0
	for i, nd := range src.NoData {
		if nd != hole(i%40, i/40) {
			t.Fatalf("sample %d nodata %v, want %v", i, nd, !nd)
		}
		if nd {
			holes++
		}
	}
	out := filepath.Join(dir, "out.tif")
	if err := Save(out, src.Map, SaveOptions{Base: src.Base, Geo: src.Geo, NoData: src.NoData}); err != nil {
		t.Fatal(err)
	}
	info := runGDALInfo(t, out)
	b := info.Bands[0]
	if b.NoData == nil || *b.NoData != tiffNoData {
		t.Fatalf("gdalinfo: nodata value %v, want %d", b.NoData, tiffNoData)
	}
	if b.Max > tiffNoData-1 {
		t.Errorf("gdalinfo: maximum %v counts the nodata samples", b.Max)
	}
	back, err := Load(out)
	if err != nil {
		t.Fatal(err)
	}
	tol := src.Map.VerticalScale / 65534
	for i, nd := range back.NoData {
		if nd != src.NoData[i] {
			t.Fatalf("read back: sample %d nodata %v, want %v", i, nd, src.NoData[i])
		}
		if !nd && math.Abs(metres(back, i)-metres(src, i)) > tol {
			t.Fatalf("read back: sample %d is %v m, want %v", i, metres(back, i), metres(src, i))
		}
	}
	if holes == 0 || len(back.NoData) != len(src.NoData) {
		t.Fatalf("%d holes; read back a mask of %d", holes, len(back.NoData))
	}
}
