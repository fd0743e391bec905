package terrain

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"

	"cordillera/noise"
)

// sameBits reports the first sample where a and b differ in any bit, or -1.
func sameBits(a, b []float32) int {
	if len(a) != len(b) {
		return 0
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return i
		}
	}
	return -1
}

// The last state is the generator's raw map, and normalising it gives
// Generate's map: the stepper shows what Generate does.
func TestSubdivisionStepsEndAtGeneratorOutput(t *testing.T) {
	for _, g := range subdivisionGenerators {
		for _, size := range []int{5, 33, 129} {
			for _, seed := range []int64{1, 17, -40503} {
				for _, corners := range []string{CornersRandom, CornersFixed} {
					p := subdivisionParams(size, seed, 0.7, corners)
					p.Algorithm, p.Effect, p.Distortion = Algorithm(g.name), NoEffect, 0
					name := fmt.Sprintf("%s %d² seed %d corners %s", g.name, size, seed, corners)
					st, err := SubdivisionSteps(context.Background(), p)
					if err != nil {
						t.Fatal(err)
					}
					if got, want := len(st.Steps()), 2*int(math.Log2(float64(size-1))); got != want {
						t.Fatalf("%s: %d steps, want %d", name, got, want)
					}
					raw, set := st.State(len(st.Steps()))
					want, err := g.generate(context.Background(), p, nil)
					if err != nil {
						t.Fatal(err)
					}
					if i := sameBits(raw.Samples, want.Samples); i >= 0 {
						t.Fatalf("%s: last state differs from the generator at (%d, %d)", name, i%size, i/size)
					}
					for i, ok := range set {
						if !ok {
							t.Fatalf("%s: last state leaves (%d, %d) unset", name, i%size, i/size)
						}
					}
					if raw.CellSize != p.CellSize || raw.VerticalScale != p.Amplitude {
						t.Errorf("%s: cell size %g, vertical scale %g; want %g, %g", name, raw.CellSize, raw.VerticalScale, p.CellSize, p.Amplitude)
					}
					generated, err := Generate(context.Background(), p, nil)
					if err != nil {
						t.Fatal(err)
					}
					if err := normalize(context.Background(), raw, p); err != nil {
						t.Fatal(err)
					}
					if i := sameBits(raw.Samples, generated.Samples); i >= 0 {
						t.Fatalf("%s: normalised last state differs from Generate at (%d, %d)", name, i%size, i/size)
					}
				}
			}
		}
	}
}

// expectedSet reports whether (x, y) is set after stage k of the notes'
// order. Level n's new points lie on the lattice of spacing d = d_n: those
// with both x/d and y/d odd are the squares' centres, those with one odd
// the edges' midpoints. Midpoint sets the edges first, diamond-square the
// centres.
func expectedSet(alg Algorithm, size, k, x, y int) bool {
	if k == 0 {
		return (x == 0 || x == size-1) && (y == 0 || y == size-1)
	}
	n := (k + 1) / 2
	d := (size - 1) >> n
	if x%d != 0 || y%d != 0 {
		return false
	}
	odd := (x/d)%2 + (y/d)%2
	switch {
	case odd == 0 || k%2 == 0: // the previous lattice, or the level is complete
		return true
	case alg == DiamondSquareAlg:
		return odd == 2
	default:
		return odd == 1
	}
}

