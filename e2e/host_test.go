package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
)

// The host: a hidden ebiten.Game on the main thread that runs jobs the
// tests hand it. Everything that touches a guest session (ticks, frames,
// input, Close) runs as such a job, inside the host's Update, because
// CompositeFrame, Close and the guest's pixel read-backs need the host's
// frame.

var (
	// hostRunning is set by TestMain when the host loop runs; without a
	// display it stays false and the tests skip.
	hostRunning bool

	jobs     = make(chan func())
	hostDone = make(chan struct{}) // closed when the host loop has ended
	testsEnd = make(chan struct{}) // closed when m.Run has returned
)

type hostGame struct{}

// Update runs the jobs that arrive; it keeps taking them for a while so
// that a test's consecutive steps do not each wait for the next frame.
func (hostGame) Update() error {
	for {
		select {
		case <-testsEnd:
			return ebiten.Termination
		case job := <-jobs:
			job()
		case <-time.After(20 * time.Millisecond):
			return nil
		}
	}
}

func (hostGame) Draw(*ebiten.Image) {}

func (hostGame) Layout(w, h int) (int, int) { return w, h }

// runHost runs the host loop until the tests end. It returns the loop's
// error, if any.
func runHost() error {
	defer close(hostDone)
	ebiten.SetWindowVisible(false)
	ebiten.SetWindowSize(320, 240)
	ebiten.SetWindowTitle("cordillera e2e host")
	ebiten.SetRunnableOnUnfocused(true)
	return ebiten.RunGame(hostGame{})
}

// errHostGone is what onHost returns once the host loop has ended.
var errHostGone = errors.New("the host loop has ended (see its error above)")

// onHost runs f inside the host's Update and waits for it. When f does not
// finish within timeout, onTimeout is called (once; it should unblock f,
// e.g. by killing the guest f waits on) and onHost keeps waiting for f,
// then reports the timeout.
func onHost(f func(), timeout time.Duration, onTimeout func()) error {
	done := make(chan struct{})
	job := func() {
		defer close(done)
		f()
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case jobs <- job:
	case <-hostDone:
		return errHostGone
	case <-timer.C:
		return fmt.Errorf("the host loop did not take a job within %v", timeout)
	}
	select {
	case <-done:
		return nil
	case <-timer.C:
		if onTimeout != nil {
			onTimeout()
		}
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			return fmt.Errorf("a host job overran %v and did not end after the guest was killed", timeout)
		}
		return fmt.Errorf("a host job overran %v: the guest was killed", timeout)
	}
}

// The guest binary is built once per test binary.
var (
	guestOnce sync.Once
	guestBin  string
	guestErr  error
)

// repoRoot is the module root: the e2e package's parent directory (go test
// runs a package's tests in its directory).
func repoRoot() string {
	abs, err := filepath.Abs("..")
	if err != nil {
		panic(err)
	}
	return abs
}

// guestBinary builds the cordillera command with the ebitenginevmguest tag,
// so that its ebiten.RunGame connects to the host named by
// EBITENGINE_VM_ENDPOINT instead of opening a window.
func guestBinary() (string, error) {
	guestOnce.Do(func() {
		dir, err := scratchDir()
		if err != nil {
			guestErr = err
			return
		}
		bin := filepath.Join(dir, "cordillera-guest")
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "go", "build", "-tags", "ebitenginevmguest", "-o", bin, ".")
		cmd.Dir = repoRoot()
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			guestErr = fmt.Errorf("building the guest: %v\n%s", err, out.Bytes())
			return
		}
		guestBin = bin
	})
	return guestBin, guestErr
}

// shortTempDir makes a directory with a short path: a Unix socket's path
// must stay under about 100 bytes.
func shortTempDir() (string, error) {
	return os.MkdirTemp("", "cg")
}

// listenUnix listens on a socket in dir.
func listenUnix(dir string) (net.Listener, error) {
	return net.Listen("unix", filepath.Join(dir, "g.sock"))
}
