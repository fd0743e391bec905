package game

import (
	"image"
	"testing"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
)

// Each band's material shows a swatch of its colour beside its dropdown,
// in the order of the bands: with the test materials' flat colours, the
// swatches of rock, sand and grass (bands 1 to 3) lie left to right.
func TestBandMaterialsHaveSwatches(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 65))
	g.ui.w, g.ui.h = ScreenWidth, ScreenHeight
	g.OpenPanels("Viewer")
	g.ui.unfold = "Materials and snow"
	bands := []int{2, 0, 1}
	g.View.MaterialCount = len(bands)
	copy(g.View.BandMaterials[:], bands)
	var img *image.RGBA
	onLoop(func() {
		g.render.setAtlas(flatAtlas())
		for range 3 {
			if _, err := g.ui.debug.Update(func(ctx *debugui.Context) error { g.buildUI(ctx); return nil }); err != nil {
				t.Fatal(err)
			}
		}
		screen := ebiten.NewImage(ScreenWidth, ScreenHeight)
		defer screen.Deallocate()
		g.ui.debug.Draw(screen)
		img = image.NewRGBA(screen.Bounds())
		screen.ReadPixels(img.Pix)
	})
	lastX := -1
	for i, m := range bands {
		want := flatColours[m]
		n, sumX := 0, 0
		for y := range ScreenHeight {
			for x := range uiWidth + 20 {
				if img.RGBAAt(x, y) == want {
					n, sumX = n+1, sumX+x
				}
			}
		}
		if n < 64 {
			t.Fatalf("band %d (%s): %d pixels of its colour %v in the panel, want a swatch of at least 64", i+1, materialNames[m], n, want)
		}
		if x := sumX / n; x <= lastX {
			t.Errorf("band %d (%s)'s swatch is at x %d, not right of band %d's at %d", i+1, materialNames[m], x, i, lastX)
		} else {
			lastX = x
		}
	}
}

// The swatch colour of a material is its texture's mean in the materials
// loaded.
func TestMaterialColourIsTheTexturesMean(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 65))
	onLoop(func() { g.render.setAtlas(flatAtlas()) })
	for m, want := range flatColours {
		if got := g.render.materialColour(m); got != want {
			t.Errorf("%s's colour %v; want %v", materialNames[m], got, want)
		}
	}
}
