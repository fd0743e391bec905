package noise_test

import (
	"fmt"

	"cordillera/noise"
)

// A basis is a pure function of its seed and (x, y): the same seed gives
// the same value on every run, and Eval returns the analytic gradient
// with it. Perlin noise is zero on its integer lattice.
func ExampleNew() {
	b, err := noise.New(noise.Perlin, 17)
	if err != nil {
		fmt.Println(err)
		return
	}
	v, dx, dy := b.Eval(0.3, 0.7)
	fmt.Printf("N(0.3, 0.7) = %.4f, gradient (%.4f, %.4f)\n", v, dx, dy)
	again, _ := noise.New(noise.Perlin, 17)
	fmt.Println("same seed, same value:", again.Value(0.3, 0.7) == v)
	fmt.Println("on the lattice:", b.Value(3, 5))

	_, err = noise.New("pink", 17)
	fmt.Println(err)
	// Output:
	// N(0.3, 0.7) = -0.2016, gradient (1.3099, 0.9073)
	// same seed, same value: true
	// on the lattice: 0
	// noise: unknown basis "pink" (want one of [value perlin simplex worley worley-f2f1])
}

// NewPeriodic makes noise that repeats: with periods (4, 4) the value at
// x + 4 is the value at x, so a map built from it tiles.
func ExampleNewPeriodic() {
	b, err := noise.NewPeriodic(noise.Value, 17, 4, 4)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.4f %.4f\n", b.Value(0.3, 0.7), b.Value(4.3, 0.7))
	// Output: -0.6356 -0.6356
}
