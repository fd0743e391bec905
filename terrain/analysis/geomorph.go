package analysis

import (
	"cordillera/terrain"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Geomorphometry: the numbers a geomorphologist reads off a DEM to tell
// a landscape carved by rivers from a noise field — how steep it is, how
// its volume sits between its lowest and highest point, how densely
// channels dissect it, and the power laws that relate a river's slope and
// length to the area it drains. docs/analyze.md gives the definitions with
// values for real DEMs beside them.

// DefaultChannelArea is the drainage area, in m², above which a cell is
// counted as a channel: 0.1 km², within the 0.01–1 km² range at which
// channel heads are mapped in the field (Montgomery & Dietrich 1988).
const DefaultChannelArea = 1e5

// Geomorphometry holds the statistics of one map. A statistic that cannot
// be measured (a fit with too few points, a map too small for a
// spectrum) is NaN.
type Geomorphometry struct {
	Width, Height int
	CellSize      float64 // metres
	ReliefM       float64 // highest minus lowest height, metres

	// SlopeMeanDeg and SlopeP90Deg are the mean and the 90th percentile
	// (nearest rank) of the slope angle atan|∇z| in degrees over the
	// interior cells, ∇z by Horn's 3×3 kernel (as gdaldem slope).
	SlopeMeanDeg, SlopeP90Deg float64

	// HypsometricIntegral is (mean − min)/(max − min) of the heights
	// (Strahler 1952; Pike & Wilson 1971): near 1 a plateau cut by few
	// valleys, 0.5 a plane, near 0 a plain with a few peaks.
	HypsometricIntegral float64

	// FilledFraction is the share of cells the depression filling raised:
	// pits, closed basins and flats, where the map holds water as lakes
	// rather than draining it. A real DEM has a few per cent (noise,
	// lakes, flat valley floors).
	FilledFraction float64

	// ChannelArea is the threshold in m²; ChannelCells the cells whose
	// drainage area reaches it, lakes (filled cells) left out;
	// ChannelLengthM the summed D8 links from each channel cell to the
	// next, metres.
	ChannelArea    float64
	ChannelCells   int
	ChannelLengthM float64
	// DrainageDensity is ChannelLengthM over the map's area
	// (Width·Height·CellSize²), in 1/m.
	DrainageDensity float64

	// Concavity is θ in the slope–area relation S = ks·A^(−θ) (Flint
	// 1974), fitted over the channel cells; Steepness is ks (m^(2θ)).
	// ConcavityBins is the number of area bins the fit used.
	Concavity, Steepness float64
	ConcavityBins        int

	// HackExponent is h in L ∝ A^h (Hack 1957), L the longest flow path
	// to each channel cell and A its drainage area, fitted over the channel
	// cells; HackBins the number of area bins.
	HackExponent float64
	HackBins     int

	// SpectralExponent is β in P(f) ∝ f^(−β), the radially averaged power
	// spectrum (PowerSpectrum) fitted over DefaultFitBand; an fBm surface
	// with Hurst exponent H has β = 2H + 2.
	SpectralExponent float64
}

// Geomorph measures the map's geomorphometric statistics with channels
// where the drainage area is at least channelArea m² (DefaultChannelArea
// when 0). The flow routing it used is returned too, for pictures.
func Geomorph(m *terrain.Heightmap, channelArea float64) (Geomorphometry, *Flow, error) {
	if channelArea == 0 {
		channelArea = DefaultChannelArea
	}
	if !(channelArea > 0) || math.IsInf(channelArea, 0) {
		return Geomorphometry{}, nil, fmt.Errorf("geomorphometry: channel area %g m²: want a positive number", channelArea)
	}
	f, err := RouteFlow(m)
	if err != nil {
		return Geomorphometry{}, nil, err
	}
	g := Geomorphometry{Width: m.Width, Height: m.Height, CellSize: m.CellSize, ChannelArea: channelArea}
	g.SlopeMeanDeg, g.SlopeP90Deg = slopeStats(f)
	lo, hi := slices.Min(f.Elevation), slices.Max(f.Elevation)
	g.ReliefM = hi - lo
	g.HypsometricIntegral = math.NaN()
	if hi > lo {
		mean := 0.0
		for _, z := range f.Elevation {
			mean += z
		}
		mean /= float64(len(f.Elevation))
		g.HypsometricIntegral = (mean - lo) / (hi - lo)
	}

	minDrop := reachDrops * heightStep(f.Elevation)
	var area, slope []float64          // of the channel cells with a drop
	var hackArea, hackLength []float64 // of every channel cell
	filled := 0
	for i, a := range f.Area {
		if f.Filled[i] > f.Elevation[i] {
			filled++
		}
		if !f.IsChannel(i, channelArea) {
			continue
		}
		g.ChannelCells++
		link := f.linkLength(int32(i))
		g.ChannelLengthM += link
		hackArea = append(hackArea, a)
		hackLength = append(hackLength, f.Length[i])
		if s := f.channelSlope(int32(i), minDrop); s > 0 {
			area = append(area, a)
			slope = append(slope, s)
		}
	}
	g.FilledFraction = float64(filled) / float64(len(f.Area))
	g.DrainageDensity = g.ChannelLengthM / (float64(m.Width*m.Height) * m.CellSize * m.CellSize)

	g.Concavity, g.Steepness = math.NaN(), math.NaN()
	if fit, err := binnedPowerLaw(area, slope); err == nil {
		g.Concavity, g.Steepness, g.ConcavityBins = -fit.exponent, fit.coefficient, fit.bins
	}
	g.HackExponent = math.NaN()
	if fit, err := binnedPowerLaw(hackArea, hackLength); err == nil {
		g.HackExponent, g.HackBins = fit.exponent, fit.bins
	}
	g.SpectralExponent = math.NaN()
	if s, err := PowerSpectrum(m); err == nil {
		if fit, err := s.Fit(DefaultFitBand(s.Size)); err == nil {
			g.SpectralExponent = -fit.Slope
		}
	}
	return g, f, nil
}

// IsChannel reports whether cell i is a channel: its drainage area is at
// least channelArea m² and the depression filling left it at its height.
// A filled cell is under a lake: the ε surface the filling leaves there
// routes the inflow across the lake bed by parallel lines all of which
// gather area, and counting them would count the lake's area as river
// length.
func (f *Flow) IsChannel(i int, channelArea float64) bool {
	return f.Area[i] >= channelArea && f.Filled[i] == f.Elevation[i]
}

// reachDrops is how many of the DEM's height steps a channel must fall
// before its slope is read: the slope over a reach of at least 10 steps is
// off by at most a tenth for the rounding of the heights.
const reachDrops = 10

// channelSlope is the channel slope at cell i: the fall of the heights as
// they are (not the filled ones, which fall by ε across a lake) from i
// down its flow path to the first cell at least minDrop lower, over the
// path's length. A DEM stores heights rounded to a step (SRTM to 1 m):
// from one cell to the next a river on 30 m cells falls 0 or 1 m, a
// slope of 0 or 0.033 and nothing between, which flattens the slope–area
// relation. With a step finer than the slopes (a generated map's floats)
// the reach is one link. 0 when the path leaves the map first.
func (f *Flow) channelSlope(i int32, minDrop float64) float64 {
	length := 0.0
	for j := i; f.Receiver[j] >= 0; j = f.Receiver[j] {
		length += f.linkLength(j)
		if drop := f.Elevation[i] - f.Elevation[f.Receiver[j]]; drop >= minDrop && drop > 0 {
			return drop / length
		}
	}
	return 0
}

// heightStep is the smallest difference between two distinct heights of
// the map: the step its heights are rounded to (1 m for SRTM, the span
// over 65535 for a 16-bit PNG), or less where they are not rounded.
func heightStep(z []float64) float64 {
	sorted := slices.Clone(z)
	slices.Sort(sorted)
	step := math.Inf(1)
	for k := 1; k < len(sorted); k++ {
		if d := sorted[k] - sorted[k-1]; d > 0 {
			step = min(step, d)
		}
	}
	if math.IsInf(step, 1) {
		return 0
	}
	return step
}

// slopeStats returns the mean and 90th percentile of the slope angle in
// degrees over the interior cells (the edge cells lack a neighbour on one
// side; gdaldem leaves them out too). Horn's kernel on the window
//
//	a b c
//	d e f
//	g h i
//
// gives ∂z/∂x = ((c + 2f + i) − (a + 2d + g)) / 8Δ and ∂z/∂y = ((g + 2h + i)
// − (a + 2b + c)) / 8Δ (Horn 1981).
func slopeStats(f *Flow) (mean, p90 float64) {
	w, h, z := f.Width, f.Height, f.Elevation
	angles := make([]float64, 0, (w-2)*(h-2))
	for row := 1; row < h-1; row++ {
		for col := 1; col < w-1; col++ {
			at := func(dc, dr int) float64 { return z[(row+dr)*w+col+dc] }
			dzdx := (at(1, -1) + 2*at(1, 0) + at(1, 1) - at(-1, -1) - 2*at(-1, 0) - at(-1, 1)) / (8 * f.CellSize)
			dzdy := (at(-1, 1) + 2*at(0, 1) + at(1, 1) - at(-1, -1) - 2*at(0, -1) - at(1, -1)) / (8 * f.CellSize)
			a := math.Atan(math.Hypot(dzdx, dzdy)) * 180 / math.Pi
			angles = append(angles, a)
			mean += a
		}
	}
	mean /= float64(len(angles))
	slices.Sort(angles)
	return mean, angles[percentileRank(len(angles), 0.9)]
}

// percentileRank is the index of the p-th quantile in n sorted values by
// the nearest-rank definition: the ⌈p·n⌉-th value.
func percentileRank(n int, p float64) int {
	return max(int(math.Ceil(p*float64(n)))-1, 0)
}

// powerLaw is y = coefficient · x^exponent fitted in log-log.
type powerLaw struct {
	exponent, coefficient float64
	bins                  int
}

// Binning for the slope–area and Hack fits.
const (
	// binWidth is the width of an area bin in decades: ten bins a decade.
	binWidth = 0.1
	// minBinCells is the fewest channel cells a bin needs to be fitted: a
	// lone cell's slope is mostly the DEM's noise.
	minBinCells = 5
	// minBins is the fewest bins a fit needs.
	minBins = 3
)

// binnedPowerLaw fits log₁₀ y = log₁₀ c + e·log₁₀ x by least squares over
// bins 0.1 decade wide in x, each bin's point the mean of log₁₀ x and of
// log₁₀ y over its cells. Binning gives every range of drainage area the
// same weight: a map has many more small channels than large ones, and
// an unbinned fit would be the fit of the smallest.
func binnedPowerLaw(x, y []float64) (powerLaw, error) {
	if len(x) == 0 {
		return powerLaw{}, errors.New("no channel cells")
	}
	lo := math.Log10(slices.Min(x))
	type bin struct {
		n          int
		sumX, sumY float64
	}
	bins := map[int]*bin{}
	for k := range x {
		if !(y[k] > 0) {
			continue
		}
		lx := math.Log10(x[k])
		b := int((lx - lo) / binWidth)
		if bins[b] == nil {
			bins[b] = &bin{}
		}
		bins[b].n++
		bins[b].sumX += lx
		bins[b].sumY += math.Log10(y[k])
	}
	var sx, sy, sxx, sxy, n float64
	for _, b := range bins {
		if b.n < minBinCells {
			continue
		}
		bx, by := b.sumX/float64(b.n), b.sumY/float64(b.n)
		sx += bx
		sy += by
		sxx += bx * bx
		sxy += bx * by
		n++
	}
	if n < minBins {
		return powerLaw{}, fmt.Errorf("only %g area bins with %d channel cells; need %d", n, minBinCells, minBins)
	}
	det := n*sxx - sx*sx
	if det == 0 {
		return powerLaw{}, errors.New("every bin at one area")
	}
	e := (n*sxy - sx*sy) / det
	return powerLaw{exponent: e, coefficient: math.Pow(10, (sy-e*sx)/n), bins: int(n)}, nil
}
