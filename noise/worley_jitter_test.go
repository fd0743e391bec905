package noise

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// worleyJitters are the bounded jitters the tests try: the regular lattice
// (every point at its cell's centre), values on both sides of the bounds
// below which F2 − F1 (about 0.3) and F1 (about 0.65) need no ring cell,
// FastNoise2's default (its points within 0.437 of the centre), and full.
var worleyJitters = []float64{0, 0.2, 0.3, 0.5, 0.65, 0.7, 0.874, 0.99, 1}

// bruteWorley is the reference for a Worley basis of any jitter: the
// cellular search without pruning, over the 7×7 cells around the sample
// (far more than any point can need), the inner 3×3 first and then the
// rest in row order, each offset by the point form's expression. The
// pruned searches skip only cells that could not change what they
// return, so they must give its values and gradients bit for bit.
func bruteWorley(n worleyNoise, x, y float64) (v, dx, dy float64) {
	i, u := floorFrac(x)
	j, w := floorFrac(y)
	near := worleyNearest{d1: math.Inf(1), d2: math.Inf(1)}
	for pass := range 2 {
		for oj := -3; oj <= 3; oj++ {
			r := rowKey(n.key, j+oj)
			for oi := -3; oi <= 3; oi++ {
				inner := oi >= -1 && oi <= 1 && oj >= -1 && oj <= 1
				if inner != (pass == 0) {
					continue
				}
				f := n.featurePoint(r, i+oi)
				o := vec2{float64(oi) + f.x - u, float64(oj) + f.y - w}
				near.add(o, float64(o.x*o.x)+float64(o.y*o.y))
			}
		}
	}
	return n.distanceEval(near)
}

// TestWorleyJitterOneIsToday checks that jitter 1 is NewWorley, and that
// NewWorley's feature points are still the hash's raw jitter (today's maps,
// bit for bit), by the brute-force search over those raw points.
func TestWorleyJitterOneIsToday(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 1))
	for _, mode := range []WorleyMode{F1, F2MinusF1} {
		b, err := NewWorleyJitter(5, mode, 1)
		if err != nil {
			t.Fatal(err)
		}
		if b != NewWorley(5, mode) {
			t.Fatalf("mode %d: NewWorleyJitter(…, 1) = %+v, want NewWorley's %+v", mode, b, NewWorley(5, mode))
		}
		n := b.(worleyNoise)
		for range 20000 {
			x, y := 200*r.Float64()-100, 200*r.Float64()-100
			i, u := floorFrac(x)
			j, v := floorFrac(y)
			var d []float64
			for oj := -3; oj <= 3; oj++ {
				for oi := -3; oi <= 3; oi++ {
					h := hashCell(rowKey(n.key, j+oj), i+oi)
					fx, fy := float64(float64(h>>32)*0x1p-32), float64(float64(uint32(h))*0x1p-32)
					ox, oy := float64(oi)+fx-u, float64(oj)+fy-v
					d = append(d, float64(ox*ox)+float64(oy*oy))
				}
			}
			d1, d2 := smallestTwo(d)
			want := n.distanceValue(worleyNearest{d1: d1, d2: d2})
			if got := n.Value(x, y); !same(got, want) {
				t.Fatalf("mode %d at (%v, %v): Value = %v, raw-jitter reference %v", mode, x, y, got, want)
			}
		}
	}
}

func smallestTwo(d []float64) (d1, d2 float64) {
	d1, d2 = math.Inf(1), math.Inf(1)
	for _, e := range d {
		d1, d2 = min(d1, e), min(d2, max(d1, e))
	}
	return d1, d2
}

