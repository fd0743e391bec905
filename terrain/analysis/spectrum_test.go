package analysis

import (
	"cordillera/terrain"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"
)

// fft agrees with the definition F(k) = Σ x(j)·e^(−2πi·jk/n).
func TestFFTMatchesDFT(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 4, 8, 64} {
		x := make([]complex128, n)
		for i := range x {
			x[i] = complex(rng.NormFloat64(), rng.NormFloat64())
		}
		want := make([]complex128, n)
		for k := range want {
			for j, v := range x {
				want[k] += v * cmplx.Exp(complex(0, -2*math.Pi*float64(j*k)/float64(n)))
			}
		}
		fft(x)
		for k := range x {
			if cmplx.Abs(x[k]-want[k]) > 1e-9*float64(n) {
				t.Fatalf("n %d: F(%d) = %v, want %v", n, k, x[k], want[k])
			}
		}
	}
}

// A plane wave of 20 cycles across a 256² map puts its power into the
// annulus of 20 steps (the Hann window spreads it by at most 2).
func TestPowerSpectrumOfAWave(t *testing.T) {
	const n, cycles = 256, 20
	m := reliefMap(n, n, 1, func(col, row int) float64 {
		return math.Sin(2 * math.Pi * cycles * float64(3*col+4*row) / 5 / n)
	})
	s, err := PowerSpectrum(m)
	if err != nil {
		t.Fatal(err)
	}
	if s.Size != n || len(s.Freq) != n/2 {
		t.Fatalf("transform %d with %d annuli, want %d and %d", s.Size, len(s.Freq), n, n/2)
	}
	peak := 0
	for k := range s.Power {
		if s.Power[k] > s.Power[peak] {
			peak = k
		}
	}
	if got := s.Freq[peak] * n; got != cycles {
		t.Errorf("peak at %g cycles per map, want %d", got, cycles)
	}
	far := 0.0
	for k := range s.Power {
		if math.Abs(float64(k+1-cycles)) > 3 {
			far = max(far, s.Power[k])
		}
	}
	if far > 1e-6*s.Power[peak] {
		t.Errorf("power %g away from the wave, %g at it: the window leaks", far, s.Power[peak])
	}
}

// White noise has a flat spectrum: slope 0. A 1025² map is cropped to 1024².
func TestPowerSpectrumOfWhiteNoise(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	m := reliefMap(1025, 1025, 1, func(int, int) float64 { return rng.Float64() })
	s, err := PowerSpectrum(m)
	if err != nil {
		t.Fatal(err)
	}
	if s.Size != 1024 {
		t.Errorf("1025² map transformed at %d², want 1024²", s.Size)
	}
	fit, err := s.Fit(DefaultFitBand(s.Size))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(fit.Slope) > 0.1 {
		t.Errorf("white noise slope %.3f, want 0", fit.Slope)
	}
	// Parseval: the mean power is the variance of the heights (1/12 for
	// uniform noise), here taken over the annuli's averages.
	mean := 0.0
	for _, p := range s.Power {
		mean += p
	}
	mean /= float64(len(s.Power))
	if math.Abs(mean-1.0/12) > 0.01 {
		t.Errorf("mean power %.4f, want the variance 1/12 = %.4f", mean, 1.0/12)
	}
}

