// Package swatch draws colour swatches in the explorer's debugui panels: a
// small square of the colour that a row edits or names, beside its
// widgets.
package swatch

import (
	"image"
	"image/color"
	"math"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
)

// frame rims a colour swatch: light, and unlike the widgets' dark border,
// so that a dark colour still shows its edge.
var frame = color.RGBA{150, 150, 150, 255}

// Cell takes the next cell of the layout: a square of c, as large as the
// cell allows, centred in it, inside a light rim.
func Cell(ctx *debugui.Context, c color.Color) {
	ctx.GridCell(func(bounds image.Rectangle) {
		ctx.SetGridLayout([]int{-1}, nil)
		ctx.DrawOnlyWidget(func(screen *ebiten.Image) {
			// debugui leaves a drawn widget to draw at its scale.
			s := ctx.Scale()
			bounds := image.Rect(int(math.Round(float64(bounds.Min.X)*s)), int(math.Round(float64(bounds.Min.Y)*s)),
				int(math.Round(float64(bounds.Max.X)*s)), int(math.Round(float64(bounds.Max.Y)*s)))
			side := min(bounds.Dx(), bounds.Dy())
			r := image.Rect(0, 0, side, side).Add(bounds.Min).Add(image.Pt((bounds.Dx()-side)/2, (bounds.Dy()-side)/2))
			fillRect(screen, r.Inset(1), frame)
			fillRect(screen, r.Inset(2), c)
		})
	})
}

func fillRect(screen *ebiten.Image, r image.Rectangle, c color.Color) {
	vector.FillRect(screen, float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), c, false)
}
