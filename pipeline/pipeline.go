// Package pipeline chains the stages that make a world, in the one order
// every caller uses:
//
//	generator (terrain) → erosion (terrain/erosion) → route constraint (route) → normalise
//
// or, for a loaded heightmap, erosion alone. The stages know nothing of one
// another; only this package, above them, knows their order. The commands
// and the explorer make every world here.
package pipeline

import (
	"context"
	"sync"

	"cordillera/internal/parallel"
	"cordillera/route"
	"cordillera/route/track"
	"cordillera/terrain"
	"cordillera/terrain/erosion"
)

// Options are the optional parts of a build.
type Options struct {
	// Progress receives the fraction done over all stages, in [0, 1]; nil
	// is allowed. It may be called from several goroutines.
	Progress terrain.Progress
	// Masks asks for the erosion masks (flow, eroded, deposited).
	Masks bool
	// Pass, if set, is called on the building goroutine after each erosion
	// pass with the map as it stands (heights in the map's own units, not
	// yet normalised), so that a viewer can copy and show it. It must not
	// keep m.
	Pass func(stage string, pass, passes int, m *terrain.Heightmap)
	// Phase, if set, is called on the building goroutine as each phase
	// begins: "generating", "route terrain", each erosion stage
	// ("hydraulic erosion", "thermal erosion", "fluvial erosion") and
	// "route constraint" after them on a route. It returns that phase's
	// own progress (0 to 1; nil allowed), so that a bar can name the phase
	// and estimate its end from its own rate.
	Phase func(name string) terrain.Progress
}

// phase starts the phase name and returns its progress (nil without a
// Phase hook).
func (o Options) phase(name string) terrain.Progress {
	if o.Phase == nil {
		return nil
	}
	return o.Phase(name)
}

// World is what a build makes.
type World struct {
	Map    *terrain.Heightmap
	Route  *route.Result  // the route terrain's report; nil without a track
	Masks  *erosion.Masks // nil unless Options.Masks and an erosion stage ran
	Budget erosion.Budget // where the eroded material went
}

// erosionShare is the part of the progress bar erosion takes when it runs:
// it costs much more than generating. On a route, routeBefore is the
// route's work before the erosion stages (its solve and follow step),
// and what is left the route's work after them (its road).
const (
	erosionShare = 0.8
	routeBefore  = 0.17
)

// Generate makes the map p describes: the generator's map, normalised and
// shaped by its post-effect (terrain.Generate), then worn by the erosion
// stages p.Erosion lists, then normalised again to [0, 1] with the
// vertical scale adjusted so that heights in metres are kept.
func Generate(ctx context.Context, p terrain.Params, opt Options) (*World, error) {
	return generate(ctx, p, 1, opt)
}

// Preview makes a coarse version of the map p describes, every stride-th
// sample (terrain.GeneratePreview), eroded like the full map, for the
// explorer to show while the full map is made.
func Preview(ctx context.Context, p terrain.Params, stride int, opt Options) (*World, error) {
	return generate(ctx, p, stride, opt)
}

func generate(ctx context.Context, p terrain.Params, stride int, opt Options) (*World, error) {
	if err := Check(p); err != nil {
		return nil, err
	}
	genShare := 1.0
	if len(erosion.Stages(p)) > 0 {
		genShare = 1 - erosionShare
	}
	m, err := terrain.GeneratePreview(ctx, p, stride, parallel.Tee(parallel.Range(opt.Progress, 0, genShare), opt.phase("generating")))
	if err != nil {
		return nil, err
	}
	w := &World{Map: m}
	if err := erode(ctx, w, p, opt, genShare, 1-genShare); err != nil {
		return nil, err
	}
	if len(erosion.Stages(p)) > 0 {
		renormalise(w.Map)
	}
	return w, nil
}

