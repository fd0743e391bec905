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

	// One droplet: its change zoomed at the top right with its path in
	// orange (erodes) and cyan (deposits), the change of all droplets
	// beside it, and its state at every step in a table at the left.
	count := func(img image.Image, r image.Rectangle, is func(r, g, b int) bool) int {
		n := 0
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if is(rgb(img, x, y)) {
					n++
				}
			}
		}
		return n
	}
	orange := func(r, g, b int) bool { return r > 220 && g > 100 && g < 180 && b < 60 }
	cyan := func(r, g, b int) bool { return r < 60 && g > 190 && b > 220 }
	white := func(r, g, b int) bool { return r > 215 && g > 215 && b > 215 }
	right := image.Rect(diagX, diagY, diagX+diagSide, diagY+diagSide)
	second := right.Sub(image.Pt(diagSide+12, 0))
	drop := render("droplet-12", "-size", "257", "-lesson", "erosion", "-droplet", "12")
	if n, m := count(drop, right, orange), count(drop, right, cyan); n < 40 || m < 20 {
		t.Errorf("droplet 12's diagram has %d orange and %d cyan path pixels; want its path", n, m)
	}
	if n, m := count(drop, image.Rect(0, diagY, 420, h-30), orange), count(drop, image.Rect(0, diagY, 420, h-30), cyan); n < 200 || m < 100 {
		t.Errorf("the droplet's table has %d orange and %d cyan pixels; want its rows", n, m)
	}
	captioned("droplet", drop)

	// Thermal: the sample's 3×3 neighbourhood with the neighbours that
	// receive framed in orange, and the map of what each sample sends.
	therm := render("thermal-3", "-size", "257", "-lesson", "thermal", "-step", "3")
	if n := count(therm, right, orange); n < 300 {
		t.Errorf("the thermal neighbourhood has %d orange pixels; want the receiving neighbours framed", n)
	}
	if n := count(therm, second, func(r, g, b int) bool { return r > 120 && b < 60 }); n < 2000 {
		t.Errorf("the thermal map has %d orange pixels; want where the slopes shed", n)
	}
	captioned("thermal", therm)

	// Fluvial: the receiver tree in white over the drainage areas, and
	// the step's change in red and blue.
	fluv := render("fluvial-2", "-size", "257", "-lesson", "fluvial", "-step", "2")
	if n := count(fluv, second, white); n < 300 {
		t.Errorf("the receiver tree has %d white pixels; want its channels", n)
	}
	if n := count(fluv, right, func(r, g, b int) bool { return r-b > 60 || b-r > 60 }); n < 5000 {
		t.Errorf("the step's change has %d red or blue pixels; want the map of it", n)
	}
	captioned("fluvial", fluv)

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-algorithm", "midpoint", "-size", "17", "-lesson", "subdivision", "-stage", "5a"}, "render: -stage 5a: the 17² map has stages 0 to 4b"},
		{[]string{"-lesson", "subdivision", "-stage", "2c"}, `-stage: "2c": want a stage`},
		{[]string{"-lesson", "geology"}, `-lesson: "geology": want one of subdivision, octaves, erosion, thermal, fluvial`},
		{[]string{"-octave", "2"}, "render: -octave 2: needs lesson octaves"},
		{[]string{"-lesson", "erosion", "-droplet", "3", "-batch", "2"}, "render: -droplet 3: batch 2 names the other way"},
		{[]string{"-size", "65", "-erosion", "thermal", "-lesson", "thermal", "-thermal-iterations", "5", "-step", "6"}, "render: -step 6: the thermal stage runs 5 sweeps"},
		{[]string{"-lesson", "octaves", "-step", "2"}, "render: -step 2: needs lesson thermal or fluvial"},
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
