package terrain

import (
	"context"
	"errors"
	"math"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"cordillera/noise"
)

// The fast path must give exactly what the point-evaluated oracle gives,
// for every fractal algorithm, basis and basis transform, and with or
// without distortion.
func TestFastPathMatchesReference(t *testing.T) {
	for _, alg := range Algorithms {
		if alg.IsSubdivision() {
			continue
		}
		for _, basis := range noise.Kinds {
			for _, tr := range BasisTransforms {
				for _, distortion := range []float64{0, 40} {
					p := smallParams(alg)
					p.Basis, p.BasisTransform, p.Distortion, p.Size = basis, tr, distortion, 97
					p.Lacunarity = 1.9871 // not a power of two: exercises the coordinate arithmetic
					fast, err := Generate(context.Background(), p, nil)
					if err != nil {
						t.Fatal(err)
					}
					ref, err := GenerateReference(context.Background(), p)
					if err != nil {
						t.Fatal(err)
					}
					for i := range fast.Samples {
						if math.Float32bits(fast.Samples[i]) != math.Float32bits(ref.Samples[i]) {
							t.Fatalf("%s/%s %s distortion %v: sample %d fast %v != reference %v",
								alg, basis, p.BasisTransform, distortion, i, fast.Samples[i], ref.Samples[i])
						}
					}
				}
			}
		}
	}
}

// The fast path's column tables and kept lattice rows must give the
// oracle's bits for any seed, at feature sizes from one sample (where the
// finest octaves skip lattice cells between samples) to the whole map, at
// λ = 2, and on periodic (tileable) lattices.
func TestFastPathMatchesReferenceAcrossSeeds(t *testing.T) {
	for _, alg := range []Algorithm{FBm, Hybrid, Quilez} {
		for _, basis := range []noise.Kind{noise.Value, noise.Perlin, noise.Simplex} {
			for _, seed := range []int64{-7, 0, 1<<40 + 3} {
				for _, fs := range []float64{0, 50, 100} {
					for _, tile := range []bool{false, true} {
						if tile && basis == noise.Simplex {
							continue
						}
						p := DefaultParams()
						p.Algorithm, p.Basis, p.Seed, p.FeatureSize, p.Tileable = alg, basis, seed, fs, tile
						p.Size, p.Octaves = 33, 9
						fast, err := Generate(context.Background(), p, nil)
						if err != nil {
							t.Fatal(err)
						}
						ref, err := GenerateReference(context.Background(), p)
						if err != nil {
							t.Fatal(err)
						}
						for i := range fast.Samples {
							if math.Float32bits(fast.Samples[i]) != math.Float32bits(ref.Samples[i]) {
								t.Fatalf("%s/%s seed %d feature %v%% tileable %v: sample %d fast %v != reference %v",
									alg, basis, seed, fs, tile, i, fast.Samples[i], ref.Samples[i])
							}
						}
					}
				}
			}
		}
	}
}

// Normalisation checks the raw range once; a NaN or infinity anywhere in
// the map must still be found.
func TestNormalizeFindsNonFiniteHeights(t *testing.T) {
	for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
		for _, at := range []int{0, 5, 17*33 + 3, 33*33 - 1} {
			m := NewHeightmap(33, 33)
			for i := range m.Samples {
				m.Samples[i] = float32(i % 7)
			}
			m.Samples[at] = bad
			if err := normalize(context.Background(), m, DefaultParams()); err == nil || !strings.Contains(err.Error(), "diverged") {
				t.Errorf("%v at sample %d: error %v, want one saying the heights diverged", bad, at, err)
			}
		}
	}
}

