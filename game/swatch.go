package game

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
)

// Colour swatches in the panels: a small square of the colour that a row
// edits or names, beside its widgets.

// swatchFrame rims a colour swatch: light, and unlike the widgets' dark
// border, so that a dark colour still shows its edge.
var swatchFrame = color.RGBA{150, 150, 150, 255}

// bandSwatchW is the width of the swatch column beside a band's material.
const bandSwatchW = 14

// swatch takes the next cell of the layout: a square of c, as large as the
// cell allows, centred in it, inside a light rim.
func swatch(ctx *debugui.Context, c color.Color) {
	ctx.GridCell(func(bounds image.Rectangle) {
		ctx.SetGridLayout([]int{-1}, nil)
		ctx.DrawOnlyWidget(func(screen *ebiten.Image) {
			// debugui leaves a drawn widget to draw at its scale.
			s := ctx.Scale()
			bounds := image.Rect(int(math.Round(float64(bounds.Min.X)*s)), int(math.Round(float64(bounds.Min.Y)*s)),
				int(math.Round(float64(bounds.Max.X)*s)), int(math.Round(float64(bounds.Max.Y)*s)))
			side := min(bounds.Dx(), bounds.Dy())
			r := image.Rect(0, 0, side, side).Add(bounds.Min).Add(image.Pt((bounds.Dx()-side)/2, (bounds.Dy()-side)/2))
			fillRect(screen, r.Inset(1), swatchFrame)
			fillRect(screen, r.Inset(2), c)
		})
	})
}

func fillRect(screen *ebiten.Image, r image.Rectangle, c color.Color) {
	vector.FillRect(screen, float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), c, false)
}

// bandSwatches is the Viewer's row of the height or slope bands'
// materials, lowest band first, under the heading label: each band's dropdown
// beside a swatch of its material's mean colour, the colour the band
// shows from afar.
func (g *Game) bandSwatches(ctx *debugui.Context, label string) {
	v := &g.View
	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Text(label)
	ctx.SetGridLayout([]int{-1, -1, -1, -1}, nil)
	for i := range v.MaterialCount {
		ctx.IDScope(fmt.Sprint("band", i), func() {
			ctx.GridCell(func(image.Rectangle) {
				ctx.SetGridLayout([]int{bandSwatchW, -1}, nil)
				swatch(ctx, g.render.materialColour(v.BandMaterials[i]))
				m := v.BandMaterials[i]
				ctx.Dropdown(&m, materialNames).On(func() { v.BandMaterials[i] = m })
			})
		})
	}
}

// materialColour is the mean colour of material m's texture in the
// materials now loaded, as the screen shows it.
func (r *renderer) materialColour(m int) color.RGBA {
	c := r.means[4*m : 4*m+3]
	to8 := func(f float32) uint8 { return uint8(math.Round(255 * float64(f))) }
	return color.RGBA{to8(c[0]), to8(c[1]), to8(c[2]), 255}
}
