//go:build !amd64 || purego

package noise

var supportedKernels = []Kernel{KernelGo}

// Grids made here have no blocks: nothing calls these.

func perlinLanes(Kernel, []laneBlock, []float64, []float64, []float64, []float64) int { return 0 }

func valueLanes(Kernel, []laneBlock, []float64, []float64) int { return 0 }

func fbmLanes(Kernel, Fold, bool, []laneOctave, int, []float32, *[3][laneWidth]float32, float64) int {
	return 0
}

func perlinEvalLanes(Kernel, []laneBlock, *GridRows, []float64, []float64, []float64, []float64, float64) int {
	return 0
}

func valueEvalLanes(Kernel, []laneBlock, []float64, []float64, []float64, []float64, []float64, []float64, float64) int {
	return 0
}

func rescaleLanes(Kernel, []float32, float64, float64, float64) int { return 0 }

func quilezLanes(Kernel, []float64, []float64, []float64, []float64, []float64, []float64, float64) int {
	return 0
}

func quilezRowLanes(Kernel, bool, []laneGradOctave, int, []float32, *[3][laneWidth]float32) int {
	return 0
}

func perlinHashLanes(Kernel, []float64, []float64, []uint64, uint64) int { return 0 }

func valueHashLanes(Kernel, []float64, []uint64, uint64) int { return 0 }

func perlinColumnLanes(Kernel, *GridRows, float64, float64, bool) int { return 0 }

func valueColumnLanes(Kernel, []float64, []float64, []float64, []float64, float64) int { return 0 }
