package heightfile

import (
	"bytes"
	"cordillera/internal/testenv"
	"cordillera/terrain"
	"encoding/json"
	"image"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/image/tiff"
)

// metres returns the world height of sample i of a source.
func metres(src *Source, i int) float64 {
	return src.Base + float64(src.Map.Samples[i])*src.Map.VerticalScale
}

func TestTIFFRoundTrip(t *testing.T) {
	m := randomHeightmap(37, 29, 4)
	m.CellSize, m.VerticalScale = 30, 1800
	var buf bytes.Buffer
	if err := EncodeTIFF(&buf, m, 250, nil); err != nil {
		t.Fatal(err)
	}
	src, err := DecodeTIFF(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if src.Map.Width != 37 || src.Map.Height != 29 || src.Map.CellSize != 30 || !src.Metric || src.Geo != nil {
		t.Fatalf("decoded %d×%d cell %v metric %v geo %v", src.Map.Width, src.Map.Height, src.Map.CellSize, src.Metric, src.Geo)
	}
	tol := 1800/65535.0/2 + 1e-3
	for i, h := range m.Samples {
		if want := 250 + float64(h)*1800; math.Abs(metres(src, i)-want) > tol {
			t.Fatalf("sample %d: %v m, want %v ± %v", i, metres(src, i), want, tol)
		}
	}
	// golang.org/x/image/tiff reads the same 16-bit samples.
	img, err := tiff.Decode(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	g, ok := img.(*image.Gray16)
	if !ok {
		t.Fatalf("x/image/tiff decoded a %T, want *image.Gray16", img)
	}
	for i, h := range m.Samples {
		if got := g.Gray16At(i%37, i/37).Y; got != quantize16(h) {
			t.Fatalf("x/image/tiff sample %d = %d, want %d", i, got, quantize16(h))
		}
	}
}

// gdalInfo is the part of gdalinfo -json this test reads.
type gdalInfo struct {
	Size             [2]int               `json:"size"`
	GeoTransform     []float64            `json:"geoTransform"`
	CoordinateSystem struct{ Wkt string } `json:"coordinateSystem"`
	Bands            []struct {
		Type   string   `json:"type"`
		Min    float64  `json:"minimum"`
		Max    float64  `json:"maximum"`
		Scale  float64  `json:"scale"`
		Offset float64  `json:"offset"`
		NoData *float64 `json:"noDataValue"`
	} `json:"bands"`
}

func runGDALInfo(t *testing.T, path string) gdalInfo {
	t.Helper()
	tool := testenv.NeedTool(t, "gdalinfo", "gdal-bin")
	out := testenv.RunTool(t, tool, "-json", "-stats", path)
	os.Remove(path + ".aux.xml") // -stats caches the statistics beside the file
	var info gdalInfo
	if err := json.Unmarshal([]byte(out), &info); err != nil {
		t.Fatalf("gdalinfo -json: %v\n%s", err, out)
	}
	if len(info.Bands) != 1 {
		t.Fatalf("gdalinfo sees %d bands, want 1", len(info.Bands))
	}
	return info
}

// GDAL reads our GeoTIFF with the same size, range, scale and placement.
func TestTIFFReadByGDAL(t *testing.T) {
	m := randomHeightmap(40, 30, 6)
	m.Samples[0], m.Samples[1] = 0, 1
	m.VerticalScale = 655.35
	geo := &GeoRef{OriginX: 11.25, OriginY: 47.5, PixelX: 0.001, PixelY: 0.0008, Geographic: true, EPSG: 4326}
	path := filepath.Join(t.TempDir(), "dem.tif")
	if err := Save(path, m, SaveOptions{Base: 100, Geo: geo}); err != nil {
		t.Fatal(err)
	}
	info := runGDALInfo(t, path)
	b := info.Bands[0]
	if info.Size != [2]int{40, 30} || b.Type != "UInt16" || b.Min != 0 || b.Max != 65535 {
		t.Errorf("gdalinfo: size %v type %s range %v–%v; want [40 30] UInt16 0–65535", info.Size, b.Type, b.Min, b.Max)
	}
	if math.Abs(b.Scale-0.01) > 1e-12 || b.Offset != 100 {
		t.Errorf("gdalinfo: scale %v offset %v; want 0.01 and 100", b.Scale, b.Offset)
	}
	want := []float64{11.25, 0.001, 0, 47.5, 0, -0.0008}
	for i, v := range want {
		if len(info.GeoTransform) != 6 || math.Abs(info.GeoTransform[i]-v) > 1e-12 {
			t.Fatalf("gdalinfo geotransform %v, want %v", info.GeoTransform, want)
		}
	}
	if !strings.Contains(info.CoordinateSystem.Wkt, "WGS 84") {
		t.Errorf("gdalinfo coordinate system %q; want WGS 84", info.CoordinateSystem.Wkt)
	}
	// And reading it back keeps the georeferencing.
	src, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if *src.Geo != *geo {
		t.Errorf("read back %+v, want %+v", *src.Geo, *geo)
	}
}

// GeoTIFF DEMs made by GDAL from a PNG, in the layouts real DEMs come in.
func TestDecodeGDALDEMs(t *testing.T) {
	translate := testenv.NeedTool(t, "gdal_translate", "gdal-bin")
	dir := t.TempDir()
	m := randomHeightmap(50, 40, 9)
	for y := 10; y < 14; y++ { // a hole, nodata in the DEMs made with -a_nodata 0
		for x := 20; x < 25; x++ {
			m.Samples[y*50+x] = 0
		}
	}
	png := filepath.Join(dir, "in.png")
	if err := SaveHeightmap(png, m); err != nil {
		t.Fatal(err)
	}
	// Values v of the PNG become v·2000/65535 − 100 m.
	scale := []string{"-scale", "0", "65535", "-100", "1900"}
	tests := []struct {
		name       string
		args       []string
		tol        float64
		geographic bool
		cell       float64 // metres, 0: check against degrees below
		holes      bool
	}{
		{"int16-deflate", []string{"-ot", "Int16", "-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=2", "-a_srs", "EPSG:32633", "-a_ullr", "500000", "5200000", "501500", "5198800"}, 0.51, false, 30, false},
		{"float32-lzw-tiled", []string{"-ot", "Float32", "-co", "COMPRESS=LZW", "-co", "PREDICTOR=3", "-co", "TILED=YES", "-co", "BLOCKXSIZE=16", "-co", "BLOCKYSIZE=16", "-a_srs", "EPSG:4326", "-a_ullr", "10", "47.01", "10.01", "47"}, 1e-3, true, 0, false},
		{"float32-bigendian-point", []string{"-ot", "Float32", "-co", "ENDIANNESS=BIG", "-mo", "AREA_OR_POINT=Point", "-a_srs", "EPSG:32633", "-a_ullr", "0", "400", "500", "0"}, 1e-3, false, 10, false},
		{"uint16-nodata", []string{"-ot", "UInt16", "-a_nodata", "0", "-co", "COMPRESS=DEFLATE", "-a_srs", "EPSG:32633", "-a_ullr", "0", "400", "500", "0"}, 0.01, false, 10, true},
		{"float64-packbits", []string{"-ot", "Float64", "-co", "COMPRESS=PACKBITS", "-a_srs", "EPSG:32633", "-a_ullr", "0", "400", "500", "0"}, 1e-3, false, 10, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, tt.name+".tif")
			args := append([]string{"-q"}, tt.args...)
			if tt.name != "uint16-nodata" {
				args = append(args, scale...)
			}
			testenv.RunTool(t, translate, append(args, png, out)...)
			src, err := Load(out)
			if err != nil {
				t.Fatal(err)
			}
			if !src.Metric || src.Geo == nil || src.Geo.Geographic != tt.geographic || !src.HasCellSize {
				t.Fatalf("metric %v geo %+v", src.Metric, src.Geo)
			}
			if tt.cell > 0 && math.Abs(src.Map.CellSize-tt.cell) > 1e-9 {
				t.Errorf("cell size %v m, want %v", src.Map.CellSize, tt.cell)
			}
			if tt.geographic {
				// 0.0002° of longitude at 47.005° N and 0.00025° of latitude.
				cx := 0.0002 * earthRadius * math.Pi / 180 * math.Cos(47.005*math.Pi/180)
				cy := 0.00025 * earthRadius * math.Pi / 180
				if math.Abs(src.Map.CellSize-(cx+cy)/2) > 1e-6 || !strings.Contains(src.Note, "stretched") {
					t.Errorf("cell size %v m, want %v; note %q", src.Map.CellSize, (cx+cy)/2, src.Note)
				}
			}
			for i, h := range m.Samples {
				v := float64(quantize16(h))
				want := v*2000/65535 - 100
				if tt.holes {
					want = v
					if v == 0 {
						continue // filled from the neighbours
					}
				}
				if got := metres(src, i); math.Abs(got-want) > tt.tol+1e-9*math.Abs(want) {
					t.Fatalf("sample %d (%d,%d): %v m, want %v", i, i%50, i/50, got, want)
				}
			}
			if tt.holes {
				if !strings.Contains(src.Note, "filled 20 nodata samples") {
					t.Errorf("note %q; want the 20 filled samples", src.Note)
				}
				lo, hi := m.Range()
				for y := 10; y < 14; y++ {
					for x := 20; x < 25; x++ {
						if v := src.Map.At(x, y); v < 0 || v > 1 || !(float64(v) >= float64(lo)) || v > hi {
							t.Fatalf("filled sample (%d,%d) = %v", x, y, v)
						}
					}
				}
			}
		})
	}
}

