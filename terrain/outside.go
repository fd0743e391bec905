package terrain

import (
	"context"
	"errors"
	"fmt"
	"math"

	"cordillera/terrain/beyond"
)

// ErrNoOutside is returned for maps whose generator defines no heights
// beyond the map: the subdivision algorithms.
var ErrNoOutside = errors.New("terrain: only the noise generators continue beyond the map")

// Outside is the world beyond the map: package beyond's Land, under the
// name the explorer uses. Noise synthesis defines a height at every
// point of the plane, not only on the map's square, so the explorer can
// show the same land continuing to the horizon: the same bases, octaves,
// sample coordinates (col·stride·freq + gridOffset, domain distortion
// included) and the same final mapping as the map — onto [0, 1] by the
// map's raw range, the post-effect, the amplitude — evaluated on a coarse
// grid around the map (NewOutside). The map's square stays the part that
// is edited and exported; the outside is only drawn. Subdivision
// generators have no such function (every sample depends on the whole
// map's coarser levels); maps that are no noise function get land
// synthesised from the map itself (NewOutsideOf).
type Outside = beyond.Land

// The sides of a cell of an Outside.
const (
	SideNone  = beyond.SideNone
	SideNorth = beyond.SideNorth
	SideSouth = beyond.SideSouth
	SideWest  = beyond.SideWest
	SideEast  = beyond.SideEast
)

// FanTriangles calls tri for each triangle of a cell of an Outside drawn
// as a fan (beyond.FanTriangles).
func FanTriangles(n int, tri func(a, b, c int)) { beyond.FanTriangles(n, tri) }

// NewOutside evaluates the world beyond m, the map Generate or
// GeneratePreview made from p (before any erosion or route: those change
// the map but not the noise, so the two would no longer meet), on rings
// of cells reaching beyond.Reach map widths beyond each edge. At the
// map's edge its heights are the map's own.
func NewOutside(ctx context.Context, p Params, m *Heightmap) (*Outside, error) {
	return NewOutsideReaching(ctx, p, m, 0)
}

// NewOutsideReaching is NewOutside with the rings reaching at least
// minReach world units beyond each edge: far enough, for a map a few
// kilometres wide, for the land to go on to the horizon.
func NewOutsideReaching(ctx context.Context, p Params, m *Heightmap, minReach float64) (*Outside, error) {
	if p.Algorithm.IsSubdivision() {
		return nil, ErrNoOutside
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	stride := int(math.Round(m.CellSize / p.CellSize))
	if stride < 1 || m.Width != (p.Size-1)/stride+1 || m.Height != m.Width || len(m.Samples) != m.Width*m.Height {
		return nil, fmt.Errorf("terrain: a %d×%d map of cell size %g is not one %s made at %d² and cell size %g",
			m.Width, m.Height, m.CellSize, p.Algorithm, p.Size, p.CellSize)
	}
	f, err := newHeightField(p, m, stride)
	if err != nil {
		return nil, err
	}
	return NewOutsideOf(ctx, m, minReach, f.height)
}

// NewOutsideOf lays the rings round m, reaching beyond.Reach map widths
// and at least minReach world units beyond each edge, with the heights
// (in the map's units, 0 … 1 on a normalised map) that height gives at
// any sample position; on the map's edge it must give the map's own
// samples. It is how maps that are no noise function (loaded files,
// routes, eroded or subdivided maps) get land beyond them: height then
// synthesises it from the map itself.
func NewOutsideOf(ctx context.Context, m *Heightmap, minReach float64, height func(col, row int) float64) (*Outside, error) {
	if m.Width < 2 || m.Height < 2 || len(m.Samples) != m.Width*m.Height {
		return nil, fmt.Errorf("terrain: a %d×%d map has no outside", m.Width, m.Height)
	}
	return beyond.New(ctx, m.Width, m.Height, m.CellSize, m.VerticalScale, minReach, height)
}

// heightField is the finished map's height as a function of any sample
// position, inside the map or beyond it.
type heightField struct {
	s      *synthesis
	lo, hi float32 // the map's raw range
	curve  func(float64) float64
}

// newHeightField recovers the map's normalisation from m itself:
// rescale sends the raw minimum to exactly 0 and the maximum to exactly
// 1, and every post-effect keeps 0 and 1, so the raw heights at m's
// lowest and highest samples are the raw range Generate used.
func newHeightField(p Params, m *Heightmap, stride int) (*heightField, error) {
	s, err := newSynthesis(p)
	if err != nil {
		return nil, err
	}
	s.stride = stride
	lo, hi := 0, 0
	for k, v := range m.Samples {
		if v < m.Samples[lo] {
			lo = k
		}
		if v > m.Samples[hi] {
			hi = k
		}
	}
	f := &heightField{s: s, curve: EffectCurve(p.Effect, p.Intensity/100)}
	if p.Effect == NoEffect || p.Effect == "" || p.Intensity == 0 {
		f.curve = nil
	}
	f.lo = float32(s.sampleReference(lo%m.Width, lo/m.Width))
	f.hi = float32(s.sampleReference(hi%m.Width, hi/m.Width))
	return f, nil
}

// height is the finished height (0 … 1 on the map) at sample (col, row)
// of the map, which may lie outside it: the raw synthesis, then what
// rescale and applyEffect do to every sample of the map.
func (f *heightField) height(col, row int) float64 {
	raw := float32(f.s.sampleReference(col, row))
	span := float64(f.hi) - float64(f.lo)
	t := float32(0)
	if span != 0 {
		t = float32((float64(raw) - float64(f.lo)) / span)
	}
	if f.curve != nil {
		t = float32(f.curve(float64(t)))
	}
	return float64(t)
}
