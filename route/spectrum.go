package route

import (
	"context"
	"cordillera/internal/parallel"
	"cordillera/route/internal/corridor"
	"math"
)

// The random part of the route terrain as a spectrum. The solved map is
// linear in the random lattice r (routeTerrain):
//
//	z0 + K(e − z0) + Σ_p w_p·(r_p − Aᵀ(AAᵀ)⁻¹A r_p)
//
// where r_p holds level p's random values and nothing else (the finest
// levels share the last part when there are more than maxSpectrumParts).
// Every projected part vanishes at the solved points, so any weights w_p
// meet them exactly; the weights w_p = A·β^p damp the fine levels, which
// are as steep per metre of amplitude as the coarse ones are high
// (paper 002's turbulence has H = 1: level n is 2ⁿ times finer and 2ⁿ
// times lower), by the falloff β, while the coarse levels keep the range.

// maxSpectrumParts bounds the separately weighted parts: each is a whole
// lattice while the weights are chosen.
const maxSpectrumParts = 8

// spectrumPart is the part a level's random values go into.
func spectrumPart(n, parts int) int { return min(n, parts-1) }

// spectrum is the route terrain's interpolant and its random parts, read
// at the points the relief rule is judged on: a grid for the range and,
// for the slopes, the four neighbours of every point of a second grid
// (central differences).
type spectrum struct {
	interp []float64   // K(e − z0) as soften leaves it, metres, at every evaluation point
	parts  [][]float64 // projected random part p, units of T, at the same points
	nRange int         // the first nRange points are the range grid; then 4 per slope point
}

// newSpectrum evaluates the interpolant shape (metres, then passed
// through soften) and the parts at the evaluation points of a size² map:
// the range on a grid of at most rangeGrid² samples, the slopes at
// slopeGrid² samples (the rule's slopes were read so before the parts).
func newSpectrum(ctx context.Context, size int, shape *turbulence, parts []*turbulence, soften func(float64) float64) (*spectrum, error) {
	const rangeGrid, slopeGrid = 128, 128
	var xs, ys []float64
	step := max(1, (size-1)/rangeGrid)
	for y := 0; y < size; y += step {
		for x := 0; x < size; x += step {
			xs, ys = append(xs, float64(x)), append(ys, float64(y))
		}
	}
	s := &spectrum{nRange: len(xs)}
	step = max(1, (size-1)/slopeGrid)
	for y := step; y < size-1; y += step {
		for x := step; x < size-1; x += step {
			fx, fy := float64(x), float64(y)
			xs = append(xs, fx+1, fx-1, fx, fx)
			ys = append(ys, fy, fy, fy+1, fy-1)
		}
	}
	fields := append([]*turbulence{shape}, parts...)
	out := make([][]float64, len(fields))
	for f := range out {
		out[f] = make([]float64, len(xs))
	}
	const block = 1024
	err := parallel.Rows(ctx, (len(xs)+block-1)/block, nil, 0, 0, func(b int) {
		for i := b * block; i < min((b+1)*block, len(xs)); i++ {
			// turbulence.at for every field, the cell found once per level.
			for n := range shape.levels {
				ci, wx0, wx1 := shape.locate(n, xs[i])
				cj, wy0, wy1 := shape.locate(n, ys[i])
				side := cells(n) + 1
				k := cj*side + ci
				a := amplitude(n)
				for f, t := range fields {
					v := t.values[n]
					out[f][i] += a * (wy0*(wx0*v[k]+wx1*v[k+1]) + wy1*(wx0*v[k+side]+wx1*v[k+side+1]))
				}
			}
		}
	})
	if err != nil {
		return nil, err
	}
	for i, v := range out[0] {
		out[0][i] = soften(v)
	}
	s.interp, s.parts = out[0], out[1:]
	return s, nil
}

// heights fills h with the map in metres above z0 at every evaluation
// point for the weights w_p = a·β^p.
func (s *spectrum) heights(h []float64, a, beta float64) {
	copy(h, s.interp)
	w := a
	for _, part := range s.parts {
		for i, v := range part {
			h[i] += w * v
		}
		w *= beta
	}
}

// rangeAndSlope returns the height range over the range grid of heights h
// (metres above z0), and the reliefSlopeQuant-th percentile of the slope
// over the slope points once soften has squashed them, with scratch for
// the slopes. h's slope points are squashed in place.
func (s *spectrum) rangeAndSlope(h, scratch []float64, b *reliefBounds, z0 float64) (rng, slope float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range h[:s.nRange] {
		lo, hi = min(lo, v), max(hi, v)
	}
	nb := h[s.nRange:]
	for i, v := range nb {
		nb[i] = b.squash(z0+v) - z0
	}
	scratch = scratch[:0]
	for i := 0; i+3 < len(nb); i += 4 {
		scratch = append(scratch, math.Hypot(nb[i]-nb[i+1], nb[i+2]-nb[i+3])/2/b.cellSize)
	}
	if len(scratch) == 0 {
		return hi - lo, 0
	}
	return hi - lo, corridor.Percentile(scratch, reliefSlopeQuant)
}
