package game

import (
	"fmt"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/vector"
)

// Scale bars in metres (a world unit is a metre): on the 3D view, for the
// ground under the view's centre, and on the minimap.

// scaleBarMaxPx is the longest a scale bar is drawn.
const scaleBarMaxPx = 160

// niceLength is the largest 1, 2 or 5 × 10ⁿ not above x (x > 0).
func niceLength(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{5, 2, 1} {
		if m*p <= x {
			return m * p
		}
	}
	return p
}

// metres writes a length as a person reads it: "50 m", "2 km", "1.5 km".
func metres(v float64) string {
	if v >= 1000 {
		return fmt.Sprintf("%g km", math.Round(v/100)/10)
	}
	if v >= 10 {
		return fmt.Sprintf("%.0f m", v)
	}
	return fmt.Sprintf("%.2g m", v)
}

// scaleBar is the bar for a view of pixelsPerMetre at most maxPx long:
// its length in metres and in pixels.
func scaleBar(pixelsPerMetre, maxPx float64) (length, px float64) {
	length = niceLength(maxPx / pixelsPerMetre)
	return length, length * pixelsPerMetre
}

// drawScaleBar draws a bar px long from (x, y) along the bottom of its
// label, white with a dark outline so that it reads on any ground.
func drawScaleBar(dst *ebiten.Image, x, y, px float32, label string) {
	dark := color.RGBA{0, 0, 0, 200}
	vector.FillRect(dst, x-1, y-7, px+2, 9, dark, false)
	vector.FillRect(dst, x, y-2, px, 3, color.White, false)
	vector.FillRect(dst, x, y-6, 2, 8, color.White, false)
	vector.FillRect(dst, x+px-2, y-6, 2, 8, color.White, false)
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
		length, px := scaleBar(ppm, scaleBarMaxPx)
		drawScaleBar(screen, float32(g.viewLeft()+16), float32(h-16), float32(px),
			fmt.Sprintf("%s at %s", metres(length), metres(dist)))
	}
	if g.ShowMinimap {
		vr := g.viewRect(w, h)
		r := g.World.Minimap.Rect(vr)
		// The minimap's own scale: with the land beyond the map shown, the
		// map's square is a part of it.
		if ppm := g.World.Minimap.PixelsPerMetre(vr); r.Dx() > 40 && ppm > 0 {
			length, px := scaleBar(ppm, 0.45*float64(r.Dx()))
			// Above the minimap, so that the map itself stays clear.
			drawScaleBar(screen, float32(r.Min.X), float32(r.Min.Y-6), float32(px), metres(length))
		}
	}
}
