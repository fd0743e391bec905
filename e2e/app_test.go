package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/exp/vmhost"

	"cordillera/game"
	"cordillera/internal/testenv"
)

// Screen size of the guest, in logical pixels.
const (
	screenW = 960
	screenH = 600
)

// Time limits. A guest that hangs fails the test within these.
const (
	connectTimeout = 60 * time.Second // start, generate the first world, dial the host
	idleTimeout    = 30 * time.Second // the session's limit on silence from the guest
	jobTimeout     = 60 * time.Second // one host job (a run of ticks, a frame)
	exitTimeout    = 15 * time.Second // the guest's exit once its session is closed
)

// exploreArgs opens a small world quickly.
var exploreArgs = []string{"explore", "-size", "257"}

// app is one running guest: the cordillera explorer under the host.
type app struct {
	t         testing.TB
	cmd       *exec.Cmd
	exited    chan struct{} // closed when the process has been reaped
	stderr    *syncBuffer
	sess      *vmhost.GuestSession
	screen    *ebiten.Image
	scale     float64 // device scale factor: physical pixels per logical pixel
	stateFile string
	dir       string
	closed    bool

	frames    map[string]*image.RGBA // the frames taken, by name
	artifacts string                 // where frames go when the test fails
}

// syncBuffer is a bytes.Buffer safe for the process's writes and the
// test's reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// launch starts the explorer as a guest with the given arguments and lets
// it settle: its first state is written and its first frame rendered.
// Launches are occasionally flaky (see the vmhost skill), so a failed one
// is retried once.
func launch(t *testing.T, args ...string) *app {
	t.Helper()
	if !hostRunning {
		testenv.NoDisplay(t, "DISPLAY is empty, so the host loop did not start")
	}
	bin, err := guestBinary()
	if err != nil {
		t.Fatal(err)
	}
	var a *app
	for attempt := 1; attempt <= 2; attempt++ {
		a, err = launchOnce(t, bin, args)
		if err == nil {
			break
		}
		t.Logf("launch attempt %d failed: %v", attempt, err)
	}
	if err != nil {
		t.Fatalf("the guest did not start twice: %v", err)
	}
	if f := flag.Lookup("test.artifacts"); f != nil && f.Value.String() == "true" {
		a.artifacts = t.ArtifactDir() // before a.close's cleanup, so that it outlives it
	}
	t.Cleanup(a.close)
	return a
}

func launchOnce(t *testing.T, bin string, args []string) (a *app, err error) {
	dir, err := shortTempDir()
	if err != nil {
		return nil, err
	}
	a = &app{t: t, dir: dir, stateFile: filepath.Join(dir, "state.json"), stderr: &syncBuffer{}, exited: make(chan struct{})}
	defer func() {
		if err != nil {
			a.close()
			if s := a.stderr.String(); s != "" {
				err = fmt.Errorf("%w\nguest stderr:\n%s", err, tail(s, 4000))
			}
		}
	}()
	ln, err := listenUnix(dir)
	if err != nil {
		return a, err
	}
	defer ln.Close()
	endpoint, err := vmhost.EndpointURLFromAddr(ln.Addr())
	if err != nil {
		return a, err
	}

	a.cmd = exec.Command(bin, args...)
	a.cmd.Dir = repoRoot() // paths typed into the File panel are relative to the repository
	// A config folder of the test's own, so that a UI scale the user saved
	// cannot move the widgets the test clicks.
	a.cmd.Env = append(os.Environ(), "EBITENGINE_VM_ENDPOINT="+endpoint, game.StateFileEnv+"="+a.stateFile, "XDG_CONFIG_HOME="+dir)
	a.cmd.Stdout, a.cmd.Stderr = a.stderr, a.stderr
	if err := a.cmd.Start(); err != nil {
		a.cmd = nil
		return a, err
	}
	go func() {
		_ = a.cmd.Wait()
		close(a.exited)
	}()

	// Accept the guest's connection, giving up when the process dies first
	// or the time is up.
	type accepted struct {
		conn net.Conn
		err  error
	}
	acc := make(chan accepted, 1)
	go func() {
		c, err := ln.Accept()
		acc <- accepted{c, err}
	}()
	var conn net.Conn
	select {
	case r := <-acc:
		if r.err != nil {
			return a, fmt.Errorf("accepting the guest: %w", r.err)
		}
		conn = r.conn
	case <-a.exited:
		return a, fmt.Errorf("the guest exited before connecting: %v", a.cmd.ProcessState)
	case <-time.After(connectTimeout):
		return a, fmt.Errorf("the guest did not connect within %v", connectTimeout)
	}
	a.sess, err = vmhost.NewGuestSession(conn, &vmhost.NewGuestSessionOptions{
		IdleTimeout: idleTimeout,
	})
	if err != nil {
		conn.Close()
		return a, err
	}

	var setupErr error
	if err := a.onHost(func() {
		a.scale = ebiten.Monitor().DeviceScaleFactor()
		a.screen = ebiten.NewImage(int(screenW*a.scale), int(screenH*a.scale))
		setupErr = a.sess.SetOutsideScreen(a.screen)
	}); err != nil {
		return a, err
	}
	if setupErr != nil {
		return a, setupErr
	}
	// Settle: some ticks, a state and a frame.
	if err := a.advance(10); err != nil {
		return a, err
	}
	if _, err := a.tryState(); err != nil {
		return a, err
	}
	if _, err := a.tryFrame(); err != nil {
		return a, err
	}
	return a, nil
}

