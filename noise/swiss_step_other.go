//go:build !amd64 || purego

package noise

// swissLanes: no vector kernel here; the Go loop does every sample.
func swissLanes(Kernel, []float64, []float64, []float64, []float64, []float64, []float64, []float64, []float64, []float64, []float64, []float64, float64, float64) int {
	return 0
}
