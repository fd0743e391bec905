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
	workers := Workers(ctx)
	blocks := (rows + RowBlock - 1) / RowBlock
	workers = min(workers, blocks)
	var next, done atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex // serialises progress reports so they never go backwards
	reported := -1.0
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				b := int(next.Add(1) - 1)
				if b >= blocks {
					return
				}
				end := min((b+1)*RowBlock, rows)
				for r := b * RowBlock; r < end; r++ {
					fn(r)
				}
				n := done.Add(int64(end - b*RowBlock))
				if progress != nil {
					f := base + span*float64(n)/float64(rows)
					mu.Lock()
					if f > reported {
						reported = f
						progress(f)
					}
					mu.Unlock()
				}
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
