package noise

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// cellularBases are the bases of issue 15 part B for a seed: simplex and
// Worley noise in both modes.
func cellularBases(seed int64) []Basis {
	return []Basis{NewSimplex(seed), NewWorley(seed, F1), NewWorley(seed, F2MinusF1)}
}

// TestCellularGridPaths checks simplex and Worley Grids against the point
// forms bit for bit, with every kernel this machine runs forced in turn,
// for several seeds, row widths (odd, below and not a multiple of the 8
// lanes), sample spacings from fewer than one sample per lattice cell to
// many, and rows visited in a jumping order; and that each kernel really
// took the rows it can (blocks made, simplex lanes run).
func TestCellularGridPaths(t *testing.T) {
	widths := []int{1, 7, 8, 9, 31, 100, 257, 1025}
	perCells := []float64{0.45, 1, 3.7, 8, 64}
	ys := []float64{0.3, 0.9, 1.05, 2.5, 2.4, -3.75, 17, 1e5 + 0.125, 0.97, -0.2}
	for _, kernel := range Kernels() {
		t.Run(string(kernel), func(t *testing.T) {
			useKernel(t, kernel)
			for _, seed := range []int64{1, -7, 2026, 1 << 40} {
				for _, b := range cellularBases(seed) {
					for _, w := range widths {
						for _, pc := range perCells {
							xs := make([]float64, w)
							for k := range xs {
								xs[k] = -5.31 + float64(k)/pc
							}
							name := fmt.Sprintf("%T seed %d width %d at %g per cell", b, seed, w, pc)
							checkCellularKernel(t, name, b, xs, kernel)
							checkCellularGrid(t, name, b, xs, ys)
						}
					}
				}
			}
		})
	}
}

// checkCellularKernel checks that a Grid of b over xs takes the cellular
// path with kernel where it can.
func checkCellularKernel(t *testing.T, name string, b Basis, xs []float64, kernel Kernel) {
	t.Helper()
	g := NewGrid(b, xs)
	switch b.(type) {
	case worleyNoise:
		if g.kind != gridWorley {
			t.Fatalf("%s: Worley Grid of kind %d", name, g.kind)
		}
		if want := len(xs) / laneWidth; kernel != KernelGo && len(g.worley.blocks) != want {
			t.Fatalf("%s: %d Worley blocks for kernel %s, want %d", name, len(g.worley.blocks), kernel, want)
		}
	case simplexNoise:
		if g.kind != gridSimplex || g.kernel != kernel {
			t.Fatalf("%s: simplex Grid of kind %d, kernel %s", name, g.kind, g.kernel)
		}
	}
}

// checkCellularGrid compares a Grid of b over xs, on the rows ys, with
// b's point forms.
func checkCellularGrid(t *testing.T, name string, b Basis, xs, ys []float64) {
	t.Helper()
	g := NewGrid(b, xs)
	values, evals := g.Rows(), g.Rows()
	v := make([]float64, len(xs))
	ev, dx, dy := make([]float64, len(xs)), make([]float64, len(xs)), make([]float64, len(xs))
	for _, y := range ys {
		values.Value(y, v)
		evals.Eval(y, ev, dx, dy)
		for k, x := range xs {
			if pv := b.Value(x, y); !same(v[k], pv) {
				t.Fatalf("%s: Grid Value at (%v, %v) = %v, Value = %v", name, x, y, v[k], pv)
			}
			if qv, qx, qy := b.Eval(x, y); !same(ev[k], qv) || !same(dx[k], qx) || !same(dy[k], qy) {
				t.Fatalf("%s: Grid Eval at (%v, %v) = (%v, %v, %v), Eval = (%v, %v, %v)", name, x, y, ev[k], dx[k], dy[k], qv, qx, qy)
			}
		}
	}
}

// TestSimplexLanesRun checks that the vector kernels do the simplex rows
// where the CPU has them, so the bit-identity tests above test them, and
// that the AVX2 kernel leaves rows beyond its reach to the Go loop.
func TestSimplexLanesRun(t *testing.T) {
	xs := make([]float64, 21)
	for k := range xs {
		xs[k] = 0.1 * float64(k)
	}
	v := make([]float64, len(xs))
	for _, kernel := range Kernels() {
		done := simplexLanes(kernel, 1, xs, 0.5, v, simplexNear(xs))
		want := 0
		if kernel != KernelGo {
			want = 16
		}
		if done != want {
			t.Errorf("kernel %s: simplexLanes did %d samples, want %d", kernel, done, want)
		}
		avx2 := kernel == KernelAVX2 || kernel == KernelAVX512 && !simplexVector
		for _, y := range []float64{simplexAVX2Reach * 1.0000001, math.NaN(), math.Inf(-1)} {
			if done := simplexLanes(kernel, 1, xs, y, v, true); avx2 && done != 0 {
				t.Errorf("kernel %s: simplexLanes took the row y = %v, beyond the AVX2 kernel's reach", kernel, y)
			}
		}
	}
	if simplexNear([]float64{0, -simplexAVX2Reach, simplexAVX2Reach}) != true ||
		simplexNear([]float64{0, -simplexAVX2Reach * 1.0000001}) || simplexNear([]float64{math.NaN()}) {
		t.Error("simplexNear misjudges the AVX2 kernel's reach")
	}
}

