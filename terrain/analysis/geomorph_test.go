package analysis

import (
	"cordillera/terrain"
	"math"
	"math/cmplx"
	"math/rand"
	"testing"
)

// metricMap is a w×h map of heights in metres given by f, cellSize metres
// apart.
func metricMap(w, h int, cellSize float64, f func(col, row int) float64) *terrain.Heightmap {
	m := reliefMap(w, h, 1, f)
	m.CellSize = cellSize
	return m
}

func geomorph(t *testing.T, m *terrain.Heightmap, channelArea float64) (Geomorphometry, *Flow) {
	t.Helper()
	g, f, err := Geomorph(m, channelArea)
	if err != nil {
		t.Fatal(err)
	}
	return g, f
}

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// A plane rising 0.3 m a metre eastwards has the slope atan 0.3 on every
// cell, and its heights are spread evenly between lowest and highest: the
// hypsometric integral of a plane is ½.
func TestGeomorphTiltedPlane(t *testing.T) {
	g, _ := geomorph(t, metricMap(40, 30, 5, func(col, _ int) float64 { return 0.3 * 5 * float64(col) }), 0)
	want := math.Atan(0.3) * 180 / math.Pi // 16.699°
	if !near(g.SlopeMeanDeg, want, 1e-4) || !near(g.SlopeP90Deg, want, 1e-4) {
		t.Errorf("slope mean %.5f° p90 %.5f°, want %.5f° both", g.SlopeMeanDeg, g.SlopeP90Deg, want)
	}
	if !near(g.HypsometricIntegral, 0.5, 1e-6) {
		t.Errorf("hypsometric integral %.6f, want 0.5", g.HypsometricIntegral)
	}
	if !near(g.ReliefM, 0.3*5*39, 1e-3) {
		t.Errorf("relief %.3f m, want %.3f", g.ReliefM, 0.3*5*39)
	}
}

// A cone z = 500 − 0.5·r falls at atan ½ = 26.565° in every direction but
// at its apex; Horn's kernel is exact on it away from the apex, so the
// 90th percentile is that angle and the mean a little below it (the few
// cells around the apex are flatter).
func TestGeomorphCone(t *testing.T) {
	const cell = 2.0
	g, _ := geomorph(t, metricMap(101, 101, cell, func(col, row int) float64 {
		return 500 - 0.5*cell*math.Hypot(float64(col-50), float64(row-50))
	}), 0)
	want := math.Atan(0.5) * 180 / math.Pi
	if !near(g.SlopeP90Deg, want, 0.01) {
		t.Errorf("slope p90 %.4f°, want %.4f°", g.SlopeP90Deg, want)
	}
	if !near(g.SlopeMeanDeg, want, 0.1) || g.SlopeMeanDeg > want {
		t.Errorf("slope mean %.4f°, want a little below %.4f°", g.SlopeMeanDeg, want)
	}
	// The mean distance from the centre of a square of half side a is
	// a·(√2 + ln(1+√2))/3 and the corners are √2·a away, so a cone over the
	// square has HI = 1 − (√2 + ln(1+√2))/(3√2) = 0.4589.
	if want := 1 - (math.Sqrt2+math.Log(1+math.Sqrt2))/(3*math.Sqrt2); !near(g.HypsometricIntegral, want, 0.01) {
		t.Errorf("hypsometric integral %.4f, want a cone's %.4f", g.HypsometricIntegral, want)
	}
}

// vValley is a valley running south down the middle column of a w×h map:
// its sides rise side metres a cell away from it, and its floor falls
// floor(row) metres at row row. The sides are steep enough that every
// side cell drains straight across to the floor.
func vValley(w, h int, cell, side float64, floor func(row int) float64) *terrain.Heightmap {
	mid := w / 2
	return metricMap(w, h, cell, func(col, row int) float64 {
		return floor(row) + side*math.Abs(float64(col-mid))
	})
}