// TestWorleyJitterBounds checks that every feature point of a bounded
// jitter lies in its band [lo, hi], which the pruning gaps are built from,
// that the band is the centred square of side J, and that jitter 0 puts
// every point at its cell's centre.
func TestWorleyJitterBounds(t *testing.T) {
	for _, jitter := range worleyJitters {
		b, err := NewWorleyJitter(3, F1, jitter)
		if err != nil {
			t.Fatal(err)
		}
		n := b.(worleyNoise)
		if math.Abs(n.lo-(0.5-jitter/2)) > 1e-15 || math.Abs(n.hi-(0.5+jitter/2)) > 1e-15 {
			t.Fatalf("jitter %v: band [%v, %v], want [%v, %v]", jitter, n.lo, n.hi, 0.5-jitter/2, 0.5+jitter/2)
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for j := -50; j < 50; j++ {
			r := rowKey(n.key, j)
			for i := -50; i < 50; i++ {
				f := n.featurePoint(r, i)
				for _, c := range []float64{f.x, f.y} {
					if !(c >= n.lo && c <= n.hi && c < 1) {
						t.Fatalf("jitter %v: cell (%d, %d)'s point %v outside [%v, %v]", jitter, i, j, f, n.lo, n.hi)
					}
					lo, hi = min(lo, c), max(hi, c)
				}
			}
		}
		if jitter == 0 && (lo != 0.5 || hi != 0.5) {
			t.Fatalf("jitter 0: points span [%v, %v], want all at 0.5", lo, hi)
		}
		if jitter > 0 && (lo > n.lo+0.01*jitter || hi < n.hi-0.01*jitter) {
			t.Fatalf("jitter %v: 10⁴ points span only [%v, %v] of [%v, %v]", jitter, lo, hi, n.lo, n.hi)
		}
	}
	for _, bad := range []float64{-0.01, 1.01, math.NaN(), math.Inf(1)} {
		if _, err := NewWorleyJitter(1, F1, bad); err == nil {
			t.Errorf("NewWorleyJitter accepted jitter %v", bad)
		}
	}
}

// TestWorleyJitterPointsMatchBrute checks the point forms of every bounded
// jitter against the unpruned search, bit for bit, at random points and
// near lattice corners and cell centres, where the ring's cells and ties
// matter most.
func TestWorleyJitterPointsMatchBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 3))
	for _, jitter := range worleyJitters {
		for _, mode := range []WorleyMode{F1, F2MinusF1} {
			b, err := NewWorleyJitter(11, mode, jitter)
			if err != nil {
				t.Fatal(err)
			}
			n := b.(worleyNoise)
			for k := range 20000 {
				x, y := 400*r.Float64()-200, 400*r.Float64()-200
				switch k % 4 {
				case 1: // near a lattice corner
					x, y = math.Round(x)+0.01*r.Float64()-0.005, math.Round(y)+0.01*r.Float64()-0.005
				case 2: // on a lattice line or at a centre
					x, y = math.Floor(x), math.Floor(y)+0.5
				}
				checkWorleyBrute(t, fmt.Sprintf("jitter %v mode %d point", jitter, mode), n, x, y, n.Value(x, y))
				v, dx, dy := n.Eval(x, y)
				wv, wx, wy := bruteWorley(n, x, y)
				if !same(v, wv) || !same(dx, wx) || !same(dy, wy) {
					t.Fatalf("jitter %v mode %d: Eval(%v, %v) = (%v, %v, %v), brute force (%v, %v, %v)", jitter, mode, x, y, v, dx, dy, wv, wx, wy)
				}
			}
		}
	}
}

func checkWorleyBrute(t *testing.T, name string, n worleyNoise, x, y, got float64) {
	t.Helper()
	if want, _, _ := bruteWorley(n, x, y); !same(got, want) {
		t.Fatalf("%s: Value(%v, %v) = %v, brute force %v", name, x, y, got, want)
	}
}

