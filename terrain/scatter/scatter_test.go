package scatter

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"cordillera/terrain"
)

// alpineMap is the default generator at an alpine scale: 20 km across,
// 2500 m of relief, so that it has a forest belt, a tree line and snow.
func alpineMap(t testing.TB, size int) (*terrain.Heightmap, []float32) {
	t.Helper()
	p := terrain.DefaultParams()
	p.Size = size
	m, err := terrain.Generate(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	m.CellSize = 20480.0 / float64(size-1)
	m.VerticalScale = 2500
	return m, terrain.Normals(m)
}

var alpineRules = Rules{SnowLine: 0.62 * 2500, Water: 0.08 * 2500, Wet: true, Seed: 17}

func TestScatterFollowsLandCover(t *testing.T) {
	m, normals := alpineMap(t, 513)
	s, err := Place(context.Background(), m, normals, alpineRules)
	if err != nil {
		t.Fatal(err)
	}
	treeLine := TreeLine(alpineRules.SnowLine)
	cosLimit := math.Cos(TreeSlopeLimit * math.Pi / 180)
	p := placer{m: m, normals: normals}
	var trees, rocks, above, steep, wet, conifers, broadleaf int
	var coniferY, broadleafY float64
	for _, pl := range s.Plants {
		if pl.Kind == Rock {
			rocks++
			if float64(pl.Y) < alpineRules.Water {
				wet++
			}
			continue
		}
		trees++
		y, n := p.ground(float64(pl.X), float64(pl.Z))
		if math.Abs(y-float64(pl.Y)) > 1e-3 {
			t.Fatalf("a tree's foot at %v is not on the ground (%v)", pl.Y, y)
		}
		if y > treeLine {
			above++
		}
		if p.ruleNy(float64(pl.X), float64(pl.Z), float64(n[1])) < cosLimit {
			steep++
		}
		if y < alpineRules.Water+ShoreMargin {
			wet++
		}
		if pl.Kind == Conifer {
			conifers++
			coniferY += y
		} else {
			broadleaf++
			broadleafY += y
		}
	}
	t.Logf("%d trees (%d conifers, %d broadleaf), %d rocks; tree line %.0f m", trees, conifers, broadleaf, rocks, treeLine)
	if above != 0 || steep != 0 || wet != 0 {
		t.Errorf("%d trees above the tree line, %d on slopes over %v°, %d plants under water or on the shore; want none", above, steep, TreeSlopeLimit, wet)
	}
	if conifers == 0 || broadleaf == 0 || rocks == 0 {
		t.Fatalf("want conifers, broadleaf trees and rocks, got %d, %d, %d", conifers, broadleaf, rocks)
	}
	if coniferY/float64(conifers) <= broadleafY/float64(broadleaf)+100 {
		t.Errorf("conifers stand at %.0f m on average, broadleaf trees at %.0f m: want the conifers higher", coniferY/float64(conifers), broadleafY/float64(broadleaf))
	}
}

// The default world, 1 km of hills 200 m high under the Alps' snow line
// (2800 m), is lowland below the tree line: forest in patches, with
// clearings where it is steep (half of it is steeper than 30°) or dry. Every tree obeys the reference
// rule (below the tree line, no steeper than the limit, above the shore),
// and trees stand in a fair share of the candidate cells.
func TestScatterLowlandHasForest(t *testing.T) {
	p := terrain.DefaultParams()
	m, err := terrain.Generate(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.VerticalScale > 300 {
		t.Fatalf("the default world is %v m high; the test wants lowland hills", m.VerticalScale)
	}
	normals := terrain.Normals(m)
	r := Rules{SnowLine: 2800, Water: 0.1 * m.VerticalScale, Wet: true, Seed: 3}
	s, err := Place(context.Background(), m, normals, r)
	if err != nil {
		t.Fatal(err)
	}
	trees, bad := landCoverCounts(m, normals, r, s)
	w, d := m.Extent()
	cells := (w / DefaultTreeSpacing) * (d / DefaultTreeSpacing)
	t.Logf("%d trees in %.0f candidate cells (%.0f %%)", trees, cells, 100*float64(trees)/cells)
	if bad != 0 {
		t.Errorf("%d trees break the tree line, slope or shore rule; want none", bad)
	}
	// Half its ground is steeper than 30°, scree and rock in the rules.
	if float64(trees) < 0.1*cells || float64(trees) > 0.8*cells {
		t.Errorf("%d trees in %.0f cells; want forest with clearings, 10–80 %%", trees, cells)
	}
}

// landCoverCounts is the number of s's trees and how many of them break
// the reference rule: above the tree line, on a slope over
// TreeSlopeLimit (the rules' slope, mixed with the landform's), under water or on the shore.
func landCoverCounts(m *terrain.Heightmap, normals []float32, r Rules, s *Set) (trees, bad int) {
	p := placer{m: m, normals: normals}
	cosLimit := math.Cos(TreeSlopeLimit * math.Pi / 180)
	for _, pl := range s.Plants {
		if pl.Kind == Rock {
			continue
		}
		trees++
		y, n := p.ground(float64(pl.X), float64(pl.Z))
		if y > TreeLine(r.SnowLine) || p.ruleNy(float64(pl.X), float64(pl.Z), float64(n[1])) < cosLimit || (r.Wet && y < r.Water+ShoreMargin) {
			bad++
		}
	}
	return trees, bad
}

// In the forest patches of the belt (the ground the shader paints as
// forest, gentle, dry land well below the tree line) trees fill 45–95 %
// of the candidate cells (one tree at most each); in the open meadows of
// the belt, fewer than a quarter as many.
func TestScatterForestDensity(t *testing.T) {
	m, normals := alpineMap(t, 513)
	r := alpineRules
	s, err := Place(context.Background(), m, normals, r)
	if err != nil {
		t.Fatal(err)
	}
	p := placer{m: m, normals: normals, ext: float32(20480)}
	treeLine := TreeLine(r.SnowLine)
	// Classify 35 m squares by their centre.
	const sq = 35.0
	w, _ := m.Extent()
	n := int(w / sq)
	count := make([]int, n*n)
	for _, pl := range s.Plants {
		if pl.Kind != Rock {
			i, j := int(float64(pl.X)/sq), int(float64(pl.Z)/sq)
			if i < n && j < n {
				count[j*n+i]++
			}
		}
	}
	cosGentle := math.Cos(15 * math.Pi / 180)
	var forestTrees, forestArea, openTrees, openArea float64
	for j := range n {
		for i := range n {
			x, z := (float64(i)+0.5)*sq, (float64(j)+0.5)*sq
			y, nm := p.ground(x, z)
			if y > treeLine-TreeLineBand-100 || y < r.Water+20 || float64(nm[1]) < cosGentle {
				continue
			}
			switch noise := p.landNoise(x, z); {
			case noise > 0.66:
				forestTrees += float64(count[j*n+i])
				forestArea += sq * sq
			case noise < 0.42:
				openTrees += float64(count[j*n+i])
				openArea += sq * sq
			}
		}
	}
	if forestArea < 1e6 || openArea < 1e6 {
		t.Fatalf("the test map has %.0f ha of forest and %.0f ha of meadow in the belt; want 100 of each", forestArea/1e4, openArea/1e4)
	}
	forest, open := forestTrees/forestArea*1e4, openTrees/openArea*1e4
	cell := max(DefaultTreeSpacing, w/MaxScatterCells)
	full := 1e4 / (cell * cell)
	t.Logf("trees a hectare: %.1f in the forest patches (%.0f ha), %.1f in the meadows (%.0f ha); cells of %.0f m hold %.1f", forest, forestArea/1e4, open, openArea/1e4, cell, full)
	if forest < 0.45*full || forest > 0.95*full {
		t.Errorf("%.1f trees a hectare in the forest; want %.1f–%.1f", forest, 0.45*full, 0.95*full)
	}
	if open > forest/4 {
		t.Errorf("%.1f trees a hectare in the meadows against %.1f in the forest; want under a quarter", open, forest)
	}
}

func TestScatterDeterministic(t *testing.T) {
	m, normals := alpineMap(t, 257)
	a, err := Place(context.Background(), m, normals, alpineRules)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Place(context.Background(), m, normals, alpineRules)
	if len(a.Plants) == 0 || !slices.Equal(a.Plants, b.Plants) || !slices.Equal(a.Start, b.Start) {
		t.Fatalf("the same seed gave different plants (%d and %d)", len(a.Plants), len(b.Plants))
	}
	r := alpineRules
	r.Seed++
	c, _ := Place(context.Background(), m, normals, r)
	if slices.Equal(a.Plants, c.Plants) {
		t.Error("another seed gave the same plants")
	}
}

func TestScatterCancelled(t *testing.T) {
	m, normals := alpineMap(t, 257)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Place(ctx, m, normals, alpineRules); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v, want context.Canceled", err)
	}
	if _, err := Place(context.Background(), m, normals[:3], alpineRules); err == nil {
		t.Error("normals of another map: want an error")
	}
}

// BenchmarkScatter1025 places the scatter of a 1025² map: the default
// world (1 km) and the same map at an alpine scale (20 km, candidate
// cells widened to MaxScatterCells a side).
func BenchmarkScatter1025(b *testing.B) {
	for _, tc := range []struct {
		name  string
		scale func(m *terrain.Heightmap)
	}{
		{"default", func(m *terrain.Heightmap) {}},
		{"alpine", func(m *terrain.Heightmap) { m.CellSize, m.VerticalScale = 20, 2500 }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			p := terrain.DefaultParams()
			m, err := terrain.Generate(context.Background(), p, nil)
			if err != nil {
				b.Fatal(err)
			}
			tc.scale(m)
			normals := terrain.Normals(m)
			var s *Set
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s, _ = Place(context.Background(), m, normals, alpineRules)
			}
			b.ReportMetric(float64(len(s.Plants)), "plants")
		})
	}
}
