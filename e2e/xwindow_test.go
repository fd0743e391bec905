package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cordillera/game"
	"cordillera/internal/testenv"
	"cordillera/terrain"
)

// The explorer in a real X window, driven by real pointer events
// (xdotool) and seen through screenshots of the window (ImageMagick's
// import): what a person at the desktop does, with the X server's own
// event delivery and Ebitengine's own polling in between.

// desktopBinary is the cordillera command the window tests start: the
// same build as plainBinary's (a desktop program is the plain build), so
// it is linked once for both.
func desktopBinary() (string, error) { return buildPlain() }

// xwin is one explorer running in a window of the X display.
type xwin struct {
	t     *testing.T
	cmd   *exec.Cmd
	id    string // the X window id
	state string // its state file
}

// launchX starts the explorer with args in a window and waits for its
// first state.
func launchX(t *testing.T, args ...string) *xwin {
	t.Helper()
	if !testenv.HasDisplay() {
		testenv.NoDisplay(t, "DISPLAY is empty")
	}
	for _, tool := range []string{"xdotool", "import"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.NoDisplay(t, tool+" is not installed (apt-get install xdotool imagemagick; scripts/ensure-display.sh xvfb installs them)")
		}
	}
	bin, err := desktopBinary()
	if err != nil {
		t.Fatal(err)
	}
	w := &xwin{t: t, state: filepath.Join(t.TempDir(), "state.json")}
	w.cmd = exec.Command(bin, args...)
	w.cmd.Dir = repoRoot()
	// A config folder of the test's own, so that a UI scale the user saved
	// cannot move the widgets the test clicks.
	w.cmd.Env = append(os.Environ(), game.StateFileEnv+"="+w.state, "XDG_CONFIG_HOME="+filepath.Dir(w.state))
	var stderr bytes.Buffer
	w.cmd.Stderr = &stderr
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = w.cmd.Process.Kill()
		_ = w.cmd.Wait()
		if t.Failed() {
			t.Logf("explorer stderr:\n%s", tail(stderr.String(), 4000))
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, "xdotool", "search", "--sync", "--onlyvisible", "--pid", fmt.Sprint(w.cmd.Process.Pid)).Output()
	if err != nil {
		t.Fatalf("no window of the explorer within %v: %v", connectTimeout, err)
	}
	ids := strings.Fields(string(out))
	w.id = ids[len(ids)-1]
	w.waitState("the first state", func(game.State) bool { return true })
	return w
}

// xdo runs xdotool with args.
func (w *xwin) xdo(args ...string) {
	w.t.Helper()
	if out, err := exec.Command("xdotool", args...).CombinedOutput(); err != nil {
		w.t.Fatalf("xdotool %q: %v\n%s", args, err, out)
	}
}

// click moves the pointer to p in the window and clicks the left button
// (down and up 50 ms apart).
func (w *xwin) click(p image.Point) {
	w.t.Helper()
	w.xdo("mousemove", "--window", w.id, fmt.Sprint(p.X), fmt.Sprint(p.Y))
	w.xdo("mousedown", "--window", w.id, "1")
	time.Sleep(50 * time.Millisecond)
	w.xdo("mouseup", "--window", w.id, "1")
}

// tryState reads the state file.
func (w *xwin) tryState() (game.State, error) {
	var s game.State
	data, err := os.ReadFile(w.state)
	if err != nil {
		return s, err
	}
	return s, json.Unmarshal(data, &s)
}