// Each state is the generator's own grid after that many passes, its set
// samples are the lattice of d_n plus the stage's points, each sample is
// added once, and every step's fields follow the notes.
func TestSubdivisionStepsStages(t *testing.T) {
	for _, alg := range []Algorithm{Midpoint, DiamondSquareAlg} {
		for _, size := range []int{3, 5, 33, 129} {
			p := subdivisionParams(size, 5, 0.65, CornersRandom)
			p.Algorithm = alg
			name := fmt.Sprintf("%s %d²", alg, size)
			st, err := SubdivisionSteps(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			// Replay the passes on a grid of our own, to compare each state
			// with the live grid.
			s, _, err := newSubdivision(p, nil)
			if err != nil {
				t.Fatal(err)
			}
			stages := [2]string{StageEdges, StageCentres}
			if alg == DiamondSquareAlg {
				stages = [2]string{StageDiamond, StageSquare}
			}
			added := make([]int, size*size)
			prev := make([]bool, size*size)
			for k := 0; k <= len(st.Steps()); k++ {
				raw, set := st.State(k)
				if k > 0 {
					step := st.Steps()[k-1]
					n := (k + 1) / 2
					if step.Iteration != n || step.Stage != stages[(k+1)%2] || step.Spacing != (size-1)>>n {
						t.Fatalf("%s step %d: iteration %d stage %s spacing %d, want %d %s %d",
							name, k, step.Iteration, step.Stage, step.Spacing, n, stages[(k+1)%2], (size-1)>>n)
					}
					if want := p.Amplitude * math.Pow(2, -float64(n)*p.Hurst); math.Abs(step.Amplitude-want) > 1e-12*want {
						t.Errorf("%s step %d: amplitude %g, want A·2^(−nH) = %g", name, k, step.Amplitude, want)
					}
					var err error
					if k%2 == 1 && alg == Midpoint {
						err = s.midpointEdges(context.Background(), n, 0, 0)
					} else if k%2 == 1 {
						err = s.diamondStep(context.Background(), n, 0, 0)
					} else if alg == Midpoint {
						err = s.midpointCentres(context.Background(), n, 0, 0)
					} else {
						err = s.squareStep(context.Background(), n, 0, 0)
					}
					if err != nil {
						t.Fatal(err)
					}
					var diff [][2]int
					for i := range set {
						if set[i] && !prev[i] {
							diff = append(diff, [2]int{i % size, i / size})
						}
					}
					if !reflect.DeepEqual(step.Added, diff) {
						t.Fatalf("%s step %d: Added %v, want the newly set samples %v", name, k, step.Added, diff)
					}
					for _, v := range step.Added {
						added[v[1]*size+v[0]]++
					}
				}
				if i := sameBits(raw.Samples, s.h); i >= 0 {
					t.Fatalf("%s state %d: (%d, %d) is %g, the generator's grid has %g", name, k, i%size, i/size, raw.Samples[i], s.h[i])
				}
				for i := range set {
					if want := expectedSet(alg, size, k, i%size, i/size); set[i] != want {
						t.Fatalf("%s state %d: (%d, %d) set %v, want %v", name, k, i%size, i/size, set[i], want)
					}
					if !set[i] && raw.Samples[i] != 0 {
						t.Fatalf("%s state %d: unset (%d, %d) holds %g", name, k, i%size, i/size, raw.Samples[i])
					}
				}
				prev = set
			}
			for i, c := range added {
				if want := 1 - b2i(expectedSet(alg, size, 0, i%size, i/size)); c != want {
					t.Fatalf("%s: (%d, %d) added %d times over all stages, want %d", name, i%size, i/size, c, want)
				}
			}
		}
	}
	// The recursive form computes the same map: same steps.
	p := subdivisionParams(33, 5, 0.65, CornersRandom)
	p.Algorithm = Midpoint
	iterative, err := SubdivisionSteps(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	p.Algorithm = MidpointRecursive
	recursive, err := SubdivisionSteps(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(iterative.Steps(), recursive.Steps()) {
		t.Error("midpoint-recursive has other steps than midpoint")
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// The 5×5 figure of paper 003 (diamond-square: 1a the centre, 1b the four
// edge midpoints, 2a four centres, 2b the twelve remaining points) and its
// midpoint counterpart (listing 2 of the notes: edges, then centres).
func TestSubdivisionSteps5x5(t *testing.T) {
	edges1 := [][2]int{{2, 0}, {0, 2}, {4, 2}, {2, 4}}
	centre1 := [][2]int{{2, 2}}
	centres2 := [][2]int{{1, 1}, {3, 1}, {1, 3}, {3, 3}}
	edges2 := [][2]int{{1, 0}, {3, 0}, {0, 1}, {2, 1}, {4, 1}, {1, 2}, {3, 2}, {0, 3}, {2, 3}, {4, 3}, {1, 4}, {3, 4}}
	for _, tc := range []struct {
		alg    Algorithm
		labels []string
		want   [][][2]int
	}{
		{DiamondSquareAlg, []string{"1a", "1b", "2a", "2b"}, [][][2]int{centre1, edges1, centres2, edges2}},
		{Midpoint, []string{"1e", "1c", "2e", "2c"}, [][][2]int{edges1, centre1, edges2, centres2}},
	} {
		p := subdivisionParams(5, 11, 0.5, CornersFixed)
		p.Algorithm = tc.alg
		st, err := SubdivisionSteps(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Steps()) != 4 {
			t.Fatalf("%s 5×5: %d steps, want 4", tc.alg, len(st.Steps()))
		}
		for k, step := range st.Steps() {
			if len(step.Added) != len(tc.want[k]) || !reflect.DeepEqual(step.Added, tc.want[k]) {
				t.Errorf("%s 5×5 stage %s: %d points %v, want %d points %v", tc.alg, tc.labels[k], len(step.Added), step.Added, len(tc.want[k]), tc.want[k])
			}
		}
	}
}

func TestTeachRejectsBadInput(t *testing.T) {
	ctx := context.Background()
	p := subdivisionParams(33, 1, 0.5, CornersRandom)
	p.Algorithm = FBm
	if _, err := SubdivisionSteps(ctx, p); err == nil {
		t.Error("SubdivisionSteps accepted fbm")
	}
	p.Algorithm, p.Size = Midpoint, 32
	if _, err := SubdivisionSteps(ctx, p); err == nil {
		t.Error("SubdivisionSteps accepted size 32")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	p.Size = 33
	if _, err := SubdivisionSteps(cancelled, p); !errors.Is(err, context.Canceled) {
		t.Errorf("SubdivisionSteps on a cancelled context: %v", err)
	}
	if _, err := Octaves(ctx, p); err == nil {
		t.Error("Octaves accepted midpoint")
	}
	q := smallParams(FBm)
	for _, i := range []int{-1, q.Octaves} {
		if _, err := OctaveContribution(ctx, q, i); err == nil {
			t.Errorf("OctaveContribution accepted octave %d of %d", i, q.Octaves)
		}
	}
	q.Lacunarity = 0
	if _, err := Octaves(ctx, q); err == nil {
		t.Error("Octaves accepted lacunarity 0")
	}
	if _, err := Octaves(cancelled, smallParams(FBm)); !errors.Is(err, context.Canceled) {
		t.Errorf("Octaves on a cancelled context: %v", err)
	}
}

// Partial k is the point-evaluated oracle with k+1 octaves, and the last
// partial the whole raw map; for fBm, partial k at a sample is the sum of
// listing 6.1 over its first k+1 octaves.
func TestOctavesArePartialSums(t *testing.T) {
	ctx := context.Background()
	for _, alg := range Algorithms {
		if alg.IsSubdivision() {
			continue
		}
		for _, distortion := range []float64{0, 40} {
			p := smallParams(alg)
			p.Size, p.Octaves, p.Lacunarity, p.Distortion = 33, 5, 1.9871, distortion
			name := fmt.Sprintf("%s distortion %g", alg, distortion)
			partials, err := Octaves(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			if len(partials) != p.Octaves {
				t.Fatalf("%s: %d partials, want %d", name, len(partials), p.Octaves)
			}
			whole, err := fractalRaw(ctx, p, 1, nil, 0, 1)
			if err != nil {
				t.Fatal(err)
			}
			if i := sameBits(partials[p.Octaves-1].Samples, whole.Samples); i >= 0 {
				t.Fatalf("%s: last partial differs from the raw map at sample %d", name, i)
			}
			for k, m := range partials {
				q := p
				q.Octaves = k + 1
				ref, err := fractalReference(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				if i := sameBits(m.Samples, ref.Samples); i >= 0 {
					t.Fatalf("%s: partial %d differs from the oracle with %d octaves at sample %d", name, k, k+1, i)
				}
			}
		}
	}

	p := smallParams(FBm)
	p.Size, p.Octaves, p.Lacunarity, p.Hurst = 33, 5, 2.1, 0.7
	partials, err := Octaves(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	freq := 1 / featurePeriod(p.Size, p.FeatureSize)
	for _, c := range [][2]int{{0, 0}, {13, 21}, {32, 5}} {
		x, y := float64(c[0])*freq+gridOffset, float64(c[1])*freq+gridOffset
		sum := 0.0
		for k, m := range partials {
			b, err := noise.New(p.Basis, octaveSeed(p.Seed, k))
			if err != nil {
				t.Fatal(err)
			}
			sum += math.Pow(p.Lacunarity, -float64(k)*p.Hurst) * b.Value(x, y)
			x, y = x*p.Lacunarity, y*p.Lacunarity
			if got := float64(m.At(c[0], c[1])); math.Abs(got-sum) > 1e-6 {
				t.Errorf("fbm partial %d at %v: %g, listing 6.1 gives %g", k, c, got, sum)
			}
		}
	}
}

// The contributions telescope back to the whole raw map, within float32
// rounding, and are the differences of successive partials.
func TestOctaveContributionsSumToWhole(t *testing.T) {
	ctx := context.Background()
	for _, alg := range Algorithms {
		if alg.IsSubdivision() {
			continue
		}
		p := smallParams(alg)
		p.Size, p.Octaves = 33, 5
		partials, err := Octaves(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		whole := partials[p.Octaves-1]
		scale := 0.0
		for _, m := range partials {
			for _, v := range m.Samples {
				scale = max(scale, math.Abs(float64(v)))
			}
		}
		sum := make([]float64, len(whole.Samples))
		for i := range p.Octaves {
			c, err := OctaveContribution(ctx, p, i)
			if err != nil {
				t.Fatal(err)
			}
			for j, v := range c.Samples {
				want := partials[i].Samples[j]
				if i > 0 {
					want -= partials[i-1].Samples[j]
				}
				if math.Float32bits(v) != math.Float32bits(want) {
					t.Fatalf("%s: contribution %d at sample %d is %g, partial(i) − partial(i−1) = %g", alg, i, j, v, want)
				}
				sum[j] += float64(v)
			}
		}
		// Each of the subtractions rounds by at most half an ulp of the
		// largest partial, 2^−24 relative.
		tol := float64(p.Octaves) * scale * 0x1p-24
		for j, v := range whole.Samples {
			if math.Abs(sum[j]-float64(v)) > tol {
				t.Fatalf("%s: contributions sum to %g at sample %d, the whole map is %g (tolerance %g)", alg, sum[j], j, v, tol)
			}
		}
	}
}

// fBm's octave i has amplitude λ^(−iH) (thesis listing 6.1), so each
// contribution's RMS is about λ^(−H) times the one before: ½ at H = 1, λ = 2.
func TestFBmContributionsShrinkByGain(t *testing.T) {
	ctx := context.Background()
	p := DefaultParams()
	p.Algorithm, p.Size, p.Octaves, p.Lacunarity, p.Hurst = FBm, 257, 4, 2, 1
	// The first octave has a 32-sample period: 64 lattice cells, enough for
	// its RMS to settle; the last one a 4-sample period, still resolved.
	p.FeatureSize = 100 * math.Log(32) / math.Log(257)
	gain := math.Pow(p.Lacunarity, -p.Hurst)
	for _, basis := range noise.Kinds {
		for _, seed := range []int64{1, 17, 2024} {
			p.Basis, p.Seed = basis, seed
			prev := 0.0
			for i := range p.Octaves {
				c, err := OctaveContribution(ctx, p, i)
				if err != nil {
					t.Fatal(err)
				}
				rms := 0.0
				for _, v := range c.Samples {
					rms += float64(v) * float64(v)
				}
				rms = math.Sqrt(rms / float64(len(c.Samples)))
				if i > 0 {
					if ratio := rms / prev; math.Abs(ratio/gain-1) > 0.3 {
						t.Errorf("%s seed %d: RMS of octave %d is %.3f of octave %d's, want λ^(−H) = %.3f ± 30 %%", basis, seed, i, ratio, i-1, gain)
					}
				}
				prev = rms
			}
		}
	}
}

// The fluvial lesson's largest time step lifts the top by a fiftieth of
// the relief, rounded down to 1, 2 or 5 times a power of ten, never above
// the stage's; the steps below it follow the same series.
func TestFluvialTeachingDt(t *testing.T) {
	m := NewHeightmap(3, 3)
	m.Samples[4] = 1
	p := DefaultParams()
	for _, c := range []struct{ relief, want float64 }{
		{150, 2000}, // 3 m a step at U 0.001: 3000 yr, down to 2000
		{50, 1000},  // exactly 1000
		{400, 5000}, // 8000 → 5000
		{1e6, p.FluvialDt},
	} {
		m.VerticalScale = c.relief
		if got := FluvialTeachingDt(m, p); got != c.want {
			t.Errorf("relief %g m: Δt %g yr; want %g", c.relief, got, c.want)
		}
	}
	for _, c := range [][2]float64{{2000, 1000}, {1000, 500}, {5000, 2000}, {500, 200}} {
		if got := LowerTeachingDt(c[0]); got != c[1] {
			t.Errorf("below %g: %g; want %g", c[0], got, c[1])
		}
	}
	flat := NewHeightmap(3, 3)
	if got := FluvialTeachingDt(flat, p); got != p.FluvialDt {
		t.Errorf("a flat map: Δt %g; want the stage's %g", got, p.FluvialDt)
	}
}
