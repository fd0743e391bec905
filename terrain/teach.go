package terrain

import (
	"context"
	"fmt"
	"math"
)

// The explorer's Teach panel (issue 6) shows how a map comes about: a
// subdivision map stage by stage (course notes 000; the 5×5 figure of paper
// 003), a fractal map octave by octave (thesis listing 6.1). This file gives
// it the intermediate maps, computed by the generators' own code, so that
// what the panel shows is what Generate does and not a re-enactment of it.

// The stages of one subdivision iteration, in the order they run.
const (
	StageEdges   = "edges"   // midpoint: the midpoint of every edge (notes eq. 7)
	StageCentres = "centres" // midpoint: the centre of every square, from its edges (notes eq. 8)
	StageDiamond = "diamond" // diamond-square: the centre of every square, from its corners (notes eq. 9)
	StageSquare  = "square"  // diamond-square: the midpoint of every edge, from the diamond around it
)

// SubdivisionStep is one stage of a subdivision generator: the pass of
// iteration n that sets one kind of new vertex.
type SubdivisionStep struct {
	Iteration int      // n, 1-based: the level the stage refines to
	Stage     string   // StageEdges or StageCentres (midpoint), StageDiamond or StageSquare (diamond-square)
	Spacing   int      // d_n = 2^(N−n): samples between a new point and its parents
	Amplitude float64  // A·2^(−nH): the largest displacement z of this stage (notes eq. 2)
	Added     [][2]int // (col, row) of the points this stage set, row by row
}

// Stepper holds a subdivision map and the stage at which each of its samples
// was set, from which any intermediate grid can be rebuilt.
type Stepper struct {
	steps []SubdivisionStep
	final *Heightmap // the generator's raw output
	stage []uint8    // stage[i]: 0 for the corners, k if Steps()[k−1] set sample i
	s     *subdivision
	fixed bool // the corners are CornerValue·A, not displaced
}

// unstaged marks a sample no stage has set yet; 2N ≤ 26 stages fit below it.
const unstaged = 0xff

