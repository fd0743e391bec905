package game

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"

	"cordillera/internal/lesson"
	"cordillera/terrain"
)

// The compare lesson: midpoint displacement and diamond-square stepped
// side by side with one seed. Both draw the same random number R at
// every vertex and scale it by the same A·2^(−nH) at iteration n, so
// the maps differ only by the averaging rule (notes eq. 7–8 against
// eq. 9): midpoint averages an edge's two ends and then a centre's four
// edge midpoints; diamond-square a centre's four corners and then an
// edge point's diamond. The 3D view shows the midpoint map as the
// subdivision lesson does; the overlay the two maps and their difference
// at the same stage.

// compareLesson is the compare lesson's two steppers.
type compareLesson struct {
	mid, ds *terrain.Stepper
	lo, hi  float32       // the range of both final maps: the common scale
	img     *ebiten.Image // the overlay, nil until drawn for this stage
	maxDiff float64       // the largest |midpoint − diamond-square| at this stage, in the maps' units
}

// buildCompare makes both steppers for p at the lesson's size.
func (g *Game) buildCompare(p terrain.Params) {
	t := &g.teach
	c := &t.compare
	p.Size = teachSizes[t.sizeIdx]
	for _, alg := range []terrain.Algorithm{terrain.Midpoint, terrain.DiamondSquareAlg} {
		q := p
		q.Algorithm = alg
		st, err := terrain.SubdivisionSteps(context.Background(), q)
		if err != nil {
			g.ui.fail(err)
			return
		}
		if alg == terrain.Midpoint {
			c.mid = st
		} else {
			c.ds = st
		}
	}
	a, _ := c.mid.State(len(c.mid.Steps()))
	b, _ := c.ds.State(len(c.ds.Steps()))
	alo, ahi := a.Range()
	blo, bhi := b.Range()
	c.lo, c.hi = min(alo, blo), max(ahi, bhi)
	t.stepper, t.k, t.picked = c.mid, 0, nil
	g.showCompare()
}

// showCompare shows stage t.k: the midpoint map in the 3D view, and the
// largest difference between the two maps.
func (g *Game) showCompare() {
	t := &g.teach
	c := &t.compare
	a, b := compareGrids(c, t.k)
	c.maxDiff = 0
	for i := range a.Samples {
		c.maxDiff = math.Max(c.maxDiff, math.Abs(float64(a.Samples[i]-b.Samples[i])))
	}
	if c.img != nil {
		c.img.Deallocate()
		c.img = nil
	}
	g.showLessonWorld(a)
	g.frameLesson()
}

// compareGrids are the midpoint and diamond-square maps after the first
// k stages, as the subdivision lesson shows a stage (stageGrid), on the
// common scale [0, 1] of both final maps.
func compareGrids(c *compareLesson, k int) (mid, ds *terrain.Heightmap) {
	return stageGrid(c.mid, k, c.lo, c.hi), stageGrid(c.ds, k, c.lo, c.hi)
}

// compareSide is the side of each of the overlay's three maps, in pixels.
const compareSide = 160

// compareOverlay draws the two maps and their difference side by side:
// heights in grey on the common scale, the difference blue (midpoint
// lower) to red (midpoint higher) on ±maxDiff, each map's sample a block
// of pixels.
func compareOverlay(c *compareLesson, k int) *image.RGBA {
	a, b := compareGrids(c, k)
	const gap = 8
	img := image.NewRGBA(image.Rect(0, 0, 3*compareSide+2*gap, compareSide))
	for panel := range 3 {
		x0 := panel * (compareSide + gap)
		for y := range compareSide {
			row := y * a.Height / compareSide
			for x := range compareSide {
				col := x * a.Width / compareSide
				var px color.RGBA
				switch panel {
				case 0, 1:
					v := a.At(col, row)
					if panel == 1 {
						v = b.At(col, row)
					}
					grey := uint8(math.Round(255 * min(max(float64(v), 0), 1)))
					px = color.RGBA{grey, grey, grey, 255}
				default:
					px = divergingColour(float64(a.At(col, row)-b.At(col, row)), c.maxDiff)
				}
				img.SetRGBA(x0+x, y, px)
			}
		}
	}
	return img
}

// divergingColour is v on ±scale: white at 0, red at +scale, blue at
// −scale.
func divergingColour(v, scale float64) color.RGBA {
	f := 0.0
	if scale > 0 {
		f = min(max(v/scale, -1), 1)
	}
	fade := uint8(math.Round(255 * (1 - math.Abs(f))))
	if f >= 0 {
		return color.RGBA{255, fade, fade, 255}
	}
	return color.RGBA{fade, fade, 255, 255}
}

// drawCompare draws the overlay at the top right of the screen, a
// caption under each map.
func (g *Game) drawCompare(screen *ebiten.Image) {
	c := &g.teach.compare
	if c.mid == nil {
		return
	}
	if c.img == nil {
		c.img = ebiten.NewImageFromImage(compareOverlay(c, g.teach.k))
	}
	w := screen.Bounds().Dx()
	x0 := w - c.img.Bounds().Dx() - 10
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Translate(float64(x0), float64(teachTop))
	screen.DrawImage(c.img, op)
	for i, label := range []string{"midpoint", "diamond-square", fmt.Sprintf("difference, ±%.3g", c.maxDiff)} {
		x, y := x0+i*(compareSide+8), teachTop+compareSide+2
		textBackdrop(screen, label, x, y)
		ebitenutil.DebugPrintAt(screen, label, x+3, y)
	}
	label := "stage " + lesson.StageLabel(g.teach.k)
	textBackdrop(screen, label, x0, teachTop+compareSide+2+debugLineH)
	ebitenutil.DebugPrintAt(screen, label, x0+3, teachTop+compareSide+2+debugLineH)
}

// compareText is the compare lesson's panel text: the two rules of the
// stage shown and how far the maps differ.
func (g *Game) compareText() string {
	t := &g.teach
	c := &t.compare
	if c.mid == nil {
		return ""
	}
	steps := c.mid.Steps()
	head := fmt.Sprintf("Same seed, same R and A·2^(-nH) at every vertex:\nthe maps differ only by the averaging rule.\nstage %s (%d of %d)", lesson.StageLabel(t.k), t.k, len(steps))
	if t.k == 0 {
		return head + "\nthe four corners: equal in both"
	}
	ms, ds := steps[t.k-1], c.ds.Steps()[t.k-1]
	rule := map[string]string{
		terrain.StageEdges:   "midpoint: edge midpoints = mean of 2 ends + z",
		terrain.StageCentres: "midpoint: centres = mean of 4 edge midpoints + z",
		terrain.StageDiamond: "diamond-square: centres = mean of 4 corners + z",
		terrain.StageSquare:  "diamond-square: edges = mean of the diamond + z",
	}
	s := fmt.Sprintf("%s\n%s\n%s\nmax |midpoint - diamond-square| = %.3g\n(of the range 0 to 1 of both final maps)", head, rule[ms.Stage], rule[ds.Stage], c.maxDiff)
	if t.k%2 == 1 {
		s += "\nAt an a stage the two set different points\n(edges against centres); the grid fills the\nothers with their neighbours' mean."
	}
	return s
}
