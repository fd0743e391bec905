package corridor

import (
	"cordillera/terrain"
	"math"
)

// Bilinear interpolates the map at a fractional sample position (clamped
// to the map).
func Bilinear(m *terrain.Heightmap, x, y float64) float64 {
	c0 := min(max(int(math.Floor(x)), 0), m.Width-2)
	r0 := min(max(int(math.Floor(y)), 0), m.Height-2)
	fx := min(max(x-float64(c0), 0), 1)
	fy := min(max(y-float64(r0), 0), 1)
	at := func(c, r int) float64 { return float64(m.Samples[r*m.Width+c]) }
	return (1-fy)*((1-fx)*at(c0, r0)+fx*at(c0+1, r0)) + fy*((1-fx)*at(c0, r0+1)+fx*at(c0+1, r0+1))
}
