// SPDX-License-Identifier: Apache-2.0

package debugui

import (
	"image"
	"math"
	"strconv"
	"testing"

	"github.com/hajimehoshi/bitmapfont/v4"
	"github.com/hajimehoshi/ebiten/v2"
)

// Tests of Cordillera's patches (README.md lists them): each plays a
// pointer and keys tick by tick, as a slow frame delivers them, through
// the input variables of input.go, and fails on upstream's code.

// player is the mouse and keyboard as one tick of the game sees them.
type player struct {
	pos           image.Point
	down, wasDown bool
	// again: the button went up and down again since the last tick, so
	// it is down at both.
	again bool
	just  map[ebiten.Key]bool // keys that went down since the last tick
	held  map[ebiten.Key]int  // ticks each key has been held
	chars []rune              // characters typed since the last tick
}

// play installs a player as debugui's input for the test.
func play(t *testing.T) *player {
	p := &player{just: map[ebiten.Key]bool{}, held: map[ebiten.Key]int{}}
	saved := []any{cursorPosition, isMouseButtonPressed, isMouseButtonJustPressed, isMouseButtonJustReleased,
		isKeyJustPressed, keyPressDuration, appendInputChars}
	t.Cleanup(func() {
		cursorPosition = saved[0].(func() (int, int))
		isMouseButtonPressed = saved[1].(func(ebiten.MouseButton) bool)
		isMouseButtonJustPressed = saved[2].(func(ebiten.MouseButton) bool)
		isMouseButtonJustReleased = saved[3].(func(ebiten.MouseButton) bool)
		isKeyJustPressed = saved[4].(func(ebiten.Key) bool)
		keyPressDuration = saved[5].(func(ebiten.Key) int)
		appendInputChars = saved[6].(func([]rune) []rune)
	})
	cursorPosition = func() (int, int) { return p.pos.X, p.pos.Y }
	isMouseButtonPressed = func(b ebiten.MouseButton) bool { return b == ebiten.MouseButtonLeft && p.down }
	isMouseButtonJustPressed = func(b ebiten.MouseButton) bool {
		return b == ebiten.MouseButtonLeft && p.down && (!p.wasDown || p.again)
	}
	isMouseButtonJustReleased = func(b ebiten.MouseButton) bool {
		return b == ebiten.MouseButtonLeft && (!p.down && p.wasDown || p.again)
	}
	isKeyJustPressed = func(k ebiten.Key) bool { return p.just[k] }
	keyPressDuration = func(k ebiten.Key) int { return p.held[k] }
	appendInputChars = func(rs []rune) []rune { return append(rs, p.chars...) }
	return p
}

// tick runs one Update of d with the player's state, then forgets what
// happened since the last tick.
func (p *player) tick(t *testing.T, d *DebugUI, f func(ctx *Context)) {
	t.Helper()
	if _, err := d.Update(func(ctx *Context) error { f(ctx); return nil }); err != nil {
		t.Fatal(err)
	}
	p.wasDown, p.again = p.down, false
	p.just = map[ebiten.Key]bool{}
	p.chars = nil
}

// click presses the left button at pt in one tick and releases it in the
// next.
func (p *player) click(t *testing.T, d *DebugUI, pt image.Point, f func(ctx *Context)) {
	t.Helper()
	p.pos, p.down = pt, true
	p.tick(t, d, f)
	p.down = false
	p.tick(t, d, f)
}

func centre(r image.Rectangle) image.Point {
	return image.Pt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2)
}

// rows lays out one widget per row in a window and records each row's
// bounds (a GridCell before each widget takes a row of its own, so the
// widget is on the row below it).
type rows struct{ at []image.Rectangle }

func (r *rows) next(ctx *Context, i int, widget func()) {
	ctx.GridCell(func(b image.Rectangle) {
		for len(r.at) <= i {
			r.at = append(r.at, image.Rectangle{})
		}
		r.at[i] = b.Add(image.Pt(0, b.Dy()+defaultStyle.spacing))
	})
	widget()
}

