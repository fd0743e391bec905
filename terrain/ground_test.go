package terrain

import (
	"math"
	"testing"
)

// bilinearMap returns a w×h map holding h(col, row) = (1 + 2col + 3row +
// 0.5·col·row)/100, a function bilinear interpolation reproduces exactly.
func bilinearMap(w, h int) (*Heightmap, func(col, row float64) float64) {
	f := func(col, row float64) float64 { return (1 + 2*col + 3*row + 0.5*col*row) / 100 }
	m := NewHeightmap(w, h)
	m.CellSize, m.VerticalScale = 2.5, 40
	for row := range h {
		for col := range w {
			m.Set(col, row, float32(f(float64(col), float64(row))))
		}
	}
	return m, f
}

func TestGroundHeightAtSamples(t *testing.T) {
	m, _ := bilinearMap(7, 5)
	for row := range m.Height {
		for col := range m.Width {
			got := m.GroundHeight(float64(col)*m.CellSize, float64(row)*m.CellSize)
			want := float64(m.At(col, row)) * m.VerticalScale
			if got != want {
				t.Errorf("GroundHeight at sample (%d,%d) = %v, want %v", col, row, got, want)
			}
		}
	}
}

func TestGroundHeightInterpolates(t *testing.T) {
	m, f := bilinearMap(7, 5)
	for _, p := range [][2]float64{{0.25, 0.5}, {3.7, 1.1}, {5.99, 3.99}, {2, 2.5}, {4.5, 0}} {
		got := m.GroundHeight(p[0]*m.CellSize, p[1]*m.CellSize)
		want := f(p[0], p[1]) * m.VerticalScale
		if math.Abs(got-want) > 1e-5 {
			t.Errorf("GroundHeight at sample position %v = %v, want %v", p, got, want)
		}
	}
	// By hand: the corners 0, 1 (right), 2 (below), 7 (below right) give
	// 0.75·(0.5·0 + 0.5·1) + 0.25·(0.5·2 + 0.5·7) = 1.5 at the point a
	// quarter down the cell's middle column.
	h := NewHeightmap(2, 2)
	copy(h.Samples, []float32{0, 1, 2, 7})
	if got := h.GroundHeight(0.5, 0.25); got != 1.5 {
		t.Errorf("GroundHeight(0.5, 0.25) = %v, want 1.5", got)
	}
}

func TestGroundHeightClamps(t *testing.T) {
	m, f := bilinearMap(7, 5)
	w, d := m.Extent()
	for _, tc := range []struct{ x, z, col, row float64 }{
		{-10, 2.5, 0, 1},      // left of the map: column 0
		{w + 100, -3, 6, 0},   // right of it and above: the corner sample
		{1.25, d + 1, 0.5, 4}, // below it: the last row
		{-1, -1, 0, 0},
		{w + 1, d + 1, 6, 4},
	} {
		got := m.GroundHeight(tc.x, tc.z)
		want := f(tc.col, tc.row) * m.VerticalScale
		if math.Abs(got-want) > 1e-5 {
			t.Errorf("GroundHeight(%v, %v) = %v, want the edge height %v", tc.x, tc.z, got, want)
		}
	}
	if got := m.GroundHeight(math.NaN(), 0); !math.IsNaN(got) {
		t.Errorf("GroundHeight(NaN, 0) = %v, want NaN", got)
	}
}

func TestExtent(t *testing.T) {
	m, _ := bilinearMap(7, 5)
	if w, d := m.Extent(); w != 15 || d != 10 {
		t.Errorf("Extent of a 7×5 map of 2.5-unit cells = %v, %v, want 15, 10", w, d)
	}
}
