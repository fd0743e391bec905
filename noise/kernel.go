package noise

import (
	"fmt"
	"slices"
	"sync/atomic"
)

// Kernel names an implementation of the grid rows' inner loop over
// columns. Every kernel returns the same bits: the vector kernels compute,
// lane by lane, the Go loop's expression in the same order, with the
// multiplies and adds kept apart. A Grid uses the kernel selected when it
// was made.
type Kernel string

// The kernels, slowest first.
const (
	KernelGo     Kernel = "go"     // the pure Go loop: every architecture
	KernelAVX2   Kernel = "avx2"   // 4 float64 lanes (amd64 with AVX2)
	KernelAVX512 Kernel = "avx512" // 8 float64 lanes (amd64 with AVX-512F)
)

// kernel is the selected kernel's index in Kernels().
var kernel atomic.Int32

func init() { kernel.Store(int32(len(supportedKernels) - 1)) }

// Kernels lists the kernels this machine runs, slowest first: KernelGo
// always, then the vector kernels the CPU supports. The fastest is
// selected at start.
func Kernels() []Kernel { return slices.Clone(supportedKernels) }

// UseKernel selects k for the Grids made from now on and returns the kernel
// it replaces, so that tests can run every path this machine supports.
func UseKernel(k Kernel) (previous Kernel, err error) {
	i := slices.Index(supportedKernels, k)
	if i < 0 {
		return "", fmt.Errorf("noise: kernel %q not supported here (want one of %v)", k, supportedKernels)
	}
	return supportedKernels[kernel.Swap(int32(i))], nil
}

// currentKernel is the selected kernel.
func currentKernel() Kernel { return supportedKernels[kernel.Load()] }