// SubdivisionSteps runs the subdivision generator p.Algorithm one stage at a
// time — midpointEdges then midpointCentres, or diamondStep then squareStep,
// for n = 1..N — and records which samples each stage set. The last state is
// the generator's raw map bit for bit (before Generate's domain distortion
// and normalisation). MidpointRecursive has the same steps as Midpoint: it
// computes the same map, only in another order. DiamondSquare sweeps a
// level's two steps together, but its map is that of the two separate
// passes bit for bit.
//
// The stepper keeps the map plus a byte per sample, and Added lists every
// sample once: it is meant for maps small enough to watch, up to a few
// hundred samples per side.
func SubdivisionSteps(ctx context.Context, p Params) (*Stepper, error) {
	var passes [2]struct {
		name string
		run  func(*subdivision, context.Context, int, float64, float64) error
	}
	switch p.Algorithm {
	case Midpoint, MidpointRecursive:
		passes[0].name, passes[0].run = StageEdges, (*subdivision).midpointEdges
		passes[1].name, passes[1].run = StageCentres, (*subdivision).midpointCentres
	case DiamondSquareAlg:
		passes[0].name, passes[0].run = StageDiamond, (*subdivision).diamondStep
		passes[1].name, passes[1].run = StageSquare, (*subdivision).squareStep
	default:
		return nil, fmt.Errorf("subdivision steps: algorithm %s is not a subdivision generator", p.Algorithm)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s, m, err := newSubdivision(p, nil)
	if err != nil {
		return nil, err
	}
	// The writes counter tells which samples a pass stored; newSubdivision
	// has already stored the four corners, uncounted.
	s.writes = make([]uint8, len(s.h))
	last := s.size - 1
	for _, i := range []int{0, last, last * s.size, last*s.size + last} {
		s.writes[i] = 1
	}
	st := &Stepper{final: m, stage: make([]uint8, len(s.h)), s: s, fixed: p.Corners == CornersFixed}
	for i, w := range s.writes {
		if w == 0 {
			st.stage[i] = unstaged
		}
	}
	for n := 1; n <= s.N; n++ {
		for _, pass := range passes {
			if err := pass.run(s, ctx, n, 0, 0); err != nil {
				return nil, err
			}
			k := len(st.steps) + 1
			step := SubdivisionStep{Iteration: n, Stage: pass.name, Spacing: s.half(n), Amplitude: s.amp[n]}
			for i, w := range s.writes {
				switch {
				case w > 1:
					return nil, fmt.Errorf("subdivision steps: %s of iteration %d stored (%d, %d) a second time", pass.name, n, i%s.size, i/s.size)
				case w == 1 && st.stage[i] == unstaged:
					st.stage[i] = uint8(k)
					step.Added = append(step.Added, [2]int{i % s.size, i / s.size})
				}
			}
			st.steps = append(st.steps, step)
		}
	}
	return st, nil
}

// Steps returns every stage in the order the generator runs them: two per
// iteration, 2N in all.
func (st *Stepper) Steps() []SubdivisionStep { return st.steps }

// State returns the raw grid after the first k stages, 0 ≤ k ≤ len(Steps()),
// and which of its samples are set; unset samples are 0, as in the
// generator's own grid. State(0) has only the corners. Since every sample
// is stored once and never changed (SubdivisionSteps checks it), the set
// samples hold their final heights.
func (st *Stepper) State(k int) (raw *Heightmap, set []bool) {
	if k < 0 || k > len(st.steps) {
		panic(fmt.Sprintf("terrain: Stepper.State(%d) out of range [0, %d]", k, len(st.steps)))
	}
	raw = NewHeightmap(st.final.Width, st.final.Height)
	raw.CellSize, raw.VerticalScale = st.final.CellSize, st.final.VerticalScale
	set = make([]bool, len(st.stage))
	for i, sk := range st.stage {
		if int(sk) <= k {
			raw.Samples[i], set[i] = st.final.Samples[i], true
		}
	}
	return raw, set
}

// PointValues is how the generator computed one sample (notes eq. 1–2):
// the mean of its parents plus z = A·R·2^(−nH).
type PointValues struct {
	X, Y    int       // the sample, (col, row)
	Stage   int       // k: Steps()[k−1] set it; 0 for the corners
	Parents [][2]int  // (col, row) of its parents, in the order the generator sums them; none for a corner
	Heights []float32 // the parents' heights
	Mean    float32   // their mean, rounded as the generator rounds it
	R       float64   // the vertex's random number, in [−1, 1)
	Amp     float64   // A·2^(−nH), the stage's largest |z|
	Z       float64   // A·R·2^(−nH)
	Height  float32   // mean + z, the sample's height
}

// Point returns how the generator computed sample (x, y): its parents by
// the stage that set it, their mean and the displacement, through the
// generator's own mean2, mean3, mean4 and height. The height is checked
// against the map the generator made, bit for bit.
func (st *Stepper) Point(x, y int) (PointValues, error) {
	s := st.s
	if x < 0 || y < 0 || x >= s.size || y >= s.size {
		return PointValues{}, fmt.Errorf("point (%d, %d): outside the %d² map", x, y, s.size)
	}
	k := int(st.stage[y*s.size+x])
	v := PointValues{X: x, Y: y, Stage: k}
	n, last := 0, s.size-1
	if k > 0 {
		step := st.steps[k-1]
		n = step.Iteration
		d := step.Spacing
		switch {
		case step.Stage == StageEdges && y%(2*d) == 0: // a horizontal edge's midpoint
			v.Parents = [][2]int{{x - d, y}, {x + d, y}}
		case step.Stage == StageEdges: // a vertical edge's midpoint
			v.Parents = [][2]int{{x, y - d}, {x, y + d}}
		case step.Stage == StageDiamond:
			v.Parents = [][2]int{{x - d, y - d}, {x + d, y - d}, {x - d, y + d}, {x + d, y + d}}
		case step.Stage == StageSquare && y == 0:
			v.Parents = [][2]int{{x - d, y}, {x + d, y}, {x, d}}
		case step.Stage == StageSquare && y == last:
			v.Parents = [][2]int{{x - d, y}, {x + d, y}, {x, last - d}}
		case step.Stage == StageSquare && x == 0:
			v.Parents = [][2]int{{x, y - d}, {x, y + d}, {d, y}}
		case step.Stage == StageSquare && x == last:
			v.Parents = [][2]int{{x, y - d}, {x, y + d}, {last - d, y}}
		default: // a midpoint's centre, or a square step's inner point: its four neighbours
			v.Parents = [][2]int{{x, y - d}, {x, y + d}, {x - d, y}, {x + d, y}}
		}
		for _, q := range v.Parents {
			v.Heights = append(v.Heights, st.final.At(q[0], q[1]))
		}
		h := v.Heights
		switch len(h) {
		case 2:
			v.Mean = mean2(h[0], h[1])
		case 3:
			v.Mean = mean3(h[0], h[1], h[2])
		default:
			v.Mean = mean4(h[0], h[1], h[2], h[3])
		}
	}
	v.Amp = s.amp[n]
	if k == 0 && st.fixed {
		v.Height = st.final.At(x, y) // CornerValue·A: no displacement
		return v, nil
	}
	v.R = vertexRandom(s.key, x, y)
	v.Z = v.Amp * v.R
	v.Height = height(v.Mean, v.Amp*0x1p-52, rowKey(s.key, y), x)
	if got := st.final.At(x, y); got != v.Height {
		return v, fmt.Errorf("point (%d, %d): the generator stored %g, its parents give %g", x, y, got, v.Height)
	}
	return v, nil
}

// Octaves returns the partial sums of the fractal map p describes: element k
// holds the raw heights after the first k+1 octaves, the last one the whole
// raw map. Each is fractalRaw with p.Octaves = k+1, which is exactly the
// running height after octave k: the octave loop is sequential, octave i's
// basis (seed octaveSeed(seed, i)), amplitude λ^(−iH) and coordinates
// depend on i alone and never on the total count, and the running state
// after octave k reads only octaves 0..k. The domain distortion's noises
// (seeds −1, −2) do not depend on it either. The cost is n(n+1)/2 octaves
// for n octaves.
func Octaves(ctx context.Context, p Params) ([]*Heightmap, error) {
	if err := checkFractalParams(p); err != nil {
		return nil, err
	}
	partials := make([]*Heightmap, p.Octaves)
	for k := range partials {
		var err error
		if partials[k], err = partialSum(ctx, p, k+1); err != nil {
			return nil, err
		}
	}
	return partials, nil
}

// OctaveContribution returns what octave i adds to the raw map:
// partial(i) − partial(i−1), with partial(−1) = 0, rounded to float32. For
// fBm it is octave i itself, λ^(−iH)·N_i(λ^i p); for the multifractals it
// also carries how octave i was weighted by the ones before it.
func OctaveContribution(ctx context.Context, p Params, i int) (*Heightmap, error) {
	if err := checkFractalParams(p); err != nil {
		return nil, err
	}
	if i < 0 || i >= p.Octaves {
		return nil, fmt.Errorf("octave %d: want 0 ≤ i < octaves (%d)", i, p.Octaves)
	}
	m, err := partialSum(ctx, p, i+1)
	if err != nil || i == 0 {
		return m, err
	}
	before, err := partialSum(ctx, p, i)
	if err != nil {
		return nil, err
	}
	for j, v := range before.Samples {
		m.Samples[j] -= v
	}
	return m, nil
}

// checkFractalParams checks p as Generate would, and that it names a
// fractal generator.
func checkFractalParams(p Params) error {
	if p.Algorithm.IsSubdivision() {
		return fmt.Errorf("octaves: algorithm %s is a subdivision generator, not a sum of octaves", p.Algorithm)
	}
	return p.Validate()
}

// partialSum is the raw map of p's first octaves octaves, with p's cell
// size and vertical scale.
func partialSum(ctx context.Context, p Params, octaves int) (*Heightmap, error) {
	p.Octaves = octaves
	m, err := fractalRaw(ctx, p, 1, nil, 0, 0)
	if err != nil {
		return nil, err
	}
	m.CellSize, m.VerticalScale = p.CellSize, p.Amplitude
	return m, nil
}

// OctaveFormula is how a fractal generator folds its octaves together,
// written as its source writes it, for the Teach panel to show: a
// lecturer can put it beside the source on a slide.
type OctaveFormula struct {
	// Source names where the formula comes from, as docs/sources.md cites
	// it, with the source's own name for the function.
	Source string
	// Lines are the source's statements in order, in its variable names
	// (value, amp, n, w, aux, d; p the point, λ the lacunarity, bands the
	// octave count), with · for the product and x^(y) for pow(x, y). N(p)
	// is the basis noise at p; where the generator's basis differs from the
	// source's (its own seed per octave, a hashed lattice) docs/sources.md
	// says so.
	Lines []string
	// Note says what a line's names stand for where the source's own
	// names do not tell, or is empty.
	Note string
}

// OctaveFormulas holds every fractal generator's formula. The thesis's
// four generators are its listings 6.1–6.4 statement by statement
// (TestOctaveFormulasAreTheListings checks them against the listings'
// C++); ridged, billow and Swiss turbulence, which the thesis only
// proposes (§8.2), are written as the generator folds them. Every formula
// agrees with the generator to 1e-9 (TestOctaveFormulasAgreeWithGenerator).
var OctaveFormulas = map[Algorithm]OctaveFormula{
	FBm: {"thesis listing 6.1 (fBm), eq. 6.1", []string{
		"value = 0",
		"for i = 0 to bands-1:",
		"  n = N(p)",
		"  amp = λ^(-i·H)",
		"  value += amp·n",
		"  p *= λ",
	}, ""},
	Hetero: {"thesis listing 6.2 (HeteroMultifractal)", []string{
		"n = N(p)",
		"value = (n+offset)",
		"p *= λ",
		"for i = 1 to bands-1:",
		"  n = N(p)",
		"  amp = λ^(-i·H)",
		"  value += value·amp·(n+offset)",
		"  p *= λ",
	}, ""},
	Hybrid: {"thesis listing 6.3 (HybridMultifractal)", []string{
		"n = N(p)",
		"w = value = (n+offset)",
		"p *= λ",
		"for i = 1 to bands-1:",
		"  if (w > 1) w = 1",
		"  n = N(p)",
		"  amp = λ^(-i·H)",
		"  aux = amp·(n+offset)",
		"  value += w·aux",
		"  w *= aux",
		"  p *= λ",
	}, ""},
	Quilez: {"thesis listing 6.4 (QuilezTurbulence)", []string{
		"value = 0",
		"d = (0, 0)",
		"for i = 0 to bands-1:",
		"  n = N(p)",
		"  d += (n.y, n.z)",
		"  amp = λ^(-i·H)",
		"  value += amp·n.x/(1 + d·d)",
		"  p *= λ",
	}, "n = (N, dN/dx, dN/dy): the noise and its gradient"},
	Ridged: {"Musgrave's ridged multifractal (thesis §8.2)", []string{
		"n = N(p)",
		"signal = value = (1 - |n|)^2",
		"p *= λ",
		"for i = 1 to bands-1:",
		"  weight = clamp(2·signal, 0, 1)",
		"  n = N(p)",
		"  signal = (1 - |n|)^2·weight",
		"  value += signal·λ^(-i·H)",
		"  p *= λ",
	}, ""},
	Billow: {"billowy noise, fBm of |N| (thesis §8.2)", []string{
		"value = 0",
		"for i = 0 to bands-1:",
		"  n = N(p)",
		"  value += λ^(-i·H)·|n|",
		"  p *= λ",
	}, ""},
	Swiss: {"de Carpentier's Swiss turbulence (thesis §8.2)", []string{
		"value = 0, amp = 1, s = (0, 0)",
		"for i = 0 to bands-1:",
		"  n, (dx, dy) = N(λ^i·(p + 0.15·s))",
		"  value += amp·(1 - |n|)",
		"  s += amp·(-n)·(dx, dy)",
		"  amp *= λ^(-H)·clamp(value, 0, 1)",
	}, "(dx, dy): the gradient of N; s warps later octaves"},
}

// OctaveWavelength is the wavelength of octave i (0-based) in samples of
// p's map: the first octave's lattice period, size^(fs/100) or, for a
// tileable map, the side divided by a whole number of cells, over λ^i.
// Under 2 samples an octave is past the Nyquist limit: the map's samples
// cannot hold it, and it shows as aliased noise. Domain distortion and
// Swiss turbulence's warp stretch it locally.
func OctaveWavelength(p Params, i int) (float64, error) {
	if err := checkFractalParams(p); err != nil {
		return 0, err
	}
	period := featurePeriod(p.Size, p.FeatureSize)
	cells, _, err := tileableLattice(p)
	if err != nil {
		return 0, err
	}
	if cells > 0 {
		period = float64(p.Size-1) / float64(cells)
	}
	return period / math.Pow(p.Lacunarity, float64(i)), nil
}