func TestFractalAlgorithmsMatchListings(t *testing.T) {
	// One sample computed by hand from the thesis listings with the basis
	// itself, against the generator's raw output.
	p := DefaultParams()
	p.Size, p.Octaves, p.Lacunarity, p.Hurst, p.Offset = 33, 4, 2.1, 0.7, 0.4
	col, row := 13, 21
	for _, tr := range BasisTransforms {
		for _, alg := range []Algorithm{FBm, Hetero, Hybrid, Quilez, Ridged, Billow} {
			p.Algorithm, p.BasisTransform = alg, tr
			m, err := fractalRaw(context.Background(), p, 1, nil, 0, 1)
			if err != nil {
				t.Fatal(err)
			}
			freq := 1 / featurePeriod(p.Size, p.FeatureSize)
			x, y := float64(col)*freq+gridOffset, float64(row)*freq+gridOffset
			var value, w, dx, dy, signal float64
			for i := 0; i < p.Octaves; i++ {
				b, _ := noise.New(p.Basis, octaveSeed(p.Seed, i))
				n, ndx, ndy := b.Eval(x, y)
				switch tr { // T_in of thesis fig. 3.3, with its gradient by the chain rule
				case RidgedBasis: // 1 − |h|
					s := math.Copysign(1, n)
					n, ndx, ndy = 1-math.Abs(n), -s*ndx, -s*ndy
				case BillowBasis: // |h|
					s := math.Copysign(1, n)
					n, ndx, ndy = math.Abs(n), s*ndx, s*ndy
				}
				amp := math.Pow(p.Lacunarity, -float64(i)*p.Hurst)
				switch alg {
				case FBm: // listing 6.1
					value += amp * n
				case Hetero: // listing 6.2
					if i == 0 {
						value = n + p.Offset
					} else {
						value += value * amp * (n + p.Offset)
					}
				case Hybrid: // listing 6.3
					if i == 0 {
						value, w = n+p.Offset, n+p.Offset
					} else {
						w = math.Min(w, 1)
						aux := amp * (n + p.Offset)
						value += w * aux
						w *= aux
					}
				case Quilez: // listing 6.4
					dx, dy = dx+ndx, dy+ndy
					value += amp * n / (1 + dx*dx + dy*dy)
				case Ridged:
					r := (1 - math.Abs(n)) * (1 - math.Abs(n))
					if i == 0 {
						value, signal = r, r
					} else {
						signal = r * math.Min(math.Max(signal*2, 0), 1)
						value += signal * amp
					}
				case Billow:
					value += amp * math.Abs(n)
				}
				x, y = x*p.Lacunarity, y*p.Lacunarity
			}
			if got := float64(m.At(col, row)); math.Abs(got-value) > 1e-6*math.Max(1, math.Abs(value)) {
				t.Errorf("%s, basis transform %s: raw sample %v, listing gives %v", alg, tr, got, value)
			}
		}
	}
}

