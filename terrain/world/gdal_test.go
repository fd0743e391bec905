package world

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cordillera/internal/testenv"
	"cordillera/terrain"
	"cordillera/terrain/heightfile"
)

// GDAL reads the VRT mosaic as the whole map: gdal_translate of the VRT
// and of the whole map's GeoTIFF give the same samples, and gdalinfo
// reports the world's size, cell size and scale to metres.
func TestVRTIsTheWholeMapInGDAL(t *testing.T) {
	translate := testenv.NeedTool(t, "gdal_translate", "gdal-bin")
	info := testenv.NeedTool(t, "gdalinfo", "gdal-bin")
	d := smallWorld(func(p *terrain.Params) { p.Algorithm, p.CellSize, p.Amplitude = terrain.Hetero, 10, 1200 })
	d.Formats = []string{"tif"}
	dir := t.TempDir()
	build(t, dir, d, Selection{})
	whole, err := terrain.Generate(context.Background(), d.Params, nil)
	if err != nil {
		t.Fatal(err)
	}
	wholeTIF := filepath.Join(t.TempDir(), "whole.tif")
	geo := &heightfile.GeoRef{PixelX: d.Params.CellSize, PixelY: d.Params.CellSize}
	if err := heightfile.Save(wholeTIF, whole, heightfile.SaveOptions{Geo: geo}); err != nil {
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
		t.Fatalf("GDAL reads the VRT as %d bytes, the whole map as %d; equal: %v", len(got), len(want), bytes.Equal(got, want))
	}
	report := testenv.RunTool(t, info, vrt)
	for _, s := range []string{"Size is 65, 65", "Pixel Size = (10.000000000000000,-10.000000000000000)", "Offset: 0,   Scale:0.0183108", "Type=UInt16"} {
		if !strings.Contains(report, s) {
			t.Errorf("gdalinfo %s lacks %q:\n%s", VRTName, s, report)
		}
	}
}
