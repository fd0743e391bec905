package terrain

import (
	"context"
	"cordillera/noise"
	"math"
	"math/bits"
	"sync"
)

// The subdivision generators (course notes 000) refine a (2^N+1)² grid level
// by level: at level n = 1..N every square of side 2·d_n, d_n = 2^(N−n), is
// split in four, and each new vertex v gets
//
//	h(v) = mean of its parents + z,   z = A·R·2^(−nH)   (notes eq. 1–2)
//
// with R uniform in [−1, 1]. Midpoint displacement and diamond-square differ
// only in which parents a vertex has and in the order the passes run.
//
// R is a pure function of (seed, x, y) — vertexRandom — rather than the next
// number of a sequential generator. A vertex's height therefore does not
// depend on the order in which vertices are visited: the iterative and
// recursive midpoint forms give the same map bit for bit, a pass can be split
// across goroutines in any way, and every machine draws the same terrain.

// subdivision is a grid being refined by one of the subdivision generators.
// Each pass (a level's edges, centres, diamonds or squares) is its own method,
// so that a caller can stop after any pass and show the intermediate grid.
type subdivision struct {
	h    []float32 // the map's samples, row-major: h[y*size+x]
	size int       // samples per side, 2^N + 1
	N    int       // number of levels
	key  uint64    // the mixed seed: R(x, y) = vertexRandom(key, x, y)
	amp  []float64 // amp[n] = A·2^(−nH), the largest displacement at level n; amp[0] = A for the corners

	// writes, when non-nil, counts the stores to each vertex: tests use it
	// to check that no vertex is computed twice, and SubdivisionSteps
	// (teach.go) to see which vertices each stage sets.
	writes []uint8

	progress Progress
	mu       sync.Mutex // serialises progress calls so that they never go backwards
	reported float64
}

// newSubdivision checks p, allocates the output map and sets its four corners
// (level 0): A·R each for Corners "random" (paper 001), CornerValue·A for
// "fixed" (paper 003 uses 0).
func newSubdivision(p Params, progress Progress) (*subdivision, *Heightmap, error) {
	if err := checkSubdivisionParams(p); err != nil {
		return nil, nil, err
	}
	m := NewHeightmap(p.Size, p.Size)
	m.CellSize = p.CellSize
	m.VerticalScale = p.Amplitude
	s := &subdivision{
		h:        m.Samples,
		size:     p.Size,
		N:        bits.Len(uint(p.Size-1)) - 1,
		key:      seedKey(p.Seed),
		progress: progress,
	}
	s.amp = make([]float64, s.N+1)
	for n := range s.amp {
		s.amp[n] = p.Amplitude * math.Exp2(-float64(n)*p.Hurst)
	}
	last := s.size - 1
	for _, c := range [4][2]int{{0, 0}, {last, 0}, {0, last}, {last, last}} {
		if p.Corners == CornersFixed {
			s.h[c[1]*s.size+c[0]] = float32(p.CornerValue * p.Amplitude)
			continue
		}
		s.displace(c[0], c[1], 0, 0)
	}
	return s, m, nil
}

// checkSubdivisionParams checks the parameters the subdivision generators
// read, with the ranges of Specs, so that the errors match Params.Validate.
func checkSubdivisionParams(p Params) error {
	if err := CheckSubdivisionSize(p.Size); err != nil {
		return err
	}
	for _, name := range []string{"size", "hurst", "amplitude", "corners", "corner-value", "cell-size"} {
		spec, _ := SpecByName(name)
		if err := spec.Set(&Params{}, spec.Get(&p)); err != nil {
			return err
		}
	}
	return nil
}

// half returns d_n = 2^(N−n), the distance from a level-n vertex to its parents.
func (s *subdivision) half(n int) int { return (s.size - 1) >> n }

// displace stores h(x, y) = mean + z at a single vertex.
func (s *subdivision) displace(x, y, n int, mean float32) {
	s.h[y*s.size+x] = height(mean, s.amp[n]*0x1p-52, rowKey(s.key, y), x)
	s.count(y, x, x+1, 1)
}

// height returns mean + z for the vertex x of the row with key k, where
// z = A·R·2^(−nH) (notes eq. 1–2) and scaled = A·2^(−nH)·2^−52: the power of
// two moved from R into the amplitude leaves the product's rounding
// unchanged. Every pass computes its vertices through height, so that all
// round alike.
func height(mean float32, scaled float64, k uint64, x int) float32 {
	// The conversion forbids a fused multiply-add, so that every
	// architecture rounds the sum alike.
	return float32(float64(mean) + float64(scaled*float64(randomBits(k, x))))
}

// count records a write to each vertex x0, x0+step, … < x1 of row y, when
// a test is counting them.
func (s *subdivision) count(y, x0, x1, step int) {
	if s.writes == nil {
		return
	}
	for x := x0; x < x1; x += step {
		s.writes[y*s.size+x]++
	}
}

// row returns row y of the grid.
func (s *subdivision) row(y int) []float32 { return s.h[y*s.size : (y+1)*s.size : (y+1)*s.size] }

// at returns h(x, y).
func (s *subdivision) at(x, y int) float32 { return s.h[y*s.size+x] }

// mean2 is the mean of the two ends of an edge (notes eq. 1). Callers give
// the lower-coordinate end first, so that the iterative and recursive
// midpoint forms round alike.
func mean2(a, b float32) float32 { return (a + b) * 0.5 }

// mean4 is the mean of four parents (notes eq. 8 and 9).
func mean4(a, b, c, d float32) float32 { return (a + b + c + d) * 0.25 }

// report passes f on to the caller's Progress, dropping values below one
// already reported: the recursive form's goroutines finish squares in any
// order.
func (s *subdivision) report(f float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f > s.reported {
		s.reported = f
		s.progress(f)
	}
}

// reporter is the Progress to hand to forRows: nil when the caller wants none.
func (s *subdivision) reporter() Progress {
	if s.progress == nil {
		return nil
	}
	return s.report
}

// subdivide checks p, sets the corners, lets refine fill in the rest of the
// grid, and returns the map — or ctx.Err() once ctx is done.
func subdivide(ctx context.Context, p Params, progress Progress, refine func(*subdivision, context.Context) error) (*Heightmap, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s, m, err := newSubdivision(p, progress)
	if err != nil {
		return nil, err
	}
	if err := refine(s, ctx); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if progress != nil {
		s.report(1)
	}
	return m, nil
}

// seedKey mixes a seed into the key of vertexRandom, so that neighbouring
// seeds give unrelated maps.
func seedKey(seed int64) uint64 { return noise.SplitMix64(uint64(seed) + 0x9e3779b97f4a7c15) }

// vertexRandom returns R ∈ [−1, 1) for the vertex (x, y): a hash of the seed
// key and the coordinates, uniform to 2^−52, identical on every machine.
func vertexRandom(key uint64, x, y int) float64 {
	return float64(randomBits(rowKey(key, y), x)) * 0x1p-52
}

// rowKey is the part of vertexRandom's hash input that row y fixes.
func rowKey(key uint64, y int) uint64 { return key ^ uint64(uint32(y))<<32 }

// randomBits returns R·2^52, an integer in [−2^52, 2^52), for the vertex x
// of the row with key k.
func randomBits(k uint64, x int) int64 { return int64(noise.SplitMix64(k^uint64(uint32(x)))) >> 11 }
