package terrain

import (
	"math"
	"testing"
)

// Changing the size keeps the extent: four times the samples, a quarter
// of the cell size.
func TestWithSizeKeepsTheExtent(t *testing.T) {
	p := DefaultParams()
	p.Size, p.CellSize = 257, 2
	for _, size := range []int{1025, 65, 4097, 257} {
		q := p.WithSize(size)
		if q.Size != size {
			t.Fatalf("WithSize(%d) gave size %d", size, q.Size)
		}
		if got, want := float64(q.Size-1)*q.CellSize, float64(p.Size-1)*p.CellSize; math.Abs(got-want) > 1e-9*want {
			t.Errorf("size %d: extent %v; want %v", size, got, want)
		}
	}
}
