package erosion

import (
	"context"
	"fmt"
	"math"
	"slices"

	"cordillera/terrain"
)

// Masks record where a run moved material, one value per sample.
//
//   - Flow is the drainage area in m² of the final map: the ground that
//     drains through each sample when water follows the steepest descent
//     (D8) after pits are filled (priority flood). Channels have large values.
//   - Eroded and Deposited are metres of ground removed and laid down,
//     summed over the stages: each stage's net lowering and raising of
//     every sample (for the fluvial stage, after its rescaling onto the
//     input's range).
type Masks struct {
	Width, Height int
	CellSize      float64 // metres between samples
	Flow          []float32
	Eroded        []float32
	Deposited     []float32
}

// MaskNames are the names Normalised accepts, in the order a viewer lists them.
var MaskNames = []string{"flow", "eroded", "deposited"}

// reset makes the masks n samples long and zero.
func (mk *Masks) reset(n int) {
	mk.Flow = resize(mk.Flow, n)
	mk.Eroded = resize(mk.Eroded, n)
	mk.Deposited = resize(mk.Deposited, n)
	clear(mk.Flow)
	clear(mk.Eroded)
	clear(mk.Deposited)
}

// ensure gives the masks the size of m, keeping their values if they
// already have it.
func (mk *Masks) ensure(m *terrain.Heightmap) {
	n := len(m.Samples)
	if mk.Width != m.Width || mk.Height != m.Height || len(mk.Eroded) != n || len(mk.Deposited) != n || len(mk.Flow) != n {
		mk.reset(n)
	}
	mk.Width, mk.Height, mk.CellSize = m.Width, m.Height, m.CellSize
}

func resize(s []float32, n int) []float32 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]float32, n)
}

// addNet adds the net change from m (before) to g (after) to Eroded and
// Deposited.
func (mk *Masks) addNet(g *grid, m *terrain.Heightmap) {
	vs := m.VerticalScale
	for i, z := range g.z {
		d := z - float64(m.Samples[i])*vs
		if d < 0 {
			mk.Eroded[i] += float32(-d)
		} else {
			mk.Deposited[i] += float32(d)
		}
	}
}

// fillFlow computes Flow for the map as it is now.
func (mk *Masks) fillFlow(ctx context.Context, m *terrain.Heightmap) error {
	mk.ensure(m)
	g := newGrid(m)
	net := newNetwork(g)
	if _, err := net.fill(ctx, g.z, nil); err != nil {
		return err
	}
	if _, err := net.route(ctx, g.z); err != nil {
		return err
	}
	net.accumulate()
	area := g.cellArea()
	for i, a := range net.area {
		mk.Flow[i] = float32(float64(a) * area)
	}
	return nil
}

// Normalised returns the named mask (one of MaskNames) as a heightmap in
// [0, 1] the size of the eroded map, for a 16-bit image: flow on a log
// scale from one cell's area to the largest, so that small channels show
// beside the trunk rivers; eroded and deposited linearly up to their
// 99.5th percentile of the non-zero values (above that, 1), so that a few
// deep cuts do not leave the rest black.
func (mk *Masks) Normalised(name string) (*terrain.Heightmap, error) {
	m, _, err := mk.NormalisedScale(name)
	return m, err
}

// MaskScale says what a normalised mask's samples stand for: Unit ("m2"
// for flow, "m" for eroded and deposited, as UCUM writes them), the values
// at 0 and at 1 (at 1 also every larger value, which the mask clamps), and
// whether the samples lie on a log scale between them (value =
// Zero·(One/Zero)^h) or a linear one (value = Zero + h·(One − Zero)). An
// empty mask has Zero = One.
type MaskScale struct {
	Unit      string
	Zero, One float64
	Log       bool
}

// NormalisedScale returns the named mask as Normalised does, with what
// its 0 and 1 stand for.
func (mk *Masks) NormalisedScale(name string) (*terrain.Heightmap, MaskScale, error) {
	var src []float32
	switch name {
	case "flow":
		src = mk.Flow
	case "eroded":
		src = mk.Eroded
	case "deposited":
		src = mk.Deposited
	default:
		return nil, MaskScale{}, fmt.Errorf("erosion mask %q: want one of flow, eroded, deposited", name)
	}
	if mk.Width <= 0 || mk.Height <= 0 || len(src) != mk.Width*mk.Height {
		return nil, MaskScale{}, fmt.Errorf("erosion mask %q: not filled (%d values for %d×%d)", name, len(src), mk.Width, mk.Height)
	}
	out := terrain.NewHeightmap(mk.Width, mk.Height)
	out.CellSize = mk.CellSize
	if name == "flow" {
		lo := mk.CellSize * mk.CellSize
		hi := float64(slices.Max(src))
		scale := MaskScale{Unit: "m2", Zero: lo, One: lo, Log: true}
		if hi > lo {
			scale.One = hi
			span := math.Log(hi / lo)
			for i, a := range src {
				out.Samples[i] = float32(math.Log(max(float64(a), lo)/lo) / span)
			}
		}
		return out, scale, nil
	}
	var nonZero []float32
	for _, v := range src {
		if v > 0 {
			nonZero = append(nonZero, v)
		}
	}
	if len(nonZero) == 0 {
		return out, MaskScale{Unit: "m"}, nil
	}
	slices.Sort(nonZero)
	top := float64(nonZero[min(len(nonZero)-1, int(0.995*float64(len(nonZero))))])
	for i, v := range src {
		out.Samples[i] = float32(min(1, float64(v)/top))
	}
	return out, MaskScale{Unit: "m", One: top}, nil
}

// single runs one stage on its own, as the exported per-process functions
// do: it checks the input, runs the stage and fills the flow mask.
func single(ctx context.Context, m *terrain.Heightmap, p terrain.Params, opt Options, stage func(context.Context, Options) (Budget, error)) (Budget, error) {
	if err := check(m, p); err != nil {
		return Budget{}, err
	}
	if opt.Masks != nil {
		opt.Masks.ensure(m)
	}
	b, err := stage(ctx, opt)
	if err != nil {
		return b, err
	}
	if opt.Masks != nil {
		if err := opt.Masks.fillFlow(ctx, m); err != nil {
			return b, err
		}
	}
	if opt.Progress != nil {
		opt.Progress(1)
	}
	return b, nil
}

// finishStage records a hydraulic or thermal stage's net change in the
// masks and writes the heights back into m.
func finishStage(g *grid, m *terrain.Heightmap, opt Options) {
	if opt.Masks != nil {
		opt.Masks.ensure(m)
		opt.Masks.addNet(g, m)
	}
	g.store(m)
}
