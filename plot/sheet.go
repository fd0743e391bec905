package plot

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Panel is one picture of a contact sheet and the caption under it.
type Panel struct {
	Image   image.Image
	Caption string
}

// SheetLayout is where a contact sheet put its parts, in pixels.
type SheetLayout struct {
	Cols, Rows int
	Bounds     image.Rectangle   // the whole sheet
	Title      image.Rectangle   // the title block across the top
	TitleLines []string          // the title as wrapped to the sheet's width
	Panels     []image.Rectangle // each panel's picture, in reading order
	Captions   []image.Rectangle // the caption strip under each picture
}

// The sheet's spacing, in pixels.
const (
	sheetMargin  = 12 // around the sheet
	sheetGap     = 12 // between panels
	captionPad   = 6  // above and below a caption
	titleLineGap = 4  // between title lines

	// minSheetWidth keeps the title readable above a few small panels.
	minSheetWidth = 480
)

// MaxSheetPixels bounds a contact sheet's area (a 10 000² sheet is 400 MB
// of RGBA): more panels or larger ones are an error, not an out-of-memory.
const MaxSheetPixels = 100_000_000

var (
	sheetBackground = color.RGBA{R: 250, G: 250, B: 248, A: 255}
	sheetInk        = color.RGBA{R: 20, G: 20, B: 20, A: 255}
)

// sheetFaces are the caption and title faces, parsed once: Go Regular
// and Go Bold from golang.org/x/image, so no system font is needed.
var sheetFaces = sync.OnceValues(func() (faces [2]font.Face, err error) {
	for i, ttf := range [][]byte{goregular.TTF, gobold.TTF} {
		f, err := opentype.Parse(ttf)
		if err != nil {
			return faces, err
		}
		if faces[i], err = opentype.NewFace(f, &opentype.FaceOptions{Size: 15, DPI: 72, Hinting: font.HintingFull}); err != nil {
			return faces, err
		}
	}
	return faces, nil
})

// Sheet lays the panels out in a grid of cols columns, in reading order,
// each picture with its caption centred under it, below a title block:
// title[0] in bold, the rest in the regular face, every line wrapped at
// plain spaces to the sheet's width (no-break spaces hold words together).
// Every cell takes the size of the largest picture, widened if need be to
// the widest caption; pictures are centred in their cells, and the grid on
// the sheet, which is at least 480 pixels wide.
func Sheet(title []string, panels []Panel, cols int) (*image.RGBA, SheetLayout, error) {
	if len(panels) == 0 {
		return nil, SheetLayout{}, errors.New("contact sheet: no panels")
	}
	if cols < 1 {
		return nil, SheetLayout{}, fmt.Errorf("contact sheet: %d columns; need at least 1", cols)
	}
	faces, err := sheetFaces()
	if err != nil {
		return nil, SheetLayout{}, fmt.Errorf("contact sheet: font: %w", err)
	}
	regular, bold := faces[0], faces[1]
	lineHeight := regular.Metrics().Height.Ceil()

	cols = min(cols, len(panels))
	rows := (len(panels) + cols - 1) / cols
	var pw, ph int
	for _, p := range panels {
		if p.Image == nil {
			return nil, SheetLayout{}, errors.New("contact sheet: a panel has no picture")
		}
		pw, ph = max(pw, p.Image.Bounds().Dx()), max(ph, p.Image.Bounds().Dy())
		// A column is wide enough for its caption too, so that a small
		// panel does not clip the value off "name = value".
		pw = max(pw, font.MeasureString(regular, p.Caption).Ceil())
	}
	captionH := lineHeight + 2*captionPad
	gridW := cols*pw + (cols-1)*sheetGap
	width := max(2*sheetMargin+gridW, minSheetWidth)
	gridX := (width - gridW) / 2 // the grid is centred on a sheet widened for its title
	textWidth := width - 2*sheetMargin

	l := SheetLayout{Cols: cols, Rows: rows}
	var lineFaces []font.Face // the face of each wrapped title line
	for i, line := range title {
		face := regular
		if i == 0 {
			face = bold
		}
		for _, w := range wrap(face, line, textWidth) {
			l.TitleLines = append(l.TitleLines, w)
			lineFaces = append(lineFaces, face)
		}
	}
	titleH := 0
	if len(l.TitleLines) > 0 {
		titleH = len(l.TitleLines)*(lineHeight+titleLineGap) + sheetMargin
	}
	height := sheetMargin + titleH + rows*(ph+captionH) + (rows-1)*sheetGap + sheetMargin
	if int64(width)*int64(height) > MaxSheetPixels {
		return nil, SheetLayout{}, fmt.Errorf("contact sheet: %d×%d pixels is more than %d; use fewer or smaller panels", width, height, MaxSheetPixels)
	}

	l.Bounds = image.Rect(0, 0, width, height)
	l.Title = image.Rect(sheetMargin, sheetMargin, width-sheetMargin, sheetMargin+titleH)
	img := image.NewRGBA(l.Bounds)
	draw.Draw(img, img.Bounds(), image.NewUniform(sheetBackground), image.Point{}, draw.Src)
	for i, line := range l.TitleLines {
		top := l.Title.Min.Y + i*(lineHeight+titleLineGap)
		drawText(img, l.Title, lineFaces[i], line, l.Title.Min.X, top)
	}
	for i, p := range panels {
		col, row := i%cols, i/cols
		x := gridX + col*(pw+sheetGap)
		y := sheetMargin + titleH + row*(ph+captionH+sheetGap)
		b := p.Image.Bounds()
		pic := image.Rect(x, y, x+b.Dx(), y+b.Dy()).Add(image.Pt((pw-b.Dx())/2, (ph-b.Dy())/2))
		draw.Draw(img, pic, p.Image, b.Min, draw.Src)
		caption := image.Rect(x, y+ph, x+pw, y+ph+captionH)
		textW := font.MeasureString(regular, p.Caption).Ceil()
		drawText(img, caption, regular, p.Caption, x+max((pw-textW)/2, 0), caption.Min.Y+captionPad)
		l.Panels = append(l.Panels, pic)
		l.Captions = append(l.Captions, caption)
	}
	return img, l, nil
}

// drawText writes one line of text with its top at y, clipped to clip.
func drawText(img *image.RGBA, clip image.Rectangle, face font.Face, text string, x, y int) {
	d := font.Drawer{
		Dst:  img.SubImage(clip).(*image.RGBA),
		Src:  image.NewUniform(sheetInk),
		Face: face,
		Dot:  fixed.P(x, y+face.Metrics().Ascent.Ceil()),
	}
	d.DrawString(text)
}

// wrap breaks text at plain spaces (not at no-break spaces) into lines no
// wider than width pixels; a single word wider than that gets a line of
// its own.
func wrap(face font.Face, text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Split(text, " ") {
		if word == "" {
			continue
		}
		next := word
		if line != "" {
			next = line + " " + word
		}
		if line != "" && font.MeasureString(face, next).Ceil() > width {
			lines = append(lines, line)
			next = word
		}
		line = next
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
