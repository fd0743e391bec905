package noise

import (
	"fmt"
	"testing"
)

// TestEvalKernelsMatchPoints checks that the gradient rows (GridRows.Eval)
// of value and Perlin noise, periodic or not, are bit for bit Eval at the
// same points with every kernel this machine runs, for several seeds and
// for row widths around the vector kernels' block of laneWidth samples,
// so that whole blocks, a tail and rows shorter than one block all occur.
func TestEvalKernelsMatchPoints(t *testing.T) {
	widths := []int{1, 7, 8, 9, 15, 16, 17, 63, 257, 1023, 1025}
	ys := []float64{0.37, 0.9, 1.2, 5.999, -3.5, 4096.25}
	for _, kernel := range Kernels() {
		t.Run(string(kernel), func(t *testing.T) {
			useKernel(t, kernel)
			for _, seed := range []int64{1, 17, 2025, -9} {
				bases := []Basis{NewValue(seed), NewPerlin(seed)}
				for _, kind := range []Kind{Value, Perlin} {
					p, err := NewPeriodic(kind, seed, 9, 6)
					if err != nil {
						t.Fatal(err)
					}
					bases = append(bases, p)
				}
				for _, b := range bases {
					for _, w := range widths {
						for _, perCell := range []float64{64, 4, 1, 0.45} {
							xs := make([]float64, w)
							for k := range xs {
								xs[k] = 0.3183 + float64(k)/perCell
							}
							name := fmt.Sprintf("%T seed %d, %d samples at %g per cell", b, seed, w, perCell)
							checkEvalGrid(t, name, b, xs, ys, kernel)
						}
					}
				}
			}
		})
	}
}

// checkEvalGrid compares a Grid's Eval rows at ys with Eval point by
// point, and checks that a vector kernel's Grid of at least one block has
// its blocks, so that the comparison covers the kernel.
func checkEvalGrid(t *testing.T, name string, b Basis, xs, ys []float64, kernel Kernel) {
	t.Helper()
	g := NewGrid(b, xs)
	if kernel != KernelGo && len(xs) >= laneWidth && len(g.blocks) != len(xs)/laneWidth {
		t.Fatalf("%s: %d blocks with kernel %s, want %d", name, len(g.blocks), kernel, len(xs)/laneWidth)
	}
	rows := g.Rows()
	v, dx, dy := make([]float64, len(xs)), make([]float64, len(xs)), make([]float64, len(xs))
	for _, y := range ys {
		rows.Eval(y, v, dx, dy)
		for k, x := range xs {
			qv, qx, qy := b.Eval(x, y)
			if !same(v[k], qv) || !same(dx[k], qx) || !same(dy[k], qy) {
				t.Fatalf("%s: sample %d, Eval row at (%v, %v) = (%v, %v, %v), Eval = (%v, %v, %v)",
					name, k, x, y, v[k], dx[k], dy[k], qv, qx, qy)
			}
		}
	}
}

// BenchmarkGridEvalKernels compares the kernels on the gradient rows of
// an 8-octave map's finest octave spacing and its coarsest.
func BenchmarkGridEvalKernels(b *testing.B) {
	for _, basis := range []Basis{NewPerlin(1), NewValue(1)} {
		for _, kernel := range Kernels() {
			b.Run(fmt.Sprintf("%T/%s", basis, kernel), func(b *testing.B) {
				previous, err := UseKernel(kernel)
				if err != nil {
					b.Fatal(err)
				}
				defer UseKernel(previous)
				xs := make([]float64, 1025)
				for k := range xs {
					xs[k] = 0.3183 + float64(k)/8
				}
				rows := NewGrid(basis, xs).Rows()
				v, dx, dy := make([]float64, len(xs)), make([]float64, len(xs)), make([]float64, len(xs))
				for i := range b.N {
					rows.Eval(float64(i)/8, v, dx, dy)
				}
			})
		}
	}
}
