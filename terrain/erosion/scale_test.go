package erosion

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"cordillera/terrain"
)

// scaledTolerance is how far, as a share of the relief, a map scaled as a
// whole may end up from the unscaled map's shape: float32 rounding. At
// the powers of two tested every product is exact, and the result is in
// fact identical bit for bit.
const scaledTolerance = 1e-6

// The same landscape at 1, 2 and 4 m cells — its cell size, its heights
// and every parameter with a length in its unit scaled together — erodes
// to the same shape, and the eroded volume grows as the cube of the scale.
// The droplet, talus and fluvial parameters count in cells where they
// count distance (droplets per cell, lifetime, brush radius, channel head),
// so they need no change; the fluvial uplift is in m/yr and the
// erodibility K in m^(1−2m)/yr, so they scale by s and s^(1−2m).
func TestSameShapeAtAnyCellSize(t *testing.T) {
	for _, c := range []struct {
		stage string
		over  []string
	}{
		{terrain.HydraulicErosion, nil},
		{terrain.ThermalErosion, []string{"thermal-iterations", "200"}},
		{terrain.FluvialErosion, nil},
		{terrain.FluvialErosion, []string{"fluvial-m", "0.4", "fluvial-n", "2"}},
		{terrain.FluvialErosion, []string{"fluvial-m", "0.3", "fluvial-n", "1.5", "fluvial-steps", "20"}},
	} {
		in, p := testMap(t, 129, c.stage, c.over...)
		in.VerticalScale = 120 // steep enough that every stage has work to do
		lo, hi := in.Range()
		relief := float64(hi - lo)
		var first *terrain.Heightmap
		var firstEroded float64
		for _, s := range []float64{1, 2, 4} {
			m := clone(in)
			m.CellSize *= s
			m.VerticalScale *= s
			q := p
			q.FluvialUplift *= s
			q.FluvialK *= math.Pow(s, 1-2*q.FluvialM)
			b, err := Run(context.Background(), m, q, Options{})
			if err != nil {
				t.Fatal(err)
			}
			eroded := b.Eroded / (s * s * s)
			if first == nil {
				first, firstEroded = m, eroded
				if sameBits(in.Samples, m.Samples) < 0 || b.Eroded <= 0 {
					t.Fatalf("%s %v: nothing eroded", c.stage, c.over)
				}
				continue
			}
			worst, at := 0.0, 0
			for i := range m.Samples {
				if d := math.Abs(float64(m.Samples[i] - first.Samples[i])); d > worst {
					worst, at = d, i
				}
			}
			if worst > scaledTolerance*relief {
				t.Errorf("%s %v: at %g m cells sample %d is %.4g of the relief from the 1 m map's (%v against %v), want within %g",
					c.stage, c.over, s, at, worst/relief, m.Samples[at], first.Samples[at], scaledTolerance)
			}
			if d := math.Abs(eroded/firstEroded - 1); !(d <= 1e-6) {
				t.Errorf("%s %v: at %g m cells eroded %.6g m³ = %.6g × s³, at 1 m %.6g", c.stage, c.over, s, b.Eroded, eroded, firstEroded)
			}
		}
	}
}

// Loose material on a heap settles at the angle of repose in every
// direction: along the grid's axes and along its diagonals (whose
// neighbours are √2 cells apart), so the heap is a round cone, not a
// diamond.
func TestTalusAngleOnEveryAxis(t *testing.T) {
	const size, cell = 81, 2.0
	m := terrain.NewHeightmap(size, size)
	m.CellSize, m.VerticalScale = cell, 1
	c := size / 2
	for y := 0; y < size; y++ { // a 70° spire: far steeper than the talus
		for x := 0; x < size; x++ {
			r := math.Hypot(float64(x-c), float64(y-c)) * cell
			m.Samples[y*size+x] = float32(max(0, 60-math.Tan(70*math.Pi/180)*r))
		}
	}
	p := terrain.DefaultParams()
	p.ThermalTalus, p.ThermalRate, p.ThermalIterations = 30, 1, 4000
	if _, err := Thermal(context.Background(), m, p, Options{}); err != nil {
		t.Fatal(err)
	}
	talus := math.Tan(30 * math.Pi / 180)
	// The mean slope along each ray from 2 to 10 steps out of the summit,
	// on the flank, away from the rounded top and the foot.
	for _, ray := range []struct {
		name   string
		dx, dy int
	}{{"east", 1, 0}, {"south", 0, 1}, {"north-east", 1, -1}, {"south-west", -1, 1}} {
		step := cell * math.Hypot(float64(ray.dx), float64(ray.dy))
		h := func(k int) float64 { return float64(m.At(c+k*ray.dx, c+k*ray.dy)) }
		slope := (h(2) - h(10)) / (8 * step)
		deg := math.Atan(slope) * 180 / math.Pi
		t.Logf("%s: settled at %.2f° (talus 30°)", ray.name, deg)
		if !(math.Abs(slope-talus) <= 0.02) {
			t.Errorf("%s: the heap settled at %.2f° (slope %.4f), want the talus angle 30° (%.4f ± 0.02)", ray.name, deg, slope, talus)
		}
	}
}

