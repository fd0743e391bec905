package heightfile

import (
	"bytes"
	"encoding/binary"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"cordillera/internal/testenv"
)

// craftedGeoTIFF writes a 4×3 float32 GeoTIFF of heights 0, 1, 2, … with
// 10-unit cells and the given GeoKeyDirectory keys (id, location, count,
// value each) and GeoAsciiParams text: tags as a file may carry them that
// GDAL does not write.
func craftedGeoTIFF(keys []uint16, ascii string) []byte {
	const w, h = 4, 3
	var data []byte
	for i := range w * h {
		data = binary.LittleEndian.AppendUint32(data, math.Float32bits(float32(i)))
	}
	var t tiffWriter
	t.add(tagImageWidth, typeLong, w)
	t.add(tagImageLength, typeLong, h)
	t.add(tagBitsPerSample, typeShort, 32)
	t.add(tagCompression, typeShort, compressNone)
	t.add(tagPhotometric, typeShort, 1)
	t.add(tagStripOffsets, typeLong, 0)
	t.add(tagSamplesPerPixel, typeShort, 1)
	t.add(tagRowsPerStrip, typeLong, h)
	t.add(tagStripByteCounts, typeLong, uint32(len(data)))
	t.add(tagSampleFormat, typeShort, 3)
	t.addDoubles(tagModelPixelScale, 10, 10, 0)
	t.addDoubles(tagModelTiepoint, 0, 0, 0, 1000, 2000, 0)
	dir := []uint32{1, 1, 0, uint32(len(keys) / 4)}
	for _, k := range keys {
		dir = append(dir, uint32(k))
	}
	t.add(tagGeoKeyDirectory, typeShort, dir...)
	if ascii != "" {
		t.addASCII(tagGeoAsciiParams, ascii)
	}
	t.set(tagStripOffsets, uint32(t.layout()))
	return append(t.bytes(), data...)
}

// The unit keys read from a file that carries them: heights in feet
// (VerticalUnitsGeoKey 9002) and cells in US survey feet
// (ProjLinearUnitsGeoKey 9003); a vertical unit not known is refused with
// a way out.
func TestGeoTIFFUnitKeys(t *testing.T) {
	for _, tt := range []struct {
		keys       []uint16
		cell, unit float64
		err        string
	}{
		{[]uint16{1024, 0, 1, 1, 3072, 0, 1, 2272, 3076, 0, 1, 9003, 4099, 0, 1, 9002}, 10 * 1200.0 / 3937, 0.3048, ""},
		{[]uint16{1024, 0, 1, 1, 3072, 0, 1, 32633, 4099, 0, 1, 9001}, 10, 1, ""},
		{[]uint16{1024, 0, 1, 1, 3072, 0, 1, 32633, 4096, 0, 1, 6360}, 10, 1200.0 / 3937, ""},
		{[]uint16{1024, 0, 1, 1, 3072, 0, 1, 32633, 4099, 0, 1, 9999}, 0, 0, "VerticalUnitsGeoKey 9999"},
	} {
		data := craftedGeoTIFF(tt.keys, "")
		src, err := DecodeTIFF(bytes.NewReader(data), int64(len(data)))
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.Contains(err.Error(), "metres") {
				t.Errorf("keys %v: error %v; want one naming %s and metres", tt.keys, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("keys %v: %v", tt.keys, err)
		}
		if math.Abs(src.Map.CellSize-tt.cell) > 1e-9 {
			t.Errorf("keys %v: cell size %v m, want %v", tt.keys, src.Map.CellSize, tt.cell)
		}
		for i := range src.Map.Samples {
			if got, want := metres(src, i), float64(i)*tt.unit; math.Abs(got-want) > 1e-5 {
				t.Fatalf("keys %v: sample %d is %v m, want %v", tt.keys, i, got, want)
			}
		}
	}
}

// A DEM in a compound CRS whose heights are in US survey feet
// (EPSG:2272+6360, NAD83 / Pennsylvania South (ftUS) + NAVD88 height
// (ftUS), as GDAL writes it: ProjLinearUnitsGeoKey and VerticalUnitsGeoKey
// 9003) has both its cell size and its heights in metres; the same file
// in EPSG:2272 alone keeps its heights and says that it took them as
// metres. The old reader took the heights in feet for metres.
func TestGeoTIFFVerticalFeet(t *testing.T) {
	translate := testenv.NeedTool(t, "gdal_translate", "gdal-bin")
	dir := t.TempDir()
	m := randomHeightmap(30, 20, 5)
	png := filepath.Join(dir, "in.png")
	if err := SaveHeightmap(png, m); err != nil {
		t.Fatal(err)
	}
	const usft = 1200.0 / 3937
	for _, tt := range []struct {
		srs   string
		unit  float64
		noted bool
	}{{"EPSG:2272+6360", usft, false}, {"EPSG:2272", 1, true}} {
		out := filepath.Join(dir, strings.NewReplacer(":", "", "+", "_").Replace(tt.srs)+".tif")
		testenv.RunTool(t, translate, "-q", "-ot", "Float32", "-a_srs", tt.srs,
			"-a_ullr", "2600000", "250000", ftoa(2600000+30*100), ftoa(250000-20*100), png, out)
		src, err := Load(out)
		if err != nil {
			t.Fatal(err)
		}
		if want := 100 * usft; math.Abs(src.Map.CellSize-want) > 1e-9 {
			t.Errorf("%s: cell size %v m, want %v", tt.srs, src.Map.CellSize, want)
		}
		for i, h := range m.Samples {
			want := float64(quantize16(h)) * tt.unit
			if got := metres(src, i); math.Abs(got-want) > 1e-6*want+1e-3 {
				t.Fatalf("%s: sample %d is %v m, want %v", tt.srs, i, got, want)
			}
		}
		if noted := strings.Contains(src.Note, "taken as metres"); noted != tt.noted {
			t.Errorf("%s: note %q; want a note on the height unit: %v", tt.srs, src.Note, tt.noted)
		}
	}
}
