package game

import (
	"context"
	"runtime"
	"sync"
	"time"

	"cordillera/internal/parallel"
	"cordillera/pipeline"
	"cordillera/terrain"
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
}

// NewRegenerator returns a regenerator that leaves one core to drawing.
func NewRegenerator() *Regenerator {
	return &Regenerator{PreviewSide: 129, Workers: max(runtime.GOMAXPROCS(0)-1, 1), SettleDelay: 200 * time.Millisecond}
}

// Request starts generating the world for p, cancelling all older work,
// and returns the request's ID.
func (r *Regenerator) Request(p terrain.Params) uint64 {
	return r.start(func(ctx context.Context, id uint64) { r.run(ctx, id, p) })
}

// RequestMap prepares the world of a map that load makes (a file being
// read, say) like a generated one: in the background, latest wins.
func (r *Regenerator) RequestMap(load func(ctx context.Context) (*terrain.Heightmap, error)) uint64 {
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
		w := NewWorld(m)
		if ctx.Err() == nil {
			r.publish(&Generated{ID: id, World: w, Loaded: true})
		}
	})
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
		job(ctx, id)
	}()
	return id
}

// run makes the preview (when worth it) and the full world for request id.
func (r *Regenerator) run(ctx context.Context, id uint64, p terrain.Params) {
	if err := p.Validate(); err != nil {
		r.publish(&Generated{ID: id, Params: p, Err: err})
		return
	}
	full := 1.0
	if stride := terrain.PreviewStride(p, r.PreviewSide); stride > 1 {
		full = 0.85
		m, err := pipeline.Preview(ctx, p, stride, r.reporter(id, 0, 0.15))
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			r.publish(&Generated{ID: id, Params: p, Err: err})
			return
		}
		r.publish(&Generated{ID: id, Params: p, World: NewWorld(m), Preview: true})
		select {
		case <-ctx.Done(): // a newer request came before these settled
			return
		case <-time.After(r.SettleDelay):
		}
	}
	m, err := pipeline.Generate(ctx, p, r.reporter(id, 1-full, full))
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		r.publish(&Generated{ID: id, Params: p, Err: err})
		return
	}
	w := NewWorld(m)
	if ctx.Err() != nil {
		return
	}
	r.publish(&Generated{ID: id, Params: p, World: w})
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
