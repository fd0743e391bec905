package terrain

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomHeightmap returns a w×h map of uniform heights in [0, 1).
func randomHeightmap(w, h int, seed uint64) *Heightmap {
	rng := rand.New(rand.NewPCG(seed, 1))
	m := NewHeightmap(w, h)
	for i := range m.Samples {
		m.Samples[i] = rng.Float32()
	}
	return m
}

// listing51Normals is thesis listing 5.1 transcribed line by line: build
// the index list, scatter each triangle's unit normal (float32, like glm) to
// its vertices, normalise. Normals must agree with it.
func listing51Normals(m *Heightmap) []float32 {
	dimx, dimz := m.Width, m.Height
	cellsize, heightscale := float32(m.CellSize), float32(m.VerticalScale)
	positions := make([][3]float32, dimx*dimz)
	normals := make([][3]float32, dimx*dimz)
	i := 0
	for z := 0; z < dimz; z++ {
		for x := 0; x < dimx; x++ {
			positions[i] = [3]float32{cellsize * float32(x), m.Samples[z*dimx+x] * heightscale, cellsize * float32(z)}
			i++
		}
	}
	var indexes []int
	for z := 0; z < dimz-1; z++ {
		for x := 0; x < dimx-1; x++ {
			a := z*dimx + x
			b := a + 1
			c := a + dimx
			d := c + 1
			indexes = append(indexes, a, c, b) // upper triangle
			indexes = append(indexes, b, c, d) // lower triangle
		}
	}
	sub := func(p, q [3]float32) [3]float32 { return [3]float32{p[0] - q[0], p[1] - q[1], p[2] - q[2]} }
	normalize := func(v [3]float32) [3]float32 {
		l := float32(math.Sqrt(float64(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])))
		return [3]float32{v[0] / l, v[1] / l, v[2] / l}
	}
	for i := 0; i < len(indexes); i += 3 {
		va, vb, vc := positions[indexes[i]], positions[indexes[i+1]], positions[indexes[i+2]]
		u, v := sub(vb, va), sub(vc, va)
		res := normalize([3]float32{u[1]*v[2] - u[2]*v[1], u[2]*v[0] - u[0]*v[2], u[0]*v[1] - u[1]*v[0]})
		for _, k := range indexes[i : i+3] {
			normals[k][0] += res[0]
			normals[k][1] += res[1]
			normals[k][2] += res[2]
		}
	}
	out := make([]float32, 0, 3*len(normals))
	for _, n := range normals {
		n = normalize(n)
		out = append(out, n[0], n[1], n[2])
	}
	return out
}

// assertNormal fails unless normal i of got is want within tol.
func assertNormal(t *testing.T, got []float32, i int, want [3]float64, tol float64) {
	t.Helper()
	for k := range 3 {
		if d := math.Abs(float64(got[3*i+k]) - want[k]); !(d <= tol) {
			t.Fatalf("normal %d = (%v, %v, %v), want %v (component %d off by %g)",
				i, got[3*i], got[3*i+1], got[3*i+2], want, k, d)
		}
	}
}

func TestNormalsMatchListing51(t *testing.T) {
	tests := []struct {
		name           string
		w, h           int
		cell, vertical float64
	}{
		{"2x2", 2, 2, 1, 1},
		{"7x5 scaled", 7, 5, 2.5, 40},
		{"3x9 tall", 3, 9, 0.5, 3},
		{"parallel 130x90", 130, 90, 10, 300}, // above parallelNormalsFrom
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := randomHeightmap(tt.w, tt.h, 7)
			m.CellSize, m.VerticalScale = tt.cell, tt.vertical
			got, want := Normals(m), listing51Normals(m)
			if len(got) != 3*tt.w*tt.h {
				t.Fatalf("len = %d, want %d", len(got), 3*tt.w*tt.h)
			}
			for i := range tt.w * tt.h {
				assertNormal(t, got, i, [3]float64{float64(want[3*i]), float64(want[3*i+1]), float64(want[3*i+2])}, 2e-6)
			}
		})
	}
}

