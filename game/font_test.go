package game

import (
	"image"
	"testing"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

// The panels' font draws λ whole (the parameter table writes λ for the
// lacunarity): wider than the 6-pixel half that a narrow cell keeps.
func TestPanelFontDrawsLambda(t *testing.T) {
	needLoop(t)
	inkWidth := func(s string) int {
		var img *image.RGBA
		onLoop(func() {
			dst := ebiten.NewImage(40, 20)
			defer dst.Deallocate()
			debugui.DrawText(dst, s, &text.DrawOptions{})
			img = ScreenPixels(dst)
		})
		lo, hi := -1, -1
		for x := 0; x < 40; x++ {
			for y := 0; y < 20; y++ {
				if img.Pix[img.PixOffset(x, y)+3] > 0 {
					if lo < 0 {
						lo = x
					}
					hi = x
					break
				}
			}
		}
		return hi - lo + 1
	}
	if w := inkWidth("λ"); w < 8 {
		t.Errorf("λ is drawn %d pixels wide; want the whole glyph (at least 8)", w)
	}
	if w := inkWidth("H"); w > 6 {
		t.Errorf("H is drawn %d pixels wide; Latin letters should stay narrow", w)
	}
}
