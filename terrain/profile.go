package terrain

import (
	"fmt"
	"math"
	"math/bits"

	"cordillera/noise"
)

// One-dimensional versions of midpoint displacement and fBm, for a first
// lecture: a profile h(x) over x = 0 … 2^N, before the grid. The notes
// build the 2-D midpoint algorithm on the 1-D one ("el algoritmo del
// punto medio para 2D en los laterales"): each new point is the mean of
// its two neighbours plus z = A·R·2^(−nH) (notes eq. 1–2). The 1-D fBm is
// thesis listing 6.1 along a line: H(x) = Σ N(λ^i x)·λ^(−iH), with a 1-D
// gradient noise N.

// Profile is a 1-D midpoint displacement profile and the iteration that
// set each of its points.
type Profile struct {
	N         int       // iterations: the profile has 2^N + 1 points
	Heights   []float32 // h(x), x = 0 … 2^N
	Iteration []int     // the iteration n that set point x; 0 for the two ends
	Amplitude []float64 // A·2^(−nH) for n = 0 … N: the largest |z| of iteration n
}

// MidpointProfile runs 1-D midpoint displacement over size = 2^N + 1
// points with p's amplitude A, Hurst exponent H, seed and corners: the
// two ends are A·R (or CornerValue·A when the corners are fixed), then
// for n = 1 … N every point midway between two set points, d_n = 2^(N−n)
// from each, gets h(x) = (h(x−d_n) + h(x+d_n))/2 + A·R(x)·2^(−nH).
// R(x) is the 2-D generators' random number at the vertex (x, 0), and
// the sum is rounded as theirs, so that the profile is the bottom edge of
// the midpoint map the same parameters make (whose boundary points have
// only the boundary for parents, notes eq. 7).
func MidpointProfile(p Params, size int) (*Profile, error) {
	if err := CheckSubdivisionSize(size); err != nil {
		return nil, fmt.Errorf("profile: %w", err)
	}
	N := bits.Len(uint(size-1)) - 1
	amp := make([]float64, N+1)
	for n := range amp {
		amp[n] = p.Amplitude * math.Exp2(-float64(n)*p.Hurst)
	}
	row := rowKey(seedKey(p.Seed), 0)
	var ends *[2]float32
	if p.Corners == CornersFixed {
		v := float32(p.CornerValue * p.Amplitude)
		ends = &[2]float32{v, v}
	}
	return midpointProfile(N, amp, ends, func(mean float32, n, x int) float32 {
		return height(mean, amp[n]*0x1p-52, row, x)
	}), nil
}

// midpointProfile is the 1-D algorithm with the displacement disp(mean,
// n, x) = mean + z(x, n) given: ends fixed, or disp(0, 0, x) at each end.
func midpointProfile(N int, amp []float64, ends *[2]float32, disp func(mean float32, n, x int) float32) *Profile {
	size := 1<<N + 1
	pr := &Profile{N: N, Heights: make([]float32, size), Iteration: make([]int, size), Amplitude: amp}
	last := size - 1
	if ends != nil {
		pr.Heights[0], pr.Heights[last] = ends[0], ends[1]
	} else {
		pr.Heights[0], pr.Heights[last] = disp(0, 0, 0), disp(0, 0, last)
	}
	for n := 1; n <= N; n++ {
		d := last >> n
		for x := d; x < last; x += 2 * d {
			pr.Heights[x] = disp(mean2(pr.Heights[x-d], pr.Heights[x+d]), n, x)
			pr.Iteration[x] = n
		}
	}
	return pr
}

// At returns the profile after iteration n as the points set so far, in
// order of x: (x, h(x)).
func (pr *Profile) At(n int) [][2]float64 {
	var out [][2]float64
	for x, it := range pr.Iteration {
		if it <= n {
			out = append(out, [2]float64{float64(x), float64(pr.Heights[x])})
		}
	}
	return out
}

// gradient1D is 1-D gradient (Perlin) noise: at lattice point i a slope
// g_i in [−1, 1), between lattice points the two slopes' lines blended by
// the quintic fade 6t⁵ − 15t⁴ + 10t³, doubled so that it spans about
// [−1, 1] as the 2-D bases do. N(i) = 0 at every lattice point.
type gradient1D struct{ key uint64 }

func (g gradient1D) slope(i int) float64 {
	return float64(int64(noise.SplitMix64(g.key^uint64(uint32(i))))>>11) * 0x1p-52
}

// Value is N(x).
func (g gradient1D) Value(x float64) float64 {
	i := math.Floor(x)
	t := x - i
	f := t * t * t * (t*(t*6-15) + 10)
	a, b := g.slope(int(i))*t, g.slope(int(i)+1)*(t-1)
	return 2 * (a + f*(b-a))
}

// ProfileOctaves are the partial sums of 1-D fBm over size points:
// partial k (k = 1 … p.Octaves) is Σ_{i<k} N_i(λ^i x)·λ^(−iH) at
// x = col/period + 1/π (the map's feature size as in 2-D; 1/π keeps
// the samples off the lattice), each octave its own noise, folded by the
// 2-D generator's own fBm step (listing 6.1) with its amplitudes
// λ^(−iH).
func ProfileOctaves(p Params, size int) ([][]float64, error) {
	if size < 2 {
		return nil, fmt.Errorf("profile: %d points: want at least 2", size)
	}
	if p.Octaves < 1 || p.Lacunarity <= 1 {
		return nil, fmt.Errorf("profile: octaves %d, lacunarity %g: want at least 1 octave and λ > 1", p.Octaves, p.Lacunarity)
	}
	freq := 1 / featurePeriod(size, p.FeatureSize)
	partials := make([][]float64, p.Octaves)
	sum := make([]float64, size)
	for i := range p.Octaves {
		n := gradient1D{key: seedKey(octaveSeed(p.Seed, i))}
		amp, f := ProfileAmplitude(p, i), math.Pow(p.Lacunarity, float64(i))
		for col := range sum {
			x := float64(col)*freq + gridOffset
			sum[col] = fbmStep(sum[col], amp, n.Value(f*x))
		}
		partials[i] = append([]float64(nil), sum...)
	}
	return partials, nil
}

// ProfileAmplitude is octave i's weight λ^(−iH) (thesis eq. 6.1), as the
// 2-D generator computes it.
func ProfileAmplitude(p Params, i int) float64 { return math.Pow(p.Lacunarity, -float64(i)*p.Hurst) }
