// Package e2e drives the real explorer end to end: it runs the cordillera
// command as an Ebitengine vmhost guest (built once per test binary with
// -tags ebitenginevmguest) under a hidden host window, injects keys, clicks
// and typing, and checks both what the app reports in its state file
// (CORDILLERA_STATE_FILE) and the pixels it draws. The tests need a display;
// without DISPLAY they skip:
//
//	xvfb-run -a -s "-screen 0 1280x800x24" go test ./e2e
//
// With E2E_FRAMES=DIR every frame a test takes is saved in DIR as a PNG; a
// failing test saves its frames with go test -artifacts.
package e2e

import (
	"errors"
	"fmt"
	"image"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"cordillera/game"
	"cordillera/internal/testenv"
)

func TestMain(m *testing.M) {
	os.Exit(runInTempRoot(m))
}

// runInTempRoot runs the tests with TMPDIR set to a folder of the run's
// own, so that every temporary folder the tests, the programs they start
// and Chromium make lies in it; afterwards it reports anything left there
// as a failure (a run left a 36 MB build folder in /tmp each time,
// removed only a day later) and removes the folder all the same.
// Other runs on the same machine cannot be mistaken for this one's.
func runInTempRoot(m *testing.M) int {
	root, err := os.MkdirTemp("", "cordillera-e2e-run")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(root)
	old, had := os.LookupEnv("TMPDIR")
	os.Setenv("TMPDIR", root)
	code := run(m)
	if had {
		os.Setenv("TMPDIR", old)
	} else {
		os.Unsetenv("TMPDIR")
	}
	if left := leftovers(root); len(left) > 0 {
		fmt.Fprintf(os.Stderr, "e2e: the run left %d entries in its temporary folder: %s\n", len(left), strings.Join(left, ", "))
		if code == 0 {
			code = 1
		}
	}
	return code
}

// leftovers lists the entries in dir with their sizes.
func leftovers(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var left []string
	for _, e := range entries {
		// Chromium's own: the shared-memory files it makes in TMPDIR, and
		// a profile it writes again while it exits after the test removed
		// it. They are not the tests' to clean; the run's folder goes with
		// them.
		if strings.HasPrefix(e.Name(), "org.chromium.Chromium.") || strings.HasPrefix(e.Name(), "cordillera-chromium-") {
			continue
		}
		var size int64
		_ = filepath.WalkDir(filepath.Join(dir, e.Name()), func(_ string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if info, err := d.Info(); err == nil {
					size += info.Size()
				}
			}
			return nil
		})
		left = append(left, fmt.Sprintf("%s (%d bytes)", e.Name(), size))
	}
	return left
}

// run runs the tests, with the host loop on the main goroutine when there
// is a display, and removes the shared build folder.
func run(m *testing.M) int {
	defer removeScratch()
	if !testenv.HasDisplay() {
		return m.Run() // hostRunning stays false: the display tests skip (or fail, see internal/testenv)
	}
	hostRunning = true
	code := 0
	go func() {
		defer close(testsEnd)
		code = m.Run()
	}()
	if err := runHost(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: the host loop failed:", err)
		<-testsEnd // the tests fail fast now: onHost reports errHostGone
		if code == 0 {
			code = 1
		}
	}
	return code
}

// removeScratch removes the shared build folder; Chromium may still be
// writing a profile inside a test's own folder, never in this one.
func removeScratch() {
	if scratch != "" {
		_ = os.RemoveAll(scratch)
	}
}