// Erode wears a loaded heightmap by the erosion stages p.Erosion lists. The
// map keeps its cell size, vertical scale and heights' units (it is not
// renormalised); src itself is not changed.
func Erode(ctx context.Context, src *terrain.Heightmap, p terrain.Params, opt Options) (*World, error) {
	if err := Check(p); err != nil {
		return nil, err
	}
	m := *src
	m.Samples = append([]float32(nil), src.Samples...)
	w := &World{Map: &m}
	if err := erode(ctx, w, p, opt, 0, 1); err != nil {
		return nil, err
	}
	return w, nil
}

// Route makes the terrain through a GPS track (route.GenerateWith) with the
// erosion stages run on the solved terrain before the road: the route's
// points are met again after erosion, so the track is still followed
// exactly.
func Route(ctx context.Context, p terrain.Params, t *track.Track, opt Options) (*World, error) {
	if err := Check(p); err != nil {
		return nil, err
	}
	w := &World{}
	// The route reports its share of its own work, standing at
	// route.StageAt while the erosion stages run between its solve and
	// its road: the "route terrain" phase shows the work before them, the
	// "route constraint" phase the rest. Of the whole, the route's work
	// before the stages takes routeBefore, the stages erosionShare.
	var mu sync.Mutex
	own := opt.phase("route terrain")
	phaseOf := func(f float64) float64 { return f } // the phase's share done at the route's f
	wholeOf := func(f float64) float64 { return f } // the whole's
	var stage route.Stage
	if len(erosion.Stages(p)) > 0 {
		phaseOf = func(f float64) float64 { return min(f/route.StageAt, 1) }
		wholeOf = func(f float64) float64 { return routeBefore * min(f/route.StageAt, 1) }
		stage = func(ctx context.Context, m *terrain.Heightmap) error {
			w.Map = m
			if err := erode(ctx, w, p, opt, routeBefore, erosionShare); err != nil {
				return err
			}
			after := func(f float64) float64 { return min(max(f-route.StageAt, 0)/(1-route.StageAt), 1) }
			constraint := opt.phase("route constraint")
			mu.Lock()
			own, phaseOf = constraint, after
			wholeOf = func(f float64) float64 { return routeBefore + erosionShare + (1-routeBefore-erosionShare)*after(f) }
			mu.Unlock()
			return nil
		}
	}
	progress := func(f float64) {
		mu.Lock()
		o, pf, wf := own, phaseOf, wholeOf
		mu.Unlock()
		if o != nil {
			o(pf(f))
		}
		if opt.Progress != nil {
			opt.Progress(wf(f))
		}
	}
	res, err := route.GenerateWith(ctx, p, t, stage, progress)
	if err != nil {
		return nil, err
	}
	w.Map, w.Route = res.Map, res
	return w, nil
}

// Check validates the parameters of a build, erosion's included.
func Check(p terrain.Params) error {
	if err := p.Validate(); err != nil {
		return err
	}
	return erosion.Check(p)
}

// erode runs the erosion stages on w.Map, reporting progress on
// [base, base+span] of the whole.
func erode(ctx context.Context, w *World, p terrain.Params, opt Options, base, span float64) error {
	if len(erosion.Stages(p)) == 0 {
		return nil
	}
	eo := erosion.Options{Progress: parallel.Range(opt.Progress, base, span)}
	if opt.Phase != nil {
		eo.Stage = func(stage string) terrain.Progress { return opt.Phase(stage + " erosion") }
	}
	if opt.Masks {
		w.Masks = &erosion.Masks{}
		eo.Masks = w.Masks
	}
	if opt.Pass != nil {
		m := w.Map
		eo.Pass = func(stage string, pass, passes int) { opt.Pass(stage, pass, passes, m) }
	}
	b, err := erosion.Run(ctx, w.Map, p, eo)
	w.Budget = b
	return err
}

// renormalise maps the heights back onto [0, 1] after erosion lowered the
// peaks and filled the valleys, scaling VerticalScale so that height
// differences in metres are unchanged (the lowest point becomes 0).
func renormalise(m *terrain.Heightmap) {
	lo, hi := m.Range()
	span := float64(hi) - float64(lo)
	if span == 0 {
		return
	}
	for i, v := range m.Samples {
		m.Samples[i] = float32((float64(v) - float64(lo)) / span)
	}
	m.VerticalScale *= span
}
