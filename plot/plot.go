// Package plot draws the teaching plots of a heightmap (issue 6) as
// images: the heights along a line, the distribution of heights, and the
// log-log power spectrum with its fitted slope beside the fBm theory's; and
// contact sheets that put shaded reliefs of one parameter's values side by
// side. The plots are drawn with gonum/plot, need no display, and carry
// their own fonts.
package plot

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"cordillera/terrain/analysis"
)

// dpi is the resolution plots are rendered at: 96 px per inch, so that the
// fonts' point sizes read as on a screen.
const dpi = 96

// The plots' colours.
var (
	dataColour   = color.RGBA{R: 38, G: 94, B: 160, A: 255}   // the measured data
	fitColour    = color.RGBA{R: 200, G: 60, B: 40, A: 255}   // the fitted line
	theoryColour = color.RGBA{R: 40, G: 140, B: 60, A: 255}   // the theory line
	bandColour   = color.RGBA{R: 150, G: 150, B: 150, A: 255} // the fit band's edges
	fillColour   = color.RGBA{R: 120, G: 160, B: 200, A: 255} // histogram bars
)

// Profile plots heights (world units) against the distance along the line
// (world units): the cross-section a hiker would walk.
func Profile(distance, heights []float64, title string) (*gplot.Plot, error) {
	if len(distance) != len(heights) || len(heights) < 2 {
		return nil, fmt.Errorf("profile: %d distances and %d heights; need the same number, at least 2", len(distance), len(heights))
	}
	xys := make(plotter.XYs, len(heights))
	for i := range heights {
		if !finite(distance[i]) || !finite(heights[i]) {
			return nil, fmt.Errorf("profile: point %d (distance %g, height %g) is not a finite number", i, distance[i], heights[i])
		}
		xys[i] = plotter.XY{X: distance[i], Y: heights[i]}
	}
	p := newPlot(title, "distance along the line (world units)", "height (world units)")
	line, err := plotter.NewLine(xys)
	if err != nil {
		return nil, fmt.Errorf("profile: %w", err)
	}
	line.Color, line.Width = dataColour, vg.Points(1.5)
	p.Add(line, plotter.NewGrid())
	p.X.Min, p.X.Max = distance[0], distance[len(distance)-1]
	return p, nil
}

// Histogram plots counts of equal bins of the normalised heights [0, 1]
// (terrain.Histogram) as the share of samples per bin, against heights in
// world units (the normalised heights times vertical).
func Histogram(counts []int, vertical float64, title string) (*gplot.Plot, error) {
	if len(counts) == 0 {
		return nil, errors.New("histogram: no bins")
	}
	if !(vertical > 0) || math.IsInf(vertical, 0) {
		return nil, fmt.Errorf("histogram: vertical scale %g must be a positive number", vertical)
	}
	total := 0
	for _, c := range counts {
		total += c
	}
	if total == 0 {
		return nil, errors.New("histogram: no samples counted")
	}
	width := vertical / float64(len(counts))
	h := &plotter.Histogram{Width: width, FillColor: fillColour, LineStyle: plotter.DefaultLineStyle}
	h.LineStyle.Width = vg.Points(0.5)
	for k, c := range counts {
		h.Bins = append(h.Bins, plotter.HistogramBin{Min: float64(k) * width, Max: float64(k+1) * width, Weight: 100 * float64(c) / float64(total)})
	}
	p := newPlot(title, "height (world units)", "share of samples (%)")
	p.Add(plotter.NewGrid(), h)
	p.X.Min, p.X.Max, p.Y.Min = 0, vertical, 0
	return p, nil
}

