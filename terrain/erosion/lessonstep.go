package erosion

import (
	"context"
	"math"
	"slices"

	"cordillera/terrain"
)

// The stages one step at a time, for the Teach lessons: a droplet of the
// hydraulic stage, a sweep of the thermal stage, a time step of the
// fluvial stage, each done by the stage's own code (aim and move, the
// sweep, the receivers and the stream-power step) and shown with the
// values it used. Tests hold each stepper to its stage bit for bit.

// DropletStepper runs the hydraulic stage's droplets one at a time: the
// same droplets the stage runs (the same rounds, phases, tiles and keys),
// through the stage's own step, so that once every droplet has run the
// map is the stage's result bit for bit. Within a phase it takes the
// phase's tiles in turn, a droplet of each, rather than each tile's
// droplets one after another: tiles of one phase touch disjoint cells, so
// the order among them changes nothing, and the first droplets a student
// sees spread over the map instead of filling one corner. Back undoes the
// last droplet exactly: each droplet keeps the old heights of the cells
// it may change.
type DropletStepper struct {
	g     *grid
	hp    *hydraulicParams
	start []float64 // the heights before the first droplet, for a replay
	order []dropletID
	next  int
	b     Budget // metres over one cell
	undo  []dropletUndo
}

// dropletID names a droplet of the stage: its round, tile and index.
type dropletID struct{ round, tile, index int32 }

// dropletUndo is what Back needs to take a droplet back: the cells it
// may have changed with their old heights, in the order saved, and the
// budget before it.
type dropletUndo struct {
	cells []int32
	old   []float64
	b     Budget
}

// maxDropletUndo is how many droplets Back takes back from the journal;
// further back it replays the droplets from the start, which gives the
// same bits.
const maxDropletUndo = 512

// DropletStep is a droplet's state at the start of a step and what the
// step did. Positions are in cells (column, row), heights in metres.
type DropletStep struct {
	X, Y       float64 // where it is
	Height     float64 // the ground's height there, bilinear
	Speed      float64 // at the start of the step
	Water      float64
	Sediment   float64 // metres over one cell
	DirX, DirY float64 // the direction it takes, inertia and slope combined
	DeltaH     float64 // h(next) − h(here), metres
	Capacity   float64 // max(−Δh/cell, min slope)·speed·water·capacity·cell, metres
	Eroded     float64 // metres over one cell taken from the brush
	Deposited  float64 // metres over one cell laid down around (X, Y)
}

// Droplet is one droplet's track through the stage: its steps and how it
// ended.
type Droplet struct {
	Number             int // 1 for the first droplet of the stage
	Round, Tile, Index int // which of the stage's droplets it is
	Steps              []DropletStep
	// End is its state after the last step: position, speed, water and
	// the sediment it still carried.
	End   DropletStep
	Fate  string // "lifetime", "left the map" or "started off the map"
	Moved Budget // m³
}

// NewDropletStepper prepares m's hydraulic stage with p's droplet
// constants; m is not changed.
func NewDropletStepper(m *terrain.Heightmap, p terrain.Params) (*DropletStepper, error) {
	if err := check(m, p); err != nil {
		return nil, err
	}
	g := newGrid(m)
	hp := newHydraulicParams(p, g)
	s := &DropletStepper{g: g, hp: hp, start: slices.Clone(g.z)}
	for r := range hydraulicRounds {
		for ph := range 4 {
			tiles := hp.phaseTiles(ph)
			counts := make([]int, len(tiles))
			most := 0
			for k, t := range tiles {
				counts[k] = hp.tileDroplets(g, t, r)
				most = max(most, counts[k])
			}
			for i := range most {
				for k, t := range tiles {
					if i < counts[k] {
						s.order = append(s.order, dropletID{int32(r), int32(t), int32(i)})
					}
				}
			}
		}
	}
	return s, nil
}

