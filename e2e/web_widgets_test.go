package e2e

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// webDriver works the page's panels with the browser's own pointer and key
// events (the DevTools protocol's input domain), as panelDriver.
type webDriver struct {
	p *page
}

func (d *webDriver) tb() testing.TB { return d.p.t }

// frame is a screenshot taken after the page has drawn two more frames.
func (d *webDriver) frame(name string) frameView {
	d.p.t.Helper()
	s, _ := d.p.state()
	d.p.waitState("two more frames", time.Minute, func(q webState) bool { return q.Frames >= s.Frames+2 })
	return frameView{d.p.shot(name), 1}
}

func (d *webDriver) mouse(typ input.MouseType, x, y int, button input.MouseButton) {
	d.p.t.Helper()
	ev := input.DispatchMouseEvent(typ, float64(x), float64(y))
	if button != input.None {
		ev = ev.WithButton(button).WithClickCount(1)
	}
	if err := chromedp.Run(d.p.ctx, ev); err != nil {
		d.p.t.Fatalf("mouse %s at %d,%d: %v", typ, x, y, err)
	}
}

// click moves the pointer to x, y, presses and releases the left button,
// and lets two ticks pass.
func (d *webDriver) click(x, y int) {
	d.p.t.Helper()
	d.mouse(input.MouseMoved, x, y, input.None)
	d.mouse(input.MousePressed, x, y, input.Left)
	d.mouse(input.MouseReleased, x, y, input.Left)
	d.ticks(2)
}

// ticks waits until the page's explorer has run n more ticks (the state
// it publishes comes every few ticks, so it may be a few more).
func (d *webDriver) ticks(n int) {
	d.p.t.Helper()
	s, _ := d.p.state()
	d.p.waitState("more ticks", time.Minute, func(q webState) bool { return q.Tick >= s.Tick+int64(n) })
}

func (d *webDriver) settle() {
	d.p.t.Helper()
	d.p.waitState("no work under way", 3*time.Minute, func(s webState) bool { return !s.Busy })
	d.ticks(3)
	d.moveAway()
}

// scroll turns the wheel over the UI window: up (positive) or down.
func (d *webDriver) scroll(notches float64) {
	d.p.t.Helper()
	ev := input.DispatchMouseEvent(input.MouseWheel, 150, 300).WithDeltaX(0).WithDeltaY(-100 * notches)
	if err := chromedp.Run(d.p.ctx, ev); err != nil {
		d.p.t.Fatalf("wheel: %v", err)
	}
	d.ticks(3)
	d.moveAway()
}

// moveAway parks the pointer over the 3D view, away from the widgets.
func (d *webDriver) moveAway() {
	d.p.t.Helper()
	d.mouse(input.MouseMoved, 800, 60, input.None)
	d.ticks(2)
}

func (d *webDriver) settingsNow() settings {
	d.p.t.Helper()
	s, _ := d.p.state()
	return settingsOf(s.State)
}