// Spectrum plots the radially averaged power spectrum on log-log axes: one
// point per annulus, the straight line fitted over the band, and the fBm
// theory's slope −(2H+2) for hurst drawn through the fit at the band's
// centre, so the two slopes can be compared by eye and in the legend.
//
// The plot holds log₁₀ f and log₁₀ P on linear axes, labelled with f and P:
// gonum/plot's own log scale places a centred axis label at the arithmetic
// mean of the range, which on a range of decades pushes it off the top.
func Spectrum(s analysis.Spectrum, fit analysis.SpectrumFit, hurst float64, title string) (*gplot.Plot, error) {
	var pts plotter.XYs
	for k, f := range s.Freq {
		if s.Power[k] > 0 && finite(s.Power[k]) && f > 0 {
			pts = append(pts, plotter.XY{X: math.Log10(f), Y: math.Log10(s.Power[k])})
		}
	}
	if len(pts) < 2 {
		return nil, errors.New("spectrum: fewer than two annuli with power (is the map flat?)")
	}
	if !finite(fit.Slope) || !finite(fit.Intercept) || !(fit.FMin > 0 && fit.FMax > fit.FMin) {
		return nil, fmt.Errorf("spectrum: the fit (slope %g over [%g, %g]) is not a usable line", fit.Slope, fit.FMin, fit.FMax)
	}
	if !finite(hurst) {
		return nil, fmt.Errorf("spectrum: Hurst exponent %g is not a finite number", hurst)
	}
	p := newPlot(title, "frequency f (cycles per sample)", "power P(f), mean over the annulus")
	p.X.Tick.Marker = powerOfTwoTicks{}
	p.Y.Tick.Marker = decadeTicks{}

	dots, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, fmt.Errorf("spectrum: %w", err)
	}
	dots.GlyphStyle.Color, dots.GlyphStyle.Radius = dataColour, vg.Points(1.2)
	dots.GlyphStyle.Shape = draw.CircleGlyph{}

	// In log-log coordinates both lines are straight: y = intercept + slope·x.
	lo, hi := math.Log10(fit.FMin), math.Log10(fit.FMax)
	fitted := straightLine(lo, hi, func(x float64) float64 { return fit.Intercept + fit.Slope*x }, fitColour, nil)
	mid := (lo + hi) / 2
	midY := fit.Intercept + fit.Slope*mid
	theorySlope := analysis.FBmSpectrumSlope(hurst)
	theory := straightLine(lo-math.Log10(2), min(hi+math.Log10(2), math.Log10(0.5)), func(x float64) float64 {
		return midY + theorySlope*(x-mid)
	}, theoryColour, []vg.Length{vg.Points(6), vg.Points(3)})

	ymin, ymax := pts[0].Y, pts[0].Y
	for _, q := range pts {
		ymin, ymax = min(ymin, q.Y), max(ymax, q.Y)
	}
	var edges [2]*plotter.Line
	for i, x := range []float64{lo, hi} {
		edges[i] = straightLine(x, x, nil, bandColour, []vg.Length{vg.Points(2), vg.Points(2)})
		edges[i].XYs[0].Y, edges[i].XYs[1].Y = ymin, ymax
	}

	p.Add(plotter.NewGrid(), dots, edges[0], edges[1], theory, fitted)
	fitLabel, theoryLabel := spectrumLabels(fit, hurst)
	p.Legend.Add("annuli (mean power)", dots)
	p.Legend.Add(fitLabel, fitted)
	p.Legend.Add(theoryLabel, theory)
	p.Legend.Add("fit band", edges[0])
	p.Legend.Top = true // the top right is empty: power falls with frequency
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(-8), vg.Points(-8)
	p.X.Min, p.X.Max = pts[0].X, pts[len(pts)-1].X
	return p, nil
}

// spectrumLabels are the legend entries of the fitted and the theory line,
// each with its slope.
func spectrumLabels(fit analysis.SpectrumFit, hurst float64) (fitLabel, theoryLabel string) {
	fitLabel = fmt.Sprintf("fit over f in [%s, %s]: slope %.2f", fracText(fit.FMin), fracText(fit.FMax), fit.Slope)
	theoryLabel = fmt.Sprintf("fBm theory -(2H+2), H = %g: slope %.2f", hurst, analysis.FBmSpectrumSlope(hurst))
	return fitLabel, theoryLabel
}

// Render draws the plot into a w×h image at 96 dpi.
func Render(p *gplot.Plot, w, h int) (image.Image, error) {
	if w < 64 || h < 64 || w > 8192 || h > 8192 {
		return nil, fmt.Errorf("plot size %d×%d: each side must be between 64 and 8192 pixels", w, h)
	}
	c := vgimg.NewWith(vgimg.UseWH(vg.Length(w)*vg.Inch/dpi, vg.Length(h)*vg.Inch/dpi), vgimg.UseDPI(dpi))
	p.Draw(draw.New(c))
	return c.Image(), nil
}

