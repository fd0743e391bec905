package game

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"cordillera/internal/parallel"
	"cordillera/pipeline"
	"cordillera/terrain"
	"cordillera/terrain/erosion"
)

// Regenerator makes worlds on background goroutines so that the frame loop
// never waits: every Request cancels the work of older ones (the latest
// wins), a slow map first arrives as a coarse preview and in full once its
// parameters have settled, and a result is published only while its
// request is still the newest, so an older map can never replace a newer
// one.
type Regenerator struct {
	// PreviewSide is the largest side of a preview; maps that take longer
	// than a frame or two to make arrive first at this resolution. 129
	// keeps frames while a slider is dragged within 1.5× of idle frames on
	// two cores (BenchmarkFrameDragging1025); 257 doubled them.
	PreviewSide int
	// Workers is how many cores generation may use; the others are left
	// to drawing.
	Workers int
	// SettleDelay is how long the parameters of a map that has a preview
	// must stay unchanged before the full map is made: while a slider is
	// dragged the previews follow it, and the full map comes once it rests.
	SettleDelay time.Duration
	// PassEvery is how often the map is shown while erosion works on it:
	// preparing a world to draw costs tens of milliseconds at 1025², which
	// the erosion then waits for.
	PassEvery time.Duration

	mu       sync.Mutex
	latest   uint64
	cancel   context.CancelFunc
	ready    *Generated
	progress float64
	busy     bool
	closed   bool
	wg       sync.WaitGroup
}

// Generated is one finished (or failed) generation.
type Generated struct {
	ID      uint64 // the Request that asked for it; IDs grow with each Request
	Params  terrain.Params
	World   *World
	Preview bool  // a coarse version; the full map follows unless cancelled
	Loaded  bool  // read from a file rather than generated from Params
	Err     error // why the parameters could not make a map (nothing else is set)

	Stage  string         // the erosion pass a preview shows, e.g. "hydraulic 3/8"
	Budget erosion.Budget // where the eroded material went
}

// NewRegenerator returns a regenerator that leaves one core to drawing.
func NewRegenerator() *Regenerator {
	return &Regenerator{PreviewSide: 129, Workers: max(runtime.GOMAXPROCS(0)-1, 1), SettleDelay: 200 * time.Millisecond,
		PassEvery: 400 * time.Millisecond}
}

// Request starts generating the world for p, cancelling all older work,
// and returns the request's ID.
func (r *Regenerator) Request(p terrain.Params) uint64 {
	return r.start(func(ctx context.Context, id uint64) { r.run(ctx, id, p) })
}

// RequestMap prepares the world of a map that load makes (a file being
// read, say) like a generated one: in the background, latest wins. When p
// lists erosion stages, the map is shown as loaded first and then eroded,
// updating as the passes finish.
func (r *Regenerator) RequestMap(load func(ctx context.Context) (*terrain.Heightmap, error), p terrain.Params) uint64 {
	return r.start(func(ctx context.Context, id uint64) {
		m, err := load(ctx)
		if ctx.Err() != nil {
			return
		}
		if err == nil && m == nil {
			err = errNoMap
		}
		if err != nil {
			r.publish(&Generated{ID: id, Err: err})
			return
		}
		r.erode(ctx, id, m, p)
	})
}

// RequestErode erodes a loaded map anew with the erosion parameters of p,
// as when the Erosion section changes while a file is open.
func (r *Regenerator) RequestErode(src *terrain.Heightmap, p terrain.Params) uint64 {
	return r.start(func(ctx context.Context, id uint64) { r.erode(ctx, id, src, p) })
}

// erode publishes the loaded map src and, if p asks for erosion, the map
// as it is worn away, pass by pass, and in full.
func (r *Regenerator) erode(ctx context.Context, id uint64, src *terrain.Heightmap, p terrain.Params) {
	if len(erosion.Stages(p)) == 0 {
		w := NewWorld(src)
		w.Source = src
		if ctx.Err() == nil {
			r.publish(&Generated{ID: id, Params: p, World: w, Loaded: true})
		}
		return
	}
	first := NewWorld(src)
	first.Source = src
	r.publish(&Generated{ID: id, Params: p, World: first, Loaded: true, Preview: true})
	opt := pipeline.Options{Progress: r.reporter(id, 0, 1-finishShare), Masks: true, Pass: r.passes(ctx, id, p, true, src)}
	pw, err := pipeline.Erode(ctx, src, p, opt)
	r.publishBuilt(ctx, id, p, pw, err, func(g *Generated) { g.Loaded, g.World.Source = true, src })
}

// publishBuilt publishes what the pipeline built for request id, or why it
// could not, unless a newer request cancelled it; dress, if set, adds what
// the kind of request knows (a loaded map's source, a route, the land
// beyond the map). The work here shows as the last finishShare of the
// progress.
func (r *Regenerator) publishBuilt(ctx context.Context, id uint64, p terrain.Params, pw *pipeline.World, err error, dress func(*Generated)) {
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		r.publish(&Generated{ID: id, Params: p, Err: err})
		return
	}
	finish := r.reporter(id, 1-finishShare, finishShare)
	finish(0)
	w, err := newWorldContext(ctx, pw.Map)
	if err != nil {
		return // cancelled by a newer request
	}
	w.Masks = pw.Masks
	g := &Generated{ID: id, Params: p, World: w, Budget: pw.Budget}
	if dress != nil {
		finish(0.5)
		dress(g)
	}
	if ctx.Err() == nil {
		r.publish(g)
	}
}

