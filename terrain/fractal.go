package terrain

import (
	"context"
	"fmt"
	"math"
	"sync"

	"cordillera/internal/parallel"
	"cordillera/noise"
)

// Fractal noise synthesis (thesis ch. 6.1): every generator sums n octaves
// of a basis N at frequencies λ^i with amplitudes λ^(−iH), and differs only
// in how each octave is folded into the running height. The per-sample
// folding rules live in the small step functions below and are shared by the
// straightforward point-evaluated reference (the test oracle) and the fast
// row-wise path, so the two agree bit for bit. Products that feed a sum are
// wrapped in float64(…), which forbids the compiler to fuse them into one
// multiply-add (it does on arm64): a seed gives the same map on every machine.

// gridOffset shifts the samples off the noise lattice, in lattice cells:
// at feature size 0 (a period of one sample) every sample would otherwise
// sit on a lattice point, where gradient noise is zero in every octave. An
// irrational offset stays off the lattice however often λ = 2 doubles it.
const gridOffset = 1 / math.Pi

// swissWarp is de Carpentier's warp factor: how far the accumulated
// gradient pushes the sample point of later octaves (noise.SwissStep
// applies it in the fast path).
const swissWarp = noise.SwissWarp

// ridgedGain is Musgrave's gain for the octave weights of the ridged multifractal.
const ridgedGain = 2.0

// octaveSeed derives an independent seed for octave i (and for the two
// distortion noises, i = −1, −2) so that octaves are uncorrelated and seed
// s+1 is not seed s with its octaves shifted.
func octaveSeed(seed int64, i int) int64 {
	return int64(noise.SplitMix64(uint64(seed) ^ (uint64(i+3) * 0x9E3779B97F4A7C15)))
}

// featurePeriod is the wavelength, in samples, of the first octave. The
// thesis gives feature size only as a percentage (0 % to 100 %); the
// mapping is ours: period = size^(fs/100), so 0 % is one sample and 100 %
// the whole map, on a logarithmic scale so that each step looks alike.
func featurePeriod(size int, featureSize float64) float64 {
	return math.Pow(float64(size), featureSize/100)
}

// synthesis holds what every sample of one fractal generation shares.
type synthesis struct {
	alg        Algorithm
	tin        BasisTransform // T_in of thesis eq. 3.4, applied to every octave's basis value
	octaves    []noise.Basis
	amps       []float64 // λ^(−iH), thesis listing 6.1
	lacunarity float64
	offset     float64
	freq       float64 // 1 / feature period: sample index → noise coordinate
	alpha      float64 // domain distortion strength
	warpX      noise.Basis
	warpY      noise.Basis
	gain       float64 // λ^(−H), Swiss turbulence's per-octave gain
	stride     int     // sample spacing: 1, or k for a preview of every k-th sample
	col0       int     // map column of the first sample of a row: 0, or a region's left edge
}