// TestE2EHoldWMovesCamera holds W for a second of game time: the flying
// camera moves forward along its view by its speed times that second, and
// the view changes.
func TestE2EHoldWMovesCamera(t *testing.T) {
	a := launch(t, exploreArgs...)
	s0 := a.state()
	f0 := a.frame("before")
	a.ticks(10)
	idle := sceneChange(f0, a.frame("idle"), s0)

	tps := a.sess.RequestedTPS()
	if tps <= 0 {
		t.Fatalf("the guest asks for %d ticks per second; want a fixed rate", tps)
	}
	held := tps // one second
	a.holdKey(ebiten.KeyW, held)
	s1 := a.state()
	f1 := a.frame("after")

	c0, c1 := s0.Camera, s1.Camera
	if c0.Mode != "fly" {
		t.Fatalf("the camera starts in mode %q; want fly", c0.Mode)
	}
	if c1.Yaw != c0.Yaw || c1.Pitch != c0.Pitch {
		t.Errorf("W turned the camera: yaw, pitch %v°, %v° → %v°, %v°", c0.Yaw, c0.Pitch, c1.Yaw, c1.Pitch)
	}
	d := [3]float64{float64(c1.X - c0.X), float64(c1.Y - c0.Y), float64(c1.Z - c0.Z)}
	dist := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
	yaw, pitch := float64(c0.Yaw)*math.Pi/180, float64(c0.Pitch)*math.Pi/180
	fwd := [3]float64{math.Cos(pitch) * math.Cos(yaw), math.Sin(pitch), math.Cos(pitch) * math.Sin(yaw)}
	// The starting speed is a twentieth of the map's larger side per
	// second (Camera.Overview); the state does not report the speed.
	speed := max(s0.Extent[0], s0.Extent[1]) / 20
	want := speed * float64(held) / float64(tps)
	t.Logf("held W %d ticks: moved %.2f (want %.2f) from %+v to %+v; idle scene change %.4f", held, dist, want, c0, c1, idle)
	if math.Abs(dist-want) > 0.1*want {
		t.Errorf("the camera moved %.2f world units in %d ticks; want about %.2f (speed %.2f per second)", dist, held, want, speed)
	}
	if dist > 0 {
		cos := (d[0]*fwd[0] + d[1]*fwd[1] + d[2]*fwd[2]) / dist
		if angle := math.Acos(min(cos, 1)) * 180 / math.Pi; angle > 3 {
			t.Errorf("the camera moved along %.3v, %.1f° off its view direction %.3v", d, angle, fwd)
		}
	}
	if change := sceneChange(f0, f1, s1); change < max(0.02, 10*idle) {
		t.Errorf("%.1f %% of the 3D view changed after moving (%.1f %% without input); want more", 100*change, 100*idle)
	} else {
		t.Logf("%.1f %% of the 3D view changed after moving (%.2f %% without input)", 100*change, 100*idle)
	}
}

// TestE2EMinimapClickTeleports clicks the minimap: the camera lands on the
// world point under that pixel, the minimap's dot follows, and the view
// changes. With the minimap hidden (M) the same click does nothing.
func TestE2EMinimapClickTeleports(t *testing.T) {
	a := launch(t, exploreArgs...)
	s0 := a.state()
	f0 := a.frame("before")
	r := image.Rect(s0.Minimap[0], s0.Minimap[1], s0.Minimap[2], s0.Minimap[3])
	if r.Dx() < 20 || r.Dy() < 20 {
		t.Fatalf("the minimap is %v on a %v screen; want a usable one", r, s0.Screen)
	}
	if !minimapShown(f0, r) {
		t.Fatalf("no minimap frame drawn around %v at the start", r)
	}

	// North-west of the centre: the camera, at the north-west corner
	// looking south-east, lands with the map ahead of it.
	p := image.Pt(r.Min.X+r.Dx()/3, r.Min.Y+r.Dy()/4)
	a.click(p.X, p.Y)
	s1 := a.state()
	f1 := a.frame("teleported")

	// The world point under pixel p's centre: the area the minimap shows
	// (the map, with the land beyond it around) spans the rectangle, x to
	// the right and z downward (north, row 0, at the top).
	area := s0.MinimapArea
	ew, ed := area[2]-area[0], area[3]-area[1]
	if ew < s0.Extent[0] || ed < s0.Extent[1] {
		t.Fatalf("the minimap shows %v, less than the map's extent %v", area, s0.Extent)
	}
	wantX := area[0] + (float64(p.X-r.Min.X)+0.5)/float64(r.Dx())*ew
	wantZ := area[1] + (float64(p.Y-r.Min.Y)+0.5)/float64(r.Dy())*ed
	tolX, tolZ := ew/float64(r.Dx()), ed/float64(r.Dy()) // a pixel's worth of world
	c := s1.Camera
	t.Logf("clicked %v on minimap %v: camera %+v → %+v; want x %.2f z %.2f", p, r, s0.Camera, c, wantX, wantZ)
	if math.Abs(float64(c.X)-wantX) > tolX || math.Abs(float64(c.Z)-wantZ) > tolZ {
		t.Errorf("after clicking minimap pixel %v the camera is at x %.2f z %.2f; want x %.2f z %.2f (± %.2f, %.2f)", p, c.X, c.Z, wantX, wantZ, tolX, tolZ)
	}
	if c.Yaw != s0.Camera.Yaw || c.Pitch != s0.Camera.Pitch || c.Mode != s0.Camera.Mode {
		t.Errorf("the teleport changed the heading or mode: %+v → %+v", s0.Camera, c)
	}
	// The red dot marks the camera on the minimap: now under the click.
	dx, dy, n := colourCentroid(f1, r, minimapDot, 40)
	if n < 10 || hypot(dx-float64(p.X)-0.5, dy-float64(p.Y)-0.5) > 2.5 {
		t.Errorf("the minimap's camera dot (%d pixels) is at %.1f,%.1f; want it at the click %v", n, dx, dy, p)
	}
	if change := sceneChange(f0, f1, s1); change < 0.05 {
		t.Errorf("only %.1f %% of the 3D view changed after the teleport; want more", 100*change)
	} else {
		t.Logf("%.1f %% of the 3D view changed after the teleport; dot at %.1f,%.1f", 100*change, dx, dy)
	}

	// Hidden, the minimap takes no clicks.
	a.pressKey(ebiten.KeyM)
	q := image.Pt(r.Min.X+r.Dx()*3/4, r.Min.Y+r.Dy()*2/3)
	a.click(q.X, q.Y)
	s2 := a.state()
	f2 := a.frame("hidden")
	if minimapShown(f2, r) {
		t.Errorf("M did not hide the minimap")
	}
	if s2.Camera.X != c.X || s2.Camera.Z != c.Z {
		t.Errorf("a click where the hidden minimap was moved the camera from %+v to %+v", c, s2.Camera)
	}
}

