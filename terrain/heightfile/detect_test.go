package heightfile

import (
	"bytes"
	"math"
	"testing"

	"cordillera/terrain"
)

// Each format Cordillera writes is told by its content, whatever the
// name, and Decode reads it back; text and odd lengths are not heightmaps.
func TestDetectTellsFormatsByContent(t *testing.T) {
	m := terrain.NewHeightmap(17, 17)
	for i := range m.Samples {
		m.Samples[i] = float32(i%17) / 16
	}
	m.CellSize, m.VerticalScale = 3, 200
	for _, c := range []struct {
		ext  string
		want Format
	}{{".png", PNG}, {".r16", R16}, {".exr", EXR}, {".tif", TIFF}} {
		encode, err := Encoder("map"+c.ext, m, SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := encode(&buf); err != nil {
			t.Fatal(err)
		}
		data := buf.Bytes()
		if got := Detect(data[:min(len(data), 64)], int64(len(data))); got != c.want {
			t.Errorf("%s: Detect = %v, want %v", c.ext, got, c.want)
			continue
		}
		src, err := Decode(c.want, data)
		if err != nil {
			t.Fatalf("%s: %v", c.ext, err)
		}
		if src.Map.Width != 17 || src.Map.Height != 17 {
			t.Fatalf("%s: decoded %d×%d, want 17×17", c.ext, src.Map.Width, src.Map.Height)
		}
		lo, hi := src.Map.Range()
		if math.Abs(float64(hi-lo)-1) > 1e-3 && c.want != EXR && c.want != TIFF {
			t.Errorf("%s: decoded range %g–%g, want 0–1", c.ext, lo, hi)
		}
	}
	for name, data := range map[string][]byte{
		"text":       []byte(`{"algorithm": "fbm"}`),
		"odd length": make([]byte, 9),
		"not square": make([]byte, 12),
	} {
		if got := Detect(data, int64(len(data))); got != NotHeightmap {
			t.Errorf("%s: Detect = %v, want NotHeightmap", name, got)
		}
	}
	// A raw map is told by its length alone: 2·n² bytes of anything.
	if got := Detect([]byte("whatever"), 2*33*33); got != R16 {
		t.Errorf("2·33² bytes: Detect = %v, want R16", got)
	}
	if _, err := Decode(NotHeightmap, []byte("x")); err == nil {
		t.Error("Decode(NotHeightmap) returned no error")
	}
}
