package heightfile

import (
	"bytes"
	"compress/zlib"
	"cordillera/terrain"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"runtime"
	"strings"
	"testing"
)

// PNG colour types (PNG spec, table 11.1).
const (
	pngGray      = 0
	pngRGB       = 2
	pngGrayAlpha = 4
	pngRGBA      = 6
)

// rawPNG builds a PNG by hand, for layouts image/png never writes (an alpha
// channel on an opaque image) and for headers no encoder would: rows holds
// the unfiltered scanlines; nil rows writes no image data at all.
func rawPNG(w, h uint32, depth, colourType byte, rows [][]byte) []byte {
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		binary.Write(&out, binary.BigEndian, uint32(len(data)))
		crc := crc32.NewIEEE()
		crc.Write([]byte(typ))
		crc.Write(data)
		out.WriteString(typ)
		out.Write(data)
		binary.Write(&out, binary.BigEndian, crc.Sum32())
	}
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, depth, colourType, 0, 0, 0) // deflate, adaptive filtering, no interlace
	chunk("IHDR", ihdr)
	if rows != nil {
		var idat bytes.Buffer
		z := zlib.NewWriter(&idat)
		for _, row := range rows {
			z.Write([]byte{0}) // filter type None
			z.Write(row)
		}
		z.Close()
		chunk("IDAT", idat.Bytes())
	}
	chunk("IEND", nil)
	return out.Bytes()
}

func encodePNG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// plainPNG16 encodes m's samples as image/png writes a 16-bit gray image:
// a PNG from another tool, with no metres recorded.
func plainPNG16(t testing.TB, m *terrain.Heightmap) []byte {
	img := image.NewGray16(image.Rect(0, 0, m.Width, m.Height))
	for i, h := range m.Samples {
		img.SetGray16(i%m.Width, i/m.Width, color.Gray16{Y: quantize16(h)})
	}
	return encodePNG(t, img)
}