// fBm of the billowy basis |N| is the billow algorithm, bit for bit, and
// the ridged basis 1 − |N| folds fBm into sharp crests as the ridged
// multifractal does; Swiss turbulence changes too.
func TestBasisTransformsShapeAnyAlgorithm(t *testing.T) {
	raw := func(alg Algorithm, tr BasisTransform) *Heightmap {
		p := smallParams(alg)
		p.BasisTransform = tr
		m, err := fractalRaw(context.Background(), p, 1, nil, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	fb, b := raw(FBm, BillowBasis), raw(Billow, PlainBasis)
	for i := range fb.Samples {
		if math.Float32bits(fb.Samples[i]) != math.Float32bits(b.Samples[i]) {
			t.Fatalf("fbm of |N| differs from the billow algorithm at sample %d: %v != %v", i, fb.Samples[i], b.Samples[i])
		}
	}
	for _, alg := range []Algorithm{FBm, Hetero, Hybrid, Quilez, Ridged, Billow, Swiss} {
		plain := raw(alg, PlainBasis)
		if mapsEqual(plain, raw(alg, RidgedBasis)) {
			t.Errorf("%s: -basis-transform ridged gives the untransformed map", alg)
		}
		// Ridged, billow and Swiss read only |N| (and N·∇N), so |N| leaves them as they are.
		absOnly := alg == Ridged || alg == Billow || alg == Swiss
		if got := mapsEqual(plain, raw(alg, BillowBasis)); got != absOnly {
			t.Errorf("%s: -basis-transform billow leaves the map unchanged: %v, want %v", alg, got, absOnly)
		}
	}
	asym := func(tr BasisTransform) float64 {
		m, low, high := lowHigh(t, FBm, func(p *Params) { p.BasisTransform = tr })
		return curvature(m, high) / -curvature(m, low)
	}
	if r, f := asym(RidgedBasis), asym(PlainBasis); r < 1.2 || r < 1.5*f {
		t.Errorf("crest/valley curvature: fbm of 1 − |N| %v, fbm %v; want > 1.2 and > 1.5× fbm", r, f)
	}
}

func mapsEqual(a, b *Heightmap) bool {
	for i := range a.Samples {
		if math.Float32bits(a.Samples[i]) != math.Float32bits(b.Samples[i]) {
			return false
		}
	}
	return len(a.Samples) == len(b.Samples)
}

func TestDeterministicAndSeedDependent(t *testing.T) {
	for _, alg := range Algorithms {
		p := smallParams(alg)
		a, _ := Generate(context.Background(), p, nil)
		b, _ := Generate(context.Background(), p, nil)
		p.Seed++
		c, _ := Generate(context.Background(), p, nil)
		if meanAbsDiff(a, b) != 0 {
			t.Errorf("%s: two runs with one seed differ", alg)
		}
		if meanAbsDiff(a, c) < 0.02 {
			t.Errorf("%s: seeds 17 and 18 give nearly the same map", alg)
		}
		lo, hi := a.Range()
		if lo != 0 || hi != 1 {
			t.Errorf("%s: normalised range %v–%v, want 0–1", alg, lo, hi)
		}
	}
}

// roughness is the mean absolute difference between horizontal neighbours.
func roughness(m *Heightmap) float64 {
	var s float64
	for y := 0; y < m.Height; y++ {
		for x := 1; x < m.Width; x++ {
			s += math.Abs(float64(m.At(x, y) - m.At(x-1, y)))
		}
	}
	return s / float64(m.Height*(m.Width-1))
}

func TestLargerHurstIsSmoother(t *testing.T) {
	for _, alg := range []Algorithm{FBm, Quilez, Billow, DiamondSquareAlg, Midpoint} {
		prev := math.Inf(1)
		for _, h := range []float64{0.3, 0.6, 1.0, 1.5} {
			var r float64
			for seed := int64(1); seed <= 3; seed++ {
				p := smallParams(alg)
				p.Size, p.Hurst, p.Seed = 129, h, seed
				m, err := Generate(context.Background(), p, nil)
				if err != nil {
					t.Fatal(err)
				}
				r += roughness(m) / 3
			}
			if r >= prev {
				t.Errorf("%s: roughness %v at H=%v is not below %v at the smaller H", alg, r, h, prev)
			}
			prev = r
		}
	}
}

func TestLargerFeatureSizeIsSmoother(t *testing.T) {
	prev := math.Inf(1)
	for _, fs := range []float64{50, 75, 90, 100} {
		p := smallParams(FBm)
		p.Size, p.FeatureSize = 129, fs
		m, _ := Generate(context.Background(), p, nil)
		if r := roughness(m); r >= prev {
			t.Errorf("feature size %v%%: roughness %v not below %v", fs, r, prev)
		} else {
			prev = r
		}
	}
}

// meanLaplacian averages f(4h − Σneighbours) over the interior samples
// among idx.
func meanLaplacian(m *Heightmap, idx []int, f func(float64) float64) float64 {
	var s float64
	var n int
	for _, i := range idx {
		x, y := i%m.Width, i/m.Width
		if x == 0 || y == 0 || x == m.Width-1 || y == m.Height-1 {
			continue
		}
		s += f(float64(4*m.At(x, y) - m.At(x-1, y) - m.At(x+1, y) - m.At(x, y-1) - m.At(x, y+1)))
		n++
	}
	return s / float64(n)
}

// localDetail is the mean absolute Laplacian of the raw heights in the given
// samples: how much fine detail rides on the surface there.
func localDetail(m *Heightmap, idx []int) float64 { return meanLaplacian(m, idx, math.Abs) }

// quantileSets returns the indices of the lowest and highest fifth of key.
func quantileSets(key []float64) (low, high []int) {
	idx := make([]int, len(key))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return key[idx[a]] < key[idx[b]] })
	k := len(idx) / 5
	return idx[:k], idx[len(idx)-k:]
}

