package e2e

import (
	"fmt"
	"image"
	"slices"
	"strings"
)

// Finding debugui widgets in a frame. The explorer's panels are a debugui
// window; its widgets have no names a test could ask for, so the tests
// find them in the pixels: every framed widget (header, button, dropdown,
// text or number field, checkbox box) is a rectangle with a 1-pixel border
// of debugui's border colour around a flat fill, the fill telling its kind.
// The finder only relies on those colours (debugui's default style) and on
// the order of the widgets, never on absolute positions, which move with
// text wrapping and with the parameters the Generator panel lists.

// debugui's default colours.
var (
	uiBorder = [3]uint8{60, 60, 60}
	// button-like fills: normal, hover, focus (headers, buttons, dropdowns)
	uiButton = [][3]uint8{{75, 75, 75}, {95, 95, 95}, {115, 115, 115}}
	// field-like fills: normal, hover, focus (text and number fields,
	// sliders, checkbox boxes)
	uiBase = [][3]uint8{{30, 30, 30}, {35, 35, 35}, {40, 40, 40}}
)

type widgetKind int

const (
	otherWidget widgetKind = iota
	buttonWidget
	baseWidget
)

func (k widgetKind) String() string {
	return [...]string{"other", "button", "base"}[k]
}

// widget is a framed rectangle found in a frame, in logical pixels.
type widget struct {
	R    image.Rectangle // including the border
	Kind widgetKind
}

func (w widget) center() image.Point {
	return image.Pt((w.R.Min.X+w.R.Max.X)/2, (w.R.Min.Y+w.R.Max.Y)/2)
}

func (w widget) String() string { return fmt.Sprintf("%v %v", w.Kind, w.R) }

// frameView reads a frame in logical pixels.
type frameView struct {
	img   *image.RGBA
	scale float64
}

func (f frameView) rgb(x, y int) [3]uint8 {
	px, py := int(float64(x)*f.scale), int(float64(y)*f.scale)
	if !image.Pt(px, py).In(f.img.Rect) {
		return [3]uint8{}
	}
	i := f.img.PixOffset(px, py)
	return [3]uint8{f.img.Pix[i], f.img.Pix[i+1], f.img.Pix[i+2]}
}

func (f frameView) size() (w, h int) {
	return int(float64(f.img.Rect.Dx()) / f.scale), int(float64(f.img.Rect.Dy()) / f.scale)
}

func kindOf(c [3]uint8) widgetKind {
	switch {
	case slices.Contains(uiButton, c):
		return buttonWidget
	case slices.Contains(uiBase, c):
		return baseWidget
	}
	return otherWidget
}

// findWidgets returns the framed widgets inside area, top to bottom and
// left to right: each is a run of border-coloured pixels (its top edge,
// at least minSide long) with fill under it, closed by a bottom edge.
func findWidgets(f frameView, area image.Rectangle) []widget {
	const minSide = 10
	isBorder := func(x, y int) bool { return f.rgb(x, y) == uiBorder }
	var out []widget
	for y := area.Min.Y; y < area.Max.Y-minSide/2; y++ {
		for x := area.Min.X; x < area.Max.X; {
			if !isBorder(x, y) {
				x++
				continue
			}
			x0 := x
			for x < area.Max.X && isBorder(x, y) {
				x++
			}
			x1 := x // the run is [x0, x1)
			if x1-x0 < minSide {
				continue
			}
			kind := kindOf(f.rgb(x0+1, y+1))
			if kind == otherWidget || !isBorder(x0, y+1) || !isBorder(x1-1, y+1) {
				continue // not a top edge: no fill and side borders under it
			}
			// The bottom edge: the first row under it with border across.
			for y1 := y + 2; y1 < area.Max.Y; y1++ {
				if !isBorder(x0, y1) || !isBorder(x1-1, y1) {
					break // the side borders ended without a bottom edge
				}
				if isBorder(x0+1, y1) && isBorder((x0+x1)/2, y1) && isBorder(x1-2, y1) {
					out = append(out, widget{R: image.Rect(x0, y, x1, y1+1), Kind: kind})
					break
				}
			}
		}
	}
	return out
}

// uiWindow is the debugui window's area: 10,10 and 330 wide (game/ui.go),
// the full screen's height.
func uiWindow(f frameView) image.Rectangle {
	_, h := f.size()
	return image.Rect(10, 10, 10+330, h)
}

// headers returns the header bars: button-coloured widgets as wide as the
// window's content, with their fold icon at the left (a dropdown as wide
// has its icon at the right).
func headers(f frameView, ws []widget) []widget {
	var out []widget
	for _, w := range ws {
		if w.Kind != buttonWidget || w.R.Dx() < 250 {
			continue
		}
		if brightIn(f, image.Rect(w.R.Min.X+2, w.R.Min.Y+2, w.R.Min.X+18, w.R.Max.Y-2)) {
			out = append(out, w)
		}
	}
	return out
}

// brightIn reports whether the area holds text-coloured (light) pixels.
func brightIn(f frameView, r image.Rectangle) bool {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if c := f.rgb(x, y); c[0] > 200 && c[1] > 200 && c[2] > 200 {
				return true
			}
		}
	}
	return false
}

// checkboxes returns the checkbox boxes: small square field-coloured
// widgets.
func checkboxes(ws []widget) []widget {
	var out []widget
	for _, w := range ws {
		if w.Kind == baseWidget && w.R.Dx() <= 26 && abs(w.R.Dx()-w.R.Dy()) <= 2 {
			out = append(out, w)
		}
	}
	return out
}

// below returns the widgets whose top is under y, keeping the order.
func below(ws []widget, y int) []widget {
	var out []widget
	for _, w := range ws {
		if w.R.Min.Y >= y {
			out = append(out, w)
		}
	}
	return out
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func describe(ws []widget) string {
	var b strings.Builder
	for _, w := range ws {
		fmt.Fprintf(&b, "\n  %v", w)
	}
	return b.String()
}
