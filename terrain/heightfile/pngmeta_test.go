package heightfile

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"cordillera/terrain"
)

// pngChunk returns one PNG chunk: length, type, data, CRC.
func pngChunk(kind string, data []byte) []byte {
	out := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	out = append(out, kind...)
	out = append(out, data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[4:]))
}

// textChunk returns a tEXt chunk of key and value.
func textChunk(key, value string) []byte {
	return pngChunk("tEXt", []byte(key+"\x00"+value))
}

// withChunks returns the PNG file with chunks put right after its IHDR.
func withChunks(file []byte, chunks ...[]byte) []byte {
	const afterIHDR = 8 + 8 + 13 + 4
	out := bytes.Clone(file[:afterIHDR])
	for _, c := range chunks {
		out = append(out, c...)
	}
	return append(out, file[afterIHDR:]...)
}

// grayPNG is a 2×2 16-bit gray PNG of samples 0, 65535, 4096, 32768.
func grayPNG() []byte {
	return rawPNG(2, 2, 16, pngGray, [][]byte{{0, 0, 0xff, 0xff}, {0x10, 0, 0x80, 0}})
}

// A PNG written by Cordillera gives back its metres, cell size and base:
// the heights of black and white and the cell size are in tEXt chunks, so
// that no -map-height is needed to read it right.
func TestPNGRecordsMetres(t *testing.T) {
	m := randomHeightmap(31, 17, 7)
	m.Samples[0], m.Samples[1] = 0, 1
	m.CellSize, m.VerticalScale = 2.5, 173.8
	const base = -12.25
	path := filepath.Join(t.TempDir(), "m.png")
	if err := Save(path, m, SaveOptions{Base: base}); err != nil {
		t.Fatal(err)
	}
	src, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !src.Metric || !src.HasCellSize || src.Base != base || src.Map.VerticalScale != 173.8 || src.Map.CellSize != 2.5 || src.Note != "" {
		t.Fatalf("metric %v, cell size %v (%v), base %v, vertical scale %v, note %q; want metric, 2.5 m, base %v, 173.8 m, no note",
			src.Metric, src.Map.CellSize, src.HasCellSize, src.Base, src.Map.VerticalScale, src.Note, base)
	}
	tol := 173.8 * 0.5 / 65535
	for i, h := range m.Samples {
		want := base + float64(h)*173.8
		if got := src.Base + float64(src.Map.Samples[i])*src.Map.VerticalScale; math.Abs(got-want) > tol+1e-9 {
			t.Fatalf("sample %d = %v m, want %v ± %v", i, got, want, tol)
		}
	}
	// DecodeHeightmapImage keeps giving the bare image.
	f, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bare, err := DecodeHeightmapImage(bytes.NewReader(f))
	if err != nil || bare.CellSize != 1 || bare.VerticalScale != 1 {
		t.Fatalf("DecodeHeightmapImage: %v, cell %v, vertical %v; want 1, 1", err, bare.CellSize, bare.VerticalScale)
	}
	// Other readers see the keys as PNG text: ImageMagick lists them.
	if _, err := exec.LookPath("identify"); err == nil {
		out, err := exec.Command("identify", "-format", "%[cordillera:height-min-m] %[cordillera:height-max-m] %[cordillera:cell-size-m]", path).CombinedOutput()
		if err != nil {
			t.Fatalf("identify: %v: %s", err, out)
		}
		if got, want := strings.TrimSpace(string(out)), "-12.25 161.55 2.5"; got != want {
			t.Errorf("identify reads %q; want %q", got, want)
		}
	}
}

// A PNG without our chunks (any other tool's) reads as before: heights in
// [0, 1] with no scale, cell size 1, and the caller picks a scale.
func TestPNGWithoutMetres(t *testing.T) {
	for name, file := range map[string][]byte{
		"image/png": plainPNG16(t, randomHeightmap(5, 4, 3)),
		"others' text": withChunks(grayPNG(), textChunk("Comment", "made elsewhere"), textChunk("cordillera", "no colon"),
			textChunk("Description", strings.Repeat("x", 100000))),
	} {
		src, err := DecodePNG(bytes.NewReader(file))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if src.Metric || src.HasCellSize || src.Base != 0 || src.Map.CellSize != 1 || src.Map.VerticalScale != 1 {
			t.Errorf("%s: metric %v, cell size %v (%v), base %v, vertical %v; want none, 1, 1",
				name, src.Metric, src.Map.CellSize, src.HasCellSize, src.Base, src.Map.VerticalScale)
		}
	}
	// A cell size alone sets the cell size, not the heights.
	src, err := DecodePNG(bytes.NewReader(withChunks(grayPNG(), textChunk(pngKeyCellSize, "30"))))
	if err != nil || src.Metric || !src.HasCellSize || src.Map.CellSize != 30 || src.Map.VerticalScale != 1 {
		t.Fatalf("cell size alone: %v, %+v", err, src)
	}
	// An 8-bit PNG with our keys is read the same way: white is 255.
	eight := withChunks(rawPNG(2, 2, 8, pngGray, [][]byte{{0, 255}, {51, 255}}),
		textChunk(pngKeyHeightMin, "100"), textChunk(pngKeyHeightMax, "200"))
	src, err = DecodePNG(bytes.NewReader(eight))
	if err != nil || !src.Metric || src.Base != 100 || src.Map.VerticalScale != 100 || src.Map.Samples[2] != 0.2 {
		t.Fatalf("8-bit: %v, %+v", err, src)
	}
}

