package game

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"cordillera/terrain"
	"cordillera/terrain/heightfile"
)

// EXR and TIFF heightmaps open in the explorer like PNGs, told apart by
// content; EXR keeps its heights in metres.
func TestExplorerOpensEXRAndTIFF(t *testing.T) {
	m := terrain.NewHeightmap(33, 33)
	for i := range m.Samples {
		m.Samples[i] = float32(i%33) / 32
	}
	m.CellSize, m.VerticalScale = 2, 350
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		kind FileKind
	}{{"map.exr", HeightmapEXR}, {"map.tif", HeightmapTIFF}} {
		path := filepath.Join(dir, c.name)
		if err := heightfile.SaveHeightmap(path, m); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := DetectFile(data); got != c.kind {
			t.Fatalf("%s: detected as %v, want %v", c.name, got, c.kind)
		}
		src, err := decodeHeightmap(c.kind, data)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if src.Map.Width != 33 || src.Map.Height != 33 {
			t.Fatalf("%s: %d×%d", c.name, src.Map.Width, src.Map.Height)
		}
		if c.kind == HeightmapEXR {
			if !src.Metric || math.Abs(src.Map.VerticalScale-350) > 1e-3 {
				t.Errorf("%s: metric %v, height span %v m, want 350 m", c.name, src.Metric, src.Map.VerticalScale)
			}
		}
		if v := src.Map.At(16, 5); math.Abs(float64(v)-0.5) > 1e-3 {
			t.Errorf("%s: sample (16,5) = %v, want 0.5", c.name, v)
		}
	}
}
