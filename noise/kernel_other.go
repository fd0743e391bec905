//go:build !amd64 || purego

package noise

var supportedKernels = []Kernel{KernelGo}

// Grids made here have no blocks: nothing calls these.

func perlinLanes(Kernel, []laneBlock, []float64, []float64, []float64, []float64) int { return 0 }

func valueLanes(Kernel, []laneBlock, []float64, []float64) int { return 0 }

func fbmLanes(Kernel, bool, []laneOctave, int, []float32, *[3][laneWidth]float32) int { return 0 }
