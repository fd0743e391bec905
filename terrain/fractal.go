package terrain

import (
	"context"
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
// gradient pushes the sample point of later octaves.
const swissWarp = 0.15

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
	for i := 0; i < p.Octaves; i++ {
		b, err := noise.New(p.Basis, octaveSeed(p.Seed, i))
		if err != nil {
			return nil, err
		}
		s.octaves = append(s.octaves, b)
		s.amps = append(s.amps, math.Pow(p.Lacunarity, -float64(i)*p.Hurst))
	}
	if s.alpha > 0 {
		var err error
		if s.warpX, err = noise.New(p.Basis, octaveSeed(p.Seed, -1)); err != nil {
			return nil, err
		}
		if s.warpY, err = noise.New(p.Basis, octaveSeed(p.Seed, -2)); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// needsGradient reports whether the algorithm reads the basis gradient.
func (s *synthesis) needsGradient() bool { return s.alg == Quilez || s.alg == Swiss }

// point returns the first-octave coordinates of sample (col, row), after the
// domain distortion T_pre of thesis eq. 6.2 when α > 0.
func (s *synthesis) point(col, row int) (x, y float64) {
	x, y = float64(float64(col*s.stride)*s.freq)+gridOffset, float64(float64(row*s.stride)*s.freq)+gridOffset
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
// damped by the height so far, which carves eroded-looking gullies. It is
// point-wise by nature (each octave's sample point depends on the previous
// ones), so the reference and the fast path both call it.
func (s *synthesis) swiss(x, y float64) float64 {
	sum, amp, freq := 0.0, 1.0, 1.0
	var dsx, dsy float64
	for _, b := range s.octaves {
		n, dx, dy := b.Eval((x+float64(swissWarp*dsx))*freq, (y+float64(swissWarp*dsy))*freq)
		if s.tin != PlainBasis {
			n, dx, dy = s.tin.apply(n, dx, dy)
		}
		sum += float64(amp * (1 - math.Abs(n)))
		dsx += float64(amp * dx * -n)
		dsy += float64(amp * dy * -n)
		freq *= s.lacunarity
		amp *= s.gain * min(max(sum, 0), 1)
	}
	return sum
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
	n, ndx, ndy []float64 // the octave's noise and gradient along the row
	value, aux  []float64 // running state per sample
	ddx, ddy    []float64
}

// fastRow evaluates one row octave by octave with the grid-aware row forms
// of the basis (lattice work done once per cell, not once per sample), then
// folds each octave into every sample with the same step functions as
// sampleReference. Without domain distortion all rows share one set of
// column coordinates per octave, precomputed in cols.
func (s *synthesis) fastRow(row int, cols [][]float64, sc *rowScratch, out []float32) {
	w := len(out)
	if s.alg == Swiss {
		for col := 0; col < w; col++ {
			x, y := s.point(col, row)
			out[col] = float32(s.swiss(x, y))
		}
		return
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
	if distorted {
		for col := 0; col < w; col++ {
			xs[col], ys[col] = s.point(col, row)
		}
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
			b.EvalRow(cols[i], y, n, ndx, ndy)
		case !distorted:
			b.ValueRow(cols[i], y, n)
		case s.needsGradient():
			for col := range xs {
				n[col], ndx[col], ndy[col] = b.Eval(xs[col], ys[col])
			}
		default:
			for col := range xs {
				n[col] = b.Value(xs[col], ys[col])
			}
		}
		if s.tin != PlainBasis {
			for c := range n {
				n[c], ndx[c], ndy[c] = s.tin.apply(n[c], ndx[c], ndy[c])
			}
		}
		amp := s.amps[i]
		switch s.alg {
		case FBm:
			for c := range value {
				value[c] = fbmStep(value[c], amp, n[c])
			}
		case Hetero:
			for c := range value {
				if i == 0 {
					value[c] = n[c] + s.offset
				} else {
					value[c] = heteroStep(value[c], amp, n[c], s.offset)
				}
			}
		case Hybrid:
			for c := range value {
				if i == 0 {
					value[c], aux[c] = n[c]+s.offset, n[c]+s.offset
				} else {
					value[c], aux[c] = hybridStep(value[c], aux[c], amp, n[c], s.offset)
				}
			}
		case Quilez:
			for c := range value {
				value[c], ddx[c], ddy[c] = quilezStep(value[c], ddx[c], ddy[c], amp, n[c], ndx[c], ndy[c])
			}
		case Ridged:
			for c := range value {
				if i == 0 {
					value[c], aux[c] = ridge(n[c]), ridge(n[c])
				} else {
					value[c], aux[c] = ridgedStep(value[c], aux[c], amp, n[c])
				}
			}
		case Billow:
			for c := range value {
				value[c] = billowStep(value[c], amp, n[c])
			}
		}
	}
	for c, v := range value {
		out[c] = float32(v)
	}
}

// columnCoords returns, per octave, the x coordinate of every column,
// computed exactly as sampleReference computes it (col·freq + gridOffset,
// then ×λ per octave) so both paths see the same bits.
func (s *synthesis) columnCoords(w int) [][]float64 {
	cols := make([][]float64, len(s.octaves))
	x := make([]float64, w)
	for c := range x {
		x[c] = float64(float64(c*s.stride)*s.freq) + gridOffset
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

// fractalRaw runs fractal synthesis on all cores with the fast path and
// returns the raw (unnormalised) heights of every stride-th sample of the
// p.Size² map: exactly the values the full map has there.
func fractalRaw(ctx context.Context, p Params, stride int, progress Progress, base, span float64) (*Heightmap, error) {
	s, err := newSynthesis(p)
	if err != nil {
		return nil, err
	}
	s.stride = stride
	w := (p.Size-1)/stride + 1
	m := NewHeightmap(w, w)
	var cols [][]float64
	if s.alpha == 0 {
		cols = s.columnCoords(w)
	}
	pool := sync.Pool{New: func() any {
		b := make([]float64, 9*w)
		return &rowScratch{xs: b[:w], ys: b[w : 2*w], n: b[2*w : 3*w], ndx: b[3*w : 4*w], ndy: b[4*w : 5*w],
			value: b[5*w : 6*w], aux: b[6*w : 7*w], ddx: b[7*w : 8*w], ddy: b[8*w : 9*w]}
	}}
	err = parallel.Rows(ctx, w, progress, base, span, func(row int) {
		sc := pool.Get().(*rowScratch)
		s.fastRow(row, cols, sc, m.Samples[row*w:(row+1)*w])
		pool.Put(sc)
	})
	if err != nil {
		return nil, err
	}
	return m, nil
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
