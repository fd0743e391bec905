package game

import (
	"context"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"cordillera/terrain"
)

// The ground beyond the map is kept while its camera, view, map, level and
// land beyond stay, and projected anew when any changes: a kept horizon is
// the one a fresh projection makes, as the camera stands, moves out past
// an edge (skirts appear), comes back, the screen widens, the level or the
// world changes, the land beyond the map comes and goes.
func TestHorizonKeptMatchesFresh(t *testing.T) {
	worldA, worldB := presetWorld(t, "default"), presetWorld(t, "scenario-3")
	p, err := terrain.PresetParams("default")
	if err != nil {
		t.Fatal(err)
	}
	p.Size, p.CellSize = worldA.Map.Width, worldA.Map.CellSize // as presetWorld makes it
	beyond := *worldA
	AddOutside(context.Background(), &beyond, p)
	if beyond.Outside == nil {
		t.Fatal("the default world has no land beyond it")
	}
	ext, _ := worldA.Map.Extent()
	c := NewCamera()
	steps := []struct {
		x, z, y float32 // camera, in map widths and metres
		w       int
		level   float32
		world   *World
	}{
		{0.2, 0.2, 300, 320, 0, worldA}, {0.2, 0.2, 300, 320, 0, worldA}, // stands
		{-0.3, 0.2, 300, 320, 0, worldA}, {-0.3, 0.2, 300, 320, 0, worldA}, // out past the west edge
		{0.2, 0.2, 300, 320, 0, worldA},    // back
		{0.2, 0.2, 300, 400, 0, worldA},    // the screen widens
		{0.2, 0.2, 300, 400, 50, worldA},   // the plane rises
		{0.2, 0.2, 300, 400, 50, worldB},   // another world
		{0.2, 0.2, 300, 400, 50, &beyond},  // the land beyond the map
		{-0.3, 0.2, 300, 400, 50, &beyond}, // seen from out there
		{-0.3, 0.2, 300, 400, 50, &beyond}, // stands
		{-0.3, 0.2, 300, 400, 50, worldA},  // the map alone again
	}
	var kept horizon
	for i, s := range steps {
		c.Pos = mgl32.Vec3{s.x * float32(ext), s.y, s.z * float32(ext)}
		c.Yaw, c.Pitch = mgl32.DegToRad(45), mgl32.DegToRad(-20)
		vp := c.Projection(s.w, 240).Mul4(c.View())
		key := horizonKey{vp, s.w, 240, c.Near, s.world.Map, s.level, s.world.Outside}
		kept.update(key, c, s.world.Normals, nil)
		var fresh horizon
		p := newProjector(vp, s.w, 240, c.Near)
		p.curveAround(c.Pos)
		fresh.build(&p, c, s.world.Map, s.world.Normals, s.level, s.world.Outside)
		if len(fresh.ground.indices) == 0 {
			t.Fatalf("step %d: no ground in view", i)
		}
		if !slices.Equal(kept.ground.vertices, fresh.ground.vertices) || !slices.Equal(kept.ground.indices, fresh.ground.indices) ||
			!slices.Equal(kept.skirt.vertices, fresh.skirt.vertices) || !slices.Equal(kept.skirt.indices, fresh.skirt.indices) {
			t.Fatalf("step %d: the kept horizon (%d ground, %d skirt vertices) is not the fresh one (%d, %d)",
				i, len(kept.ground.vertices), len(kept.skirt.vertices), len(fresh.ground.vertices), len(fresh.skirt.vertices))
		}
		if s.x < 0 && len(fresh.skirt.indices) == 0 {
			t.Errorf("step %d: no skirt seen from outside the map", i)
		}
	}
}