// whiteCentroid is the mean position of the near-white pixels of area.
func whiteCentroid(f frameView, area image.Rectangle) (x, y float64, n int) {
	for py := area.Min.Y; py < area.Max.Y; py++ {
		for px := area.Min.X; px < area.Max.X; px++ {
			c := f.rgb(px, py)
			if lo, hi := min(c[0], c[1], c[2]), max(c[0], c[1], c[2]); lo >= 185 && hi-lo <= 25 {
				x += float64(px) + 0.5
				y += float64(py) + 0.5
				n++
			}
		}
	}
	if n > 0 {
		x, y = x/float64(n), y/float64(n)
	}
	return x, y, n
}

// minimapDot is the colour of the camera's dot on the minimap.
var minimapDot = [3]uint8{230, 30, 30}

// minimapShown tells whether the minimap's light frame is drawn around r.
func minimapShown(f frameView, r image.Rectangle) bool {
	frame := [3]uint8{230, 230, 230}
	for _, p := range []image.Point{
		{r.Min.X - 1, (r.Min.Y + r.Max.Y) / 2}, {r.Max.X, (r.Min.Y + r.Max.Y) / 2},
		{(r.Min.X + r.Max.X) / 2, r.Min.Y - 1}, {(r.Min.X + r.Max.X) / 2, r.Max.Y},
	} {
		if colourDistance(f.rgb(p.X, p.Y), frame) > 12 {
			return false
		}
	}
	return true
}

// The panels' headers, top to bottom.
var panelNames = []string{"Generator", "Erosion", "Route", "Viewer", "File", "Teach"}

const (
	hdrViewer = 3
	hdrFile   = 4
	hdrTeach  = 5
)

// unfold folds the Generator panel (open at the start) and unfolds the
// panel whose header is the i-th (hdrViewer, hdrFile, hdrTeach) unless it
// is unfolded already. It returns the frame then, its widgets and the
// panel's header.
func (a *app) unfold(i int) (frameView, []widget, widget) {
	a.t.Helper()
	a.moveAway()
	f := a.frame("panels-start")
	ws := findWidgets(f, uiWindow(f))
	hs := headers(f, ws)
	if len(hs) == 0 {
		a.t.Fatalf("no panel header in the UI window; widgets: %s", describe(ws))
	}
	a.click(hs[0].center().X, hs[0].center().Y) // fold Generator
	a.moveAway()
	f = a.frame("panels-folded")
	ws = findWidgets(f, uiWindow(f))
	hs = headers(f, ws)
	if len(hs) != len(panelNames) {
		a.t.Fatalf("with Generator folded the UI shows %d headers; want %d (%q); widgets: %s", len(hs), len(panelNames), panelNames, describe(ws))
	}
	if !slices.Contains(a.state().Panels, panelNames[i]) {
		a.click(hs[i].center().X, hs[i].center().Y)
	}
	a.moveAway()
	f = a.frame("panel-open")
	ws = findWidgets(f, uiWindow(f))
	hs = headers(f, ws)
	if len(hs) <= i {
		a.t.Fatalf("after unfolding panel %d the UI shows %d headers; widgets: %s", i, len(hs), describe(ws))
	}
	return f, ws, hs[i]
}