// The thermal budget is in cubic metres: height moved times the cell's
// area. A 10 m spike on a 2 m grid with a 45° talus, one sweep at rate 1
// (k = 1/16): each side neighbour takes (10 − 2)/16 = 0.5 m and each
// diagonal one (10 − 2√2)/16 m, 3.7929 m of height in all, over 4 m²:
// 15.172 m³.
func TestThermalBudgetInCubicMetres(t *testing.T) {
	m := terrain.NewHeightmap(5, 5)
	m.CellSize, m.VerticalScale = 2, 1
	m.Samples[2*5+2] = 10
	p := terrain.DefaultParams()
	p.ThermalTalus, p.ThermalRate, p.ThermalIterations = 45, 1, 1
	b, err := Thermal(context.Background(), m, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	const want = 15.17157 // (4·0.5 + 4·(10 − 2√2)/16) m × 4 m²
	if math.Abs(b.Eroded-want) > 1e-4 || b.Deposited != b.Eroded {
		t.Errorf("budget %v, want %.5f m³ eroded and deposited", b, want)
	}
	if got := float64(m.At(2, 2)); math.Abs(got-(10-want/4)) > 1e-5 {
		t.Errorf("the spike is %.5f m high after a sweep, want %.5f", got, 10-want/4)
	}
	if got := float64(m.At(3, 2)); math.Abs(got-0.5) > 1e-6 {
		t.Errorf("its east neighbour is %.6f m high, want 0.5", got)
	}
}

// At steady state the channel steepness k_s = S·A^(m/n) is
// (U/K)^(1/n) wherever a channel runs: along the grid's axes and along
// its diagonals alike, with S measured over the true distance to the
// receiver. Erosion that weighs the diagonals' √2 by the wrong exponent
// leaves diagonal channels shallower or steeper than axial ones.
func TestFluvialSteepnessOnEveryAxis(t *testing.T) {
	for _, c := range []struct{ m, n string }{{"0.4", "2"}, {"0.7", "1.5"}} {
		g, net, p := steadyNetwork(t, 129, "fluvial-m", c.m, "fluvial-n", c.n, "fluvial-head", "16")
		theta := p.FluvialM / p.FluvialN
		var axial, diagonal []float64
		for i, r := range net.rec {
			a := float64(net.area[i])
			if int(r) == i || a < max(20, p.FluvialHead) {
				continue
			}
			d, diag := g.cell, false
			if dd := int(r) - i; dd != 1 && dd != -1 && dd != g.w && dd != -g.w {
				d, diag = d*math.Sqrt2, true
			}
			ks := (g.z[i] - g.z[r]) / d * math.Pow(a*g.cellArea(), theta)
			if diag {
				diagonal = append(diagonal, ks)
			} else {
				axial = append(axial, ks)
			}
		}
		if len(axial) < 50 || len(diagonal) < 50 {
			t.Fatalf("m %s n %s: %d axial and %d diagonal channel samples, too few to compare", c.m, c.n, len(axial), len(diagonal))
		}
		slices.Sort(axial)
		slices.Sort(diagonal)
		ka, kd := axial[len(axial)/2], diagonal[len(diagonal)/2]
		t.Logf("m %s n %s: median k_s %.5g along axes (%d), %.5g along diagonals (%d)", c.m, c.n, ka, len(axial), kd, len(diagonal))
		if !(math.Abs(kd/ka-1) <= 0.02) {
			t.Errorf("m %s n %s: diagonal channels differ in steepness from axial ones by %+.1f %% (k_s %.5g against %.5g), want within 2 %%",
				c.m, c.n, 100*(kd/ka-1), kd, ka)
		}
	}
}

// The fast thermal sweep equals the straightforward one bit for bit, on
// a steep map that is not square and on maps one to three samples wide,
// where every sample is on an edge.
func TestThermalMatchesReference(t *testing.T) {
	in, p := testMap(t, 129, "thermal", "thermal-iterations", "30", "thermal-talus", "25", "thermal-rate", "0.9")
	in.VerticalScale, in.CellSize = 300, 2.5
	cases := []*terrain.Heightmap{in}
	for _, w := range []int{1, 2, 3} {
		m := terrain.NewHeightmap(w, 40)
		m.VerticalScale = 50
		for i := range m.Samples {
			m.Samples[i] = in.Samples[i*7%len(in.Samples)]
		}
		cases = append(cases, m)
	}
	tall := clone(in)
	tall.Width, tall.Height = 97, 100
	tall.Samples = tall.Samples[:97*100]
	cases = append(cases, tall)
	for _, m := range cases {
		fast, ref := clone(m), clone(m)
		bf, err := Thermal(context.Background(), fast, p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		br, err := ThermalReference(context.Background(), ref, p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if i := sameBits(fast.Samples, ref.Samples); i >= 0 {
			t.Errorf("%d×%d: sample %d: fast %v, reference %v", m.Width, m.Height, i, fast.Samples[i], ref.Samples[i])
		}
		if bf != br || bf.Eroded <= 0 {
			t.Errorf("%d×%d: budgets fast %v, reference %v", m.Width, m.Height, bf, br)
		}
	}
}

// The parallel fluvial step equals the one-goroutine stack walk bit for
// bit in its heights, with the steps' sums added in another order (the
// budget within 1e-12), on a non-square map with pits that later steps
// must fill, for n = 1 and n ≠ 1.
func TestFluvialMatchesReference(t *testing.T) {
	for _, over := range [][]string{
		{"fluvial-steps", "12"},
		{"fluvial-steps", "8", "fluvial-m", "0.4", "fluvial-n", "2", "fluvial-wander", "0"},
		{"fluvial-steps", "8", "fluvial-deposition", "0.7"},
		{"fluvial-steps", "6", "fluvial-n", "2", "fluvial-m", "0.8", "fluvial-deposition", "0.5"},
	} {
		m, p := testMap(t, 129, "fluvial", over...)
		m.Width, m.Height, m.CellSize = 121, 129, 2.5
		m.Samples = m.Samples[:121*129]
		for i := range m.Samples { // pits everywhere
			x, y := float64(i%m.Width), float64(i/m.Width)
			m.Samples[i] += 0.05 * float32(math.Sin(x/2)*math.Sin(y/2))
		}
		fast, ref := clone(m), clone(m)
		bf, err := Fluvial(context.Background(), fast, p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		br, err := FluvialReference(context.Background(), ref, p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if i := sameBits(fast.Samples, ref.Samples); i >= 0 {
			t.Errorf("%v: sample %d: parallel %v, reference %v", over, i, fast.Samples[i], ref.Samples[i])
		}
		for _, pair := range [][2]float64{{bf.Eroded, br.Eroded}, {bf.Deposited, br.Deposited}, {bf.CarriedOff, br.CarriedOff}} {
			if !(math.Abs(pair[0]-pair[1]) <= 1e-12*br.Eroded) || br.Eroded <= 0 {
				t.Errorf("%v: budgets parallel %v, reference %v", over, bf, br)
				break
			}
		}
	}
}

// Parameters each inside their range cannot together ask for hours of
// work: 100 droplets per cell living 500 steps with a 16-cell brush is
// refused on a 1025² map, before any work, with the parameters and the
// estimate named; on a 129² map the same run's estimate matches the
// 4 min 18 s it was measured to take, and it runs.
func TestHydraulicWorkBounded(t *testing.T) {
	bomb := func(size int) terrain.Params {
		p := terrain.DefaultParams()
		p.Size, p.Erosion = size, "fluvial,hydraulic"
		p.HydraulicDroplets, p.HydraulicLifetime, p.HydraulicRadius = 100, 500, 16
		return p
	}
	p := bomb(1025)
	err := Check(p)
	if err == nil {
		t.Fatal("100 droplets per cell × 500 steps × radius 16 on a 1025² map was accepted")
	}
	for _, want := range []string{"hydraulic-droplets 100", "hydraulic-lifetime 500", "hydraulic-radius 16", "1025²", "4.2 hours", "more than 10 minutes"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	m := terrain.NewHeightmap(1025, 1025)
	m.Samples[5000] = 1
	before := slices.Clone(m.Samples)
	if _, err := Run(context.Background(), m, p, Options{}); err == nil || sameBits(before, m.Samples) >= 0 {
		t.Errorf("Run: error %v; the map must be refused untouched", err)
	}
	if c := HydraulicCost(bomb(129)); c < 3*time.Minute || c > 6*time.Minute {
		t.Errorf("the 129² run is estimated at %v, measured 4 min 18 s", c)
	}
	if err := Check(bomb(129)); err != nil {
		t.Errorf("the 129² run, about 4 minutes, was refused: %v", err)
	}
	for _, size := range []int{1025, 8193} {
		q := terrain.DefaultParams()
		q.Size, q.Erosion = size, "hydraulic"
		if err := Check(q); err != nil {
			t.Errorf("the defaults at %d² were refused: %v", size, err)
		}
		if q.HydraulicDroplets = 100; size == 8193 && Check(q) == nil {
			t.Errorf("100 droplets per cell at %d² were accepted", size)
		}
		if q.Erosion = "thermal"; Check(q) != nil {
			t.Errorf("hydraulic parameters were checked for a thermal stage")
		}
	}
}
