package plot

import (
	"image"
	"image/color"
	"math"
	"testing"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// pixelOf maps data coordinates to the pixel they are drawn at when p is
// rendered at w×h: the data area gonum/plot lays out, in points from the
// bottom left, scaled to pixels and flipped.
func pixelOf(p *gplot.Plot, w, h int) func(x, y float64) (float64, float64) {
	c := vgimg.NewWith(vgimg.UseWH(vg.Length(w)*vg.Inch/dpi, vg.Length(h)*vg.Inch/dpi), vgimg.UseDPI(dpi))
	dc := p.DataCanvas(draw.New(c))
	scale := float64(dpi) / float64(vg.Inch)
	return func(x, y float64) (float64, float64) {
		return float64(dc.X(p.X.Norm(x))) * scale, float64(h) - float64(dc.Y(p.Y.Norm(y)))*scale
	}
}

// columnOf lists the rows of column x whose pixel is within 40 of c.
func columnOf(img image.Image, x int, c color.RGBA) []int {
	var rows []int
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		r, g, b, _ := img.At(x, y).RGBA()
		if near(r>>8, c.R) && near(g>>8, c.G) && near(b>>8, c.B) {
			rows = append(rows, y)
		}
	}
	return rows
}

// The profile of a ramp is a straight line through the expected pixels:
// at each sampled column the line's pixels sit where the ramp's height
// is drawn, and nowhere else.
func TestProfilePlotDrawsTheHeights(t *testing.T) {
	const w, h = 500, 320
	var dist, heights []float64
	for i := 0; i <= 20; i++ {
		dist = append(dist, float64(i)*5)
		heights = append(heights, 40+3*float64(i)) // 40 … 100 over 0 … 100
	}
	p, err := Profile(dist, heights, "ramp")
	if err != nil {
		t.Fatal(err)
	}
	img, err := Render(p, w, h)
	if err != nil {
		t.Fatal(err)
	}
	at := pixelOf(p, w, h)
	for _, d := range []float64{7, 23, 41, 50, 66, 88, 97} {
		px, py := at(d, 40+3*d/5)
		rows := columnOf(img, int(px), dataColour)
		if len(rows) == 0 {
			t.Errorf("distance %g: no line pixel in column %d, want one near row %.1f", d, int(px), py)
			continue
		}
		for _, y := range rows {
			if math.Abs(float64(y)-py) > 3 {
				t.Errorf("distance %g: line pixel at row %d of column %d, want the ramp's row %.1f", d, y, int(px), py)
				break
			}
		}
	}
}

// A histogram of known counts has each bar's top at its share of the
// samples, over its bin's heights, and an empty bin has no bar.
func TestHistogramPlotDrawsTheShares(t *testing.T) {
	const w, h = 500, 320
	counts := []int{5, 10, 0, 5} // 25 %, 50 %, 0 %, 25 %
	p, err := Histogram(counts, 200, "known")
	if err != nil {
		t.Fatal(err)
	}
	img, err := Render(p, w, h)
	if err != nil {
		t.Fatal(err)
	}
	at := pixelOf(p, w, h)
	for k, share := range []float64{25, 50, 0, 25} {
		centre := 50*float64(k) + 25 // bin k spans 50k … 50(k+1) world units
		px, top := at(centre, share)
		_, bottom := at(centre, 0)
		rows := columnOf(img, int(px), fillColour)
		if share == 0 {
			if len(rows) > 0 {
				t.Errorf("bin %d is empty but %d bar pixels show in column %d", k, len(rows), int(px))
			}
			continue
		}
		if len(rows) == 0 {
			t.Errorf("bin %d: no bar in column %d", k, int(px))
			continue
		}
		if first, last := float64(rows[0]), float64(rows[len(rows)-1]); math.Abs(first-top) > 3 || math.Abs(last-bottom) > 3 {
			t.Errorf("bin %d: bar spans rows %v–%v, want %.1f (%g %%) to %.1f (0 %%)", k, first, last, top, share, bottom)
		}
	}
}

// The spectrum plot draws the fitted line where the fit puts it: on the
// log-log axes, through log P = intercept + slope·log f over the band.
func TestSpectrumPlotDrawsTheFit(t *testing.T) {
	const w, h = 600, 400
	s := powerLawSpectrum()
	fit, err := s.Fit(1.0/32, 1.0/8)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Spectrum(s, fit, 0.8, "spectrum")
	if err != nil {
		t.Fatal(err)
	}
	img, err := Render(p, w, h)
	if err != nil {
		t.Fatal(err)
	}
	at := pixelOf(p, w, h)
	lo, hi := math.Log10(fit.FMin), math.Log10(fit.FMax)
	for _, u := range []float64{0.2, 0.4, 0.6, 0.8} {
		x := lo + u*(hi-lo)
		px, py := at(x, fit.Intercept+fit.Slope*x)
		rows := columnOf(img, int(px), fitColour)
		found := false
		for _, y := range rows {
			found = found || math.Abs(float64(y)-py) <= 3
		}
		if !found {
			t.Errorf("log f = %.2f: no fit-line pixel near row %.1f of column %d (fit colour at rows %v)", x, py, int(px), rows)
		}
	}
	// The points outside the band lie on the power law P = f^−3.
	for _, f := range []float64{1.0 / 128, 1.0 / 4} {
		px, py := at(math.Log10(f), -3*math.Log10(f))
		found := false
		for _, y := range columnOf(img, int(px), dataColour) {
			found = found || math.Abs(float64(y)-py) <= 3
		}
		if !found {
			t.Errorf("no point drawn near (%.1f, %.1f), where f = %g, P = f^−3 belongs", px, py, f)
		}
	}
}
