package pipeline_test

import (
	"context"
	"fmt"
	"math"

	"cordillera/pipeline"
	"cordillera/terrain"
)

// Generate runs the whole chain: the generator, then the erosion stages
// p.Erosion names, then normalisation. The budget says where the eroded
// material went; it is conserved.
func ExampleGenerate() {
	p := terrain.DefaultParams()
	p.Size = 65
	p.Erosion = "thermal"
	w, err := pipeline.Generate(context.Background(), p, pipeline.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	b := w.Budget
	fmt.Printf("%d×%d, eroded %.1f m³, deposited %.1f m³\n", w.Map.Width, w.Map.Height, b.Eroded, b.Deposited)
	fmt.Println("conserved:", math.Abs(b.Eroded-b.Deposited-b.Suspended-b.CarriedOff) < 1e-6*b.Eroded)

	p.Erosion = "glacial"
	_, err = pipeline.Generate(context.Background(), p, pipeline.Options{})
	fmt.Println(err)
	// Output:
	// 65×65, eroded 68375.2 m³, deposited 68375.2 m³
	// conserved: true
	// erosion: "glacial" is not one of hydraulic, thermal, fluvial (or none)
}