// newPlot is a plot with the title and axis labels, in the house style:
// Liberation Sans (embedded in gonum/plot) throughout.
func newPlot(title, x, y string) *gplot.Plot {
	p := gplot.New()
	for _, f := range []*font.Font{&p.Title.TextStyle.Font, &p.Legend.TextStyle.Font,
		&p.X.Label.TextStyle.Font, &p.X.Tick.Label.Font, &p.Y.Label.TextStyle.Font, &p.Y.Tick.Label.Font} {
		f.Variant = "Sans"
	}
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text, p.Y.Label.Text = x, y
	p.X.Tick.Marker, p.Y.Tick.Marker = niceTicks{}, niceTicks{}
	return p
}

// straightLine is a line from (x0, f(x0)) to (x1, f(x1)) — straight on
// log-log axes when f is a power law — in the colour, dashed if dashes
// are given. With f nil both ends are at y = 0, to be set by the caller.
func straightLine(x0, x1 float64, f func(float64) float64, c color.Color, dashes []vg.Length) *plotter.Line {
	xys := plotter.XYs{{X: x0}, {X: x1}}
	if f != nil {
		xys[0].Y, xys[1].Y = f(x0), f(x1)
	}
	l := &plotter.Line{XYs: xys, LineStyle: plotter.DefaultLineStyle}
	l.Color, l.Width, l.Dashes = c, vg.Points(2), dashes
	return l
}

// niceTicks marks a linear axis every 1, 2 or 5 times a power of ten: the
// smallest such step that gives at most 7 labelled marks (gonum's default
// aims at 3, with labels such as 22.50 and 32.50 that read poorly).
type niceTicks struct{}

// Ticks returns the marks between lo and hi.
func (niceTicks) Ticks(lo, hi float64) []gplot.Tick {
	if !(hi > lo) {
		return []gplot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', 4, 64)}}
	}
	raw := (hi - lo) / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{2, 5, 10} {
		if step >= raw {
			break
		}
		step = m * mag
	}
	decimals := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	var ticks []gplot.Tick
	for k := math.Ceil(lo/step - 1e-9); k*step <= hi+1e-9*step; k++ {
		v := k * step
		if v == 0 {
			v = 0 // not −0, which would be labelled "-0"
		}
		ticks = append(ticks, gplot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals, 64)})
	}
	return ticks
}

// powerOfTwoTicks marks a log₁₀ f axis at f = 1/2, 1/4, 1/8, …, labelling
// every other one: the frequencies of octaves with λ = 2.
type powerOfTwoTicks struct{}

// Ticks returns the marks between lo and hi (log₁₀ f).
func (powerOfTwoTicks) Ticks(lo, hi float64) []gplot.Tick {
	var ticks []gplot.Tick
	for k := 0; k <= 60; k++ {
		x := math.Log10(math.Ldexp(1, -k))
		if x < lo-1e-9 {
			break
		}
		if x > hi+1e-9 {
			continue
		}
		t := gplot.Tick{Value: x}
		if k%2 == 1 {
			t.Label = fracText(math.Ldexp(1, -k))
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// decadeTicks marks a log₁₀ P axis at P = 1, 2, …, 9 times each power of
// ten inside the range, labelling the powers of ten.
type decadeTicks struct{}

// Ticks returns the marks between lo and hi (log₁₀ P).
func (decadeTicks) Ticks(lo, hi float64) []gplot.Tick {
	var ticks []gplot.Tick
	for e := math.Floor(lo); e <= math.Ceil(hi); e++ {
		for i := 1; i < 10; i++ {
			y := e + math.Log10(float64(i))
			if y < lo-1e-9 || y > hi+1e-9 {
				continue
			}
			t := gplot.Tick{Value: y}
			if i == 1 {
				t.Label = strconv.FormatFloat(math.Pow(10, e), 'g', -1, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// fracText writes a frequency as 1/n when it is one, else as a decimal.
func fracText(f float64) string {
	if n := 1 / f; math.Abs(n-math.Round(n)) < 1e-9*n {
		return fmt.Sprintf("1/%d", int(math.Round(n)))
	}
	return fmt.Sprintf("%.3g", f)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
