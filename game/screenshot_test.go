package game

import (
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// F12 saves the 3D view at the window's full size and detail even while
// the view is drawn at 25 % and upscaled: the shot matches a frame drawn
// at 100 %, which the frame on the screen does not.
func TestScreenshotIsFullResolution(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 257))
	lowView(g.Camera, g.World.Map)
	full := renderFrame(g, false)

	g.Resolution.Fixed = 0.25
	g.ScreenshotDir = t.TempDir()
	g.scene.shotPending = true
	shown := renderFrame(g, false)
	if g.ViewScale() != 0.25 {
		t.Fatalf("the view was drawn at %.2f; want 0.25", g.ViewScale())
	}
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
	shot := image.NewRGBA(img.Bounds())
	draw.Draw(shot, shot.Bounds(), img, img.Bounds().Min, draw.Src)
	if shot.Bounds() != full.Bounds() {
		t.Fatalf("the screenshot is %v; want the window's %v", shot.Bounds(), full.Bounds())
	}
	all := full.Bounds()
	nShot, total := differing(shot, full, all, 2)
	nShown, _ := differing(shown, full, all, 2)
	t.Logf("pixels off the 100 %% frame by more than 2 levels: screenshot %d, the 25 %% frame shown %d, of %d", nShot, nShown, total)
	if nShot > total/200 {
		t.Errorf("%d of %d screenshot pixels differ from the 100 %% frame: not drawn at full resolution", nShot, total)
	}
	if nShown < total/20 {
		t.Errorf("only %d of %d pixels of the 25 %% frame differ from the 100 %% frame: the test does not tell the scales apart", nShown, total)
	}
}
