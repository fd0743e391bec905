// Package parallel splits grid work across cores: rows in small blocks, so
// that a cancelled context is noticed within milliseconds, with progress
// reports that never go backwards. It knows nothing of terrain; every stage
// of the pipeline (generators, erosion, the route solve, the mesh) uses it.
package parallel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// Progress receives the fraction of a task that is done, in [0, 1].
// It is called from several goroutines and must be safe for that; nil is allowed.
type Progress func(done float64)

// Tee reports a fraction to both a and b; either may be nil.
func Tee(a, b Progress) Progress {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return func(f float64) { a(f); b(f) }
}

// Range maps a sub-task's progress in [0, 1] onto [base, base+span] of the
// whole.
func Range(progress Progress, base, span float64) Progress {
	if progress == nil {
		return nil
	}
	return func(f float64) { progress(base + span*f) }
}

// RowBlock is how many rows a worker takes at a time: small enough that a
// cancelled context is noticed within a few milliseconds even on 4097² maps,
// large enough that scheduling costs nothing measurable.
const RowBlock = 8

// Rows calls fn(row) for every row in [0, rows) on all cores, in blocks
// of RowBlock rows. It stops early and returns ctx.Err() once ctx is done.
// progress, if set, receives base + span·(fraction of rows done).
func Rows(ctx context.Context, rows int, progress Progress, base, span float64, fn func(row int)) error {
	var done atomic.Int64
	var mu sync.Mutex // serialises progress reports so they never go backwards
	reported := -1.0
	return Blocks(ctx, rows, func(y0, y1 int) {
		for r := y0; r < y1; r++ {
			fn(r)
		}
		n := done.Add(int64(y1 - y0))
		if progress != nil {
			f := base + span*float64(n)/float64(rows)
			mu.Lock()
			if f > reported {
				reported = f
				progress(f)
			}
			mu.Unlock()
		}
	})
}

// Blocks calls fn(y0, y1) for blocks of at most RowBlock rows covering
// [0, rows) on all cores; see Each.
func Blocks(ctx context.Context, rows int, fn func(y0, y1 int)) error {
	blocks := (rows + RowBlock - 1) / RowBlock
	return Each(ctx, blocks, func(b int) {
		fn(b*RowBlock, min((b+1)*RowBlock, rows))
	})
}

// Each calls fn(i) for every i in [0, n) on the cores Workers(ctx)
// allows, handing out items one at a time. Which core runs which item
// varies, so fn must write only what item i owns; then the result cannot
// depend on the number of cores. It stops handing out items once ctx is
// done and returns ctx.Err().
func Each(ctx context.Context, n int, fn func(i int)) error {
	workers := min(Workers(ctx), n)
	if workers <= 1 {
		for i := 0; i < n && ctx.Err() == nil; i++ {
			fn(i)
			yield(ctx) // in the browser, background work gives the page its frames
		}
		return ctx.Err()
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}

type workersKey struct{}

// WithWorkers returns a context under which Rows uses at most n cores: the
// explorer leaves the others to drawing.
func WithWorkers(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, workersKey{}, n)
}

// Workers is the number of goroutines work under ctx may use: GOMAXPROCS,
// or fewer where WithWorkers asked for fewer.
func Workers(ctx context.Context) int {
	workers := runtime.GOMAXPROCS(0)
	if n, ok := ctx.Value(workersKey{}).(int); ok && n > 0 {
		workers = min(workers, n)
	}
	return workers
}
