package game

import (
	"fmt"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"

	"cordillera/game/scalebar"
)

// The explorer's scale bars (package scalebar): on the 3D view, for the
// ground under the view's centre, and on the minimap.

// drawScaleBar draws a bar px long from (x, y) along the bottom of its
// label, white with a dark outline so that it reads on any ground.
func drawScaleBar(dst *ebiten.Image, x, y, px float32, label string) {
	scalebar.Draw(dst, x, y, px)
	textBackdrop(dst, label, int(x), int(y)-9-debugLineH)
	ebitenutil.DebugPrintAt(dst, label, int(x)+2, int(y)-9-debugLineH)
}

// viewPixelsPerMetre is the 3D view's scale where the view's centre meets
// the ground, and how far away that is; ok is false when it looks at the sky.
func (g *Game) viewPixelsPerMetre(h int) (ppm, dist float64, ok bool) {
	c, m := g.Camera, g.World.Map
	fwd := c.Forward()
	w, d := m.Extent()
	t, hit := m.RayGround([3]float64{float64(c.Pos[0]), float64(c.Pos[1]), float64(c.Pos[2])},
		[3]float64{float64(fwd[0]), float64(fwd[1]), float64(fwd[2])}, 4*max(w, d))
	if !hit || t <= float64(c.Near) {
		return 0, 0, false
	}
	focal := float64(h) / (2 * math.Tan(float64(c.FovY)/2)) // pixels per metre at a depth of 1 m
	return focal / t, t, true
}

// drawScaleBars draws the 3D view's scale bar at its bottom left and the
// minimap's above its top left corner.
func (g *Game) drawScaleBars(screen *ebiten.Image, w, h int) {
	if ppm, dist, ok := g.viewPixelsPerMetre(h); ok {
		length, px := scalebar.Fit(ppm, scalebar.MaxPx)
		drawScaleBar(screen, float32(g.viewLeft()+16), float32(h-16), float32(px),
			fmt.Sprintf("%s at %s", scalebar.Metres(length), scalebar.Metres(dist)))
	}
	if g.ShowMinimap {
		vr := g.viewRect(w, h)
		r := g.World.Minimap.Rect(vr)
		// The minimap's own scale: with the land beyond the map shown, the
		// map's square is a part of it.
		if ppm := g.World.Minimap.PixelsPerMetre(vr); r.Dx() > 40 && ppm > 0 {
			length, px := scalebar.Fit(ppm, 0.45*float64(r.Dx()))
			// Above the minimap, so that the map itself stays clear.
			drawScaleBar(screen, float32(r.Min.X), float32(r.Min.Y-6), float32(px), scalebar.Metres(length))
		}
	}
}
