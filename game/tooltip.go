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

// Tooltips: a parameter's row shows its name; its range and meaning show
// when the pointer rests on the name, so the panel needs little scrolling.

// specLabelW is the width of a parameter's name on its row.
const specLabelW = 112

// tipDelay is how many ticks the pointer rests on a name before its
// tooltip shows (a third of a second at 60 ticks per second).
const tipDelay = 20

// tipState is the tooltip under the pointer.
type tipState struct {
	text  string          // shown when the pointer has rested long enough
	over  image.Rectangle // the label it belongs to
	since int64           // the tick the pointer came onto it
	seen  bool            // a label under the pointer was built this update
	body  image.Rectangle // the window's visible body (labels scrolled out do not count)
}

// labelWithTip is a label whose tooltip shows when the pointer rests on it.
func (u *uiState) labelWithTip(ctx *debugui.Context, label, tip string) {
	ctx.GridCell(func(bounds image.Rectangle) {
		ctx.SetGridLayout([]int{-1}, nil)
		ctx.Text(label)
		x, y := ebiten.CursorPosition()
		pt := image.Pt(int(float64(x)/u.uiScale()), int(float64(y)/u.uiScale())) // in the panels' units
		if !pt.In(bounds) || !pt.In(u.tip.body) {
			return
		}
		t := &u.tip
		if t.over != bounds || t.text != tip {
			t.over, t.text, t.since = bounds, tip, u.ticks
		}
		t.seen = true
	})
}

// beginTips starts an update of the panels: body is the window's body.
func (u *uiState) beginTips(body image.Rectangle) {
	u.tip.seen, u.tip.body = false, body
}

// endTips forgets a tooltip whose label the pointer has left.
func (u *uiState) endTips() {
	if !u.tip.seen {
		u.tip.text, u.tip.over = "", image.Rectangle{}
	}
}

// tipShown is the tooltip to draw now ("" for none).
func (g *Game) tipShown() string {
	t := g.ui.tip
	if !g.ShowUI || t.text == "" || g.ui.ticks-t.since < tipDelay {
		return ""
	}
	return t.text
}

// tipChars is how many characters a tooltip line holds.
const tipChars = 52

// wrapWords breaks text into lines of at most n characters at spaces.
func wrapWords(s string, n int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case len([]rune(line))+1+len([]rune(w)) <= n:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// drawTip draws the tooltip beside its label, over the 3D view.
func (g *Game) drawTip(screen *ebiten.Image) {
	tip := g.tipShown()
	if tip == "" {
		return
	}
	u := &g.ui
	s := u.uiScale()
	lineH, pad := u.px(16), u.px(6)
	x := u.strip() + 8 // just right of the panels (ui.go's window)
	// Lines as long as fit beside the panels: fewer characters when
	// the panels are scaled up on a small screen.
	chars := min(tipChars, max((screen.Bounds().Dx()-x-2*pad-8)/u.px(6), 16))
	lines := wrapWords(tip, chars)
	w, h := u.px(chars*6)+2*pad, len(lines)*lineH+2*pad
	r := g.ui.tip.over
	y := u.px(r.Min.Y)
	if sh := screen.Bounds().Dy(); y+h > sh {
		y = max(sh-h, 0)
	}
	vector.FillRect(screen, float32(x), float32(y), float32(w), float32(h), color.RGBA{20, 20, 20, 235}, false)
	vector.StrokeRect(screen, float32(x), float32(y), float32(w), float32(h), 1, color.RGBA{120, 120, 120, 255}, false)
	for i, l := range lines {
		op := &text.DrawOptions{}
		op.GeoM.Scale(s, s)
		op.GeoM.Translate(float64(x+pad), float64(y+pad+i*lineH))
		debugui.DrawText(screen, l, op)
	}
}
