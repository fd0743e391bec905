package commands

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"cordillera/terrain"

	"golang.org/x/term"
)

// phaseBar draws a progress line for each phase of a run (generating, each
// erosion stage, writing each file) on a terminal: the phase's name, a bar,
// the percentage, the time the phase has taken and the time it has left,
// estimated from that phase's own rate. An estimate over the whole run
// would be wrong in every phase: a hydraulic stage runs a hundred times
// slower per percent than generating, and writing reports no percentage
// the generator's rate says anything about. A finished phase leaves its
// line with its time, so the run's phases read top to bottom.
type phaseBar struct {
	w     io.Writer
	delay time.Duration // nothing is drawn before the run has lasted this long
	now   func() time.Time

	mu    sync.Mutex
	start time.Time
	phase int // counts phases, so that a late report of an ended one is dropped
	name  string
	began time.Time
	done  float64
	known bool // the phase has reported a fraction
	shown bool // its line is on the screen
	width int  // of the line drawn last, to blank it when redrawn shorter
	drawn time.Time
	stop  chan struct{}
}

// barRedraw is how often a line is redrawn: its elapsed time moves even
// in a phase that reports no fraction.
const barRedraw = 200 * time.Millisecond

// newPhaseBar returns a bar on w that starts drawing once delay has passed
// and redraws its line every barRedraw.
func newPhaseBar(w io.Writer, delay time.Duration) *phaseBar {
	b := newPhaseBarClock(w, delay, time.Now)
	go func() {
		t := time.NewTicker(barRedraw)
		defer t.Stop()
		for {
			select {
			case <-b.stop:
				return
			case <-t.C:
				b.mu.Lock()
				b.draw()
				b.mu.Unlock()
			}
		}
	}()
	return b
}

// newPhaseBarClock returns a bar that reads the time from now and draws
// only when a phase begins, ends or reports progress (no redraws on a
// timer).
func newPhaseBarClock(w io.Writer, delay time.Duration, now func() time.Time) *phaseBar {
	return &phaseBar{w: w, delay: delay, now: now, start: now(), stop: make(chan struct{})}
}

// terminalBar returns a phase bar on stderr when it is a terminal, drawn
// once a run has lasted more than a second, and nil otherwise.
func terminalBar(stderr io.Writer) *phaseBar {
	f, ok := stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return newPhaseBar(f, time.Second)
}

// Phase ends the phase in progress and starts the one named, returning its
// progress (the fraction of that phase done). A nil bar returns nil.
func (b *phaseBar) Phase(name string) terrain.Progress {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.end()
	b.phase++
	b.name, b.began, b.done, b.known = name, b.now(), 0, false
	b.draw()
	phase := b.phase
	return func(f float64) {
		b.mu.Lock()
		defer b.mu.Unlock()
		if phase != b.phase {
			return
		}
		first := !b.known
		b.done, b.known = max(b.done, min(max(f, 0), 1)), true
		if first || b.now().Sub(b.drawn) >= barRedraw {
			b.draw()
		}
	}
}

// Finish ends the last phase and stops drawing. A nil bar does nothing.
func (b *phaseBar) Finish() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.end()
	b.name = ""
	select {
	case <-b.stop:
	default:
		close(b.stop)
	}
}

// end leaves the phase's line on the screen, complete, with its time; a
// phase that was never drawn (the run was still short) leaves nothing.
func (b *phaseBar) end() {
	if b.name == "" || !b.shown {
		return
	}
	if b.known {
		b.done = 1
	}
	b.line(b.now().Sub(b.began), false)
	fmt.Fprintln(b.w)
	b.shown, b.width = false, 0
}

// draw redraws the phase's line, once the run has lasted the delay.
func (b *phaseBar) draw() {
	now := b.now()
	if b.name == "" || now.Sub(b.start) < b.delay {
		return
	}
	b.line(now.Sub(b.began), true)
	b.shown, b.drawn = true, now
}

// line writes the phase's line over the one on the screen: with a
// fraction, a bar, the percentage and, while running, the time left at the
// phase's own rate so far; without one (a format that does not report
// it), the time taken alone.
func (b *phaseBar) line(took time.Duration, running bool) {
	const width = 30
	s := fmt.Sprintf("%-24s", b.name)
	if b.known {
		n := int(b.done * width)
		s += fmt.Sprintf(" [%s%s] %3.0f%%", strings.Repeat("=", n), strings.Repeat(" ", width-n), 100*b.done)
	}
	s += " " + roundTime(took).String()
	// Below a few percent the rate says little (a file's header is
	// written in an instant), so no estimate is given yet.
	if running && b.known && b.done >= minEstimate && b.done < 1 && took > 0 {
		left := time.Duration(float64(took) * (1 - b.done) / b.done)
		s += ", about " + roundTime(left).String() + " left"
	}
	pad := max(b.width-len(s), 0)
	fmt.Fprintf(b.w, "\r%s%s", s, strings.Repeat(" ", pad))
	b.width = len(s)
}

// minEstimate is the share of a phase done before its end is estimated.
const minEstimate = 0.02

// roundTime rounds a duration for the bar: tenths of a second.
func roundTime(d time.Duration) time.Duration {
	return d.Round(100 * time.Millisecond)
}

// countBytes returns write reporting to progress the share of size bytes
// it has written; with no size or no progress, write itself.
func countBytes(write func(io.Writer) error, size int64, progress terrain.Progress) func(io.Writer) error {
	if size <= 0 || progress == nil {
		return write
	}
	return func(w io.Writer) error {
		return write(&byteCounter{w: w, size: size, progress: progress})
	}
}

// byteCounter passes writes on and reports the share of size written.
type byteCounter struct {
	w        io.Writer
	n, size  int64
	progress terrain.Progress
}

func (c *byteCounter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.progress(min(float64(c.n)/float64(c.size), 1))
	return n, err
}

// terminalProgress returns a progress callback that draws a bar on
// stderr, named after the stage, once a run has lasted more than a second,
// and a function that ends it; when stderr is not a terminal both do
// nothing.
func terminalProgress(stderr io.Writer, stage string) (terrain.Progress, func()) {
	b := terminalBar(stderr)
	if b == nil {
		return nil, func() {}
	}
	return b.Phase(stage), b.Finish
}

// progressBar draws a bar named stage on w once delay has passed since it
// was made; the progress callback is safe for several goroutines.
func progressBar(w io.Writer, stage string, delay time.Duration) (terrain.Progress, func()) {
	b := newPhaseBar(w, delay)
	return b.Phase(stage), b.Finish
}
