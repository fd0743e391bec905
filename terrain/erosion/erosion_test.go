package erosion

import (
	"context"
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"cordillera/terrain"
)

// testMap generates the default fBm world at size² (cell 1 m, 200 m high),
// with the stages and overrides given as parameter names and values.
func testMap(t testing.TB, size int, stages string, overrides ...string) (*terrain.Heightmap, terrain.Params) {
	t.Helper()
	p := terrain.DefaultParams()
	p.Size = size
	p.Erosion = stages
	for k := 0; k+1 < len(overrides); k += 2 {
		s, ok := terrain.SpecByName(overrides[k])
		if !ok {
			t.Fatalf("no parameter %s", overrides[k])
		}
		if err := s.Set(&p, overrides[k+1]); err != nil {
			t.Fatal(err)
		}
	}
	m, err := terrain.Generate(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m, p
}

func clone(m *terrain.Heightmap) *terrain.Heightmap {
	c := *m
	c.Samples = slices.Clone(m.Samples)
	return &c
}

// volume is the map's volume in m³ above height 0.
func volume(m *terrain.Heightmap) float64 {
	var s float64
	for _, v := range m.Samples {
		s += float64(v)
	}
	return s * m.VerticalScale * m.CellSize * m.CellSize
}

func sameBits(a, b []float32) int {
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return i
		}
	}
	return -1
}

type process struct {
	name string
	run  func(context.Context, *terrain.Heightmap, terrain.Params, Options) (Budget, error)
}

var processes = []process{
	{terrain.HydraulicErosion, Hydraulic},
	{terrain.ThermalErosion, Thermal},
	{terrain.FluvialErosion, Fluvial},
}

