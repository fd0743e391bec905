package noise

import (
	"math"
	"slices"
	"unsafe"
)

// Worley noise on a Grid. The point form hashes the feature point of up to
// 25 cells for every sample; along a grid row the same cells serve many
// samples, and the next rows too. So a worleyGrid prepares each sample's
// lattice column and offset u once per generation, and a worleyRows keeps
// the feature points of the five lattice rows j−2 … j+2 around the current
// row j over every column the samples reach, hashing a lattice row only
// when the rows step onto it. Eval's search per sample is nearest's, cell
// for cell in the same order with the same expressions; Value's keeps only
// the two smallest squared distances, branch-free (distances), and the
// vector kernels do that for 8 samples at once. Either way the values and
// gradients are bit for bit the point form's.

// worleyGrid is a Worley basis prepared for a fixed row of x coordinates.
type worleyGrid struct {
	n  worleyNoise
	i0 int       // the lattice column of prepared column 0: the leftmost sample's cell − 2
	nc int       // prepared columns: every sample's cell ± 2
	c  []int32   // per sample: its cell's prepared column
	u  []float64 // per sample: its offset in the cell
	// gx2 holds per sample the squared gaps gap(oi, u)² to the
	// columns oi = −2, −1, 1, 2 away, which bound the ring's distances.
	gx2 [][4]float64
	// inner is whether the inner 3×3 cells suffice (worleyNoise.innerOnly),
	// so the value rows search no ring cell.
	inner bool
	// With a vector kernel, the whole blocks of laneWidth samples from the
	// first are its; the Go loop does the rest.
	kernel Kernel
	blocks []worleyBlock
}

// worleyBlock is a worleyGrid's tables of laneWidth samples as the vector
// kernels read them (internal/asmgen/cellular.go fixes the layout): u, the
// prepared column times two (a feature point is two float64) and the
// squared gaps to the columns −2, −1, 1, 2 away.
//
// The AVX-512 kernel takes the inner 3×3 cells' feature points of a block
// whose samples' cells lie close together from 8 consecutive prepared
// columns of each row, in registers, instead of gathering them: base is
// the first of those columns' byte offset in a row (−1: gather instead),
// and idx per sample twice its cell's column − 1 relative to base, the
// permute index of the x of the column left of its cell.
//
// The AVX2 kernel reads each cell's feature point once for all lanes, by
// broadcast, in a block whose samples all lie in one cell, as they do in
// the coarser octaves: same is that column's byte offset in a row (−1:
// gather instead).
type worleyBlock struct {
	u    [laneWidth]float64
	c2   [laneWidth]int64
	gx2  [4][laneWidth]float64
	idx  [laneWidth]int64
	base int64
	same int64
	_    [laneWidth - 2]int64 // to 512 bytes
}

// worleyPickSpan is how many prepared columns a block's permutes reach:
// 16 float64 in two registers.
const worleyPickSpan = 8

// worleyMaxSpread bounds the prepared columns per sample: rows whose
// samples scatter over many more lattice columns than they have samples
// (a few far-apart points) use the point form instead.
const worleyMaxSpread = 4

