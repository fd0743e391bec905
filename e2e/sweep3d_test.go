package e2e

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestE2ESweep3D runs `cordillera sweep -figure fig7.5 -3d` on the display:
// a contact sheet of six 3D views (one octave count each) that differ from
// one another and are not the shaded-relief panels.
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
	views, relief := sheet("-3d"), sheet()
	if views.Bounds() == relief.Bounds() {
		t.Errorf("the 3D sheet has the relief sheet's size %v: its panels are not 400×300 views", views.Bounds())
	}
	// Panels sit in a 3×2 grid of 400×300 pictures; compare their middles.
	b := views.Bounds()
	cellW, cellH := b.Dx()/3, (b.Dy()-100)/2
	mean := func(i int) (r, g, bl float64) {
		x0, y0 := (i%3)*cellW+cellW/4, 100+(i/3)*cellH+cellH/4
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
		t.Errorf("the six 3D panels look alike: %d distinct mean colours", len(seen))
	}
}