// TestWorleyJitterGridKernels checks Grids of every bounded jitter, with
// every kernel this machine runs forced in turn, against the unpruned
// search bit for bit: Value rows (the vector kernels, with the jitter's
// gaps) and Eval rows, over the row widths and sample spacings of
// TestCellularGridPaths.
func TestWorleyJitterGridKernels(t *testing.T) {
	widths := []int{7, 9, 100, 257}
	perCells := []float64{0.45, 1, 3.7, 8, 64}
	// Offsets in the cell from 0 to near 1, so that each of the 3×3 cells
	// is the nearest somewhere, even where the jitter is small.
	ys := []float64{0.3, 0.5, 1.05, 2.5, 2.4, -3.75, 17, 1e5 + 0.125, 0.97, -0.2, 5.75, 2.875}
	for _, kernel := range Kernels() {
		t.Run(string(kernel), func(t *testing.T) {
			useKernel(t, kernel)
			for _, jitter := range worleyJitters {
				for _, mode := range []WorleyMode{F1, F2MinusF1} {
					b, err := NewWorleyJitter(-7, mode, jitter)
					if err != nil {
						t.Fatal(err)
					}
					n := b.(worleyNoise)
					for _, w := range widths {
						for _, pc := range perCells {
							xs := make([]float64, w)
							for k := range xs {
								xs[k] = -5.31 + float64(k)/pc
							}
							name := fmt.Sprintf("kernel %s jitter %v mode %d width %d at %g per cell", kernel, jitter, mode, w, pc)
							checkCellularKernel(t, name, b, xs, kernel)
							g := NewGrid(b, xs)
							values, evals := g.Rows(), g.Rows()
							v := make([]float64, w)
							ev, dx, dy := make([]float64, w), make([]float64, w), make([]float64, w)
							for _, y := range ys {
								values.Value(y, v)
								evals.Eval(y, ev, dx, dy)
								for k, x := range xs {
									wv, wx, wy := bruteWorley(n, x, y)
									if !same(v[k], wv) {
										t.Fatalf("%s: Grid Value at (%v, %v) = %v, brute force %v", name, x, y, v[k], wv)
									}
									if !same(ev[k], wv) || !same(dx[k], wx) || !same(dy[k], wy) {
										t.Fatalf("%s: Grid Eval at (%v, %v) = (%v, %v, %v), brute force (%v, %v, %v)", name, x, y, ev[k], dx[k], dy[k], wv, wx, wy)
									}
								}
							}
						}
					}
				}
			}
		})
	}
}

// TestWorleyJitterFeaturePoints checks each bounded feature point against
// its formula, 0.5 + J·(h − 0.5) per axis from the cell's raw hash jitter h.
func TestWorleyJitterFeaturePoints(t *testing.T) {
	for _, jitter := range worleyJitters {
		b, _ := NewWorleyJitter(21, F2MinusF1, jitter)
		n := b.(worleyNoise)
		for j := -20; j < 20; j++ {
			r := rowKey(n.key, j)
			for i := -20; i < 20; i++ {
				h := hashJitter(r, i)
				want := vec2{0.5 + jitter*(h.x-0.5), 0.5 + jitter*(h.y-0.5)}
				if f := n.featurePoint(r, i); f != want {
					t.Fatalf("jitter %v cell (%d, %d): point %v, want %v", jitter, i, j, f, want)
				}
			}
		}
	}
}

// TestWorleyJitterGaps checks the gaps the ring search prunes by: never
// more than the offset to any point the cell can hold (else a needed cell
// would be skipped), and no less than the offset to a point on the band's
// near edge (else cells would be searched that cannot matter); and that a
// Grid's tables hold their squares.
func TestWorleyJitterGaps(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 4))
	for _, jitter := range worleyJitters {
		b, _ := NewWorleyJitter(2, F1, jitter)
		n := b.(worleyNoise)
		edgeHi := n.hi
		if jitter == 1 {
			edgeHi = 1 - 0x1p-32 // the largest raw jitter
		}
		for k := range 5000 {
			u := r.Float64()
			switch k {
			case 0:
				u = 0
			case 1:
				u = 1 - 0x1p-53
			}
			for _, o := range []int{-2, -1, 1, 2} {
				g := n.gap(o, u)
				for _, f := range []float64{n.lo, edgeHi, n.lo + (edgeHi-n.lo)*r.Float64()} {
					if off := math.Abs(float64(o) + f - u); g > off {
						t.Fatalf("jitter %v: gap(%d, %v) = %v beyond the offset %v to a point at %v", jitter, o, u, g, off, f)
					}
				}
				edge := n.lo
				if o < 0 {
					edge = n.hi
				}
				if off := math.Abs(float64(o) + edge - u); g < off {
					t.Fatalf("jitter %v: gap(%d, %v) = %v short of the offset %v to the band's edge %v", jitter, o, u, g, off, edge)
				}
			}
		}
		xs := []float64{-3.2, -0.7, 0, 0.01, 0.5, 0.99, 1, 7.25}
		g := newWorleyGrid(n, xs)
		rows := g.rows()
		for k, x := range xs {
			_, u := floorFrac(x)
			for s, o := range [4]int{-2, -1, 1, 2} {
				if want := n.gap(o, u); g.gx2[k][s] != want*want {
					t.Fatalf("jitter %v: gx2 of x = %v to column %d is %v, want %v", jitter, x, o, g.gx2[k][s], want*want)
				}
			}
		}
		for _, y := range []float64{-1.5, 0.25, 3.999} {
			terms := rows.terms(y)
			_, v := floorFrac(y)
			for oj := -2; oj <= 2; oj++ {
				if want := n.gap(oj, v); terms.gy2[oj+2] != want*want {
					t.Fatalf("jitter %v: gy2 of y = %v to row %d is %v, want %v", jitter, y, oj, terms.gy2[oj+2], want*want)
				}
			}
		}
	}
}

