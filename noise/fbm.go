package noise

import "math"

// FBm is one worker's evaluator of fractional Brownian motion along the rows
// of Grids: H = Σ_i amp_i·N_i (thesis listing 6.1, eq. 6.1), octave i's
// noise from its own Grid. The sum starts at 0 and adds float64(amp_i·N_i)
// in octave order, as the fBm step of a point-by-point reference does, so
// the heights are bit for bit the reference's. Where every octave is a
// Perlin Grid, or every one a value noise Grid, made with a vector kernel,
// each block of samples keeps its sum in a register across the octaves and
// is written once. Made by NewMultifractal, it folds the octaves by the
// heterogeneous or hybrid multifractal's step instead (Fold). An FBm keeps
// its Grids' lattice rows like a GridRows and is not safe for concurrent
// use.
type FBm struct {
	rows    []*GridRows
	amps    []float64
	fold    Fold
	offset  float64 // the multifractals' offset
	kernel  Kernel
	octaves []laneOctave // the vector kernel's view of the octaves; nil: octave by octave
	sum, n  []float64    // octave by octave: the running sum and one octave's row
	w       []float64    // octave by octave, FoldHybrid: the running weights
	// rng is the vector kernel's running lowest and highest float32 per
	// lane, and a NaN flag per lane.
	rng [3][laneWidth]float32
}

// laneOctave is one octave as the fused vector kernels read it
// (internal/asmgen fixes the layout).
type laneOctave struct {
	amp    float64
	blocks *laneBlock
	cs, co *float64 // the octave's GridRows' column tables (AVX2: both cso; value noise: both ve)
}

// Fold is how an FBm folds octave i's noise N_i, with amplitude amp_i,
// into the running height H of a sample: the per-sample steps of terrain's
// fractal algorithms, each product rounded before its sum as there.
type Fold int

const (
	// FoldFBm is fractional Brownian motion (thesis listing 6.1):
	// H = Σ amp_i·N_i from 0.
	FoldFBm Fold = iota
	// FoldHetero is the heterogeneous multifractal (listing 6.2): octave 0
	// gives H = N_0 + offset, then H += (H·amp_i)·(N_i + offset), so low
	// ground stays smooth.
	FoldHetero
	// FoldHybrid is the hybrid multifractal (listing 6.3): octave 0 gives
	// H = w = N_0 + offset, then w = min(w, 1) (a NaN stays NaN),
	// w = w·(amp_i·(N_i + offset)) and H += w.
	FoldHybrid
)

// NewFBm returns an evaluator of the octaves grids[i] weighted by amps[i].
// The grids must share one number of samples.
func NewFBm(grids []*Grid, amps []float64) *FBm {
	return NewMultifractal(grids, amps, FoldFBm, 0)
}

// NewMultifractal is NewFBm with the octaves folded by fold, with the
// multifractals' offset. FoldHetero and FoldHybrid need at least one grid.
func NewMultifractal(grids []*Grid, amps []float64, fold Fold, offset float64) *FBm {
	f := &FBm{amps: amps[:len(grids)], fold: fold, offset: offset, kernel: KernelGo}
	for _, g := range grids {
		f.rows = append(f.rows, g.Rows())
	}
	if len(grids) > 0 && grids[0].kernel != KernelGo && len(grids[0].blocks) > 0 {
		f.kernel = grids[0].kernel
		for i, r := range f.rows {
			g := r.g
			if g.kind != grids[0].kind || g.kernel != f.kernel || len(g.xs) != len(grids[0].xs) {
				f.kernel, f.octaves = KernelGo, nil
				break
			}
			o := laneOctave{amp: amps[i], blocks: &g.blocks[0]}
			switch {
			case g.kind == gridValue:
				o.cs, o.co = &r.ve[0], &r.ve[0]
			case r.cso != nil:
				o.cs, o.co = &r.cso[0], &r.cso[0]
			default:
				o.cs, o.co = &r.cs[0], &r.co[0]
			}
			f.octaves = append(f.octaves, o)
		}
	}
	if f.octaves == nil && len(grids) > 0 {
		f.sum, f.n = make([]float64, len(grids[0].xs)), make([]float64, len(grids[0].xs))
		if fold == FoldHybrid {
			f.w = make([]float64, len(grids[0].xs))
		}
	}
	return f
}

