package world

import (
	"context"

	"cordillera/terrain"
	"cordillera/terrain/erosion"
)

// Thermal erosion by tiles. A thermal sweep is Jacobi-style: a sample's
// new height comes from its own and its 8 neighbours' heights before the
// sweep, by the same arithmetic in the same order wherever it lies
// (terrain/erosion), so after k sweeps a sample depends only on the
// samples within k of it (Chebyshev distance). A tile made with a halo of
// h ≥ k samples beyond each edge that is not the world's, and eroded on
// its own, has the whole map's eroded heights in the tile bit for bit:
// the halo's outer edge is closed (nothing crosses it), which changes the
// samples within k of that edge and no others. Where the tile meets the
// world's edge there is no halo, and the edge is closed in both.
//
// After erosion the whole map is normalised again onto [0, 1] by its new
// range, with the vertical scale stretched to keep metres (pipeline). That
// range is found like the raw one: a pass over every tile, eroded.

// eroding reports whether d's tiles are eroded.
func (d Description) eroding() bool { return d.Params.Erosion == terrain.ThermalErosion }

// erodedTile returns tile t of d normalised by the raw range and, with
// erosion, eroded with its halo and cut back to the tile; not yet
// normalised again.
func erodedTile(ctx context.Context, d Description, t Tile, raw Range) (*terrain.Heightmap, error) {
	p, h := d.Params, 0
	if d.eroding() {
		h = d.Halo
	}
	c0, r0 := max(t.Col-h, 0), max(t.Row-h, 0)
	c1, r1 := min(t.Col+d.Tile+h, p.Size), min(t.Row+d.Tile+h, p.Size)
	m, err := terrain.FractalRegionRaw(ctx, p, c0, r0, c1-c0, r1-r0)
	if err != nil {
		return nil, err
	}
	if err := terrain.FinishRegion(ctx, m, p, raw.Lo(), raw.Hi()); err != nil {
		return nil, err
	}
	if !d.eroding() {
		return m, nil
	}
	q := p
	q.Size = max(m.Width, m.Height) // the eroded map's side: within terrain.MaxSize (Validate)
	if _, err := erosion.Thermal(ctx, m, q, erosion.Options{}); err != nil {
		return nil, err
	}
	return crop(m, t.Col-c0, t.Row-r0, d.Tile), nil
}

// crop returns the n×n samples of m whose top-left sample is (col, row).
func crop(m *terrain.Heightmap, col, row, n int) *terrain.Heightmap {
	out := terrain.NewHeightmap(n, n)
	out.CellSize, out.VerticalScale = m.CellSize, m.VerticalScale
	for y := range n {
		copy(out.Samples[y*n:(y+1)*n], m.Samples[(row+y)*m.Width+col:])
	}
	return out
}

// renormalise maps an eroded tile onto [0, 1] by the eroded world's range
// lo–hi and stretches its vertical scale to keep metres: what pipeline
// does to the whole map after erosion, sample for sample.
func renormalise(m *terrain.Heightmap, lo, hi float32) {
	span := float64(hi) - float64(lo)
	if span == 0 {
		return
	}
	for i, v := range m.Samples {
		m.Samples[i] = float32((float64(v) - float64(lo)) / span)
	}
	m.VerticalScale *= span
}

// verticalScale is the metres from height 0 to 1 of d's finished tiles.
func (r Range) verticalScale(d Description) float64 {
	if r.Eroded == nil {
		return d.Params.Amplitude
	}
	span := r.Eroded.High - r.Eroded.Low
	if span == 0 {
		return d.Params.Amplitude
	}
	return d.Params.Amplitude * span
}
