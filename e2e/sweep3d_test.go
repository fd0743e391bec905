package e2e

import (
	"context"
	"image"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cordillera/internal/testenv"
)

// TestE2ESweep3D runs `cordillera sweep -figure fig7.5 -3d` on the display:
// a contact sheet of six 3D views (one octave count each) that differ from
// one another and are not the shaded-relief panels; with -thesis-look the
// same six panels in the thesis's own rendering, which is not the
// explorer's look.
func TestE2ESweep3D(t *testing.T) {
	testenv.NeedDisplay(t)
	dir := t.TempDir()
	bin := plainBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	sheet := func(args ...string) image.Image {
		out := filepath.Join(dir, strings.Join(args, "")+".png")
		return binaryPNG(ctx, t, bin, out, append([]string{"sweep", "-figure", "fig7.5", "-cols", "3", "-o", out}, args...)...)
	}
	views, relief, thesis := sheet("-3d"), sheet(), sheet("-3d", "-thesis-look")
	if views.Bounds() == relief.Bounds() {
		t.Errorf("the 3D sheet has the relief sheet's size %v: its panels are not 400×300 views", views.Bounds())
	}
	// Panels sit in a 3×2 grid of 400×300 pictures; compare their middles.
	b := views.Bounds()
	distinct(t, "-3d", views)
	// The thesis look adds a title line; its panels are the same 400×300.
	tb := thesis.Bounds()
	if tb.Dx() != b.Dx() || tb.Dy() < b.Dy() || tb.Dy() > b.Dy()+40 {
		t.Errorf("the -thesis-look sheet is %v, the -3d sheet %v: want the same panels under one more title line", tb, b)
	}
	distinct(t, "-3d -thesis-look", thesis)
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

// distinct checks that a sheet's six panels (octaves 1 to 6, in a 3×2
// grid under a 100-pixel title) are each a different view and in order:
// every two panels differ, and the panels come nearer the last one (all six
// octaves) as their octave count grows, since k octaves share the first k
// of its six. A panel repeated, missing or out of place fails.
func distinct(t *testing.T, name string, views image.Image) {
	t.Helper()
	cells := pictures(views)
	if len(cells) != 6 {
		t.Fatalf("%s: found %d pictures on the sheet (%v), want 6 in a 3×2 grid", name, len(cells), cells)
	}
	// apart is the mean difference of panels i and j, pixel for pixel, in
	// 0…255 per channel.
	apart := func(i, j int) float64 {
		xi, yi, xj, yj := cells[i].Min.X, cells[i].Min.Y, cells[j].Min.X, cells[j].Min.Y
		sum, n := 0.0, 0
		for y := 0; y < cells[i].Dy(); y += 2 {
			for x := 0; x < cells[i].Dx(); x += 2 {
				r1, g1, b1, _ := views.At(xi+x, yi+y).RGBA()
				r2, g2, b2, _ := views.At(xj+x, yj+y).RGBA()
				sum += math.Abs(float64(r1)-float64(r2)) + math.Abs(float64(g1)-float64(g2)) + math.Abs(float64(b1)-float64(b2))
				n += 3
			}
		}
		return sum / float64(n) / 257
	}
	var d [6][6]float64
	for i := 0; i < 6; i++ {
		for j := i + 1; j < 6; j++ {
			d[i][j] = apart(i, j)
			if d[i][j] < 0.5 {
				t.Errorf("%s: panels %d and %d (octaves %d and %d) differ by only %.2f of 255: the same view", name, i+1, j+1, i+1, j+1, d[i][j])
			}
		}
	}
	for i := 1; i < 5; i++ {
		if d[i][5] >= d[i-1][5] {
			t.Errorf("%s: panel %d is %.2f from the last panel, panel %d only %.2f: the panels are not in octave order",
				name, i+1, d[i][5], i, d[i-1][5])
		}
	}
	t.Logf("%s: panel differences %.2f", name, d)
}

// pictures finds the 400×300 pictures of a contact sheet in reading order:
// the runs of 300 rows and 400 columns that are not the sheet's background
// (plot.Sheet's near-white) along a line just inside the pictures' left
// and top edges; captions and title lines are far shorter runs.
func pictures(img image.Image) []image.Rectangle {
	b := img.Bounds()
	// The sheet's background is plot's (250, 250, 248): only that colour
	// is paper, so a sky that turns white at the horizon is still picture.
	paper := func(x, y int) bool {
		r, g, bl, _ := img.At(x, y).RGBA()
		near := func(v uint32, want int) bool { return int(v>>8)-want <= 1 && want-int(v>>8) <= 1 }
		return near(r, 250) && near(g, 250) && near(bl, 248)
	}
	runs := func(n int, inked func(int) bool, want int) []int { // starts of runs of length want
		var starts []int
		for i := 0; i < n; {
			j := i
			for j < n && inked(j) {
				j++
			}
			if j-i == want {
				starts = append(starts, i)
			}
			i = j + 1
		}
		return starts
	}
	const margin = 12 // plot.Sheet's margin
	rows := runs(b.Dy(), func(y int) bool { return !paper(margin+3, y) }, 300)
	if len(rows) == 0 {
		return nil
	}
	cols := runs(b.Dx(), func(x int) bool { return !paper(x, rows[0]+3) }, 400)
	var cells []image.Rectangle
	for _, y := range rows {
		for _, x := range cols {
			cells = append(cells, image.Rect(x, y, x+400, y+300))
		}
	}
	return cells
}
