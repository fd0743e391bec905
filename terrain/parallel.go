package terrain

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// Progress receives the fraction of a generation that is done, in [0, 1].
// It is called from several goroutines and must be safe for that; nil is allowed.
type Progress func(done float64)

// rowBlock is how many rows a worker takes at a time: small enough that a
// cancelled context is noticed within a few milliseconds even on 4097² maps,
// large enough that scheduling costs nothing measurable.
const rowBlock = 8

// forRows calls fn(row) for every row in [0, rows) on all cores, in blocks
// of rowBlock rows. It stops early and returns ctx.Err() once ctx is done.
// progress, if set, receives base + span·(fraction of rows done).
func forRows(ctx context.Context, rows int, progress Progress, base, span float64, fn func(row int)) error {
	workers := runtime.GOMAXPROCS(0)
	if n, ok := ctx.Value(workersKey{}).(int); ok && n > 0 {
		workers = min(workers, n)
	}
	blocks := (rows + rowBlock - 1) / rowBlock
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
				end := min((b+1)*rowBlock, rows)
				for r := b * rowBlock; r < end; r++ {
					fn(r)
				}
				n := done.Add(int64(end - b*rowBlock))
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

// WithWorkers returns a context under which generation uses at most n
// cores: the explorer leaves the others to drawing.
func WithWorkers(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, workersKey{}, n)
}
