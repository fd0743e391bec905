package e2e

import (
	"image"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"cordillera/game"
)

// dropdowns returns the dropdown buttons among ws between the rows top and
// bottom: button-coloured widgets wide enough for a choice, with their
// arrow (light pixels) at the right end and none at the left (a header's
// fold icon is at its left; a plain button's label is centred and short).
func dropdowns(f frameView, ws []widget, top, bottom int) []widget {
	var out []widget
	for _, w := range ws {
		if w.Kind != buttonWidget || w.R.Dx() < 90 || w.R.Min.Y < top || w.R.Max.Y > bottom {
			continue
		}
		arrow := image.Rect(w.R.Max.X-15, w.R.Min.Y+3, w.R.Max.X-3, w.R.Max.Y-3)
		left := image.Rect(w.R.Min.X+2, w.R.Min.Y+3, w.R.Min.X+15, w.R.Max.Y-3)
		if brightIn(f, arrow) && !brightIn(f, left) {
			out = append(out, w)
		}
	}
	return out
}

// dropdownList returns the options of the list open under dd: buttons
// inset within its width (the list's padding: the panel's own widgets
// below line up with dd's edges), one under the other from its bottom edge
// on.
func dropdownList(f frameView, dd widget) []widget {
	_, h := f.size()
	var out []widget
	y := dd.R.Max.Y
	for _, w := range findWidgets(f, image.Rect(dd.R.Min.X, dd.R.Max.Y, dd.R.Max.X, h)) {
		if w.Kind != buttonWidget || w.R.Min.X < dd.R.Min.X+3 || w.R.Max.X > dd.R.Max.X-3 || w.R.Min.Y-y > 12 {
			continue
		}
		out = append(out, w)
		y = w.R.Max.Y
	}
	return out
}

// labelOf is the light pixels inside a widget, relative to it.
func labelOf(f frameView, w widget) string {
	var b strings.Builder
	for y := w.R.Min.Y + 2; y < w.R.Max.Y-2; y++ {
		for x := w.R.Min.X + 2; x < w.R.Max.X-2; x++ {
			if c := f.rgb(x, y); c[0] > 200 {
				b.WriteByte('#')
			} else {
				b.WriteByte('.')
			}
		}
	}
	return b.String()
}

// nearest is the widget of ws as wide as w and closest to it (a panel
// that scrolled or grew moves it), or w when none is.
func nearest(ws []widget, w widget) widget {
	best, dist := w, 1<<30
	for _, c := range ws {
		if c.R.Min.X == w.R.Min.X && c.R.Dx() == w.R.Dx() && abs(c.R.Min.Y-w.R.Min.Y) < dist {
			best, dist = c, abs(c.R.Min.Y-w.R.Min.Y)
		}
	}
	return best
}

// settings is what a choice can change in the state: the parameters, the
// look, the lesson and the camera's mode.
type settings struct {
	Params any
	View   game.Viewer
	Teach  string
	Camera string
}

func settingsOf(s game.State) settings {
	return settings{s.Params, s.View, s.Teach.Mode, s.Camera.Mode}
}

