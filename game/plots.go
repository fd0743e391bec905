package game

import (
	"fmt"
	"image"

	"github.com/hajimehoshi/ebiten/v2"

	"cordillera/internal/lesson"
	"cordillera/plot"
)

// The explorer's plots of the world shown: a height profile across the
// map, the height histogram, or the power spectrum with its fitted slope
// beside fBm theory's −(2H+2). They are made on a goroutine from the map
// and drawn over the bottom of the 3D view.

// plotKinds are the choices of the Teach panel's plot dropdown.
var plotKinds = []string{"none", plot.KindProfile, plot.KindHistogram, plot.KindSpectrum}

// Size of the plot overlay, in pixels.
const plotW, plotH = 560, 320

// plotState is the plot on show and the one being made.
type plotState struct {
	kind    int // index in plotKinds
	world   *World
	img     *ebiten.Image
	summary string
	ready   chan plotResult
}

type plotResult struct {
	world   *World
	img     image.Image
	summary string
	err     error
}

// updatePlot starts a plot when the choice or the world changed and takes
// a finished one.
func (g *Game) updatePlot() {
	ps := &g.plots
	select {
	case r := <-ps.ready:
		ps.ready = nil
		if r.err != nil {
			g.ui.fail(fmt.Errorf("plot: %w", r.err))
			break
		}
		if ps.img != nil {
			ps.img.Deallocate()
		}
		ps.img, ps.summary = ebiten.NewImageFromImage(r.img), r.summary
		if r.world != g.World { // the world changed meanwhile: plot it again
			ps.world = nil
		}
	default:
	}
	if ps.kind == 0 {
		ps.world = nil
		return
	}
	if ps.world == g.World || ps.ready != nil {
		return
	}
	ps.world = g.World
	kind, m, hurst, name := plotKinds[ps.kind], g.World.Map, g.Params.Hurst, g.shownName()
	ps.ready = make(chan plotResult, 1)
	go func(ch chan plotResult, w *World) {
		p, summary, err := plot.Make(kind, m, plot.MakeOptions{Line: [4]float64{0, 0.5, 1, 0.5}, Bins: 50, Hurst: hurst, Name: name})
		if err != nil {
			ch <- plotResult{err: err}
			return
		}
		img, err := plot.Render(p, plotW, plotH)
		ch <- plotResult{world: w, img: img, summary: summary, err: err}
	}(ps.ready, g.World)
}

// shownName says what the 3D view shows, for plot titles: a lesson's map
// is not the generator's.
func (g *Game) shownName() string {
	t := &g.teach
	switch {
	case t.mode == teachOctaves && len(t.partials) > 0:
		return fmt.Sprintf("partial sum of %d of %d octaves, %s", t.octK, len(t.partials), g.Params.Describe())
	case t.mode == teachSubdivision && t.stepper != nil:
		return fmt.Sprintf("subdivision after stage %s (%d of %d)", lesson.StageLabel(t.k), t.k, len(t.stepper.Steps()))
	case t.mode == teachErosion && t.erosion.drops != nil:
		return fmt.Sprintf("after %d droplets one at a time, %s", t.erosion.drops.Done(), g.Params.Describe())
	case t.mode == teachErosion && t.erosion.m != nil:
		return fmt.Sprintf("after %d droplets, %s", t.erosion.pass*t.erosion.batch, g.Params.Describe())
	case t.mode == teachThermal && t.thermal.st != nil:
		return fmt.Sprintf("after %d thermal sweeps, %s", t.thermal.sweep, g.Params.Describe())
	case t.mode == teachFluvial && t.fluvial.st != nil:
		return fmt.Sprintf("after %d fluvial steps, %s", t.fluvial.step, g.Params.Describe())
	}
	return g.Params.Describe()
}

// setPlot chooses the plot to show.
func (ps *plotState) setPlot(kind int) {
	ps.kind, ps.world = kind, nil
	if kind == 0 && ps.img != nil {
		ps.img.Deallocate()
		ps.img, ps.summary = nil, ""
	}
}

// drawPlot draws the plot over the bottom of the 3D view.
func (g *Game) drawPlot(screen *ebiten.Image) {
	ps := &g.plots
	if ps.kind == 0 || ps.img == nil {
		return
	}
	r := g.plotRect(screen.Bounds().Dy())
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Translate(float64(r.Min.X), float64(r.Min.Y))
	screen.DrawImage(ps.img, op)
}

// plotRect is where drawPlot puts the plot on a screen of height h: in a
// lesson above the caption strip its screenshots carry.
func (g *Game) plotRect(h int) image.Rectangle {
	x, y := g.viewLeft()+10, h-plotH-10
	if g.teach.mode != teachOff {
		y -= captionStripH
	}
	return image.Rect(x, y, x+plotW, y+plotH)
}
