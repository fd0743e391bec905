package erosion

import (
	"context"
	"math"
	"runtime"
	"slices"

	"cordillera/noise"
	"cordillera/terrain"
)

// Fluvial stream-power erosion with uplift (Braun and Willett 2013; the
// terrain-generation use of Cordonnier et al. 2016):
//
//	∂h/∂t = U − K·A^m·S^n
//
// with A the drainage area (m²) and S the slope to the receiver. Each time
// step breaches the pits so that every sample drains to the map's edge,
// finds the D8 receivers and their
// stack, sums the drainage areas, then solves the implicit update in stack
// order, receivers first:
//
//	n = 1:  h_i ← (h_i + Δt·U_i + F·h_r) / (1 + F),   F = K·Δt·A^m / d_ir
//	n ≠ 1:  Newton's method on h_i − (h_i⁰ + Δt·U_i) + F·(h_i − h_r)^n = 0,
//	        F = K·Δt·A^m / d_ir^n
//
// which is stable for any Δt, so a few large steps reach the steady state,
// where erosion balances uplift everywhere and S = (U/(K·A^m))^(1/n). The
// run stops early once the mean change of a step is below 0.2 % of the
// relief (steadyFraction). The pits are breached once at the start (see
// network.breach: a way out is dug rather than the basin filled, so that
// water in a closed basin runs down the basin's own slopes instead of in
// parallel lines over a filled flat); the update keeps every sample above
// its receiver when the uplift does not grow downstream, so later
// breaches only run when a pit appears, and then dig out only the few
// pits a step leaves (network.breachPits).
//
// The samples on the map's edge drain off the map, a cell away, to the
// base level: the lowest height of the input's edge. They erode like any
// other sample, so a map whose edge runs over mountains does not keep them
// as walls around a worn-down interior.
//
// Two departures from plain D8 keep the grid from showing: below the
// channel head's drainage area (fluvial-head) the ground erodes as the
// head does, so ridges stay hillslopes rather than one-sample needles; and
// each way's slope is scaled by a fixed random factor when the receiver is
// chosen (fluvial-wander), so channels do not run in parallel straight
// lines along the grid's axes and diagonals. Both leave the steady-state
// law above intact over the channels.
//
// The uplift is U_i = fluvial-uplift × (input height normalised to
// [0, 1]), so that the mountains of the input keep rising where they were
// and its lowlands stay low: the result is the input's shape, cut by a
// river network in equilibrium with it. At the end the heights are
// rescaled linearly onto the input's range, so that the map keeps its
// amplitude (steady-state relief scales with U/K, which is rarely the
// input's); the budget is scaled the same way. What the breaches dig
// counts as eroded; all eroded material leaves at the base level
// (CarriedOff); uplift is not counted. The masks record the map's net
// change where the rivers' own work accounts for it (Masks.addRivers).

// Fluvial erodes m by stream power with uplift, as described above.
func Fluvial(ctx context.Context, m *terrain.Heightmap, p terrain.Params, opt Options) (Budget, error) {
	return single(ctx, m, p, opt, func(ctx context.Context, opt Options) (Budget, error) {
		return fluvial(ctx, m, p, opt, nil, false)
	})
}

// FluvialReference is Fluvial done the straightforward way, on one
// goroutine: each step orders the whole map receivers first (the stack),
// sums the drainage areas down it and solves up it. It is the oracle the
// parallel step is tested against; the heights are identical bit for bit.
func FluvialReference(ctx context.Context, m *terrain.Heightmap, p terrain.Params, opt Options) (Budget, error) {
	return single(ctx, m, p, opt, func(ctx context.Context, opt Options) (Budget, error) {
		return fluvial(ctx, m, p, opt, nil, true)
	})
}

// powTableSize bounds the table of area^m by cells: drainage areas are
// small almost everywhere, and the rare larger ones call math.Pow.
const powTableSize = 1 << 16

// steadyFraction is the steady-state test: the mean change of a step
// must be below this fraction of the relief. The largest change never
// settles: at divides where two receivers are nearly as steep, D8 keeps
// flipping a few samples from one basin to the other, a sliver of the map
// that no longer changes the picture.
const steadyFraction = 2e-3