func TestHydraulicMassBudget(t *testing.T) {
	m, p := testMap(t, 257, "hydraulic")
	before := volume(m)
	b, err := Hydraulic(context.Background(), m, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v", b)
	if b.Eroded <= 0 || b.Deposited <= 0 || b.Suspended <= 0 || b.CarriedOff <= 0 {
		t.Errorf("every term should be positive on a rough 257² map: %v", b)
	}
	if d := b.Eroded - (b.Deposited + b.Suspended + b.CarriedOff); math.Abs(d) > 1e-9*b.Eroded {
		t.Errorf("eroded − (deposited + suspended + carried off) = %g m³ of %g", d, b.Eroded)
	}
	// The map loses what the droplets took away, to float32 rounding.
	lost := before - volume(m)
	if want := b.Suspended + b.CarriedOff; math.Abs(lost-want) > 1e-3*b.Eroded {
		t.Errorf("map lost %g m³, budget says %g", lost, want)
	}
}

// The parallel droplets equal the one-goroutine oracle bit for bit, with
// small tiles so that many run at once, on a map that is not square.
func TestHydraulicMatchesReference(t *testing.T) {
	for _, over := range [][]string{
		{"hydraulic-lifetime", "10", "hydraulic-radius", "2"},
		{"hydraulic-lifetime", "30", "hydraulic-radius", "4", "hydraulic-inertia", "0.3"},
	} {
		m, p := testMap(t, 129, "hydraulic", over...)
		m.Height = 100
		m.Samples = m.Samples[:m.Width*m.Height]
		m.CellSize = 2.5
		fast, ref := clone(m), clone(m)
		bf, err := Hydraulic(context.Background(), fast, p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		br, err := HydraulicReference(context.Background(), ref, p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if i := sameBits(fast.Samples, ref.Samples); i >= 0 {
			t.Errorf("%v: sample %d: fast %v, reference %v", over, i, fast.Samples[i], ref.Samples[i])
		}
		if bf != br {
			t.Errorf("%v: budgets differ: fast %v, reference %v", over, bf, br)
		}
		if sameBits(fast.Samples, m.Samples) < 0 {
			t.Errorf("%v: nothing eroded", over)
		}
	}
}

// Every process gives the same bits on 1, 2 and 4 cores.
func TestDeterministicAcrossCores(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, pr := range processes {
		m, p := testMap(t, 257, pr.name, "hydraulic-lifetime", "20", "fluvial-steps", "10")
		var first []float32
		var firstBudget Budget
		for _, procs := range []int{1, 2, 4} {
			runtime.GOMAXPROCS(procs)
			c := clone(m)
			b, err := pr.run(context.Background(), c, p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first, firstBudget = c.Samples, b
				continue
			}
			if i := sameBits(first, c.Samples); i >= 0 {
				t.Errorf("%s: GOMAXPROCS %d differs from 1 at sample %d", pr.name, procs, i)
			}
			if b != firstBudget {
				t.Errorf("%s: GOMAXPROCS %d budget %v, 1 core %v", pr.name, procs, b, firstBudget)
			}
		}
	}
}

func TestThermalFlatMapUnchanged(t *testing.T) {
	m := terrain.NewHeightmap(64, 48)
	m.VerticalScale, m.CellSize = 150, 3
	for i := range m.Samples {
		m.Samples[i] = 0.37
	}
	before := slices.Clone(m.Samples)
	p := terrain.DefaultParams()
	b, err := Thermal(context.Background(), m, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if i := sameBits(before, m.Samples); i >= 0 || b != (Budget{}) {
		t.Errorf("flat map changed at %d, budget %v", i, b)
	}
}

func TestThermalConservesMassAndConverges(t *testing.T) {
	m, p := testMap(t, 65, "thermal", "thermal-talus", "30", "thermal-iterations", "20000", "thermal-rate", "1")
	m.VerticalScale = 100 // steep: most of the map is over the talus angle
	before := volume(m)
	b, err := Thermal(context.Background(), m, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := volume(m) - before; math.Abs(d) > 1e-6*before {
		t.Errorf("volume changed by %g m³ of %g", d, before)
	}
	if b.Eroded <= 0 || b.Eroded != b.Deposited || b.Suspended != 0 || b.CarriedOff != 0 {
		t.Errorf("budget %v: want material moved, none lost", b)
	}
	// After convergence no slope between neighbours exceeds the talus
	// slope by more than 0.02 in m/m (about 1° at 30°): the excess decays
	// geometrically, more slowly the longer the slope.
	talus := math.Tan(p.ThermalTalus * math.Pi / 180)
	worst := 0.0
	for y := 0; y < m.Height; y++ {
		for x := 0; x < m.Width; x++ {
			for _, nb := range neighbours8 {
				nx, ny := x+nb.dx, y+nb.dy
				if nx < 0 || ny < 0 || nx >= m.Width || ny >= m.Height {
					continue
				}
				d := m.CellSize
				if nb.diagonal {
					d *= math.Sqrt2
				}
				s := float64(m.At(x, y)-m.At(nx, ny)) * m.VerticalScale / d
				worst = max(worst, s)
			}
		}
	}
	t.Logf("steepest slope after %d sweeps: %.4f, talus %.4f", p.ThermalIterations, worst, talus)
	if worst > talus+0.02 {
		t.Errorf("steepest slope %.4f exceeds the talus slope %.4f by more than 0.02", worst, talus)
	}
}

// fitLine returns the least-squares slope of y against x.
func fitLine(x, y []float64) float64 {
	var sx, sy, sxx, sxy float64
	for i := range x {
		sx, sy = sx+x[i], sy+y[i]
		sxx, sxy = sxx+x[i]*x[i], sxy+x[i]*y[i]
	}
	n := float64(len(x))
	return (n*sxy - sx*sy) / (n*sxx - sx*sx)
}

// steadyNetwork runs the fluvial stage with uniform uplift until steady
// and returns the final heights and their drainage network.
func steadyNetwork(t *testing.T, size int, overrides ...string) (*grid, *network, terrain.Params) {
	t.Helper()
	m, p := testMap(t, size, "fluvial", append([]string{"fluvial-steps", "400", "fluvial-dt", "1e7"}, overrides...)...)
	uplift := make([]float64, len(m.Samples))
	for i := range uplift {
		uplift[i] = p.FluvialUplift
	}
	if _, err := fluvial(context.Background(), m, p, Options{}, uplift, false); err != nil {
		t.Fatal(err)
	}
	g := newGrid(m)
	net := newFluvialNetwork(g, p) // the receivers the solver used
	if _, err := net.breach(context.Background(), g.z); err != nil {
		t.Fatal(err)
	}
	if _, err := net.route(context.Background(), g.z); err != nil {
		t.Fatal(err)
	}
	net.accumulate()
	return g, net, p
}

// At steady state under uniform uplift S = (U/K)^(1/n)·A^(−m/n), so over
// the channels (drainage areas above the channel head's) log S against
// log A has slope −m/n.
func TestFluvialSlopeArea(t *testing.T) {
	for _, c := range []struct{ m, n string }{{"0.5", "1"}, {"0.4", "1"}, {"0.8", "2"}} {
		g, net, p := steadyNetwork(t, 129, "fluvial-m", c.m, "fluvial-n", c.n, "fluvial-head", "16") // many channel samples
		var la, ls []float64
		for i, r := range net.rec {
			a := float64(net.area[i])
			if int(r) == i || a < max(20, p.FluvialHead) {
				continue
			}
			d := g.cell
			if dd := int(r) - i; dd != 1 && dd != -1 && dd != g.w && dd != -g.w {
				d *= math.Sqrt2
			}
			s := (g.z[i] - g.z[r]) / d
			if s <= 0 {
				continue
			}
			la, ls = append(la, math.Log(a*g.cellArea())), append(ls, math.Log(s))
		}
		mm, _ := stringFloat(c.m)
		nn, _ := stringFloat(c.n)
		got, want := fitLine(la, ls), -mm/nn
		t.Logf("m %s n %s: slope–area exponent %.4f over %d channel samples (want %.4f)", c.m, c.n, got, len(la), want)
		if len(la) < 50 || !(math.Abs(got-want) <= 0.05) { // NaN, from a fit with no points, fails too
			t.Errorf("m %s n %s: log S against log A has slope %.4f over %d samples, want %.4f ± 0.05 over at least 50", c.m, c.n, got, len(la), want)
		}
	}
}

func stringFloat(s string) (float64, error) {
	var p terrain.Params
	spec, _ := terrain.SpecByName("fluvial-m")
	err := spec.Set(&p, s)
	return p.FluvialM, err
}

// Drainage areas follow a power law P(A ≥ a) ∝ a^−β; real river networks
// have β ≈ 0.43. The law holds over the channels: from the channel head's
// area (below it the ground is hillslope, draining in parallel sheets) to
// a twentieth of the map (above it the map's size cuts the basins off).
func TestFluvialAreaExponent(t *testing.T) {
	g, net, p := steadyNetwork(t, 257)
	areas := make([]float64, len(net.area))
	for i, a := range net.area {
		areas[i] = float64(a)
	}
	slices.Sort(areas)
	var la, lp []float64
	n := float64(len(areas))
	for a := max(4, p.FluvialHead); a <= n/20; a *= 1.25 {
		k, _ := slices.BinarySearch(areas, a)
		la, lp = append(la, math.Log(a*g.cellArea())), append(lp, math.Log((n-float64(k))/n))
	}
	beta := -fitLine(la, lp)
	t.Logf("drainage-area exponent β = %.4f (real rivers ≈ 0.43)", beta)
	if len(la) < 5 || !(beta >= 0.3 && beta <= 0.6) { // NaN, from a fit with no points, fails too
		t.Errorf("β = %.4f over %d areas, want within [0.3, 0.6] over at least 5", beta, len(la))
	}
}

// After the breach every sample drains along strictly falling receivers to
// the map's edge, even on a map of pits, and no sample was raised.
func TestBreachDrainsEverySample(t *testing.T) {
	m, _ := testMap(t, 129, "none")
	for i := range m.Samples { // egg-crate: a pit in every cell of a lattice
		x, y := float64(i%m.Width), float64(i/m.Width)
		m.Samples[i] += 0.2 * float32(math.Sin(x/3)*math.Sin(y/3))
	}
	m.Samples[500] = m.Samples[501] // a flat
	g := newGrid(m)
	net := newNetwork(g)
	before := slices.Clone(g.z)
	lowered, err := net.breach(context.Background(), g.z)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range g.z {
		if v > before[i] {
			t.Fatalf("sample %d raised from %g to %g", i, before[i], v)
		}
	}
	pits, err := net.route(context.Background(), g.z)
	if err != nil {
		t.Fatal(err)
	}
	if pits != 0 || lowered <= 0 {
		t.Fatalf("%d pits after the breach, lowered %g", pits, lowered)
	}
	if len(net.stack) != len(g.z) {
		t.Fatalf("stack holds %d of %d samples: some drain in a cycle", len(net.stack), len(g.z))
	}
	for i, r := range net.rec {
		x, y := i%g.w, i/g.w
		edge := x == 0 || y == 0 || x == g.w-1 || y == g.h-1
		if edge != (int(r) == i) || (!edge && !(g.z[r] < g.z[i])) {
			t.Fatalf("sample %d (edge %v) drains to %d: %g → %g", i, edge, r, g.z[i], g.z[r])
		}
	}
}

// The fluvial stage keeps the input's height range, its budget balances,
// and its masks record the valleys the rivers cut and what they laid down.
func TestFluvialKeepsRangeAndCutsValleys(t *testing.T) {
	m, p := testMap(t, 129, "fluvial")
	lo, hi := m.Range()
	mk := &Masks{}
	b, err := Fluvial(context.Background(), m, p, Options{Masks: mk})
	if err != nil {
		t.Fatal(err)
	}
	lo2, hi2 := m.Range()
	if math.Abs(float64(lo2-lo)) > 1e-6 || math.Abs(float64(hi2-hi)) > 1e-6 {
		t.Errorf("range %v..%v, want the input's %v..%v", lo2, hi2, lo, hi)
	}
	if b.Eroded <= 0 || math.Abs(b.Eroded-b.Deposited-b.CarriedOff) > 1e-9*b.Eroded {
		t.Errorf("budget %v", b)
	}
	// The masks are the map's net change where the rivers' own work
	// accounts for it: the valleys cut into the input's surface, and,
	// without deposition, next to nothing deposited (only where a sample
	// rose towards a receiver that the uplift raised above it), where the
	// net rise of the ridges that the rescale stretched back is no deposit.
	in, _ := testMap(t, 129, "fluvial")
	var eroded, deposited, lowered float64
	for i, v := range m.Samples {
		d := float64(v-in.Samples[i]) * m.VerticalScale
		e, dep := float64(mk.Eroded[i]), float64(mk.Deposited[i])
		if e < 0 || dep < 0 || e > max(-d, 0)+1e-3 || dep > max(d, 0)+1e-3 {
			t.Fatalf("sample %d: masks eroded %g, deposited %g m; the map moved by %g m", i, e, dep, d)
		}
		eroded, deposited, lowered = eroded+e, deposited+dep, lowered+max(-d, 0)
	}
	area := m.CellSize * m.CellSize
	eroded, deposited, lowered = eroded*area, deposited*area, lowered*area
	t.Logf("masks %.4g m³ eroded, %.4g m³ deposited; the map lowered by %.4g m³", eroded, deposited, lowered)
	if eroded < 0.99*lowered || deposited > 1e-3*eroded {
		t.Errorf("masks %.4g m³ eroded, %.4g m³ deposited without deposition; the map lowered by %.4g m³", eroded, deposited, lowered)
	}
}

// A run cancelled as soon as it reports progress stops with
// context.Canceled long before the passes it was asked for.
func TestCancel(t *testing.T) {
	for _, pr := range processes {
		m, p := testMap(t, 513, pr.name, "hydraulic-droplets", "20", "thermal-iterations", "100000", "fluvial-steps", "100000")
		ctx, cancel := context.WithCancel(context.Background())
		var once sync.Once
		passes, total := 0, 0
		opt := Options{
			Progress: func(float64) { once.Do(cancel) },
			Pass:     func(_ string, pass, of int) { passes, total = pass, of },
		}
		_, err := pr.run(ctx, m, p, opt)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: error %v, want context.Canceled", pr.name, err)
			continue
		}
		if total > 0 && passes >= total {
			t.Errorf("%s: ran all %d passes despite the cancel", pr.name, total)
		}
	}
}

func TestBadParameters(t *testing.T) {
	m, _ := testMap(t, 65, "none")
	for _, c := range []struct {
		set  func(*terrain.Params)
		want string
	}{
		{func(p *terrain.Params) { p.HydraulicDroplets = -1 }, "hydraulic-droplets"},
		{func(p *terrain.Params) { p.ThermalTalus = 0 }, "thermal-talus"},
		{func(p *terrain.Params) { p.ThermalTalus = 90 }, "thermal-talus"},
		{func(p *terrain.Params) { p.FluvialK = math.NaN() }, "fluvial-k"},
		{func(p *terrain.Params) { p.Erosion = "glacial" }, "erosion"},
		{func(p *terrain.Params) { p.HydraulicDroplets = 100; p.Size = 8193 }, "more than"},
	} {
		p := terrain.DefaultParams()
		p.Erosion = "hydraulic,thermal,fluvial"
		c.set(&p)
		var err error
		if c.want == "more than" {
			err = Check(p)
		} else {
			_, err = Run(context.Background(), clone(m), p, Options{})
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one naming %q", err, c.want)
		}
	}
	bad := clone(m)
	bad.Samples[3] = float32(math.NaN())
	p := terrain.DefaultParams()
	p.Erosion = "thermal"
	if _, err := Run(context.Background(), bad, p, Options{}); err == nil {
		t.Error("a NaN sample was accepted")
	}
}

// Run chains the stages in the listed order, reports the passes of each,
// and fills the masks.
func TestRunChainsStagesInOrder(t *testing.T) {
	m, p := testMap(t, 129, "thermal,hydraulic,fluvial", "fluvial-steps", "5")
	want := clone(m)
	var wantBudget Budget
	for _, pr := range []process{processes[1], processes[0], processes[2]} {
		b, err := pr.run(context.Background(), want, p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		wantBudget = wantBudget.Add(b)
	}
	passes := map[string]int{}
	var order []string
	mk := &Masks{}
	var last float64
	got := clone(m)
	b, err := Run(context.Background(), got, p, Options{Masks: mk,
		Progress: func(f float64) { last = f },
		Pass: func(stage string, pass, n int) {
			if passes[stage] == 0 {
				order = append(order, stage)
			}
			passes[stage]++
			if pass != passes[stage] {
				t.Errorf("%s: pass %d reported as %d", stage, passes[stage], pass)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if i := sameBits(want.Samples, got.Samples); i >= 0 {
		t.Errorf("Run differs from the stages one by one at sample %d", i)
	}
	if b != wantBudget {
		t.Errorf("budget %v, stages one by one %v", b, wantBudget)
	}
	if strings.Join(order, ",") != p.Erosion {
		t.Errorf("passes came in order %v, want %s", order, p.Erosion)
	}
	if passes["hydraulic"] != hydraulicRounds || passes["thermal"] != thermalPasses || passes["fluvial"] < 1 || passes["fluvial"] > 5 {
		t.Errorf("passes %v: want %d hydraulic rounds, %d thermal blocks, 1–5 fluvial steps", passes, hydraulicRounds, thermalPasses)
	}
	if last != 1 {
		t.Errorf("last progress %v, want 1", last)
	}
	// Masks: the flow mask has channels; erosion happened along them.
	maxFlow := slices.Max(mk.Flow)
	if total := float64(m.Width*m.Height) * m.CellSize * m.CellSize; float64(maxFlow) < 0.01*total {
		t.Errorf("largest drainage area %g m² of %g: no channels", maxFlow, total)
	}
	if slices.Max(mk.Eroded) <= 0 || slices.Max(mk.Deposited) <= 0 {
		t.Error("the eroded or deposited mask is empty")
	}
	for _, name := range MaskNames {
		n, err := mk.Normalised(name)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := n.Range()
		if lo < 0 || hi != 1 {
			t.Errorf("mask %s spans %v..%v, want [0, 1] reaching 1", name, lo, hi)
		}
	}
	if _, err := mk.Normalised("sediment"); err == nil {
		t.Error("an unknown mask name was accepted")
	}
}

// The masks of a hydraulic stage agree with its budget: the net volume
// change is what left the map, and no more is marked eroded than was.
func TestHydraulicMasksMatchBudget(t *testing.T) {
	m, p := testMap(t, 129, "hydraulic")
	mk := &Masks{}
	b, err := Run(context.Background(), m, p, Options{Masks: mk})
	if err != nil {
		t.Fatal(err)
	}
	var er, de float64
	for i := range mk.Eroded {
		er += float64(mk.Eroded[i])
		de += float64(mk.Deposited[i])
	}
	area := m.CellSize * m.CellSize
	er, de = er*area, de*area
	if net := er - de; math.Abs(net-(b.Suspended+b.CarriedOff)) > 1e-3*b.Eroded {
		t.Errorf("masks: net loss %g m³, budget %g", net, b.Suspended+b.CarriedOff)
	}
	if er > b.Eroded*(1+1e-6) || er <= 0 {
		t.Errorf("eroded mask %g m³, budget %g", er, b.Eroded)
	}
}

func TestTraceDroplets(t *testing.T) {
	m, p := testMap(t, 129, "none")
	before := clone(m)
	paths, b := TraceDroplets(m, p, 20, 5)
	if len(paths) != 20 || b.Eroded <= 0 {
		t.Fatalf("%d paths, budget %v", len(paths), b)
	}
	for k, path := range paths {
		if len(path) < 1 || len(path) > p.HydraulicLifetime+1 {
			t.Errorf("path %d has %d steps", k, len(path))
		}
		for s := 1; s < len(path); s++ {
			if d := math.Hypot(path[s][0]-path[s-1][0], path[s][2]-path[s-1][2]); math.Abs(d-m.CellSize) > 1e-9 {
				t.Errorf("path %d step %d moves %g, want one cell", k, s, d)
			}
		}
	}
	if sameBits(before.Samples, m.Samples) < 0 {
		t.Error("the droplets eroded nothing")
	}
	again := clone(before)
	paths2, _ := TraceDroplets(again, p, 20, 5)
	if len(paths2[3]) != len(paths[3]) || paths2[3][1] != paths[3][1] {
		t.Error("same seed, different paths")
	}
}

// bowlMap is a 129² map of one closed basin: a round bowl, its rim
// lowest on the west, inside ground falling to the map's edge, with a
// slight tilt so that the spill point is fixed. It returns the map, the
// bowl's samples and its lowest one.
func bowlMap(t *testing.T) (m *terrain.Heightmap, basin []int, pit int) {
	m, _ = testMap(t, 129, "none")
	const c, radius = 64.0, 44.0
	pit = -1
	for i := range m.Samples {
		x, y := float64(i%m.Width), float64(i/m.Width)
		r := math.Hypot(x-c, y-c)
		v := 30 - 0.8*(r-radius)
		if r < radius {
			v = 10 + 20*(r/radius)*(r/radius)
			basin = append(basin, i)
		}
		m.Samples[i] = float32(v + 0.03*x)
		if r < radius && (pit < 0 || m.Samples[i] < m.Samples[pit]) {
			pit = i
		}
	}
	return m, basin, pit
}

// bowlFloorArea routes m as the fluvial stage does and returns the
// drainage area in cells of sample i.
func bowlFloorArea(t *testing.T, m *terrain.Heightmap, p terrain.Params, i int) int32 {
	t.Helper()
	g := newGrid(m)
	net := newFluvialNetwork(g, p)
	if _, err := net.breach(context.Background(), g.z); err != nil {
		t.Fatal(err)
	}
	if _, err := net.route(context.Background(), g.z); err != nil {
		t.Fatal(err)
	}
	net.accumulate()
	return net.area[i]
}

// Water in a closed basin runs down the basin's slopes and gathers on its
// floor, whence it leaves over the spill point. Filling the basin instead
// made it a flat on which every sample drained in a straight line towards
// the spill point: the floor gathered only its own line (13 of the
// bowl's 6073 samples), and stream power cut the lines into parallel
// grooves. The same holds after the fluvial stage has cut the map.
func TestBasinDrainsToItsFloor(t *testing.T) {
	m, basin, pit := bowlMap(t)
	_, p := testMap(t, 129, "fluvial", "fluvial-steps", "5")
	if a := bowlFloorArea(t, m, p, pit); int(a) < len(basin)/2 {
		t.Errorf("the bowl's floor drains %d of its %d samples, want at least half", a, len(basin))
	}
	if _, err := Fluvial(context.Background(), m, p, Options{}); err != nil {
		t.Fatal(err)
	}
	// The floor after erosion: the lowest sample well inside the bowl.
	floor := -1
	for _, i := range basin {
		x, y := float64(i%m.Width), float64(i/m.Width)
		if math.Hypot(x-64, y-64) < 30 && (floor < 0 || m.Samples[i] < m.Samples[floor]) {
			floor = i
		}
	}
	if a := bowlFloorArea(t, m, p, floor); int(a) < len(basin)/2 {
		t.Errorf("after the fluvial stage the bowl's floor drains %d of its %d samples, want at least half", a, len(basin))
	}
}