// TestSimplexKernelsMatchValue checks every simplex kernel, forced, against
// Value bit for bit along rows and at scattered points, at coordinates
// from near 0 to the AVX2 kernel's reach, on lattice lines, on the
// triangles' diagonals (x0 = y0) and at negative and integer values, where
// a wrong floor, triangle or hash would show.
func TestSimplexKernelsMatchValue(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 2))
	n := NewSimplex(77).(simplexNoise)
	for _, kernel := range Kernels() {
		for _, scale := range []float64{1, 30, 1e4, 1e7, simplexAVX2Reach} {
			xs, ys := make([]float64, 64), make([]float64, 64)
			for k := range xs {
				xs[k], ys[k] = scale*(2*r.Float64()-1), scale*(2*r.Float64()-1)
				switch k % 8 {
				case 1: // on a lattice line of the skewed grid
					xs[k] = math.Floor(xs[k])
				case 2: // on the diagonal of a cell: x0 = y0
					ys[k] = xs[k]
				case 3:
					xs[k] = -math.Abs(xs[k])
				}
			}
			xs[0], ys[0] = simplexAVX2Reach, -simplexAVX2Reach
			v := make([]float64, len(xs))
			for _, y := range ys[:8] {
				done := simplexLanes(kernel, n.key, xs, y, v, simplexNear(xs))
				for k := range done {
					if want := n.Value(xs[k], y); !same(v[k], want) {
						t.Fatalf("kernel %s: row at (%v, %v) = %v, Value = %v", kernel, xs[k], y, v[k], want)
					}
				}
			}
			done := simplexPointLanes(kernel, n.key, xs, ys, v)
			for k := range done {
				if want := n.Value(xs[k], ys[k]); !same(v[k], want) {
					t.Fatalf("kernel %s: point (%v, %v) = %v, Value = %v", kernel, xs[k], ys[k], v[k], want)
				}
			}
		}
		// Beyond the AVX2 kernel's reach the int32 cell would be wrong: a
		// Grid, and ValuePoints, must leave such samples to the Go loop.
		useKernel(t, kernel)
		for _, far := range []float64{3 << 30, -5e9, 1e12} {
			xs := make([]float64, 16)
			for k := range xs {
				xs[k] = far + 0.37*float64(k)
			}
			v := make([]float64, len(xs))
			checkCellularGrid(t, fmt.Sprintf("kernel %s, xs from %g", kernel, far), n, xs, []float64{0.5, far})
			near := make([]float64, len(xs))
			for k := range near {
				near[k] = 0.37 * float64(k)
			}
			for _, p := range [][2][]float64{{xs, xs}, {near, xs}, {xs, near}} {
				ValuePoints(n, p[0], p[1], v)
				for k, x := range p[0] {
					if want := n.Value(x, p[1][k]); !same(v[k], want) {
						t.Fatalf("kernel %s: ValuePoints at (%v, %v) = %v, Value = %v", kernel, x, p[1][k], v[k], want)
					}
				}
			}
		}
	}
}

// TestWorleyGridFallsBack checks that samples scattered over far more
// lattice columns than there are samples get the point form, with the
// same values.
func TestWorleyGridFallsBack(t *testing.T) {
	xs := []float64{-1e9, 0.5, 3e12}
	b := NewWorley(3, F2MinusF1)
	g := NewGrid(b, xs)
	if g.kind != gridRowForms {
		t.Fatalf("scattered samples got Grid kind %d, want the row forms", g.kind)
	}
	checkCellularGrid(t, "scattered", b, xs, []float64{0.5, -2})
}

// TestWorleyGridDistancesMatchNearest checks the branch-free search of the
// Value path against nearest's, cell by cell, in both modes: d1 always,
// d2 where the mode reads it.
func TestWorleyGridDistancesMatchNearest(t *testing.T) {
	for _, mode := range []WorleyMode{F1, F2MinusF1} {
		n := NewWorley(11, mode).(worleyNoise)
		xs := make([]float64, 300)
		for k := range xs {
			xs[k] = -2.02 + 0.0137*float64(k)
		}
		r := newWorleyGrid(n, xs).rows()
		for _, y := range []float64{0.001, 0.5, 0.999, -1.3} {
			tm := r.terms(y)
			for k, x := range xs {
				d1, d2 := r.distances(&tm, k)
				want := n.nearest(x, y)
				if !same(d1, want.d1) || mode == F2MinusF1 && !same(d2, want.d2) {
					t.Fatalf("mode %d at (%v, %v): distances %v, %v; nearest %v, %v", mode, x, y, d1, d2, want.d1, want.d2)
				}
			}
		}
	}
}