// step folds octave i's noise n into a sample's running height h and,
// for FoldHybrid, weight w.
func (fbm *FBm) step(i int, h, w, n float64) (float64, float64) {
	amp, offset := fbm.amps[i], fbm.offset
	switch {
	case fbm.fold == FoldFBm:
		return h + float64(amp*n), w
	case i == 0:
		return n + offset, n + offset
	case fbm.fold == FoldHetero:
		return h + float64(h*amp*(n+offset)), w
	}
	if w > 1 {
		w = 1
	}
	aux := amp * (n + offset)
	return h + float64(w*aux), w * aux
}

// Row writes float32(H) at every sample of the row whose octave i lies at
// ys[i] in octave i's noise coordinates, and returns the lowest and highest
// of them by the builtin min and max: NaN for both if any is NaN, −0 below
// +0.
func (fbm *FBm) Row(ys []float64, out []float32) (lo, hi float32) {
	if fbm.octaves == nil && fbm.fold != FoldFBm { // fbm.step, a loop per octave and fold
		sum, offset := fbm.sum[:len(out)], fbm.offset
		n := fbm.n[:len(sum)]
		for i, r := range fbm.rows {
			r.Value(ys[i], n)
			amp := fbm.amps[i]
			switch {
			case i == 0:
				for k, v := range n {
					sum[k] = v + offset
				}
				copy(fbm.w, sum)
			case fbm.fold == FoldHetero:
				for k, v := range n {
					h := sum[k]
					sum[k] = h + float64(h*amp*(v+offset))
				}
			default:
				w := fbm.w[:len(sum)]
				for k, v := range n {
					wk := w[k]
					if wk > 1 {
						wk = 1
					}
					aux := amp * (v + offset)
					sum[k] += float64(wk * aux)
					w[k] = wk * aux
				}
			}
		}
		for k, v := range sum {
			out[k] = float32(v)
		}
		return float32Range(out)
	}
	if fbm.octaves == nil {
		sum := fbm.sum[:len(out)]
		clear(sum)
		for i, r := range fbm.rows {
			amp := fbm.amps[i]
			if r.g.kind == gridPerlin {
				r.perlinLattice(ys[i], false)
				r.perlinValues(sum, amp, true)
				continue
			}
			r.Value(ys[i], fbm.n)
			for k, v := range fbm.n[:len(sum)] {
				sum[k] += float64(amp * v)
			}
		}
		for k, v := range sum {
			out[k] = float32(v)
		}
		return float32Range(out)
	}
	value := fbm.rows[0].g.kind == gridValue
	for i, r := range fbm.rows {
		if value {
			r.valueLattice(ys[i])
		} else {
			r.perlinLattice(ys[i], false)
		}
	}
	inf := float32(math.Inf(1))
	for c := range laneWidth {
		fbm.rng[0][c], fbm.rng[1][c], fbm.rng[2][c] = inf, -inf, 0
	}
	done := fbmLanes(fbm.kernel, fbm.fold, value, fbm.octaves, len(fbm.rows[0].g.blocks), out, &fbm.rng, fbm.offset)
	lo, hi = laneRange(&fbm.rng, out[:done])
	for c := range out[done:] {
		var h, w float64
		for i, r := range fbm.rows {
			g := r.g
			l, k := g.tail[c], done+c
			var n float64
			if value {
				le, re := r.ve[l], r.ve[l+1]
				n = le + float64((re-le)*g.wu[k])
			} else {
				ls, lo, rs, ro := r.cs[l], r.co[l], r.cs[l+1], r.co[l+1]
				e, f := float64(ls*g.u[k])+lo, float64(rs*g.um1[k])+ro
				n = e + float64((f-e)*g.wu[k])
			}
			h, w = fbm.step(i, h, w, n)
		}
		out[done+c] = float32(h)
		lo, hi = min(lo, out[done+c]), max(hi, out[done+c])
	}
	return lo, hi
}

// float32Range returns the lowest and highest of v by the builtin min and
// max, or 0, 0 for none.
func float32Range(v []float32) (lo, hi float32) {
	if len(v) == 0 {
		return 0, 0
	}
	lo, hi = v[0], v[0]
	for _, x := range v[1:] {
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi
}