// TestWorleyInnerBound checks the jitters up to which the inner 3×3 cells
// suffice (innerOnly) against the brute-force search, at random points
// and, most, near cell corners, where a ring cell comes closest; and, so
// that the check can fail, that full jitter does need the ring at some of
// the same points (jitters just above the limits need it only in
// configurations too rare for random points to find). The Grids' kernels without the ring are
// checked against the brute force in TestWorleyJitterGridKernels.
func TestWorleyInnerBound(t *testing.T) {
	for _, c := range []struct {
		mode          WorleyMode
		limit, beyond float64
	}{{F1, worleyInnerF1, 1}, {F2MinusF1, worleyInnerF2F1, 1}} {
		for _, jitter := range []float64{c.limit, c.beyond} {
			b, _ := NewWorleyJitter(13, c.mode, jitter)
			n := b.(worleyNoise)
			if n.innerOnly() != (jitter == c.limit) {
				t.Fatalf("mode %d jitter %v: innerOnly %v", c.mode, jitter, n.innerOnly())
			}
			r := rand.New(rand.NewPCG(39, 5))
			wrong := 0
			for k := range 200000 {
				x, y := 400*r.Float64()-200, 400*r.Float64()-200
				if k%4 != 0 {
					x, y = math.Round(x)+0.02*r.Float64()-0.01, math.Round(y)+0.02*r.Float64()-0.01
				}
				want := bruteDistances(n, x, y)
				got := nearest3x3(n, x, y)
				if got[0] != want[0] || c.mode == F2MinusF1 && got[1] != want[1] {
					if jitter == c.limit {
						t.Fatalf("mode %d jitter %v at (%v, %v): 3×3 gives %v, brute force %v", c.mode, jitter, x, y, got, want[:2])
					}
					wrong++
				}
			}
			if jitter != c.limit && wrong == 0 {
				t.Errorf("mode %d jitter %v: the 3×3 cells sufficed at every point tried", c.mode, jitter)
			}
			t.Logf("mode %d jitter %v: %d points needed the ring", c.mode, jitter, wrong)
		}
	}
}

// TestWorleyGridRingCells checks Grid rows against the brute-force search
// where the ring cells matter most: rows just above and below lattice rows
// and samples packed 64 to a cell (so that whole blocks share a cell, as in
// the coarse octaves), over 40 lattice rows and 64 columns, with every
// kernel forced, at full and at FastNoise2's jitter; and that at full
// jitter some of those samples did need a ring cell.
func TestWorleyGridRingCells(t *testing.T) {
	if testing.Short() {
		t.Skip("brute force over 10⁶ samples")
	}
	xs := make([]float64, 64*64)
	for k := range xs {
		xs[k] = -31 + float64(k)/64
	}
	var ys []float64
	for j := -20; j < 20; j++ {
		for _, v := range []float64{0, 0.001, 0.02, 0.98, 0.999} {
			ys = append(ys, float64(j)+v)
		}
	}
	for _, jitter := range []float64{1, fn2Jitter} {
		for _, mode := range []WorleyMode{F1, F2MinusF1} {
			b, _ := NewWorleyJitter(29, mode, jitter)
			n := b.(worleyNoise)
			want := make([][]float64, len(ys))
			ring := 0
			for r, y := range ys {
				want[r] = make([]float64, len(xs))
				for k, x := range xs {
					want[r][k], _, _ = bruteWorley(n, x, y)
					d := nearest3x3(n, x, y)
					if got := n.distanceValue(worleyNearest{d1: d[0] * d[0], d2: d[1] * d[1]}); got != want[r][k] {
						ring++
					}
				}
			}
			if jitter == 1 && ring < 10 {
				t.Fatalf("jitter %v mode %d: only %d samples needed a ring cell", jitter, mode, ring)
			}
			for _, kernel := range Kernels() {
				useKernel(t, kernel)
				rows := NewGrid(b, xs).Rows()
				v := make([]float64, len(xs))
				for r, y := range ys {
					rows.Value(y, v)
					for k, x := range xs {
						if !same(v[k], want[r][k]) {
							t.Fatalf("kernel %s jitter %v mode %d: Grid Value at (%v, %v) = %v, brute force %v", kernel, jitter, mode, x, y, v[k], want[r][k])
						}
					}
				}
			}
			t.Logf("jitter %v mode %d: %d of %d samples needed a ring cell", jitter, mode, ring, len(xs)*len(ys))
		}
	}
}

