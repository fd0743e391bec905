package e2e

import (
	"image"
	"testing"
)

// TestE2EParameterTooltip rests the pointer on a parameter's name in the
// Generator panel: its range and meaning show in a tooltip right of the
// panels, and go when the pointer leaves.
func TestE2EParameterTooltip(t *testing.T) {
	a := launch(t, exploreArgs...)
	a.moveAway()
	f := a.frame("start")
	var slider widget
	for _, w := range findWidgets(f, uiWindow(f)) {
		if w.Kind == baseWidget && w.R.Dx() >= 120 && w.R.Dy() < 40 {
			slider = w // the first slider row: its name is left of it
			break
		}
	}
	if slider.R.Empty() {
		t.Fatal("no slider in the Generator panel")
	}
	name := image.Pt(30, slider.center().Y)
	tipArea := image.Rect(10+330+12, slider.R.Min.Y+2, 10+330+300, slider.R.Min.Y+14)
	if n := tipPixels(f, tipArea); n > 0 {
		t.Fatalf("%d tooltip pixels before hovering", n)
	}
	if err := a.onHost(func() { a.sess.MoveCursor(float64(name.X), float64(name.Y)) }); err != nil {
		t.Fatal(err)
	}
	a.ticks(40)
	f = a.frame("tooltip")
	if n := tipPixels(f, tipArea); n < 50 {
		t.Errorf("%d tooltip text pixels in %v after resting on the name at %v; want a tooltip", n, tipArea, name)
	}
	a.moveAway()
	if n := tipPixels(a.frame("left"), tipArea); n > 0 {
		t.Errorf("%d tooltip pixels after the pointer left", n)
	}
}

// tipPixels counts light text pixels on the tooltip's dark fill in r.
func tipPixels(f frameView, r image.Rectangle) int {
	dark, light := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := f.rgb(x, y)
			switch {
			case c[0] < 40 && c[1] < 40 && c[2] < 40:
				dark++
			case c[0] > 200 && c[1] > 200 && c[2] > 200:
				light++
			}
		}
	}
	if dark < r.Dx()*r.Dy()/2 {
		return 0 // no dark box: no tooltip
	}
	return light
}