// TestE2EWireframeCheckbox opens the Viewer panel and clicks its
// "wireframe" checkbox: the state says wireframe, the box shows a tick and
// the 3D view changes.
func TestE2EWireframeCheckbox(t *testing.T) {
	a := launch(t, exploreArgs...)
	if a.state().Wireframe {
		t.Fatal("wireframe is on at the start")
	}
	f0, ws, viewer := a.unfold(hdrViewer)
	boxes := checkboxes(below(ws, viewer.R.Max.Y))
	if len(boxes) < 6 {
		// The Viewer's sliders fill the 600-pixel window: scroll the panel
		// to its end, where the checkboxes are. Generator is folded, so
		// every checkbox in the window is the Viewer's.
		if err := a.onHost(func() { a.sess.MoveCursor(float64(viewer.center().X), screenH/2); a.sess.ScrollWheel(0, -20) }); err != nil {
			t.Fatal(err)
		}
		a.ticks(3)
		a.moveAway()
		f0 = a.frame("viewer-scrolled")
		ws = findWidgets(f0, uiWindow(f0))
		boxes = checkboxes(ws)
	}
	// Viewer's checkboxes: fog, then two per row triplanar, detail maps,
	// lighting, shadows, ambient occlusion, wireframe, flat shading,
	// colour scheme, ... (the list grows, so the test does not count on
	// the order).
	if len(boxes) < 6 {
		t.Fatalf("the Viewer panel shows %d checkboxes; want at least 6; widgets: %s", len(boxes), describe(ws))
	}
	ticked := func(f frameView, b widget) bool { return brightIn(f, b.R.Inset(3)) }
	var before []bool
	for _, b := range boxes {
		before = append(before, ticked(f0, b))
	}
	s0 := a.state()

	// Wireframe starts off: its box is one of the unticked ones. Click
	// them in order until the state says wireframe, unclicking the others.
	wire := -1
	for i, b := range boxes {
		if before[i] {
			continue
		}
		a.click(b.center().X, b.center().Y)
		if a.state().Wireframe {
			wire = i
			break
		}
		a.click(b.center().X, b.center().Y)
	}
	if wire < 0 {
		t.Fatalf("none of the %d unticked Viewer checkboxes turns the wireframe on", len(boxes))
	}
	box := boxes[wire]
	a.moveAway()
	s1 := a.state()
	f1 := a.frame("wireframe")
	if !s1.Wireframe {
		t.Errorf("after clicking the wireframe checkbox at %v the state says wireframe is off", box.center())
	}
	for i, b := range boxes {
		want := before[i] != (i == wire)
		if got := ticked(f1, b); got != want {
			t.Errorf("checkbox %d at %v: ticked %v after the click; want %v", i, b.R, got, want)
		}
	}
	// The lines themselves are checked by game's wireframe pixel tests
	// (wireframe_test.go); from this pose, 300 m above a map of 1 m cells,
	// the wireframe fades most lines closer than a few pixels, and the
	// automatic resolution may change between the two frames, so the share
	// of the view that changed is only reported.
	t.Logf("%.2f %% of the 3D view changed in wireframe", 100*sceneChange(f0, f1, s0))
}

// waitWorld waits until a world newer than s0's is shown and no work is
// under way, or an error shows, and returns the state then.
func (a *app) waitWorld(what string, s0 game.State) game.State {
	a.t.Helper()
	a.waitState(what, 30*time.Second, func(s game.State) bool {
		return s.IsError || s.WorldID > s0.WorldID && !s.Busy
	})
	// busy ends when the result is ready, which the next tick shows: with
	// a preview first, the world counted above may be the preview.
	a.ticks(2)
	return a.state()
}