func TestTIFFRefusals(t *testing.T) {
	var good bytes.Buffer
	if err := EncodeTIFF(&good, randomHeightmap(9, 9, 2), 0, nil); err != nil {
		t.Fatal(err)
	}
	big := append([]byte(nil), good.Bytes()...)
	copy(big[:4], "II+\x00")
	for name, tt := range map[string]struct {
		data []byte
		want string
	}{
		"empty":     {nil, "too short"},
		"not tiff":  {[]byte("GIF89a and more"), "not a TIFF"},
		"bigtiff":   {big, "BigTIFF"},
		"truncated": {good.Bytes()[:good.Len()-10], "tiff: "},
		"ifd only":  {good.Bytes()[:300], "tiff: "},
	} {
		src, err := DecodeTIFF(bytes.NewReader(tt.data), int64(len(tt.data)))
		if err == nil || src != nil || !strings.HasPrefix(err.Error(), "tiff: ") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: source %v, error %v; want a tiff: error with %q", name, src != nil, err, tt.want)
		}
	}
	// A failed save leaves no file.
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.tif")
	bad := terrain.NewHeightmap(3, 3)
	bad.Samples[4] = float32(math.Inf(1))
	if err := Save(path, bad, SaveOptions{}); err == nil || !strings.HasPrefix(err.Error(), path+": tiff: ") {
		t.Errorf("save of an infinite sample: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("failed save left %s", entries[0].Name())
	}
}

