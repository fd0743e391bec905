package game

import (
	"image"
	"slices"
	"strconv"
	"testing"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"

	"cordillera/terrain"
)

// uiPixels builds the UI window a few times (its height follows the
// content of the update before) and returns it drawn alone.
func uiPixels(t *testing.T, g *Game) *image.RGBA {
	t.Helper()
	var img *image.RGBA
	onLoop(func() {
		for range 3 {
			if _, err := g.ui.debug.Update(func(ctx *debugui.Context) error { g.buildUI(ctx); return nil }); err != nil {
				t.Error(err)
				return
			}
		}
		screen := ebiten.NewImage(testW, testH)
		defer screen.Deallocate()
		g.ui.debug.Draw(screen)
		img = image.NewRGBA(screen.Bounds())
		screen.ReadPixels(img.Pix)
	})
	return img
}

// setBusy makes the regenerator report a map under way (or none).
func setBusy(g *Game, busy bool) {
	g.gen.regen.mu.Lock()
	g.gen.regen.busy, g.gen.regen.progress = busy, 0.4
	g.gen.regen.mu.Unlock()
}

// The progress line has a row of its own at the top of the window: the
// widgets are where they were before the rebuild started.
func TestProgressMovesNoWidget(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 65))
	g.ui.w, g.ui.h = testW, testH // the window's height follows the screen's
	g.OpenPanels("Generator")
	before := uiPixels(t, g)
	setBusy(g, true)
	during := uiPixels(t, g)
	setBusy(g, false)
	// The first row (below the title bar) holds the status and may change;
	// nothing else may.
	status := image.Rect(0, 10+24, testW, 10+24+5+18+2)
	diff := 0
	var first image.Point
	for y := range testH {
		for x := range testW {
			if image.Pt(x, y).In(status) {
				continue
			}
			i := before.PixOffset(x, y)
			if !slices.Equal(before.Pix[i:i+4], during.Pix[i:i+4]) {
				if diff == 0 {
					first = image.Pt(x, y)
				}
				diff++
			}
		}
	}
	if diff > 0 {
		t.Errorf("during a rebuild %d pixels of the UI outside its status row changed, the first at %v: widgets moved", diff, first)
	}
	if img := uiPixels(t, g); !slices.Equal(img.Pix, before.Pix) {
		t.Errorf("after the rebuild the UI does not look as before it")
	}
}

// Erosion, Route, Viewer, File and Teach are panels of their own: each
// unfolds with Generator folded.
func TestSectionsAreTopLevel(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 65))
	names := []string{"Erosion", "Route", "Viewer", "File", "Teach"}
	g.OpenPanels(names...)
	g.ui.closed["Generator"] = true
	uiPixels(t, g)
	if !slices.Equal(g.ui.unfolded, names) {
		t.Errorf("with Generator folded the unfolded panels are %q; want %q", g.ui.unfolded, names)
	}
}

// T starts a lesson with the Teach panel unfolded, whether it was folded
// or open, and leaves the other panels as they were.
func TestTeachKeyOpensTeachPanel(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 65))
	g.OpenPanels("Viewer")
	uiPixels(t, g)
	if slices.Contains(g.ui.unfolded, "Teach") {
		t.Fatal("Teach is unfolded before T")
	}
	onLoop(func() { g.setTeachMode(teachSubdivision) })
	uiPixels(t, g)
	if want := []string{"Viewer", "Teach"}; !slices.Equal(g.ui.unfolded, want) {
		t.Errorf("after T the unfolded panels are %q; want %q", g.ui.unfolded, want)
	}
	onLoop(func() { g.setTeachMode(teachOff); g.setTeachMode(teachOctaves) })
	uiPixels(t, g)
	if want := []string{"Viewer", "Teach"}; !slices.Equal(g.ui.unfolded, want) {
		t.Errorf("a second lesson with Teach open left %q unfolded; want %q", g.ui.unfolded, want)
	}
	// A lesson started before the window is first built (a link's
	// lesson=…&open=Teach) finds Teach unfolded too.
	g2 := newTestGame(t, testWorld(t, 65))
	g2.OpenPanels("Teach")
	onLoop(func() { g2.setTeachMode(teachSubdivision) })
	uiPixels(t, g2)
	if want := []string{"Teach"}; !slices.Equal(g2.ui.unfolded, want) {
		t.Errorf("a lesson started before the first build left %q unfolded; want %q", g2.ui.unfolded, want)
	}
}

// Whole steps show no decimals; finer ones as many as the step needs.
func TestDigitsFor(t *testing.T) {
	for _, c := range []struct {
		step float64
		want int
	}{{50, 0}, {1, 0}, {0.5, 1}, {0.1, 1}, {0.05, 2}, {0.01, 2}, {0.0049, 3}, {1e-6, 3}, {0, 0}} {
		if got := digitsFor(c.step); got != c.want {
			t.Errorf("digitsFor(%v) = %d; want %d", c.step, got, c.want)
		}
	}
}

// Typed values show the decimals they have, up to 3.
func TestDecimalsOf(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want int
	}{{200, 0}, {1.5, 1}, {0.25, 2}, {1e-4, 3}, {1.0 / 3, 3}} {
		if got := decimalsOf(c.v); got != c.want {
			t.Errorf("decimalsOf(%v) = %d; want %d", c.v, got, c.want)
		}
	}
}

// A slider shows as many decimals as its step and its value need: a whole
// value none, a half one one, whatever the step; float noise in the value
// adds none.
func TestSliderDigits(t *testing.T) {
	for _, c := range []struct {
		v, step float64
		want    string
	}{
		{35, 0.2, "35"}, {35.2, 0.2, "35.2"}, {0.5, 0.001, "0.5"}, {2, 0.075, "2"},
		{2.25, 0.075, "2.25"}, {0.1 + 0.2, 0.001, "0.3"}, {1.0 / 3, 0.001, "0.333"},
		{512.4, 5, "512"}, {0.0004, 0.001, "0"}, {-1.5, 0.01, "-1.5"}, {12, 0, "12"},
	} {
		if got := strconv.FormatFloat(c.v, 'f', sliderDigits(c.v, c.step), 64); got != c.want {
			t.Errorf("%v on a slider of step %v shows %q; want %q", c.v, c.step, got, c.want)
		}
	}
}

// The yes-or-no parameters are the ones shown as checkboxes.
func TestBoolSpecsAreCheckboxes(t *testing.T) {
	var bools []string
	for _, s := range terrain.Specs {
		if isBool(s) {
			bools = append(bools, s.Name)
		}
	}
	if want := []string{"tileable", "route-keep-all"}; !slices.Equal(bools, want) {
		t.Errorf("checkbox parameters %q; want %q", bools, want)
	}
}
