package analysis

import (
	"context"
	"slices"
	"testing"

	"cordillera/terrain"
	"cordillera/terrain/erosion"
)

// incisionP90 is the 90th percentile, over the inner samples, of how far
// a sample lies below the mean of its eight neighbours, in metres: the
// depth of the map's creases one cell wide, the gullies and channel beds
// that shading shows from afar. A plane or a smooth bowl gives about 0.
func incisionP90(m *terrain.Heightmap) float64 {
	w, h := m.Width, m.Height
	d := make([]float64, 0, (w-2)*(h-2))
	for y := 1; y < h-1; y++ {
		for x := 1; x < w-1; x++ {
			var s float64
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					if dx != 0 || dy != 0 {
						s += float64(m.Samples[(y+dy)*w+x+dx])
					}
				}
			}
			d = append(d, (s/8-float64(m.Samples[y*w+x]))*m.VerticalScale)
		}
	}
	slices.Sort(d)
	return d[len(d)*9/10]
}

// eroded-alps' gullies read at its 64 m cells: a tenth of the ground lies
// in creases at least 8 m below their neighbours (a gully of 8 m over
// 64 m, which casts a shade from a kilometre up). With the thermal stage
// last the talus filled them back to under 5 m; the stages now run
// droplets, talus, then rivers, which cut the channels into the settled
// slopes and leave them cut.
func TestErodedAlpsGulliesAreDeep(t *testing.T) {
	p, err := terrain.PresetParams("eroded-alps")
	if err != nil {
		t.Fatal(err)
	}
	p.Size = 257 // a smaller range at the preset's own 64 m cells and relief
	m, err := terrain.Generate(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := erosion.Run(context.Background(), m, p, erosion.Options{}); err != nil {
		t.Fatal(err)
	}
	const want = 8.0
	if got := incisionP90(m); got < want {
		t.Errorf("eroded-alps at %g m cells: gullies %.1f m deep at the 90th percentile, want at least %g m", m.CellSize, got, want)
	}
}

// eroded-hills drains: the rivers reach the map's edge from nearly every
// sample, as the fluvial stage leaves them, and depression filling raises
// under 0.2 % of the map. With the thermal stage last, talus sliding into
// the narrow ways the rivers cut through ridges dammed lakes over 1.4 % of
// it; only at the preset's own size are the ways narrow enough for that.
func TestErodedHillsDrain(t *testing.T) {
	if testing.Short() {
		t.Skip("makes and erodes a 1025² map")
	}
	p, err := terrain.PresetParams("eroded-hills")
	if err != nil {
		t.Fatal(err)
	}
	m, err := terrain.Generate(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := erosion.Run(context.Background(), m, p, erosion.Options{}); err != nil {
		t.Fatal(err)
	}
	g, _, err := Geomorph(m, 100*m.CellSize*m.CellSize)
	if err != nil {
		t.Fatal(err)
	}
	const most = 0.002
	if g.FilledFraction > most {
		t.Errorf("eroded-hills: %.4f of the map lies in closed basins, want at most %g", g.FilledFraction, most)
	}
}
