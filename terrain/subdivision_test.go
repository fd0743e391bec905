package terrain

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"
)

// Tests shared by the three subdivision generators, and of the per-vertex
// random R they draw from.

var subdivisionGenerators = []struct {
	name     string
	generate func(context.Context, Params, Progress) (*Heightmap, error)
	refine   func(*subdivision, context.Context) error
}{
	{"midpoint", MidpointDisplacement, (*subdivision).midpoint},
	{"midpoint-recursive", MidpointDisplacementRecursive, (*subdivision).midpointRecursive},
	{"diamond-square", DiamondSquare, (*subdivision).diamondSquare},
}

// subdivisionParams returns the defaults with the fields the subdivision
// generators read set as given.
func subdivisionParams(size int, seed int64, hurst float64, corners string) Params {
	p := DefaultParams()
	p.Size, p.Seed, p.Hurst, p.Corners = size, seed, hurst, corners
	p.Amplitude, p.CornerValue, p.CellSize = 100, 0, 2.5
	return p
}

func TestSubdivisionRejectsInvalidSizes(t *testing.T) {
	for _, tc := range []struct {
		size int
		want string
	}{
		{0, "the smallest is 3"},
		{2, "the smallest is 3"},
		{4, "nearest valid sizes are 3 and 5"},
		{100, "nearest valid sizes are 65 and 129"},
		{1024, "nearest valid sizes are 513 and 1025"},
		{MaxSize*2 - 1, "out of range"},
	} {
		for _, g := range subdivisionGenerators {
			m, err := g.generate(context.Background(), subdivisionParams(tc.size, 1, 0.5, CornersRandom), nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) || m != nil {
				t.Errorf("%s size %d: got map %v, error %v; want no map and an error containing %q", g.name, tc.size, m != nil, err, tc.want)
			}
		}
	}
}

func TestSubdivisionRejectsUnknownCorners(t *testing.T) {
	for _, g := range subdivisionGenerators {
		_, err := g.generate(context.Background(), subdivisionParams(33, 1, 0.5, "wild"), nil)
		if err == nil || !strings.Contains(err.Error(), "corners") {
			t.Errorf("%s: corners \"wild\": error %v, want one naming corners", g.name, err)
		}
	}
}

func TestSubdivisionMapFields(t *testing.T) {
	for _, g := range subdivisionGenerators {
		p := subdivisionParams(33, 5, 0.7, CornersRandom)
		m, err := g.generate(context.Background(), p, nil)
		if err != nil {
			t.Fatalf("%s: %v", g.name, err)
		}
		if m.Width != 33 || m.Height != 33 || m.CellSize != p.CellSize || m.VerticalScale != p.Amplitude {
			t.Errorf("%s: map %d×%d cell %g vertical %g, want 33×33 cell %g vertical %g",
				g.name, m.Width, m.Height, m.CellSize, m.VerticalScale, p.CellSize, p.Amplitude)
		}
		if err := m.Validate(); err != nil {
			t.Errorf("%s: %v", g.name, err)
		}
		// Raw heights: not normalised, within the corners' A plus the sum
		// of the displacement bounds, A·Σ2^(−nH) over n ≥ 1, and spanning
		// more than [0, 1].
		lo, hi := m.Range()
		limit := float32(p.Amplitude / (1 - math.Exp2(-p.Hurst)))
		if lo < -limit || hi > limit || hi-lo < 1 {
			t.Errorf("%s: raw range [%g, %g], want a span over 1 within ±%g", g.name, lo, hi, limit)
		}
	}
}

func TestSubdivisionDeterministicPerSeed(t *testing.T) {
	for _, g := range subdivisionGenerators {
		gen := func(seed int64) *Heightmap {
			m, err := g.generate(context.Background(), subdivisionParams(129, seed, 0.8, CornersRandom), nil)
			if err != nil {
				t.Fatalf("%s: %v", g.name, err)
			}
			return m
		}
		a, b, c := gen(42), gen(42), gen(43)
		differ := 0
		for i := range a.Samples {
			if math.Float32bits(a.Samples[i]) != math.Float32bits(b.Samples[i]) {
				t.Fatalf("%s: seed 42 twice differs at sample %d: %g, %g", g.name, i, a.Samples[i], b.Samples[i])
			}
			if a.Samples[i] != c.Samples[i] {
				differ++
			}
		}
		if differ < len(a.Samples)*99/100 {
			t.Errorf("%s: seeds 42 and 43 differ at only %d of %d samples", g.name, differ, len(a.Samples))
		}
	}
}

