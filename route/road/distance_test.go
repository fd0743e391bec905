package road

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// squaredDistanceBrute is the oracle for squaredDistance: every sample
// against every marked one.
func squaredDistanceBrute(seed []bool, w, h int) []float64 {
	d := make([]float64, w*h)
	for i := range d {
		d[i] = math.Inf(1)
		for j, s := range seed {
			if s {
				dr, dc := i/w-j/w, i%w-j%w
				d[i] = min(d[i], float64(dr*dr+dc*dc))
			}
		}
	}
	return d
}

// The distance transform matches the brute force on scattered seeds,
// a single seed, a line, and no seed at all.
func TestSquaredDistanceMatchesBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const w, h = 37, 29
	cases := map[string]func(r, c int) bool{
		"scattered": func(r, c int) bool { return rng.Float64() < 0.02 },
		"one":       func(r, c int) bool { return r == 3 && c == 30 },
		"line":      func(r, c int) bool { return r == c/2 },
		"none":      func(r, c int) bool { return false },
	}
	for name, mark := range cases {
		seed := make([]bool, w*h)
		for r := range h {
			for c := range w {
				seed[r*w+c] = mark(r, c)
			}
		}
		got, err := squaredDistance(context.Background(), seed, w, h)
		if err != nil {
			t.Fatal(err)
		}
		want := squaredDistanceBrute(seed, w, h)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: sample (%d, %d): %v, want %v", name, i%w, i/w, got[i], want[i])
			}
		}
	}
}
