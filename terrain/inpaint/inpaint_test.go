package inpaint

import (
	"cordillera/terrain"
	"math"
	"testing"
)

// holeMap returns a size² map of the surface fn and a mask of its hole:
// a disk of radius r around the centre, a strip along the east edge
// and a lone sample.
func holeMap(size int, r float64, fn func(x, y float64) float64) (*terrain.Heightmap, []bool) {
	m := terrain.NewHeightmap(size, size)
	valid := make([]bool, size*size)
	c := float64(size-1) / 2
	for y := range size {
		for x := range size {
			i := y*size + x
			m.Samples[i] = float32(fn(float64(x), float64(y)))
			dx, dy := float64(x)-c, float64(y)-c
			valid[i] = dx*dx+dy*dy > r*r && !(x >= size-6 && y >= 10 && y < 30) && !(x == 7 && y == size-8)
		}
	}
	return m, valid
}

// laplacian returns the discrete Laplacian at sample i over its in-map
// 4-neighbours (mean of the neighbours minus the sample).
func laplacian(m *terrain.Heightmap, i int) float64 {
	x, y, w := i%m.Width, i/m.Width, m.Width
	sum, n := 0.0, 0.0
	for _, d := range [][3]int{{-1, 0, -1}, {1, 0, 1}, {0, -1, -w}, {0, 1, w}} {
		if x+d[0] >= 0 && x+d[0] < m.Width && y+d[1] >= 0 && y+d[1] < m.Height {
			sum += float64(m.Samples[i+d[2]])
			n++
		}
	}
	return sum/n - float64(m.Samples[i])
}

// A nodata hole is filled with the membrane surface: harmonic inside
// (discrete Laplacian ~0), equal to a harmonic surface that the edge
// samples lie on, joining the edge without a step, and as smooth along
// rows as along columns (no streaks). The old ring-by-ring fill fails
// the first two.
func TestFillNoDataIsHarmonic(t *testing.T) {
	wave := func(x, y float64) float64 { return 1000 + 40*math.Sin(x/7) + 40*math.Sin(y/7) + 0.5*(x+y) }
	m, valid := holeMap(129, 30, wave)
	FillNoData(m, valid)
	worstLap, worstStep, validStep := 0.0, 0.0, 0.0
	var dx2, dy2 float64
	for i, ok := range valid {
		x, y := i%129, i/129
		if x+1 < 129 {
			step := math.Abs(float64(m.Samples[i+1] - m.Samples[i]))
			if ok && valid[i+1] {
				validStep = max(validStep, step)
			} else {
				worstStep = max(worstStep, step)
			}
		}
		if y+1 < 129 {
			step := math.Abs(float64(m.Samples[i+129] - m.Samples[i]))
			if ok && valid[i+129] {
				validStep = max(validStep, step)
			} else {
				worstStep = max(worstStep, step)
			}
		}
		if ok {
			continue
		}
		worstLap = max(worstLap, math.Abs(laplacian(m, i)))
		if c := 64.0; math.Hypot(float64(x)-c, float64(y)-c) < 30 && x+1 < 129 && y+1 < 129 {
			dx2 += math.Pow(float64(m.Samples[i+1]-m.Samples[i]), 2)
			dy2 += math.Pow(float64(m.Samples[i+129]-m.Samples[i]), 2)
		}
	}
	if worstLap > 1e-3 {
		t.Errorf("largest |Laplacian| in the holes %.3g m; want ~0 (harmonic)", worstLap)
	}
	// A membrane may steepen where a wavy edge bends, never jump.
	if worstStep > 2*validStep {
		t.Errorf("a step of %.3g m between samples in or at a hole; the valid map's steepest is %.3g m", worstStep, validStep)
	}
	// The surface is symmetric in x and y, and so is the disk.
	if ratio := dx2 / dy2; ratio < 0.9 || ratio > 1/0.9 {
		t.Errorf("row-to-row over column-to-column variance in the disk %.3f; want ~1 (no streaks)", ratio)
	}

	// A harmonic surface (a plane plus a saddle) through the edge is
	// filled exactly.
	saddle := func(x, y float64) float64 { return 300 + 0.3*x - 0.2*y + 0.01*(x*x-y*y) }
	m, valid = holeMap(129, 40, saddle)
	for i := range valid {
		if i%129 >= 129-6 {
			valid[i] = true // keep the hole inside: the map's edge has no slope
		} else if !valid[i] {
			m.Samples[i] = 0
		}
	}
	FillNoData(m, valid)
	for i, ok := range valid {
		if x, y := float64(i%129), float64(i/129); !ok && math.Abs(float64(m.Samples[i])-saddle(x, y)) > 1e-3 {
			t.Fatalf("sample (%v,%v) filled with %v, want %v", x, y, m.Samples[i], saddle(x, y))
		}
	}
}

// A 1025² map that is nodata but for a ring at its edge and a few
// samples is filled harmonic too: the multigrid reaches the bottom of a
// hole that no neighbour-by-neighbour relaxation would in its few
// cycles.
func TestFillNoDataLargeHole(t *testing.T) {
	if testing.Short() {
		t.Skip("a 1025² fill")
	}
	const n = 1025
	m := terrain.NewHeightmap(n, n)
	valid := make([]bool, n*n)
	for i := range valid {
		x, y := i%n, i/n
		if x == 0 || y == 0 || x == n-1 || y == n-1 {
			valid[i], m.Samples[i] = true, float32(100*math.Sin(float64(x+y)/200))
		}
	}
	valid[n/3*n+n/3], m.Samples[n/3*n+n/3] = true, 500
	FillNoData(m, valid)
	worst := 0.0
	for i, ok := range valid {
		if !ok {
			worst = max(worst, math.Abs(laplacian(m, i)))
		}
	}
	if worst > 1e-3 {
		t.Errorf("largest |Laplacian| %.3g m; want ~0", worst)
	}
}
