package noise

import "math"

// FBm is one worker's evaluator of fractional Brownian motion along the rows
// of Grids: H = Σ_i amp_i·N_i (thesis listing 6.1, eq. 6.1), octave i's
// noise from its own Grid. The sum starts at 0 and adds float64(amp_i·N_i)
// in octave order, as the fBm step of a point-by-point reference does, so
// the heights are bit for bit the reference's. Where every octave is a
// Perlin Grid, or every one a value noise Grid, made with a vector kernel,
// each block of samples keeps its sum in a register across the octaves and
// is written once. An FBm keeps its Grids' lattice rows like a GridRows
// and is not safe for concurrent use.
type FBm struct {
	rows    []*GridRows
	amps    []float64
	kernel  Kernel
	octaves []laneOctave // the vector kernel's view of the octaves; nil: octave by octave
	sum, n  []float64    // octave by octave: the running sum and one octave's row
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

// NewFBm returns an evaluator of the octaves grids[i] weighted by amps[i].
// The grids must share one number of samples.
func NewFBm(grids []*Grid, amps []float64) *FBm {
	f := &FBm{amps: amps[:len(grids)], kernel: KernelGo}
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
	}
	return f
}

// Row writes float32(H) at every sample of the row whose octave i lies at
// ys[i] in octave i's noise coordinates, and returns the lowest and highest
// of them by the builtin min and max: NaN for both if any is NaN, −0 below
// +0.
func (fbm *FBm) Row(ys []float64, out []float32) (lo, hi float32) {
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
	done := fbmLanes(fbm.kernel, value, fbm.octaves, len(fbm.rows[0].g.blocks), out, &fbm.rng)
	lo, hi = laneRange(&fbm.rng, out[:done])
	for c := range out[done:] {
		var h float64
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
			h += float64(fbm.amps[i] * n)
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
