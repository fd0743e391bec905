package scatter

import (
	"context"
	"math"
	"testing"

	"cordillera/terrain"
)

// groundSlope is the slope, degrees, of the ground a plant stands on at
// world (x, z): the steepest gradient of the map's bilinear surface (the
// heights the renderer draws the ground through) around the foot, in
// metres over metres, by finite differences a hundredth of a cell apart
// at the foot and up to a tenth of a cell from it.
func groundSlope(m *terrain.Heightmap, x, z float64) float64 {
	h, r := 0.01*m.CellSize, 0.09*m.CellSize
	steepest := 0.0
	for _, o := range [][2]float64{{0, 0}, {r, 0}, {-r, 0}, {0, r}, {0, -r}, {r, r}, {-r, -r}, {r, -r}, {-r, r}} {
		px, pz := x+o[0], z+o[1]
		gx := (m.GroundHeight(px+h, pz) - m.GroundHeight(px-h, pz)) / (2 * h)
		gz := (m.GroundHeight(px, pz+h) - m.GroundHeight(px, pz-h)) / (2 * h)
		steepest = max(steepest, math.Hypot(gx, gz))
	}
	return math.Atan(steepest) * 180 / math.Pi
}

// No tree stands on ground steeper than TreeFaceLimit by the slope of
// the surface under its foot in metres, on the ridged-alps preset, whose
// sharp crests rise between cliffs (the vertex normals there, the mean of
// the faces either side, point up), nor on the default world at an
// alpine scale. (Seen failing before the faces were looked at: 79 of
// ridged-alps' 94 trees on ground steeper than 46°, up to 81°.)
func TestScatterNoTreeOnSteepGround(t *testing.T) {
	p, err := terrain.PresetParams("ridged-alps")
	if err != nil {
		t.Fatal(err)
	}
	p.Size = 513
	ridged, err := terrain.Generate(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	alps, alpsNormals := alpineMap(t, 513)
	for _, c := range []struct {
		name  string
		m     *terrain.Heightmap
		n     []float32
		rules Rules
	}{
		{"ridged-alps", ridged, terrain.Normals(ridged), Rules{SnowLine: 2900, Seed: 1}},
		{"alpine", alps, alpsNormals, alpineRules},
	} {
		s, err := Place(context.Background(), c.m, c.n, c.rules)
		if err != nil {
			t.Fatal(err)
		}
		trees, steep, worst := 0, 0, 0.0
		for _, pl := range s.Plants {
			if pl.Kind == Rock {
				continue
			}
			trees++
			if sl := groundSlope(c.m, float64(pl.X), float64(pl.Z)); sl > TreeFaceLimit+1 {
				steep++
				worst = max(worst, sl)
			}
		}
		t.Logf("%s (cells %.1f m, %.0f m high): %d trees, %d on ground over %v°, the steepest %.0f°", c.name, c.m.CellSize, c.m.VerticalScale, trees, steep, TreeFaceLimit+1, worst)
		if trees == 0 {
			t.Errorf("%s: no trees", c.name)
		}
		if steep > 0 {
			t.Errorf("%s: %d of %d trees stand on ground steeper than %v° (up to %.0f°)", c.name, steep, trees, TreeFaceLimit+1, worst)
		}
	}
}