// textArea is where a text field shows its text, leaving out the caret of
// an empty focused field (at its left, after the padding).
func textArea(field widget) image.Rectangle {
	return image.Rect(field.R.Min.X+8, field.R.Min.Y+2, field.R.Max.X-2, field.R.Max.Y-2)
}

// clearField empties the focused text field with Backspace (debugui's
// fields have no select-all), checking the frame until no text shows.
func (a *app) clearField(field widget) {
	a.t.Helper()
	for range 16 {
		for range 8 {
			a.pressKey(ebiten.KeyBackspace)
		}
		if !brightIn(a.frame("cleared"), textArea(field)) {
			return
		}
	}
	a.t.Fatalf("the text field %v still shows text after 128 backspaces", field.R)
}

// newSeedButton finds the Generator panel's "New seed" button: the first
// narrow button sharing its row with a wide field at its left (the seed's
// number field).
func newSeedButton(ws []widget) (widget, bool) {
	for _, b := range ws {
		if b.Kind != buttonWidget || b.R.Dx() < 60 || b.R.Dx() > 150 {
			continue
		}
		for _, f := range ws {
			if f.Kind == baseWidget && f.R.Dx() >= 100 && abs(f.R.Min.Y-b.R.Min.Y) <= 2 && f.R.Max.X <= b.R.Min.X {
				return b, true
			}
		}
	}
	return widget{}, false
}

// TestE2ESeedRegenerates clicks "New seed": a new world is made in the
// background and shown, with another seed, other samples and another view.
func TestE2ESeedRegenerates(t *testing.T) {
	a := launch(t, exploreArgs...)
	a.moveAway()
	s0 := a.state()
	f0 := a.frame("before")
	ws := findWidgets(f0, uiWindow(f0))
	btn, ok := newSeedButton(ws)
	if !ok {
		t.Fatalf("no New seed button in the Generator panel; widgets: %s", describe(ws))
	}
	a.click(btn.center().X, btn.center().Y)
	a.moveAway()
	if s := a.state(); s.Params.Seed == s0.Params.Seed {
		t.Fatalf("clicking New seed at %v left the seed at %d", btn.center(), s.Params.Seed)
	}
	s1 := a.waitWorld("the new seed's world", s0)
	if s1.IsError {
		t.Fatalf("the new seed failed: %s", s1.Message)
	}
	f1 := a.frame("after")
	if s1.Params.Seed == s0.Params.Seed {
		t.Errorf("the seed is still %d", s1.Params.Seed)
	}
	p := s1.Params
	p.Seed = s0.Params.Seed
	if p != s0.Params {
		t.Errorf("New seed changed more than the seed: %+v → %+v", s0.Params, s1.Params)
	}
	if s1.MapWidth != s0.MapWidth || s1.MapHeight != s0.MapHeight {
		t.Errorf("the map is %d×%d after a new seed; want %d×%d", s1.MapWidth, s1.MapHeight, s0.MapWidth, s0.MapHeight)
	}
	if s1.MapSumHash == s0.MapSumHash {
		t.Errorf("the map's checksum is still %v: the samples did not change", s1.MapSumHash)
	}
	if change := sceneChange(f0, f1, s1); change < 0.05 {
		t.Errorf("only %.1f %% of the 3D view changed with the new world; want more", 100*change)
	} else {
		t.Logf("%.1f %% of the 3D view changed with the new world", 100*change)
	}
	t.Logf("seed %d → %d, world %d → %d, checksum %.3f → %.3f", s0.Params.Seed, s1.Params.Seed, s0.WorldID, s1.WorldID, s0.MapSumHash, s1.MapSumHash)
}

// TestE2ELoadHeightmap types a heightmap's path into the File panel and
// clicks "Load map or params": the map shown is that file's, sample for
// sample, and the view shows it.
func TestE2ELoadHeightmap(t *testing.T) {
	for _, tc := range []struct {
		name, path string // path relative to the repository root, as typed
		optional   bool
	}{
		{"cone", "e2e/testdata/cone.png", false},
		{"alps", "../shared/data/heightmaps/alps-montblanc_16bit.png", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			img, err := readGray16(filepath.Join(repoRoot(), tc.path))
			if tc.optional && errors.Is(err, fs.ErrNotExist) {
				testenv.NoData(t, tc.path)
			}
			if err != nil {
				t.Fatal(err)
			}
			loadHeightmap(t, tc.path, img, tc.name == "cone")
		})
	}
}