// passes returns an erosion pass callback that publishes the map as it
// stands at most every PassEvery, as a preview of request id.
func (r *Regenerator) passes(ctx context.Context, id uint64, p terrain.Params, loaded bool, src *terrain.Heightmap) func(string, int, int, *terrain.Heightmap) {
	last := time.Now()
	return func(stage string, pass, passes int, m *terrain.Heightmap) {
		if time.Since(last) < r.PassEvery || pass == passes || ctx.Err() != nil {
			return
		}
		snap := *m
		snap.Samples = append([]float32(nil), m.Samples...)
		w := NewWorld(&snap)
		w.Source = src
		r.publish(&Generated{ID: id, Params: p, World: w, Preview: true, Loaded: loaded,
			Stage: fmt.Sprintf("%s %d/%d", stage, pass, passes)})
		last = time.Now()
	}
}

// start cancels older work and runs job for a new request.
func (r *Regenerator) start(job func(ctx context.Context, id uint64)) uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return r.latest
	}
	if r.cancel != nil {
		r.cancel()
	}
	r.latest++
	id := r.latest
	ctx, cancel := context.WithCancel(parallel.WithWorkers(context.Background(), r.Workers))
	r.cancel, r.busy, r.progress = cancel, true, 0
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer cancel()
		// A request replaced before its goroutine ran does nothing: a
		// burst of requests (a slider dragged on a loaded machine) left
		// hundreds of replaced jobs each doing their setup before they
		// looked at ctx, and the newest waited behind them.
		if ctx.Err() != nil {
			return
		}
		job(ctx, id)
	}()
	return id
}

// previewShare is the part of a generation's progress the preview takes,
// when there is one; the full world takes the rest. Of that, finishShare
// at the end is the finishing work publishBuilt does (the world's minimap
// and meshes, the land beyond the map): a 2049² world in the browser
// spends 1–2 s there, which the progress bar showed as done.
const (
	previewShare = 0.15
	finishShare  = 0.1
)

// run makes the preview (when worth it) and the full world for request id.
func (r *Regenerator) run(ctx context.Context, id uint64, p terrain.Params) {
	if err := pipeline.Check(p); err != nil {
		r.publish(&Generated{ID: id, Params: p, Err: err})
		return
	}
	full := 1.0
	if stride := terrain.PreviewStride(p, r.PreviewSide); stride > 1 {
		full = 1 - previewShare
		pw, err := pipeline.Preview(ctx, p, stride, pipeline.Options{Progress: r.reporter(id, 0, previewShare)})
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			r.publish(&Generated{ID: id, Params: p, Err: err})
			return
		}
		w := NewWorld(pw.Map)
		AddOutside(ctx, w, p)
		r.publish(&Generated{ID: id, Params: p, World: w, Preview: true})
		select {
		case <-ctx.Done(): // a newer request came before these settled
			return
		case <-time.After(r.SettleDelay):
		}
	}
	opt := pipeline.Options{Progress: r.reporter(id, 1-full, full-finishShare), Masks: true}
	if len(erosion.Stages(p)) > 0 {
		opt.Pass = r.passes(ctx, id, p, false, nil)
	}
	pw, err := pipeline.Generate(ctx, p, opt)
	r.publishBuilt(ctx, id, p, pw, err, func(g *Generated) { AddOutside(ctx, g.World, p) })
}

// reporter returns a progress callback for request id mapped onto
// [base, base+span].
func (r *Regenerator) reporter(id uint64, base, span float64) terrain.Progress {
	return func(f float64) {
		r.mu.Lock()
		if id == r.latest {
			r.progress = base + span*f
		}
		r.mu.Unlock()
	}
}

// publish offers a result, unless a newer request has been made since.
func (r *Regenerator) publish(g *Generated) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if g.ID != r.latest || r.closed {
		return
	}
	r.ready = g
	if !g.Preview {
		r.busy, r.progress = false, 1
	}
}

// Cancel stops all work under way and drops a result not yet taken:
// nothing asked for before it will be published.
func (r *Regenerator) Cancel() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cancel != nil {
		r.cancel()
		r.cancel = nil
	}
	r.latest++
	r.ready, r.busy, r.progress = nil, false, 0
}

// Take returns the newest result not yet taken, or nil.
func (r *Regenerator) Take() *Generated {
	r.mu.Lock()
	defer r.mu.Unlock()
	g := r.ready
	r.ready = nil
	return g
}

// Status reports whether a generation is under way and how far it is.
func (r *Regenerator) Status() (busy bool, progress float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.busy, r.progress
}

// Close cancels all work and waits for the goroutines to end.
func (r *Regenerator) Close() {
	r.mu.Lock()
	r.closed = true
	if r.cancel != nil {
		r.cancel()
	}
	r.mu.Unlock()
	r.wg.Wait()
}

// genState is the explorer's side of making worlds: the regenerator that
// makes them, the worlds made last and which of them is shown.
type genState struct {
	regen   *Regenerator
	worlds  worldCache // the worlds made last, for undo and redo
	rng     *rand.Rand // the seeds of the Generator panel's New seed button
	worldID uint64     // serial of the world shown, for the state file
	// snowFit is the snow line fitSnowLine last set (snowFitted once it
	// has): a snow line still there was not moved by the user.
	snowFit    float32
	snowFitted bool
	sumOf      struct { // the shown map's heights summed, for the state (mapSum)
		id  uint64
		m   *terrain.Heightmap
		sum float64
	}

	stage  string         // the erosion pass the world shows while erosion runs
	budget erosion.Budget // where the world's eroded material went
}
