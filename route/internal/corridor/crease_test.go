package corridor

import (
	"context"
	"cordillera/route/track"
	"cordillera/terrain"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The crease ratio's reference is the ground outside the corridor: a
// corridor creased on every row, covering 2.5 % of the map (more than the
// 1 % a 99th percentile looks at), would otherwise set the reference
// itself and pass as a ratio of 1.
func TestCreaseRatioReferenceExcludesCorridor(t *testing.T) {
	const n = 257
	m := terrain.NewHeightmap(n, n)
	for row := range n {
		for col := range n {
			h := 0.1 * math.Sin(float64(col)/20) * math.Cos(float64(row)/25)
			if math.Abs(float64(row)-128) <= 3 && col >= 12 && col <= 244 {
				h += 0.01 * float64(row%2) // a kink on every row of the corridor
			}
			m.Samples[row*n+col] = float32(h)
		}
	}
	track := &track.Path{Segments: [][]track.Sample{{{X: 10, Y: 128}, {X: 246, Y: 128}}}}
	r, err := CreaseRatio(context.Background(), m, track, 5)
	if err != nil {
		t.Fatal(err)
	}
	// Kinks of 0.02 against the terrain's own 0.1/20² = 2.5·10⁻⁴.
	if !(r > 20) {
		t.Errorf("crease ratio %.2f for a corridor creased throughout, want far above 1", r)
	}
}

// percentileSorted is percentile by sorting a copy: the oracle.
func percentileSorted(v []float64, q float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[int(q*float64(len(s)-1))]
}

// Quickselect finds the value sorting puts at the percentile's rank, on
// distinct values, on runs of ties (a flat map's zero curvature) and on
// sorted and reversed input.
func TestPercentileMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 300 {
		n := 1 + rng.IntN(2000)
		v := make([]float64, n)
		for i := range v {
			switch trial % 4 {
			case 0:
				v[i] = rng.NormFloat64()
			case 1:
				v[i] = float64(rng.IntN(3)) // mostly ties
			case 2:
				v[i] = float64(i)
			case 3:
				v[i] = float64(n - i)
			}
		}
		for _, q := range []float64{0, 0.5, 0.99, 1} {
			want := percentileSorted(v, q)
			if got := Percentile(slices.Clone(v), q); got != want {
				t.Fatalf("trial %d, n %d, q %g: quickselect %g, sort %g", trial, n, q, got, want)
			}
		}
	}
}

// CreaseRatio stops on a cancelled context instead of finishing the map.
func TestCreaseRatioCancelled(t *testing.T) {
	m := terrain.NewHeightmap(257, 257)
	for i := range m.Samples {
		m.Samples[i] = float32(math.Sin(float64(i%257)/9) * math.Cos(float64(i/257)/7))
	}
	track := &track.Path{Segments: [][]track.Sample{{{X: 20, Y: 20}, {X: 200, Y: 180}}}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := CreaseRatio(ctx, m, track, 6); err == nil {
		t.Fatal("CreaseRatio on a cancelled context returned no error")
	}
	r, err := CreaseRatio(context.Background(), m, track, 6)
	if err != nil || !(r > 0) {
		t.Fatalf("CreaseRatio = %g, %v; want a positive ratio", r, err)
	}
}

// BenchmarkPercentile compares quickselect with sorting on a 1025² map's
// worth of curvatures (report the ratio of the two, one run).
func BenchmarkPercentile(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	v := make([]float64, 1023*1023)
	for i := range v {
		v[i] = math.Abs(rng.NormFloat64())
	}
	work := make([]float64, len(v))
	b.Run("select", func(b *testing.B) {
		for b.Loop() {
			copy(work, v)
			Percentile(work, CreasePercentile)
		}
	})
	b.Run("sort", func(b *testing.B) {
		for b.Loop() {
			percentileSorted(v, CreasePercentile)
		}
	})
}
