package route_test

import (
	"context"
	"fmt"

	"cordillera/route"
	"cordillera/route/track/tracktest"
	"cordillera/route/trackfile"
	"cordillera/terrain"
)

// Generate makes a terrain that passes through the track's elevations
// (paper 002's constrained turbulence): the map's heights at the solved
// points are the track's, to rounding.
func ExampleGenerate() {
	// Five GPX fixes climbing 40 m over about 1.1 km.
	t, err := trackfile.Parse([]byte(tracktest.HillGPX))
	if err != nil {
		fmt.Println(err)
		return
	}
	p := terrain.DefaultParams()
	p.Size = 129
	r, err := route.Generate(context.Background(), p, t, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d×%d map, %.1f m a cell, %d points solved, all within 1 mm: %v\n",
		r.Map.Width, r.Map.Height, r.Map.CellSize, len(r.Points), r.MaxError*r.Map.VerticalScale < 0.001)
	// Output: 129×129 map, 9.1 m a cell, 72 points solved, all within 1 mm: true
}