// A dropdown's list opens on a click, stays open, and a click on an
// option picks it. The window-height patch (container.go) once gave the
// list, a window created with no size, a height of 0, which closed it at
// once.
func TestDropdownOpensAndPicks(t *testing.T) {
	p := play(t)
	var d DebugUI
	var r rows
	options := []string{"fly", "walk", "orbit"}
	selected, changes := 0, 0
	ui := func(ctx *Context) {
		ctx.Window("W", image.Rect(0, 0, 200, 400), func(ContainerLayout) {
			ctx.SetGridLayout([]int{-1}, nil)
			r.next(ctx, 0, func() { ctx.Dropdown(&selected, options).On(func() { changes++ }) })
		})
	}
	p.pos = image.Pt(300, 300)
	p.tick(t, &d, ui)
	p.click(t, &d, centre(r.at[0]), ui)
	p.tick(t, &d, ui)
	p.tick(t, &d, ui)
	list := openDropdownList(&d)
	if list == nil {
		t.Fatalf("after a click on the dropdown, %d windows are shown, want the list too", len(d.ctx.rootContainers))
	}
	if list.Dy() < len(options)*defaultStyle.defaultHeight {
		t.Fatalf("the list is %v, too short for %d options", list, len(options))
	}
	// The list's options are buttons, one per row, from the top of its body.
	rowH := defaultStyle.defaultHeight + defaultStyle.spacing
	second := image.Pt(list.Min.X+list.Dx()/2, list.Min.Y+defaultStyle.padding+rowH+defaultStyle.defaultHeight/2)
	p.click(t, &d, second, ui)
	if selected != 1 || changes != 1 {
		t.Fatalf("a click on %q picked %q with %d changes, want it picked with 1", options[1], options[selected], changes)
	}
	for range ebiten.TPS() / 5 {
		p.tick(t, &d, ui)
	}
	if list := openDropdownList(&d); list != nil {
		t.Fatalf("the list is still shown at %v after an option was picked", list)
	}
}

// openDropdownList is the bounds of the open dropdown list (a root
// window other than the first), nil if none is shown.
func openDropdownList(d *DebugUI) *image.Rectangle {
	for _, cnt := range d.ctx.rootContainers[1:] {
		if cnt.open && !cnt.layout.Bounds.Empty() {
			b := cnt.layout.Bounds
			return &b
		}
	}
	return nil
}

// A window is as tall as its content, up to the height it is given, so
// that folding a section gives the view behind it back.
func TestWindowIsAsTallAsItsContent(t *testing.T) {
	p := play(t)
	var d DebugUI
	ui := func(ctx *Context) {
		ctx.Window("W", image.Rect(0, 0, 200, 600), func(ContainerLayout) {
			ctx.Header("Section", true, func() {
				for range 40 {
					ctx.Text("a row")
				}
			})
		})
	}
	window := func() image.Rectangle { return d.ctx.rootContainers[0].layout.Bounds }
	p.pos = image.Pt(400, 400)
	p.tick(t, &d, ui)
	p.tick(t, &d, ui)
	if got := window().Dy(); got != 600 {
		t.Fatalf("with 40 rows unfolded the window is %d tall, want the 600 it is given", got)
	}
	// Fold the section: a click on its header.
	header := image.Pt(100, defaultStyle.titleHeight+defaultStyle.padding+defaultStyle.defaultHeight/2)
	p.click(t, &d, header, ui)
	p.tick(t, &d, ui)
	folded := window().Dy()
	if max := defaultStyle.titleHeight + 2*defaultStyle.padding + defaultStyle.defaultHeight + 2; folded > max {
		t.Fatalf("with the section folded the window is %d tall, want at most %d", folded, max)
	}
}

// A press goes to the widget under the pointer even when the pointer
// moved there from another widget and pressed between two ticks.
func TestPressGoesToTheWidgetUnderThePointer(t *testing.T) {
	p := play(t)
	var d DebugUI
	var r rows
	clicks := [2]int{}
	ui := func(ctx *Context) {
		ctx.Window("W", image.Rect(0, 0, 200, 400), func(ContainerLayout) {
			ctx.SetGridLayout([]int{-1}, nil)
			r.next(ctx, 0, func() { ctx.Button("A").On(func() { clicks[0]++ }) })
			r.next(ctx, 1, func() { ctx.Button("B").On(func() { clicks[1]++ }) })
		})
	}
	p.pos = image.Pt(300, 300)
	p.tick(t, &d, ui)
	p.pos = centre(r.at[0])
	p.tick(t, &d, ui) // A is hovered
	p.click(t, &d, centre(r.at[1]), ui)
	if clicks != [2]int{0, 1} {
		t.Fatalf("a click on B after hovering A clicked A %d and B %d times, want B once", clicks[0], clicks[1])
	}
}

// A click whose press arrives in the tick that also brings the release of
// the click before (the button down at both ticks) starts the pointer's
// hold count again, so that a spin button, which acts when the count is 1,
// takes it.
func TestPressAgainBeforeReleaseSeenRestartsTheCount(t *testing.T) {
	p := play(t)
	var pt pointing
	p.down = true
	for range 5 {
		pt.update()
		p.wasDown, p.again = p.down, false
	}
	if pt.duration != 5 || pt.repeated() {
		t.Fatalf("held 5 ticks: count %d, repeated %v; want 5, false", pt.duration, pt.repeated())
	}
	p.again = true // released and pressed again between two frames
	pt.update()
	if pt.duration != 1 || !pt.repeated() {
		t.Fatalf("pressed again before the release was seen: count %d, repeated %v; want 1, true", pt.duration, pt.repeated())
	}
}

