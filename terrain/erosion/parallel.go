package erosion

import (
	"context"
	"sync"
	"sync/atomic"

	"cordillera/internal/parallel"
)

// forEach calls fn(i) for every i in [0, n) on all cores (or as many as
// parallel.WithWorkers allows), handing out items one at a time. Which
// core runs which item varies, so fn must
// write only what item i owns; then the result cannot depend on the
// number of cores. It stops handing out items once ctx is done and
// returns ctx.Err().
func forEach(ctx context.Context, n int, fn func(i int)) error {
	workers := min(parallel.Workers(ctx), n) // the explorer leaves a core to drawing
	if workers <= 1 {
		for i := 0; i < n && ctx.Err() == nil; i++ {
			fn(i)
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

// rowBlock is how many rows forRows hands out at a time: a few
// milliseconds of work at most on an 8193-wide map, so cancellation is
// noticed quickly.
const rowBlock = 8

// forRows calls fn(y0, y1) for blocks of rows covering [0, rows) on all
// cores; see forEach.
func forRows(ctx context.Context, rows int, fn func(y0, y1 int)) error {
	blocks := (rows + rowBlock - 1) / rowBlock
	return forEach(ctx, blocks, func(b int) {
		fn(b*rowBlock, min((b+1)*rowBlock, rows))
	})
}