func loadHeightmap(t *testing.T, path string, img *image.Gray16, cone bool) {
	a := launch(t, exploreArgs...)
	s0 := a.state()
	f0, ws, file := a.unfold(hdrFile)
	var field, load widget
	for _, w := range below(ws, file.R.Max.Y) {
		if field.R.Empty() && w.Kind == baseWidget && w.R.Dx() >= 150 {
			field = w
		} else if !field.R.Empty() && w.Kind == buttonWidget && w.R.Min.Y > field.R.Min.Y {
			load = w
			break
		}
	}
	if field.R.Empty() || load.R.Empty() {
		t.Fatalf("no path field and Load button under the File header %v; widgets: %s", file.R, describe(ws))
	}

	a.click(field.center().X, field.center().Y)
	a.clearField(field)
	a.typeText(path)
	if f := a.frame("typed"); !brightIn(f, textArea(field)) {
		t.Fatalf("the path field %v shows no text after typing %q", field.R, path)
	}
	a.click(load.center().X, load.center().Y)
	a.moveAway()
	if s := a.state(); s.Message == "" && !s.Busy && s.WorldID == s0.WorldID {
		t.Fatalf("clicking Load at %v did nothing: no message, no work, no new world", load.center())
	}
	s1 := a.waitWorld("the loaded map", s0)
	if s1.IsError {
		t.Fatalf("loading %s failed: %s", path, s1.Message)
	}
	f1 := a.frame("loaded")

	w, h := img.Rect.Dx(), img.Rect.Dy()
	if s1.MapWidth != w || s1.MapHeight != h {
		t.Errorf("the map shown is %d×%d; %s is %d×%d", s1.MapWidth, s1.MapHeight, path, w, h)
	}
	if want := samplesChecksum(img); math.Abs(s1.MapSumHash-want) > 1e-9*want {
		t.Errorf("the map's checksum is %v; %s's samples sum to %v", s1.MapSumHash, path, want)
	}
	if !(s1.Extent[0] > 0) || math.Abs(s1.Extent[0]/s1.Extent[1]-float64(w-1)/float64(h-1)) > 1e-9 {
		t.Errorf("the map's extent is %v; want the aspect of %d×%d samples", s1.Extent, w, h)
	}
	r := image.Rect(s1.Minimap[0], s1.Minimap[1], s1.Minimap[2], s1.Minimap[3])
	if !minimapShown(f1, r) {
		t.Errorf("no minimap frame drawn around the new map's minimap %v", r)
	}
	area, skip := sceneArea(s1)
	skip = append(skip, image.Rect(s0.Minimap[0], s0.Minimap[1], s0.Minimap[2], s0.Minimap[3]).Inset(-4))
	n, total := changed(f0, f1, area, skip...)
	if change := float64(n) / float64(total); change < 0.05 {
		t.Errorf("only %.1f %% of the 3D view changed with the loaded map; want more", 100*change)
	} else {
		t.Logf("%.1f %% of the 3D view changed with the loaded map", 100*change)
	}
	if cone {
		// The minimap shows the cone where the file has it: its apex, the
		// only near-white spot, west and north of the centre.
		wantX := float64(r.Min.X) + float64(coneX)/float64(w-1)*float64(r.Dx())
		wantY := float64(r.Min.Y) + float64(coneY)/float64(h-1)*float64(r.Dy())
		x, y, n := whiteCentroid(f1, r.Inset(2))
		if n == 0 || hypot(x-wantX, y-wantY) > 6 {
			t.Errorf("the minimap's near-white apex (%d pixels) is at %.1f,%.1f; the cone's apex is at %.1f,%.1f", n, x, y, wantX, wantY)
		} else {
			t.Logf("the minimap's near-white apex (%d pixels) is at %.1f,%.1f; the cone's apex at %.1f,%.1f", n, x, y, wantX, wantY)
		}
	}
	t.Logf("loaded %s: %d×%d, extent %v, checksum %.3f, minimap %v, world %d → %d", path, s1.MapWidth, s1.MapHeight, s1.Extent, s1.MapSumHash, r, s0.WorldID, s1.WorldID)

	// The Generator panel describes the loaded map instead of offering
	// the generator's controls (New seed among them), which would replace it.
	hs := headers(f1, findWidgets(f1, uiWindow(f1)))
	a.click(hs[0].center().X, hs[0].center().Y)
	a.moveAway()
	f2 := a.frame("loaded-generator")
	ws2 := findWidgets(f2, uiWindow(f2))
	if b, ok := newSeedButton(ws2); ok {
		t.Errorf("with a loaded map the Generator panel offers New seed at %v; want the map's description", b.R)
	}
	if s := a.state(); s.WorldID != s1.WorldID || s.MapSumHash != s1.MapSumHash {
		t.Errorf("unfolding the Generator panel replaced the loaded map")
	}
}

