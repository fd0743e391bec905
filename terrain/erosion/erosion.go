// Package erosion wears a heightmap down the way water and gravity do:
// hydraulic erosion by droplets that carve gullies and leave fans (Beyer
// 2015), thermal erosion that sheds material steeper than the angle of
// repose into talus slopes (Musgrave, Kolb and Mace 1989; Olsen 2004), and
// fluvial stream-power erosion with uplift that grows dendritic valley
// networks (Braun and Willett 2013).
//
// Every process works in place on a terrain.Heightmap, in world units: a
// height is sample·VerticalScale metres and neighbouring samples are
// CellSize metres apart, so slopes and angles are physical. Heights are
// written back as samples; the map is not renormalised. Every process uses
// all cores and is deterministic: the result is bit-identical whatever
// GOMAXPROCS is. Volumes (Budget) are in cubic metres.
package erosion

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"

	"cordillera/internal/parallel"
	"cordillera/terrain"
)

// Options are the optional hooks of a run.
type Options struct {
	// Progress receives the fraction done over all stages, in [0, 1]. It
	// may be nil and may be called from several goroutines.
	Progress terrain.Progress
	// Masks, if non-nil, is filled with where material went; see Masks.
	Masks *Masks
	// Pass, if non-nil, is called on the calling goroutine after each pass
	// (a hydraulic round, a block of thermal sweeps, a fluvial time step)
	// with the map consistent, so that a viewer can copy and show it.
	Pass func(stage string, pass, passes int)
	// Stage, if non-nil, is called on the calling goroutine as each stage
	// begins, with its name, and returns that stage's own progress (0 to
	// 1; nil allowed), so that a caller can name and time each stage.
	Stage func(stage string) terrain.Progress
}

// Budget is where the material of a run went, in cubic metres
// (height change in metres × CellSize²). Material is conserved:
// Eroded = Deposited + Suspended + CarriedOff, to float rounding.
type Budget struct {
	Eroded     float64 // material taken from the ground
	Deposited  float64 // material laid down again
	Suspended  float64 // sediment still carried by droplets when they died (evaporated or out of lifetime): lost
	CarriedOff float64 // sediment carried over the map's edge (by droplets, or by rivers to the base level)
}

// Add sums two budgets.
func (b Budget) Add(o Budget) Budget {
	return Budget{b.Eroded + o.Eroded, b.Deposited + o.Deposited, b.Suspended + o.Suspended, b.CarriedOff + o.CarriedOff}
}

func (b Budget) String() string {
	return fmt.Sprintf("eroded %.4g m³, deposited %.4g m³, suspended %.4g m³, carried off %.4g m³", b.Eroded, b.Deposited, b.Suspended, b.CarriedOff)
}

// Run runs the stages listed in p.Erosion ("none" or a comma list such as
// "fluvial,hydraulic,thermal") on m in that order and returns the sum of
// their budgets. Once ctx is done it returns ctx.Err() within milliseconds;
// the map then holds the state of the last completed pass.
func Run(ctx context.Context, m *terrain.Heightmap, p terrain.Params, opt Options) (Budget, error) {
	if err := check(m, p); err != nil {
		return Budget{}, err
	}
	stages := Stages(p)
	if opt.Masks != nil {
		opt.Masks.ensure(m)
		opt.Masks.reset()
	}
	var total Budget
	for k, stage := range stages {
		sub := opt
		sub.Progress = parallel.Range(opt.Progress, float64(k)/float64(len(stages)), 1/float64(len(stages)))
		if opt.Stage != nil {
			sub.Progress = parallel.Tee(sub.Progress, opt.Stage(stage))
		}
		var b Budget
		var err error
		switch stage {
		case terrain.HydraulicErosion:
			b, err = hydraulic(ctx, m, p, sub, false)
		case terrain.ThermalErosion:
			b, err = thermal(ctx, m, p, sub, false)
		case terrain.FluvialErosion:
			b, err = fluvial(ctx, m, p, sub, nil, false)
		}
		total = total.Add(b)
		if err != nil {
			return total, err
		}
		if k < len(stages)-1 || opt.Masks != nil {
			// The stage's grid and network (tens of bytes a sample) are
			// garbage now, but the collector would let the heap grow to
			// twice the stage's peak before reclaiming them: collected
			// here, the next stage reuses their memory instead of adding
			// its own on top. A collection with only the map and masks
			// live costs milliseconds.
			runtime.GC()
		}
	}
	if opt.Masks != nil {
		if err := opt.Masks.fillFlow(ctx, m); err != nil {
			return total, err
		}
	}
	if opt.Progress != nil {
		opt.Progress(1)
	}
	return total, nil
}

// Stages returns the erosion stages p.Erosion lists, in order.
func Stages(p terrain.Params) []string {
	if p.Erosion == "" || p.Erosion == "none" {
		return nil
	}
	return strings.Split(p.Erosion, ",")
}

// The cost of a droplet step, measured on this project's machines with
// Hydraulic at GOMAXPROCS 1 (docs/erosion.md): a fixed part (the
// gradient, the move, the deposit) and a part per cell of the brush it
// erodes with.
const (
	dropletStepCost  = 50 * time.Nanosecond
	brushCellCostPS  = 300 // picoseconds per brush cell and step
	maxHydraulicWork = 10 * time.Minute
)