// newWorleyGrid prepares n for rows at xs, or returns nil where the
// samples spread over too many lattice columns.
func newWorleyGrid(n worleyNoise, xs []float64) *worleyGrid {
	if len(xs) == 0 {
		return nil
	}
	g := &worleyGrid{n: n, c: make([]int32, len(xs)), u: make([]float64, len(xs)), gx2: make([][4]float64, len(xs))}
	lo, hi := math.MaxInt, math.MinInt
	cells := make([]int, len(xs))
	for k, x := range xs {
		i, u := floorFrac(x)
		cells[k], g.u[k] = i, u
		lo, hi = min(lo, i), max(hi, i)
		for s, oi := range [4]int{-2, -1, 1, 2} {
			gx := n.gap(oi, u)
			g.gx2[k][s] = float64(gx * gx)
		}
	}
	// The spread test is on uint64 so that far-apart cells cannot overflow.
	if uint64(hi)-uint64(lo) > uint64(worleyMaxSpread*len(xs)+16) {
		return nil
	}
	g.i0, g.nc = lo-2, hi-lo+5
	for k, i := range cells {
		g.c[k] = int32(i - g.i0)
	}
	g.kernel = currentKernel()
	g.inner = n.innerOnly()
	if g.kernel != KernelGo {
		g.blocks = make([]worleyBlock, len(xs)/laneWidth)
		for b := range g.blocks {
			blk := &g.blocks[b]
			for l := range laneWidth {
				k := b*laneWidth + l
				blk.u[l], blk.c2[l] = g.u[k], 2*int64(g.c[k])
				for s := range blk.gx2 {
					blk.gx2[s][l] = g.gx2[k][s]
				}
			}
			blk.base = -1
			lo, hi := slices.Min(blk.c2[:])/2, slices.Max(blk.c2[:])/2
			blk.same = -1
			if lo == hi {
				blk.same = lo * int64(unsafe.Sizeof(vec2{}))
			}
			if first := lo - 1; hi+1-first < worleyPickSpan {
				blk.base = first * int64(unsafe.Sizeof(vec2{}))
				for l, c2 := range blk.c2 {
					blk.idx[l] = c2 - 2*first - 2
				}
			}
		}
	}
	return g
}

// worleyRows evaluates rows of a worleyGrid, keeping the feature points of
// the lattice rows it has hashed. Not safe for concurrent use.
type worleyRows struct {
	g *worleyGrid
	// slot s, feat[s·stride:s·stride+nc], holds lattice row held[s]'s
	// feature points (jitters) at every prepared column; lattice row j
	// lives in slot j mod 5.
	feat []vec2
	held [5]int
	have [5]bool
}

// stride is the feature points a slot of worleyRows.feat holds: the nc
// prepared columns and worleyPickSpan more, which the AVX-512 kernel's
// permutes may read (never pick) past the last column.
func (g *worleyGrid) stride() int { return g.nc + worleyPickSpan }

func (g *worleyGrid) rows() *worleyRows {
	return &worleyRows{g: g, feat: make([]vec2, 5*g.stride())}
}

// lattice makes sure the slots hold lattice rows j−2 … j+2 and returns
// them in that order, with their byte offsets in feat.
func (r *worleyRows) lattice(j int) (rows [5][]vec2, offs [5]int64) {
	g := r.g
	for oj := -2; oj <= 2; oj++ {
		s := wrap(j+oj, 5)
		f := r.feat[s*g.stride():][:g.nc]
		if !r.have[s] || r.held[s] != j+oj {
			key := rowKey(g.n.key, j+oj)
			for c := range f {
				f[c] = g.n.featurePoint(key, g.i0+c)
			}
			r.held[s], r.have[s] = j+oj, true
		}
		rows[oj+2], offs[oj+2] = f, int64(s*g.stride())*int64(unsafe.Sizeof(vec2{}))
	}
	return rows, offs
}

// worleyRowTerms is what a row shares: its lattice rows' feature points
// (and their byte offsets in feat, for the kernels) and the squared gaps
// gap(oj, v)² of the rows oj = −2 … 2 away.
type worleyRowTerms struct {
	rows [5][]vec2
	offs [5]int64
	v    float64
	gy2  [5]float64
}

func (r *worleyRows) terms(y float64) worleyRowTerms {
	j, v := floorFrac(y)
	t := worleyRowTerms{v: v}
	t.rows, t.offs = r.lattice(j)
	for oj := -2; oj <= 2; oj++ {
		gy := r.g.n.gap(oj, v)
		t.gy2[oj+2] = float64(gy * gy)
	}
	return t
}

