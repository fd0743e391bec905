package heightfile

import (
	"bytes"
	"cordillera/terrain"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestR16RoundTrip(t *testing.T) {
	const n = 33
	rng := rand.New(rand.NewPCG(5, 5))
	m := terrain.NewHeightmap(n, n)
	for i := range m.Samples {
		m.Samples[i] = float32(rng.IntN(65536)) / 65535
	}
	m.Samples[0], m.Samples[1] = 0, 1
	var file bytes.Buffer
	if err := EncodeR16(&file, m); err != nil {
		t.Fatal(err)
	}
	if file.Len() != 2*n*n {
		t.Fatalf("%d bytes, want %d", file.Len(), 2*n*n)
	}
	encoded := bytes.Clone(file.Bytes())
	got, err := DecodeR16(&file, int64(len(encoded)))
	if err != nil {
		t.Fatal(err)
	}
	if got.Width != n || got.Height != n || got.CellSize != 1 || got.VerticalScale != 1 {
		t.Fatalf("decoded %d×%d, cell %v, vertical %v; want %d×%d, 1, 1", got.Width, got.Height, got.CellSize, got.VerticalScale, n, n)
	}
	for i, want := range m.Samples {
		if got.Samples[i] != want {
			t.Fatalf("sample %d (col %d, row %d) = %v, want exactly %v", i, i%n, i/n, got.Samples[i], want)
		}
	}
	var again bytes.Buffer
	if err := EncodeR16(&again, got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), encoded) {
		t.Fatal("re-encoding the decoded map changed the bytes")
	}
}

func TestR16ByteOrder(t *testing.T) {
	m := terrain.NewHeightmap(2, 2)
	copy(m.Samples, []float32{float32(0x1234) / 65535, 1, 0, -3})
	var file bytes.Buffer
	if err := EncodeR16(&file, m); err != nil {
		t.Fatal(err)
	}
	// Little-endian, row-major from row 0, no header; −3 clamps to 0.
	want := []byte{0x34, 0x12, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00}
	if !bytes.Equal(file.Bytes(), want) {
		t.Fatalf("bytes % x, want % x", file.Bytes(), want)
	}
	got, err := DecodeR16(bytes.NewReader([]byte{0x01, 0x00, 0x00, 0x80, 0xff, 0xff, 0x00, 0x01}), 8)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range []uint16{0x0001, 0x8000, 0xffff, 0x0100} {
		if want := float32(v) / 65535; got.Samples[i] != want {
			t.Errorf("sample %d = %v, want %v (0x%04x/65535)", i, got.Samples[i], want, v)
		}
	}
}

func TestEncodeR16Refusals(t *testing.T) {
	var file bytes.Buffer
	err := EncodeR16(&file, terrain.NewHeightmap(3, 5))
	if err == nil || !strings.Contains(err.Error(), "3×5") || !strings.Contains(err.Error(), "square") {
		t.Errorf("3×5 map: error %v, want one naming the size and asking for a square", err)
	}
	nan := terrain.NewHeightmap(2, 2)
	nan.Samples[3] = float32(math.Inf(1))
	if err := EncodeR16(&file, nan); err == nil || !strings.Contains(err.Error(), "+Inf") {
		t.Errorf("infinite sample: error %v", err)
	}
	if file.Len() != 0 {
		t.Errorf("refused maps wrote %d bytes", file.Len())
	}
}

func TestDecodeR16Refusals(t *testing.T) {
	tests := []struct {
		name string
		size int64
		data []byte
		want []string
	}{
		{"empty", 0, nil, []string{"length 0 bytes", "at least 8 (2×2)"}},
		{"odd", 9, make([]byte, 9), []string{"length 9 bytes", "8 bytes (2×2) or 18 bytes (3×3)"}},
		{"not square", 12, make([]byte, 12), []string{"length 12 bytes", "8 bytes (2×2) or 18 bytes (3×3)"}},
		{"1×1", 2, make([]byte, 2), []string{"length 2 bytes", "at least 8 (2×2)"}},
		{"one short of 257²", 2*257*257 - 2, nil, []string{"length 132096 bytes", "131072 bytes (256×256) or 132098 bytes (257×257)"}},
		{"one byte", 1, []byte{7}, []string{"length 1 bytes", "at least 8"}},
		{"negative", -8, nil, []string{"length -8 bytes"}},
		{"too big", 2 * 8194 * 8194, nil, []string{"length 134283272 bytes", "exceeds 134250498 (8193×8193"}},
		{"16385²", 2 * MaxFileSide * MaxFileSide, nil, []string{"length 536936450 bytes", "8193×8193"}},
		{"truncated", 8, []byte{1, 2, 3, 4}, []string{"truncated", "8-byte", "row 1 of 2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := DecodeR16(bytes.NewReader(tt.data), tt.size)
			if err == nil {
				t.Fatalf("decoded a %d×%d map, want an error", m.Width, m.Height)
			}
			for _, want := range tt.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
			if !strings.HasPrefix(err.Error(), "r16: ") {
				t.Errorf("error %q does not start with \"r16: \"", err)
			}
		})
	}
}

// FuzzDecodeR16 decodes short arbitrary files (side 0) and n×n maps whose
// bytes repeat data (side n). Only exact lengths 2·n² decode, so a
// decodable file could not lose a byte and still decode: the fuzzer's
// minimiser, which tries every way of cutting bytes out (O(len²) runs),
// stalled for tens of seconds at each new decodable input. Here the map's
// side is its own input and data only a pattern, so the minimiser shrinks
// data freely, and raw files stay short enough to minimise quickly.
func FuzzDecodeR16(f *testing.F) {
	f.Add([]byte{}, uint8(0))
	f.Add([]byte{0x34, 0x12}, uint8(0))
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8}, uint8(0))
	f.Add(make([]byte, 6), uint8(0))
	f.Add([]byte{0xff}, uint8(9))
	f.Add([]byte{0xff, 0xff, 0, 0, 1}, uint8(64))
	f.Fuzz(func(t *testing.T, data []byte, side uint8) {
		const maxRaw = 128
		if side == 0 && len(data) > maxRaw {
			return // longer raw files only repeat what short ones test, slowly
		}
		n := 1 + (int(side)-1)%64 // sides 1 to 64: larger maps take longer and test nothing more
		if side > 0 {
			data = repeatToSquare(data, n)
		}
		m, err := DecodeR16(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			if m != nil {
				t.Fatal("map returned with an error")
			}
			if side > 0 && n > 1 {
				t.Fatalf("%d×%d map refused: %v", n, n, err)
			}
			return
		}
		checkDecoded(t, m)
		if 2*m.Width*m.Height != len(data) || m.Width != m.Height {
			t.Fatalf("%d bytes decoded to %d×%d", len(data), m.Width, m.Height)
		}
		var again bytes.Buffer
		if err := EncodeR16(&again, m); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again.Bytes(), data) {
			t.Fatal("re-encoding changed the bytes")
		}
	})
}

// repeatToSquare repeats pattern over the 2·n² bytes of an n×n r16 map
// (zeros for an empty pattern).
func repeatToSquare(pattern []byte, n int) []byte {
	out := make([]byte, 2*n*n)
	if len(pattern) > 0 {
		for i := range out {
			out[i] = pattern[i%len(pattern)]
		}
	}
	return out
}