func TestNormalsFlat(t *testing.T) {
	for _, level := range []float32{0, 0.37, 1} {
		m := NewHeightmap(9, 6)
		m.CellSize, m.VerticalScale = 3, 250
		for i := range m.Samples {
			m.Samples[i] = level
		}
		n := Normals(m)
		for i := range m.Width * m.Height {
			assertNormal(t, n, i, [3]float64{0, 1, 0}, 0)
		}
	}
}

func TestNormalsTiltedPlane(t *testing.T) {
	tests := []struct {
		name           string
		cell, vertical float64
		perCol, perRow float64 // sample change per column and per row
	}{
		{"along x, unit scales", 1, 1, 0.1, 0},
		{"along x, scaled", 4, 100, 0.01, 0}, // s = 0.01·100/4 = 0.25
		{"down x", 2, 50, -0.02, 0},
		{"along z", 5, 100, 0, 0.03},
		{"diagonal", 1, 10, 0.02, -0.05},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := NewHeightmap(12, 8)
			m.CellSize, m.VerticalScale = tt.cell, tt.vertical
			for row := range m.Height {
				for col := range m.Width {
					m.Set(col, row, float32(0.5+tt.perCol*float64(col)+tt.perRow*float64(row)))
				}
			}
			// World slopes dy/dx and dy/dz; the plane y = sx·x + sz·z has
			// normal (−sx, 1, −sz)/√(1+sx²+sz²).
			sx := tt.perCol * tt.vertical / tt.cell
			sz := tt.perRow * tt.vertical / tt.cell
			l := math.Sqrt(1 + sx*sx + sz*sz)
			want := [3]float64{-sx / l, 1 / l, -sz / l}
			n := Normals(m)
			for i := range m.Width * m.Height {
				assertNormal(t, n, i, want, 1e-5)
			}
		})
	}
}

// The listing's triangulation cuts every cell along the same diagonal (b–c),
// so its symmetries are those of that diagonal: swapping x and z, and the
// half turn. A mirror in x alone swaps the diagonal; it holds only for maps
// that vary along x alone, and then only off the first and last rows, whose
// vertices touch one triangle on one side and two on the other.
func TestNormalsSymmetry(t *testing.T) {
	m := randomHeightmap(11, 7, 3)
	m.CellSize, m.VerticalScale = 2, 30
	n := Normals(m)
	at := func(n []float32, w, col, row int) [3]float64 {
		i := 3 * (row*w + col)
		return [3]float64{float64(n[i]), float64(n[i+1]), float64(n[i+2])}
	}

	t.Run("transpose", func(t *testing.T) {
		tr := NewHeightmap(m.Height, m.Width)
		tr.CellSize, tr.VerticalScale = m.CellSize, m.VerticalScale
		for row := range m.Height {
			for col := range m.Width {
				tr.Set(row, col, m.At(col, row))
			}
		}
		nt := Normals(tr)
		for row := range m.Height {
			for col := range m.Width {
				p := at(n, m.Width, col, row)
				assertNormal(t, nt, col*tr.Width+row, [3]float64{p[2], p[1], p[0]}, 1e-6)
			}
		}
	})
	t.Run("half turn", func(t *testing.T) {
		rot := NewHeightmap(m.Width, m.Height)
		rot.CellSize, rot.VerticalScale = m.CellSize, m.VerticalScale
		for row := range m.Height {
			for col := range m.Width {
				rot.Set(m.Width-1-col, m.Height-1-row, m.At(col, row))
			}
		}
		nr := Normals(rot)
		for row := range m.Height {
			for col := range m.Width {
				p := at(n, m.Width, col, row)
				assertNormal(t, nr, (m.Height-1-row)*m.Width+m.Width-1-col, [3]float64{-p[0], p[1], -p[2]}, 1e-6)
			}
		}
	})
	t.Run("mirror x of a ridge", func(t *testing.T) {
		ridge := NewHeightmap(9, 5)
		for row := range ridge.Height {
			for col := range ridge.Width {
				ridge.Set(col, row, float32(math.Sin(float64(col)))*0.5+0.5)
			}
		}
		mirror := NewHeightmap(9, 5)
		for row := range ridge.Height {
			for col := range ridge.Width {
				mirror.Set(ridge.Width-1-col, row, ridge.At(col, row))
			}
		}
		nr, nm := Normals(ridge), Normals(mirror)
		for row := 1; row < ridge.Height-1; row++ {
			for col := range ridge.Width {
				p := at(nr, ridge.Width, col, row)
				assertNormal(t, nm, row*ridge.Width+ridge.Width-1-col, [3]float64{-p[0], p[1], p[2]}, 1e-6)
			}
		}
	})
}