// TestWorleyGridEveryRingCell finds, for each of the 12 ring cells beside
// the inner 3×3 (and any of the 4 corner cells it meets), a sample near a
// cell's corner for which that ring cell holds one of the
// two nearest points (F2 − F1) or the nearest (F1), and checks Grid rows
// through it against the brute force under every kernel: packed 64 to the
// cell (blocks in one cell) and spread 3.7 to a cell (gathers).
func TestWorleyGridEveryRingCell(t *testing.T) {
	if testing.Short() {
		t.Skip("a search over 10⁶ samples")
	}
	for _, mode := range []WorleyMode{F1, F2MinusF1} {
		n := NewWorley(31, mode).(worleyNoise)
		type witness struct{ x, y float64 }
		found := map[[2]int]witness{}
		for j := -250; j < 250 && len(found) < 16; j++ {
			for i := -250; i < 250; i++ {
				for _, c := range [][2]float64{{0.001, 0.001}, {0.999, 0.001}, {0.001, 0.999}, {0.999, 0.999}} {
					x, y := float64(i)+c[0], float64(j)+c[1]
					_, u := floorFrac(x)
					_, v := floorFrac(y)
					var ds [25]float64
					for oj := -2; oj <= 2; oj++ {
						r := rowKey(n.key, j+oj)
						for oi := -2; oi <= 2; oi++ {
							_, ds[(oj+2)*5+oi+2] = n.cellOffset(r, i, oi, oj, u, v)
						}
					}
					d1, d2 := smallestTwo(ds[:])
					for oj := -2; oj <= 2; oj++ {
						for oi := -2; oi <= 2; oi++ {
							key := [2]int{oi, oj}
							if oi > -2 && oi < 2 && oj > -2 && oj < 2 {
								continue
							}
							if _, ok := found[key]; ok {
								continue
							}
							d := ds[(oj+2)*5+oi+2]
							if d == d1 || mode == F2MinusF1 && d == d2 {
								found[key] = witness{x, y}
							}
						}
					}
				}
			}
		}
		// F1 < √2 never reaches the ring's four corner cells, at least √2
		// away; F2 < √(5/2) can, but not one of 4·10⁶ cells' corner
		// samples needed one.
		if len(found) < 12 {
			t.Fatalf("mode %d: witnesses for only %d of the 12 ring cells beside the inner block", mode, len(found))
		}
		for _, kernel := range Kernels() {
			useKernel(t, kernel)
			for key, w := range found {
				_, u := floorFrac(w.x)
				step := 1.0 / 64
				if u > 0.5 {
					step = -step
				}
				for _, spacing := range []float64{step, step * 64 / 3.7} {
					xs := make([]float64, 64)
					for k := range xs {
						xs[k] = w.x + float64(k)*spacing
					}
					v := make([]float64, len(xs))
					NewGrid(n, xs).Rows().Value(w.y, v)
					for k, x := range xs {
						if want, _, _ := bruteWorley(n, x, w.y); !same(v[k], want) {
							t.Fatalf("kernel %s mode %d, ring cell %v: Grid Value at (%v, %v) = %v, brute force %v", kernel, mode, key, x, w.y, v[k], want)
						}
					}
				}
			}
		}
	}
}
