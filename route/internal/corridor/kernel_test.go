package corridor

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// The box-filter smoothing equals the direct convolution with the cubic
// B-spline weights, whose sum is 1, on a field with zeros around its data
// (as the splatted track leaves) and at its borders.
func TestSplineKernelMatchesDirect(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, radius := range []float64{1, 4, 7.5, 12} {
		k := NewKernel(radius)
		wt := k.Weights()
		sum := 0.0
		for _, v := range wt {
			sum += v
		}
		if math.Abs(sum-1) > 1e-12 || len(wt) != 2*k.Radius()+1 || float64(k.Radius()) < radius {
			t.Fatalf("radius %g: %d weights summing to %g, reach %d", radius, len(wt), sum, k.Radius())
		}
		w, h := 41, 29
		f := make([]float64, w*h)
		for i := range f {
			if rng.IntN(3) == 0 {
				f[i] = rng.NormFloat64()
			}
		}
		want := make([]float64, w*h)
		r := k.Radius()
		for y := range h {
			for x := range w {
				for dy := -r; dy <= r; dy++ {
					for dx := -r; dx <= r; dx++ {
						if xx, yy := x+dx, y+dy; xx >= 0 && yy >= 0 && xx < w && yy < h {
							want[y*w+x] += wt[r+dx] * wt[r+dy] * f[yy*w+xx]
						}
					}
				}
			}
		}
		if err := k.Smooth(context.Background(), f, w, h); err != nil {
			t.Fatal(err)
		}
		for i := range f {
			if math.Abs(f[i]-want[i]) > 1e-12 {
				t.Fatalf("radius %g: sample %d smoothed to %g, direct convolution %g", radius, i, f[i], want[i])
			}
		}
	}
}
