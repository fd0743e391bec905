package route

import (
	"context"
	"cordillera/route/internal/corridor"
	"cordillera/route/track"
	"cordillera/terrain"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// switchbacks is a mountain track: eight 500 m legs 60 m apart climbing
// 1000 m (a 25 % grade) with 0.3 m of GPS noise, the shape of
// mojstrovka.gpx on a smaller scale.
func switchbacks() *track.Track {
	kLat := track.EarthRadius * math.Pi / 180
	kLon := kLat * math.Cos(46*math.Pi/180)
	rng := rand.New(rand.NewPCG(5, 6))
	var seg []track.Point
	for leg := range 8 {
		for i := range 50 {
			x := 10 * float64(i)
			if leg%2 == 1 {
				x = 500 - x
			}
			y := 60*float64(leg) + 60*float64(i)/50
			ele := 1200 + 1000*float64(leg*50+i)/400 + 8*math.Sin(float64(i)/5) + 0.3*rng.NormFloat64()
			seg = append(seg, track.Point{Lat: 46 + y/kLat, Lon: 14 + x/kLon, Ele: ele, HasEle: true})
		}
	}
	return &track.Track{Format: "synthetic", Segments: [][]track.Point{seg}}
}

// slopeP99 is the 99th percentile of the slope (rise over run, central
// differences at every interior sample) of heights m·scale metres on
// cells cellSize metres wide: the full-resolution oracle for the
// spectrum's evaluation points.
func slopeP99(m *terrain.Heightmap, scale, cellSize float64) float64 {
	var s []float64
	for y := 1; y < m.Height-1; y++ {
		for x := 1; x < m.Width-1; x++ {
			gx := float64(m.At(x+1, y)-m.At(x-1, y)) / 2
			gy := float64(m.At(x, y+1)-m.At(x, y-1)) / 2
			s = append(s, scale*math.Hypot(gx, gy)/cellSize)
		}
	}
	slices.Sort(s)
	return s[int(reliefSlopeQuant*float64(len(s)-1))]
}

// A steep mountain track keeps random relief well above minRelief while
// the map keeps the relief rule: the height range within the bound, and
// the random relief (the map less the interpolant of the points) no
// steeper than the track, checked at every sample. The interpolant alone
// is steeper than the track here (across the switchbacks), which made a
// single amplitude fall to minRelief: the map was the interpolant's
// smooth blobs (korita-zbevnica.gpx, mojstrovka.gpx).
func TestMountainTrackKeepsRelief(t *testing.T) {
	const size, levels = 513, 7
	path, err := track.Prepare(switchbacks(), track.Options{Size: size, Margin: 0.1, MinCellSize: 1, MedianWindow: 5})
	if err != nil {
		t.Fatal(err)
	}
	spacing := solveSpacing(path, float64(size-1)/float64(cells(levels-1)))
	bounds := newReliefBounds(path, spacing, 1)
	m, fit, err := routeTerrain(context.Background(), routeProblem{size: size, levels: levels, interp: terrain.Bilinear, seed: 17, path: path.Resample(spacing), spacing: spacing, relief: 1, bounds: bounds}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The random lattice: the map's lattice less the interpolant of the
	// targets, Aᵀ(AAᵀ)⁻¹T (constrain from a zero lattice).
	interp := fit.turb.zeroed()
	targets := make([]float64, len(fit.cons))
	for i, c := range fit.cons {
		targets[i] = c.T
	}
	interp.constrain(fit.sys, targets)
	random := fit.turb.zeroed()
	for n := range random.values {
		for k := range random.values[n] {
			random.values[n][k] = fit.turb.values[n][k] - interp.values[n][k]
		}
	}
	mR, err := random.render(context.Background(), nil, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	mI, err := interp.render(context.Background(), nil, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := m.Range()
	rng := fit.amp * float64(hi-lo)
	slopeR := slopeP99(mR, fit.amp, path.CellSize)
	slopeI := slopeP99(mI, fit.amp, path.CellSize)
	t.Logf("%.2f m/cell: amplitude %.0f m (fitted %.0f), falloff %.2f; range %.0f m (bound %.0f); slope p99: random %.3f, interpolant %.3f (bound %.3f)",
		path.CellSize, fit.amp, fit.fitted, fit.beta, rng, bounds.MaxRange, slopeR, slopeI, bounds.MaxSlope)
	if fit.amp < 50*minRelief {
		t.Errorf("amplitude %.1f m: the random relief was cut to the floor", fit.amp)
	}
	if rng > bounds.MaxRange*1.001 {
		t.Errorf("range %.0f m beyond the rule's %.0f m", rng, bounds.MaxRange)
	}
	// The rule is judged on a 128² grid of points: 5 % for what the
	// grid does not see.
	if slopeR > 1.05*bounds.MaxSlope {
		t.Errorf("random relief's slope p99 %.3f beyond the track's %.3f", slopeR, bounds.MaxSlope)
	}
	if slopeI <= bounds.MaxSlope {
		t.Errorf("interpolant's slope p99 %.3f within the track's %.3f: the test no longer reaches the case it is for", slopeI, bounds.MaxSlope)
	}
	for _, c := range fit.cons {
		if e := math.Abs(corridor.Bilinear(m, c.X, c.Y) - c.T); e > 1e-3*float64(hi-lo) {
			t.Fatalf("point (%.1f, %.1f) missed by %.2g of the range", c.X, c.Y, e/float64(hi-lo))
		}
	}
}

// The spectrum's point evaluation (turbulence.at, the straightforward
// oracle) agrees with the rendered maps at its points, and its weighted
// heights with a render of the weighted lattice.
func TestSpectrumMatchesRender(t *testing.T) {
	const size = 129
	a, _ := newTurbulence(size, 5, terrain.Quintic, 3)
	b, _ := newTurbulence(size, 5, terrain.Quintic, 4)
	c, _ := newTurbulence(size, 5, terrain.Quintic, 5)
	s, err := newSpectrum(context.Background(), size, a, []*turbulence{b, c}, func(h float64) float64 { return h })
	if err != nil {
		t.Fatal(err)
	}
	const amp, beta = 3.0, 0.5
	sum := a.zeroed()
	for n := range sum.values {
		for k := range sum.values[n] {
			sum.values[n][k] = a.values[n][k] + amp*b.values[n][k] + amp*beta*c.values[n][k]
		}
	}
	m, err := sum.render(context.Background(), nil, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	h := make([]float64, len(s.interp))
	s.heights(h, amp, beta)
	step := max(1, (size-1)/128)
	i := 0
	for y := 0; y < size; y += step {
		for x := 0; x < size; x += step {
			if d := math.Abs(h[i] - float64(m.At(x, y))); d > 1e-5 {
				t.Fatalf("(%d, %d): spectrum %.6f, render %.6f", x, y, h[i], m.At(x, y))
			}
			i++
		}
	}
	if i != s.nRange {
		t.Fatalf("%d range points, want %d", s.nRange, i)
	}
}

// The slope bound grows continuously with the track's steepness: the
// amplitude the rule allows never falls as the bound g rises, through
// the slope the interpolant alone has. (It fell from the full fitted
// amplitude to a fraction of it as g rose past the interpolant's slope:
// below, the random relief alone was held to g; above, the whole map.)
func TestSlopeBoundIsMonotone(t *testing.T) {
	const size = 129
	shape, _ := newTurbulence(size, 5, terrain.Quintic, 3)
	p1, _ := newTurbulence(size, 5, terrain.Quintic, 4)
	p2, _ := newTurbulence(size, 5, terrain.Quintic, 5)
	for _, v := range shape.values { // the interpolant in metres: 40 m per unit
		for k := range v {
			v[k] *= 40
		}
	}
	s, err := newSpectrum(context.Background(), size, shape, []*turbulence{p1, p2}, func(h float64) float64 { return h })
	if err != nil {
		t.Fatal(err)
	}
	b := &reliefBounds{MaxRange: 1e9, cellSize: 1}
	h := make([]float64, len(s.interp))
	s.heights(h, 0, 1)
	_, slopeI := s.rangeAndSlope(h, nil, b, 0)
	prev := 0.0
	for _, f := range []float64{0.5, 0.8, 0.95, 1.0, 1.05, 1.2, 1.6} {
		b.MaxSlope = f * slopeI
		a, _ := b.weights(s, 0, 100)
		t.Logf("g = %.2f × the interpolant's slope %.4f: amplitude %.3f", f, slopeI, a)
		if a < 0.97*prev {
			t.Errorf("g = %.2f × the interpolant's slope: amplitude %.3f, below %.3f at a smaller g", f, a, prev)
		}
		prev = max(prev, a)
	}
}