// Total is the number of droplets in the stage.
func (s *DropletStepper) Total() int { return len(s.order) }

// Done is the number of droplets run.
func (s *DropletStepper) Done() int { return s.next }

// Budget is where the material of the droplets run so far went, m³.
func (s *DropletStepper) Budget() Budget { return s.b.scaled(s.g.cellArea()) }

// CellSize is the map's cell size in metres.
func (s *DropletStepper) CellSize() float64 { return s.g.cell }

// Next runs the next droplet and returns its track; false once every
// droplet has run.
func (s *DropletStepper) Next() (Droplet, bool) {
	if s.next >= len(s.order) {
		return Droplet{}, false
	}
	before := s.b
	dr := s.run()
	dr.Moved = Budget{s.b.Eroded - before.Eroded, s.b.Deposited - before.Deposited,
		s.b.Suspended - before.Suspended, s.b.CarriedOff - before.CarriedOff}.scaled(s.g.cellArea())
	return dr, true
}

// run runs the next droplet, journalling the cells it may change.
func (s *DropletStepper) run() Droplet {
	id := s.order[s.next]
	s.next++
	g, hp := s.g, s.hp
	x0, y0, x1, y1 := hp.tileStarts(g, int(id.tile))
	key := dropletKey(hp.seed, int(id.round), int(id.tile), int(id.index))
	x, y := dropletStart(key, x0, y0, x1, y1)
	dr := Droplet{Number: s.next, Round: int(id.round), Tile: int(id.tile), Index: int(id.index)}
	s.push(dropletUndo{b: s.b})
	if !hp.inside(g, x, y) {
		dr.Fate = "started off the map"
		dr.End = DropletStep{X: x, Y: y}
		return dr
	}
	d := drop{x: x, y: y, speed: 1, water: 1, key: key}
	save := func(i int) {
		top := &s.undo[len(s.undo)-1]
		top.cells = append(top.cells, int32(i))
		top.old = append(top.old, g.z[i])
	}
	for d.step < hp.lifetime {
		st := DropletStep{X: d.x, Y: d.y, Height: g.bilinear(d.x, d.y), Speed: d.speed, Water: d.water, Sediment: d.sediment}
		var mv move
		if !g.aim(&d, hp, &mv) { // as the stage's lanes do: it leaves with its load
			s.b.CarriedOff += d.sediment
			st.DirX, st.DirY = d.dirX, d.dirY
			dr.Steps = append(dr.Steps, st)
			dr.Fate = "left the map"
			dr.End = DropletStep{X: d.x + d.dirX, Y: d.y + d.dirY, Speed: d.speed, Water: d.water, Sediment: d.sediment}
			return dr
		}
		st.DirX, st.DirY, st.DeltaH, st.Capacity = d.dirX, d.dirY, mv.dh, mv.c
		// The cells move may change: the four around the droplet (a
		// deposit) and the brush around the nearest sample (erosion).
		i := mv.iy*g.w + mv.ix
		for _, c := range [4]int{i, i + 1, i + g.w, i + g.w + 1} {
			save(c)
		}
		if cx, cy := int(d.x+0.5), int(d.y+0.5); hp.erodible(g, cx, cy) {
			for _, off := range hp.brushOffsets {
				save(cy*g.w + cx + off)
			}
		}
		er, de := s.b.Eroded, s.b.Deposited
		g.move(&d, hp, &mv, &s.b)
		st.Eroded, st.Deposited = s.b.Eroded-er, s.b.Deposited-de
		dr.Steps = append(dr.Steps, st)
	}
	s.b.Suspended += d.sediment
	dr.Fate = "lifetime"
	dr.End = DropletStep{X: d.x, Y: d.y, Height: g.bilinear(d.x, d.y), Speed: d.speed, Water: d.water, Sediment: d.sediment}
	return dr
}

