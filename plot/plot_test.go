package plot

import (
	"image"
	"image/color"
	"math"
	"strings"
	"testing"

	"cordillera/terrain/analysis"
)

// countColour counts the pixels within 40 (per channel) of c.
func countColour(img image.Image, c color.RGBA) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if near(r>>8, c.R) && near(g>>8, c.G) && near(bl>>8, c.B) {
				n++
			}
		}
	}
	return n
}

func near(v uint32, c uint8) bool { return math.Abs(float64(v)-float64(c)) <= 40 }

func TestProfilePlot(t *testing.T) {
	dist := []float64{0, 1, 2, 3, 4}
	heights := []float64{10, 12, 9, 15, 11}
	p, err := Profile(dist, heights, "profile")
	if err != nil {
		t.Fatal(err)
	}
	img, err := Render(p, 400, 300)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 400 || b.Dy() != 300 {
		t.Errorf("image %v, want 400×300", b)
	}
	if n := countColour(img, dataColour); n < 100 {
		t.Errorf("%d pixels of the profile line's colour; the line is missing", n)
	}
	for _, bad := range []struct {
		d, h []float64
	}{
		{[]float64{0, 1}, []float64{1}},
		{[]float64{0}, []float64{1}},
		{[]float64{0, 1}, []float64{1, math.NaN()}},
		{[]float64{0, math.Inf(1)}, []float64{1, 2}},
	} {
		if _, err := Profile(bad.d, bad.h, ""); err == nil {
			t.Errorf("Profile(%v, %v) accepted", bad.d, bad.h)
		}
	}
}

func TestHistogramPlot(t *testing.T) {
	p, err := Histogram([]int{5, 10, 0, 5}, 200, "histogram")
	if err != nil {
		t.Fatal(err)
	}
	img, err := Render(p, 400, 300)
	if err != nil {
		t.Fatal(err)
	}
	if n := countColour(img, fillColour); n < 1000 {
		t.Errorf("%d pixels of the bars' colour; the bars are missing", n)
	}
	if p.X.Min != 0 || p.X.Max != 200 {
		t.Errorf("x axis %g–%g, want the heights 0–200", p.X.Min, p.X.Max)
	}
	for _, bad := range []struct {
		counts   []int
		vertical float64
	}{{nil, 1}, {[]int{0, 0}, 1}, {[]int{1}, 0}, {[]int{1}, math.NaN()}} {
		if _, err := Histogram(bad.counts, bad.vertical, ""); err == nil {
			t.Errorf("Histogram(%v, %g) accepted", bad.counts, bad.vertical)
		}
	}
}

// A synthetic power law P = f^−3 fits with slope −3, and the plot draws
// the points, the fit and the theory line, with both slopes in the legend.
func TestSpectrumPlot(t *testing.T) {
	s := powerLawSpectrum()
	fit, err := s.Fit(1.0/32, 1.0/8)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(fit.Slope+3) > 1e-9 {
		t.Fatalf("slope %g, want −3", fit.Slope)
	}
	p, err := Spectrum(s, fit, 0.8, "spectrum")
	if err != nil {
		t.Fatal(err)
	}
	img, err := Render(p, 600, 400)
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]color.RGBA{"points": dataColour, "fit": fitColour, "theory": theoryColour} {
		if n := countColour(img, c); n < 30 {
			t.Errorf("%d pixels of the %s colour; want it drawn", n, name)
		}
	}
	fitLabel, theoryLabel := spectrumLabels(fit, 0.8)
	if !strings.Contains(fitLabel, "slope -3.00") || !strings.Contains(fitLabel, "[1/32, 1/8]") {
		t.Errorf("fit legend %q, want the band and slope -3.00", fitLabel)
	}
	if !strings.Contains(theoryLabel, "H = 0.8") || !strings.Contains(theoryLabel, "slope -3.60") {
		t.Errorf("theory legend %q, want H = 0.8 and slope -3.60", theoryLabel)
	}
	if _, err := Spectrum(analysis.Spectrum{Freq: []float64{0.1}, Power: []float64{0}}, fit, 0.5, ""); err == nil {
		t.Error("a spectrum with no power was plotted")
	}
	if _, err := Spectrum(s, analysis.SpectrumFit{Slope: math.NaN(), FMin: 0.1, FMax: 0.2}, 0.5, ""); err == nil {
		t.Error("a NaN fit was plotted")
	}
}

func TestRenderSize(t *testing.T) {
	p, _ := Histogram([]int{1}, 1, "")
	for _, wh := range [][2]int{{63, 100}, {100, 9000}} {
		if _, err := Render(p, wh[0], wh[1]); err == nil {
			t.Errorf("Render at %d×%d accepted", wh[0], wh[1])
		}
	}
}

func TestTicks(t *testing.T) {
	var got []string
	for _, tk := range (niceTicks{}).Ticks(20.39, 44.67) {
		got = append(got, tk.Label)
	}
	if strings.Join(got, " ") != "25 30 35 40" {
		t.Errorf("niceTicks(20.39, 44.67) = %v, want 25 30 35 40", got)
	}
	got = nil
	for _, tk := range (niceTicks{}).Ticks(-0.001, 362) {
		got = append(got, tk.Label)
	}
	if strings.Join(got, " ") != "0 100 200 300" {
		t.Errorf("niceTicks(-0.001, 362) = %v, want 0 100 200 300 (and no -0)", got)
	}
	got = nil
	for _, tk := range (powerOfTwoTicks{}).Ticks(math.Log10(1.0/1024), math.Log10(0.5)) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	if strings.Join(got, " ") != "1/2 1/8 1/32 1/128 1/512" {
		t.Errorf("powerOfTwoTicks labels %v, want 1/2 … 1/512", got)
	}
	got = nil
	for _, tk := range (decadeTicks{}).Ticks(-2.5, 1.2) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	if strings.Join(got, " ") != "0.01 0.1 1 10" {
		t.Errorf("decadeTicks labels %v, want 0.01 0.1 1 10", got)
	}
}

// powerLawSpectrum is a synthetic spectrum of a 256² map whose power falls
// as f^−3 at every frequency 1/256 … 128/256.
func powerLawSpectrum() analysis.Spectrum {
	s := analysis.Spectrum{Size: 256}
	for k := 1; k <= 128; k++ {
		f := float64(k) / 256
		s.Freq = append(s.Freq, f)
		s.Power = append(s.Power, math.Pow(f, -3))
		s.Count = append(s.Count, 1)
	}
	return s
}