// TestE2ETeachStepping starts the subdivision lesson (key T), opens the
// Teach panel and clicks its ">" button: the lesson moves one stage, the 3D
// view changes, and the red marks of the stage's new points change.
func TestE2ETeachStepping(t *testing.T) {
	a := launch(t, exploreArgs...)
	a.pressKey(ebiten.KeyT)
	s0 := a.waitState("the subdivision lesson", 10*time.Second, func(s game.State) bool { return s.Teach.Mode == "subdivision" })
	if s0.Teach.Stage != 0 || s0.Teach.Stages != 10 {
		t.Fatalf("lesson at stage %d of %d; want 0 of 10 (diamond-square on 33²)", s0.Teach.Stage, s0.Teach.Stages)
	}
	if p := a.state().Panels; !slices.Contains(p, "Teach") {
		t.Errorf("after T the unfolded panels are %q; want Teach among them", p)
	}
	f0, ws, teach := a.unfold(hdrTeach)
	// The step buttons share one row, four across: <, >, Play, Reset.
	var row []widget
	for _, w := range below(ws, teach.R.Max.Y) {
		if w.Kind != buttonWidget || w.R.Dx() > 110 {
			continue
		}
		if len(row) > 0 && abs(w.R.Min.Y-row[0].R.Min.Y) > 2 {
			if len(row) == 4 {
				break
			}
			row = row[:0]
		}
		row = append(row, w)
	}
	if len(row) != 4 {
		t.Fatalf("no row of four step buttons in the Teach panel; widgets: %s", describe(ws))
	}
	next := row[1]
	var prev frameView = f0
	if red := redMarks(f0, s0); red != 0 {
		t.Fatalf("before any stage %d pixels of the 3D view are mark red: the check could not tell the marks", red)
	}
	for stage := 1; stage <= 3; stage++ {
		a.click(next.center().X, next.center().Y)
		a.moveAway()
		s := a.waitState("the next stage", 10*time.Second, func(s game.State) bool { return s.Teach.Stage == stage })
		f := a.frame(fmt.Sprintf("stage-%d", stage))
		if change := sceneChange(prev, f, s); change < 0.002 {
			t.Errorf("stage %d: only %.2f %% of the 3D view changed", stage, 100*change)
		}
		if red := redMarks(f, s); red == 0 {
			t.Errorf("stage %d added %d points but no red mark shows", stage, s.Teach.Added)
		}
		if s.Teach.Added == 0 {
			t.Errorf("stage %d reports no added points", stage)
		}
		prev = f
	}
}

// redMarks counts the strongly red pixels of the 3D view: the lesson's
// marks of the points a stage added. The UI window, the minimap (whose
// camera dot is red too) and the lattice diagram (which marks the same
// points) are left out, so only marks drawn in the 3D view count.
func redMarks(f frameView, s game.State) int {
	minimap := image.Rect(s.Minimap[0], s.Minimap[1], s.Minimap[2], s.Minimap[3]).Inset(-2)
	// The diagram's place, from game/teach.go: diagramSide 200, 10 pixels
	// from the right, below the HUD's lines (teachTop = 4·16+4).
	diagram := image.Rect(s.Screen[0]-210, 68, s.Screen[0]-10, 268).Inset(-2)
	n := 0
	for y := 0; y < s.Screen[1]; y++ {
		for x := 340; x < s.Screen[0]; x++ {
			if p := image.Pt(x, y); p.In(minimap) || p.In(diagram) {
				continue
			}
			c := f.rgb(x, y)
			if c[0] > 200 && c[1] < 70 && c[2] < 70 {
				n++
			}
		}
	}
	return n
}
