package scatter

import (
	"context"
	"math"
	"testing"

	"cordillera/terrain"
)

// ridgedMap is a map of metre cells rising at base degrees along x, with
// ridges period metres apart whose sides rise at side degrees (a
// triangle wave along z, or along x, steepening and easing the rise).
func ridgedMap(base, side, period float64, alongX bool) *terrain.Heightmap {
	const n = 257
	m := terrain.NewHeightmap(n, n)
	tb, ts := math.Tan(base*math.Pi/180), math.Tan(side*math.Pi/180)
	tri := func(i int) float64 { // up and down at side degrees
		ph := math.Mod(float64(i), period) / period
		return math.Min(ph, 1-ph) * period * ts
	}
	for r := range n {
		for c := range n {
			w := tri(r)
			if alongX {
				w = tri(c)
			}
			m.Samples[r*n+c] = float32(float64(c)*tb + w)
		}
	}
	return m
}

// Placement reads the shader's slope for rock: a mix of the ground's own
// slope (0.6) and the landform's over some 24 m (0.4). Ridges 8 m apart
// with 42° sides on gentle ground (5°) are no cliff: trees stand among
// them and rocks are few (under one in 2000 m²); a face of 48° whose
// steps ease its own slope to 40° every other 4 m is
// rock: no tree stands on it. (Seen failing on the old bands, which read
// the ground's own slope only: 478 rocks among the ridges.)
func TestScatterRockFollowsTheLandform(t *testing.T) {
	r := Rules{SnowLine: 5000, Seed: 3}
	place := func(m *terrain.Heightmap) (trees, rocks int) {
		s, err := Place(context.Background(), m, terrain.Normals(m), r)
		if err != nil {
			t.Fatal(err)
		}
		for _, pl := range s.Plants {
			if pl.X < 24 || pl.X > 232 || pl.Z < 24 || pl.Z > 232 {
				continue // the map's edge, whose landform is cut off
			}
			if pl.Kind == Rock {
				rocks++
			} else {
				trees++
			}
		}
		return
	}
	trees, rocks := place(ridgedMap(5, 42, 8, false))
	t.Logf("ridges on gentle ground: %d trees, %d rocks", trees, rocks)
	if trees < 20 || rocks > 208*208/2000 {
		t.Errorf("ridges on gentle ground: %d trees, %d rocks; want 20 or more trees and at most %d rocks", trees, rocks, 208*208/2000)
	}
	trees, rocks = place(ridgedMap(48, 17, 8, true))
	t.Logf("a 48° face: %d trees, %d rocks", trees, rocks)
	if trees > 0 {
		t.Errorf("a 48° face with gentler ridges: %d trees; want none", trees)
	}
}
