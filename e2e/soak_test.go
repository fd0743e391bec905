package e2e

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"cordillera/game"
	"cordillera/internal/testenv"
	"cordillera/terrain"
	"cordillera/terrain/heightfile"
)

// The soak test's length: the normal suite runs a short one, whose
// memory check catches a leak of a frame's worth per tick; a long run
// (go test ./e2e -run Soak -soak.steps 3000 -timeout 30m) shows slower
// growth.
var (
	soakSteps = flag.Int("soak.steps", 60, "TestE2ESoak: random input steps")
	soakSeed  = flag.Uint64("soak.seed", 1, "TestE2ESoak: seed of the random steps")
)

// soakKeys are the keys the soak presses: every key of the explorer but
// those that hide the panels (U, H, F1), capture the pointer (L), start a
// lesson (T), which move the widgets the test clicks, and F12, which
// saves screenshots.
var soakKeys = []ebiten.Key{
	ebiten.KeyW, ebiten.KeyA, ebiten.KeyS, ebiten.KeyD, ebiten.KeyQ, ebiten.KeyE, ebiten.KeyC,
	ebiten.KeySpace, ebiten.KeyTab, ebiten.KeyHome, ebiten.KeyF2, ebiten.KeyF3, ebiten.KeyF4,
	ebiten.KeyF5, ebiten.KeyF6, ebiten.KeyF7, ebiten.KeyM, ebiten.KeyR, ebiten.KeyZ, ebiten.KeyY,
	ebiten.KeyArrowUp, ebiten.KeyArrowDown, ebiten.KeyArrowLeft, ebiten.KeyArrowRight,
}

// soakFile is a file the soak opens; good ones must make a world, bad
// ones an error message, and neither may hang or crash the explorer.
type soakFile struct {
	path string
	good bool
}