func TestSubdivisionCorners(t *testing.T) {
	corners := func(m *Heightmap) [4]float32 {
		l := m.Width - 1
		return [4]float32{m.At(0, 0), m.At(l, 0), m.At(0, l), m.At(l, l)}
	}
	for _, g := range subdivisionGenerators {
		for _, cv := range []float64{0, 0.5, -1} {
			p := subdivisionParams(17, 9, 0.5, CornersFixed)
			p.CornerValue = cv
			m, err := g.generate(context.Background(), p, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := float32(cv * p.Amplitude)
			if got := corners(m); got != [4]float32{want, want, want, want} {
				t.Errorf("%s fixed corners %g·A: got %v, want all %g", g.name, cv, got, want)
			}
		}
		seen := map[float32]bool{}
		for seed := int64(0); seed < 20; seed++ {
			p := subdivisionParams(17, seed, 0.5, CornersRandom)
			p.CornerValue = 0.5 // ignored with random corners
			m, err := g.generate(context.Background(), p, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range corners(m) {
				if c < -float32(p.Amplitude) || c > float32(p.Amplitude) {
					t.Errorf("%s random corners seed %d: corner %g outside ±A = ±%g", g.name, seed, c, p.Amplitude)
				}
				seen[c] = true
			}
		}
		if len(seen) < 80 {
			t.Errorf("%s random corners: only %d distinct values in 80 corners", g.name, len(seen))
		}
	}
}

// neighbourRoughness is the mean absolute difference between neighbouring samples
// divided by the map's range: near 0 for a smooth surface.
func neighbourRoughness(m *Heightmap) float64 {
	var sum float64
	var count int
	for y := 0; y < m.Height; y++ {
		for x := 0; x < m.Width; x++ {
			if x+1 < m.Width {
				sum += math.Abs(float64(m.At(x+1, y)) - float64(m.At(x, y)))
				count++
			}
			if y+1 < m.Height {
				sum += math.Abs(float64(m.At(x, y+1)) - float64(m.At(x, y)))
				count++
			}
		}
	}
	lo, hi := m.Range()
	return sum / float64(count) / (float64(hi) - float64(lo))
}

// The defining property of H (notes section 1): larger H, smoother relief.
func TestSubdivisionSmootherWithLargerHurst(t *testing.T) {
	for _, g := range subdivisionGenerators {
		prev := math.Inf(1)
		for _, h := range []float64{0.2, 0.5, 0.8, 1.2} {
			var mean float64
			const seeds = 4
			for seed := int64(1); seed <= seeds; seed++ {
				m, err := g.generate(context.Background(), subdivisionParams(257, seed, h, CornersRandom), nil)
				if err != nil {
					t.Fatal(err)
				}
				mean += neighbourRoughness(m) / seeds
			}
			t.Logf("%s H=%.1f: roughness %.4f", g.name, h, mean)
			if !(mean < prev) {
				t.Errorf("%s: roughness %.4f at H=%g is not below %.4f at the previous H", g.name, mean, h, prev)
			}
			prev = mean
		}
	}
}

// checkDisplacements checks every vertex of a map made by refine against
// notes eq. 1–2: h(v) − mean(parents) = A·R(v)·2^(−nH), so that |z| stays
// within A·2^(−nH) and, on levels with many vertices, comes close to it.
// parents lists the vertices a level-n vertex (x, y) averages, d = d_n
// apart; the means are recomputed here from the final heights, so a vertex
// computed before its parents were final, or twice, fails.
func checkDisplacements(t *testing.T, name string, p Params, m *Heightmap, parents func(x, y, d, last int) [][2]int) {
	t.Helper()
	last := m.Width - 1
	N := 0
	for 1<<N < last {
		N++
	}
	key := seedKey(p.Seed)
	largest := make([]float64, N+1) // largest |z|/bound at each level
	count := make([]int, N+1)
	for y := 0; y <= last; y++ {
		for x := 0; x <= last; x++ {
			if (x == 0 || x == last) && (y == 0 || y == last) {
				continue
			}
			d := (x | y) & -(x | y) // lowest set bit: the vertex's d_n
			n := N
			for 1<<(N-n) < d {
				n--
			}
			var mean float64
			ps := parents(x, y, d, last)
			for _, q := range ps {
				mean += float64(m.At(q[0], q[1]))
			}
			mean /= float64(len(ps))
			z := float64(m.At(x, y)) - mean
			bound := p.Amplitude * math.Exp2(-float64(n)*p.Hurst)
			tol := 1e-5 * p.Amplitude
			if math.Abs(z) > bound+tol {
				t.Fatalf("%s H=%g: vertex (%d, %d) at level %d: displacement %g exceeds A·2^(−nH) = %g", name, p.Hurst, x, y, n, z, bound)
			}
			if want := bound * vertexRandom(key, x, y); math.Abs(z-want) > tol {
				t.Fatalf("%s H=%g: vertex (%d, %d) at level %d: h − mean of %v = %g, want A·R·2^(−nH) = %g", name, p.Hurst, x, y, n, ps, z, want)
			}
			largest[n] = max(largest[n], math.Abs(z)/bound)
			count[n]++
		}
	}
	for n := 1; n <= N; n++ {
		if count[n] >= 30 && largest[n] < 0.8 {
			t.Errorf("%s H=%g: level %d: largest |z| is %.2f of A·2^(−nH) over %d vertices; the amplitude is too small", name, p.Hurst, n, largest[n], count[n])
		}
	}
}

func TestSubdivisionProgress(t *testing.T) {
	for _, g := range subdivisionGenerators {
		var mu sync.Mutex
		var got []float64
		_, err := g.generate(context.Background(), subdivisionParams(1025, 3, 0.5, CornersRandom), func(f float64) {
			mu.Lock()
			got = append(got, f)
			mu.Unlock()
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) < 10 || got[len(got)-1] != 1 {
			t.Fatalf("%s: %d progress reports ending at %v; want at least 10, ending at 1", g.name, len(got), got[len(got)-1:])
		}
		for i, f := range got {
			if f < 0 || f > 1 || (i > 0 && f < got[i-1]) {
				t.Fatalf("%s: progress report %d is %g after %g; want non-decreasing in [0, 1]", g.name, i, f, got[max(i-1, 0)])
			}
		}
	}
}

func TestSubdivisionCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, g := range subdivisionGenerators {
		m, err := g.generate(ctx, subdivisionParams(257, 1, 0.5, CornersRandom), nil)
		if !errors.Is(err, context.Canceled) || m != nil {
			t.Errorf("%s with a cancelled context: map %v, error %v; want no map and context.Canceled", g.name, m != nil, err)
		}
	}
}

// Cancelled a third of the way through a 4097² map, a generator stops
// working: its progress stays near a third instead of running on to 1 and
// finishing a map nobody wants. Unlike a time limit, this cannot pass for a
// generator that ignores its context.
func TestSubdivisionStopsWorkWhenCancelled(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 4097² maps")
	}
	for _, g := range subdivisionGenerators {
		ctx, cancel := context.WithCancel(context.Background())
		var mu sync.Mutex
		var reached float64
		m, err := g.generate(ctx, subdivisionParams(4097, 1, 0.5, CornersRandom), func(f float64) {
			mu.Lock()
			defer mu.Unlock()
			reached = max(reached, f)
			if f >= 0.3 {
				cancel()
			}
		})
		cancel()
		if !errors.Is(err, context.Canceled) || m != nil {
			t.Errorf("%s cancelled: map %v, error %v; want no map and context.Canceled", g.name, m != nil, err)
		}
		if reached > 0.5 {
			t.Errorf("%s cancelled at progress 0.3 went on to %.3f", g.name, reached)
		}
	}
}

// The shared-edge rule (notes section 2): each vertex is computed once.
func TestSubdivisionComputesEveryVertexOnce(t *testing.T) {
	for _, g := range subdivisionGenerators {
		for _, size := range []int{3, 5, 33, 513} {
			s, _, err := newSubdivision(subdivisionParams(size, 7, 0.5, CornersRandom), nil)
			if err != nil {
				t.Fatal(err)
			}
			s.writes = make([]uint8, len(s.h))
			for _, i := range []int{0, size - 1, len(s.h) - size, len(s.h) - 1} {
				s.writes[i] = 1 // the corners, set by newSubdivision
			}
			if err := g.refine(s, context.Background()); err != nil {
				t.Fatal(err)
			}
			for i, w := range s.writes {
				if w != 1 {
					t.Fatalf("%s %d²: vertex (%d, %d) computed %d times, want once", g.name, size, i%size, i/size, w)
				}
			}
		}
	}
}

// checkStages runs the passes of a 5×5 grid one by one, starting from the
// corners alone, and checks after each that exactly the vertices whose label
// in want comes at or before that pass are set. Unset vertices hold NaN, so a
// pass that read one would leave NaN behind and fail too.
func checkStages(t *testing.T, name string, want [5]string, passes []string, run func(s *subdivision, pass int) error) {
	t.Helper()
	s, _, err := newSubdivision(subdivisionParams(5, 11, 0.5, CornersRandom), nil)
	if err != nil {
		t.Fatal(err)
	}
	var label [5][5]string
	for y, row := range want {
		copy(label[y][:], strings.Fields(row))
		for x := range 5 {
			if label[y][x] != "0" {
				s.h[y*5+x] = float32(math.NaN())
			}
		}
	}
	order := map[string]int{"0": -1}
	for i, p := range passes {
		order[p] = i
	}
	for i, pass := range passes {
		if err := run(s, i); err != nil {
			t.Fatal(err)
		}
		for y := range 5 {
			for x := range 5 {
				set := !math.IsNaN(float64(s.at(x, y)))
				if wantSet := order[label[y][x]] <= i; set != wantSet {
					t.Errorf("%s: after pass %s, vertex (%d, %d) (stage %s) set: %v, want %v", name, pass, x, y, label[y][x], set, wantSet)
				}
			}
		}
	}
}

// vertexRandom is R of notes eq. 2: uniform in [−1, 1], unrelated between
// neighbours and between seeds, and fixed forever for a seed.
func TestVertexRandom(t *testing.T) {
	const side = 512
	key, other := seedKey(17), seedKey(18)
	var sum, sumSq, neighbour, seeds float64
	var bins [10]int
	for y := range side {
		for x := range side {
			r := vertexRandom(key, x, y)
			if r < -1 || r >= 1 {
				t.Fatalf("R(%d, %d) = %g outside [−1, 1)", x, y, r)
			}
			sum += r
			sumSq += r * r
			neighbour += r * vertexRandom(key, x+1, y)
			seeds += r * vertexRandom(other, x, y)
			bins[int((r+1)*5)]++
		}
	}
	n := float64(side * side)
	// Standard errors: mean 0.0011, variance 0.0006, correlations 0.0020.
	if mean := sum / n; math.Abs(mean) > 0.006 {
		t.Errorf("mean R = %g, want 0", mean)
	}
	if v := sumSq / n; math.Abs(v-1.0/3) > 0.003 {
		t.Errorf("mean R² = %g, want 1/3", v)
	}
	if c := neighbour / sumSq; math.Abs(c) > 0.01 {
		t.Errorf("correlation of R with its right neighbour = %g, want 0", c)
	}
	if c := seeds / sumSq; math.Abs(c) > 0.01 {
		t.Errorf("correlation of R between seeds 17 and 18 = %g, want 0", c)
	}
	for i, b := range bins {
		if math.Abs(float64(b)-n/10) > 0.03*n/10 {
			t.Errorf("bin [%.1f, %.1f) holds %d values, want about %.0f", float64(i)/5-1, float64(i+1)/5-1, b, n/10)
		}
	}
	// A change here changes every subdivision map of every seed.
	for _, tc := range []struct {
		seed int64
		x, y int
		want float64
	}{
		{17, 0, 0, 0.015441290913906336},
		{17, 4096, 0, -0.7511068413186974},
		{-5, 3, 1000, 0.5418868308683689},
	} {
		if got := vertexRandom(seedKey(tc.seed), tc.x, tc.y); got != tc.want {
			t.Errorf("R(seed %d, %d, %d) = %v, want %v", tc.seed, tc.x, tc.y, got, tc.want)
		}
	}
}