// The heterogeneous multifractal scales each octave by the height so far,
// so ground near its sea level is smoother than ground above it (thesis
// 6.1.2); plain fBm shows no such difference.
func TestHeteroSmootherNearSeaLevel(t *testing.T) {
	ratio := func(alg Algorithm) float64 {
		p := smallParams(alg)
		p.Size, p.Octaves, p.Offset, p.FeatureSize = 257, 8, 0.5, 80
		raw, err := fractalRaw(context.Background(), p, 1, nil, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		if alg == Hetero {
			checkHeteroListing(t, p, raw)
		}
		key := make([]float64, len(raw.Samples))
		for i, v := range raw.Samples {
			key[i] = float64(v)
		}
		low, high := quantileSets(key)
		return localDetail(raw, low) / localDetail(raw, high)
	}
	h, f := ratio(Hetero), ratio(FBm)
	if h > 0.6 {
		t.Errorf("hetero: detail near sea level / detail on the heights = %v, want < 0.6", h)
	}
	if f < 0.7 {
		t.Errorf("fbm: detail ratio %v; the comparison is meaningless if fBm is not uniform", f)
	}
}

// checkHeteroListing compares samples of the raw hetero map with listing
// 6.2 of the thesis (seed 004), HeteroMultifractal, evaluated with the
// basis itself: value = N(p) + offset, then value += value·amp·(N(λ^i p) +
// offset) — each octave scaled by the height so far.
func checkHeteroListing(t *testing.T, p Params, raw *Heightmap) {
	t.Helper()
	freq := 1 / featurePeriod(p.Size, p.FeatureSize)
	for _, at := range [][2]int{{0, 0}, {17, 200}, {128, 128}, {255, 3}, {91, 240}} {
		x, y := float64(at[0])*freq+gridOffset, float64(at[1])*freq+gridOffset
		var value float64
		for i := 0; i < p.Octaves; i++ {
			b, _ := noise.New(p.Basis, octaveSeed(p.Seed, i))
			n, _, _ := b.Eval(x, y)
			if i == 0 {
				value = n + p.Offset
			} else {
				value += value * math.Pow(p.Lacunarity, -float64(i)*p.Hurst) * (n + p.Offset)
			}
			x, y = x*p.Lacunarity, y*p.Lacunarity
		}
		if got := float64(raw.At(at[0], at[1])); math.Abs(got-value) > 1e-5*math.Max(1, math.Abs(value)) {
			t.Errorf("hetero sample (%d,%d) is %v; listing 6.2 gives %v", at[0], at[1], got, value)
		}
	}
}

// Quilez turbulence damps later octaves where the accumulated gradient is
// large, so steep ground carries less fine detail than flat ground; fBm with
// the same basis carries the same detail on both.
func TestQuilezDampsDetailOnSlopes(t *testing.T) {
	ratio := func(alg Algorithm, seed int64) float64 {
		p := smallParams(alg)
		p.Size, p.Octaves, p.Seed = 257, 6, seed
		full, _ := fractalRaw(context.Background(), p, 1, nil, 0, 1)
		p.Octaves = 1
		first, _ := fractalRaw(context.Background(), p, 1, nil, 0, 1)
		b, _ := noise.New(p.Basis, octaveSeed(p.Seed, 0))
		freq := 1 / featurePeriod(p.Size, p.FeatureSize)
		slope := make([]float64, len(full.Samples))
		detail := make([]float64, len(full.Samples))
		for i := range slope {
			_, dx, dy := b.Eval(float64(i%p.Size)*freq+gridOffset, float64(i/p.Size)*freq+gridOffset)
			slope[i] = math.Hypot(dx, dy)
			detail[i] = math.Abs(float64(full.Samples[i] - first.Samples[i]))
		}
		flat, steep := quantileSets(slope)
		mean := func(idx []int) (s float64) {
			for _, i := range idx {
				s += detail[i]
			}
			return s / float64(len(idx))
		}
		return mean(steep) / mean(flat)
	}
	var q, f float64
	for seed := int64(17); seed < 20; seed++ { // one seed is a small sample
		q += ratio(Quilez, seed) / 3
		f += ratio(FBm, seed) / 3
	}
	t.Logf("detail ratio steep/flat over three seeds: quilez %.3f, fbm %.3f", q, f)
	if q > 0.85 || q > 0.9*f {
		t.Errorf("detail on the steepest fifth / on the flattest fifth: quilez %v, fbm %v; want quilez < 0.85 and below 0.9× fbm", q, f)
	}
}

func TestGenerateCancels(t *testing.T) {
	for _, alg := range []Algorithm{FBm, Swiss, DiamondSquareAlg} {
		p := DefaultParams()
		p.Algorithm, p.Size = alg, 4097
		ctx, cancel := context.WithCancel(context.Background())
		var once sync.Once
		var last atomic.Uint64 // the progress reported, as float64 bits
		m, err := Generate(ctx, p, func(f float64) {
			if f > 0 {
				once.Do(cancel) // as soon as the work has begun
			}
			last.Store(math.Float64bits(f))
		})
		if !errors.Is(err, context.Canceled) || m != nil {
			t.Errorf("%s: got map %v, error %v; want context.Canceled", alg, m != nil, err)
		}
		if f := math.Float64frombits(last.Load()); f >= 0.85 {
			t.Errorf("%s: progress reached %v after the cancel: the generator did not stop", alg, f)
		}
	}
}

func TestGenerateReportsProgress(t *testing.T) {
	for _, alg := range []Algorithm{FBm, Midpoint, DiamondSquareAlg} {
		var mu sync.Mutex
		var got []float64
		p := smallParams(alg)
		p.Size, p.Effect, p.Intensity = 257, Canyon, 40
		_, err := Generate(context.Background(), p, func(f float64) {
			mu.Lock()
			got = append(got, f)
			mu.Unlock()
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) < 5 || got[0] != 0 || got[len(got)-1] != 1 {
			t.Fatalf("%s: progress %v, want several reports from 0 to 1", alg, got)
		}
		for i, f := range got {
			if f < 0 || f > 1 || (i > 0 && f < got[i-1]) {
				t.Fatalf("%s: progress %v not non-decreasing within [0, 1]", alg, got)
			}
		}
	}
}

func TestGenerateRejectsBadParams(t *testing.T) {
	p := DefaultParams()
	p.Hurst = math.NaN()
	if _, err := Generate(context.Background(), p, nil); err == nil {
		t.Error("NaN hurst accepted")
	}
	p = DefaultParams()
	p.Algorithm, p.Size = Midpoint, 1000
	if _, err := Generate(context.Background(), p, nil); err == nil {
		t.Error("midpoint at 1000 accepted")
	}
}

// The benchmarks that -cpu 1,2 compares loop over b.N, not b.Loop. The
// testing package makes its first, one-iteration probe of a benchmark
// before it sets GOMAXPROCS to the first -cpu entry (golang/go#49980), so
// the probe runs at the previous benchmark's last entry (or the machine's
// default); with b.N that probe only sizes the real runs, but b.Loop does
// all its iterations inside it, so the first entry's figure was measured at
// the wrong core count.
func BenchmarkFBmPerlin1025(b *testing.B) {
	p := DefaultParams()
	for range b.N {
		if _, err := Generate(context.Background(), p, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFBmPerlin1025Reference(b *testing.B) {
	p := DefaultParams()
	for range b.N {
		if _, err := GenerateReference(context.Background(), p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFBmPerlin1025AVX2 is BenchmarkFBmPerlin1025 with the AVX2
// kernels forced (issue 15: with AVX2 only, at least 8× the reference),
// skipped where the CPU has no AVX2.
func BenchmarkFBmPerlin1025AVX2(b *testing.B) {
	benchFBmBasisKernel(b, noise.Perlin, false, noise.KernelAVX2)
}

// BenchmarkFBmPerlin1025GoKernel is BenchmarkFBmPerlin1025 in pure Go.
func BenchmarkFBmPerlin1025GoKernel(b *testing.B) {
	benchFBmBasisKernel(b, noise.Perlin, false, noise.KernelGo)
}

// curvature is the mean discrete Laplacian 4h − Σneighbours over the given
// samples, per unit of the map's height range: positive on crests, negative
// in creases.
func curvature(m *Heightmap, idx []int) float64 {
	lo, hi := m.Range()
	return meanLaplacian(m, idx, func(l float64) float64 { return l }) / float64(hi-lo)
}

// lowHigh returns the raw map of alg and its lowest and highest fifths.
func lowHigh(t *testing.T, alg Algorithm, tweak func(*Params)) (m *Heightmap, low, high []int) {
	p := smallParams(alg)
	p.Size, p.Octaves, p.FeatureSize = 257, 8, 80
	if tweak != nil {
		tweak(&p)
	}
	m, err := fractalRaw(context.Background(), p, 1, nil, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	key := make([]float64, len(m.Samples))
	for i, v := range m.Samples {
		key[i] = float64(v)
	}
	low, high = quantileSets(key)
	return m, low, high
}

// The ridged multifractal folds each octave into sharp crests: its highest
// ground is more sharply curved than its lowest, the opposite of fBm.
func TestRidgedHasSharpCrests(t *testing.T) {
	asym := func(alg Algorithm) float64 {
		m, low, high := lowHigh(t, alg, nil)
		return curvature(m, high) / -curvature(m, low)
	}
	r, f := asym(Ridged), asym(FBm)
	if r < 1.2 || r < 1.5*f {
		t.Errorf("crest/valley curvature: ridged %v, fbm %v; want ridged > 1.2 and > 1.5× fbm", r, f)
	}
}

// Billowy noise sums |N|, which creases wherever N crosses zero: its valleys
// are far more sharply curved than fBm's.
func TestBillowHasCreasedValleys(t *testing.T) {
	valley := func(alg Algorithm) float64 {
		m, low, _ := lowHigh(t, alg, nil)
		return -curvature(m, low)
	}
	b, f := valley(Billow), valley(FBm)
	if b < 1.8*f {
		t.Errorf("valley curvature: billow %v, fbm %v; want billow > 1.8× fbm", b, f)
	}
}

// The hybrid multifractal weights each octave by the ones before, so its
// valleys stay smooth (thesis 6.1.3, with Musgrave's H = 0.25).
func TestHybridHasSmoothValleys(t *testing.T) {
	m, low, high := lowHigh(t, Hybrid, func(p *Params) { p.Hurst, p.Offset = 0.25, 0.7 })
	if r := localDetail(m, low) / localDetail(m, high); r > 0.5 {
		t.Errorf("hybrid: detail in the valleys / on the heights = %v, want < 0.5", r)
	}
}

// A preview evaluates exactly the full map's samples at its spacing, for
// every fractal algorithm, and covers the same world.
func TestPreviewSamplesTheFullMap(t *testing.T) {
	for _, alg := range Algorithms {
		if alg.IsSubdivision() {
			continue
		}
		p := smallParams(alg)
		p.Size, p.Distortion = 129, 30
		full, err := fractalRaw(context.Background(), p, 1, nil, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		const stride = 4
		pre, err := fractalRaw(context.Background(), p, stride, nil, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		if pre.Width != 33 || pre.Height != 33 {
			t.Fatalf("%s: preview %d×%d, want 33×33", alg, pre.Width, pre.Height)
		}
		for r := 0; r < pre.Height; r++ {
			for c := 0; c < pre.Width; c++ {
				if pre.At(c, r) != full.At(c*stride, r*stride) {
					t.Fatalf("%s: preview (%d,%d) = %v, full map at (%d,%d) = %v", alg, c, r, pre.At(c, r), c*stride, r*stride, full.At(c*stride, r*stride))
				}
			}
		}
	}
	p := DefaultParams()
	if s := PreviewStride(p, 129); s != 8 {
		t.Errorf("1025² with previews of at most 129: stride %d, want 8", s)
	}
	m, err := GeneratePreview(context.Background(), p, 8, nil)
	if err != nil {
		t.Fatal(err)
	}
	fw, _ := m.Extent()
	if m.Width != 129 || fw != 1024 {
		t.Errorf("preview %d samples over %v units, want 129 over 1024", m.Width, fw)
	}
	p.Algorithm = DiamondSquareAlg
	if s := PreviewStride(p, 129); s != 1 {
		t.Errorf("subdivision stride %d, want 1 (made in full)", s)
	}
}

// At feature size 0 the first octave's period is one sample; the samples
// must still fall off the noise lattice, where gradient noise is zero.
func TestFeatureSizeZeroIsNotFlat(t *testing.T) {
	for _, basis := range []noise.Kind{noise.Perlin, noise.Simplex, noise.Value} {
		p := smallParams(FBm)
		p.Basis, p.FeatureSize, p.Octaves = basis, 0, 1
		m, err := fractalRaw(context.Background(), p, 1, nil, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := m.Range()
		if hi-lo < 0.1 {
			t.Errorf("%s at feature size 0: raw range %v–%v, a flat map", basis, lo, hi)
		}
	}
}