func newSynthesis(p Params) (*synthesis, error) {
	s := &synthesis{
		alg:        p.Algorithm,
		tin:        p.BasisTransform,
		lacunarity: p.Lacunarity,
		offset:     p.Offset,
		freq:       1 / featurePeriod(p.Size, p.FeatureSize),
		alpha:      p.Distortion / 100,
		gain:       math.Pow(p.Lacunarity, -p.Hurst),
		stride:     1,
	}
	cells, lambda, err := tileableLattice(p)
	if err != nil {
		return nil, err
	}
	if cells > 0 {
		s.freq = float64(cells) / float64(p.Size-1)
	}
	period := cells // lattice cells across the map in the current octave; 0: not tileable
	for i := 0; i < p.Octaves; i++ {
		b, err := newBasis(p, i, period)
		if err != nil {
			return nil, err
		}
		s.octaves = append(s.octaves, b)
		s.amps = append(s.amps, math.Pow(p.Lacunarity, -float64(i)*p.Hurst))
		period *= lambda
	}
	if s.alpha > 0 {
		if s.warpX, err = newBasis(p, -1, cells); err != nil {
			return nil, err
		}
		if s.warpY, err = newBasis(p, -2, cells); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// newBasis returns the basis of octave i (i < 0: the distortion noises):
// with a period, the periodic basis whose lattice repeats every period
// cells; without, the plain one, so maps that do not tile keep every bit.
func newBasis(p Params, i, period int) (noise.Basis, error) {
	if period == 0 {
		return plainBasis(p, octaveSeed(p.Seed, i))
	}
	return noise.NewPeriodic(p.Basis, octaveSeed(p.Seed, i), period, period)
}

// plainBasis returns p's basis for a seed, with p's Worley jitter for the
// Worley bases (jitter 1 is noise.New's Worley, bit for bit).
func plainBasis(p Params, seed int64) (noise.Basis, error) {
	switch p.Basis {
	case noise.Worley:
		return noise.NewWorleyJitter(seed, noise.F1, p.WorleyJitter)
	case noise.WorleyEdge:
		return noise.NewWorleyJitter(seed, noise.F2MinusF1, p.WorleyJitter)
	}
	return noise.New(p.Basis, seed)
}

// maxTilePeriod bounds the finest octave's period in lattice cells, so that
// cells·λ^(n−1) stays an exact integer.
const maxTilePeriod = 1 << 40

// tileableLattice returns, for -tileable, how many lattice cells of the
// first octave span the map and the integer lacunarity λ, or 0 cells when
// the map need not tile. A map wraps when every octave spans a whole number
// of its periodic lattice's cells: the first octave's wavelength is rounded
// to divide the map (size−1 cells, so the last column is the first again),
// and each further octave multiplies the count by λ, which must therefore
// be an integer.
func tileableLattice(p Params) (cells, lambda int, err error) {
	if !p.Tileable {
		return 0, 0, nil
	}
	switch {
	case p.Algorithm.IsSubdivision():
		return 0, 0, fmt.Errorf("tileable: %s does not wrap; use a fractal algorithm (fbm, hetero, hybrid, quilez, ridged, billow, swiss)", p.Algorithm)
	case p.Basis != noise.Value && p.Basis != noise.Perlin:
		return 0, 0, fmt.Errorf("tileable: %s noise cannot be made periodic; use -basis perlin or value", p.Basis)
	case p.Lacunarity != math.Round(p.Lacunarity):
		return 0, 0, fmt.Errorf("tileable: lacunarity %g must be a whole number (2, 3, …) for every octave to repeat across the map", p.Lacunarity)
	}
	lambda = int(p.Lacunarity)
	cells = max(1, int(math.Round(float64(p.Size-1)/featurePeriod(p.Size, p.FeatureSize))))
	finest := float64(cells) * math.Pow(float64(lambda), float64(p.Octaves-1))
	if finest > maxTilePeriod {
		return 0, 0, fmt.Errorf("tileable: the finest of %d octaves would need %.3g lattice cells across the map; use fewer octaves", p.Octaves, finest)
	}
	return cells, lambda, nil
}

// needsGradient reports whether the algorithm reads the basis gradient.
func (s *synthesis) needsGradient() bool { return s.alg == Quilez || s.alg == Swiss }

// point returns the first-octave coordinates of sample (col, row), after the
// domain distortion T_pre of thesis eq. 6.2 when α > 0.
func (s *synthesis) point(col, row int) (x, y float64) {
	x, y = float64(float64((s.col0+col)*s.stride)*s.freq)+gridOffset, float64(float64(row*s.stride)*s.freq)+gridOffset
	if s.alpha > 0 {
		x, y = x+float64(s.alpha*s.warpX.Value(x, y)), y+float64(s.alpha*s.warpY.Value(x, y))
	}
	return x, y
}

// The per-octave folding rules. Each takes the running state of one sample
// and octave i's noise value (and gradient), as in thesis listings 6.1–6.4.

// fbmStep: H(p) = Σ N(λ^i p)·λ^(−iH) (listing 6.1, eq. 6.1).
func fbmStep(value, amp, n float64) float64 { return value + float64(amp*n) }

// heteroStep: each octave scaled by the current height, so low ground
// stays smooth (listing 6.2). Octave 0 is value = n + offset.
func heteroStep(value, amp, n, offset float64) float64 {
	return value + float64(value*amp*(n+offset))
}

// hybridStep: the weight w is scaled by each octave and capped at 1 to
// prevent divergence (listing 6.3). Octave 0 is w = value = n + offset.
func hybridStep(value, w, amp, n, offset float64) (float64, float64) {
	if w > 1 {
		w = 1
	}
	aux := amp * (n + offset)
	return value + float64(w*aux), w * aux
}

// quilezStep: the accumulated gradient d damps later octaves on steep
// slopes, value += amp·n / (1 + d·d) (listing 6.4).
func quilezStep(value, ddx, ddy, amp, n, ndx, ndy float64) (float64, float64, float64) {
	ddx += ndx
	ddy += ndy
	return value + amp*n/(1+float64(ddx*ddx)+float64(ddy*ddy)), ddx, ddy
}

// ridge is Musgrave's ridged basis (1 − |N|)², squared to sharpen the
// crests (Musgrave, Texturing & Modeling, ridged multifractal). Thesis
// fig. 3.3 writes the ridged transform as 1 − |h|, unsquared: that is
// -basis-transform ridged, which combines with any algorithm.
func ridge(n float64) float64 {
	r := 1 - math.Abs(n)
	return r * r
}

// ridgedStep: Musgrave's ridged multifractal; each octave is weighted by
// the previous octave's signal, so ridges stay sharp and valleys smooth.
func ridgedStep(value, signal, amp, n float64) (float64, float64) {
	weight := min(max(signal*ridgedGain, 0), 1)
	signal = ridge(n) * weight
	return value + float64(signal*amp), signal
}

// billowStep: fBm of |N|, rounded hills with creased valleys (thesis 8.2).
func billowStep(value, amp, n float64) float64 { return value + float64(amp*math.Abs(n)) }

// swiss evaluates de Carpentier's Swiss turbulence at one sample: later
// octaves are sampled at points displaced along the accumulated gradient and
// damped by the height so far, which carves eroded-looking gullies. Each
// octave's sample point depends on the previous ones, so the reference
// evaluates it point by point; the fast path (swissRow) runs the same steps
// octave by octave over a whole row.
func (s *synthesis) swiss(x, y float64) float64 {
	sum, amp, freq := 0.0, 1.0, 1.0
	var dsx, dsy float64
	for _, b := range s.octaves {
		n, dx, dy := b.Eval((x+float64(swissWarp*dsx))*freq, (y+float64(swissWarp*dsy))*freq)
		if s.tin != PlainBasis {
			n, dx, dy = s.tin.apply(n, dx, dy)
		}
		sum, amp, dsx, dsy = swissStep(sum, amp, dsx, dsy, n, dx, dy, s.gain)
		freq *= s.lacunarity
	}
	return sum
}

// swissStep folds one octave's noise n and gradient (dx, dy) into a
// sample's Swiss turbulence: the height sum, the next octave's amplitude
// (damped where the height so far is low) and the accumulated
// gradient-weighted displacement (dsx, dsy) of de Carpentier's
// formulation.
func swissStep(sum, amp, dsx, dsy, n, dx, dy, gain float64) (float64, float64, float64, float64) {
	sum += float64(amp * (1 - math.Abs(n)))
	dsx += float64(amp * dx * -n)
	dsy += float64(amp * dy * -n)
	amp *= gain * min(max(sum, 0), 1)
	return sum, amp, dsx, dsy
}

// swissRow is swiss at every sample of a row, octave-major: all samples'
// displaced points of one octave, then one batched noise.EvalPoints (value
// and Perlin noise in the vector kernel), then swissStep at every sample
// and the next octave's points (noise.SwissStep, also vectorised).
// Octave 0 is not displaced yet, so without distortion it comes from the
// octave's grid row. Per sample the operations are swiss's, in its order.
func (s *synthesis) swissRow(row int, sc *rowScratch, out []float32) {
	w := len(out)
	xs, ys, px, py := sc.xs[:w], sc.ys[:w], sc.px[:w], sc.py[:w]
	n, ndx, ndy := sc.n[:w], sc.ndx[:w], sc.ndy[:w]
	sum, amp, dsx, dsy := sc.value[:w], sc.aux[:w], sc.ddx[:w], sc.ddy[:w]
	if s.alpha > 0 {
		s.warpRow(row, xs, ys, n, ndx)
	} else {
		for col := range xs {
			xs[col], ys[col] = s.point(col, row)
		}
	}
	clear(sum)
	clear(dsx)
	clear(dsy)
	for c := range amp {
		amp[c] = 1
	}
	freq := 1.0
	if sc.rows == nil { // octave 0's points, not displaced yet, as swiss computes them
		for c := range xs {
			px[c], py[c] = (xs[c]+float64(swissWarp*dsx[c]))*freq, (ys[c]+float64(swissWarp*dsy[c]))*freq
		}
	}
	for i, b := range s.octaves {
		if i == 0 && sc.rows != nil {
			sc.rows[0].Eval(float64(float64(row*s.stride)*s.freq)+gridOffset, n, ndx, ndy)
		} else {
			noise.EvalPoints(b, px, py, n, ndx, ndy)
		}
		if s.tin != PlainBasis {
			for c := range n {
				n[c], ndx[c], ndy[c] = s.tin.apply(n[c], ndx[c], ndy[c])
			}
		}
		freq *= s.lacunarity
		// swissStep at every sample, then the next octave's points.
		noise.SwissStep(sum, amp, dsx, dsy, n, ndx, ndy, xs, ys, px, py, s.gain, freq)
	}
	for c, v := range sum {
		out[c] = float32(v)
	}
}

// sampleReference evaluates one sample the straightforward way: every
// octave by a point evaluation of the basis. It is the oracle the fast path
// is tested against.
func (s *synthesis) sampleReference(col, row int) float64 {
	x, y := s.point(col, row)
	if s.alg == Swiss {
		return s.swiss(x, y)
	}
	var value, aux, ddx, ddy float64
	for i, b := range s.octaves {
		var n, ndx, ndy float64
		if s.needsGradient() {
			n, ndx, ndy = b.Eval(x, y)
		} else {
			n = b.Value(x, y)
		}
		if s.tin != PlainBasis {
			n, ndx, ndy = s.tin.apply(n, ndx, ndy)
		}
		amp := s.amps[i]
		switch s.alg {
		case FBm:
			value = fbmStep(value, amp, n)
		case Hetero:
			if i == 0 {
				value = n + s.offset
			} else {
				value = heteroStep(value, amp, n, s.offset)
			}
		case Hybrid:
			if i == 0 {
				value, aux = n+s.offset, n+s.offset
			} else {
				value, aux = hybridStep(value, aux, amp, n, s.offset)
			}
		case Quilez:
			value, ddx, ddy = quilezStep(value, ddx, ddy, amp, n, ndx, ndy)
		case Ridged:
			if i == 0 {
				value, aux = ridge(n), ridge(n)
			} else {
				value, aux = ridgedStep(value, aux, amp, n)
			}
		case Billow:
			value = billowStep(value, amp, n)
		}
		x *= s.lacunarity
		y *= s.lacunarity
	}
	return value
}

// rowScratch is one worker's buffers for the fast path.
type rowScratch struct {
	xs, ys      []float64 // sample coordinates of the current octave
	px, py      []float64 // Swiss turbulence: the current octave's displaced points
	n, ndx, ndy []float64 // the octave's noise and gradient along the row
	value, aux  []float64 // running state per sample
	ddx, ddy    []float64
	rows        []*noise.GridRows // per octave, without distortion: the worker's kept lattice rows
	fbm         *noise.FBm        // plain fBm or multifractal without distortion: all octaves in one pass
	quilez      *noise.Quilez     // plain Quilez turbulence without distortion, likewise
	octaveYs    []float64         // the row's y in each octave, for fbm and quilez
}

// fastRow evaluates one row octave by octave, then folds each octave into
// every sample with the same step functions as sampleReference. Without
// domain distortion all rows share one set of column coordinates per
// octave: the octave's noise comes from its noise.Grid (column tables made
// once per generation, lattice rows hashed once per lattice row by the
// worker's GridRows in sc.rows). It returns the row's lowest and highest
// height, NaN if any height is NaN, so that normalisation needs no pass of
// its own to find the range.
func (s *synthesis) fastRow(row int, sc *rowScratch, out []float32) (lo, hi float32) {
	w := len(out)
	if s.alg == Swiss {
		s.swissRow(row, sc, out)
		return rowRange(out)
	}
	if sc.fbm != nil || sc.quilez != nil { // every step of the row in one pass, from the same ys
		ys := sc.octaveYs
		ys[0] = float64(float64(row*s.stride)*s.freq) + gridOffset
		for i := 1; i < len(ys); i++ {
			ys[i] = ys[i-1] * s.lacunarity
		}
		if sc.quilez != nil {
			return sc.quilez.Row(ys, out)
		}
		return sc.fbm.Row(ys, out)
	}
	xs, ys := sc.xs[:w], sc.ys[:w]
	n, ndx, ndy := sc.n[:w], sc.ndx[:w], sc.ndy[:w]
	value, aux, ddx, ddy := sc.value[:w], sc.aux[:w], sc.ddx[:w], sc.ddy[:w]
	clear(value)
	clear(aux)
	clear(ddx)
	clear(ddy)
	distorted := s.alpha > 0
	y := float64(float64(row*s.stride)*s.freq) + gridOffset
	if distorted { // point at every column, the distortion noises a row at a time
		s.warpRow(row, xs, ys, n, ndx)
	}
	for i, b := range s.octaves {
		if i > 0 {
			y *= s.lacunarity
			if distorted {
				for col := range xs {
					xs[col] *= s.lacunarity
					ys[col] *= s.lacunarity
				}
			}
		}
		switch {
		case !distorted && s.needsGradient():
			sc.rows[i].Eval(y, n, ndx, ndy)
		case !distorted:
			sc.rows[i].Value(y, n)
		case s.needsGradient():
			for col := range xs {
				n[col], ndx[col], ndy[col] = b.Eval(xs[col], ys[col])
			}
		default: // b.Value at every point, bit for bit; simplex noise in the vector kernel
			noise.ValuePoints(b, xs, ys, n)
		}
		if s.tin != PlainBasis {
			for c := range n {
				n[c], ndx[c], ndy[c] = s.tin.apply(n[c], ndx[c], ndy[c])
			}
		}
		s.fold(i, value, aux, ddx, ddy, n, ndx, ndy)
	}
	for c, v := range value {
		out[c] = float32(v)
	}
	return rowRange(out)
}

// fold adds octave i's noise n (and gradient) into the running state of a
// row of samples by the algorithm's step function.
func (s *synthesis) fold(i int, value, aux, ddx, ddy, n, ndx, ndy []float64) {
	amp, offset := s.amps[i], s.offset
	n = n[:len(value)]
	switch s.alg {
	case FBm:
		for c, v := range n {
			value[c] = fbmStep(value[c], amp, v)
		}
	case Hetero:
		if i == 0 {
			for c, v := range n {
				value[c] = v + offset
			}
			return
		}
		for c, v := range n {
			value[c] = heteroStep(value[c], amp, v, offset)
		}
	case Hybrid:
		aux = aux[:len(n)]
		if i == 0 {
			for c, v := range n {
				value[c], aux[c] = v+offset, v+offset
			}
			return
		}
		for c, v := range n {
			value[c], aux[c] = hybridStep(value[c], aux[c], amp, v, offset)
		}
	case Quilez:
		// quilezStep at every sample, several at once on vector CPUs.
		noise.QuilezStep(value, ddx, ddy, n, ndx, ndy, amp)
	case Ridged:
		aux = aux[:len(n)]
		if i == 0 {
			for c, v := range n {
				value[c], aux[c] = ridge(v), ridge(v)
			}
			return
		}
		for c, v := range n {
			value[c], aux[c] = ridgedStep(value[c], aux[c], amp, v)
		}
	case Billow:
		for c, v := range n {
			value[c] = billowStep(value[c], amp, v)
		}
	}
}

// rowRange returns the lowest and highest of hs, or NaN for both where any
// is NaN: the builtin min and max propagate NaN, so one check of the range
// finds a NaN or infinity anywhere in the map. They also order −0 below +0,
// which makes them associative and commutative, so four independent
// running minima (which do not wait on each other) give the same bits as
// one.
func rowRange(hs []float32) (lo, hi float32) {
	if len(hs) == 0 {
		return 0, 0
	}
	lo0, lo1, lo2, lo3 := hs[0], hs[0], hs[0], hs[0]
	hi0, hi1, hi2, hi3 := lo0, lo0, lo0, lo0
	k := 0
	for ; k+4 <= len(hs); k += 4 {
		q := hs[k : k+4 : k+4]
		lo0, hi0 = min(lo0, q[0]), max(hi0, q[0])
		lo1, hi1 = min(lo1, q[1]), max(hi1, q[1])
		lo2, hi2 = min(lo2, q[2]), max(hi2, q[2])
		lo3, hi3 = min(lo3, q[3]), max(hi3, q[3])
	}
	for ; k < len(hs); k++ {
		lo0, hi0 = min(lo0, hs[k]), max(hi0, hs[k])
	}
	return min(lo0, lo1, lo2, lo3), max(hi0, hi1, hi2, hi3)
}

// columnCoords returns, per octave, the x coordinate of every column,
// computed exactly as sampleReference computes it (col·freq + gridOffset,
// then ×λ per octave) so both paths see the same bits.
func (s *synthesis) columnCoords(w int) [][]float64 {
	cols := make([][]float64, len(s.octaves))
	x := make([]float64, w)
	for c := range x {
		x[c] = float64(float64((s.col0+c)*s.stride)*s.freq) + gridOffset
	}
	for i := range cols {
		if i > 0 {
			for c := range x {
				x[c] *= s.lacunarity
			}
		}
		cols[i] = append([]float64(nil), x...)
	}
	return cols
}

// fusedFolds are the algorithms whose octaves noise.FBm folds in one pass
// along a row, by the same steps as fbmStep, heteroStep and hybridStep.
var fusedFolds = map[Algorithm]noise.Fold{FBm: noise.FoldFBm, Hetero: noise.FoldHetero, Hybrid: noise.FoldHybrid}

// scratchPool returns a pool of workers' buffers for fastRow on rows of w
// samples. Without distortion it first makes each octave's noise.Grid for
// the rows' column coordinates, shared by every worker's GridRows.
func (s *synthesis) scratchPool(w int) *sync.Pool {
	var grids []*noise.Grid
	if s.alpha == 0 {
		for i, xs := range s.columnCoords(w) {
			if s.alg == Swiss && i > 0 { // only octave 0 of Swiss turbulence lies on the grid
				break
			}
			grids = append(grids, noise.NewGrid(s.octaves[i], xs))
		}
	}
	return &sync.Pool{New: func() any {
		if fold, ok := fusedFolds[s.alg]; ok && grids != nil && s.tin == PlainBasis { // fused rows need no row buffers
			return &rowScratch{fbm: noise.NewMultifractal(grids, s.amps, fold, s.offset), octaveYs: make([]float64, len(grids))}
		}
		if grids != nil && s.alg == Quilez && s.tin == PlainBasis {
			return &rowScratch{quilez: noise.NewQuilez(grids, s.amps), octaveYs: make([]float64, len(grids))}
		}
		// The rows lie pitch apart in one buffer: a multiple of 4 KiB and
		// 200 bytes more, so that the same sample's entries in the 11 rows
		// lie 200 bytes apart modulo 4 KiB and never alias there, where the
		// CPU would take a load from one row for a store to another (4K
		// aliasing) and stall the vector loops.
		pitch := (w+511)/512*512 + 25
		b := make([]float64, 11*pitch)
		row := func(k int) []float64 { return b[k*pitch : k*pitch+w : k*pitch+w] }
		sc := &rowScratch{xs: row(0), ys: row(1), n: row(2), ndx: row(3), ndy: row(4),
			value: row(5), aux: row(6), ddx: row(7), ddy: row(8), px: row(9), py: row(10)}
		for _, g := range grids {
			sc.rows = append(sc.rows, g.Rows())
		}
		return sc
	}}
}

// fractalRaw runs fractal synthesis on all cores with the fast path and
// returns the raw (unnormalised) heights of every stride-th sample of the
// p.Size² map: exactly the values the full map has there.
func fractalRaw(ctx context.Context, p Params, stride int, progress Progress, base, span float64) (*Heightmap, error) {
	m, _, _, err := fractalRanged(ctx, p, stride, progress, base, span)
	return m, err
}

// fractalRanged is fractalRaw that also returns the lowest and highest raw
// height, found as the rows are written (NaN if any height is NaN).
func fractalRanged(ctx context.Context, p Params, stride int, progress Progress, base, span float64) (m *Heightmap, lo, hi float32, err error) {
	s, err := newSynthesis(p)
	if err != nil {
		return nil, 0, 0, err
	}
	s.stride = stride
	w := (p.Size-1)/stride + 1
	m = NewHeightmap(w, w)
	pool := s.scratchPool(w)
	rowLo, rowHi := make([]float32, w), make([]float32, w)
	err = parallel.Rows(ctx, w, progress, base, span, func(row int) {
		sc := pool.Get().(*rowScratch)
		rowLo[row], rowHi[row] = s.fastRow(row, sc, m.Samples[row*w:(row+1)*w])
		pool.Put(sc)
	})
	if err != nil {
		return nil, 0, 0, err
	}
	lo, _ = rowRange(rowLo)
	_, hi = rowRange(rowHi)
	return m, lo, hi, nil
}

// fractalReference is the oracle: one goroutine, one point evaluation per
// sample and octave.
func fractalReference(ctx context.Context, p Params) (*Heightmap, error) {
	s, err := newSynthesis(p)
	if err != nil {
		return nil, err
	}
	m := NewHeightmap(p.Size, p.Size)
	for row := 0; row < p.Size; row++ {
		if row%parallel.RowBlock == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		for col := 0; col < p.Size; col++ {
			m.Set(col, row, float32(s.sampleReference(col, row)))
		}
	}
	return m, nil
}
