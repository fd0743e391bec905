package terrain_test

import (
	"context"
	"fmt"
	"slices"

	"cordillera/terrain"
)

// Generate makes the map a Params describes; the same parameters give the
// same map. Heights come out normalised to [0, 1]; Amplitude and CellSize
// give them their size in metres.
func ExampleGenerate() {
	p := terrain.DefaultParams() // fBm over Perlin noise, seed 17, the thesis's defaults
	p.Size = 65
	m, err := terrain.Generate(context.Background(), p, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d×%d samples, %g m apart, heights %g to %g times %g m\n",
		m.Width, m.Height, m.CellSize, slices.Min(m.Samples), slices.Max(m.Samples), m.VerticalScale)
	fmt.Printf("middle sample: %.4f\n", m.At(32, 32))

	p.Algorithm = terrain.DiamondSquareAlg
	p.Size = 64 // subdivision needs 2^k+1 samples a side
	_, err = terrain.Generate(context.Background(), p, nil)
	fmt.Println(err)
	// Output:
	// 65×65 samples, 1 m apart, heights 0 to 1 times 200 m
	// middle sample: 0.4704
	// size 64: subdivision needs a size of 2^k+1; nearest valid sizes are 33 and 65
}

// Every parameter is described by its Spec: the CLI flag, the JSON key,
// the panels' widget and docs/parameters.md all come from it, and Set
// checks the range.
func ExampleSpecByName() {
	s, _ := terrain.SpecByName("octaves")
	fmt.Println(s.Name, s.Default, s.RangeText())
	p := terrain.DefaultParams()
	fmt.Println(s.Set(&p, "30"))
	fmt.Println(s.Set(&p, "4"), p.Octaves)
	// Output:
	// octaves 8 [1, 24]
	// octaves: 30 is out of range [1, 24]
	// <nil> 4
}