// A V valley 21 cells wide and 50 long with 10 m cells: the floor cell in
// row r drains the r+1 rows above and beside it, (r+1)·21 cells, and a
// side cell at most the 10 beside it, so with a threshold of 21 cells the
// channel is the whole floor: 50 cells, 49 links of 10 m, on a map of
// 21·50·100 m².
func TestGeomorphVValleyDrainageDensity(t *testing.T) {
	const w, h, cell = 21, 50, 10.0
	m := vValley(w, h, cell, 5, func(row int) float64 { return 0.5 * float64(h-1-row) })
	g, f := geomorph(t, m, w*cell*cell)
	if g.ChannelCells != h {
		t.Errorf("%d channel cells, want %d (the valley floor)", g.ChannelCells, h)
	}
	if want := (h - 1) * cell; !near(g.ChannelLengthM, want, 1e-9) {
		t.Errorf("channel length %g m, want %g", g.ChannelLengthM, want)
	}
	if want := (h - 1) * cell / (w * h * cell * cell); !near(g.DrainageDensity, want, 1e-12) {
		t.Errorf("drainage density %.6g /m, want %.6g", g.DrainageDensity, want)
	}
	outlet := (h-1)*w + w/2
	if f.Receiver[outlet] != -1 || !near(f.Area[outlet], w*h*cell*cell, 1e-6) {
		t.Errorf("outlet drains to %d with %g m², want off the map with all %g m²", f.Receiver[outlet], f.Area[outlet], w*h*cell*cell)
	}
	// The longest path to the outlet starts at a corner: 10 cells across,
	// then 49 down the floor.
	if want := (10 + 49) * cell; !near(f.Length[outlet], want, 1e-9) {
		t.Errorf("longest flow path to the outlet %g m, want %g", f.Length[outlet], want)
	}
}

// A valley floor built to obey S = A^(−0.5) exactly: the floor cell of row
// r drains A = (r+1)·w·cell² and falls cell·A^(−0.5) to the next row. The
// fit must recover θ = 0.5 and ks = 1.
func TestGeomorphConcavity(t *testing.T) {
	const w, h, cell = 41, 300, 10.0
	floor := make([]float64, h)
	for r := h - 2; r >= 0; r-- {
		a := float64(r+1) * w * cell * cell
		floor[r] = floor[r+1] + cell*math.Pow(a, -0.5)
	}
	g, _ := geomorph(t, vValley(w, h, cell, 2, func(row int) float64 { return floor[row] }), w*cell*cell)
	if !near(g.Concavity, 0.5, 0.005) || !near(g.Steepness, 1, 0.03) {
		t.Errorf("concavity θ %.4f, ks %.4f over %d bins; want 0.5 and 1", g.Concavity, g.Steepness, g.ConcavityBins)
	}
	// Heights rounded to 5 cm, as a DEM stores them: the lower floor falls
	// 0 or 5 cm from one cell to the next, and only slopes read over a
	// reach of several steps keep the relation.
	rounded := vValley(w, h, cell, 2, func(row int) float64 { return math.Round(floor[row]/0.05) * 0.05 })
	g, _ = geomorph(t, rounded, w*cell*cell)
	if !near(g.Concavity, 0.5, 0.05) {
		t.Errorf("heights rounded to 5 cm: concavity θ %.4f over %d bins, want 0.5", g.Concavity, g.ConcavityBins)
	}
	// A floor of constant slope has no concavity.
	g, _ = geomorph(t, vValley(w, h, cell, 2, func(row int) float64 { return 0.05 * cell * float64(h-1-row) }), w*cell*cell)
	if !near(g.Concavity, 0, 0.005) {
		t.Errorf("straight floor: concavity θ %.4f, want 0", g.Concavity)
	}
}

// On a plane falling south every column is a line of flow: the cell in
// row r drains A = (r+1) cells and the longest path to it is r cells, so
// L ∝ A nearly and Hack's exponent is close to 1 (a little above: L = A − 1
// in cells).
func TestGeomorphHackOnAPlane(t *testing.T) {
	const w, h, cell = 20, 400, 3.0
	g, _ := geomorph(t, metricMap(w, h, cell, func(_, row int) float64 { return 0.2 * float64(h-1-row) }), 10*cell*cell)
	if !(g.HackExponent >= 1 && g.HackExponent < 1.05) {
		t.Errorf("Hack exponent %.4f over %d bins, want just above 1", g.HackExponent, g.HackBins)
	}
	if g.ChannelCells != w*(h-9) {
		t.Errorf("%d channel cells, want %d", g.ChannelCells, w*(h-9))
	}
}