// TestValuePointsMatchesValue checks ValuePoints against Value bit for bit
// at scattered points, for every basis, with every kernel forced in turn,
// for counts below, at and past multiples of the 8 lanes.
func TestValuePointsMatchesValue(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for _, kernel := range Kernels() {
		useKernel(t, kernel)
		for _, seed := range []int64{2, -9} {
			for _, b := range allBases(t, seed) {
				for _, n := range []int{0, 1, 7, 8, 9, 63, 1000} {
					xs, ys, v := make([]float64, n), make([]float64, n), make([]float64, n)
					for k := range xs {
						xs[k], ys[k] = 60*r.Float64()-30, 60*r.Float64()-30
						if k%5 == 0 {
							xs[k] += 1e6
						}
					}
					ValuePoints(b, xs, ys, v)
					for k := range xs {
						if want := b.Value(xs[k], ys[k]); !same(v[k], want) {
							t.Fatalf("kernel %s, %T seed %d, %d points: ValuePoints at (%v, %v) = %v, Value = %v",
								kernel, b, seed, n, xs[k], ys[k], v[k], want)
						}
					}
				}
			}
		}
		want := 0
		if kernel != KernelGo {
			want = 8
		}
		if done := simplexPointLanes(kernel, 1, make([]float64, 9), make([]float64, 9), make([]float64, 9)); done != want {
			t.Errorf("kernel %s: simplexPointLanes did %d of 9 points, want %d", kernel, done, want)
		}
	}
}

// TestWorleyBlocksPick checks which Worley blocks the AVX-512 kernel gives
// the permutes: those whose cells lie close together (several samples per
// cell), not those spread over more than its 8 columns (under one sample
// per cell), so that TestCellularGridPaths runs both ways.
func TestWorleyBlocksPick(t *testing.T) {
	useKernel(t, Kernels()[len(Kernels())-1])
	if currentKernel() == KernelGo {
		t.Skip("no vector kernel here")
	}
	for _, c := range []struct {
		perCell float64
		pick    bool
	}{{2, true}, {8, true}, {64, true}, {0.45, false}} {
		xs := make([]float64, 64)
		for k := range xs {
			xs[k] = -5.31 + float64(k)/c.perCell
		}
		g := NewGrid(NewWorley(1, F1), xs).worley
		for b, blk := range g.blocks {
			if got := blk.base >= 0; got != c.pick {
				t.Fatalf("%g samples per cell, block %d: base %d, want picking %v", c.perCell, b, blk.base, c.pick)
			}
			if !c.pick {
				continue
			}
			for l := range laneWidth {
				col := blk.base/16 + blk.idx[l]/2 + 1 // the sample's own cell
				if col != blk.c2[l]/2 || blk.idx[l] < 0 || blk.idx[l]+5 > 15 {
					t.Fatalf("%g samples per cell, block %d lane %d: base %d, idx %d for column %d", c.perCell, b, l, blk.base, blk.idx[l], blk.c2[l]/2)
				}
			}
		}
	}
	// Blocks at and around the widest span the permutes take (6 columns
	// between the first and last sample's cells) against the point form.
	for _, perCell := range []float64{1.1, 1.2, 1.4, 1.75} {
		for _, mode := range []WorleyMode{F1, F2MinusF1} {
			xs := make([]float64, 200)
			for k := range xs {
				xs[k] = -3.01 + float64(k)/perCell
			}
			checkCellularGrid(t, fmt.Sprintf("Worley mode %d at %g per cell", mode, perCell), NewWorley(4, mode), xs, []float64{0.2, 0.7, -1.5, 3})
		}
	}
}

// TestWorleyBlocksSame checks the blocks the AVX2 kernel reads by
// broadcast: those, and only those, whose samples all lie in one cell,
// with that column's byte offset; and the block's layout, which the
// kernels' generator (internal/asmgen/cellular.go) fixes.
func TestWorleyBlocksSame(t *testing.T) {
	if off, size := unsafe.Offsetof(worleyBlock{}.same), unsafe.Sizeof(worleyBlock{}); off != 456 || size != 512 {
		t.Fatalf("worleyBlock.same at byte %d of %d, the kernels read it at 456 of 512", off, size)
	}
	useKernel(t, Kernels()[len(Kernels())-1])
	if currentKernel() == KernelGo {
		t.Skip("no vector kernel here")
	}
	for _, perCell := range []float64{0.45, 3.7, 8, 64} {
		xs := make([]float64, 256)
		for k := range xs {
			xs[k] = -5.31 + float64(k)/perCell
		}
		g := NewGrid(NewWorley(1, F1), xs).worley
		sames := 0
		for b, blk := range g.blocks {
			one := true
			for _, c2 := range blk.c2 {
				one = one && c2 == blk.c2[0]
			}
			switch {
			case one && blk.same != blk.c2[0]*8:
				t.Fatalf("%g samples per cell, block %d in column %d: same %d, want %d", perCell, b, blk.c2[0]/2, blk.same, blk.c2[0]*8)
			case !one && blk.same != -1:
				t.Fatalf("%g samples per cell, block %d over several columns: same %d, want -1", perCell, b, blk.same)
			}
			if one {
				sames++
			}
		}
		if want := perCell >= 64; (sames > 0) != want {
			t.Errorf("%g samples per cell: %d of %d blocks in one cell", perCell, sames, len(g.blocks))
		}
	}
}