// push starts the journal entry of a droplet, dropping the oldest beyond
// maxDropletUndo.
func (s *DropletStepper) push(u dropletUndo) {
	if len(s.undo) == maxDropletUndo {
		copy(s.undo, s.undo[1:])
		s.undo = s.undo[:len(s.undo)-1]
	}
	s.undo = append(s.undo, u)
}

// Back takes the last droplet back, restoring every height it changed and
// the budget bit for bit; false if none has run.
func (s *DropletStepper) Back() bool {
	if s.next == 0 {
		return false
	}
	if len(s.undo) == 0 { // past the journal: replay from the start
		k := s.next - 1
		copy(s.g.z, s.start)
		s.next, s.b, s.undo = 0, Budget{}, nil
		for range k {
			s.Next()
		}
		return true
	}
	u := s.undo[len(s.undo)-1]
	s.undo = s.undo[:len(s.undo)-1]
	for k := len(u.cells) - 1; k >= 0; k-- { // the first saved, the oldest value, last
		s.g.z[u.cells[k]] = u.old[k]
	}
	s.b = u.b
	s.next--
	return true
}

// Store writes the heights so far into m, which must be the stepper's map
// (or one of its size).
func (s *DropletStepper) Store(m *terrain.Heightmap) { s.g.store(m) }

// ThermalStepper runs the thermal stage one sweep at a time with the
// stage's own sweep, and shows a sample's exchanges with its neighbours
// as the sweep computes them.
type ThermalStepper struct {
	g        *grid
	th       *thermalSweep
	rowMoved []float64
	sweeps   int
	moved    float64 // metres over one cell
}

// TalusExchange is what a sample exchanges with one of its 8 neighbours
// in a sweep.
type TalusExchange struct {
	DX, DY   int     // the neighbour's offset
	Diagonal bool    // √2 cells away
	Drop     float64 // h(sample) − h(neighbour), metres
	Talus    float64 // the talus drop tan θ·distance, metres
	Flux     float64 // metres sent to the neighbour (negative: received)
}

// NewThermalStepper prepares m's thermal stage with p's talus angle and
// rate; m is not changed.
func NewThermalStepper(m *terrain.Heightmap, p terrain.Params) (*ThermalStepper, error) {
	if err := check(m, p); err != nil {
		return nil, err
	}
	g := newGrid(m)
	return &ThermalStepper{g: g, th: newThermalSweep(g, p), rowMoved: make([]float64, g.h)}, nil
}

// Sweep runs one sweep of the stage.
func (s *ThermalStepper) Sweep() {
	// The sweep only fails on a cancelled context, which this one is not.
	_ = s.th.sweep(context.Background(), s.g.z, s.rowMoved)
	for _, r := range s.rowMoved {
		s.moved += r
	}
	s.sweeps++
}

// Sweeps is the number of sweeps run.
func (s *ThermalStepper) Sweeps() int { return s.sweeps }

// Moved is the material moved so far, m³.
func (s *ThermalStepper) Moved() float64 { return s.moved * s.g.cellArea() }

// Talus returns the talus drops to a side and to a diagonal neighbour in
// metres and the share k of the excess moved.
func (s *ThermalStepper) Talus() (axial, diagonal, k float64) {
	return s.th.axial, s.th.diagonal, s.th.k
}

// Height is sample (x, y)'s height in metres now.
func (s *ThermalStepper) Height(x, y int) float64 { return s.g.z[y*s.g.w+x] }

// Exchanges returns what sample (x, y) exchanges with each of its
// neighbours on the map in the next sweep, in the sweep's order, and its
// height change, summed in that order as the sweep sums it.
func (s *ThermalStepper) Exchanges(x, y int) ([]TalusExchange, float64) {
	g, th := s.g, s.th
	zi := g.z[y*g.w+x]
	var out []TalusExchange
	var change, sent float64
	for _, nb := range neighbours8 {
		nx, ny := x+nb.dx, y+nb.dy
		if nx < 0 || ny < 0 || nx >= g.w || ny >= g.h {
			continue
		}
		drop := th.axial
		if nb.diagonal {
			drop = th.diagonal
		}
		d := zi - g.z[ny*g.w+nx]
		one, _ := exchange(0, 0, d, drop, th.k)
		change, sent = exchange(change, sent, d, drop, th.k)
		out = append(out, TalusExchange{DX: nb.dx, DY: nb.dy, Diagonal: nb.diagonal, Drop: d, Talus: drop, Flux: -one})
	}
	return out, change
}

