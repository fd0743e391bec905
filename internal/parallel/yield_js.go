//go:build js

package parallel

import (
	"context"
	"time"
)

// WebAssembly runs Go on the page's one thread, and Go cannot preempt a
// busy goroutine there: work that never gives the thread back freezes the
// page, frames and progress bar alike, until it ends. yield gives the
// thread back to the browser (a timer wakes the work again) once the work
// has run yieldEvery since it last did. Only cancellable work yields: that
// is the background work (generation, erosion, lighting); the frame loop's
// own loops run on context.Background, whose Done is nil, and finish their
// frame without a pause.

// yieldEvery is how long work runs between two yields: about a frame.
const yieldEvery = 16 * time.Millisecond

var lastYield time.Time

func yield(ctx context.Context) {
	if ctx.Done() == nil || time.Since(lastYield) < yieldEvery {
		return
	}
	time.Sleep(time.Millisecond) // with nothing else to run, the scheduler returns to the browser
	lastYield = time.Now()
}
