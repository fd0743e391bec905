package terrain

import (
	"context"
	"fmt"
	"math"

	"cordillera/internal/parallel"
)

// Overview is the map with a margin of the land beyond it around it, on
// one even grid: what the explorer's minimap shows when the noise goes on
// past the map's square (outside.go). Its samples are every Step-th sample
// of the map's own grid, extended beyond the map: sample (i, j) of Map
// lies at map sample (Origin + i·Step, Origin + j·Step), so the map's
// square spans Map's samples Margin … Margin + (W−1)/Step on both axes
// (a fraction of a sample short of the last where Step does not divide
// the map's W−1 cells).
type Overview struct {
	// Map holds the heights in the map's own units (0 … 1 on the map, a
	// little beyond that outside it), with CellSize the map's times Step
	// and the map's VerticalScale, so a shaded relief of it colours and
	// shades as one of the map does.
	Map *Heightmap
	// Step is the spacing of Map's samples in map samples.
	Step int
	// Margin is the number of Map's samples before the map's first one
	// (and after its last) on each axis.
	Margin int
	// Origin is the map sample column (and row) of Map's first sample:
	// −Margin·Step.
	Origin int
}

// Corner is the world x (and z) of Map's first sample: the overview's
// north-west corner, west and north of the map's own at (0, 0).
func (o *Overview) Corner(m *Heightmap) float64 {
	return float64(o.Origin) * m.CellSize
}

// NewOverview evaluates the map m made from p (by Generate or
// GeneratePreview, before any erosion or route, as for NewOutside) and
// the noise around it, margin (a share of the map's side, at least 0)
// beyond each edge, on a grid of at least side cells across the map: its
// step is the largest divisor of the map's W−1 cells that gives that many
// and no more than twice as many, so that the map's last column lies on
// the grid too; where W−1 has no such divisor (a prime, say) the step is
// the largest that gives side cells, and the grid goes on past the
// map's last column to its next line. Samples on the map are copied from
// m, so they equal the map's exactly; those beyond it are the height
// function NewOutside evaluates, point by point on all cores. Cancelled
// by ctx.
func NewOverview(ctx context.Context, p Params, m *Heightmap, margin float64, side int) (*Overview, error) {
	if !(margin >= 0) || side < 1 {
		return nil, fmt.Errorf("terrain: overview margin %g and side %d: want a margin ≥ 0 and a side ≥ 1", margin, side)
	}
	f, err := continuedField(p, m)
	if err != nil {
		return nil, err
	}
	cells := m.Width - 1
	step := max(cells/side, 1)
	for d := 1; d <= cells; d++ {
		if cells%d == 0 && cells/d >= side && cells/d <= 2*side {
			step = d
		}
	}
	across := (cells + step - 1) / step
	mc := int(math.Round(margin * float64(cells) / float64(step)))
	n := across + 2*mc + 1
	o := &Overview{Map: NewHeightmap(n, n), Step: step, Margin: mc, Origin: -mc * step}
	o.Map.CellSize = m.CellSize * float64(step)
	o.Map.VerticalScale = m.VerticalScale
	last := m.Width - 1
	err = parallel.Rows(ctx, n, nil, 0, 0, func(j int) {
		row := o.Origin + j*step
		out := o.Map.Samples[j*n : (j+1)*n]
		for i := range out {
			col := o.Origin + i*step
			if col >= 0 && col <= last && row >= 0 && row <= last {
				out[i] = m.At(col, row)
			} else {
				out[i] = float32(f.height(col, row))
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return o, nil
}

// continuedField is the height function of m, made from p, beyond the
// map, after the checks NewOutside makes: only the noise generators have
// one, and only for the map they made (a preview's stride included).
func continuedField(p Params, m *Heightmap) (*heightField, error) {
	if p.Algorithm.IsSubdivision() {
		return nil, ErrNoOutside
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	stride := int(math.Round(m.CellSize / p.CellSize))
	if stride < 1 || m.Width < 2 || m.Width != (p.Size-1)/stride+1 || m.Height != m.Width || len(m.Samples) != m.Width*m.Height {
		return nil, fmt.Errorf("terrain: a %d×%d map of cell size %g is not one %s made at %d² and cell size %g",
			m.Width, m.Height, m.CellSize, p.Algorithm, p.Size, p.CellSize)
	}
	return newHeightField(p, m, stride)
}
