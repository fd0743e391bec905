package e2e

import (
	"context"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cordillera/internal/testenv"
)

// TestE2ERenderLesson renders lesson states for slides with `cordillera
// render -lesson …`: the PNG holds the lesson's overlays (the step-through
// diagram with the stage's points in red, the red marks in the 3D view,
// the octave thumbnails with the current one framed in red), the formula
// box and the caption strip. A bad lesson value is refused, naming the
// flag, with no file written.
func TestE2ERenderLesson(t *testing.T) {
	testenv.NeedDisplay(t)
	dir := t.TempDir()
	bin := plainBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	run := func(out string, args ...string) (string, error) {
		return runBinary(ctx, bin, append([]string{"render", "-o", out}, args...)...)
	}
	render := func(name string, args ...string) image.Image {
		out := filepath.Join(dir, name+".png")
		img := binaryPNG(ctx, t, bin, out, append([]string{"render", "-o", out}, args...)...)
		if shots := os.Getenv("CORDILLERA_LESSON_SHOTS"); shots != "" {
			data, _ := os.ReadFile(out)
			_ = os.WriteFile(filepath.Join(shots, name+".png"), data, 0o644)
		}
		return img
	}
	rgb := func(img image.Image, x, y int) (int, int, int) {
		r, g, b, _ := img.At(x, y).RGBA()
		return int(r >> 8), int(g >> 8), int(b >> 8)
	}
	red := func(img image.Image, x, y int) bool { r, g, b := rgb(img, x, y); return r > 200 && g < 80 && b < 80 }
	dark := func(img image.Image, x, y int) bool { r, g, b := rgb(img, x, y); return r < 60 && g < 60 && b < 60 }
	const w, h = 1280, 720
	const diagX, diagY, diagSide = w - 210, 68, 200 // the step-through diagram, top right below the HUD's lines
	countRed := func(img image.Image, r image.Rectangle) int {
		n := 0
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if red(img, x, y) {
					n++
				}
			}
		}
		return n
	}
	captioned := func(name string, img image.Image) {
		t.Helper()
		nDark, nWhite := 0, 0
		for x := 0; x < w; x++ {
			for y := h - 20; y < h-2; y++ {
				r, g, b := rgb(img, x, y)
				if r < 40 && g < 40 && b < 40 {
					nDark++
				} else if r > 200 && g > 200 && b > 200 {
					nWhite++
				}
			}
		}
		if nDark < w*18/2 || nWhite < 200 {
			t.Errorf("%s: the bottom strip has %d dark and %d white pixels; want the caption, white on black", name, nDark, nWhite)
		}
	}

	sub := render("subdivision-2a", "-algorithm", "diamond-square", "-size", "17", "-seed", "3", "-lesson", "subdivision", "-stage", "2a")
	if b := sub.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Fatalf("the render is %v; want %d×%d", b, w, h)
	}
	if !dark(sub, diagX+3, diagY+3) {
		t.Errorf("the diagram's corner (%d, %d) shows %v; want its dark ground", diagX+3, diagY+3, sub.At(diagX+3, diagY+3))
	}
	// Stage 2a of a 17² diamond-square map: the centres (4, 4), (12, 4),
	// (4, 12), (12, 12), 11.25 pixels apart per sample in the diagram.
	for _, p := range [][2]int{{4, 4}, {12, 4}, {4, 12}, {12, 12}} {
		x, y := diagX+10+p[0]*45/4, diagY+10+p[1]*45/4
		if !red(sub, x, y) {
			t.Errorf("the diagram's point %v at (%d, %d) shows %v; want red", p, x, y, sub.At(x, y))
		}
	}
	if n := countRed(sub, image.Rect(0, 0, diagX-5, h-30)); n < 4*20 {
		t.Errorf("%d red pixels in the 3D view left of the diagram; want the 4 added points' marks", n)
	}
	if !dark(sub, w-30, diagY+diagSide+40) {
		t.Errorf("no formula box below the diagram: (%d, %d) shows %v", w-30, diagY+diagSide+40, sub.At(w-30, diagY+diagSide+40))
	}
	captioned("subdivision", sub)

	oct := render("octaves-2", "-size", "129", "-octaves", "5", "-lesson", "octaves", "-octave", "2")
	// The thumbnails stand in a row at the top right, the second framed in red.
	if n := countRed(oct, image.Rect(w-400, diagY-4, w, diagY+62)); n < 100 {
		t.Errorf("%d red pixels around the octave thumbnails; want the current one's frame", n)
	}
	captioned("octaves", oct)

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-algorithm", "midpoint", "-size", "17", "-lesson", "subdivision", "-stage", "5a"}, "render: -stage 5a: the 17² map has stages 0 to 4b"},
		{[]string{"-lesson", "subdivision", "-stage", "2c"}, `-stage: "2c": want a stage`},
		{[]string{"-lesson", "geology"}, `-lesson: "geology": want one of subdivision, octaves, erosion`},
		{[]string{"-octave", "2"}, "render: -octave 2: needs lesson octaves"},
	} {
		out := filepath.Join(dir, "refused.png")
		msg, err := run(out, c.args...)
		if err == nil || !strings.Contains(msg, c.want) {
			t.Errorf("render %v: %v, said %q; want a failure saying %q", c.args, err, msg, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("render %v wrote %s", c.args, out)
		}
	}
}
