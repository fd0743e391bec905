package plot

import (
	"image"
	"image/color"
	"image/draw"
	"strings"
	"testing"
)

// solid is a w×h picture of one colour.
func solid(w, h int, c color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(c), image.Point{}, draw.Src)
	return img
}

// inkIn counts the pixels of r that are not the sheet's background.
func inkIn(img *image.RGBA, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if img.RGBAAt(x, y) != sheetBackground {
				n++
			}
		}
	}
	return n
}

func TestSheetLayout(t *testing.T) {
	colours := []color.RGBA{{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {200, 200, 0, 255}, {0, 200, 200, 255}}
	var panels []Panel
	for i, c := range colours {
		panels = append(panels, Panel{Image: solid(160, 60, c), Caption: strings.Repeat("x", i+1)})
	}
	img, l, err := Sheet([]string{"Title", "fixed: a b c"}, panels, 3)
	if err != nil {
		t.Fatal(err)
	}
	if l.Cols != 3 || l.Rows != 2 || len(l.Panels) != 5 || len(l.Captions) != 5 {
		t.Fatalf("layout %d×%d with %d panels, %d captions; want 3×2, 5, 5", l.Cols, l.Rows, len(l.Panels), len(l.Captions))
	}
	// Width: margins and gaps around three 160-pixel columns. Height: the
	// title block, then two rows of picture and caption strip.
	wantW := 2*sheetMargin + 3*160 + 2*sheetGap
	captionH := l.Captions[0].Dy()
	wantH := sheetMargin + l.Title.Dy() + 2*(60+captionH) + sheetGap + sheetMargin
	if b := img.Bounds(); b.Dx() != wantW || b.Dy() != wantH || b != l.Bounds {
		t.Errorf("sheet %v (layout %v), want %d×%d", b, l.Bounds, wantW, wantH)
	}
	if len(l.TitleLines) != 2 || l.Title.Dy() == 0 {
		t.Errorf("title lines %q in %v; want 2 lines", l.TitleLines, l.Title)
	}
	for i, r := range l.Panels {
		if r.Dx() != 160 || r.Dy() != 60 {
			t.Errorf("panel %d is %v, want 160×60", i, r)
		}
		if got := img.RGBAAt(r.Min.X+80, r.Min.Y+30); got != colours[i] {
			t.Errorf("panel %d shows %v at its centre, want %v", i, got, colours[i])
		}
		if c := l.Captions[i]; c.Min.Y != r.Max.Y || c.Min.X != r.Min.X {
			t.Errorf("caption %d at %v, want right under panel %v", i, c, r)
		}
		if inkIn(img, l.Captions[i]) == 0 {
			t.Errorf("caption %d has no text", i)
		}
		for j := range i {
			if r.Overlaps(l.Panels[j]) {
				t.Errorf("panels %d and %d overlap", i, j)
			}
		}
	}
	// Reading order: the fourth panel starts the second row.
	if l.Panels[3].Min.X != l.Panels[0].Min.X || l.Panels[3].Min.Y <= l.Panels[2].Max.Y {
		t.Errorf("panel 3 at %v; want the start of row 2, under panel 0 at %v", l.Panels[3], l.Panels[0])
	}
	// Longer captions put more ink in their strip.
	if inkIn(img, l.Captions[4]) <= inkIn(img, l.Captions[0]) {
		t.Error("caption 'xxxxx' has no more ink than caption 'x'")
	}
	if inkIn(img, l.Title) == 0 {
		t.Error("the title block has no text")
	}
}

// A sheet of small panels is widened for its title, the grid centred.
func TestSheetMinimumWidth(t *testing.T) {
	img, l, err := Sheet([]string{"T"}, []Panel{{Image: solid(20, 20, color.RGBA{R: 255, A: 255})}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != minSheetWidth {
		t.Errorf("sheet %v, want %d wide", img.Bounds(), minSheetWidth)
	}
	if r := l.Panels[0]; r.Min.X != (minSheetWidth-20)/2 {
		t.Errorf("panel at %v, want centred", r)
	}
}

func TestSheetWrapsTheTitle(t *testing.T) {
	panels := []Panel{{Image: solid(100, 100, color.RGBA{A: 255}), Caption: "a"}}
	long := "fixed: " + strings.Repeat("parameter\u00a0value\u00a0· ", 12)
	_, l, err := Sheet([]string{"T", long}, panels, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.TitleLines) < 3 {
		t.Fatalf("title lines %q: want the long line wrapped", l.TitleLines)
	}
	for _, line := range l.TitleLines[1:] {
		if strings.HasPrefix(line, "·") || strings.HasPrefix(line, "value") {
			t.Errorf("line %q starts inside an item: wrapped at a no-break space", line)
		}
	}
}

func TestSheetErrors(t *testing.T) {
	ok := []Panel{{Image: solid(10, 10, color.RGBA{A: 255})}}
	if _, _, err := Sheet(nil, nil, 1); err == nil {
		t.Error("no panels accepted")
	}
	if _, _, err := Sheet(nil, ok, 0); err == nil {
		t.Error("0 columns accepted")
	}
	if _, _, err := Sheet(nil, []Panel{{}}, 1); err == nil {
		t.Error("a panel without a picture accepted")
	}
	huge := []Panel{{Image: sizeOnly{image.Rect(0, 0, 20000, 20000)}}}
	if _, _, err := Sheet(nil, huge, 1); err == nil {
		t.Error("a sheet over MaxSheetPixels accepted")
	}
}

// sizeOnly is a picture with a size and no pixels.
type sizeOnly struct{ r image.Rectangle }

func (s sizeOnly) ColorModel() color.Model { return color.RGBAModel }
func (s sizeOnly) Bounds() image.Rectangle { return s.r }
func (s sizeOnly) At(x, y int) color.Color { return color.RGBA{} }
