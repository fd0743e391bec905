package game

import (
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/hajimehoshi/ebiten/v2"

	"cordillera/internal/lesson"
	"cordillera/terrain"
	"cordillera/web"
)

// openLink opens a link's fragment in g as the browser page does: its
// parameters, then its lesson.
func openLink(t *testing.T, g *Game, fragment string) web.Link {
	t.Helper()
	l, err := web.ParseFragment(fragment)
	if err != nil {
		t.Fatalf("%s: %v", fragment, err)
	}
	onLoop(func() {
		g.Params = l.Params
		g.OpenLesson(l.State, true)
	})
	return l
}

// linkOf is the fragment Copy link writes for what g shows.
func linkOf(g *Game) string {
	p, s := g.LessonState()
	return web.Link{Preset: "default", Params: p, State: s}.Fragment()
}

// Every lesson state a link names is what the explorer shows, and Copy
// link gives the same link back: each lesson, each subdivision algorithm
// (the lesson's algorithm and size are the generator's algorithm= and
// size=), stages by label, octaves, batches, plots and the camera.
func TestLessonLinkRoundTrip(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 65))
	g.Layout(ScreenWidth, ScreenHeight)
	t.Cleanup(func() { onLoop(func() { g.OpenLesson(lesson.State{}, true) }) })
	const cam = "&camera=512,900.5,-300,90,-40"
	for _, c := range []struct {
		fragment string
		check    func() string // what the explorer shows, "" when right
	}{
		{"algorithm=midpoint&size=17&lesson=subdivision&stage=2a" + cam, func() string {
			if s := g.teach.stepper.Steps(); s[0].Stage != terrain.StageEdges || g.teach.k != 3 || len(s) != 8 || g.World.Map.Width != 5 {
				return "want midpoint's 8 stages of a 17² map, at the third (a 5² mesh)"
			}
			return ""
		}},
		{"algorithm=diamond-square&size=5&lesson=subdivision&stage=1b" + cam, func() string {
			if s := g.teach.stepper.Steps(); s[0].Stage != terrain.StageDiamond || g.teach.k != 2 || len(s) != 4 {
				return "want diamond-square's 4 stages of a 5² map, at the second"
			}
			return ""
		}},
		{"algorithm=midpoint-recursive&size=33&hurst=0.6&lesson=subdivision&stage=5b" + cam, func() string {
			if s := g.teach.stepper.Steps(); s[0].Stage != terrain.StageEdges || g.teach.k != 10 || g.World.Map.Width != 33 {
				return "want midpoint's last stage of a 33² map"
			}
			return ""
		}},
		{"algorithm=diamond-square&size=129&lesson=subdivision" + cam, func() string {
			if s := g.teach.stepper.Steps(); s[0].Stage != terrain.StageDiamond || g.teach.k != 0 || len(s) != 14 {
				return "want diamond-square's corners of a 129² map"
			}
			return ""
		}},
		{"size=65&octaves=5&lesson=octaves&octave=2&plot=histogram" + cam, func() string {
			if len(g.teach.partials) != 5 || g.teach.octK != 2 || g.plots.kind != 2 {
				return "want 2 of 5 octaves with the histogram"
			}
			return ""
		}},
		{"algorithm=hybrid&size=65&octaves=4&offset=0.7&lesson=octaves" + cam, func() string {
			if len(g.teach.partials) != 4 || g.teach.octK != 4 {
				return "want all 4 octaves"
			}
			return ""
		}},
		{"size=65&lesson=erosion&batch=2&plot=profile" + cam, func() string {
			if g.teach.erosion.pass != 2 || g.plots.kind != 1 {
				return "want 2 batches run with the profile"
			}
			return ""
		}},
		{"size=65&lesson=erosion&droplet=12" + cam, func() string {
			if e := &g.teach.erosion; e.drops == nil || e.drops.Done() != 12 || e.drop.Number != 12 || e.pass != 0 {
				return "want the 12th droplet shown, one at a time"
			}
			return ""
		}},
		{"size=65&lesson=thermal&step=3&plot=profile" + cam, func() string {
			if g.teach.thermal.sweep != 3 || g.teach.thermal.st.Sweeps() != 3 || g.plots.kind != 1 {
				return "want 3 thermal sweeps with the profile"
			}
			return ""
		}},
		{"size=65&lesson=fluvial&step=2" + cam, func() string {
			if g.teach.fluvial.step != 2 || g.teach.fluvial.st.Steps() != 2 {
				return "want 2 fluvial steps"
			}
			return ""
		}},
		{"size=65&plot=spectrum", func() string {
			if g.teach.mode != teachOff || g.plots.kind != 3 {
				return "want no lesson, the spectrum"
			}
			return ""
		}},
	} {
		l := openLink(t, g, c.fragment)
		if msg := c.check(); msg != "" {
			t.Errorf("%s: %s (stage %d, octave %d, batch %d, plot %d)", c.fragment, msg, g.teach.k, g.teach.octK, g.teach.erosion.pass, g.plots.kind)
		}
		if l.Camera != nil {
			want := mgl32.Vec3{l.Camera.X, l.Camera.Y, l.Camera.Z}
			if g.Camera.Pos != want || !near32(mgl32.RadToDeg(g.Camera.Pitch), l.Camera.Pitch, 1e-3) {
				t.Errorf("%s: camera at %v pitch %.2f°; want %v, %.1f°", c.fragment, g.Camera.Pos, mgl32.RadToDeg(g.Camera.Pitch), want, l.Camera.Pitch)
			}
		}
		if back := linkOf(g); back != c.fragment {
			t.Errorf("Copy link after %s gives\n%s", c.fragment, back)
		}
	}
	// A link's stage by its number is the same stage, written back by its
	// label; the lesson's own controls are written too.
	openLink(t, g, "algorithm=diamond-square&size=17&lesson=subdivision&stage=3"+cam)
	if g.teach.k != 3 || g.teach.alg != 1 {
		t.Errorf("stage=3 shows stage %d of algorithm %d; want 3 of diamond-square", g.teach.k, g.teach.alg)
	}
	onLoop(func() { g.teach.alg, g.teach.sizeIdx = 0, 1; g.buildLesson(); g.teachStep(1) })
	if got := linkOf(g); !strings.HasPrefix(got, "algorithm=midpoint&size=9&lesson=subdivision&stage=1a&camera=") {
		t.Errorf("after choosing midpoint at 9² in the panel, Copy link gives %s", got)
	}
}