func FuzzDecodeTIFF(f *testing.F) {
	var buf bytes.Buffer
	geo := &GeoRef{OriginX: 1, OriginY: 2, PixelX: 0.5, PixelY: 0.5, EPSG: 32633}
	if err := EncodeTIFF(&buf, randomHeightmap(6, 5, 1), 3, geo); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte("MM\x00\x2a\x00\x00\x00\x08"))
	buf.Reset()
	if err := encodeTIFF(&buf, randomHeightmap(6, 5, 2), 3, geo, []bool{true, false, false, true, 29: true}, nil); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes()) // a GDAL_NODATA tag and nodata samples
	// Unit keys, a vertical CRS, a compound CRS named in GeoAsciiParams.
	f.Add(craftedGeoTIFF([]uint16{1024, 0, 1, 1, 3072, 0, 1, 2272, 3076, 0, 1, 9003, 4099, 0, 1, 9002}, ""))
	f.Add(craftedGeoTIFF([]uint16{1024, 0, 1, 1, 1026, 34737, 24, 0, 3072, 0, 1, 2272, 4096, 0, 1, 6360}, "A (ftUS) + B height (ft)|"))
	f.Fuzz(func(t *testing.T, data []byte) {
		src, err := DecodeTIFF(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			if src != nil {
				t.Fatal("source returned with an error")
			}
			return
		}
		if err := src.Map.Validate(); err != nil {
			t.Fatal(err)
		}
	})
}

// A plain 16-bit TIFF from another encoder (golang.org/x/image/tiff, no
// georeferencing, no GDAL scale) reads like a PNG: fractions of 65535, and
// a narrow range is reported.
func TestDecodePlain16BitTIFF(t *testing.T) {
	for _, comp := range []tiff.CompressionType{tiff.Uncompressed, tiff.Deflate} {
		img := image.NewGray16(image.Rect(0, 0, 23, 17))
		for i := 0; i < len(img.Pix); i += 2 {
			v := uint16(44 + 2000*i/len(img.Pix))
			img.Pix[i], img.Pix[i+1] = byte(v>>8), byte(v)
		}
		var buf bytes.Buffer
		if err := tiff.Encode(&buf, img, &tiff.Options{Compression: comp, Predictor: comp == tiff.Deflate}); err != nil {
			t.Fatal(err)
		}
		src, err := DecodeTIFF(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		if src.Metric || src.Geo != nil || src.HasCellSize || !strings.Contains(src.Note, "-map-height 65535") {
			t.Errorf("compression %d: metric %v geo %v cell %v note %q", comp, src.Metric, src.Geo, src.HasCellSize, src.Note)
		}
		for i, v := range src.Map.Samples {
			if want := float32(img.Gray16At(i%23, i/23).Y) / 65535; v != want {
				t.Fatalf("compression %d sample %d = %v, want %v", comp, i, v, want)
			}
		}
	}
}
