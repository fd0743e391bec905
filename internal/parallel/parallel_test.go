package parallel

import (
	"context"
	"sync/atomic"
	"testing"
)

// Each visits every item exactly once, whatever the number of workers.
func TestEachVisitsEveryItemOnce(t *testing.T) {
	for _, workers := range []int{1, 2, 7} {
		ctx := WithWorkers(context.Background(), workers)
		seen := make([]atomic.Int32, 1000)
		if err := Each(ctx, len(seen), func(i int) { seen[i].Add(1) }); err != nil {
			t.Fatal(err)
		}
		for i := range seen {
			if n := seen[i].Load(); n != 1 {
				t.Fatalf("%d workers: item %d visited %d times", workers, i, n)
			}
		}
	}
}

// Blocks covers the rows in blocks of at most RowBlock, and Rows reports
// progress that ends at base+span and never goes back.
func TestRowsCoverAndReport(t *testing.T) {
	rows := 3*RowBlock + 5
	covered := make([]atomic.Int32, rows)
	err := Blocks(context.Background(), rows, func(y0, y1 int) {
		if y1-y0 > RowBlock || y0%RowBlock != 0 {
			t.Errorf("block %d..%d", y0, y1)
		}
		for y := y0; y < y1; y++ {
			covered[y].Add(1)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	for y := range covered {
		if covered[y].Load() != 1 {
			t.Fatalf("row %d covered %d times", y, covered[y].Load())
		}
	}
	last := -1.0
	err = Rows(context.Background(), rows, func(f float64) {
		if f < last {
			t.Errorf("progress went back from %v to %v", last, f)
		}
		last = f
	}, 0.2, 0.5, func(int) {})
	if err != nil || last != 0.7 {
		t.Errorf("error %v, last progress %v; want nil and 0.7", err, last)
	}
}

// A cancelled context stops Each before it hands out every item.
func TestEachStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var n atomic.Int32
	err := Each(WithWorkers(ctx, 1), 100, func(i int) {
		if n.Add(1) == 10 {
			cancel()
		}
	})
	if err != context.Canceled || n.Load() != 10 {
		t.Errorf("error %v after %d items; want context.Canceled after 10", err, n.Load())
	}
}
