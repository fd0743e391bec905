package game

import (
	"image"
	"image/color"
	"strings"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
)

// shotPixels returns the 3D view, vr on the screen, for a screenshot,
// drawn at its full size. The frame on the screen may have been drawn at a share of it
// and upscaled (dynamic resolution), softer than a picture to keep should
// be; the shot draws the view once more at 100 %, which a slow machine
// pays for once.
func (g *Game) shotPixels(screen *ebiten.Image, vr image.Rectangle) *image.RGBA {
	if g.scene.res.scale >= maxViewScale {
		return ScreenPixels(screen.SubImage(vr).(*ebiten.Image))
	}
	w, h := vr.Dx(), vr.Dy()
	full := ebiten.NewImageWithOptions(image.Rect(0, 0, w, h), &ebiten.NewImageOptions{Unmanaged: true})
	defer full.Deallocate()
	// A frame of its own, so the frame kept for the screen stays as built;
	// the level of detail it selects is the shared LOD's, so that frame is
	// built again next time.
	f := frame{noOcclusion: g.scene.frame.noOcclusion, keepBack: g.scene.frame.keepBack,
		water: g.scene.frame.water, wet: g.scene.frame.wet, waterKnown: g.scene.frame.waterKnown}
	f.build(g.Camera, w, h, g.World.Map, g.World.LOD, g.World.Normals, g.FullMesh, g.View.DetailDist)
	g.render.draw(full, g.Camera, &g.View, g.World, &f)
	g.scene.frame.valid = false
	if !g.View.Antialias {
		return ScreenPixels(full)
	}
	aa := ebiten.NewImageWithOptions(image.Rect(0, 0, w, h), &ebiten.NewImageOptions{Unmanaged: true})
	defer aa.Deallocate()
	g.render.antialias(aa, full)
	return ScreenPixels(aa)
}

// shotImage is a screenshot: the 3D view, vr on the screen, at its full
// size, with the lesson's overlays drawn over it as on the screen (the
// added points, the diagram, the thumbnails, the droplets, the plot) and,
// in a lesson, its formula and a caption strip, so that a shot can go on
// a slide as it is.
func (g *Game) shotImage(screen *ebiten.Image, vr image.Rectangle) *image.RGBA {
	img := g.shotPixels(screen, vr)
	if g.teach.mode == teachOff && g.plots.img == nil {
		return img
	}
	b := screen.Bounds()
	off := ebiten.NewImageWithOptions(image.Rect(0, 0, b.Dx(), b.Dy()), &ebiten.NewImageOptions{Unmanaged: true})
	defer off.Deallocate()
	view := ebiten.NewImageFromImage(img)
	defer view.Deallocate()
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Translate(float64(vr.Min.X), float64(vr.Min.Y))
	off.DrawImage(view, op)
	g.drawTeach(off)
	g.drawPlot(off)
	shot := off.SubImage(vr).(*ebiten.Image)
	g.drawLessonNotes(shot, true)
	return ScreenPixels(shot)
}

// captionStripH is the height of a lesson's caption strip, in pixels.
const captionStripH = 22

// Colours of the lesson's caption strip.
var (
	captionBack = color.RGBA{0, 0, 0, 215}
	captionText = color.RGBA{255, 255, 255, 255}
)

// drawLessonNotes draws, over a lesson's view dst (in the screen's
// coordinates), a caption strip along its bottom naming the lesson, the
// algorithm, its parameters and the seed, and with formula the lesson's
// formula and numbers, as the Teach panel gives them, right under the
// diagram or thumbnails.
func (g *Game) drawLessonNotes(dst *ebiten.Image, formula bool) {
	caption := g.lessonCaption()
	if caption == "" {
		return
	}
	r := dst.Bounds()
	vector.FillRect(dst, float32(r.Min.X), float32(r.Max.Y-captionStripH), float32(r.Dx()), captionStripH, captionBack, false)
	drawPanelText(dst, caption, r.Min.X+8, r.Max.Y-captionStripH+4, captionText)
	if !formula {
		return
	}
	text := g.lessonText()
	if text == "" {
		return
	}
	lines := strings.Split(text, "\n")
	width := 0
	for _, l := range lines {
		width = max(width, panelTextWidth(l))
	}
	x, y := r.Max.X-10-width-12, teachTop+diagramSide+24
	h := len(lines)*debugLineH + 8
	vector.FillRect(dst, float32(x), float32(y), float32(width+12), float32(h), captionBack, false)
	drawPanelText(dst, text, x+6, y+4, captionText)
}

// drawPanelText draws text, line by line, in the panels' font (which has
// λ, ², · and the other signs the formulas use).
func drawPanelText(dst *ebiten.Image, s string, x, y int, c color.Color) {
	for i, l := range strings.Split(s, "\n") {
		op := &text.DrawOptions{}
		op.GeoM.Translate(float64(x), float64(y+i*debugLineH))
		op.ColorScale.ScaleWithColor(c)
		debugui.DrawText(dst, l, op)
	}
}

// panelTextWidth is a line's width in the panels' font: 6 pixels a
// character, Greek letters 12 (the font draws them from its wide face).
func panelTextWidth(s string) int {
	w := 0
	for _, r := range s {
		w += debugCharW
		if r >= 0x370 && r < 0x400 {
			w += debugCharW
		}
	}
	return w
}