// Steepest returns the sample that sends the most material in the next
// sweep: where the lesson looks.
func (s *ThermalStepper) Steepest() (x, y int) {
	best := -1.0
	for j := 1; j < s.g.h-1; j++ {
		for i := 1; i < s.g.w-1; i++ {
			ex, _ := s.Exchanges(i, j)
			var sent float64
			for _, e := range ex {
				sent += max(e.Flux, 0)
			}
			if sent > best {
				best, x, y = sent, i, j
			}
		}
	}
	return x, y
}

// Store writes the heights so far into m.
func (s *ThermalStepper) Store(m *terrain.Heightmap) { s.g.store(m) }

// FluvialStepper runs the fluvial stage one time step at a time, as the
// stage runs them: the breach at the start, then each step's receivers
// (and a breach where pits appeared) and the stream-power step on all
// cores. It keeps the receivers and drainage areas each step used, and
// the heights before it, to show them. The heights are the model's, before
// the rescale onto the input's range that ends the stage; Store writes
// them rescaled, as the stage's passes show them.
type FluvialStepper struct {
	g       *grid
	net     *network
	sp      *streamPower
	lo, hi  float64 // the input's range
	dug     float64 // metres over one cell the breaches dug
	eroded  float64 // metres over one cell the steps cut
	steps   int
	steady  bool
	limit   int
	rec     []int32   // the receivers the last step used
	area    []int32   // its drainage areas, cells
	before  []float64 // the heights before it
	upliftM []float64 // Δt·U of each sample, metres a step
	input   []float32
}

// NewFluvialStepper prepares m's fluvial stage with p's constants and
// breaches its pits, as the stage begins; m is not changed.
func NewFluvialStepper(m *terrain.Heightmap, p terrain.Params) (*FluvialStepper, error) {
	if err := check(m, p); err != nil {
		return nil, err
	}
	g := newGrid(m)
	z := g.z
	lo, hi := minMax(z)
	net := newFluvialNetwork(g, p)
	dug, err := net.breach(context.Background(), z)
	if err != nil {
		return nil, err
	}
	base := math.Inf(1)
	for x := 0; x < g.w; x++ {
		base = min(base, z[x], z[(g.h-1)*g.w+x])
	}
	for y := 1; y < g.h-1; y++ {
		base = min(base, z[y*g.w], z[y*g.w+g.w-1])
	}
	up := upliftField{dt: p.FluvialDt, u: p.FluvialUplift}
	input := slices.Clone(m.Samples)
	if hi > lo {
		up.input, up.vs, up.lo, up.relief = input, m.VerticalScale, lo, hi-lo
	}
	s := &FluvialStepper{g: g, net: net, sp: newStreamPower(g, net, p, up, base), lo: lo, hi: hi,
		dug: dug, limit: p.FluvialSteps, input: input, upliftM: make([]float64, len(z))}
	for i := range s.upliftM {
		s.upliftM[i] = up.at(i)
	}
	// What the first step will use, worked out on a network of its own:
	// the stage's network keeps its state from step to step.
	look := newFluvialNetwork(g, p)
	if _, err := look.route(context.Background(), z); err != nil {
		return nil, err
	}
	look.accumulate()
	s.rec, s.area, s.before = look.rec, look.area, slices.Clone(z)
	return s, nil
}

