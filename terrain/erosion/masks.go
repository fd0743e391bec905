package erosion

import (
	"context"
	"fmt"
	"math"
	"runtime"
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
//     every sample. For the fluvial stage that is the rivers' own work,
//     its incision and its deposits: the net change less the uplift the
//     sample received, scaled by the stage's rescaling onto the input's
//     range as its budget is.
type Masks struct {
	Width, Height int
	CellSize      float64 // metres between samples
	Flow          []float32
	Eroded        []float32
	Deposited     []float32
}

// MaskNames are the names Normalised accepts, in the order a viewer lists them.
var MaskNames = []string{"flow", "eroded", "deposited"}

// reset empties the masks, freeing their storage: record makes Eroded
// and Deposited when a stage first records into them, and fillFlow makes
// Flow, so that a run holds no mask before it has something to put in it
// (a first fluvial stage peaks without them; Flow, filled at the very
// end, is never held during a stage).
func (mk *Masks) reset() {
	mk.Flow, mk.Eroded, mk.Deposited = nil, nil, nil
}

// ensure gives the masks the size of m, keeping their values if they
// already have it.
func (mk *Masks) ensure(m *terrain.Heightmap) {
	n := len(m.Samples)
	if mk.Width != m.Width || mk.Height != m.Height ||
		(mk.Eroded != nil && len(mk.Eroded) != n) || (mk.Deposited != nil && len(mk.Deposited) != n) || (mk.Flow != nil && len(mk.Flow) != n) {
		mk.reset()
	}
	mk.Width, mk.Height, mk.CellSize = m.Width, m.Height, m.CellSize
}

// addNetFrom adds the net change from the samples before (of vertical
// scale vs) to g (after) to Eroded and Deposited.
func (mk *Masks) addNetFrom(g *grid, before []float32, vs float64) {
	mk.record(len(g.z))
	for i, z := range g.z {
		mk.add(i, z-float64(before[i])*vs)
	}
}

// record makes Eroded and Deposited for n samples if no stage has
// recorded into them yet.
func (mk *Masks) record(n int) {
	if len(mk.Eroded) != n || len(mk.Deposited) != n {
		mk.Eroded, mk.Deposited = make([]float32, n), make([]float32, n)
	}
}

// add records a change of d metres at sample i: a lowering in Eroded, a
// rise in Deposited.
func (mk *Masks) add(i int, d float64) {
	if d < 0 {
		mk.Eroded[i] += float32(-d)
	} else {
		mk.Deposited[i] += float32(d)
	}
}

// addRivers records at sample i the fluvial stage's net change d, in so
// far as the rivers' own work r, the change less the uplift the sample
// received, accounts for it: a lowering where they cut at least as deep, a
// rise where they laid down at least as much. The rest is the uplift and
// the stage's rescaling onto the input's range, which stretches the
// relief back where the rivers wore the highest ground down: counted, the
// mountains would show as deposited wherever they were not cut. The
// rivers' work itself is not the mask: under uplift they cut, over a run,
// about what the uplift raised, which would only repeat the height map
// and add up to many times the relief.
func (mk *Masks) addRivers(i int, d, r float64) {
	switch {
	case d < 0 && r < 0:
		mk.Eroded[i] += float32(min(-d, -r))
	case d > 0 && r > 0:
		mk.Deposited[i] += float32(min(d, r))
	}
}

// fillFlow computes Flow for the map as it is now. It is the last thing a
// run does, with the map and Eroded and Deposited held, so it drops each
// array as soon as it is done with it and collects before the next large
// one: the heights (8 bytes a sample) once the receivers are set, the
// flood's marks before the stack, the stack before Flow.
func (mk *Masks) fillFlow(ctx context.Context, m *terrain.Heightmap) error {
	mk.ensure(m)
	mk.Flow = nil
	g := newGrid(m)
	net := newNetwork(g)
	if _, err := net.breach(ctx, g.z); err != nil {
		return err
	}
	net.marks, net.heap = nil, floodHeap{}
	runtime.GC()
	if _, err := net.receivers(ctx, g.z); err != nil {
		return err
	}
	area := g.cellArea()
	g = nil
	runtime.GC()
	net.buildStack()
	net.todo = nil
	net.accumulate()
	net.stack, net.rec = nil, nil
	runtime.GC()
	flow := make([]float32, len(net.area))
	for i, a := range net.area {
		flow[i] = float32(float64(a) * area)
	}
	mk.Flow = flow
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
	src, err := mk.named(name)
	if err != nil {
		return nil, MaskScale{}, err
	}
	out := terrain.NewHeightmap(mk.Width, mk.Height)
	out.CellSize = mk.CellSize
	scale := normalise(name, src, out.Samples, mk.CellSize)
	return out, scale, nil
}

// TakeNormalised is NormalisedScale without a copy: the named mask is
// normalised in its own storage, which the returned map then holds, and
// the masks no longer hold it. A writer that saves the masks one by one
// and has no further use for them adds nothing to what it holds.
func (mk *Masks) TakeNormalised(name string) (*terrain.Heightmap, MaskScale, error) {
	src, err := mk.named(name)
	if err != nil {
		return nil, MaskScale{}, err
	}
	scale := normalise(name, src, src, mk.CellSize)
	switch name {
	case "flow":
		mk.Flow = nil
	case "eroded":
		mk.Eroded = nil
	case "deposited":
		mk.Deposited = nil
	}
	out := &terrain.Heightmap{Width: mk.Width, Height: mk.Height, Samples: src, CellSize: mk.CellSize, VerticalScale: 1}
	return out, scale, nil
}

// named returns the named mask's values.
func (mk *Masks) named(name string) ([]float32, error) {
	var src []float32
	switch name {
	case "flow":
		src = mk.Flow
	case "eroded":
		src = mk.Eroded
	case "deposited":
		src = mk.Deposited
	default:
		return nil, fmt.Errorf("erosion mask %q: want one of flow, eroded, deposited", name)
	}
	if mk.Width <= 0 || mk.Height <= 0 || len(src) != mk.Width*mk.Height {
		return nil, fmt.Errorf("erosion mask %q: not filled (%d values for %d×%d)", name, len(src), mk.Width, mk.Height)
	}
	return src, nil
}

// normalise writes the named mask's values src, normalised, into dst
// (which may be src) and says what 0 and 1 stand for.
func normalise(name string, src, dst []float32, cellSize float64) MaskScale {
	if name == "flow" {
		lo := cellSize * cellSize
		hi := float64(slices.Max(src))
		scale := MaskScale{Unit: "m2", Zero: lo, One: lo, Log: true}
		if hi > lo {
			scale.One = hi
			span := math.Log(hi / lo)
			for i, a := range src {
				dst[i] = float32(math.Log(max(float64(a), lo)/lo) / span)
			}
		} else {
			clear(dst)
		}
		return scale
	}
	top, ok := positiveQuantile(src, 0.995)
	if !ok {
		clear(dst)
		return MaskScale{Unit: "m"}
	}
	for i, v := range src {
		dst[i] = float32(min(1, float64(v)/float64(top)))
	}
	return MaskScale{Unit: "m", One: float64(top)}
}

// positiveQuantile returns the value at rank ⌊q·n⌋ (from 0, at most n−1)
// of the n positive values of src in ascending order, and false if there
// are none. Positive float32 values order as their bits do, so the rank is
// found by counting: the top 16 bits first, then the low 16 bits of those
// in the bucket that holds it. Two passes over src and no copy of it,
// where sorting the positive values would hold them all.
func positiveQuantile(src []float32, q float64) (float32, bool) {
	counts := make([]int, 1<<16)
	n := 0
	for _, v := range src {
		if v > 0 {
			counts[math.Float32bits(v)>>16]++
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	rank := min(n-1, int(q*float64(n)))
	high := 0
	for ; rank >= counts[high]; high++ {
		rank -= counts[high]
	}
	clear(counts)
	for _, v := range src {
		if b := math.Float32bits(v); v > 0 && int(b>>16) == high {
			counts[b&0xffff]++
		}
	}
	low := 0
	for ; rank >= counts[low]; low++ {
		rank -= counts[low]
	}
	return math.Float32frombits(uint32(high)<<16 | uint32(low)), true
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

// stageInput is what finishStage needs of a hydraulic or thermal stage's
// input: nothing, as the map holds it until the end, unless passes
// overwrite the map on the way and the masks need it; then a copy.
func stageInput(m *terrain.Heightmap, opt Options) []float32 {
	if opt.Masks != nil && opt.Pass != nil {
		return slices.Clone(m.Samples)
	}
	return nil
}

// finishStage records a hydraulic or thermal stage's net change from its
// input (before, or m's samples if before is nil) in the masks and writes
// the heights back into m.
func finishStage(g *grid, m *terrain.Heightmap, before []float32, opt Options) {
	if opt.Masks != nil {
		opt.Masks.ensure(m)
		if before == nil {
			before = m.Samples
		}
		opt.Masks.addNetFrom(g, before, m.VerticalScale)
	}
	g.store(m)
}