// fluvial runs the stage; uplift, if not nil, replaces the uplift field
// (m/yr per sample), as the tests do to check the steady state.
func fluvial(ctx context.Context, m *terrain.Heightmap, p terrain.Params, opt Options, uplift []float64, reference bool) (Budget, error) {
	g := newGrid(m)
	w := g.w
	z := g.z
	lo, hi := minMax(z)
	net := newFluvialNetwork(g, p)
	// The masks need the input's samples at the end. The uplift keeps
	// them (below); only where it keeps nothing and passes overwrite the
	// map is the input copied.
	var input []float32
	if opt.Masks != nil && opt.Pass != nil && (uplift != nil || hi <= lo) {
		input = slices.Clone(m.Samples)
	}
	// The breach may dig the map's edge where a pit beside it lies below
	// it, so the base level is read after it.
	dug, err := net.breach(ctx, z)
	if err != nil {
		return Budget{}, err
	}
	base := math.Inf(1) // the lowest point of the base level, below every other sample
	for x := 0; x < w; x++ {
		base = min(base, z[x], z[(g.h-1)*w+x])
	}
	for y := 1; y < g.h-1; y++ {
		base = min(base, z[y*w], z[y*w+w-1])
	}

	up := upliftField{dt: p.FluvialDt, u: p.FluvialUplift, field: uplift}
	if uplift == nil && hi > lo {
		// The uplift follows the input as it was before the breach, read
		// from its float32 samples: m's own unless passes overwrite them.
		// A way dug through a ridge is uplifted as the ridge is, so the
		// river has to cut it as a river crossing a rising range does.
		samples := m.Samples
		if opt.Pass != nil {
			samples = slices.Clone(m.Samples)
		}
		up.input, up.vs, up.lo, up.relief = samples, m.VerticalScale, lo, hi-lo
	}
	sp := newStreamPower(g, net, p, up, base)

	var eroded, deposited float64 // metres over one cell
	steps := p.FluvialSteps
	ran := 0 // the steps run, each uplifting every sample once
	for step := 0; step < steps; step++ {
		pits, err := net.receivers(ctx, z)
		if err != nil {
			return Budget{}, err
		}
		if pits > 0 {
			r, err := net.breachPits(ctx, z, pits)
			if err != nil {
				return Budget{}, err
			}
			dug += r
			if _, err := net.receivers(ctx, z); err != nil {
				return Budget{}, err
			}
		}
		var sum stepSum
		if reference {
			sum, err = sp.stepReference(ctx)
		} else {
			sum, err = sp.step(ctx)
		}
		if err != nil {
			return Budget{}, err
		}
		ran++
		change, top := sum.change, sum.top
		eroded += sum.eroded
		deposited += sum.deposited
		if opt.Progress != nil {
			opt.Progress(float64(step+1) / float64(steps))
		}
		steady := change <= steadyFraction*(max(top, base)-base)*float64(len(z))
		if opt.Pass != nil && !steady && step+1 < steps {
			storeRescaled(g, m, lo, hi)
			opt.Pass(terrain.FluvialErosion, step+1, steps)
		}
		if steady {
			break
		}
	}
	// Where a way dug through a ridge rose with the ridge faster than the
	// river cut it, the basin behind it is closed again after the last
	// step: dig it once more, so that the stage's result drains.
	if pits, err := net.receivers(ctx, z); err != nil {
		return Budget{}, err
	} else if pits > 0 {
		r, err := net.breachPits(ctx, z, pits)
		if err != nil {
			return Budget{}, err
		}
		dug += r
	}

	// The network's arrays (9 bytes a sample) are dropped here, where the
	// masks may be made, rather than whenever the stage's values go.
	net.release()
	if opt.Masks != nil {
		opt.Masks.ensure(m)
		if opt.Masks.Eroded == nil {
			// The first stage to record: collect the network before the
			// masks are made, so that they take its place.
			runtime.GC()
		}
		before := m.Samples
		switch {
		case input != nil:
			before = input
		case up.input != nil:
			before = up.input // the same slice unless passes overwrote m
		}
		opt.Masks.record(len(z))
		s, zlo, ok := rescaleFactor(z, lo, hi)
		to := lo // the rescale maps zlo to lo
		if !ok {
			zlo, to = 0, 0 // and leaves a flat map as it is
		}
		vs, n := m.VerticalScale, float64(ran)
		for i, v := range z {
			in := float64(before[i]) * vs
			final := to + float64((v-zlo)*s)
			opt.Masks.addRivers(i, final-in, float64((v-in-n*up.at(i))*s))
		}
	}
	scale := rescale(z, lo, hi)
	g.store(m)
	if opt.Pass != nil {
		opt.Pass(terrain.FluvialErosion, steps, steps)
	}
	f := g.cellArea() * scale
	eroded += dug
	return Budget{Eroded: eroded * f, Deposited: deposited * f, CarriedOff: (eroded - deposited) * f}, nil
}