// The spectral exponent of surfaces made by spectral synthesis with a known
// Hurst exponent H (Saupe 1988: coefficient (k, l) of amplitude
// (k²+l²)^(−(H+1)/2), random phase) is 2H + 2.
func TestGeomorphSpectralExponent(t *testing.T) {
	for _, hurst := range []float64{0.3, 0.5, 0.8} {
		m := spectralFBm(256, hurst, 7)
		m.CellSize = 30
		g, _ := geomorph(t, m, 0)
		if want := 2*hurst + 2; !near(g.SpectralExponent, want, 0.15) {
			t.Errorf("H %.1f: spectral exponent %.3f, want %.2f", hurst, g.SpectralExponent, want)
		}
	}
}

// spectralFBm is an n×n fBm surface by spectral synthesis, heights scaled
// to [0, 1] and VerticalScale 1000 m.
func spectralFBm(n int, hurst float64, seed int64) *terrain.Heightmap {
	rng := rand.New(rand.NewSource(seed))
	grid := make([]complex128, n*n)
	for row := range n {
		ky := row
		if ky > n/2 {
			ky -= n
		}
		for col := range n {
			kx := col
			if kx > n/2 {
				kx -= n
			}
			if kx == 0 && ky == 0 {
				continue
			}
			amp := math.Pow(float64(kx*kx+ky*ky), -(hurst+1)/2) * rng.NormFloat64()
			grid[row*n+col] = cmplx.Rect(amp, 2*math.Pi*rng.Float64())
		}
	}
	fft2D(grid, n) // the inverse up to conjugation and scale, which the real part does not see
	m := terrain.NewHeightmap(n, n)
	for i, c := range grid {
		m.Samples[i] = float32(real(c))
	}
	lo, hi := m.Range()
	for i, v := range m.Samples {
		m.Samples[i] = (v - lo) / (hi - lo)
	}
	m.VerticalScale = 1000
	return m
}

// The flow routing against slow, straightforward oracles on small random
// maps full of pits and flats: the fill equals the lowest pit-free surface
// (Planchon & Darboux's iteration, without the ε); every cell but an
// outlet drains to a strictly lower neighbour; and each cell's area and
// longest path equal those found by walking down from every cell.
func TestRouteFlowAgainstOracles(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for trial := range 20 {
		w, h := 5+rng.Intn(20), 5+rng.Intn(20)
		m := metricMap(w, h, 1+rng.Float64()*30, func(int, int) float64 {
			return float64(rng.Intn(6)) * 10 // few levels: many flats
		})
		f, err := RouteFlow(m)
		if err != nil {
			t.Fatal(err)
		}
		lake := planchonDarboux(f.Elevation, w, h)
		area := make([]float64, w*h)
		length := make([]float64, w*h)
		for i := range w * h {
			if f.Filled[i] < f.Elevation[i] || f.Filled[i]-lake[i] > 1e-9 || f.Filled[i] < lake[i] {
				t.Fatalf("trial %d: cell %d filled to %g, height %g, lowest pit-free surface %g", trial, i, f.Filled[i], f.Elevation[i], lake[i])
			}
			r := f.Receiver[i]
			edge := i%w == 0 || i/w == 0 || i%w == w-1 || i/w == h-1
			if r < 0 && !edge {
				t.Fatalf("trial %d: interior cell %d has no receiver", trial, i)
			}
			if r >= 0 && !(f.Filled[r] < f.Filled[i]) {
				t.Fatalf("trial %d: cell %d drains to %d, not lower", trial, i, r)
			}
			// Walk down from i: every cell on the way drains i's area.
			dist := 0.0
			for c := int32(i); c >= 0; c = f.Receiver[c] {
				area[c] += f.CellSize * f.CellSize
				length[c] = max(length[c], dist)
				if r := int(f.Receiver[c]); r >= 0 {
					dist += f.CellSize * math.Hypot(float64(r%w-int(c)%w), float64(r/w-int(c)/w))
				}
			}
		}
		for i := range w * h {
			if !near(f.Area[i], area[i], 1e-6*area[i]) || !near(f.Length[i], length[i], 1e-9) {
				t.Fatalf("trial %d: cell %d area %g length %g, the walks give %g and %g", trial, i, f.Area[i], f.Length[i], area[i], length[i])
			}
		}
	}
}

