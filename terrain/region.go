package terrain

import (
	"context"
	"fmt"

	"cordillera/internal/parallel"
)

// Building a map region by region (tiled export of worlds larger than
// memory). Noise synthesis evaluates any sample on its own, so a region's
// raw heights are exactly the whole map's there; only the normalisation
// needs the whole map's range, which a first pass over the regions finds.
// Subdivision generators cannot work this way: every sample depends on the
// coarser levels of the whole map.

// CanGenerateRegions reports whether p's map can be made region by region:
// the fractal generators can, the subdivision generators cannot.
func CanGenerateRegions(p Params) bool { return !p.Algorithm.IsSubdivision() }

// MaxWorldSize caps the side of a map made region by region. MaxSize
// bounds a map held whole in memory; here only a region is held, so the
// side is bounded by what stays exact instead: sample indices times the
// frequency are exact float64 products far beyond it, and the tiles of a
// world this wide number in the thousands, not millions.
const MaxWorldSize = 1<<20 + 1

// ValidateRegions checks p as Validate does, but for a map made region by
// region: its side may exceed MaxSize, up to MaxWorldSize.
func ValidateRegions(p Params) error {
	if p.Size > MaxWorldSize {
		return fmt.Errorf("size %d: a map made region by region has at most %d samples per side", p.Size, MaxWorldSize)
	}
	q := p
	q.Size = min(q.Size, MaxSize) // the one range that bounds memory, which regions do not hold
	return q.Validate()
}

// FractalRegionRaw returns the raw heights, before normalisation, of the
// w×h samples whose top-left sample is (col0, row0) on the p.Size² map of a
// fractal generator: bit for bit the whole map's raw heights there. The
// map may be wider than MaxSize (ValidateRegions): only the region is made.
func FractalRegionRaw(ctx context.Context, p Params, col0, row0, w, h int) (*Heightmap, error) {
	if err := ValidateRegions(p); err != nil {
		return nil, err
	}
	if !CanGenerateRegions(p) {
		return nil, fmt.Errorf("%s cannot be generated region by region", p.Algorithm)
	}
	if col0 < 0 || row0 < 0 || w < 1 || h < 1 || col0+w > p.Size || row0+h > p.Size {
		return nil, fmt.Errorf("region %d×%d at (%d,%d) does not lie inside the %d² map", w, h, col0, row0, p.Size)
	}
	s, err := newSynthesis(p)
	if err != nil {
		return nil, err
	}
	s.col0 = col0
	m := NewHeightmap(w, h)
	pool := s.scratchPool(w) // after col0: the column tables start there
	err = parallel.Rows(ctx, h, nil, 0, 0, func(r int) {
		sc := pool.Get().(*rowScratch)
		s.fastRow(row0+r, sc, m.Samples[r*w:(r+1)*w])
		pool.Put(sc)
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// FinishRegion turns a region's raw heights into the finished map's: onto
// [0, 1] by the whole map's raw range lo–hi, then the post-effect, then
// the cell size and amplitude — what Generate does to the whole map, bit
// for bit.
func FinishRegion(ctx context.Context, m *Heightmap, p Params, lo, hi float32) error {
	span := float64(hi) - float64(lo)
	for i, v := range m.Samples {
		if v != v || v-v != 0 { // NaN or ±Inf
			return fmt.Errorf("%s diverged (heights overflow) with octaves %d, lacunarity %g, hurst %g, offset %g: lower the offset or the octaves, or raise hurst",
				p.Algorithm, p.Octaves, p.Lacunarity, p.Hurst, p.Offset)
		}
		if span == 0 {
			m.Samples[i] = 0
		} else {
			m.Samples[i] = float32((float64(v) - float64(lo)) / span)
		}
	}
	if err := applyEffect(ctx, m, p.Effect, p.Intensity, nil, 0, 0); err != nil {
		return err
	}
	m.CellSize, m.VerticalScale = p.CellSize, p.Amplitude
	return nil
}
