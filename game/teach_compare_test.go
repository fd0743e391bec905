package game

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"cordillera/internal/lesson"
	"cordillera/terrain"
	"cordillera/web"
)

// The compare and profile lessons and a clicked diagram point open from a
// link, and Copy link gives the same link back.
func TestNewLessonLinksRoundTrip(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 65))
	g.Layout(ScreenWidth, ScreenHeight)
	t.Cleanup(func() { onLoop(func() { g.OpenLesson(lesson.State{}, true) }) })
	const cam = "&camera=512,900.5,-300,90,-40"
	for _, c := range []struct {
		fragment string
		check    func() string
	}{
		{"algorithm=midpoint&size=17&lesson=compare&stage=2b" + cam, func() string {
			cl := &g.teach.compare
			if g.teach.mode != teachCompare || g.teach.k != 4 || cl.mid == nil || cl.ds == nil || cl.ds.Steps()[0].Stage != terrain.StageDiamond {
				return "want both 17² steppers at stage 2b"
			}
			return ""
		}},
		{"algorithm=midpoint&size=65&octaves=5&lesson=profile&stage=3&octave=2" + cam, func() string {
			pl := &g.teach.profile
			if g.teach.mode != teachProfile || pl.n != 3 || pl.octK != 2 || pl.pr.N != 6 || len(pl.parts) != 5 {
				return "want the 65-point profile at n = 3 and 2 of 5 octaves"
			}
			return ""
		}},
		{"algorithm=midpoint&size=17&lesson=subdivision&stage=3a" + cam + "&point=4,12", func() string {
			want, err := g.teach.stepper.Point(4, 12)
			if err != nil {
				return err.Error()
			}
			if p := g.teach.picked; p == nil || *p != [2]int{4, 12} || g.teach.point.Height != want.Height || g.teach.point.R != want.R {
				return "want point (4, 12) picked with the stepper's values"
			}
			if !strings.Contains(g.teach.pointText(), "Point (4, 12)") {
				return "the panel does not show point (4, 12)"
			}
			return ""
		}},
	} {
		openLink(t, g, c.fragment)
		if msg := c.check(); msg != "" {
			t.Errorf("%s: %s", c.fragment, msg)
		}
		if back := linkOf(g); back != c.fragment {
			t.Errorf("Copy link after %s gives\n%s", c.fragment, back)
		}
	}
}

// The compare overlay's difference is the two steppers' heights at the
// stage, on the common scale: 0 at stage 0 (the corners are the same R),
// and at stage 1b, where both have set the 3×3 grid, the largest
// |midpoint − diamond-square| of a CPU reference from the raw states;
// its right panel colours each sample by that difference.
func TestCompareDifferenceMatchesReference(t *testing.T) {
	p := terrain.DefaultParams()
	p.Size, p.Seed = 17, 5
	c := &compareLesson{}
	var err error
	for i, alg := range []terrain.Algorithm{terrain.Midpoint, terrain.DiamondSquareAlg} {
		q := p
		q.Algorithm = alg
		st, e := terrain.SubdivisionSteps(t.Context(), q)
		if e != nil {
			t.Fatal(e)
		}
		if i == 0 {
			c.mid = st
		} else {
			c.ds = st
		}
		err = e
	}
	if err != nil {
		t.Fatal(err)
	}
	a, _ := c.mid.State(8)
	b, _ := c.ds.State(8)
	alo, ahi := a.Range()
	blo, bhi := b.Range()
	c.lo, c.hi = min(alo, blo), max(ahi, bhi)
	span := float64(c.hi) - float64(c.lo)
	for _, k := range []int{0, 2} {
		ra, _ := c.mid.State(k)
		rb, _ := c.ds.State(k)
		want := 0.0
		for _, y := range []int{0, 8, 16} {
			for _, x := range []int{0, 8, 16} {
				want = math.Max(want, math.Abs(float64(ra.At(x, y)-rb.At(x, y)))/span)
			}
		}
		ma, mb := compareGrids(c, k)
		got := 0.0
		for i := range ma.Samples {
			got = math.Max(got, math.Abs(float64(ma.Samples[i]-mb.Samples[i])))
		}
		if math.Abs(got-want) > 1e-6 {
			t.Errorf("stage %s: largest difference %g, want %g from the raw states", lesson.StageLabel(k), got, want)
		}
		if k == 0 && got != 0 || k == 2 && got == 0 {
			t.Errorf("stage %s: largest difference %g", lesson.StageLabel(k), got)
		}
		c.maxDiff = got
		img := compareOverlay(c, k)
		// The difference panel's block of the grid's last column,
		// middle row.
		col, row := ma.Width-1, ma.Height/2
		x := 2*(compareSide+8) + compareSide - 1
		y := (2*row + 1) * compareSide / (2 * ma.Height)
		if px, want := img.RGBAAt(x, y), divergingColour(float64(ma.At(col, row)-mb.At(col, row)), got); px != want {
			t.Errorf("stage %s: the difference panel at sample (%d, %d) is %v, want %v", lesson.StageLabel(k), col, row, px, want)
		}
	}
}

// Every link the walkthroughs give opens: it parses, and its lesson state
// is one its parameters can show.
func TestWalkthroughLinksOpen(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "docs", "teaching-walkthroughs.md"))
	if err != nil {
		t.Fatal(err)
	}
	links := regexp.MustCompile("`#([^`…]+)`").FindAllStringSubmatch(string(data), -1)
	if len(links) < 8 {
		t.Fatalf("found %d links in the walkthroughs", len(links))
	}
	for _, m := range links {
		l, err := web.ParseFragment(m[1])
		if err != nil {
			t.Errorf("#%s: %v", m[1], err)
			continue
		}
		if err := l.State.Check(l.Params); err != nil {
			t.Errorf("#%s: %v", m[1], err)
		}
	}
}
