package terrain

import "testing"

// Every keeps the samples at multiples of k, corners included when k
// divides the side minus one, and scales the cells by k.
func TestEvery(t *testing.T) {
	m := NewHeightmap(9, 7)
	m.CellSize, m.VerticalScale = 2, 100
	for i := range m.Samples {
		m.Samples[i] = float32(i)
	}
	if m.Every(1) != m {
		t.Error("Every(1) copied the map")
	}
	e := m.Every(3)
	if e.Width != 3 || e.Height != 3 || e.CellSize != 6 || e.VerticalScale != 100 {
		t.Fatalf("Every(3) of 9×7: %d×%d, cell %v, scale %v; want 3×3, cell 6, scale 100", e.Width, e.Height, e.CellSize, e.VerticalScale)
	}
	for y := range e.Height {
		for x := range e.Width {
			if got, want := e.At(x, y), m.At(3*x, 3*y); got != want {
				t.Errorf("Every(3) at (%d, %d) = %v, want the source's (%d, %d) = %v", x, y, got, 3*x, 3*y, want)
			}
		}
	}
}
