package world

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"cordillera/internal/testenv"
	"cordillera/pipeline"
	"cordillera/terrain"
	"cordillera/terrain/heightfile"
)

// GDAL reads the VRT mosaic as the whole map: gdal_translate of the VRT
// and of the whole map's GeoTIFF give the same samples, and gdalinfo
// reports the world's size and cell size, and the whole map's scale to
// metres (stretched by erosion's renormalisation in a thermal world).
func TestVRTIsTheWholeMapInGDAL(t *testing.T) {
	translate := testenv.NeedTool(t, "gdal_translate", "gdal-bin")
	info := testenv.NeedTool(t, "gdalinfo", "gdal-bin")
	for _, edit := range []func(p *terrain.Params){
		func(p *terrain.Params) { p.Algorithm, p.CellSize, p.Amplitude = terrain.Hetero, 10, 1200 },
		func(p *terrain.Params) {
			p.CellSize, p.Erosion, p.ThermalIterations, p.Amplitude = 10, "thermal", 5, 400
		},
	} {
		d := smallWorld(edit)
		d.Formats = []string{"tif"}
		if d.eroding() {
			d.Halo = d.Params.ThermalIterations
		}
		dir := t.TempDir()
		build(t, dir, d, Selection{})
		whole, err := pipeline.Generate(context.Background(), d.Params, pipeline.Options{})
		if err != nil {
			t.Fatal(err)
		}
		wholeTIF := filepath.Join(t.TempDir(), "whole.tif")
		geo := &heightfile.GeoRef{PixelX: d.Params.CellSize, PixelY: d.Params.CellSize}
		if err := heightfile.Save(wholeTIF, whole.Map, heightfile.SaveOptions{Geo: geo}); err != nil {
			t.Fatal(err)
		}
		raw := func(src string) []byte {
			out := filepath.Join(t.TempDir(), "raw.bin")
			testenv.RunTool(t, translate, "-q", "-of", "ENVI", src, out)
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		vrt := filepath.Join(dir, VRTName)
		got, want := raw(vrt), raw(wholeTIF)
		if len(want) != 2*65*65 || !bytes.Equal(got, want) {
			t.Fatalf("%s: GDAL reads the VRT as %d bytes, the whole map as %d; equal: %v", d.Params.Erosion, len(got), len(want), bytes.Equal(got, want))
		}
		report := testenv.RunTool(t, info, vrt)
		for _, s := range []string{"Size is 65, 65", "Pixel Size = (10.000000000000000,-10.000000000000000)", "Type=UInt16"} {
			if !strings.Contains(report, s) {
				t.Errorf("gdalinfo %s lacks %q:\n%s", VRTName, s, report)
			}
		}
		scale := regexp.MustCompile(`Offset: .*`)
		if a, b := scale.FindString(report), scale.FindString(testenv.RunTool(t, info, wholeTIF)); a == "" || a != b {
			t.Errorf("%s: gdalinfo gives the VRT %q, the whole map %q", d.Params.Erosion, a, b)
		}
	}
}
