package mesh

import (
	"math"
	"math/rand/v2"
	"testing"
)

// DrawnHeight is the height of the triangles Select emits: at random
// points inside every triangle of a selection with coarse chunks beside
// finer ones (a small triangle budget coarsens all but the eye's chunk,
// so that its borders are stitched and its neighbours cut at Edge
// vertices), it equals the triangle's own barycentric height.
func TestDrawnHeightIsTheTriangles(t *testing.T) {
	m := roughHillsMap(129, 129, 3, 60, 0.3)
	m.CellSize = 2
	l := NewLOD(m, 16)
	cam := newPinhole(groundEye(m, 60, 60, 1.7), 30, -20, 320, 240, 60)
	v := cam.view(2)
	v.MaxTriangles = 3000
	draws := l.Select(v, nil)
	steps := map[int]int{}
	for _, d := range draws {
		steps[d.Step]++
	}
	if steps[1] == 0 || len(steps) < 3 {
		t.Fatalf("the selection's steps %v: want step 1 beside coarser ones", steps)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	worst, n := 0.0, 0
	for k := range draws {
		d := &draws[k]
		for t3 := 0; t3+2 < len(d.Tris); t3 += 3 {
			var p [3][3]float64
			for i := range 3 {
				p[i] = d.World(int(d.Tris[t3+i]), m.CellSize)
			}
			for range 4 {
				a, b := rng.Float64(), rng.Float64()
				if a+b > 1 {
					a, b = 1-a, 1-b
				}
				c := 1 - a - b
				x := a*p[0][0] + b*p[1][0] + c*p[2][0]
				y := a*p[0][1] + b*p[1][1] + c*p[2][1]
				z := a*p[0][2] + b*p[1][2] + c*p[2][2]
				got, ok := DrawnHeight(draws, m.CellSize, x, z)
				if !ok {
					t.Fatalf("no drawn height at (%.2f, %.2f), inside a drawn triangle", x, z)
				}
				// A point on a shared edge belongs to either chunk; both
				// give the same height there, up to rounding.
				worst = max(worst, math.Abs(got-y))
				n++
			}
		}
	}
	t.Logf("%d points in the triangles of %d chunks (steps %v): worst %.2g m", n, len(draws), steps, worst)
	if worst > 1e-3 {
		t.Errorf("the drawn height strays %.3g m from the triangles drawn", worst)
	}
	if _, ok := DrawnHeight(draws, m.CellSize, -5, -5); ok {
		t.Error("a drawn height off the map")
	}
}
