package route_test

import (
	"context"
	"fmt"

	"cordillera/route"
	"cordillera/route/trackfile"
	"cordillera/terrain"
)

// hill is a GPX track of five fixes climbing 40 m over about 1.1 km.
const hill = `<?xml version="1.0"?>
<gpx version="1.1" creator="example" xmlns="http://www.topografix.com/GPX/1/1">
<trk><trkseg>
<trkpt lat="46.000" lon="14.000"><ele>300</ele></trkpt>
<trkpt lat="46.002" lon="14.003"><ele>310</ele></trkpt>
<trkpt lat="46.004" lon="14.006"><ele>322</ele></trkpt>
<trkpt lat="46.006" lon="14.009"><ele>331</ele></trkpt>
<trkpt lat="46.008" lon="14.012"><ele>340</ele></trkpt>
</trkseg></trk>
</gpx>`

// Generate makes a terrain that passes through the track's elevations
// (paper 002's constrained turbulence): the map's heights at the solved
// points are the track's, to rounding.
func ExampleGenerate() {
	t, err := trackfile.Parse([]byte(hill))
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
