package game

import (
	"errors"
	"flag"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"cordillera/internal/testenv"
)

// Pixel tests need Ebiten's game loop, which must own the main thread.
// TestMain runs the loop there and the tests on another goroutine; a test
// hands work to the loop with onLoop (one job per tick, so frames advance
// between jobs) and can have the loop draw every frame with setDraw.
// Without a display (DISPLAY unset) the loop is not started and the tests
// that need it skip: run them under xvfb-run.

var (
	haveLoop bool
	loop     = &loopGame{jobs: make(chan func())}
)

type loopGame struct {
	jobs   chan func()
	done   atomic.Bool
	mu     sync.Mutex
	draw   func(screen *ebiten.Image)
	frames atomic.Int64
	w, h   int
}

func (l *loopGame) Update() error {
	if l.done.Load() {
		return ebiten.Termination
	}
	select {
	case job := <-l.jobs:
		job()
	default:
	}
	return nil
}

func (l *loopGame) Draw(screen *ebiten.Image) {
	l.mu.Lock()
	d := l.draw
	l.mu.Unlock()
	if d != nil {
		d(screen)
	}
	l.frames.Add(1)
}

func (l *loopGame) Layout(int, int) (int, int) { return l.w, l.h }

// onLoop runs f on the game loop's thread, inside an Update.
func onLoop(f func()) {
	done := make(chan struct{})
	loop.jobs <- func() { defer close(done); f() }
	<-done
}

// setDraw makes the loop draw with d every frame (nil: draw nothing).
func setDraw(d func(screen *ebiten.Image)) {
	loop.mu.Lock()
	loop.draw = d
	loop.mu.Unlock()
}

// needLoop skips a test that needs a display, or fails it when
// CORDILLERA_REQUIRE_DISPLAY=1 (see internal/testenv).
func needLoop(t testing.TB) {
	t.Helper()
	if !haveLoop {
		testenv.NoDisplay(t, "DISPLAY is empty, so the game loop did not start")
	}
}

// testScreen is the size of the pixel tests' frames.
const testW, testH = 640, 480

func TestMain(m *testing.M) {
	flag.Parse()
	if !testenv.HasDisplay() {
		os.Exit(m.Run())
	}
	haveLoop = true
	loop.w, loop.h = testW, testH
	code := make(chan int, 1)
	go func() {
		c := m.Run()
		loop.done.Store(true)
		code <- c
	}()
	ebiten.SetWindowSize(testW, testH)
	ebiten.SetWindowTitle("cordillera tests")
	ebiten.SetVsyncEnabled(false)
	ebiten.SetTPS(ebiten.SyncWithFPS)
	if err := ebiten.RunGame(loop); err != nil && !errors.Is(err, ebiten.Termination) {
		os.Stderr.WriteString("game loop: " + err.Error() + "\n")
		os.Exit(1)
	}
	os.Exit(<-code)
}