// upliftField is Δt·U per sample in metres: U = u × the input's height
// normalised to [0, 1] by the input's range; u everywhere on a flat
// input; or, where field is not nil, Δt × field. It is worked out where it
// is used from the input's float32 samples rather than kept in a float64
// grid of its own: 8 bytes a sample less for a division a sample.
type upliftField struct {
	dt, u      float64
	input      []float32 // the input's samples; nil on a flat input
	vs         float64   // the input's vertical scale
	lo, relief float64   // the input's lowest height and its range, metres
	field      []float64 // m/yr per sample, replacing the above
}

func (f *upliftField) at(i int) float64 {
	switch {
	case f.field != nil:
		return float64(f.dt * f.field[i])
	case f.input == nil:
		return float64(f.dt * f.u)
	}
	z := float64(f.input[i]) * f.vs
	return float64(f.dt * float64(f.u*float64((z-f.lo)/f.relief)))
}

// newFluvialNetwork is the drainage network of the fluvial stage: D8 with
// p's wander, its random factors drawn from p's seed.
func newFluvialNetwork(g *grid, p terrain.Params) *network {
	net := newNetwork(g)
	net.rec, net.area = make([]int32, len(g.z)), make([]int32, len(g.z))
	net.setWander(p.FluvialWander, noise.SplitMix64(uint64(p.Seed)^0x6a09e667f3bcc909))
	return net
}

// newtonDrop solves δ − δ0 + F·δ^n = 0 for the drop δ ∈ (0, δ0] of a
// sample above its receiver after a step, from δ0, its drop before erosion
// (Braun and Willett 2013, eq. 22). A sample not above its receiver is
// left as it is.
func newtonDrop(d0, f, n float64) float64 {
	if d0 <= 0 {
		return d0
	}
	d := d0
	for range 50 {
		pw := math.Pow(d, n)
		g := d - d0 + float64(f*pw)
		dg := 1 + float64(float64(n*f)*pw)/d
		next := d - g/dg
		if next <= 0 { // overshot below the receiver (n < 1): halve instead
			next = d / 2
		}
		if math.Abs(next-d) <= 1e-12*d0 {
			return next
		}
		d = next
	}
	return d
}

// minMax returns the smallest and largest value.
func minMax(z []float64) (lo, hi float64) {
	lo, hi = z[0], z[0]
	for _, v := range z {
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

// rescaleFactor returns the factor rescale multiplies heights by to map z
// onto [lo, hi], the lowest of z, and false if z or the target is flat
// (then the factor is 1 and z is left as it is).
func rescaleFactor(z []float64, lo, hi float64) (s, zlo float64, ok bool) {
	zlo, zhi := minMax(z)
	if zhi <= zlo || hi <= lo {
		return 1, zlo, false
	}
	return (hi - lo) / (zhi - zlo), zlo, true
}

// rescale maps z linearly onto [lo, hi] and returns the factor heights
// were multiplied by (1 if z or the target is flat).
func rescale(z []float64, lo, hi float64) float64 {
	s, zlo, ok := rescaleFactor(z, lo, hi)
	if !ok {
		return 1
	}
	for i, v := range z {
		z[i] = lo + float64((v-zlo)*s)
	}
	return s
}

// storeRescaled writes the heights, rescaled onto [lo, hi], into m without
// changing the grid: the snapshot a Pass callback sees.
func storeRescaled(g *grid, m *terrain.Heightmap, lo, hi float64) {
	zlo, zhi := minMax(g.z)
	s := 1.0
	if zhi > zlo && hi > lo {
		s = (hi - lo) / (zhi - zlo)
	} else {
		lo, zlo = 0, 0
	}
	vs := m.VerticalScale
	for i, v := range g.z {
		m.Samples[i] = float32((lo + float64((v-zlo)*s)) / vs)
	}
}
