package erosion

import (
	"context"
	"math"
	"slices"
	"testing"
)

// checkDrains fails unless every sample of z drains along strictly falling
// receivers to the map's edge and none is above its height in before.
func checkDrains(t *testing.T, g *grid, before []float64) {
	t.Helper()
	for i, v := range g.z {
		if v > before[i] {
			t.Fatalf("sample %d raised from %g to %g", i, before[i], v)
		}
	}
	net := newNetwork(g)
	pits, err := net.route(context.Background(), g.z)
	if err != nil {
		t.Fatal(err)
	}
	if pits != 0 {
		t.Fatalf("%d pits after the breach", pits)
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

// pitsOf sets net's receivers on z and returns the pits they leave.
func pitsOf(t *testing.T, net *network, z []float64) int {
	t.Helper()
	pits, err := net.receivers(context.Background(), z)
	if err != nil {
		t.Fatal(err)
	}
	return pits
}

// After a time step closes a few basins, breaching them one by one leaves
// every sample draining to the edge, as the flood over the whole map does:
// single sunken samples, a ring raised round a hollow, pits beside the
// edge, pits in pits, and two pits a float step apart.
func TestBreachPitsDrainsEverySample(t *testing.T) {
	m, _ := testMap(t, 129, "none")
	g := newGrid(m)
	net := newNetwork(g)
	if _, err := net.breach(context.Background(), g.z); err != nil {
		t.Fatal(err)
	}
	w := g.w
	for k := range 20 { // sunken samples, some beside the edge, some side by side
		x, y := 1+(k*37)%(w-2), 1+(k*53)%(g.h-2)
		g.z[y*w+x] -= 30
		if k%3 == 0 {
			g.z[y*w+x+1] = g.z[y*w+x] + 0.5
		}
	}
	// A ring 3 samples out round a hollow, and a deeper pit in the hollow.
	hi := slices.Max(g.z)
	for y := 60; y <= 66; y++ {
		for x := 60; x <= 66; x++ {
			if max(abs(x-63), abs(y-63)) == 3 {
				g.z[y*w+x] = hi
			}
		}
	}
	g.z[63*w+63] -= 50
	// Two pits whose floors differ by a float step.
	g.z[30*w+90] -= 40
	g.z[30*w+93] = math.Nextafter(g.z[30*w+90], math.Inf(1))
	before := slices.Clone(g.z)
	pits := pitsOf(t, net, g.z)
	if pits == 0 || pits > localPits {
		t.Fatalf("%d pits: want a few, breached one by one", pits)
	}
	lowered, err := net.breachPits(context.Background(), g.z, pits)
	if err != nil {
		t.Fatal(err)
	}
	if lowered <= 0 {
		t.Fatalf("lowered %g", lowered)
	}
	checkDrains(t, g, before)
	// breachPits leaves its marks zero, as stream power's donor masks
	// and the next breach expect.
	for i, v := range net.marks {
		if v != 0 {
			t.Fatalf("mark %d left at %d", i, v)
		}
	}
}

// Where the way out ends on ground below the pit but not below the way
// (the way falls a little at each sample), the digging goes on from there
// rather than leaving a new pit.
func TestBreachPitsDigsOnPastAShallowEnd(t *testing.T) {
	const w, h = 32, 32
	g := &grid{w: w, h: h, cell: 10, z: make([]float64, w*h)}
	for i := range g.z { // ground falling gently east and towards row 16
		g.z[i] = 10 + 0.001*float64(w-1-i%w) + 0.01*math.Abs(float64(i/w-16))
	}
	c, end := 16*w+10, 16*w+13
	g.z[c] = 0
	for x := 14; x < w; x++ { // a channel from end to the east edge
		g.z[16*w+x] = -1 - float64(x)
	}
	// the breach's fall is a share of the whole relief, set by the channel
	lo, hi := minMax(g.z)
	fall := (hi - lo) * 0x1p-40
	g.z[end] = -fall / 2
	g.z[end+1] = -1.5 * fall // below end until end is dug
	before := slices.Clone(g.z)
	net := newNetwork(g)
	pits := pitsOf(t, net, g.z)
	if pits != 1 {
		t.Fatalf("%d pits, want 1", pits)
	}
	if _, err := net.breachPits(context.Background(), g.z, pits); err != nil {
		t.Fatal(err)
	}
	if g.z[end] >= before[end] {
		t.Errorf("the way's end %g, was %g: not dug on", g.z[end], before[end])
	}
	checkDrains(t, g, before)
}

// Past a share of the map's samples the pits are breached by one flood
// over the whole map, which gives breach's result.
func TestBreachPitsManyIsBreach(t *testing.T) {
	m, _ := testMap(t, 129, "none")
	for i := range m.Samples { // egg-crate: a pit in every cell of a lattice
		x, y := float64(i%m.Width), float64(i/m.Width)
		m.Samples[i] += 0.2 * float32(math.Sin(x/3)*math.Sin(y/3))
	}
	g := newGrid(m)
	net := newNetwork(g)
	pits := pitsOf(t, net, g.z)
	if pits <= localPits {
		t.Fatalf("%d pits, want more than %d", pits, localPits)
	}
	want := slices.Clone(g.z)
	if _, err := newNetwork(g).breach(context.Background(), want); err != nil {
		t.Fatal(err)
	}
	before := slices.Clone(g.z)
	if _, err := net.breachPits(context.Background(), g.z, pits); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if g.z[i] != want[i] {
			t.Fatalf("sample %d: %g, breach gives %g", i, g.z[i], want[i])
		}
	}
	checkDrains(t, g, before)
}

// A closed basin breached on its own drains to its floor as it does when
// the whole map is flooded: the way starts at the floor.
func TestBreachPitsBasinDrainsToItsFloor(t *testing.T) {
	m, basin, pit := bowlMap(t)
	g := newGrid(m)
	net := newNetwork(g)
	pits := pitsOf(t, net, g.z)
	if pits == 0 || pits > localPits {
		t.Fatalf("%d pits: want a few", pits)
	}
	before := slices.Clone(g.z)
	if _, err := net.breachPits(context.Background(), g.z, pits); err != nil {
		t.Fatal(err)
	}
	checkDrains(t, g, before)
	if _, err := net.route(context.Background(), g.z); err != nil {
		t.Fatal(err)
	}
	net.accumulate()
	if a := net.area[pit]; int(a) < len(basin)/2 {
		t.Errorf("the bowl's floor drains %d of its %d samples, want at least half", a, len(basin))
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// breachBench is the default world at 1025² as the fluvial stage has it in
// a later step: drained once, then a few samples sunk to pits, as a step
// leaves a few basins closed. It returns the grid and the pits.
func breachBench(b *testing.B) (*grid, int) {
	m, _ := testMap(b, 1025, "none")
	g := newGrid(m)
	net := newNetwork(g)
	if _, err := net.breach(context.Background(), g.z); err != nil {
		b.Fatal(err)
	}
	for k := range 4 {
		g.z[(200+150*k)*g.w+300+100*k] -= 100
	}
	pits, err := net.receivers(context.Background(), g.z)
	if err != nil || pits == 0 {
		b.Fatal(pits, err)
	}
	return g, pits
}

// BenchmarkBreachPits1025 breaches a step's few pits one by one, as the
// fluvial step does; BenchmarkBreachWhole1025 floods the whole map for
// them, as it did before.
func BenchmarkBreachPits1025(b *testing.B)  { benchmarkBreach(b, false) }
func BenchmarkBreachWhole1025(b *testing.B) { benchmarkBreach(b, true) }

func benchmarkBreach(b *testing.B, whole bool) {
	g, pits := breachBench(b)
	z0 := slices.Clone(g.z)
	z := g.z
	net := newNetwork(g)
	if _, err := net.receivers(context.Background(), z); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		copy(z, z0)
		b.StartTimer()
		var err error
		if whole {
			_, err = net.breach(context.Background(), z)
		} else {
			_, err = net.breachPits(context.Background(), z, pits)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

// A done context stops breachPits with its error.
func TestBreachPitsCancelled(t *testing.T) {
	m, _, _ := bowlMap(t)
	g := newGrid(m)
	net := newNetwork(g)
	pits := pitsOf(t, net, g.z)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := net.breachPits(ctx, g.z, pits); err != context.Canceled {
		t.Fatalf("error %v, want %v", err, context.Canceled)
	}
}