// A drag whose last move and release come in the same tick ends where the
// button went up (past the right end: the maximum).
func TestSliderDragEndsWhereReleased(t *testing.T) {
	p := play(t)
	var d DebugUI
	var r rows
	v := 0.0
	ui := func(ctx *Context) {
		ctx.Window("W", image.Rect(0, 0, 200, 400), func(ContainerLayout) {
			ctx.SetGridLayout([]int{-1}, nil)
			r.next(ctx, 0, func() { ctx.SliderF(&v, 0, 100, 1, 0) })
		})
	}
	p.pos = image.Pt(300, 300)
	p.tick(t, &d, ui)
	s := r.at[0]
	p.pos, p.down = image.Pt(s.Min.X+defaultStyle.thumbSize/2, s.Min.Y+5), true
	p.tick(t, &d, ui)
	if v != 0 {
		t.Fatalf("a press at the slider's left end set %v, want 0", v)
	}
	p.pos, p.down = image.Pt(s.Max.X+20, s.Min.Y+5), false
	p.tick(t, &d, ui)
	if v != 100 {
		t.Fatalf("a drag released at the slider's right end left %v, want 100", v)
	}
}

// A text field takes every character typed since the last tick, in order,
// and edits at its caret.
func TestTextFieldTakesEveryCharacterAtTheCaret(t *testing.T) {
	p := play(t)
	var d DebugUI
	var r rows
	text, submits := "", 0
	ui := func(ctx *Context) {
		ctx.Window("W", image.Rect(0, 0, 200, 400), func(ContainerLayout) {
			ctx.SetGridLayout([]int{-1}, nil)
			r.next(ctx, 0, func() { ctx.TextField(&text).On(func() { submits++ }) })
		})
	}
	p.pos = image.Pt(300, 300)
	p.tick(t, &d, ui)
	p.click(t, &d, centre(r.at[0]), ui)
	p.chars = []rune("mapλ.png")
	p.tick(t, &d, ui)
	if text != "mapλ.png" {
		t.Fatalf("typed %q in one tick, the field has %q", "mapλ.png", text)
	}
	for range 4 {
		p.just[ebiten.KeyArrowLeft] = true
		p.held[ebiten.KeyArrowLeft] = 1
		p.tick(t, &d, ui)
		p.held[ebiten.KeyArrowLeft] = 0
		p.tick(t, &d, ui)
	}
	p.just[ebiten.KeyBackspace] = true
	p.held[ebiten.KeyBackspace] = 1
	p.tick(t, &d, ui)
	p.held[ebiten.KeyBackspace] = 0
	p.chars = []rune("-1")
	p.tick(t, &d, ui)
	p.just[ebiten.KeyEnter] = true
	p.tick(t, &d, ui)
	if text != "map-1.png" || submits != 1 {
		t.Fatalf("after 4 Lefts, a BackSpace, \"-1\" and Enter the field has %q (%d submits), want \"map-1.png\" (1)", text, submits)
	}
}

// A key pressed and released between two ticks (the tick sees it just
// pressed with a duration of 0) still acts once.
func TestKeyPressedAndReleasedBetweenTicksActsOnce(t *testing.T) {
	p := play(t)
	var d DebugUI
	var r rows
	text := ""
	ui := func(ctx *Context) {
		ctx.Window("W", image.Rect(0, 0, 200, 400), func(ContainerLayout) {
			ctx.SetGridLayout([]int{-1}, nil)
			r.next(ctx, 0, func() { ctx.TextField(&text) })
		})
	}
	p.pos = image.Pt(300, 300)
	p.tick(t, &d, ui)
	p.click(t, &d, centre(r.at[0]), ui)
	p.chars = []rune("abc")
	p.tick(t, &d, ui)
	p.just[ebiten.KeyBackspace] = true // and already up: held 0
	p.tick(t, &d, ui)
	p.tick(t, &d, ui)
	if text != "ab" {
		t.Fatalf("one BackSpace pressed and released between ticks left %q, want \"ab\"", text)
	}
}

// Greek letters are drawn whole: the narrow face has them only as the
// left half of a full-width glyph.
func TestGreekLettersAreWhole(t *testing.T) {
	wide, _ := bitmapfont.FaceEA.GlyphAdvance('λ')
	if got, want := textWidth("λ"), wide.Round(); got != want {
		t.Fatalf("λ is %d pixels wide, want the full-width %d", got, want)
	}
}