// HydraulicCost estimates the CPU time of a hydraulic stage with p on a
// map of p.Size² samples: droplets × lifetime steps × (the step's fixed
// cost + its brush's cells). Droplets that leave the map or stop early cost
// less; it is an upper bound.
func HydraulicCost(p terrain.Params) time.Duration {
	droplets := p.HydraulicDroplets * float64(p.Size) * float64(p.Size)
	r := max(p.HydraulicRadius, 1)
	brush := 0
	for dy := -(r - 1); dy <= r-1; dy++ {
		for dx := -(r - 1); dx <= r-1; dx++ {
			if brushRaw(r, dx, dy) > 0 {
				brush++
			}
		}
	}
	step := float64(dropletStepCost) + float64(brush*brushCellCostPS)/1000
	return time.Duration(min(droplets*float64(p.HydraulicLifetime)*step, math.MaxInt64/2))
}

// Check reports parameter combinations the ranges of the parameter table
// cannot express: a hydraulic stage whose droplets, lifetime and brush
// together, on a map of p.Size² samples, would take more than ten minutes
// of one core's work (each is within its range, but their product can
// reach hours).
func Check(p terrain.Params) error {
	if !slices.Contains(Stages(p), terrain.HydraulicErosion) {
		return nil
	}
	if c := HydraulicCost(p); c > maxHydraulicWork {
		return fmt.Errorf("hydraulic-droplets %g × hydraulic-lifetime %d steps × hydraulic-radius %d on a %d² map: about %s of CPU time, more than %s: lower the density, the lifetime, the radius or the size",
			p.HydraulicDroplets, p.HydraulicLifetime, p.HydraulicRadius, p.Size, formatCost(c), formatCost(maxHydraulicWork))
	}
	return nil
}

// formatCost writes an estimate as precisely as it can claim: minutes,
// or hours past two.
func formatCost(d time.Duration) string {
	if d > 2*time.Hour {
		return fmt.Sprintf("%.1f hours", d.Hours())
	}
	return fmt.Sprintf("%.0f minutes", d.Minutes())
}

// check validates the parameters and the map of a run.
func check(m *terrain.Heightmap, p terrain.Params) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if err := m.Validate(); err != nil {
		return err
	}
	q := p
	q.Size = int(math.Sqrt(float64(m.Width) * float64(m.Height)))
	return Check(q)
}

// grid is a heightmap in world units: heights in metres, float64 so that
// sums of many small changes keep their mass, and so that a sample that
// no process touches comes back bit for bit.
type grid struct {
	w, h int
	cell float64   // metres between neighbouring samples
	z    []float64 // height in metres, row-major
}

// newGrid reads m into world units.
func newGrid(m *terrain.Heightmap) *grid {
	g := &grid{w: m.Width, h: m.Height, cell: m.CellSize, z: make([]float64, len(m.Samples))}
	vs := m.VerticalScale
	for i, s := range m.Samples {
		g.z[i] = float64(s) * vs
	}
	return g
}

// store writes the heights back into m as samples.
func (g *grid) store(m *terrain.Heightmap) {
	vs := m.VerticalScale
	for i, z := range g.z {
		m.Samples[i] = float32(z / vs)
	}
}

// cellArea is the ground area of one sample in m².
func (g *grid) cellArea() float64 { return g.cell * g.cell }

// The bytes a sample that a run holds at its peak, beyond a fixed part
// (the runtime, the generator's tables: under 64 MB): the map's float32
// sample, the arrays of the stage that holds most, Eroded and Deposited
// once a stage has recorded into them, and the collector's headroom over
// what is live. Each stage's own arrays (docs/performance.md):
const (
	mapBytes        = 4  // the map's samples
	maskBytes       = 8  // Eroded and Deposited, float32 each
	fluvialBytes    = 18 // float64 heights, receivers, drainage areas, marks, the flood's front
	depositionBytes = 16 // with fluvial deposition: the step's starting heights and the sediment fluxes, float64 each
	hydraulicBytes  = 8  // float64 heights
	thermalBytes    = 16 // the stage holds 9 (float64 heights, the rows its blocks keep), but 16 also covers the flow mask, which flowBytes undercounts (docs/performance.md)
	flowBytes       = 12 // the flow mask's float64 heights and receivers (the marks are dropped before)
	headroomBytes   = 4  // the collector's, as measured
)

// PeakBytesPerSample estimates the bytes a sample a run of p's stages
// holds at its peak, with the masks or not: the largest of its stages',
// each with the masks the stages before it have made.
func PeakBytesPerSample(p terrain.Params, masks bool) int {
	peak := mapBytes
	recorded := false // Eroded and Deposited are made
	for _, stage := range Stages(p) {
		held := mapBytes
		if recorded {
			held += maskBytes
		}
		switch stage {
		case terrain.FluvialErosion:
			held += fluvialBytes
			if p.FluvialDeposition > 0 {
				held += depositionBytes
			}
		case terrain.HydraulicErosion:
			held += hydraulicBytes
		case terrain.ThermalErosion:
			held += thermalBytes
		}
		peak = max(peak, held)
		recorded = masks
	}
	if masks && recorded {
		peak = max(peak, mapBytes+maskBytes+flowBytes)
	}
	return peak + headroomBytes
}
