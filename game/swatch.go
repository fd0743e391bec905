package game

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/ebitengine/debugui"

	"cordillera/game/swatch"
)

// Colour swatches in the panels (package swatch) beside the band
// materials' dropdowns.

// bandSwatchW is the width of the swatch column beside a band's material.
const bandSwatchW = 14

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
				swatch.Cell(ctx, g.render.materialColour(v.BandMaterials[i]))
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