// onHost runs f on the host; when it overruns jobTimeout the guest is
// killed, which ends whatever f waits on.
func (a *app) onHost(f func()) error {
	return onHost(f, jobTimeout, a.kill)
}

func (a *app) kill() {
	if a.cmd != nil && a.cmd.Process != nil {
		_ = a.cmd.Process.Kill()
	}
}

// close ends the session (in the host's frame), waits for the guest to
// exit on its own and kills it when it does not (at once when it never
// connected). On a failed test it logs what the guest wrote to stderr and
// saves the frames the test took.
func (a *app) close() {
	if a.closed {
		return
	}
	a.closed = true
	hung := a.sess == nil || a.sess.Err() != nil // never connected, or timed out or broke
	if a.sess != nil || a.screen != nil {
		_ = onHost(func() {
			if a.sess != nil {
				if err := a.sess.Close(); err != nil {
					a.t.Logf("closing the guest session: %v", err)
				}
			}
			if a.screen != nil {
				a.screen.Deallocate()
			}
		}, jobTimeout, a.kill)
	}
	if a.cmd != nil {
		wait := exitTimeout
		if hung {
			wait = 0
		}
		select {
		case <-a.exited:
		case <-time.After(wait):
			if !hung {
				a.t.Logf("the guest did not exit within %v of its session closing: killed", wait)
			}
			a.kill()
			<-a.exited
		}
	}
	if a.t.Failed() {
		if s := a.stderr.String(); s != "" {
			a.t.Logf("guest stderr:\n%s", tail(s, 4000))
		}
		a.saveFrames()
	}
	_ = os.RemoveAll(a.dir)
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// sessionErr describes why the session stopped.
func (a *app) sessionErr(what string) error {
	err := a.sess.Err()
	if err == nil {
		err = errors.New("no error recorded")
	}
	return fmt.Errorf("%s: the guest session ended: %w", what, err)
}

// advance runs n ticks of the guest and waits until they are done.
func (a *app) advance(n int) error {
	ok := false
	if err := a.onHost(func() {
		a.sess.AdvanceTicks(n)
		ok = a.sess.WaitTicks()
	}); err != nil {
		return err
	}
	if !ok {
		return a.sessionErr(fmt.Sprintf("advancing %d ticks", n))
	}
	return nil
}

// ticks runs n ticks, failing the test when the guest does not.
func (a *app) ticks(n int) {
	a.t.Helper()
	if err := a.advance(n); err != nil {
		a.t.Fatal(err)
	}
}

// tryFrame renders the guest's current state and reads it back (physical
// pixels, opaque RGBA).
func (a *app) tryFrame() (*image.RGBA, error) {
	var img *image.RGBA
	var ferr error
	if err := a.onHost(func() {
		a.sess.AdvanceFrame()
		if !a.sess.WaitFrame() {
			ferr = a.sessionErr("rendering a frame")
			return
		}
		if !a.sess.CompositeFrame() {
			ferr = errors.New("compositing the guest's frame failed")
			return
		}
		b := a.screen.Bounds()
		img = image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
		a.screen.ReadPixels(img.Pix)
	}); err != nil {
		return nil, err
	}
	return img, ferr
}

// frame is tryFrame that fails the test on an error, viewed in logical
// pixels. The test keeps it under name: when the test fails, its frames
// are saved in its artifact directory (go test -artifacts keeps them).
// With E2E_FRAMES set to a directory every frame is saved there too, for
// a person to look at.
func (a *app) frame(name string) frameView {
	a.t.Helper()
	img, err := a.tryFrame()
	if err != nil {
		a.t.Fatal(err)
	}
	if a.frames == nil {
		a.frames = map[string]*image.RGBA{}
	}
	a.frames[name] = img
	if dir := os.Getenv("E2E_FRAMES"); dir != "" {
		path := filepath.Join(dir, strings.ReplaceAll(a.t.Name(), "/", "_")+"-"+name+".png")
		if err := savePNG(path, img); err != nil {
			a.t.Errorf("saving %s: %v", path, err)
		}
	}
	return frameView{img, a.scale}
}

// saveFrames writes the frames the test took to its artifact directory.
func (a *app) saveFrames() {
	if a.artifacts == "" {
		if len(a.frames) > 0 {
			a.t.Logf("run go test with -artifacts (or E2E_FRAMES=DIR) to keep the %d frames this test took", len(a.frames))
		}
		return
	}
	for name, img := range a.frames {
		path := filepath.Join(a.artifacts, name+".png")
		if err := savePNG(path, img); err != nil {
			a.t.Logf("saving %s: %v", path, err)
			continue
		}
		a.t.Logf("frame %q: %s", name, path)
	}
}

func savePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// tryState returns the guest's state as of its latest tick: it runs single
// ticks until the state file has been written at the tick the session has
// processed (the guest writes it every few ticks).
func (a *app) tryState() (game.State, error) {
	var s game.State
	var lastErr error
	for range 30 {
		done := int64(a.sess.ProcessedTicks())
		data, err := os.ReadFile(a.stateFile)
		if err == nil {
			s = game.State{}
			err = json.Unmarshal(data, &s)
			if err == nil && s.Tick == done {
				return s, nil
			}
			if err == nil {
				err = fmt.Errorf("the state is of tick %d, the guest has run %d", s.Tick, done)
			}
		}
		lastErr = err
		if err := a.advance(1); err != nil {
			return s, err
		}
	}
	return s, fmt.Errorf("no up-to-date state file %s: %v", a.stateFile, lastErr)
}

// state is tryState that fails the test on an error.
func (a *app) state() game.State {
	a.t.Helper()
	s, err := a.tryState()
	if err != nil {
		a.t.Fatal(err)
	}
	return s
}

// waitState runs ticks until cond holds for the state, failing the test
// when it does not within timeout (wall-clock: background work such as
// generation runs in real time, not in ticks).
func (a *app) waitState(what string, timeout time.Duration, cond func(game.State) bool) game.State {
	a.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		s := a.state()
		if cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			a.t.Fatalf("waiting for %s: still not so after %v; last state: %+v", what, timeout, s)
		}
		time.Sleep(20 * time.Millisecond) // leave the CPU to the guest's workers
		a.ticks(5)
	}
}

