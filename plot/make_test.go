package plot

import (
	"testing"

	"cordillera/terrain"
)

// The spectrum of a map larger than maxSpectrumSide transforms a copy of
// its top-left maxSpectrumSide² samples; a map with a side that fits is
// used as it is.
func TestSpectrumWindow(t *testing.T) {
	narrow := terrain.NewHeightmap(maxSpectrumSide, 3)
	if spectrumWindow(narrow) != narrow {
		t.Fatal("a map with a side of at most maxSpectrumSide was copied")
	}
	m := terrain.NewHeightmap(maxSpectrumSide+7, maxSpectrumSide+3)
	m.CellSize, m.VerticalScale = 3, 40
	for i := range m.Samples {
		m.Samples[i] = float32(i % 9973)
	}
	w := spectrumWindow(m)
	if w.Width != maxSpectrumSide || w.Height != maxSpectrumSide || w.CellSize != 3 || w.VerticalScale != 40 {
		t.Fatalf("window %d×%d cell %g vertical %g", w.Width, w.Height, w.CellSize, w.VerticalScale)
	}
	for _, p := range [][2]int{{0, 0}, {maxSpectrumSide - 1, 0}, {0, maxSpectrumSide - 1}, {maxSpectrumSide - 1, maxSpectrumSide - 1}, {1234, 2345}} {
		if got, want := w.At(p[0], p[1]), m.At(p[0], p[1]); got != want {
			t.Errorf("window sample %v = %v, want the map's %v", p, got, want)
		}
	}
}
