// Package pipeline chains the stages that make a world, in the one order
// every caller uses:
//
//	generator (terrain) → erosion (terrain/erosion) → route constraint (route) → Heightmap
//
// The stages know nothing of one another; only this package, above them,
// knows their order. The commands and the explorer make every world here.
package pipeline

import (
	"context"

	"cordillera/route"
	"cordillera/terrain"
)

// Generate makes the map p describes: the generator's map, normalised and
// shaped by its post-effect (terrain.Generate).
func Generate(ctx context.Context, p terrain.Params, progress terrain.Progress) (*terrain.Heightmap, error) {
	return terrain.Generate(ctx, p, progress)
}

// Preview makes a coarse version of the map p describes, every stride-th
// sample (terrain.GeneratePreview), for the explorer to show while the
// full map is made.
func Preview(ctx context.Context, p terrain.Params, stride int, progress terrain.Progress) (*terrain.Heightmap, error) {
	return terrain.GeneratePreview(ctx, p, stride, progress)
}

// Route makes the terrain through a GPS track (route.Generate).
func Route(ctx context.Context, p terrain.Params, t *route.Track, progress terrain.Progress) (*route.Result, error) {
	return route.Generate(ctx, p, t, progress)
}
