package e2e

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestE2ESweep3D runs `cordillera sweep -figure fig7.5 -3d` on the display:
// a contact sheet of six 3D views (one octave count each) that differ from
// one another and are not the shaded-relief panels; with -thesis-look the
// same six panels in the thesis's own rendering, which is not the
// explorer's look.
func TestE2ESweep3D(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		t.Skip("needs a display: run under xvfb-run")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "cordillera")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, ".")
	build.Dir = repoRoot()
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building: %v\n%s", err, out)
	}
	sheet := func(args ...string) image.Image {
		out := filepath.Join(dir, strings.Join(args, "")+".png")
		cmd := exec.CommandContext(ctx, bin, append([]string{"sweep", "-figure", "fig7.5", "-cols", "3", "-o", out}, args...)...)
		var msg bytes.Buffer
		cmd.Stdout, cmd.Stderr = &msg, &msg
		if err := cmd.Run(); err != nil {
			t.Fatalf("sweep %v: %v\n%s", args, err, msg.Bytes())
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		img, err := png.Decode(f)
		if err != nil {
			t.Fatal(err)
		}
		return img
	}
	views, relief, thesis := sheet("-3d"), sheet(), sheet("-3d", "-thesis-look")
	if views.Bounds() == relief.Bounds() {
		t.Errorf("the 3D sheet has the relief sheet's size %v: its panels are not 400×300 views", views.Bounds())
	}
	// Panels sit in a 3×2 grid of 400×300 pictures; compare their middles.
	b := views.Bounds()
	cellW, cellH := b.Dx()/3, (b.Dy()-100)/2
	distinct(t, "-3d", views, cellW, cellH)
	// The thesis look adds a title line; its panels are the same 400×300.
	tb := thesis.Bounds()
	if tb.Dx() != b.Dx() || tb.Dy() < b.Dy() || tb.Dy() > b.Dy()+40 {
		t.Errorf("the -thesis-look sheet is %v, the -3d sheet %v: want the same panels under one more title line", tb, b)
	}
	distinct(t, "-3d -thesis-look", thesis, cellW, cellH)
	// Diffuse light only, from straight above: the thesis's panels are not
	// the explorer's default look.
	off := tb.Dy() - b.Dy()
	diff, n := 0.0, 0
	for y := 100; y < b.Dy(); y += 2 {
		for x := 0; x < b.Dx(); x += 2 {
			r1, g1, b1, _ := views.At(x, y).RGBA()
			r2, g2, b2, _ := thesis.At(x, y+off).RGBA()
			diff += math.Abs(float64(r1)-float64(r2)) + math.Abs(float64(g1)-float64(g2)) + math.Abs(float64(b1)-float64(b2))
			n += 3
		}
	}
	if d := diff / float64(n) / 257; d < 3 {
		t.Errorf("-thesis-look panels differ from -3d ones by %.1f of 255 on average; want a different look", d)
	}
}

// distinct checks that a sheet's six panels in a 3×2 grid under a
// 100-pixel title look different from one another.
func distinct(t *testing.T, name string, views image.Image, cellW, cellH int) {
	t.Helper()
	top := views.Bounds().Dy() - 2*cellH
	mean := func(i int) (r, g, bl float64) {
		x0, y0 := (i%3)*cellW+cellW/4, top+(i/3)*cellH+cellH/4
		n := 0.0
		for y := y0; y < y0+cellH/2; y += 3 {
			for x := x0; x < x0+cellW/2; x += 3 {
				cr, cg, cb, _ := views.At(x, y).RGBA()
				r, g, bl = r+float64(cr), g+float64(cg), bl+float64(cb)
				n++
			}
		}
		return r / n, g / n, bl / n
	}
	seen := map[[3]int]bool{}
	for i := 0; i < 6; i++ {
		r, g, bl := mean(i)
		seen[[3]int{int(r / 512), int(g / 512), int(bl / 512)}] = true
	}
	if len(seen) < 4 {
		t.Errorf("%s: the six 3D panels look alike: %d distinct mean colours", name, len(seen))
	}
}
