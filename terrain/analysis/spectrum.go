package analysis

import (
	"cordillera/terrain"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/cmplx"
)

// The radially averaged power spectrum of a heightmap, and the slope of its
// log-log plot: the measurement that tells how rough a surface is, and
// whether a generator's Hurst exponent H does what the theory says.
//
// Theory. A fractional Brownian surface with Hurst exponent H has the 2-D
// spectral density
//
//	P(f) ∝ 1 / f^(2H+2),   f = |(fx, fy)|
//
// (Saupe, "Algorithms for random fractals", ch. 2 of Peitgen & Saupe, The
// Science of Fractal Images, 1988 — the thesis's reference [37]: algorithm
// SpectralSynthesisFM2D gives coefficient (k, l) the amplitude
// (k² + l²)^(−(H+1)/2)). A straight cut through the surface is a 1-D fBm
// trace whose spectrum goes as 1/f^β with β = 2H + 1, the exponent of
// thesis eq. 1.1; the surface has one dimension more, hence 2H + 2. The
// same follows from fBm synthesis (thesis listing 6.1): octave i has
// frequency f ∝ λ^i and amplitude λ^(−iH) ∝ f^(−H), so its power f^(−2H)
// spreads over an annulus of area ∝ f², a density of f^(−2H−2).
//
// Averaging P over each annulus (not summing) keeps the exponent of the
// 2-D density; the normalisation of the heights changes only the
// intercept, never the slope.

// FBmSpectrumSlope is the log-log slope −(2H+2) of the radially averaged
// power spectrum of an fBm surface with Hurst exponent H.
func FBmSpectrumSlope(hurst float64) float64 { return -(2*hurst + 2) }

// Spectrum is the radially averaged power spectrum of a heightmap.
type Spectrum struct {
	// Size is the side N of the square the transform used: the largest
	// power of two that fits in the map (a 1025² map is cropped to 1024²).
	Size int
	// Freq[k] is annulus k's radial frequency in cycles per sample: the
	// frequencies (fx, fy) with round(N·|(fx, fy)|) = k+1, from 1/N up to
	// the Nyquist frequency ½. Multiply by 1/CellSize for cycles per world unit.
	Freq []float64
	// Power[k] is the mean power over annulus k, scaled so that the mean
	// over every frequency is the heights' variance (Parseval, corrected
	// for the window's energy). Only its shape matters here.
	Power []float64
	// Count[k] is how many Fourier coefficients annulus k averages.
	Count []int
}

// minSpectrumSize is the smallest transform worth making: below it there
// are too few annuli to fit a slope.
const minSpectrumSize = 16

// PowerSpectrum returns the radially averaged power spectrum of the map:
// the top-left N×N samples (N the largest power of two that fits), their
// mean removed, multiplied by a 2-D Hann window w(i)·w(j) with
// w(i) = ½ − ½cos(2πi/N) — without it the jump between opposite edges of a
// non-periodic map leaks a spurious f^(−2) into every annulus — and
// transformed by a radix-2 FFT; |F|² is then averaged over annuli one
// frequency step wide.
func PowerSpectrum(m *terrain.Heightmap) (Spectrum, error) {
	side := min(m.Width, m.Height)
	if side < minSpectrumSize {
		return Spectrum{}, fmt.Errorf("power spectrum: a %d×%d map is too small; it needs at least %d×%d samples", m.Width, m.Height, minSpectrumSize, minSpectrumSize)
	}
	n := 1 << (bits.Len(uint(side)) - 1)

	mean := 0.0
	for row := range n {
		for _, v := range m.Samples[row*m.Width : row*m.Width+n] {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return Spectrum{}, errors.New("power spectrum: the map has heights that are not finite numbers")
			}
			mean += float64(v)
		}
	}
	mean /= float64(n * n)

	window := make([]float64, n)
	windowEnergy := 0.0 // Σ w(i)² over one axis
	for i := range window {
		window[i] = 0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(n))
		windowEnergy += window[i] * window[i]
	}
	grid := make([]complex128, n*n)
	for row := range n {
		for col := range n {
			h := float64(m.Samples[row*m.Width+col]) - mean
			grid[row*n+col] = complex(h*window[row]*window[col], 0)
		}
	}
	fft2D(grid, n)

	annuli := n / 2
	s := Spectrum{Size: n, Freq: make([]float64, annuli), Power: make([]float64, annuli), Count: make([]int, annuli)}
	scale := 1 / (windowEnergy * windowEnergy) // Σ over the 2-D window's w²
	for row := range n {
		ky := row
		if ky > n/2 {
			ky -= n // frequencies past N/2 are the negative ones
		}
		for col := range n {
			kx := col
			if kx > n/2 {
				kx -= n
			}
			k := int(math.Round(math.Hypot(float64(kx), float64(ky))))
			if k < 1 || k > annuli {
				continue // the mean, and the corners past the Nyquist circle
			}
			c := grid[row*n+col]
			s.Power[k-1] += (real(c)*real(c) + imag(c)*imag(c)) * scale
			s.Count[k-1]++
		}
	}
	for k := range s.Freq {
		s.Freq[k] = float64(k+1) / float64(n)
		s.Power[k] /= float64(s.Count[k])
	}
	return s, nil
}