// planchonDarboux is the lowest surface at or above z in which every cell
// can reach the edge without climbing: start from +∞ inside, the heights
// on the edge, and lower each cell to max(z, its lowest neighbour) until
// nothing changes.
func planchonDarboux(z []float64, w, h int) []float64 {
	out := make([]float64, len(z))
	for i := range out {
		out[i] = math.Inf(1)
		if i%w == 0 || i/w == 0 || i%w == w-1 || i/w == h-1 {
			out[i] = z[i]
		}
	}
	for changed := true; changed; {
		changed = false
		for i := range out {
			col, row := i%w, i/w
			for _, d := range d8 {
				nc, nr := col+d[0], row+d[1]
				if nc < 0 || nr < 0 || nc >= w || nr >= h {
					continue
				}
				if v := max(z[i], out[nr*w+nc]); v < out[i] {
					out[i], changed = v, true
				}
			}
		}
	}
	return out
}

func TestGeomorphErrors(t *testing.T) {
	m := metricMap(10, 10, 1, func(col, _ int) float64 { return float64(col) })
	for _, area := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, _, err := Geomorph(m, area); err == nil {
			t.Errorf("channel area %g: no error", area)
		}
	}
	if _, _, err := Geomorph(metricMap(2, 9, 1, func(int, int) float64 { return 0 }), 0); err == nil {
		t.Error("2×9 map: no error")
	}
	bad := metricMap(10, 10, 0, func(int, int) float64 { return 0 })
	if _, _, err := Geomorph(bad, 0); err == nil {
		t.Error("cell size 0: no error")
	}
	bad = metricMap(10, 10, 1, func(int, int) float64 { return math.NaN() })
	if _, _, err := Geomorph(bad, 0); err == nil {
		t.Error("NaN heights: no error")
	}
}

// A 10×10 pit dug 5 m into a plane falling 0.5 m a row south fills to its
// lowest rim: exactly its 100 cells are raised, and none of them counts as
// a channel although the inflow gathered across the lake bed passes the
// threshold there.
func TestGeomorphLakeIsNotAChannel(t *testing.T) {
	const w, h = 30, 60
	inPit := func(col, row int) bool { return col >= 10 && col < 20 && row >= 20 && row < 30 }
	m := metricMap(w, h, 1, func(col, row int) float64 {
		z := 0.5 * float64(h-1-row)
		if inPit(col, row) {
			z -= 5
		}
		return z
	})
	g, f := geomorph(t, m, 10)
	if want := 100.0 / (w * h); g.FilledFraction != want {
		t.Errorf("filled fraction %g, want %g (the pit's cells)", g.FilledFraction, want)
	}
	gathered := 0
	for i := range f.Area {
		if inPit(i%w, i/w) {
			if f.IsChannel(i, 10) {
				t.Fatalf("pit cell (%d, %d) counted as a channel", i%w, i/w)
			}
			if f.Area[i] >= 10 {
				gathered++
			}
		}
	}
	if gathered == 0 {
		t.Error("no pit cell gathers the channel area: the test does not test the rule")
	}
}

// The nearest-rank percentile: the 90th of 1…10 is 9, of 1…100 is 90, of
// one value that value.
func TestPercentileRank(t *testing.T) {
	for _, tc := range []struct{ n, want int }{{10, 8}, {100, 89}, {1, 0}, {11, 9}} {
		if got := percentileRank(tc.n, 0.9); got != tc.want {
			t.Errorf("percentileRank(%d, 0.9) = %d, want %d", tc.n, got, tc.want)
		}
	}
}