// writePlainPNG16 writes plainPNG16(m) to path.
func writePlainPNG16(t testing.TB, path string, m *terrain.Heightmap) {
	t.Helper()
	if err := os.WriteFile(path, plainPNG16(t, m), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestPNG16RoundTrip(t *testing.T) {
	m := randomHeightmap(37, 23, 4)
	m.CellSize, m.VerticalScale = 3, 500 // DecodeHeightmapImage gives 1, 1 (DecodePNG reads them)
	// The first row holds exact 16-bit levels, including both ends.
	for col := range m.Width {
		m.Samples[col] = float32(col*1771) / 65535
	}
	m.Samples[0], m.Samples[m.Width-1] = 0, 1
	var buf bytes.Buffer
	if err := EncodePNG16(&buf, m); err != nil {
		t.Fatal(err)
	}
	got, err := DecodeHeightmapImage(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if got.Width != m.Width || got.Height != m.Height || got.CellSize != 1 || got.VerticalScale != 1 {
		t.Fatalf("decoded %d×%d, cell %v, vertical %v; want %d×%d, 1, 1", got.Width, got.Height, got.CellSize, got.VerticalScale, m.Width, m.Height)
	}
	for i, want := range m.Samples {
		d := math.Abs(float64(got.Samples[i]) - float64(want))
		if i < m.Width && d != 0 {
			t.Fatalf("sample %d: %v, want exactly %v", i, got.Samples[i], want)
		}
		if d > 0.5/65535+1e-9 {
			t.Fatalf("sample %d: %v, want %v within half a level", i, got.Samples[i], want)
		}
	}
}

func TestEncodePNG16Levels(t *testing.T) {
	m := terrain.NewHeightmap(6, 1)
	copy(m.Samples, []float32{-0.5, 0, 0.25, 0.5, 1, 1.5})
	var buf bytes.Buffer
	if err := EncodePNG16(&buf, m); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	g, ok := img.(*image.Gray16)
	if !ok {
		t.Fatalf("EncodePNG16 wrote a %T, want 16-bit gray", img)
	}
	// round(0.25·65535) = round(16383.75), round(0.5·65535) = round(32767.5).
	want := []uint16{0, 0, 16384, 32768, 65535, 65535}
	for x, w := range want {
		if v := g.Gray16At(x, 0).Y; v != w {
			t.Errorf("pixel %d = %d, want %d", x, v, w)
		}
	}

	if err := EncodePNG16(&failingWriter{n: 10}, m); !errors.Is(err, errDiskFull) || !strings.HasPrefix(err.Error(), "png: ") {
		t.Errorf("failing writer: error %v, want \"png: \" and %v", err, errDiskFull)
	}

	m.Samples[2] = float32(math.NaN())
	if err := EncodePNG16(&buf, m); err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Errorf("NaN sample: error %v, want one naming NaN", err)
	}
}

func TestDecodeHeightmapImageGrayLayouts(t *testing.T) {
	const w, h = 4, 3
	level8 := func(x, y int) uint8 { return uint8(40*x + 70*y + 5) }
	level16 := func(x, y int) uint16 { return uint16(9000*x + 17000*y + 3) }

	gray8 := image.NewGray(image.Rect(0, 0, w, h))
	gray16 := image.NewGray16(image.Rect(0, 0, w, h))
	rgb8 := image.NewRGBA(image.Rect(0, 0, w, h))
	rgb16 := image.NewRGBA64(image.Rect(0, 0, w, h))
	var rgba8, rgba16, grayAlpha8 [][]byte
	for y := range h {
		var r8, r16, ga8 []byte
		for x := range w {
			v8, v16 := level8(x, y), level16(x, y)
			gray8.SetGray(x, y, color.Gray{v8})
			gray16.SetGray16(x, y, color.Gray16{v16})
			rgb8.SetRGBA(x, y, color.RGBA{v8, v8, v8, 255})
			rgb16.SetRGBA64(x, y, color.RGBA64{v16, v16, v16, 0xffff})
			r8 = append(r8, v8, v8, v8, 255)
			r16 = binary.BigEndian.AppendUint16(r16, v16)
			r16 = binary.BigEndian.AppendUint16(r16, v16)
			r16 = binary.BigEndian.AppendUint16(r16, v16)
			r16 = binary.BigEndian.AppendUint16(r16, 0xffff)
			ga8 = append(ga8, v8, 255)
		}
		rgba8, rgba16, grayAlpha8 = append(rgba8, r8), append(rgba16, r16), append(grayAlpha8, ga8)
	}
	want8 := func(x, y int) float32 { return float32(level8(x, y)) / 255 }
	want16 := func(x, y int) float32 { return float32(level16(x, y)) / 65535 }

	tests := []struct {
		name string
		file []byte
		want func(x, y int) float32
	}{
		{"8-bit gray", encodePNG(t, gray8), want8},
		{"16-bit gray", encodePNG(t, gray16), want16},
		{"8-bit gray as RGB", encodePNG(t, rgb8), want8},
		{"16-bit gray as RGB", encodePNG(t, rgb16), want16},
		// image/png drops the alpha channel of opaque images, so these are made by hand.
		{"8-bit gray as RGBA", rawPNG(w, h, 8, pngRGBA, rgba8), want8},
		{"16-bit gray as RGBA", rawPNG(w, h, 16, pngRGBA, rgba16), want16},
		{"8-bit gray+alpha", rawPNG(w, h, 8, pngGrayAlpha, grayAlpha8), want8},
		{"2-bit gray", rawPNG(4, 2, 2, pngGray, [][]byte{{0b00_01_10_11}, {0b00_01_10_11}}), func(x, y int) float32 { return float32(x) / 3 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := DecodeHeightmapImage(bytes.NewReader(tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Validate(); err != nil {
				t.Fatal(err)
			}
			for y := range m.Height {
				for x := range m.Width {
					if got, want := m.At(x, y), tt.want(x, y); math.Abs(float64(got-want)) > 1e-7 {
						t.Fatalf("(%d,%d) = %v, want %v", x, y, got, want)
					}
				}
			}
			if tt.name != "2-bit gray" && (m.Width != w || m.Height != h) {
				t.Fatalf("size %d×%d, want %d×%d", m.Width, m.Height, w, h)
			}
		})
	}
}

func TestDecodeHeightmapImageRefusals(t *testing.T) {
	coloured := image.NewRGBA(image.Rect(0, 0, 5, 9))
	for i := range coloured.Pix {
		coloured.Pix[i] = 200
		if i%4 == 3 {
			coloured.Pix[i] = 255
		}
	}
	coloured.SetRGBA(3, 7, color.RGBA{200, 10, 10, 255})

	tinted := image.NewRGBA64(image.Rect(0, 0, 3, 3))
	for i := range tinted.Pix {
		tinted.Pix[i] = 0xff
	}
	tinted.SetRGBA64(1, 2, color.RGBA64{5000, 5000, 5001, 0xffff})

	paletted := image.NewPaletted(image.Rect(0, 0, 4, 4), color.Palette{color.Gray{0}, color.Gray{255}})

	translucent := image.NewNRGBA(image.Rect(0, 0, 4, 4))
	for i := range translucent.Pix {
		translucent.Pix[i] = 255
	}
	translucent.SetNRGBA(2, 1, color.NRGBA{90, 90, 90, 128})

	valid := encodePNG(t, image.NewGray16(image.Rect(0, 0, 32, 32)))

	tests := []struct {
		name string
		file []byte
		want string
	}{
		{"coloured RGB", encodePNG(t, coloured), "png: colour image (pixel (3,7) is R=200 G=10 B=10); want grayscale"},
		{"blue-tinted 16-bit RGB", encodePNG(t, tinted), "pixel (1,2) is R=5000 G=5000 B=5001"},
		{"paletted", encodePNG(t, paletted), "paletted"},
		{"translucent gray as RGBA", encodePNG(t, translucent), "translucent pixel (2,1) has alpha 128"},
		{"truncated", valid[:len(valid)/2], "png:"},
		{"header only", valid[:33], "png: truncated"},
		{"garbage", []byte("this is not a picture of a mountain"), "not a PNG"},
		{"empty", nil, "png: truncated"},
		{"too wide", rawPNG(MaxFileSide+1, 1, 8, pngGray, nil), "16386×1"},
		{"zero height", rawPNG(3, 0, 8, pngGray, nil), "png:"},
		{"1×1", rawPNG(1, 1, 8, pngGray, [][]byte{{7}}), "png: image is 1×1; each side must be between 2 and 16385"},
		{"16385² zeros", rawPNG(MaxFileSide, MaxFileSide, 16, pngGray, nil), "png: image is 16385×16385 = 268.5 M samples, over the limit of 67.1 M (8193×8193"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := DecodeHeightmapImage(bytes.NewReader(tt.file))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got map %v, error %v; want an error containing %q", m != nil, err, tt.want)
			}
			if m != nil {
				t.Fatal("a map came back with the error")
			}
		})
	}
}

// A 100000×100000 header would need 20 GB for 16-bit pixels; it must be
// refused from the header, before anything of that size is allocated.
func TestDecodeHeightmapImageHugeHeader(t *testing.T) {
	file := rawPNG(100000, 100000, 16, pngGray, [][]byte{make([]byte, 16)})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := DecodeHeightmapImage(bytes.NewReader(file))
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "100000×100000") {
		t.Fatalf("error %v, want the size refused", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("refusing the header allocated %d bytes", n)
	}

	// The largest allowed side still decodes.
	row := make([]byte, MaxFileSide)
	if _, err := DecodeHeightmapImage(bytes.NewReader(rawPNG(MaxFileSide, 2, 8, pngGray, [][]byte{row, row}))); err != nil {
		t.Errorf("%d×2: %v", MaxFileSide, err)
	}
}

// fuzzMaxPixels bounds the images FuzzDecodeHeightmapImage decodes: a
// 50-byte header may declare 16385² pixels, which decode to gigabytes of
// memory before the data runs out. The limit itself has its own tests.
const fuzzMaxPixels = 1 << 16

func FuzzDecodeHeightmapImage(f *testing.F) {
	f.Add(encodePNG(f, image.NewGray(image.Rect(0, 0, 3, 2))))
	f.Add(encodePNG(f, image.NewGray16(image.Rect(0, 0, 2, 2))))
	f.Add(encodePNG(f, image.NewRGBA64(image.Rect(0, 0, 2, 1))))
	f.Add(encodePNG(f, image.NewPaletted(image.Rect(0, 0, 2, 2), color.Palette{color.Gray{7}})))
	f.Add(rawPNG(2, 2, 8, pngRGBA, [][]byte{{1, 1, 1, 255, 2, 2, 2, 255}, {3, 3, 3, 255, 4, 4, 4, 200}}))
	f.Add(rawPNG(2, 1, 16, pngGrayAlpha, [][]byte{{1, 2, 255, 255, 3, 4, 255, 255}}))
	// The tEXt chunks that record a PNG's metres (DecodePNG).
	f.Add(withChunks(grayPNG(), textChunk(pngKeyHeightMin, "-12.25"), textChunk(pngKeyHeightMax, "161.55"), textChunk(pngKeyCellSize, "2.5")))
	f.Add(withChunks(grayPNG(), textChunk(pngKeyHeightMin, "0"), textChunk(pngKeyHeightMax, "NaN")))
	f.Add(withChunks(grayPNG(), textChunk(pngKeyCellSize, "1e-300"), textChunk(pngKeyCellSize, "1")))
	f.Fuzz(func(t *testing.T, data []byte) {
		// Mutations almost never keep the chunk checksums right, so most
		// inputs would stop at the first chunk; decode each input also with
		// its checksums repaired to reach the image data.
		for _, file := range [][]byte{data, repairPNGChecksums(data)} {
			if cfg, err := png.DecodeConfig(bytes.NewReader(file)); err == nil && cfg.Width*cfg.Height > fuzzMaxPixels {
				continue
			}
			m, err := DecodeHeightmapImage(bytes.NewReader(file))
			if err != nil {
				if m != nil {
					t.Fatal("map returned with an error")
				}
				if !strings.HasPrefix(err.Error(), "png: ") {
					t.Fatalf("error %q does not start with \"png: \"", err)
				}
				continue
			}
			checkDecoded(t, m)
			src, err := DecodePNG(bytes.NewReader(file))
			if err != nil {
				if src != nil || !strings.HasPrefix(err.Error(), "png: tEXt ") {
					t.Fatalf("DecodePNG of a decodable image: %v, %v; want an error about our text chunks", src, err)
				}
				continue
			}
			checkSourceScale(t, src)
		}
	})
}

// checkSourceScale fails unless a decoded PNG's scale is one a map may
// have: the vertical scale and base finite (1 and 0 when not metric), the
// cell size within its bounds (1 when the file gave none).
func checkSourceScale(t *testing.T, src *Source) {
	t.Helper()
	m := src.Map
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if !src.Metric && (m.VerticalScale != 1 || src.Base != 0) {
		t.Fatalf("not metric, but vertical scale %v, base %v", m.VerticalScale, src.Base)
	}
	if math.Abs(src.Base) > maxAbsHeight || math.Abs(src.Base+m.VerticalScale) > maxAbsHeight {
		t.Fatalf("black at %v m, white at %v m", src.Base, src.Base+m.VerticalScale)
	}
	if src.HasCellSize && !(m.CellSize >= minCellSize && m.CellSize <= maxCellSize) || !src.HasCellSize && m.CellSize != 1 {
		t.Fatalf("cell size %v (given: %v)", m.CellSize, src.HasCellSize)
	}
}

// repairPNGChecksums returns a copy of data with the CRC of every complete
// chunk recomputed.
func repairPNGChecksums(data []byte) []byte {
	out := bytes.Clone(data)
	for at := 8; at+12 <= len(out); {
		n := int(binary.BigEndian.Uint32(out[at:]))
		if n < 0 || n > len(out)-at-12 {
			break
		}
		end := at + 8 + n
		binary.BigEndian.PutUint32(out[end:], crc32.ChecksumIEEE(out[at+4:end]))
		at = end + 4
	}
	return out
}

// checkDecoded fails unless m is a valid decoded map: Validate-clean, at
// most MaxFileSide a side, unit scales, samples in [0, 1].
func checkDecoded(t *testing.T, m *terrain.Heightmap) {
	t.Helper()
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if m.Width > MaxFileSide || m.Height > MaxFileSide || m.CellSize != 1 || m.VerticalScale != 1 {
		t.Fatalf("decoded %d×%d with cell %v, vertical %v", m.Width, m.Height, m.CellSize, m.VerticalScale)
	}
	for i, v := range m.Samples {
		if !(v >= 0 && v <= 1) {
			t.Fatalf("sample %d = %v, outside [0, 1]", i, v)
		}
	}
}
