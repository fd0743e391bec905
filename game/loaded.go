package game

import (
	"fmt"

	"github.com/ebitengine/debugui"

	"cordillera/game/scalebar"
	"cordillera/terrain"
)

// A loaded heightmap's part of the Generator panel: what the map is, in
// place of the generator's parameters, which made nothing of it. The
// generator's controls come back only when asked for, since touching one
// replaces the loaded map with a generated one. The Erosion section stays:
// it wears the loaded map.

// loadedSection describes the loaded map src and offers to generate a map
// in its place; it reports whether the generator's controls should show.
func (g *Game) loadedSection(ctx *debugui.Context, src *terrain.Heightmap) bool {
	if g.ui.generateOver == src {
		return true
	}
	w, d := src.Extent()
	ctx.SetGridLayout([]int{specLabelW, -1}, nil)
	for _, row := range [][2]string{
		{"map", "loaded from a file"},
		{"size", fmt.Sprintf("%d × %d samples", src.Width, src.Height)},
		{"cell size", scalebar.Metres(src.CellSize)},
		{"extent", fmt.Sprintf("%s × %s", scalebar.Metres(w), scalebar.Metres(d))},
		{"height scale", scalebar.Metres(src.VerticalScale)},
	} {
		ctx.Text(row[0])
		ctx.Text(row[1])
	}
	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Button("Generate a new map instead").On(func() {
		g.ui.generateOver = src
		g.ui.say("the generator's controls replace the loaded map once one is changed")
	})
	return false
}
