package plot

import (
	"fmt"
	"math"

	gplot "gonum.org/v1/plot"

	"cordillera/terrain"
	"cordillera/terrain/analysis"
)

// The kinds of plot Make draws.
const (
	KindProfile   = "profile"
	KindHistogram = "histogram"
	KindSpectrum  = "spectrum"
)

// maxProfilePoints bounds a profile's samples.
const maxProfilePoints = 2 * terrain.MaxSize

// maxSpectrumSide bounds the spectrum's transform: a 4096² grid of
// complex128 takes 256 MB, where a 16384² one would take 4 GB.
const maxSpectrumSide = 4096

// spectrumWindow returns the part of m the spectrum transforms: m itself,
// or, for a larger map, a copy of its top-left maxSpectrumSide² samples
// (analysis.PowerSpectrum takes the top-left power-of-two square anyway;
// a smaller window loses only wavelengths longer than 4096 samples).
func spectrumWindow(m *terrain.Heightmap) *terrain.Heightmap {
	if m.Width <= maxSpectrumSide || m.Height <= maxSpectrumSide {
		return m
	}
	w := terrain.NewHeightmap(maxSpectrumSide, maxSpectrumSide)
	w.CellSize, w.VerticalScale = m.CellSize, m.VerticalScale
	for row := range maxSpectrumSide {
		copy(w.Samples[row*maxSpectrumSide:(row+1)*maxSpectrumSide], m.Samples[row*m.Width:])
	}
	return w
}

// MakeOptions shape a plot of a map.
type MakeOptions struct {
	Line  [4]float64 // profile: map fractions x0, y0, x1, y1
	Bins  int        // histogram bins
	Band  [2]float64 // spectrum fit band in cycles per sample; zero: analysis.DefaultFitBand
	Hurst float64    // spectrum: the H whose fBm theory slope is drawn
	Name  string     // what the map is, for the title
}

// Make draws a plot of a map for the plot command and the explorer, and
// returns a one-line summary of what it measured.
func Make(kind string, m *terrain.Heightmap, opt MakeOptions) (p *gplot.Plot, summary string, err error) {
	switch kind {
	case KindProfile:
		x0, y0, x1, y1, err := analysis.MapLine(m, opt.Line[0], opt.Line[1], opt.Line[2], opt.Line[3])
		if err != nil {
			return nil, "", err
		}
		length := math.Hypot(x1-x0, y1-y0) // in samples
		n := min(max(int(math.Ceil(length))+1, 2), maxProfilePoints)
		heights := analysis.Profile(m, x0, y0, x1, y1, n)
		distance := make([]float64, n)
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := range heights {
			distance[i] = float64(i) / float64(n-1) * length * m.CellSize
			heights[i] *= m.VerticalScale
			lo, hi = min(lo, heights[i]), max(hi, heights[i])
		}
		title := fmt.Sprintf("Height profile from (%g, %g) to (%g, %g)\n%s", opt.Line[0], opt.Line[1], opt.Line[2], opt.Line[3], opt.Name)
		p, err := Profile(distance, heights, title)
		return p, fmt.Sprintf("profile of %d points over %.4g world units: heights %.4g to %.4g", n, distance[n-1], lo, hi), err

	case KindHistogram:
		counts := analysis.Histogram(m, opt.Bins)
		p, err := Histogram(counts, m.VerticalScale, fmt.Sprintf("Height histogram, %d bins\n%s", opt.Bins, opt.Name))
		mean := 0.0
		for _, v := range m.Samples {
			mean += float64(v)
		}
		mean /= float64(len(m.Samples))
		return p, fmt.Sprintf("histogram of %d samples in %d bins: mean height %.4g", len(m.Samples), opt.Bins, mean*m.VerticalScale), err

	default: // KindSpectrum
		s, err := analysis.PowerSpectrum(spectrumWindow(m))
		if err != nil {
			return nil, "", err
		}
		fmin, fmax := opt.Band[0], opt.Band[1]
		if fmax == 0 {
			fmin, fmax = analysis.DefaultFitBand(s.Size)
		}
		fit, err := s.Fit(fmin, fmax)
		if err != nil {
			return nil, "", err
		}
		theory := analysis.FBmSpectrumSlope(opt.Hurst)
		title := fmt.Sprintf("Radially averaged power spectrum (%d² transform, Hann window)\n%s", s.Size, opt.Name)
		p, err := Spectrum(s, fit, opt.Hurst, title)
		return p, fmt.Sprintf("spectrum slope %.3f over f in [%g, %g] (%d annuli); fBm theory -(2H+2) for H %g: %.3f",
			fit.Slope, fit.FMin, fit.FMax, fit.Points, opt.Hurst, theory), err
	}
}