// SpectrumFit is a straight line fitted to log₁₀ P against log₁₀ f.
type SpectrumFit struct {
	FMin, FMax float64 // the band fitted, cycles per sample
	Slope      float64 // d log P / d log f; fBm theory: −(2H+2)
	Intercept  float64 // log₁₀ P at f = 1 cycle per sample
	Points     int     // annuli in the band
}

// At returns the fitted line's power at frequency f.
func (fit SpectrumFit) At(f float64) float64 {
	return math.Pow(10, fit.Intercept+fit.Slope*math.Log10(f))
}

// DefaultFitBand is the band of frequencies, in cycles per sample, where
// the spectrum of a generated map of transform side n follows its power
// law. Two effects bend the spectrum away from it, one at each end:
//
//   - Low frequencies: there are few coefficients per annulus there, so
//     the average is noisy; the Hann window blurs each coefficient over
//     ±2 frequency steps; and below the largest features (the first
//     octave) there is nothing but the flat bottom of Perlin noise's own
//     spectrum. The band starts at 8 steps, 8/n, three octaves above the
//     lowest frequency (but at most 1/32, so that small maps keep two
//     octaves, and at least 2/n).
//   - High frequencies: near the Nyquist frequency ½ a point-sampled map
//     aliases — octaves finer than two samples fold back as a flat floor
//     that flattens the tail, most for rough (small H) maps and for
//     octaves past the Nyquist frequency — and a map with too few octaves
//     has no power above its finest one. The band stops at ⅛, two octaves
//     below Nyquist, which an fBm reaches with f₀·λ^(n−1) ≥ ¼.
//
// For a 1025² fBm with feature size 100 % (first octave at 1/1025) and 10
// octaves (finest at ½) that is [1/128, 1/8], four octaves of frequency
// where the fitted slope is within 0.15 of −(2H+2) for H from 0.3 to 1
// (TestSpectrumSlopeFBm). With a smaller feature size the first octave is
// at a higher frequency, and the band should start a few steps above it.
func DefaultFitBand(n int) (fmin, fmax float64) {
	fmax = 1.0 / 8
	fmin = max(2/float64(n), min(8/float64(n), 1.0/32))
	return fmin, fmax
}

// Fit fits a straight line to log₁₀ P(f) over the annuli with
// fmin ≤ f ≤ fmax by weighted least squares. The annuli are evenly spaced
// in f, so an octave near fmax holds many more of them than one near fmin;
// each is weighted by 1/f so that every octave of frequency counts the same.
// Annuli with no power (a flat map) are skipped; fewer than three left is
// an error.
func (s Spectrum) Fit(fmin, fmax float64) (SpectrumFit, error) {
	if !(fmin > 0 && fmax > fmin) || math.IsInf(fmax, 0) {
		return SpectrumFit{}, fmt.Errorf("spectrum fit: band [%g, %g] must satisfy 0 < fmin < fmax", fmin, fmax)
	}
	var sw, sx, sy, sxx, sxy float64
	points := 0
	for k, f := range s.Freq {
		if f < fmin || f > fmax || !(s.Power[k] > 0) {
			continue
		}
		w := 1 / f
		x, y := math.Log10(f), math.Log10(s.Power[k])
		sw += w
		sx += w * x
		sy += w * y
		sxx += w * x * x
		sxy += w * x * y
		points++
	}
	if points < 3 {
		return SpectrumFit{}, fmt.Errorf("spectrum fit: only %d annuli with power in the band [%g, %g] cycles per sample of a %d×%d transform; need 3 (a larger map, a wider band, or a map that is not flat)", points, fmin, fmax, s.Size, s.Size)
	}
	det := sw*sxx - sx*sx
	slope := (sw*sxy - sx*sy) / det
	return SpectrumFit{FMin: fmin, FMax: fmax, Slope: slope, Intercept: (sy - slope*sx) / sw, Points: points}, nil
}

// fft2D transforms the n×n row-major grid in place: every row, then every
// column. n must be a power of two.
func fft2D(grid []complex128, n int) {
	for row := range n {
		fft(grid[row*n : (row+1)*n])
	}
	col := make([]complex128, n)
	for c := range n {
		for r := range n {
			col[r] = grid[r*n+c]
		}
		fft(col)
		for r := range n {
			grid[r*n+c] = col[r]
		}
	}
}

// fft is the iterative radix-2 Cooley–Tukey transform
// F(k) = Σ x(j)·e^(−2πi·jk/n), in place; len(x) must be a power of two.
func fft(x []complex128) {
	n := len(x)
	shift := 64 - bits.Len(uint(n-1)) // bit-reversal of log₂ n bits
	for i := range x {
		if j := int(bits.Reverse64(uint64(i)) >> shift); j > i {
			x[i], x[j] = x[j], x[i]
		}
	}
	for size := 2; size <= n; size *= 2 {
		step := cmplx.Exp(complex(0, -2*math.Pi/float64(size)))
		for start := 0; start < n; start += size {
			w := complex(1, 0)
			for k := range size / 2 {
				a, b := x[start+k], w*x[start+k+size/2]
				x[start+k], x[start+k+size/2] = a+b, a-b
				w *= step
			}
		}
	}
}
