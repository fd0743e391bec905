package heightfile

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"cordillera/internal/testenv"
)

// craftTIFF builds a little-endian TIFF of one IFD from entries (tag,
// type, count, value or offset) followed by data at offset 8.
func craftTIFF(data []byte, entries [][4]uint32) []byte {
	le := binary.LittleEndian
	b := []byte{'I', 'I', 42, 0}
	ifd := 8 + len(data)
	ifd += ifd % 2
	b = le.AppendUint32(b, uint32(ifd))
	b = append(b, data...)
	for len(b) < ifd {
		b = append(b, 0)
	}
	b = le.AppendUint16(b, uint16(len(entries)))
	for _, e := range entries {
		b = le.AppendUint16(b, uint16(e[0]))
		b = le.AppendUint16(b, uint16(e[1]))
		b = le.AppendUint32(b, e[2])
		if e[1] == typeShort && e[2] == 1 {
			b = le.AppendUint16(b, uint16(e[3]))
			b = append(b, 0, 0)
		} else {
			b = le.AppendUint32(b, e[3])
		}
	}
	return le.AppendUint32(b, 0)
}

// sparseReader reads data, then zeros up to size: a sparse file.
type sparseReader struct {
	data []byte
	size int64
}

func (s sparseReader) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for n < len(p) && off+int64(n) < s.size {
		if i := off + int64(n); i < int64(len(s.data)) {
			p[n] = s.data[i]
		} else {
			p[n] = 0
		}
		n++
	}
	if n < len(p) {
		return n, os.ErrClosed
	}
	return n, nil
}

// allocated returns the bytes f allocates, and its error.
func allocated(f func() error) (uint64, error) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	err := f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, err
}

// Crafted TIFFs whose tiles or tags claim far more than the file holds
// fail at once with a clear error, allocating little: the old reader
// allocated each tile whole (a 16×1025 image in tiles of 1024² with 16
// float64 samples: 128 MB; 16×16385 in tiles of 16384²: 34 GB from a
// 1 KB file) and every tag's values (8 unknown BYTE tags of 16 M values
// each in a 16 MB sparse file, or 100 M strip offsets: 4.7 GB), and
// a known tag as often as it was listed (20 copies of a 4 MB one: 80 MB).
func TestTIFFBombs(t *testing.T) {
	le := binary.LittleEndian
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	noise := make([]byte, 10000) // stored bytes enough for the image, not the tiles
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range noise {
		noise[i] = byte(rng.Uint32())
	}
	zw.Write(noise)
	zw.Close()
	// A 16-sample-wide image, side lines tall, in two tiles of side²
	// samples of 16 float64 each, both the same 27 bytes of Deflate.
	tile := func(side uint32) []byte {
		data := append([]byte(nil), z.Bytes()...)
		at := uint32(8 + len(data))
		data = le.AppendUint32(le.AppendUint32(data, 8), 8)
		data = le.AppendUint32(le.AppendUint32(data, uint32(z.Len())), uint32(z.Len()))
		return craftTIFF(data, [][4]uint32{
			{tagImageWidth, typeLong, 1, 16}, {tagImageLength, typeLong, 1, side + 1},
			{tagBitsPerSample, typeShort, 1, 64}, {tagCompression, typeShort, 1, compressDeflate},
			{tagSamplesPerPixel, typeShort, 1, 16},
			{tagTileWidth, typeLong, 1, side}, {tagTileLength, typeLong, 1, side},
			{tagTileOffsets, typeLong, 2, at}, {tagTileByteCounts, typeLong, 2, at + 8},
			{tagSampleFormat, typeShort, 1, 3},
		})
	}
	var unknown [][4]uint32
	for i := range 8 {
		unknown = append(unknown, [4]uint32{uint32(50000 + i), typeByte, 16 << 20, 16})
	}
	sparse := craftTIFF(nil, append([][4]uint32{{tagImageWidth, typeLong, 1, 16}, {tagImageLength, typeLong, 1, 16},
		{tagBitsPerSample, typeShort, 1, 16}}, unknown...))
	offsets := craftTIFF(nil, [][4]uint32{{tagImageWidth, typeLong, 1, 16}, {tagImageLength, typeLong, 1, 16},
		{tagStripOffsets, typeLong, 100 << 20, 16}})
	// The largest tag read, GDAL's metadata text, listed 20 times.
	var repeated [][4]uint32
	for range 20 {
		repeated = append(repeated, [4]uint32{tagGDALMetadata, typeASCII, 1 << 22, 16})
	}
	twice := craftTIFF(nil, append([][4]uint32{{tagImageWidth, typeLong, 1, 16}, {tagImageLength, typeLong, 1, 16}}, repeated...))
	for _, tt := range []struct {
		name string
		r    sparseReader
		want string
	}{
		{"tiles of 1024²", sparseReader{tile(1024), 0}, "20032 bytes of image data cannot hold the 134348800 bytes of a 16×1025 image in 1024×1024 tiles"},
		{"tiles of 16384²", sparseReader{tile(16384), 0}, "20032 bytes of image data cannot hold the 34361835520 bytes of a 16×16385 image in 16384×16384 tiles"},
		{"unknown tags", sparseReader{sparse, 16 << 20}, "tiff: 0 data offsets and 0 byte counts for 1 chunks"},
		{"offsets", sparseReader{offsets, 1 << 30}, "tiff: tag 273 has 104857600 values; at most 262144 make sense"},
		{"a tag repeated", sparseReader{twice, 16 << 20}, "tiff: tag 42112 appears twice in the image directory"},
	} {
		if tt.r.size == 0 {
			tt.r.size = int64(len(tt.r.data))
		}
		n, err := allocated(func() error {
			src, err := DecodeTIFF(tt.r, tt.r.size)
			if src != nil {
				t.Errorf("%s: decoded", tt.name)
			}
			return err
		})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v; want %q", tt.name, err, tt.want)
		}
		if n > 4<<20 {
			t.Errorf("%s: allocated %d MB before refusing", tt.name, n>>20)
		}
	}
}