func TestNormalsUnitAndUp(t *testing.T) {
	m := randomHeightmap(70, 80, 11) // parallel path
	m.VerticalScale = 20
	n := Normals(m)
	for i := 0; i < len(n); i += 3 {
		l := math.Sqrt(float64(n[i]*n[i] + n[i+1]*n[i+1] + n[i+2]*n[i+2]))
		if math.Abs(l-1) > 1e-6 || n[i+1] <= 0 {
			t.Fatalf("normal %d = (%v, %v, %v): length %v, want unit length pointing up", i/3, n[i], n[i+1], n[i+2], l)
		}
	}
}

func TestNormalsWithoutTriangles(t *testing.T) {
	for _, size := range [][2]int{{1, 1}, {1, 5}, {6, 1}} {
		m := randomHeightmap(size[0], size[1], 5)
		n := Normals(m)
		for i := range size[0] * size[1] {
			assertNormal(t, n, i, [3]float64{0, 1, 0}, 0)
		}
	}
}

func TestFaceNormal(t *testing.T) {
	tests := []struct {
		name    string
		a, b, c [3]float64
		want    [3]float64
	}{
		// Counter-clockwise seen from +y: x → z is a clockwise quarter turn
		// seen from above in a right-handed frame, so a, then +z, then +x.
		{"ccw from above", [3]float64{0, 0, 0}, [3]float64{0, 0, 1}, [3]float64{1, 0, 0}, [3]float64{0, 1, 0}},
		{"cw from above", [3]float64{0, 0, 0}, [3]float64{1, 0, 0}, [3]float64{0, 0, 1}, [3]float64{0, -1, 0}},
		{"slope", [3]float64{0, 0, 0}, [3]float64{0, 0, 1}, [3]float64{1, 1, 0}, [3]float64{-math.Sqrt2 / 2, math.Sqrt2 / 2, 0}},
		{"degenerate", [3]float64{1, 2, 3}, [3]float64{1, 2, 3}, [3]float64{4, 5, 6}, [3]float64{0, 0, 0}},
	}
	for _, tt := range tests {
		got := FaceNormal(tt.a, tt.b, tt.c)
		for k := range 3 {
			if math.Abs(got[k]-tt.want[k]) > 1e-12 {
				t.Errorf("%s: FaceNormal = %v, want %v", tt.name, got, tt.want)
				break
			}
		}
	}
}

func BenchmarkNormals1025(b *testing.B) {
	m := randomHeightmap(1025, 1025, 1)
	b.ReportAllocs()
	for b.Loop() {
		Normals(m)
	}
}

// NormalsContext is Normals as cancellable work: the same normals while
// its context lives, context.Canceled once it is done.
func TestNormalsContext(t *testing.T) {
	m := randomHeightmap(129, 97, 5)
	got, err := NormalsContext(context.Background(), m)
	if err != nil || !slices.Equal(got, Normals(m)) {
		t.Fatalf("NormalsContext: %v, or normals differing from Normals", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NormalsContext(ctx, m); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want context.Canceled", err)
	}
}
