package heightfile

import (
	"math"
	"path/filepath"
	"testing"

	"cordillera/internal/testenv"
)

// A point-registered DEM (AREA_OR_POINT=Point: its tie point names the
// centre of the first pixel, as SRTM and many national DEMs do) read and
// written again lies where it lay: GDAL places the re-exported file's
// pixels exactly on the input's, in metres and in degrees, with pixels
// taller than wide so that a shift along either axis shows.
func TestPointRegisteredDEMRoundTripThroughGDAL(t *testing.T) {
	translate := testenv.NeedTool(t, "gdal_translate", "gdal-bin")
	dir := t.TempDir()
	m := randomHeightmap(50, 40, 11)
	png := filepath.Join(dir, "in.png")
	if err := SaveHeightmap(png, m); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		srs  string
		ullr []string // upper-left x, y and lower-right x, y of the pixels' corners
		tol  float64
	}{
		{"utm", "EPSG:32633", []string{"500000", "5200800", "500500", "5200000"}, 1e-6}, // 10 m × 20 m pixels
		{"degrees", "EPSG:4326", []string{"10", "47.02", "10.01", "47"}, 1e-12},         // 0.0002° × 0.0005°
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := filepath.Join(dir, tc.name+"-in.tif")
			args := []string{"-q", "-ot", "Float32", "-mo", "AREA_OR_POINT=Point", "-a_srs", tc.srs, "-a_ullr"}
			args = append(append(args, tc.ullr...), "-scale", "0", "65535", "-100", "1900", png, in)
			testenv.RunTool(t, translate, args...)
			src, err := Load(in)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, tc.name+"-out.tif")
			if err := Save(out, src.Map, SaveOptions{Base: src.Base, Geo: src.Geo}); err != nil {
				t.Fatal(err)
			}
			a, b := runGDALInfo(t, in), runGDALInfo(t, out)
			if a.Size != b.Size || len(a.GeoTransform) != 6 || len(b.GeoTransform) != 6 {
				t.Fatalf("GDAL sees %v pixels, geotransform %v in; %v, %v out", a.Size, a.GeoTransform, b.Size, b.GeoTransform)
			}
			for i := range 6 {
				if math.Abs(a.GeoTransform[i]-b.GeoTransform[i]) > tc.tol {
					t.Fatalf("GDAL places the re-exported DEM at %v, the input at %v (pixel %v × %v): moved %.3g pixels east, %.3g south",
						b.GeoTransform, a.GeoTransform, a.GeoTransform[1], -a.GeoTransform[5],
						(b.GeoTransform[0]-a.GeoTransform[0])/a.GeoTransform[1], (b.GeoTransform[3]-a.GeoTransform[3])/a.GeoTransform[5])
				}
			}
			// And the heights are the input's: GDAL reads ours through the
			// scale and offset it was written with.
			metres := func(v, scale, offset float64) float64 {
				if scale == 0 {
					scale = 1
				}
				return v*scale + offset
			}
			ba, bb := a.Bands[0], b.Bands[0]
			loA, hiA := metres(ba.Min, ba.Scale, ba.Offset), metres(ba.Max, ba.Scale, ba.Offset)
			loB, hiB := metres(bb.Min, bb.Scale, bb.Offset), metres(bb.Max, bb.Scale, bb.Offset)
			if math.Abs(loA-loB) > 0.05 || math.Abs(hiA-hiB) > 0.05 {
				t.Errorf("heights %v–%v m out, %v–%v m in", loB, hiB, loA, hiA)
			}
		})
	}
}