// GDAL's tiles may be larger than the image (256² for a 50×40 map):
// read a row at a time, only the rows inside the image.
func TestTIFFTilesLargerThanTheImage(t *testing.T) {
	translate := testenv.NeedTool(t, "gdal_translate", "gdal-bin")
	dir := t.TempDir()
	m := randomHeightmap(50, 40, 3)
	png, tif := filepath.Join(dir, "in.png"), filepath.Join(dir, "t.tif")
	if err := SaveHeightmap(png, m); err != nil {
		t.Fatal(err)
	}
	testenv.RunTool(t, translate, "-q", "-ot", "UInt16", "-co", "TILED=YES", "-co", "BLOCKXSIZE=256", "-co", "BLOCKYSIZE=256",
		"-co", "COMPRESS=DEFLATE", png, tif)
	src, err := Load(tif)
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range m.Samples {
		if got := src.Map.Samples[i]; quantize16(got) != quantize16(h) {
			t.Fatalf("sample %d = %v, want %v", i, got, h)
		}
	}
}

// A GeoTIFF's latitudes and cell sizes must make sense: a map whose edge
// lies beyond a pole, a cell size of 1e300 m (infinite vertices further
// on), or none at all, is refused naming the file and the value. The old
// reader took them (a negative cell size at latitude 120).
func TestGeoTIFFValidation(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name string
		cell float64
		geo  *GeoRef
		meta string // replaces CELL_SIZE's value in the GDAL metadata
		want string
	}{
		{"lat120", 1, &GeoRef{OriginX: 10, OriginY: 120, PixelX: 0.01, PixelY: 0.01, Geographic: true, EPSG: 4326},
			"", "the map's north edge lies at latitude 120°, beyond ±90°"},
		{"south", 1, &GeoRef{OriginX: 10, OriginY: -89.9, PixelX: 0.01, PixelY: 0.5, Geographic: true, EPSG: 4326},
			"", "the map's south edge lies at latitude -99.9°"},
		{"pixel", 1, &GeoRef{OriginX: 0, OriginY: 0, PixelX: 1e300, PixelY: 1e300, EPSG: 32633},
			"", "cell size 1e+300 m (from the georeferencing)"},
		{"cell1e300", 1e300, nil, "", "cell size 1e+300 m (GDAL metadata CELL_SIZE)"},
		{"cellNaN", 1e300, nil, "   NaN", "GDAL metadata CELL_SIZE is NaN; want a finite number"},
		{"cellneg", 1e300, nil, "-1e300", "cell size -1e+300 m (GDAL metadata CELL_SIZE)"},
		{"cellzero", 1e300, nil, "000000", "cell size 0 m (GDAL metadata CELL_SIZE)"},
	} {
		m := randomHeightmap(20, 20, 1)
		m.CellSize = tt.cell
		var buf bytes.Buffer
		if err := EncodeTIFF(&buf, m, 0, tt.geo); err != nil {
			t.Fatal(err)
		}
		data := buf.Bytes()
		if tt.meta != "" {
			data = bytes.Replace(data, []byte(`"CELL_SIZE">1e+300<`), []byte(`"CELL_SIZE">`+tt.meta+`<`), 1)
		}
		path := filepath.Join(dir, tt.name+".tif")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		src, err := Load(path)
		if err == nil || src != nil || !strings.HasPrefix(err.Error(), path+": tiff: ") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v; want %q after the path", tt.name, err, tt.want)
		}
	}
	// A global grid of samples at the poles keeps its half cell beyond.
	m := randomHeightmap(20, 19, 1)
	var buf bytes.Buffer
	if err := EncodeTIFF(&buf, m, 0, &GeoRef{OriginX: -185, OriginY: 95, PixelX: 10, PixelY: 10, Geographic: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeTIFF(bytes.NewReader(buf.Bytes()), int64(buf.Len())); err != nil {
		t.Errorf("global grid: %v", err)
	}
}

// A DEM in a CRS measured in feet has its cells converted to metres
// (ProjLinearUnitsGeoKey): EPSG:2272 is in US survey feet, so 304.25 ft
// cells are 92.74 m; EPSG:2222 in international feet. The old reader took
// the feet for metres.
func TestGeoTIFFFeet(t *testing.T) {
	translate := testenv.NeedTool(t, "gdal_translate", "gdal-bin")
	dir := t.TempDir()
	png := filepath.Join(dir, "in.png")
	if err := SaveHeightmap(png, randomHeightmap(50, 40, 4)); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		epsg  string
		metre float64
	}{{"EPSG:2272", 1200.0 / 3937}, {"EPSG:2222", 0.3048}, {"EPSG:32633", 1}} {
		out := filepath.Join(dir, strings.ReplaceAll(tt.epsg, ":", "")+".tif")
		testenv.RunTool(t, translate, "-q", "-ot", "Float32", "-a_srs", tt.epsg,
			"-a_ullr", "2600000", "250000", ftoa(2600000+50*304.25), ftoa(250000-40*304.25), png, out)
		src, err := Load(out)
		if err != nil {
			t.Fatal(err)
		}
		if want := 304.25 * tt.metre; math.Abs(src.Map.CellSize-want) > 1e-6 {
			t.Errorf("%s: cell size %v m, want %v", tt.epsg, src.Map.CellSize, want)
		}
		// Written back, the unit stays with the georeferencing.
		var buf bytes.Buffer
		if err := EncodeTIFF(&buf, src.Map, src.Base, src.Geo); err != nil {
			t.Fatal(err)
		}
		back, err := DecodeTIFF(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil || math.Abs(back.Map.CellSize-src.Map.CellSize) > 1e-9 {
			t.Errorf("%s written back: cell %v, %v", tt.epsg, back.Map.CellSize, err)
		}
	}
	// An unknown unit is refused with a way out.
	var buf bytes.Buffer
	g := &GeoRef{PixelX: 1, PixelY: 1, EPSG: 32633, LinearUnit: 9002}
	if err := EncodeTIFF(&buf, randomHeightmap(8, 8, 1), 0, g); err != nil {
		t.Fatal(err)
	}
	data := bytes.Replace(buf.Bytes(), []byte{0x04, 0x0c, 0, 0, 1, 0, 0x2a, 0x23}, []byte{0x04, 0x0c, 0, 0, 1, 0, 0x39, 0x30}, 1)
	if _, err := DecodeTIFF(bytes.NewReader(data), int64(len(data))); err == nil || !strings.Contains(err.Error(), "ProjLinearUnitsGeoKey 12345") {
		t.Errorf("unknown unit: %v", err)
	}
}
