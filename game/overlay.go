package game

import (
	"image"
	"image/color"
	"strings"
	"unicode/utf8"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
)

// The 3D view's overlays: the HUD's backdrop and where the progress bar
// goes.

// hudBackdrop is the HUD's backing: dark enough that white text reads on
// any sky or snow.
var hudBackdrop = color.RGBA{0, 0, 0, 140}

// textBackdrop darkens the box that DebugPrintAt(text, x, y) writes in.
func textBackdrop(dst *ebiten.Image, text string, x, y int) {
	lines := strings.Split(text, "\n")
	longest := 0
	for _, l := range lines {
		longest = max(longest, utf8.RuneCountInString(l))
	}
	vector.FillRect(dst, float32(x), float32(y), float32(longest*debugCharW+6), float32(len(lines)*debugLineH+2), hudBackdrop, false)
}

// progressBarH is the progress bar's height; its label sits above it.
const progressBarH, progressLabelH = 14, 18

// progressRect is the progress bar and its label: along the bottom of the
// 3D view (right of the panels at left), three fifths of its width, but
// never over the minimap: it ends left of it, or, where that leaves too
// little, goes above it.
func progressRect(left, w, h int, minimap image.Rectangle) image.Rectangle {
	const gap, minWidth = 12, 160
	minimap.Min.Y -= 9 + debugLineH // the minimap's scale bar above it
	x0, x1 := left+(w-left)/5, left+(w-left)*4/5
	y1 := h - 14
	r := image.Rect(x0, y1-progressBarH-progressLabelH, x1, y1)
	if minimap.Empty() || !r.Overlaps(minimap.Inset(-gap)) {
		return r
	}
	if minimap.Min.X-gap-x0 >= minWidth {
		r.Max.X = minimap.Min.X - gap
		return r
	}
	return r.Sub(image.Pt(0, r.Max.Y-(minimap.Min.Y-gap)))
}