// TestWebEveryWidgetKind works the web page's panels with the browser's
// own pointer and key events, as TestE2EEveryWidgetKind does the desktop
// explorer's: every dropdown of the Generator, Erosion, Route, Teach and
// Viewer panels opens its list and takes a pick, a Viewer slider follows a drag, a
// Viewer checkbox toggles, and the File panel's path field takes typing
// and BackSpace.
func TestWebEveryWidgetKind(t *testing.T) {
	p := openPage(t, "size=129")
	// Tall enough that no panel scrolls: each dropdown is worked once.
	if err := chromedp.Run(p.ctx, chromedp.EmulateViewport(1280, 1000)); err != nil {
		t.Fatal(err)
	}
	p.ready()
	d := &webDriver{p: p}
	d.moveAway()
	labels := headerLabels(t, d.frame("web-start"), "Generator", "Erosion", "Route", "Viewer", "File", "Teach")
	n := 0
	isOpen := func(name string) bool {
		s, _ := p.state()
		return slices.Contains(s.Panels, name)
	}
	// The Generator's size dropdown leaves the map at one of its first two
	// sizes, 65² or 129², so the erosion after it is quick even in the
	// browser.
	for _, name := range []string{"Generator", "Erosion", "Route", "Teach", "Viewer"} {
		if !isOpen(name) { // the page opens with the Generator unfolded
			clickHeader(d, name, labels[name])
		}
		if !isOpen(name) {
			t.Fatalf("a click on the %s header left the panels %v", name, p.waitState("", 0, func(webState) bool { return true }).Panels)
		}
		if name == "Erosion" {
			// Its one dropdown, the minimap's masks, shows once a stage
			// has run: the droplets, the quickest, on and off again.
			box := d.erosionStage(labels[name], 1)
			s0, _ := p.state()
			d.click(box.center().X, box.center().Y)
			s1 := p.waitState("the eroded world", 3*time.Minute, func(q webState) bool {
				return q.IsError || q.WorldID > s0.WorldID && !q.Busy
			})
			if !strings.Contains(s1.Params.Erosion, "hydraulic") || s1.IsError {
				t.Fatalf("after ticking the droplets' stage the erosion is %q (message %q); want hydraulic", s1.Params.Erosion, s1.Message)
			}
			d.settle()
			n += pickEach(d, "web-"+name, labels[name])
			d.scroll(20)
			d.click(box.center().X, box.center().Y)
			d.settle()
			if s, _ := p.state(); s.Params.Erosion != "none" {
				t.Fatalf("the droplets' stage ticked twice left the erosion %q; want none", s.Params.Erosion)
			}
		} else {
			n += pickEach(d, "web-"+name, labels[name])
		}
		d.scroll(20)
		if name != "Viewer" {
			clickHeader(d, name, labels[name]) // fold it
		}
	}

	// Viewer (left open): a drag on its third slider from a quarter of its
	// width to its right end, then its first checkbox.
	f0 := d.frame("web-viewer-top")
	top, bottom := section(f0, labels["Viewer"])
	var sliders, boxes []widget
	ws := findWidgets(f0, uiWindow(f0))
	for _, w := range ws {
		if w.Kind == baseWidget && w.R.Dx() >= 120 && w.R.Dy() < 40 && w.R.Min.Y >= top && w.R.Max.Y <= bottom {
			sliders = append(sliders, w)
		}
	}
	for _, b := range checkboxes(ws) {
		if b.R.Min.Y >= top && b.R.Max.Y <= bottom {
			boxes = append(boxes, b)
		}
	}
	if len(sliders) < 3 || len(boxes) == 0 {
		t.Fatalf("found %d sliders and %d checkboxes in the Viewer panel; want at least 3 and 1", len(sliders), len(boxes))
	}
	sl := sliders[2]
	v0 := d.settingsNow().View
	y := sl.center().Y
	d.mouse(input.MouseMoved, sl.R.Min.X+sl.R.Dx()/4, y, input.None)
	d.mouse(input.MousePressed, sl.R.Min.X+sl.R.Dx()/4, y, input.Left)
	d.ticks(2)
	d.mouse(input.MouseMoved, (sl.R.Min.X+sl.R.Max.X)/2, y, input.Left)
	d.ticks(2)
	d.mouse(input.MouseMoved, sl.R.Max.X-2, y, input.Left)
	d.mouse(input.MouseReleased, sl.R.Max.X-2, y, input.Left)
	d.ticks(2)
	d.moveAway()
	changed, err := viewerChanges(v0, d.settingsNow().View)
	if err != nil {
		t.Fatal(err)
	}
	if len(changed) != 1 {
		t.Errorf("a drag on the slider at %v changed %q; want one setting", sl.R, changed)
	}
	f1 := d.frame("web-slid")
	if changedPixels(f0, f1, sl.R.Inset(1)) == 0 {
		t.Errorf("the slider at %v looks the same after the drag", sl.R)
	}
	box := boxes[0]
	s0 := d.settingsNow()
	d.click(box.center().X, box.center().Y)
	d.moveAway()
	f2 := d.frame("web-checkbox")
	if s1 := d.settingsNow(); reflect.DeepEqual(s0, s1) && changedPixels(f1, f2, box.R.Inset(2)) == 0 {
		t.Errorf("a click on the checkbox at %v changed neither the settings nor the box", box.R)
	}
	d.scroll(20)
	clickHeader(d, "Viewer", labels["Viewer"])

	// File: click the path field, type, take one character back.
	clickHeader(d, "File", labels["File"])
	f0 = d.frame("web-file-open")
	field := pathField(t, f0, labels["File"])
	d.click(field.center().X, field.center().Y)
	path0, _ := p.state()
	for _, k := range []string{"x", "y", "z"} {
		if err := chromedp.Run(p.ctx, chromedp.KeyEvent(k)); err != nil {
			t.Fatal(err)
		}
		d.ticks(2)
	}
	if err := chromedp.Run(p.ctx, chromedp.KeyEvent("\b")); err != nil {
		t.Fatal(err)
	}
	d.ticks(2)
	s, _ := p.state()
	if want := path0.Path + "xy"; s.Path != want {
		t.Errorf("typing xyz and BackSpace in the path field %q left %q; want %q", path0.Path, s.Path, want)
	}
	f1 = d.frame("web-typed")
	if changedPixels(f0, f1, textArea(field)) == 0 {
		t.Errorf("the path field at %v looks the same after typing", field.R)
	}
	t.Logf("worked %d dropdowns, a slider, a checkbox and a text field", n)
}

// erosionStage is the checkbox of the i-th erosion stage in the unfolded
// Erosion section under the header with the label.
func (d *webDriver) erosionStage(label string, i int) widget {
	d.p.t.Helper()
	d.scroll(20)
	f := d.frame("web-erosion-open")
	top, bottom := section(f, label)
	var boxes []widget
	for _, b := range checkboxes(findWidgets(f, uiWindow(f))) {
		if b.R.Min.Y >= top && b.R.Max.Y <= bottom {
			boxes = append(boxes, b)
		}
	}
	if len(boxes) != 3 {
		d.p.t.Fatalf("the Erosion section shows %d stage checkboxes; want 3", len(boxes))
	}
	return boxes[i]
}