// The fitted slope of an fBm map matches −(2H+2), the spectral density of
// a fractional Brownian surface (spectrum.go). The maps are Perlin fBm with
// λ = 2 and feature size 100 %, so the first octave is at 1/1025 cycles per
// sample, and 10 octaves, so the finest is at the Nyquist frequency ½: the
// default band [1/128, 1/8] lies well inside the octaves and clear of the
// aliased tail. Measured: H 0.3 → −2.58, −2.50; H 0.5 → −2.96, −2.89;
// H 0.8 → −3.54, −3.49 (seeds 17, 18).
func TestSpectrumSlopeFBm(t *testing.T) {
	if testing.Short() {
		t.Skip("generates six 1025² maps")
	}
	slopes := map[float64]float64{}
	for _, hurst := range []float64{0.3, 0.5, 0.8} {
		for _, seed := range []int64{17, 18} {
			fit := fbmSpectrumFit(t, hurst, seed, 10)
			want := FBmSpectrumSlope(hurst)
			t.Logf("H %.1f seed %d: slope %.3f over %d annuli in [%g, %g], theory %.2f", hurst, seed, fit.Slope, fit.Points, fit.FMin, fit.FMax, want)
			if math.Abs(fit.Slope-want) > 0.3 {
				t.Errorf("H %.1f seed %d: fitted slope %.3f, theory −(2H+2) = %.2f", hurst, seed, fit.Slope, want)
			}
			slopes[hurst] = fit.Slope
		}
	}
	// The test can tell Hurst exponents apart: the rough map's slope does
	// not pass for the smooth one's theory, and the other way round.
	if d := math.Abs(slopes[0.8] - FBmSpectrumSlope(0.3)); d <= 0.3 {
		t.Errorf("the H 0.8 slope %.3f passes for the H 0.3 theory %.2f", slopes[0.8], FBmSpectrumSlope(0.3))
	}
	if d := math.Abs(slopes[0.3] - FBmSpectrumSlope(0.8)); d <= 0.3 {
		t.Errorf("the H 0.3 slope %.3f passes for the H 0.8 theory %.2f", slopes[0.3], FBmSpectrumSlope(0.8))
	}
}

// With too few octaves the fit band reaches past the finest octave, where
// there is no power, and the slope is far steeper than the theory: the band
// must lie inside the octaves for the measurement to mean anything.
func TestSpectrumSlopeNeedsTheOctaves(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 1025² map")
	}
	fit := fbmSpectrumFit(t, 0.5, 17, 6) // finest octave at 2⁵/1025 ≈ 1/32 < 1/8
	if fit.Slope > FBmSpectrumSlope(0.5)-1 {
		t.Errorf("6 octaves: slope %.3f, want far below the theory %.2f", fit.Slope, FBmSpectrumSlope(0.5))
	}
}

func fbmSpectrumFit(t *testing.T, hurst float64, seed int64, octaves int) SpectrumFit {
	t.Helper()
	p := terrain.DefaultParams()
	p.Algorithm, p.Basis, p.Lacunarity = terrain.FBm, "perlin", 2
	p.Size, p.FeatureSize, p.Octaves, p.Hurst, p.Seed = 1025, 100, octaves, hurst, seed
	s, err := PowerSpectrum(analysisMap(t, p))
	if err != nil {
		t.Fatal(err)
	}
	fit, err := s.Fit(DefaultFitBand(s.Size))
	if err != nil {
		t.Fatal(err)
	}
	return fit
}

func TestSpectrumErrors(t *testing.T) {
	if _, err := PowerSpectrum(terrain.NewHeightmap(15, 100)); err == nil {
		t.Error("a 15-sample-wide map gave a spectrum")
	}
	m := terrain.NewHeightmap(32, 32)
	m.Samples[5] = float32(math.NaN())
	if _, err := PowerSpectrum(m); err == nil {
		t.Error("a map with NaN gave a spectrum")
	}
	flat, err := PowerSpectrum(terrain.NewHeightmap(64, 64))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := flat.Fit(1.0/32, 1.0/4); err == nil {
		t.Error("a flat map's spectrum was fitted")
	}
	for _, band := range [][2]float64{{0, 0.1}, {0.2, 0.1}, {0.1, math.Inf(1)}, {math.NaN(), 0.1}} {
		if _, err := flat.Fit(band[0], band[1]); err == nil {
			t.Errorf("band %v accepted", band)
		}
	}
}

func TestDefaultFitBand(t *testing.T) {
	for _, tc := range []struct {
		n          int
		fmin, fmax float64
	}{
		{1024, 1.0 / 128, 1.0 / 8},
		{256, 1.0 / 32, 1.0 / 8},
		{128, 1.0 / 32, 1.0 / 8},
		{64, 1.0 / 32, 1.0 / 8},
		{32, 1.0 / 16, 1.0 / 8},
	} {
		if lo, hi := DefaultFitBand(tc.n); lo != tc.fmin || hi != tc.fmax {
			t.Errorf("DefaultFitBand(%d) = [%g, %g], want [%g, %g]", tc.n, lo, hi, tc.fmin, tc.fmax)
		}
	}
}
