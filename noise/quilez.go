package noise

import (
	"math"
	"slices"
)

// Quilez is one worker's evaluator of Quilez turbulence along the rows of
// Grids (thesis listing 6.4): octave i's noise N_i and gradient ∇N_i come
// from its own Grid, the gradients are summed into d, and the height adds
// amp_i·N_i / (1 + d·d) in octave order from 0, as terrain's point-by-point
// reference does, so the heights are bit for bit the reference's. Where
// every octave is a Perlin Grid, or every one a value noise Grid, made
// with one vector kernel (AVX-512 or AVX2), each block of samples keeps
// its height and gradient sums in registers across the octaves and is
// written once; otherwise each octave's gradient row is folded by
// QuilezStep. A Quilez
// keeps its Grids' lattice rows like a GridRows and is not safe for
// concurrent use.
type Quilez struct {
	rows    []*GridRows
	amps    []float64
	octaves []laneGradOctave // the fused kernel's view of the octaves; nil: octave by octave
	// h, ddx, ddy are the running heights and gradient sums, and n, ndx,
	// ndy one octave's gradient row, of the samples done octave by octave.
	h, ddx, ddy, n, ndx, ndy []float64
	rng                      [3][laneWidth]float32 // as FBm's
}

// laneGradOctave is one octave as the fused Quilez kernels read it
// (internal/asmgen fixes the layout).
type laneGradOctave struct {
	amp    float64
	blocks *laneBlock
	du     *float64    // the Grid's w'(u) per sample
	dv     float64     // w'(v) on the current row
	tables [5]*float64 // Perlin: cs, co, sx, sy, sv; value noise: ve, vca
}

// NewQuilez returns an evaluator of the octaves grids[i] weighted by
// amps[i]. The grids must share one number of samples.
func NewQuilez(grids []*Grid, amps []float64) *Quilez {
	q := &Quilez{amps: amps[:len(grids)]}
	for _, g := range grids {
		q.rows = append(q.rows, g.Rows())
	}
	fused := len(grids) > 0 && grids[0].kernel != KernelGo && len(grids[0].blocks) > 0
	for _, r := range q.rows {
		g := r.g
		if !fused || g.kind != grids[0].kind || g.kernel != grids[0].kernel || len(g.xs) != len(grids[0].xs) {
			fused = false
			break
		}
	}
	width, tail := 0, 0
	if len(grids) > 0 {
		width, tail = len(grids[0].xs), len(grids[0].xs)
	}
	if fused {
		for i, r := range q.rows {
			g := r.g
			if g.kind == gridPerlin {
				r.perlinColumns(0, true) // makes the slope tables
			}
			o := laneGradOctave{amp: amps[i], blocks: &g.blocks[0], du: &g.du[0]}
			switch {
			case g.kind == gridValue:
				o.tables = [5]*float64{&r.ve[0], &r.vca[0]}
			case g.kernel == KernelAVX2: // (s, o) and (sx, sy) pairs, as perlinEvalRowAVX2 reads them
				o.tables = [5]*float64{&r.cso[0], &r.cso[0], &r.sxy[0], &r.sxy[0], &r.sv[0]}
			default:
				o.tables = [5]*float64{&r.cs[0], &r.co[0], &r.sx[0], &r.sy[0], &r.sv[0]}
			}
			q.octaves = append(q.octaves, o)
		}
		tail = len(grids[0].tail)
	}
	b := make([]float64, 6*tail)
	q.h, q.ddx, q.ddy = b[:tail], b[tail:2*tail], b[2*tail:3*tail]
	q.n, q.ndx, q.ndy = b[3*tail:4*tail], b[4*tail:5*tail], b[5*tail:]
	if !fused {
		q.n, q.ndx, q.ndy = make([]float64, width), make([]float64, width), make([]float64, width)
	}
	return q
}

// Row writes float32(H) at every sample of the row whose octave i lies at
// ys[i] in octave i's noise coordinates, and returns the lowest and
// highest of them as FBm.Row does.
func (q *Quilez) Row(ys []float64, out []float32) (lo, hi float32) {
	if q.octaves == nil {
		h, ddx, ddy := q.h[:len(out)], q.ddx[:len(out)], q.ddy[:len(out)]
		clear(h)
		clear(ddx)
		clear(ddy)
		for i, r := range q.rows {
			r.Eval(ys[i], q.n, q.ndx, q.ndy)
			QuilezStep(h, ddx, ddy, q.n, q.ndx, q.ndy, q.amps[i])
		}
		for k, v := range h {
			out[k] = float32(v)
		}
		return float32Range(out)
	}
	for i, r := range q.rows {
		var t float64
		if r.g.kind == gridValue {
			t = r.valueLattice(ys[i])
		} else {
			t = r.perlinLattice(ys[i], true)
		}
		q.octaves[i].dv = fadeD(t)
	}
	inf := float32(math.Inf(1))
	for c := range laneWidth {
		q.rng[0][c], q.rng[1][c], q.rng[2][c] = inf, -inf, 0
	}
	g0 := q.rows[0].g
	done := quilezRowLanes(g0.kernel, g0.kind == gridValue, q.octaves, len(g0.blocks), out, &q.rng)
	lo, hi = laneRange(&q.rng, out[:done])
	if len(q.h) == 0 {
		return lo, hi
	}
	// The samples after the blocks, octave by octave as above.
	h, ddx, ddy := q.h, q.ddx, q.ddy
	clear(h)
	clear(ddx)
	clear(ddy)
	for i, r := range q.rows {
		if r.g.kind == gridValue {
			r.valueEvalSamples(r.g.tail, done, q.n, q.ndx, q.ndy, q.octaves[i].dv)
		} else {
			r.perlinEvalSamples(r.g.tail, done, q.n, q.ndx, q.ndy, q.octaves[i].dv)
		}
		QuilezStep(h, ddx, ddy, q.n, q.ndx, q.ndy, q.amps[i])
	}
	for k, v := range h {
		out[done+k] = float32(v)
		lo, hi = min(lo, out[done+k]), max(hi, out[done+k])
	}
	return lo, hi
}

// laneRange returns the lowest and highest of a vector kernel's output
// from its lanes' running lowest, highest and NaN flags in rng, by the
// builtin min and max.
func laneRange(rng *[3][laneWidth]float32, out []float32) (lo, hi float32) {
	lo, hi = slices.Min(rng[0][:]), slices.Max(rng[1][:])
	if lo == 0 || hi == 0 || slices.ContainsFunc(rng[2][:], func(f float32) bool { return f != 0 }) {
		// The vector minimum does not tell −0 from +0, nor keeps NaN.
		lo, hi = float32Range(out)
	}
	return lo, hi
}