// waitState waits until cond holds for the state (the explorer writes it
// every few ticks), failing the test after a minute.
func (w *xwin) waitState(what string, cond func(game.State) bool) game.State {
	w.t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		s, err := w.tryState()
		if err == nil && cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("waiting for %s: not so within a minute (state error %v)", what, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// frames waits until the explorer has run n more ticks: at least one new
// frame drawn after whatever came before.
func (w *xwin) frames(n int64) {
	w.t.Helper()
	s, _ := w.tryState()
	w.waitState(fmt.Sprintf("%d more ticks", n), func(s1 game.State) bool { return s1.Tick >= s.Tick+n })
}

// settled waits until the explorer has drawn the 3D view as it stands (a
// second of ticks without a redraw, no world being made) and returns its
// state then: a slow redraw that starts with the next input, set off by
// background work finishing (a light map, a world), would read that input
// late, which a person's burst of clicks rarely meets but a test's would.
func (w *xwin) settled() game.State {
	w.t.Helper()
	var last game.State
	return w.waitState("the 3D view drawn as it stands", func(s game.State) bool {
		if s.Busy || s.Redraws != last.Redraws {
			last = s
			return false
		}
		return s.Tick >= last.Tick+60
	})
}

// shot is a screenshot of the window.
func (w *xwin) shot() frameView {
	w.t.Helper()
	out, err := exec.Command("import", "-window", w.id, "png:-").Output()
	if err != nil {
		w.t.Fatalf("import: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		w.t.Fatalf("decoding the screenshot: %v", err)
	}
	rgba := image.NewRGBA(img.Bounds())
	draw.Draw(rgba, rgba.Bounds(), img, img.Bounds().Min, draw.Src)
	return frameView{rgba, 1}
}

// TestXDropdownPicksWithRealPointer opens the Generator's algorithm list
// with real X pointer events in the explorer's own window and picks
// another algorithm: the list shows and the world is made again with it.
func TestXDropdownPicksWithRealPointer(t *testing.T) {
	w := launchX(t, "explore", "-size", "65")
	s0 := w.waitState("the first world", func(s game.State) bool { return !s.Busy })
	w.xdo("mousemove", "--window", w.id, "700", "300")
	w.frames(30)
	f := w.shot()
	dds := dropdowns(f, findWidgets(f, uiWindow(f)), 0, 10000)
	if len(dds) < 2 {
		t.Fatalf("found %d dropdowns in the Generator panel; want the preset and algorithm lists at least", len(dds))
	}
	alg := dds[1] // under the preset list
	w.click(alg.center())
	w.xdo("mousemove", "--window", w.id, "700", "300")
	w.frames(30)
	open := w.shot()
	list := dropdownList(open, alg)
	if len(list) < 4 {
		t.Fatalf("after a real click on the algorithm dropdown at %v its list shows %d options; want it open", alg.R, len(list))
	}
	// The options are midpoint, midpoint-recursive, diamond-square, fbm,
	// hetero, ...: the fifth is another fractal algorithm than fbm.
	w.click(list[4].center())
	s1 := w.waitState("the new algorithm's world", func(s game.State) bool {
		return s.Params.Algorithm != s0.Params.Algorithm && !s.Busy && s.WorldID > s0.WorldID
	})
	t.Logf("algorithm %s → %s, map checksum %.3f → %.3f", s0.Params.Algorithm, s1.Params.Algorithm, s0.MapSumHash, s1.MapSumHash)
	if s1.MapSumHash == s0.MapSumHash {
		t.Errorf("the map is the same after the algorithm changed")
	}
}

// TestXNoInputLostAtTwoFPS drives the explorer at 2 FPS (every drawing of
// the 3D view slowed down by half a second) with real X events: a burst of
// 5 clicks on the seed's up arrow within half a second raises the seed by
// exactly 5, and 3 presses of F2 (wireframe), 80 ms apart, each changing
// the 3D view, leave the wireframe on (three toggles), every one counted.
func TestXNoInputLostAtTwoFPS(t *testing.T) {
	w := launchX(t, "explore", "-size", "65", "-draw-delay", "500ms")
	w.waitState("the first world", func(s game.State) bool { return !s.Busy })
	w.xdo("mousemove", "--window", w.id, "700", "300")
	s0 := w.settled()
	f := w.shot()
	ws := findWidgets(f, uiWindow(f))
	btn, ok := newSeedButton(ws)
	if !ok {
		t.Fatalf("no New seed button in the Generator panel; widgets: %s", describe(ws))
	}
	// The seed's up arrow: the upper half of the spin buttons between the
	// seed's field and New seed.
	var field widget
	for _, fw := range ws {
		if fw.Kind == baseWidget && fw.R.Dx() >= 100 && abs(fw.R.Min.Y-btn.R.Min.Y) <= 2 && fw.R.Max.X <= btn.R.Min.X {
			field = fw
		}
	}
	up := image.Pt((field.R.Max.X+btn.R.Min.X)/2, btn.R.Min.Y+btn.R.Dy()/4)
	// One xdotool run, so that the burst's timing is the X server's.
	var clicks []string
	for i := range 5 {
		if i > 0 {
			clicks = append(clicks, "sleep", "0.08")
		}
		clicks = append(clicks, "mousedown", "--window", w.id, "1", "sleep", "0.02", "mouseup", "--window", w.id, "1")
	}
	// Frames that are not the 3D view's must come faster than the clicks
	// for each to be read on a frame of its own: on a machine so loaded
	// that even those take 100 ms, no explorer could count them, so such
	// a burst is tried again (and the test skipped after three).
	for try := 1; ; try++ {
		w.xdo("mousemove", "--window", w.id, fmt.Sprint(up.X), fmt.Sprint(up.Y))
		before := w.settled()
		start := time.Now()
		w.xdo(clicks...)
		burst := time.Since(start)
		during, _ := w.tryState()
		w.frames(60)
		s1, _ := w.tryState()
		perFrame := burst / time.Duration(max(during.Draws-before.Draws, 1))
		t.Logf("try %d: 5 clicks in %v at %v, %d frames (%v each): seed %d → %d", try, burst.Round(time.Millisecond), up,
			during.Draws-before.Draws, perFrame.Round(time.Millisecond), before.Params.Seed, s1.Params.Seed)
		if perFrame > 60*time.Millisecond {
			if try == 3 {
				t.Skipf("the machine drew a frame every %v during the bursts: too loaded to tell clicks 100 ms apart", perFrame.Round(time.Millisecond))
			}
			w.waitState("the burst's worlds", func(s game.State) bool { return !s.Busy })
			continue
		}
		if s1.Params.Seed != before.Params.Seed+5 {
			t.Errorf("5 clicks on the seed's up arrow within %v raised the seed by %d; want 5", burst.Round(time.Millisecond), s1.Params.Seed-before.Params.Seed)
		}
		break
	}
	w.waitState("the new seed's world", func(s game.State) bool { return !s.Busy && s.WorldID > s0.WorldID })

	// F2 three times, 80 ms apart, over the 3D view.
	w.xdo("mousemove", "--window", w.id, "900", "300")
	wire0 := w.settled().Wireframe
	w.xdo("key", "--window", w.id, "--delay", "80", "F2", "F2", "F2")
	w.frames(60)
	if s2, _ := w.tryState(); s2.Wireframe == wire0 {
		t.Errorf("3 presses of F2 80 ms apart left the wireframe %v; want it toggled 3 times", wire0)
	}
}

// TestXClickLessonDiagramPoint opens a lesson state from explore's flags
// and clicks a point of the step-through diagram with real X pointer
// events: the explorer shows that point's parents, their mean, R, z and
// its height, as terrain's stepper computes them.
func TestXClickLessonDiagramPoint(t *testing.T) {
	w := launchX(t, "explore", "-algorithm", "diamond-square", "-size", "17", "-seed", "3", "-lesson", "subdivision", "-stage", "2b")
	s := w.waitState("the lesson at stage 2b", func(s game.State) bool { return s.Teach.Mode == "subdivision" && s.Teach.Stage == 4 })
	w.settled()
	// The diagram: 200 pixels square, 10 from the window's right edge and
	// 68 from its top, its 17 points per side 11.25 pixels apart.
	pt := [2]int{8, 4}
	at := image.Pt(s.Screen[0]-210+10+pt[0]*45/4, 68+10+pt[1]*45/4)
	w.click(at)
	s = w.waitState("the point's values", func(s game.State) bool { return s.Teach.Picked != nil })
	if *s.Teach.Picked != pt {
		t.Fatalf("a click at %v picked %v; want %v", at, *s.Teach.Picked, pt)
	}
	p := terrain.DefaultParams()
	p.Algorithm, p.Size, p.Seed = terrain.DiamondSquareAlg, 17, 3
	st, err := terrain.SubdivisionSteps(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	v, err := st.Point(pt[0], pt[1])
	if err != nil {
		t.Fatal(err)
	}
	final, _ := st.State(len(st.Steps()))
	for _, want := range []string{
		"Point (8, 4), set at stage 2b",
		fmt.Sprintf("(8, 0)  h = %.4g m", final.At(8, 0)),
		fmt.Sprintf("(8, 8)  h = %.4g m", final.At(8, 8)),
		fmt.Sprintf("(4, 4)  h = %.4g m", final.At(4, 4)),
		fmt.Sprintf("(12, 4)  h = %.4g m", final.At(12, 4)),
		fmt.Sprintf("mean = %.4g m", (final.At(8, 0)+final.At(8, 8)+final.At(4, 4)+final.At(12, 4))/4),
		fmt.Sprintf("R = %.4f", v.R),
		fmt.Sprintf("z = A·R·2^(-nH) = %.4g m", v.Z),
		fmt.Sprintf("h = mean + z = %.4g m", final.At(8, 4)),
	} {
		if !strings.Contains(s.Teach.Point, want) {
			t.Errorf("the explorer shows\n%s\nwithout %q", s.Teach.Point, want)
		}
	}
	if math.Abs(float64(s.Camera.Yaw)+90) > 0.01 { // the lesson's framing, toward row 0
		t.Errorf("the click turned the camera to yaw %.1f°", s.Camera.Yaw)
	}
}