// changedPixels is the share of the pixels in r that differ between two
// frames.
func changedPixels(a, b frameView, r image.Rectangle) float64 {
	n, d := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			n++
			if a.rgb(x, y) != b.rgb(x, y) {
				d++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(d) / float64(n)
}

// settle waits until no map is being made, then lets the UI catch up.
func (a *app) settle() {
	a.t.Helper()
	a.waitState("no work under way", 60*time.Second, func(s game.State) bool { return !s.Busy })
	a.ticks(3)
	a.moveAway()
}

// scroll turns the wheel over the UI window: up (positive) or down.
func (a *app) scroll(notches float64) {
	a.t.Helper()
	if err := a.onHost(func() { a.sess.MoveCursor(150, screenH/2); a.sess.ScrollWheel(0, notches) }); err != nil {
		a.t.Fatal(err)
	}
	a.ticks(3)
	a.moveAway()
}

// headerLabel is a header's label as a pattern of light pixels: it tells
// the headers apart wherever they are.
func headerLabel(f frameView, h widget) string {
	var b strings.Builder
	for y := h.R.Min.Y + 2; y < h.R.Max.Y-2; y++ {
		for x := h.R.Min.X + 16; x < h.R.Min.X+100; x++ {
			if c := f.rgb(x, y); c[0] > 200 {
				b.WriteByte('#')
			} else {
				b.WriteByte('.')
			}
		}
	}
	return b.String()
}

// headerLabels records the labels of the headers shown in f, named in
// order.
func headerLabels(t *testing.T, f frameView, names ...string) map[string]string {
	t.Helper()
	hs := headers(f, findWidgets(f, uiWindow(f)))
	if len(hs) != len(names) {
		t.Fatalf("the UI shows %d headers; want %d (%q)", len(hs), len(names), names)
	}
	out := map[string]string{}
	for i, h := range hs {
		out[names[i]] = headerLabel(f, h)
	}
	return out
}

// section is the rows of the panel or section whose header has the label:
// from its header (or, scrolled out of view above, the window's top) to
// the next header below (or the window's bottom).
func section(f frameView, label string) (top, bottom int) {
	_, h := f.size()
	top, bottom = uiWindow(f).Min.Y+24, h
	hs := headers(f, findWidgets(f, uiWindow(f)))
	next := 0 // the first header below the section
	for i, hd := range hs {
		if headerLabel(f, hd) == label {
			top, next = hd.R.Max.Y, i+1
		}
	}
	if next < len(hs) {
		bottom = hs[next].R.Min.Y
	}
	return top, bottom
}

// panelDriver is a way to work the explorer's panels with pointer events:
// the desktop explorer under the test host (app) or the web page in
// headless Chromium (webDriver).
type panelDriver interface {
	tb() testing.TB
	frame(name string) frameView
	click(x, y int)
	ticks(n int)
	settle()
	scroll(notches float64)
	moveAway()
	settingsNow() settings
}

func (a *app) tb() testing.TB        { return a.t }
func (a *app) settingsNow() settings { return settingsOf(a.state()) }

// clickHeader clicks the header with the label, failing when none shows.
func clickHeader(d panelDriver, name, label string) {
	d.tb().Helper()
	d.moveAway()
	f := d.frame("header-" + name)
	for _, h := range headers(f, findWidgets(f, uiWindow(f))) {
		if headerLabel(f, h) == label {
			d.click(h.center().X, h.center().Y)
			d.moveAway()
			return
		}
	}
	d.tb().Fatalf("no %s header shows", name)
}

// pickEach opens every dropdown of the section under the header with the
// label (with the
// panel scrolled to the top, then to its end), checks that its list shows,
// and picks an option other than the current one: the dropdown's label
// changes, and so does the state or the 3D view. It returns how many
// dropdowns it worked.
func pickEach(a panelDriver, name, label string) int {
	a.tb().Helper()
	worked := 0
	var first frameView
	for pass, wheel := range []float64{20, -20} {
		for i := 0; ; i++ {
			a.scroll(wheel)
			f0 := a.frame(name + "-before")
			if pass == 0 && i == 0 {
				first = f0
			} else if pass == 1 && i == 0 {
				// The panel does not scroll when its header stays where it
				// was (the pixels differ: the picks changed the labels),
				// and then the first pass saw it all.
				top0, _ := section(first, label)
				top1, _ := section(f0, label)
				if top0 == top1 {
					break
				}
			}
			top, bottom := section(f0, label)
			dds := dropdowns(f0, findWidgets(f0, uiWindow(f0)), top, bottom)
			if i >= len(dds) {
				break
			}
			dd := dds[i]
			s0 := a.settingsNow()
			picked := false
			for option := 0; option < 2 && !picked; option++ {
				a.click(dd.center().X, dd.center().Y)
				a.ticks(2)
				open := a.frame(name + "-open")
				list := dropdownList(open, dd)
				if len(list) < 2 {
					a.tb().Fatalf("%s: a click on the dropdown at %v shows %d options; want its list open", name, dd.R, len(list))
				}
				a.click(list[option].center().X, list[option].center().Y)
				a.settle()
				a.scroll(wheel)
				f1 := a.frame(name + "-picked")
				if labelOf(f0, dd) != labelOf(f1, nearest(dropdowns(f1, findWidgets(f1, uiWindow(f1)), 0, f1.img.Rect.Dy()), dd)) {
					picked = true
					s1 := a.settingsNow()
					stateChanged := !reflect.DeepEqual(s0, s1)
					w, h := f1.size()
					view := changedPixels(f0, f1, image.Rect(uiWindow(f1).Max.X+10, 60, w, h))
					// Some choices act in the background without marking the
					// world busy (a plot is computed after its kind is
					// picked): give them up to 200 ticks to show.
					for wait := 0; !stateChanged && view == 0 && wait < 20; wait++ {
						a.ticks(10)
						f1 = a.frame(name + "-picked")
						view = changedPixels(f0, f1, image.Rect(uiWindow(f1).Max.X+10, 60, w, h))
					}
					if !stateChanged && view == 0 {
						a.tb().Errorf("%s: option %d of the dropdown at %v changed its label but neither the settings nor the view", name, option, dd.R)
					}
					a.tb().Logf("%s: dropdown at %v, option %d: settings changed %v, %.1f %% of the view changed", name, dd.R, option, stateChanged, 100*view)
				}
			}
			if !picked {
				a.tb().Errorf("%s: neither of the first two options of the dropdown at %v changed its label", name, dd.R)
			}
			worked++
		}
	}
	if worked == 0 {
		a.tb().Fatalf("%s: no dropdown in the section", name)
	}
	return worked
}

// TestE2EEveryWidgetKind works every dropdown of every panel (opening its
// list and picking an option), ticks an erosion stage's checkbox, drags a
// Viewer slider and types and edits in the File panel's path field, each
// with injected pointer and key events, checking the state and the pixels.
func TestE2EEveryWidgetKind(t *testing.T) {
	a := launch(t, exploreArgs...)
	a.moveAway()
	labels := headerLabels(t, a.frame("start"), "Generator", "Erosion", "Route", "Viewer", "File", "Teach")

	// Erosion first, on the default world: tick the droplets' stage, which
	// makes masks, which the minimap's dropdown then shows.
	clickHeader(a, "Erosion", labels["Erosion"])
	f0 := a.frame("erosion-open")
	top, bottom := section(f0, labels["Erosion"])
	var boxes []widget
	for _, b := range checkboxes(findWidgets(f0, uiWindow(f0))) {
		if b.R.Min.Y >= top && b.R.Max.Y <= bottom {
			boxes = append(boxes, b)
		}
	}
	if len(boxes) != 3 {
		t.Fatalf("the Erosion section shows %d stage checkboxes; want 3", len(boxes))
	}
	s0 := a.state()
	a.click(boxes[1].center().X, boxes[1].center().Y)
	s1 := a.waitWorld("the eroded world", s0)
	if !strings.Contains(s1.Params.Erosion, "hydraulic") {
		t.Fatalf("after ticking the second stage the erosion is %q; want hydraulic in it", s1.Params.Erosion)
	}
	a.settle()
	a.scroll(20)
	if f1 := a.frame("erosion-ticked"); !brightIn(f1, boxes[1].R.Inset(3)) || brightIn(f0, boxes[1].R.Inset(3)) {
		t.Errorf("the droplets' checkbox at %v does not show its tick after the click", boxes[1].R)
	}
	n := pickEach(a, "erosion", labels["Erosion"])
	a.scroll(20)
	clickHeader(a, "Erosion", labels["Erosion"]) // fold it
	n += pickEach(a, "generator", labels["Generator"])
	a.scroll(20)
	clickHeader(a, "Generator", labels["Generator"])
	clickHeader(a, "Route", labels["Route"])
	n += pickEach(a, "route", labels["Route"])
	a.scroll(20)
	clickHeader(a, "Route", labels["Route"])

	// Viewer: its dropdowns, then a drag on its third slider from a
	// quarter of its width to its right end.
	clickHeader(a, "Viewer", labels["Viewer"])
	n += pickEach(a, "viewer", labels["Viewer"])
	a.scroll(20)
	f0 = a.frame("viewer-top")
	top, bottom = section(f0, labels["Viewer"])
	var sliders []widget
	for _, w := range findWidgets(f0, uiWindow(f0)) {
		if w.Kind == baseWidget && w.R.Dx() >= 120 && w.R.Dy() < 40 && w.R.Min.Y >= top && w.R.Max.Y <= bottom {
			sliders = append(sliders, w)
		}
	}
	if len(sliders) < 3 {
		t.Fatalf("found %d sliders in the Viewer panel; want at least 3", len(sliders))
	}
	sl := sliders[2]
	v0 := a.state().View
	y := float64(sl.center().Y)
	for _, step := range []struct {
		x     int
		press bool
	}{{sl.R.Min.X + sl.R.Dx()/4, true}, {(sl.R.Min.X + sl.R.Max.X) / 2, true}, {sl.R.Max.X - 2, false}} {
		if err := a.onHost(func() {
			a.sess.MoveCursor(float64(step.x), y)
			if step.press {
				a.sess.PressMouseButton(ebiten.MouseButtonLeft)
			} else {
				a.sess.ReleaseMouseButton(ebiten.MouseButtonLeft)
			}
		}); err != nil {
			t.Fatal(err)
		}
		a.ticks(2)
	}
	a.moveAway()
	changed, err := viewerChanges(v0, a.state().View)
	if err != nil {
		t.Fatal(err)
	}
	if len(changed) != 1 {
		t.Errorf("a drag on the slider at %v changed %q; want one setting", sl.R, changed)
	}
	if f1 := a.frame("slid"); changedPixels(f0, f1, sl.R.Inset(1)) == 0 {
		t.Errorf("the slider at %v looks the same after the drag", sl.R)
	}
	clickHeader(a, "Viewer", labels["Viewer"])

	// The File panel's path field: type, move the caret, delete.
	clickHeader(a, "File", labels["File"])
	f0 = a.frame("file-open")
	field := pathField(t, f0, labels["File"])
	a.click(field.center().X, field.center().Y)
	a.clearField(field)
	a.typeText("maps.png")
	for range 4 {
		a.pressKey(ebiten.KeyArrowLeft)
	}
	a.pressKey(ebiten.KeyBackspace)
	a.typeText("-1")
	if got := a.state().Path; got != "map-1.png" {
		t.Errorf("typing maps.png, 4 Lefts, BackSpace and -1 left the path %q; want map-1.png", got)
	}
	if f1 := a.frame("typed"); !brightIn(f1, textArea(field)) {
		t.Errorf("the path field at %v shows no text after typing", field.R)
	}
	clickHeader(a, "File", labels["File"])

	clickHeader(a, "Teach", labels["Teach"])
	n += pickEach(a, "teach", labels["Teach"])
	t.Logf("worked %d dropdowns", n)
}

// pathField is the File panel's path field in f: the first wide field
// under the File header with the label.
func pathField(t testing.TB, f frameView, label string) widget {
	t.Helper()
	top, bottom := section(f, label)
	for _, w := range findWidgets(f, uiWindow(f)) {
		if w.Kind == baseWidget && w.R.Dx() >= 150 && w.R.Min.Y >= top && w.R.Max.Y <= bottom {
			return w
		}
	}
	t.Fatal("no path field in the File panel")
	return widget{}
}
