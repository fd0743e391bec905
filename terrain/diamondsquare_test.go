package terrain

import (
	"context"
	"cordillera/internal/parallel"
	"math"
	"testing"
)

// diamondSquareParents lists the vertices diamond-square averages for the
// vertex (x, y) of level n, d = d_n: a centre its square's four corners
// (notes eq. 9), an edge midpoint the four, or on the border three, points of
// the diamond around it.
func diamondSquareParents(x, y, d, last int) [][2]int {
	if (x/d)%2 == 1 && (y/d)%2 == 1 {
		return [][2]int{{x - d, y - d}, {x + d, y - d}, {x - d, y + d}, {x + d, y + d}}
	}
	var ps [][2]int
	for _, q := range [][2]int{{x, y - d}, {x, y + d}, {x - d, y}, {x + d, y}} {
		if q[0] >= 0 && q[0] <= last && q[1] >= 0 && q[1] <= last {
			ps = append(ps, q)
		}
	}
	return ps
}

func TestDiamondSquareDisplacementBounded(t *testing.T) {
	for _, size := range []int{5, 33, 129} {
		for _, h := range []float64{0, 0.5, 1} {
			for _, corners := range []string{CornersFixed, CornersRandom} {
				p := subdivisionParams(size, 29, h, corners)
				m, err := DiamondSquare(context.Background(), p, nil)
				if err != nil {
					t.Fatal(err)
				}
				checkDisplacements(t, "diamond-square", p, m, diamondSquareParents)
			}
		}
	}
}

// The 5×5 example of paper 003 (after Fournier et al.): corners 0, then the
// diamond step 1a sets the centre, the square step 1b the four edge
// midpoints, and 2a, 2b the same one level down.
func TestDiamondSquareStages5x5(t *testing.T) {
	stages := [5]string{
		"0  2b 1b 2b 0",
		"2b 2a 2b 2a 2b",
		"1b 2b 1a 2b 1b",
		"2b 2a 2b 2a 2b",
		"0  2b 1b 2b 0",
	}
	checkStages(t, "diamond-square", stages, []string{"1a", "1b", "2a", "2b"}, func(s *subdivision, pass int) error {
		n := 1 + pass/2
		if pass%2 == 0 {
			return s.diamondStep(context.Background(), n, 0, 0)
		}
		return s.squareStep(context.Background(), n, 0, 0)
	})
}

// DiamondSquare sweeps each level's two steps together; the map must be the
// one of the notes' order, every diamond step before its square step.
func TestDiamondSquareSweepEqualsTwoPasses(t *testing.T) {
	for _, size := range []int{3, 5, 17, 33, 129, 1025} {
		for _, seed := range []int64{1, 99} {
			p := subdivisionParams(size, seed, 0.6, CornersRandom)
			swept, err := DiamondSquare(context.Background(), p, nil)
			if err != nil {
				t.Fatal(err)
			}
			s, _, err := newSubdivision(p, nil)
			if err != nil {
				t.Fatal(err)
			}
			for n := 1; n <= s.N; n++ {
				if err := s.diamondStep(context.Background(), n, 0, 0); err != nil {
					t.Fatal(err)
				}
				if err := s.squareStep(context.Background(), n, 0, 0); err != nil {
					t.Fatal(err)
				}
			}
			for i, v := range s.h {
				if math.Float32bits(v) != math.Float32bits(swept.Samples[i]) {
					t.Fatalf("%d² seed %d: (%d, %d) is %g in two passes per level, %g swept", size, seed, i%size, i/size, v, swept.Samples[i])
				}
			}
		}
	}
}

// uniformFill is the floor for any generator that draws one R per vertex:
// it allocates the map as DiamondSquare does and fills every sample with
// A·R(x, y) through the same per-vertex kernel (height with a mean of 0),
// split over rows by forRows on all cores as diamond-square's passes are. Only the averaging of parents and the
// passes' strided access are missing, so DiamondSquare's time over this one
// is the cost of the algorithm itself.
func uniformFill(ctx context.Context, p Params) (*Heightmap, error) {
	m := NewHeightmap(p.Size, p.Size)
	scaled, key := p.Amplitude*0x1p-52, seedKey(p.Seed)
	err := parallel.Rows(ctx, p.Size, nil, 0, 1, func(y int) {
		row, k := m.Samples[y*p.Size:(y+1)*p.Size], rowKey(key, y)
		for x := range row {
			row[x] = height(0, scaled, k, x)
		}
	})
	return m, err
}

func BenchmarkDiamondSquare4097(b *testing.B) {
	p := subdivisionParams(4097, 1, 0.8, CornersRandom)
	for range b.N { // not b.Loop: see BenchmarkFBmPerlin1025
		if _, err := DiamondSquare(context.Background(), p, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUniformFill4097 is the yardstick for BenchmarkDiamondSquare4097:
// same map size, same allocation per run, same hash, same row split.
func BenchmarkUniformFill4097(b *testing.B) {
	p := subdivisionParams(4097, 1, 0.8, CornersRandom)
	for range b.N { // not b.Loop: see BenchmarkFBmPerlin1025
		if _, err := uniformFill(context.Background(), p); err != nil {
			b.Fatal(err)
		}
	}
}
