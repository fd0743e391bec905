// Package road levels a road along a track on a heightmap: level across
// its width, smooth along its way, and bent back to the terrain over a
// shoulder of least curvature (a multigrid conjugate-gradient fill,
// leastCurvature) as wide as the cross slopes beside the track need.
// Package route calls it after its own terrain meets the track, and
// meets the track's points again afterwards.
package road
