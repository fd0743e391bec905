package game

import "cordillera/terrain"

// Water: a level below which the ground lies under water. The terrain
// shader draws the water surface itself (shaders/terrain.kage, water):
// with no depth buffer, each pixel of ground below the level shows the
// point where the ray to it crosses the surface, so the surface appears
// exactly where the ground lies below the level, and the ground beyond
// the map becomes the sea out to the horizon.

// waterDepthShare is the water path, as a share of the height range,
// over which the bed fades into deep water.
const waterDepthShare = 0.03

// waterLevel is the world height of view v's water on map m, and whether
// there is water.
func waterLevel(v *Viewer, m *terrain.Heightmap) (float32, bool) {
	return v.Water * float32(m.VerticalScale), v.Water > 0
}

// horizonLevel is the height of the ground beyond the map: the map's
// lowest possible height (0), or under water a little below the level.
func horizonLevel(v *Viewer, m *terrain.Heightmap) float32 {
	if level, ok := waterLevel(v, m); ok {
		return min(0, level-waterDepthShare*float32(m.VerticalScale))
	}
	return 0
}
