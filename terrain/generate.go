package terrain

import (
	"context"
	"fmt"

	"cordillera/internal/parallel"
	"cordillera/noise"
)

// Generate makes the heightmap p describes: the raw surface of p.Algorithm
// (with the domain distortion of p.Distortion), normalised to [0, 1], then
// shaped by the post-effect p.Effect (thesis ch. 6.1–6.2). It uses all cores,
// reports progress in [0, 1], and returns ctx.Err() soon after ctx is done.
func Generate(ctx context.Context, p Params, progress Progress) (*Heightmap, error) {
	return generate(ctx, p, 1, progress, false)
}

// PreviewStride is the sample spacing GeneratePreview uses for a map of
// side size so that the preview has at most maxSide samples per side; 1
// means no preview is worth making.
func PreviewStride(p Params, maxSide int) int {
	if p.Algorithm.IsSubdivision() { // fast enough to make in full at once
		return 1
	}
	stride := 1
	for (p.Size-1)/stride+1 > maxSide {
		stride *= 2
	}
	return stride
}

// GeneratePreview makes a coarse version of the map p describes: every
// stride-th sample of it, evaluated exactly (not resampled), normalised and
// shaped by the post-effect on its own range, with the cell size scaled so
// that it covers the same world. Subdivision maps are made in full.
func GeneratePreview(ctx context.Context, p Params, stride int, progress Progress) (*Heightmap, error) {
	if p.Algorithm.IsSubdivision() {
		stride = 1
	}
	return generate(ctx, p, max(stride, 1), progress, false)
}

// GenerateReference is Generate done the straightforward way: fractal
// synthesis point by point on one goroutine. It exists as the oracle the
// fast path is tested and benchmarked against; its output is identical.
func GenerateReference(ctx context.Context, p Params) (*Heightmap, error) {
	return generate(ctx, p, 1, nil, true)
}

func generate(ctx context.Context, p Params, stride int, progress Progress, reference bool) (*Heightmap, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if _, _, err := tileableLattice(p); err != nil {
		return nil, err
	}
	report := func(f float64) {
		if progress != nil {
			progress(f)
		}
	}
	report(0)
	var m *Heightmap
	var err error
	var lo, hi float32 // the raw range, where the generator found it
	ranged := false
	sub := parallel.Range(progress, 0, 0.85)
	switch {
	case p.Algorithm == Midpoint:
		m, err = MidpointDisplacement(ctx, p, sub)
	case p.Algorithm == MidpointRecursive:
		m, err = MidpointDisplacementRecursive(ctx, p, sub)
	case p.Algorithm == DiamondSquareAlg:
		m, err = DiamondSquare(ctx, p, sub)
	case reference:
		m, err = fractalReference(ctx, p)
	default:
		m, lo, hi, err = fractalRanged(ctx, p, stride, progress, 0, 0.85)
		ranged = true
	}
	if err != nil {
		return nil, err
	}
	if p.Algorithm.IsSubdivision() && p.Distortion > 0 {
		if m, err = distortMap(ctx, m, p, progress, 0.85, 0.05); err != nil {
			return nil, err
		}
	}
	if ranged {
		err = rescale(ctx, m, p, lo, hi)
	} else {
		err = normalize(ctx, m, p)
	}
	if err != nil {
		return nil, err
	}
	if err := applyEffect(ctx, m, p.Effect, p.Intensity, progress, 0.9, 0.1); err != nil {
		return nil, err
	}
	m.CellSize = p.CellSize * float64(stride)
	m.VerticalScale = p.Amplitude
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	report(1)
	return m, nil
}

// normalize rescales the raw heights of m onto [0, 1] by their own range.
func normalize(ctx context.Context, m *Heightmap, p Params) error {
	lo, hi, err := heightRange(ctx, m)
	if err != nil {
		return err
	}
	return rescale(ctx, m, p, lo, hi)
}

// heightRange returns the lowest and highest raw height of m, found on all
// cores; both are NaN where any height is NaN (the builtin min and max
// propagate it), so rescale's one check of the range finds any non-finite
// height.
func heightRange(ctx context.Context, m *Heightmap) (lo, hi float32, err error) {
	rowLo := make([]float32, m.Height)
	rowHi := make([]float32, m.Height)
	err = parallel.Rows(ctx, m.Height, nil, 0, 0, func(row int) {
		rowLo[row], rowHi[row] = rowRange(m.Samples[row*m.Width : (row+1)*m.Width])
	})
	if err != nil {
		return 0, 0, err
	}
	lo, _ = rowRange(rowLo)
	_, hi = rowRange(rowHi)
	return lo, hi, nil
}

// rescale maps the raw heights from [lo, hi], their range, onto [0, 1] on
// all cores (thesis 6.1: the generators' raw ranges differ widely). A
// non-finite range, possible when a multifractal diverges for extreme
// parameters, is an error that names the parameters to change.
func rescale(ctx context.Context, m *Heightmap, p Params, lo, hi float32) error {
	if lo-lo != 0 || hi-hi != 0 { // NaN or ±Inf
		return fmt.Errorf("%s diverged (heights overflow) with octaves %d, lacunarity %g, hurst %g, offset %g: lower the offset or the octaves, or raise hurst",
			p.Algorithm, p.Octaves, p.Lacunarity, p.Hurst, p.Offset)
	}
	span := float64(hi) - float64(lo)
	return parallel.Rows(ctx, m.Height, nil, 0, 0, func(row int) {
		line := m.Samples[row*m.Width : (row+1)*m.Width]
		if span == 0 {
			clear(line)
			return
		}
		// float32((float64(v) − lo) / span) per sample, several lanes at
		// a time where the CPU has vectors, bit for bit the scalar form.
		noise.Normalize32(line, float64(lo), span)
	})
}

// Describe is a one-line summary of a generation for logs and the CLI.
func (p Params) Describe() string {
	if p.Algorithm.IsSubdivision() {
		return fmt.Sprintf("%s %d² seed %d H %g corners %s", p.Algorithm, p.Size, p.Seed, p.Hurst, p.Corners)
	}
	basis := string(p.Basis)
	if p.BasisTransform != PlainBasis && p.BasisTransform != "" {
		basis += "+" + string(p.BasisTransform)
	}
	return fmt.Sprintf("%s/%s %d² seed %d feature %g%% octaves %d λ %g H %g", p.Algorithm, basis, p.Size, p.Seed, p.FeatureSize, p.Octaves, p.Lacunarity, p.Hurst)
}