// Step runs the next time step; false once the stage would have stopped
// (its last step, or the landscape steady).
func (s *FluvialStepper) Step() bool {
	if s.steady || s.steps >= s.limit {
		return false
	}
	ctx := context.Background()
	z, net := s.g.z, s.net
	// The stage's context is never cancelled here, so the errors the
	// passes return (only ctx.Err()) cannot occur.
	if pits, _ := net.receivers(ctx, z); pits > 0 {
		r, _ := net.breach(ctx, z)
		s.dug += r
		_, _ = net.receivers(ctx, z)
	}
	s.before = append(s.before[:0], z...)
	sum, _ := s.sp.step(ctx)
	s.eroded += sum.eroded - sum.deposited
	s.steps++
	s.steady = sum.change <= steadyFraction*(max(sum.top, s.sp.base)-s.sp.base)*float64(len(z))
	s.rec = append(s.rec[:0], net.rec...)
	s.area = append(s.area[:0], net.area...)
	return true
}

// Steps is the number of time steps run; Steady whether the stage stops
// after the last of them.
func (s *FluvialStepper) Steps() int   { return s.steps }
func (s *FluvialStepper) Steady() bool { return s.steady }

// FluvialSample is how the stream-power step treated one sample: its
// receiver and drainage area, and its height before and after.
type FluvialSample struct {
	Receiver  int     // index of its receiver (itself on the map's edge, draining to the base level)
	Area      int32   // drainage area in cells, the sample included
	Distance  float64 // metres to the receiver (a cell to the base level)
	Before    float64 // height before the step, metres
	Uplift    float64 // Δt·U, metres
	Receiver0 float64 // the receiver's height after the step (the base level for an edge sample)
	After     float64 // height after the step
}

// Sample returns sample i as the last step (or, before any, the first)
// treated it.
func (s *FluvialStepper) Sample(i int) FluvialSample {
	g := s.g
	r := int(s.rec[i])
	v := FluvialSample{Receiver: r, Area: s.area[i], Distance: g.cell, Before: s.before[i], Uplift: s.upliftM[i], After: g.z[i], Receiver0: s.sp.base}
	if s.steps == 0 {
		v.After = v.Before
	}
	if r != i {
		v.Receiver0 = g.z[r]
		if s.steps == 0 {
			v.Receiver0 = s.before[r]
		}
		if d := r - i; d != 1 && d != -1 && d != g.w && d != -g.w {
			v.Distance = g.cell * math.Sqrt2
		}
	}
	return v
}

// Receivers and Areas are the receivers and drainage areas (cells) the
// last step used, or the first will; Incision is each sample's
// Δt·U + before − after in metres (zero before the first step).
func (s *FluvialStepper) Receivers() []int32 { return s.rec }
func (s *FluvialStepper) Areas() []int32     { return s.area }
func (s *FluvialStepper) Incision() []float64 {
	out := make([]float64, len(s.g.z))
	if s.steps == 0 {
		return out
	}
	for i, z := range s.g.z {
		out[i] = s.before[i] + s.upliftM[i] - z
	}
	return out
}

// Base is the base level the edge drains to, metres.
func (s *FluvialStepper) Base() float64 { return s.sp.base }

// Store writes the heights so far into m rescaled onto the input's range,
// as the stage's passes show them.
func (s *FluvialStepper) Store(m *terrain.Heightmap) { storeRescaled(s.g, m, s.lo, s.hi) }

// Finish ends the stage as it ends after its last step (a last breach
// where pits remain, the rescale onto the input's range) and writes the
// result into m. The stepper is spent.
func (s *FluvialStepper) Finish(m *terrain.Heightmap) {
	ctx := context.Background()
	if pits, _ := s.net.receivers(ctx, s.g.z); pits > 0 {
		r, _ := s.net.breach(ctx, s.g.z)
		s.dug += r
	}
	rescale(s.g.z, s.lo, s.hi)
	s.g.store(m)
	s.steady = true
}
