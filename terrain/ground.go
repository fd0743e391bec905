package terrain

import "math"

// GroundHeight returns the world height of the terrain at world (x, z):
// the samples around (x/CellSize, z/CellSize) interpolated bilinearly, the
// point clamped onto the map first. It is what a walking camera stands
// on. The drawn step-1 mesh differs from it inside a cell by at most
// |h_a + h_d − h_b − h_c|/4 (at the cell's centre), the two triangles
// being planar where the bilinear patch is not. NaN gives NaN.
func (m *Heightmap) GroundHeight(x, z float64) float64 {
	if math.IsNaN(x) || math.IsNaN(z) {
		return math.NaN()
	}
	return m.Bilinear(x/m.CellSize, z/m.CellSize) * m.VerticalScale
}

// Extent returns the world size of the map: w along x (columns) and d
// along z (rows), from the first sample to the last.
func (m *Heightmap) Extent() (w, d float64) {
	return float64(max(m.Width-1, 0)) * m.CellSize, float64(max(m.Height-1, 0)) * m.CellSize
}