// F12 in a lesson keeps what the lesson draws over the view: the added
// points' red marks, the step-through diagram with its red points, and a
// caption strip along the bottom; before, the shot held the 3D view
// alone.
func TestLessonScreenshotHasOverlays(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 65))
	t.Cleanup(func() { onLoop(func() { g.OpenLesson(lesson.State{}, true) }) })
	openLink(t, g, "algorithm=diamond-square&size=17&lesson=subdivision&stage=2a")
	g.ShowUI = false
	onLoop(g.frameLesson)
	g.ScreenshotDir = t.TempDir()
	g.scene.shotPending = true
	renderFrame(g, false)
	entries, err := os.ReadDir(g.ScreenshotDir)
	if err != nil || len(entries) != 1 {
		t.Fatalf("the screenshot folder holds %v (%v); want one file", entries, err)
	}
	f, err := os.Open(filepath.Join(g.ScreenshotDir, entries[0].Name()))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	checkLessonShot(t, img, testW, testH, g.teach.stepper.Steps()[2].Added, 17)
}

// checkLessonShot checks a w×h shot of the subdivision lesson for its
// overlays: the diagram (top right, dark, with red discs at the stage's
// added points), red marks in the 3D view, and the caption strip.
func checkLessonShot(t *testing.T, img image.Image, w, h int, added [][2]int, size int) {
	t.Helper()
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Fatalf("the shot is %v; want %d×%d", b, w, h)
	}
	rgba := func(x, y int) (uint8, uint8, uint8) {
		r, g, b, _ := img.At(x, y).RGBA()
		return uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)
	}
	red := func(x, y int) bool { r, g, b := rgba(x, y); return r > 200 && g < 80 && b < 80 }
	dr := diagramRect(w)
	if r, g, b := rgba(dr.Min.X+3, dr.Min.Y+3); r > 60 || g > 60 || b > 60 {
		t.Errorf("the diagram's corner %v shows (%d, %d, %d); want its dark ground", dr.Min, r, g, b)
	}
	for _, a := range added {
		cx, cy, _ := diagramPoint(size, a[0], a[1])
		if x, y := dr.Min.X+int(math.Round(cx)), dr.Min.Y+int(math.Round(cy)); !red(x, y) {
			r, g, b := rgba(x, y)
			t.Errorf("the diagram's added point %v at (%d, %d) shows (%d, %d, %d); want red", a, x, y, r, g, b)
		}
	}
	marks := 0
	for y := 0; y < h-30; y++ {
		for x := 0; x < w; x++ {
			if !image.Pt(x, y).In(dr) && red(x, y) {
				marks++
			}
		}
	}
	if marks < 4*20 {
		t.Errorf("%d red pixels in the 3D view; want the %d added points' marks", marks, len(added))
	}
	dark, light := 0, 0
	for x := 0; x < w; x++ {
		for y := h - 20; y < h-2; y++ {
			r, g, b := rgba(x, y)
			switch {
			case r < 40 && g < 40 && b < 40:
				dark++
			case r > 200 && g > 200 && b > 200:
				light++
			}
		}
	}
	if dark < w*18/2 || light < 100 {
		t.Errorf("the bottom strip has %d dark and %d white pixels; want the caption, white on black", dark, light)
	}
}