// A slider's value is drawn clear of its thumb, wherever the thumb is:
// upstream centred the text over the slider, so a thumb near the middle
// covered it.
func TestSliderValueClearOfThumb(t *testing.T) {
	p := play(t)
	var d DebugUI
	var r rows
	vi, vf := 0, 0.0
	ui := func(ctx *Context) {
		ctx.Window("W", image.Rect(0, 0, 200, 400), func(ContainerLayout) {
			ctx.SetGridLayout([]int{-1}, nil)
			r.next(ctx, 0, func() { ctx.Slider(&vi, 0, 100, 1) })
			r.next(ctx, 1, func() { ctx.SliderF(&vf, 0, 100, 0.5, 1) })
		})
	}
	p.pos = image.Pt(300, 300)
	for v := 0; v <= 100; v += 5 {
		vi, vf = v, float64(v)
		p.tick(t, &d, ui)
		for i, want := range []string{strconv.Itoa(v), strconv.FormatFloat(float64(v), 'f', 1, 64)} {
			s := r.at[i]
			var thumb, text image.Rectangle
			for cmd := range d.ctx.commands() {
				switch {
				case cmd.typ == commandRect && cmd.rect.rect.In(s) && cmd.rect.rect.Dx() == defaultStyle.thumbSize && cmd.rect.rect.Dy() == s.Dy():
					thumb = cmd.rect.rect
				case cmd.typ == commandText && cmd.text.str == want && cmd.text.pos.In(s):
					text = image.Rect(cmd.text.pos.X, cmd.text.pos.Y, cmd.text.pos.X+textWidth(want), cmd.text.pos.Y+lineHeight())
				}
			}
			if thumb.Empty() || text.Empty() {
				t.Fatalf("slider %d at %d: no thumb (%v) or no text %q (%v) drawn in %v", i, v, thumb, want, text, s)
			}
			if text.Min.X < s.Min.X || text.Max.X > s.Max.X {
				t.Errorf("slider %d at %d: its value %v is not inside the slider %v", i, v, text, s)
			}
			if text.Min.X < thumb.Max.X+1 && text.Max.X > thumb.Min.X-1 {
				t.Errorf("slider %d at %d: its value %v touches the thumb %v", i, v, text, thumb)
			}
		}
	}
}

// At a fractional scale (1.5 for a projector) a click lands on the widget
// drawn under it, and the rectangles drawn for two widgets that touch in
// the UI's units touch on the screen. Upstream took a whole scale only.
func TestFractionalScaleClicksAndDraws(t *testing.T) {
	p := play(t)
	var d DebugUI
	var r rows
	clicks := [3]int{}
	ui := func(ctx *Context) {
		ctx.SetScale(1.5)
		ctx.Window("W", image.Rect(0, 0, 200, 400), func(ContainerLayout) {
			ctx.SetGridLayout([]int{-1}, nil)
			for i, name := range []string{"A", "B", "C"} {
				r.next(ctx, i, func() { ctx.Button(name).On(func() { clicks[i]++ }) })
			}
		})
	}
	p.pos = image.Pt(500, 500)
	p.tick(t, &d, ui)
	for i := range 3 {
		// The screen pixel nearest the top of widget i, where a
		// pointer divided by a truncated scale (1) would hit the one
		// above it, and its bottom row.
		b := r.at[i]
		for _, y := range []int{b.Min.Y, b.Max.Y - 1} {
			before := clicks
			at := image.Pt(int(math.Ceil(float64(b.Min.X+b.Dx()/2)*1.5)), int(math.Ceil(float64(y)*1.5)))
			p.click(t, &d, at, ui)
			want := before
			want[i]++
			if clicks != want {
				t.Fatalf("a click at %v (widget %d's row %d at 1.5×) made clicks %v, want %v", at, i, y, clicks, want)
			}
		}
	}
	a, b := image.Rect(0, 0, 7, 5), image.Rect(7, 5, 13, 11)
	if sa, sb := scaleRect(a, 1.5), scaleRect(b, 1.5); sa.Max != sb.Min {
		t.Errorf("at 1.5× %v and %v are drawn as %v and %v, which do not touch", a, b, sa, sb)
	}
	if got := scaleRect(image.Rect(2, 4, 10, 20), 2); got != image.Rect(4, 8, 20, 40) {
		t.Errorf("at 2× (2,4)-(10,20) is drawn as %v, want (4,8)-(20,40)", got)
	}
}
