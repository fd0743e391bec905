//go:build !amd64 || purego

package noise

// simplexVector is whether a vector kernel runs simplex noise: none here.
const simplexVector = false

// Grids made here have no Worley blocks: the Go loop does every sample.
func worleyLanes(Kernel, WorleyMode, bool, []worleyBlock, []float64, []vec2, *worleyRowTerms) int {
	return 0
}

func simplexLanes(Kernel, uint64, []float64, float64, []float64, bool) int { return 0 }

func simplexPointLanes(Kernel, uint64, []float64, []float64, []float64) int { return 0 }

func evalPointLanes(Kernel, bool, uint64, []float64, []float64, []float64, []float64, []float64) int {
	return 0
}

func perlinValueLanes(Kernel, uint64, []float64, []float64, []float64) int { return 0 }