// soakFiles writes good and bad files of every kind into a short folder.
func soakFiles(t *testing.T) []soakFile {
	t.Helper()
	dir, err := shortTempDir()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := func(name string) string { return filepath.Join(dir, name) }
	write := func(name string, data []byte) string {
		if err := os.WriteFile(path(name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path(name)
	}
	m := terrain.NewHeightmap(65, 65)
	for i := range m.Samples {
		x, y := float64(i%65-32), float64(i/65-32)
		m.Samples[i] = float32(math.Max(0, 1-math.Hypot(x, y)/40))
	}
	for _, name := range []string{"c.png", "c.r16", "c.exr", "c.tif"} {
		if err := heightfile.SaveHeightmap(path(name), m); err != nil {
			t.Fatal(err)
		}
	}
	var one bytes.Buffer
	if err := png.Encode(&one, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	var track strings.Builder
	track.WriteString("lat,lon,ele\n")
	for i := range 40 {
		fmt.Fprintf(&track, "%.6f,%.6f,%d\n", 46+0.0003*float64(i), 7+0.0002*float64(i*i%17), 500+3*i)
	}
	files := []soakFile{
		{path("c.png"), true}, {path("c.r16"), true}, {path("c.exr"), true}, {path("c.tif"), true},
		{write("p.json", []byte("\ufeff{\"size\": 129, \"seed\": 5}")), true},
		{write("t.csv", []byte(track.String())), true},
		{write("dup.json", []byte(`{"size": 99999999, "size": 129}`)), false},
		{write("null.json", []byte(`null`)), false},
		{write("one.png", one.Bytes()), false},
		{write("junk.bin", []byte("not a map at all")), false},
		{path("missing.png"), false},
	}
	if err := os.Mkdir(path("folder"), 0o755); err == nil {
		files = append(files, soakFile{path("folder"), false})
	}
	if err := testenv.Mkfifo(path("fifo.json")); err == nil {
		files = append(files, soakFile{path("fifo.json"), false})
	}
	big := write("big.json", nil)
	if err := os.Truncate(big, 8<<30); err == nil {
		files = append(files, soakFile{big, false})
	}
	return files
}

// rssMB is the resident memory of process pid in MB, from /proc.
func rssMB(pid int) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return math.NaN()
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return math.NaN()
}

// checkWorld fails the test unless the explorer shows a valid world.
func checkWorld(t *testing.T, step int, s game.State) {
	t.Helper()
	c := s.Camera
	for _, v := range []float32{c.X, c.Y, c.Z, c.Yaw, c.Pitch} {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			t.Fatalf("step %d: camera %+v is not finite", step, c)
		}
	}
	if s.MapWidth < 2 || s.MapHeight < 2 || !(s.Extent[0] > 0 && s.Extent[1] > 0) ||
		math.IsInf(s.Extent[0], 0) || math.IsInf(s.Extent[1], 0) || math.IsNaN(s.MapSumHash) {
		t.Fatalf("step %d: the world is not valid: %d×%d, extent %v, checksum %v", step, s.MapWidth, s.MapHeight, s.Extent, s.MapSumHash)
	}
}

// TestE2ESoak feeds the explorer random keys, clicks, drags, wheel turns,
// slider drags and good and bad files for a fixed number of steps: it must
// not crash or hang, must show a valid world after every step, must answer
// every bad file with an error, and its memory must not grow after the
// first quarter of the steps (it logs its resident memory as it goes).
func TestE2ESoak(t *testing.T) {
	files := soakFiles(t)
	a := launch(t, "explore", "-size", "129")
	rng := rand.New(rand.NewPCG(*soakSeed, 2))

	// Unfold File (its path field and Load button), then fold it and
	// unfold Viewer (its sliders). With the panels above folded, a header
	// stays where it is, so the soak switches between the two by clicking
	// the same two headers, and finds every widget where it was.
	f, ws, _ := a.unfold(hdrFile)
	ui := uiWindow(f)
	hs := headers(f, ws)
	var field, load widget
	for _, w := range below(ws, hs[hdrFile].R.Max.Y) {
		if field.R.Empty() && w.Kind == baseWidget && w.R.Dx() >= 150 {
			field = w
		} else if !field.R.Empty() && w.Kind == buttonWidget && w.R.Min.Y > field.R.Min.Y {
			load = w
			break
		}
	}
	viewerHeader, fileHeader := hs[hdrViewer], hs[hdrFile]
	a.click(fileHeader.center().X, fileHeader.center().Y)
	a.click(viewerHeader.center().X, viewerHeader.center().Y)
	a.moveAway()
	f = a.frame("soak-viewer")
	var sliders []widget
	for _, w := range below(findWidgets(f, ui), viewerHeader.R.Max.Y) {
		if w.Kind == baseWidget && w.R.Dx() >= 120 && w.R.Dy() < 40 {
			sliders = append(sliders, w)
		}
	}
	if len(sliders) == 0 || field.R.Empty() || load.R.Empty() {
		t.Fatalf("found %d sliders, path field %v, Load button %v; widgets: %s", len(sliders), field.R, load.R, describe(ws))
	}
	fileOpen := false
	show := func(file bool) { // unfold File (true) or Viewer (false)
		if file == fileOpen {
			return
		}
		from, to := viewerHeader, fileHeader
		if !file {
			from, to = to, from
		}
		a.click(from.center().X, from.center().Y)
		a.click(to.center().X, to.center().Y)
		fileOpen = file
	}
	view := image.Rect(ui.Max.X+10, hudHeight+10, screenW-10, screenH-10)
	at := func() (float64, float64) {
		return float64(view.Min.X + rng.IntN(view.Dx())), float64(view.Min.Y + rng.IntN(view.Dy()))
	}
	host := func(fn func()) {
		t.Helper()
		if err := a.onHost(fn); err != nil {
			t.Fatal(err)
		}
	}

	pid := a.cmd.Process.Pid
	var rss []float64
	every := max(*soakSteps/20, 1)
	warm := math.NaN()
	start := time.Now()
	loads, bad := 0, 0
	for step := 1; step <= *soakSteps; step++ {
		switch r := rng.IntN(100); {
		case r < 35: // a key held for a moment
			a.holdKey(soakKeys[rng.IntN(len(soakKeys))], 1+rng.IntN(6))
		case r < 50: // a click on the 3D view or the minimap
			x, y := at()
			a.click(int(x), int(y))
		case r < 62: // a drag across the 3D view
			x0, y0 := at()
			x1, y1 := at()
			host(func() { a.sess.MoveCursor(x0, y0); a.sess.PressMouseButton(ebiten.MouseButtonLeft) })
			a.ticks(1)
			host(func() { a.sess.MoveCursor((x0+x1)/2, (y0+y1)/2) })
			a.ticks(1)
			host(func() { a.sess.MoveCursor(x1, y1); a.sess.ReleaseMouseButton(ebiten.MouseButtonLeft) })
			a.ticks(1)
		case r < 67: // the wheel over the 3D view
			x, y := at()
			host(func() { a.sess.MoveCursor(x, y); a.sess.ScrollWheel(0, float64(rng.IntN(7)-3)) })
			a.ticks(1)
		case r < 82: // a slider dragged from one place to another
			show(false)
			s := sliders[rng.IntN(len(sliders))]
			y := float64(s.center().Y)
			x0 := float64(s.R.Min.X + 2 + rng.IntN(s.R.Dx()-4))
			x1 := float64(s.R.Min.X + 2 + rng.IntN(s.R.Dx()-4))
			host(func() { a.sess.MoveCursor(x0, y) })
			a.ticks(1)
			host(func() { a.sess.PressMouseButton(ebiten.MouseButtonLeft) })
			a.ticks(1)
			host(func() { a.sess.MoveCursor(x1, y); a.sess.ReleaseMouseButton(ebiten.MouseButtonLeft) })
			a.ticks(2)
		default: // a file opened through the File panel
			file := files[rng.IntN(len(files))]
			loads++
			show(true)
			a.click(field.center().X, field.center().Y)
			for range len(a.state().Path) {
				a.pressKey(ebiten.KeyBackspace)
			}
			a.typeText(file.path)
			if got := a.state().Path; got != file.path {
				t.Fatalf("step %d: the path field holds %q after typing %q", step, got, file.path)
			}
			s0 := a.state()
			a.click(load.center().X, load.center().Y)
			a.moveAway()
			if file.good {
				if s := a.waitWorld("the world of "+file.path, s0); s.IsError {
					t.Fatalf("step %d: opening %s failed: %s", step, file.path, s.Message)
				}
			} else {
				bad++
				s := a.waitState("an error for "+file.path, 30*time.Second, func(s game.State) bool { return s.IsError })
				if !strings.Contains(s.Message, filepath.Base(file.path)) {
					t.Errorf("step %d: the error for %s does not name it: %q", step, file.path, s.Message)
				}
			}
		}
		a.ticks(1 + rng.IntN(3))
		checkWorld(t, step, a.state())
		if step%every == 0 || step == *soakSteps {
			mb := rssMB(pid)
			rss = append(rss, mb)
			t.Logf("step %d (%v): resident memory %.0f MB", step, time.Since(start).Round(time.Second), mb)
			if math.IsNaN(warm) && step >= *soakSteps/4 {
				warm = mb
			}
		}
	}
	t.Logf("%d steps, %d files opened (%d bad) in %v; resident memory (MB) every %d steps: %.0f",
		*soakSteps, loads, bad, time.Since(start).Round(time.Second), every, rss)
	// After warm-up, memory may swing with the world shown (a 129² world,
	// a 65² map, a route terrain) but not grow without bound. The check
	// runs at any length, the suite's 60 steps included, so that a leak
	// of a world or a frame's buffers per step fails it there too.
	last := rss[len(rss)-1]
	if runtime.GOOS == "linux" && (math.IsNaN(warm) || math.IsNaN(last)) {
		t.Fatalf("could not read the explorer's resident memory (%v): the growth check would check nothing", rss)
	}
	if last > 1.5*warm+100 {
		t.Errorf("resident memory grew from %.0f MB after warm-up to %.0f MB", warm, last)
	}
}
