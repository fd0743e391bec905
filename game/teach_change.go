package game

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strings"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
)

// The wear lessons' "change since start" maps: what all the sweeps or
// time steps so far did to each sample, on the diverging scale of the
// droplet lesson's maps (red lowered, blue raised), with a colour bar
// that gives the scale in metres.

// thirdDiagramRect is the diagram left of secondDiagramRect.
func thirdDiagramRect(w int) image.Rectangle {
	return secondDiagramRect(w).Sub(image.Pt(diagramSide+12, 0))
}

// colourBarH is the colour bar's height in pixels.
const colourBarH = 10

// changeImage draws the change d (metres, w×h samples) on its own scale
// ±top, the largest |d|, and returns the image and top.
func changeImage(w, h int, d []float64) (*ebiten.Image, float64) {
	var top float64
	for _, v := range d {
		top = max(top, math.Abs(v))
	}
	img := fieldImage(w, h, 0, 0, w, func(i int) color.RGBA { return diverging(d[i], top) })
	return ebiten.NewImageFromImage(img), top
}

// drawChangeMap draws a change map img in r with its label under it and,
// under the label, the colour bar from −top to +top metres (linear in
// the change; the colours' square root lifts small changes into view).
func drawChangeMap(screen, img *ebiten.Image, r image.Rectangle, label string, top float64) {
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Translate(float64(r.Min.X), float64(r.Min.Y))
	screen.DrawImage(img, op)
	y := r.Max.Y
	h := 2*debugLineH + colourBarH + 10
	vector.FillRect(screen, float32(r.Min.X), float32(y), float32(r.Dx()), float32(h), captionBack, false)
	drawPanelText(screen, label, r.Min.X+4, y+2, captionText)
	if top <= 0 { // a scale of ±0 m would read as a fault
		drawPanelText(screen, "no change yet", r.Min.X+4, y+debugLineH+4, captionText)
		return
	}
	bx, by, bw := r.Min.X+4, y+debugLineH+4, r.Dx()-8
	for i := range bw {
		v := (2*(float64(i)+0.5)/float64(bw) - 1) * top
		vector.FillRect(screen, float32(bx+i), float32(by), 1, colourBarH, diverging(v, top), false)
	}
	ty := by + colourBarH + 1
	lo, hi := fmt.Sprintf("−%.3g m", top), fmt.Sprintf("+%.3g m", top)
	drawPanelText(screen, lo, bx, ty, captionText)
	drawPanelText(screen, "0", bx+bw/2-3, ty, captionText)
	drawPanelText(screen, hi, bx+bw-panelTextWidth(hi), ty, captionText)
}

// ringSample rings sample (x, y) of an n-wide map drawn in the diagram r.
func ringSample(screen *ebiten.Image, r image.Rectangle, x, y, n int) {
	scale := float32(diagramSide) / float32(n)
	px, py := float32(r.Min.X)+(float32(x)+0.5)*scale, float32(r.Min.Y)+(float32(y)+0.5)*scale
	vector.StrokeCircle(screen, px, py, 6, 2, pickColour, true)
}

// drawPanelTextScaled draws text as drawPanelText does, scale times as
// large (the panels' scale), its lines scale·debugLineH apart.
func drawPanelTextScaled(dst *ebiten.Image, s string, x, y int, c color.Color, scale float64) {
	if scale == 1 {
		drawPanelText(dst, s, x, y, c)
		return
	}
	for i, l := range strings.Split(s, "\n") {
		op := &text.DrawOptions{}
		op.GeoM.Scale(scale, scale)
		op.GeoM.Translate(float64(x), float64(y)+float64(i)*debugLineH*scale)
		op.ColorScale.ScaleWithColor(c)
		op.Filter = ebiten.FilterNearest
		debugui.DrawText(dst, l, op)
	}
}
