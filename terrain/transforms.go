package terrain

import (
	"context"
	"math"

	"cordillera/internal/parallel"
)

// Bias is Schlick's bias function, thesis eq. 6.3:
// bias_b(t) = t^(log b / log ½). It fixes 0 and 1 and maps ½ to b.
func Bias(b, t float64) float64 {
	if t <= 0 {
		return 0
	}
	return math.Pow(t, math.Log(b)/math.Log(0.5))
}

// Gain is Schlick's gain function, thesis eq. 6.4: bias on each half,
// mirrored, so it fixes 0, ½ and 1 and steepens (g > ½) the middle.
func Gain(g, t float64) float64 {
	if t < 0.5 {
		return Bias(1-g, 2*t) / 2
	}
	return 1 - Bias(1-g, 2-2*t)/2
}

// PlateauGain is the thesis's two-sided variant of gain, eq. 6.5: the lower
// half flattens the lowlands as gain does, the upper half flattens the
// heights towards ½, leaving plateaus at middle elevation.
func PlateauGain(g, t float64) float64 {
	if t < 0.5 {
		return Bias(1-g, 2*t) / 2
	}
	return 1 - Bias(g, 2-2*t)/2
}

// EffectCurve returns the post-effect T_post as a function of the
// normalised height, for intensity s in [0, 1). The thesis gives only the
// parameters' ranges, b ∈ [0, ½] for glacier and g ∈ [½, 1] for canyon and
// plateau, and that ½ has no effect. The linear mapping is ours:
// b = ½ − s/2 ∈ (0, ½], g = ½ + s/2 ∈ [½, 1), so s = 0 is the identity in
// every case and the strength grows evenly with s, stopping short of the
// ends (b = 0, g = 1), where the curves degenerate into steps.
func EffectCurve(e Effect, s float64) func(t float64) float64 {
	switch e {
	case Glacier:
		b := 0.5 - s/2
		return func(t float64) float64 { return Bias(b, t) }
	case Canyon:
		g := 0.5 + s/2
		return func(t float64) float64 { return Gain(g, t) }
	case Plateau:
		g := 0.5 + s/2
		return func(t float64) float64 { return PlateauGain(g, t) }
	}
	return func(t float64) float64 { return t }
}

// applyEffect runs the post-effect over a normalised map in place.
func applyEffect(ctx context.Context, m *Heightmap, e Effect, intensity float64, progress Progress, base, span float64) error {
	if e == NoEffect || e == "" || intensity == 0 {
		return nil
	}
	curve := EffectCurve(e, intensity/100)
	return parallel.Rows(ctx, m.Height, progress, base, span, func(row int) {
		line := m.Samples[row*m.Width : (row+1)*m.Width]
		for i, v := range line {
			line[i] = float32(curve(float64(v)))
		}
	})
}

// distortMap applies the domain distortion T_pre (thesis eq. 6.2) to a map
// that was not made by noise synthesis — a subdivision map — by resampling
// it bilinearly at (x + α·N₁, y + α·N₂), with N₁ and N₂ two basis noises of
// distinct seeds at the feature scale and the displacement in feature units.
func distortMap(ctx context.Context, src *Heightmap, p Params, progress Progress, base, span float64) (*Heightmap, error) {
	n1, err := plainBasis(p, octaveSeed(p.Seed, -1))
	if err != nil {
		return nil, err
	}
	n2, err := plainBasis(p, octaveSeed(p.Seed, -2))
	if err != nil {
		return nil, err
	}
	period := featurePeriod(src.Width, p.FeatureSize)
	alpha := p.Distortion / 100
	dst := *src
	dst.Samples = make([]float32, len(src.Samples))
	err = parallel.Rows(ctx, src.Height, progress, base, span, func(row int) {
		for col := 0; col < src.Width; col++ {
			x, y := float64(col)/period, float64(row)/period
			sx := (x + alpha*n1.Value(x, y)) * period
			sy := (y + alpha*n2.Value(x, y)) * period
			dst.Samples[row*src.Width+col] = float32(src.Bilinear(sx, sy))
		}
	})
	if err != nil {
		return nil, err
	}
	return &dst, nil
}

// Bilinear returns the height at fractional sample coordinates (x = column,
// y = row), interpolating the four surrounding samples; points outside the
// map take the nearest edge value.
func (m *Heightmap) Bilinear(x, y float64) float64 {
	x = min(max(x, 0), float64(m.Width-1))
	y = min(max(y, 0), float64(m.Height-1))
	x0, y0 := int(x), int(y)
	x1, y1 := min(x0+1, m.Width-1), min(y0+1, m.Height-1)
	fx, fy := x-float64(x0), y-float64(y0)
	a := float64(m.At(x0, y0)) + fx*(float64(m.At(x1, y0))-float64(m.At(x0, y0)))
	b := float64(m.At(x0, y1)) + fx*(float64(m.At(x1, y1))-float64(m.At(x0, y1)))
	return a + fy*(b-a)
}
