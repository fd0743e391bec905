//go:build !amd64 || purego

package erosion

// interior is the interior kernel: interiorGo.
func (th *thermalSweep) interior(up, mid, down, next []float64, out float64) float64 {
	return th.interiorGo(up, mid, down, next, 1, out)
}