// Input. Injected input is seen by the guest from its next tick on.

// click moves the pointer to (x, y) in logical pixels and clicks there:
// a tick to hover, a tick pressed, a tick released.
func (a *app) click(x, y int) {
	a.t.Helper()
	if err := a.onHost(func() { a.sess.MoveCursor(float64(x), float64(y)) }); err != nil {
		a.t.Fatal(err)
	}
	a.ticks(2)
	if err := a.onHost(func() { a.sess.PressMouseButton(ebiten.MouseButtonLeft) }); err != nil {
		a.t.Fatal(err)
	}
	a.ticks(1)
	if err := a.onHost(func() { a.sess.ReleaseMouseButton(ebiten.MouseButtonLeft) }); err != nil {
		a.t.Fatal(err)
	}
	a.ticks(2)
}

// moveAway parks the pointer over the 3D view, away from every widget and
// the minimap, so that hover highlights do not show in frames.
func (a *app) moveAway() {
	a.t.Helper()
	if err := a.onHost(func() { a.sess.MoveCursor(screenW/2, 60) }); err != nil {
		a.t.Fatal(err)
	}
	a.ticks(2)
}

// holdKey holds key down for n ticks, then releases it.
func (a *app) holdKey(key ebiten.Key, n int) {
	a.t.Helper()
	if err := a.onHost(func() { a.sess.PressKey(key) }); err != nil {
		a.t.Fatal(err)
	}
	a.ticks(n)
	if err := a.onHost(func() { a.sess.ReleaseKey(key) }); err != nil {
		a.t.Fatal(err)
	}
	a.ticks(1)
}

// pressKey taps key: one tick down.
func (a *app) pressKey(key ebiten.Key) {
	a.t.Helper()
	a.holdKey(key, 1)
}

// typeText types s into the focused text field, one character per tick.
// The explorer's text fields read ebiten.AppendInputChars, which
// GuestSession.TypeRune feeds.
func (a *app) typeText(s string) {
	a.t.Helper()
	for _, r := range s {
		if err := a.onHost(func() { a.sess.TypeRune(r) }); err != nil {
			a.t.Fatal(err)
		}
		a.ticks(1)
	}
}