// Clicking a point of the step-through diagram shows how the generator
// computed it: its parents with their heights, their mean, R, z and the
// new height, which a reference from the stepper's own map agrees with;
// the click does not turn the camera.
func TestClickDiagramPointShowsValues(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 65))
	g.Layout(ScreenWidth, ScreenHeight)
	t.Cleanup(func() { onLoop(func() { g.OpenLesson(lesson.State{}, true) }) })
	openLink(t, g, "algorithm=diamond-square&size=17&seed=3&lesson=subdivision&stage=2b")
	st := g.teach.stepper
	final, _ := st.State(len(st.Steps()))
	dr := diagramRect(g.ui.w)
	for _, c := range []struct {
		pt      [2]int
		parents int
	}{{[2]int{12, 12}, 4}, {[2]int{4, 0}, 3}, {[2]int{8, 4}, 4}} { // a diamond's centre (2a), a border point and an inner one of the square step (2b)
		cx, cy, _ := diagramPoint(17, c.pt[0], c.pt[1])
		x, y := dr.Min.X+int(math.Round(cx)), dr.Min.Y+int(math.Round(cy))
		yaw := g.Camera.Yaw
		g.input.cursor = [2]int{x - 30, y}
		for _, in := range []pointerInput{{x: x, y: y, left: true, leftJust: true}, {x: x + 2, y: y + 1, left: true}, {x: x + 2, y: y + 1}} {
			g.pointer(in, false)
		}
		if g.Camera.Yaw != yaw {
			t.Errorf("clicking the diagram turned the camera")
		}
		if g.teach.picked == nil || *g.teach.picked != c.pt {
			t.Fatalf("a click at (%d, %d) picked %v; want %v", x, y, g.teach.picked, c.pt)
		}
		text := g.stageText()
		v := g.teach.point
		if len(v.Parents) != c.parents {
			t.Errorf("point %v has parents %v; want %d", c.pt, v.Parents, c.parents)
		}
		// The reference: the parents' heights read from the map, their
		// mean in float64, and the displacement the height leaves.
		var mean float64
		for i, q := range v.Parents {
			h := final.At(q[0], q[1])
			mean += float64(h)
			if !strings.Contains(text, fmt.Sprintf("(%d, %d)  h = %.4g m", q[0], q[1], h)) {
				t.Errorf("the text does not give parent %v's height %.4g:\n%s", q, h, text)
			}
			if v.Heights[i] != h {
				t.Errorf("parent %v: %g; the map holds %g", q, v.Heights[i], h)
			}
		}
		mean /= float64(len(v.Parents))
		h := float64(final.At(c.pt[0], c.pt[1]))
		amp := g.Params.Amplitude * math.Exp2(-2*g.Params.Hurst) // iteration 2
		if math.Abs(float64(v.Mean)-mean) > 1e-3 || math.Abs(v.Z-(h-mean)) > 1e-3 || math.Abs(v.Amp-amp) > 1e-9 ||
			math.Abs(v.R*amp-v.Z) > 1e-9 || math.Abs(v.R) > 1 || float64(v.Height) != h {
			t.Errorf("point %v: mean %g z %g A %g R %g h %g; the reference gives mean %g z %g A %g h %g", c.pt, v.Mean, v.Z, v.Amp, v.R, v.Height, mean, h-mean, amp, h)
		}
		for _, want := range []string{
			fmt.Sprintf("Point (%d, %d), set at stage 2", c.pt[0], c.pt[1]),
			fmt.Sprintf("mean = %.4g m", v.Mean),
			fmt.Sprintf("R = %.4f, in [-1, 1]: z in [-%.4g, %.4g] m", v.R, amp, amp),
			fmt.Sprintf("z = A·R·2^(-nH) = %.4g m", v.Z),
			fmt.Sprintf("h = mean + z = %.4g m", h),
		} {
			if !strings.Contains(text, want) {
				t.Errorf("the Teach text lacks %q:\n%s", want, text)
			}
		}
	}
	if dir := os.Getenv("CORDILLERA_LESSON_SHOTS"); dir != "" { // F12 at 1280×720, to look at
		g.ScreenshotDir, g.scene.shotPending = dir, true
		onLoop(func() {
			screen := ebiten.NewImage(ScreenWidth, ScreenHeight)
			defer screen.Deallocate()
			g.Draw(screen)
		})
	}
	// A point of a later stage says so; a click off the diagram picks nothing new.
	onLoop(func() { g.teachStep(-1) })
	if text := g.stageText(); !strings.Contains(text, "not computed yet at this stage") {
		t.Errorf("at stage 2a, point (8, 4) of stage 2b: %s", text)
	}
	g.pointer(pointerInput{x: dr.Min.X - 50, y: dr.Min.Y + 50, left: true, leftJust: true}, false)
	g.pointer(pointerInput{x: dr.Min.X - 50, y: dr.Min.Y + 50}, false)
	if *g.teach.picked != [2]int{8, 4} {
		t.Errorf("a click beside the diagram picked %v", *g.teach.picked)
	}
}

// Changing the stage frames the lesson's mesh again, wherever the camera
// was moved.
func TestStageChangeReframes(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 65))
	g.Layout(ScreenWidth, ScreenHeight)
	t.Cleanup(func() { onLoop(func() { g.OpenLesson(lesson.State{}, true) }) })
	openLink(t, g, "algorithm=midpoint&size=33&lesson=subdivision&stage=2a")
	for _, d := range []int{1, -1, 3} {
		g.Camera.Pos = mgl32.Vec3{3000, 20, 3000}
		g.Camera.Yaw, g.Camera.Pitch = 1, 0.3
		onLoop(func() { g.teachStep(d) })
		lessonMapInView(t, g)
	}
}