// Malformed values of ours are refused with an error naming the key (and,
// through Load, the file), never a panic or a silently wrong scale.
func TestPNGMetresMalformed(t *testing.T) {
	heights := func(lo, hi string) [][]byte {
		return [][]byte{textChunk(pngKeyHeightMin, lo), textChunk(pngKeyHeightMax, hi)}
	}
	many := make([][]byte, maxPNGChunksBeforeData+1)
	for i := range many {
		many[i] = textChunk("Comment", "")
	}
	for _, tc := range []struct {
		name   string
		chunks [][]byte
		want   string
	}{
		{"NaN", heights("0", "NaN"), `cordillera:height-max-m = "NaN": want a finite number`},
		{"infinite", heights("-Inf", "10"), `cordillera:height-min-m = "-Inf": want a finite number`},
		{"not a number", heights("0", "173.8 m"), `cordillera:height-max-m = "173.8 m": not a number`},
		{"empty", heights("", "1"), `cordillera:height-min-m = "": not a number`},
		{"negative range", heights("200", "100"), "cordillera:height-max-m = 100 m is not above cordillera:height-min-m = 200 m"},
		{"flat", heights("5", "5"), "is not above"},
		{"huge", heights("0", "1e300"), `cordillera:height-max-m = "1e300": want a finite number of metres from -1e+07 to 1e+07`},
		{"max alone", [][]byte{textChunk(pngKeyHeightMax, "1")}, "cordillera:height-max-m without cordillera:height-min-m"},
		{"min alone", [][]byte{textChunk(pngKeyHeightMin, "1")}, "cordillera:height-min-m without cordillera:height-max-m"},
		{"zero cell", [][]byte{textChunk(pngKeyCellSize, "0")}, `cordillera:cell-size-m = "0": want a finite number of metres from 0.001`},
		{"negative cell", [][]byte{textChunk(pngKeyCellSize, "-30")}, `cordillera:cell-size-m = "-30"`},
		{"NaN cell", [][]byte{textChunk(pngKeyCellSize, "nan")}, `cordillera:cell-size-m = "nan"`},
		{"twice", [][]byte{textChunk(pngKeyCellSize, "1"), textChunk(pngKeyCellSize, "2")}, "tEXt cordillera:cell-size-m appears twice"},
		{"long", [][]byte{textChunk(pngKeyCellSize, strings.Repeat("1", 1<<20))}, "tEXt cordillera:cell-size-m is 1048599 bytes; at most 256"},
		{"odd key", [][]byte{textChunk("cordillera:\xff", strings.Repeat("1", 300))}, `tEXt "cordillera:\xff" is`},
		{"many chunks", many, "more than 1024 chunks before the image data"},
	} {
		file := withChunks(grayPNG(), tc.chunks...)
		src, err := DecodePNG(bytes.NewReader(file))
		if err == nil {
			t.Errorf("%s: no error; got metric %v, base %v, vertical %v, cell %v", tc.name, src.Metric, src.Base, src.Map.VerticalScale, src.Map.CellSize)
			continue
		}
		if !strings.HasPrefix(err.Error(), "png: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %q; want \"png: \" and %q", tc.name, err, tc.want)
		}
		if tc.name == "NaN" {
			path := filepath.Join(t.TempDir(), "nan.png")
			if err := os.WriteFile(path, file, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := Load(path); err == nil || !strings.HasPrefix(err.Error(), path+": png: tEXt cordillera:height-max-m") {
				t.Errorf("Load: %v; want the path and the key", err)
			}
		}
	}
}

// An erosion mask PNG records what its black and white stand for, in its
// unit and on its scale, and its cell size; read as a heightmap it is no
// height, only its cell size is taken.
func TestMaskPNGRecordsScale(t *testing.T) {
	m := terrain.NewHeightmap(4, 4)
	m.CellSize = 2
	m.Samples[5] = 1
	var buf bytes.Buffer
	scale := MaskScale{Name: "flow", Unit: "m2", Min: 4, Max: 1.5e6, Log: true}
	if err := EncodeMaskPNG16(&buf, m, scale); err != nil {
		t.Fatal(err)
	}
	scan := newPNGTextScanner(bytes.NewReader(buf.Bytes()))
	src, err := DecodePNG(scan)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{pngKeyMask: "flow", pngKeyMaskUnit: "m2", pngKeyMaskMin: "4", pngKeyMaskMax: "1.5e+06",
		pngKeyMaskScale: "log", pngKeyCellSize: "2"}
	for k, v := range want {
		if scan.text[k] != v {
			t.Errorf("%s = %q; want %q", k, scan.text[k], v)
		}
	}
	if src.Metric || !src.HasCellSize || src.Map.CellSize != 2 || src.Map.Samples[5] != 1 {
		t.Errorf("read back: metric %v, cell size %v (%v), sample %v", src.Metric, src.Map.CellSize, src.HasCellSize, src.Map.Samples[5])
	}
	if err := EncodeMaskPNG16(&buf, m, MaskScale{Name: "flow", Unit: "m²"}); err == nil || !strings.Contains(err.Error(), "printable ASCII") {
		t.Errorf("a non-ASCII unit: %v; want refused", err)
	}
}
