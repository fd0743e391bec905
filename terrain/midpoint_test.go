package terrain

import (
	"context"
	"math"
	"testing"
)

// Listings 2 and 3 are the same algorithm (notes footnote 1): with R a
// function of the vertex, their maps must agree bit for bit.
func TestMidpointIterativeEqualsRecursive(t *testing.T) {
	for _, size := range []int{3, 5, 33, 257, 1025} {
		for _, corners := range []string{CornersRandom, CornersFixed} {
			for _, seed := range []int64{0, 17, -123456789} {
				for _, h := range []float64{0.3, 1} {
					p := subdivisionParams(size, seed, h, corners)
					p.CornerValue = 0.25
					a, err := MidpointDisplacement(context.Background(), p, nil)
					if err != nil {
						t.Fatal(err)
					}
					b, err := MidpointDisplacementRecursive(context.Background(), p, nil)
					if err != nil {
						t.Fatal(err)
					}
					for i := range a.Samples {
						if math.Float32bits(a.Samples[i]) != math.Float32bits(b.Samples[i]) {
							t.Fatalf("%d² %s corners seed %d H %g: (%d, %d) is %g iteratively, %g recursively",
								size, corners, seed, h, i%size, i/size, a.Samples[i], b.Samples[i])
						}
					}
				}
			}
		}
	}
}

// midpointParents lists the vertices midpoint displacement averages for the
// vertex (x, y) of level n, d = d_n: an edge midpoint its edge's two ends
// (notes eq. 7), a centre the four edge midpoints around it (eq. 8).
func midpointParents(x, y, d, _ int) [][2]int {
	switch {
	case (x/d)%2 == 1 && (y/d)%2 == 1:
		return [][2]int{{x, y - d}, {x, y + d}, {x - d, y}, {x + d, y}}
	case (x/d)%2 == 1:
		return [][2]int{{x - d, y}, {x + d, y}}
	default:
		return [][2]int{{x, y - d}, {x, y + d}}
	}
}

// Each displacement at level n is A·R·2^(−nH), |R| ≤ 1 (notes eq. 2).
func TestMidpointDisplacementBounded(t *testing.T) {
	for _, size := range []int{5, 33, 129} {
		for _, h := range []float64{0, 0.5, 1} {
			for _, corners := range []string{CornersFixed, CornersRandom} {
				p := subdivisionParams(size, 23, h, corners)
				for _, g := range subdivisionGenerators[:2] {
					m, err := g.generate(context.Background(), p, nil)
					if err != nil {
						t.Fatal(err)
					}
					checkDisplacements(t, g.name, p, m, midpointParents)
				}
			}
		}
	}
}

// The order of listing 2 on a 5×5 grid: level 1's edges (1e), then its
// centre (1c), then level 2's edges and centres.
func TestMidpointStages5x5(t *testing.T) {
	stages := [5]string{
		"0  2e 1e 2e 0",
		"2e 2c 2e 2c 2e",
		"1e 2e 1c 2e 1e",
		"2e 2c 2e 2c 2e",
		"0  2e 1e 2e 0",
	}
	checkStages(t, "midpoint", stages, []string{"1e", "1c", "2e", "2c"}, func(s *subdivision, pass int) error {
		n := 1 + pass/2
		if pass%2 == 0 {
			return s.midpointEdges(context.Background(), n, 0, 0)
		}
		return s.midpointCentres(context.Background(), n, 0, 0)
	})
}

func BenchmarkMidpoint4097(b *testing.B) {
	p := subdivisionParams(4097, 1, 0.8, CornersRandom)
	for b.Loop() {
		if _, err := MidpointDisplacement(context.Background(), p, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMidpointRecursive4097(b *testing.B) {
	p := subdivisionParams(4097, 1, 0.8, CornersRandom)
	for b.Loop() {
		if _, err := MidpointDisplacementRecursive(context.Background(), p, nil); err != nil {
			b.Fatal(err)
		}
	}
}