// nearest is worleyNoise.nearest for sample k of the row, with the feature
// points from the kept lattice rows: the same cells in the same order.
func (r *worleyRows) nearest(t *worleyRowTerms, k int) worleyNearest {
	g := r.g
	c, u, v := int(g.c[k]), g.u[k], t.v
	w := worleyNearest{d1: math.Inf(1), d2: math.Inf(1)}
	for oj := -1; oj <= 1; oj++ {
		row := t.rows[oj+2][c-1 : c+2]
		for oi := -1; oi <= 1; oi++ {
			f := row[oi+1]
			o := vec2{float64(oi) + f.x - u, float64(oj) + f.y - v}
			w.add(o, float64(o.x*o.x)+float64(o.y*o.y))
		}
	}
	gx2 := &g.gx2[k]
	for oj := -2; oj <= 2; oj++ {
		gy2 := t.gy2[oj+2]
		row := t.rows[oj+2][c-2 : c+3]
		for oi := -2; oi <= 2; oi++ {
			var gx float64
			switch oi {
			case -2, -1:
				gx = gx2[oi+2]
			case 1, 2:
				gx = gx2[oi+1]
			}
			if oi > -2 && oi < 2 && oj > -2 && oj < 2 {
				continue // inner 3×3, done
			}
			bound := w.d2
			if g.n.mode == F1 {
				bound = w.d1
			}
			if gx+gy2 >= bound {
				continue
			}
			f := row[oi+2]
			o := vec2{float64(oi) + f.x - u, float64(oj) + f.y - v}
			w.add(o, float64(o.x*o.x)+float64(o.y*o.y))
		}
	}
	return w
}

// distances returns the squared distances d1 ≤ d2 to the two nearest
// feature points of sample k, for Value, where the offsets do not matter.
// They are those nearest finds, bit for bit, by another route: the
// smallest two of the same cells' distances do not depend on the order the
// cells come in, so the inner 3×3 cells keep them with min and max instead
// of branches; and a ring cell the pruning skips here lies at least its
// gap² ≥ the current bound ≥ the final d1 (F1) or d2 away, so it could not
// change them. Every distance is the same expression as nearest's.
func (r *worleyRows) distances(t *worleyRowTerms, k int) (d1, d2 float64) {
	g := r.g
	c, u, v := int(g.c[k]), g.u[k], t.v
	d1, d2 = math.Inf(1), math.Inf(1)
	for oj := -1; oj <= 1; oj++ {
		row := t.rows[oj+2][c-1 : c+2]
		for oi := -1; oi <= 1; oi++ {
			f := row[oi+1]
			ox, oy := float64(oi)+f.x-u, float64(oj)+f.y-v
			d := float64(ox*ox) + float64(oy*oy)
			d1, d2 = min(d1, d), min(d2, max(d1, d))
		}
	}
	if g.inner {
		return d1, d2
	}
	gx2 := &g.gx2[k]
	f1 := g.n.mode == F1
	for oj := -2; oj <= 2; oj++ {
		gy2 := t.gy2[oj+2]
		row := t.rows[oj+2][c-2 : c+3]
		for oi := -2; oi <= 2; oi++ {
			var gx float64
			switch oi {
			case -2, -1:
				gx = gx2[oi+2]
			case 1, 2:
				gx = gx2[oi+1]
			}
			if oi > -2 && oi < 2 && oj > -2 && oj < 2 {
				continue // inner 3×3, done
			}
			bound := d2
			if f1 {
				bound = d1
			}
			if gx+gy2 >= bound {
				continue
			}
			f := row[oi+2]
			ox, oy := float64(oi)+f.x-u, float64(oj)+f.y-v
			d := float64(ox*ox) + float64(oy*oy)
			d1, d2 = min(d1, d), min(d2, max(d1, d))
		}
	}
	return d1, d2
}

// value fills v[k] = N(xs[k], y).
func (r *worleyRows) value(y float64, v []float64) {
	t := r.terms(y)
	n := r.g.n
	v = v[:len(r.g.c)]
	done := worleyLanes(r.g.kernel, n.mode, r.g.inner, r.g.blocks, v, r.feat, &t)
	for k := done; k < len(v); k++ {
		d1, d2 := r.distances(&t, k)
		v[k] = n.distanceValue(worleyNearest{d1: d1, d2: d2})
	}
}

// eval fills v[k], dx[k], dy[k] with Eval(xs[k], y).
func (r *worleyRows) eval(y float64, v, dx, dy []float64) {
	t := r.terms(y)
	n := r.g.n
	v = v[:len(r.g.c)]
	dx, dy = dx[:len(v)], dy[:len(v)]
	for k := range v {
		v[k], dx[k], dy[k] = n.distanceEval(r.nearest(&t, k))
	}
}
