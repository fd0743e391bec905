package noise

import (
	"math"
	"testing"
)

// TestGolden pins a few values per basis, so that any change to the hashing,
// the gradient table or the arithmetic — which would change every terrain a
// seed makes — is noticed.
func TestGolden(t *testing.T) {
	tests := []struct {
		kind Kind
		seed int64
		x, y float64
		want float64
	}{
		{Value, 0, 0.5, 0.25, 0.3782257165830851},
		{Value, 17, -3.7, 12.1, 0.760104245187601},
		{Value, -123456789, 1.0000003e+06, -2.9, 0.20157791881105278},
		{Perlin, 0, 0.5, 0.25, -0.11955843674376493},
		{Perlin, 17, -3.7, 12.1, -0.2740088886327423},
		{Perlin, -123456789, 1.0000003e+06, -2.9, -0.2208171248936561},
		{Simplex, 0, 0.5, 0.25, -0.8773448092777629},
		{Simplex, 17, -3.7, 12.1, -0.8771116843864527},
		{Simplex, -123456789, 1.0000003e+06, -2.9, -0.7122384194520301},
		{Worley, 0, 0.5, 0.25, -0.5919104663285628},
		{Worley, 17, -3.7, 12.1, -0.12360824001747783},
		{Worley, -123456789, 1.0000003e+06, -2.9, -0.3930321614233858},
		{WorleyEdge, 0, 0.5, 0.25, -0.990260550768745},
		{WorleyEdge, 17, -3.7, 12.1, -0.6604239746422214},
		{WorleyEdge, -123456789, 1.0000003e+06, -2.9, -0.9739754613841947},
	}
	for _, tt := range tests {
		b, err := New(tt.kind, tt.seed)
		if err != nil {
			t.Fatal(err)
		}
		if got := b.Value(tt.x, tt.y); !same(got, tt.want) {
			t.Errorf("%s seed %d: N(%v, %v) = %v, want %v", tt.kind, tt.seed, tt.x, tt.y, got, tt.want)
		}
	}
}

// TestSameSeedSameField checks that two bases built from one seed agree.
func TestSameSeedSameField(t *testing.T) {
	a, b := allBases(t, 31337), allBases(t, 31337)
	for k := range a {
		for _, p := range grid(40, 0.61) {
			if va, vb := a[k].Value(p[0], p[1]), b[k].Value(p[0], p[1]); !same(va, vb) {
				t.Fatalf("%s: N(%v, %v) = %v and %v for the same seed", Kinds[k], p[0], p[1], va, vb)
			}
		}
	}
}

// TestFieldsUncorrelated checks that the fields of neighbouring seeds, and
// a field and itself moved by 256 cells (where the thesis's permutation
// table repeats), are unrelated: their correlation on a grid is near 0.
func TestFieldsUncorrelated(t *testing.T) {
	pts := grid(80, 0.73)
	for _, kind := range Kinds {
		for _, seeds := range [][2]int64{{0, 1}, {17, 18}, {1, -1}, {5, 5 + 1<<32}} {
			a, _ := New(kind, seeds[0])
			b, _ := New(kind, seeds[1])
			if c := correlation(pts, a.Value, b.Value); math.Abs(c) > 0.06 {
				t.Errorf("%s: seeds %d and %d correlate by %.3f", kind, seeds[0], seeds[1], c)
			}
		}
		for _, shift := range []float64{256, 1024, 65536} {
			a, _ := New(kind, 3)
			moved := func(x, y float64) float64 { return a.Value(x+shift, y) }
			if c := correlation(pts, a.Value, moved); math.Abs(c) > 0.06 {
				t.Errorf("%s: the field and itself moved by %v correlate by %.3f", kind, shift, c)
			}
		}
	}
}

// grid returns n×n points step apart, starting off the lattice.
func grid(n int, step float64) [][2]float64 {
	var pts [][2]float64
	for j := range n {
		for i := range n {
			pts = append(pts, [2]float64{0.1 + float64(i)*step, 0.2 + float64(j)*step})
		}
	}
	return pts
}

// correlation is Pearson's correlation of f and g over the points.
func correlation(pts [][2]float64, f, g func(x, y float64) float64) float64 {
	var sf, sg, sff, sgg, sfg float64
	for _, p := range pts {
		a, b := f(p[0], p[1]), g(p[0], p[1])
		sf, sg, sff, sgg, sfg = sf+a, sg+b, sff+a*a, sgg+b*b, sfg+a*b
	}
	n := float64(len(pts))
	cov := sfg/n - sf/n*sg/n
	return cov / math.Sqrt((sff/n-sf/n*sf/n)*(sgg/n-sg/n*sg/n))
}
