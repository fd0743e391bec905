package game

import (
	"image"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
)

// The panels' capitals grow with the scale: the status row's "R" is
// scale times as tall as at 1× (to a pixel), and at 2× at least 16
// pixels, legible on a projector.
func TestUIScaleTextHeight(t *testing.T) {
	needLoop(t)
	heights := map[float64]int{}
	for _, scale := range UIScales {
		g := newTestGame(t, testWorld(t, 65))
		g.ui.w, g.ui.h = ScreenWidth, ScreenHeight
		if err := g.SetUIScale(scale); err != nil {
			t.Fatal(err)
		}
		img := drawPanelsOnly(t, g)
		// The status row, "Ready", is the window body's first row: below
		// the 24-unit title bar and the 5-unit padding, 18 units tall.
		row := image.Rect(g.ui.px(10), g.ui.px(10+24+5), g.ui.px(10+uiWidth), g.ui.px(10+24+5+18))
		h := firstGlyphHeight(img, row)
		heights[scale] = h
		if want := float64(heights[1]) * scale; math.Abs(float64(h)-want) > 1 {
			t.Errorf("at %g× the status row's R is %d pixels tall, want %.1f ±1 (%d at 1×)", scale, h, want, heights[1])
		}
	}
	t.Logf("capital heights by scale: %v", heights)
	if heights[1] < 7 {
		t.Fatalf("at 1× the status row's R is %d pixels tall: the row was not found", heights[1])
	}
	if heights[2] < 16 {
		t.Errorf("at 2× capitals are %d pixels tall, want at least 16", heights[2])
	}
}

// drawPanelsOnly builds g's panels and draws them alone on a black
// screen of g's size.
func drawPanelsOnly(t *testing.T, g *Game) *image.RGBA {
	t.Helper()
	var img *image.RGBA
	onLoop(func() {
		for range 3 {
			if _, err := g.ui.debug.Update(func(ctx *debugui.Context) error { g.buildUI(ctx); return nil }); err != nil {
				t.Fatal(err)
			}
		}
		screen := ebiten.NewImage(g.ui.w, g.ui.h)
		defer screen.Deallocate()
		g.ui.debug.Draw(screen)
		img = ScreenPixels(screen)
	})
	return img
}

// firstGlyphHeight is the height of the first glyph of text in r: the
// rows holding text-bright pixels in the columns from the first such
// column to the first column without one after it.
func firstGlyphHeight(img *image.RGBA, r image.Rectangle) int {
	bright := func(x, y int) bool { return img.RGBAAt(x, y).G > 150 }
	colHas := func(x int) bool {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			if bright(x, y) {
				return true
			}
		}
		return false
	}
	x0 := r.Min.X
	for x0 < r.Max.X && !colHas(x0) {
		x0++
	}
	top, bottom := r.Max.Y, r.Min.Y
	for x := x0; x < r.Max.X && colHas(x); x++ {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			if bright(x, y) {
				top, bottom = min(top, y), max(bottom, y+1)
			}
		}
	}
	return max(bottom-top, 0)
}

// The panels' scale is kept in the user's settings file and read back;
// a damaged file is an error naming it, and a scale not offered is
// refused.
func TestPrefsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("HOME", dir)
	if p, err := LoadPrefs(); err != nil || p != (Prefs{}) {
		t.Fatalf("with no settings kept LoadPrefs = %+v, %v; want the zero Prefs", p, err)
	}
	if err := SavePrefs(Prefs{UIScale: 1.5}); err != nil {
		t.Fatal(err)
	}
	if p, err := LoadPrefs(); err != nil || p.UIScale != 1.5 {
		t.Fatalf("LoadPrefs after saving 1.5 = %+v, %v", p, err)
	}
	path, _ := PrefsFile()
	for _, bad := range []string{`{"ui_scale": 3}`, `{"ui_scale": `} {
		if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadPrefs(); err == nil || !strings.Contains(err.Error(), filepath.Base(path)) {
			t.Errorf("LoadPrefs of %s = %v; want an error naming the file", bad, err)
		}
	}
	for _, s := range []string{"1", "1.5", "2x", "2×"} {
		if _, err := ParseUIScale(s); err != nil {
			t.Errorf("ParseUIScale(%q): %v", s, err)
		}
	}
	for _, s := range []string{"0", "3", "1.25", "big", ""} {
		if _, err := ParseUIScale(s); err == nil {
			t.Errorf("ParseUIScale(%q) took it", s)
		}
	}
}
