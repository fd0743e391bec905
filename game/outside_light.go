package game

import (
	"context"
	"math"

	"cordillera/terrain"
	"cordillera/terrain/light"
)

// The light of the land beyond the map. The map's light map holds one
// texel per map sample; the land beyond reaches to the horizon, too far
// for that. Its light is computed on a coarse square grid over the
// land's nearer part, lightReach map widths out on every side,
// outsideLightSide texels across (about 19 map samples a texel at 1025²,
// the size of the outside's own cells next to the map); farther out, where
// a texel would be kilometres wide and the haze has softened every
// shadow, the land is lit unshaded: heights from the map where the grid
// lies on it and from the faded land beyond elsewhere (its heights at the
// map's sample spacing, the relief its shading shows, not its coarser
// cells), so that the map's mountains shade the land beyond and the land
// beyond shades itself. The
// same horizon sweeps as the map's (terrain/light) give the sun's and the
// sky's visibility; the explorer stores them in the light image's rows
// below the map's, and the terrain shader reads them for the ground
// beyond the map, blending from the map's edge texel over one coarse
// texel so that no seam shows at the edge.

// outsideLightSide is the coarse light grid's side in texels.
const outsideLightSide = 384

// OutsideLight is where the coarse light of the land beyond lies in the
// world: texel (i, j)'s centre at world (X0 + i·Texel, Z0 + j·Texel),
// Side texels along each side.
type OutsideLight struct {
	X0, Z0, Texel float64
	Side          int
}

// lightReach is how many map widths beyond each edge the coarse light
// reaches.
const lightReach = 3.0

// outsideLightGrid returns the coarse grid over o's nearer reach (at most
// lightReach map widths beyond the map) and its heights
// (a heightmap of side texels whose cell size is the grid's spacing, its
// heights world heights: vertical scale 1), m's own where the grid lies
// on m's square.
func outsideLightGrid(m *terrain.Heightmap, o *terrain.Outside, level float32, side int) (OutsideLight, *terrain.Heightmap) {
	cs := o.CellSize
	ew, ed := m.Extent()
	r := lightReach * max(ew, ed)
	c0, r0, c1, r1 := o.Bounds()
	x0, x1 := max(float64(c0)*cs, -r), min(float64(c1)*cs, ew+r)
	z0, z1 := max(float64(r0)*cs, -r), min(float64(r1)*cs, ed+r)
	texel := max(x1-x0, z1-z0) / float64(side-1)
	g := OutsideLight{X0: x0, Z0: z0, Texel: texel, Side: side}
	hm := terrain.NewHeightmap(side, side)
	hm.CellSize, hm.VerticalScale = texel, 1
	for j := 0; j < side; j++ {
		z := z0 + float64(j)*texel
		for i := 0; i < side; i++ {
			x := x0 + float64(i)*texel
			var h float64
			if x >= 0 && x <= ew && z >= 0 && z <= ed {
				h = m.GroundHeight(x, z)
			} else {
				h = o.FineHeight(x, z, level)
			}
			hm.Samples[j*side+i] = float32(h)
		}
	}
	return g, hm
}

// outsideLightState is the Lighter's cache for the land beyond: the
// occlusion once per outside and level, the horizon once per azimuth.
type outsideLightState struct {
	aoOf, horOf outsideLightKey
	horAz       float32
	grid        OutsideLight
	field       *terrain.Heightmap
	fieldOf     outsideLightKey
	// normals are the coarse field's, for the materials by rules, which
	// compare its sky with a plane's at its slope.
	normals     []float32
	ao, horizon []float32
}

// outsideLightKey is what the coarse field depends on.
type outsideLightKey struct {
	world   *World
	outside *terrain.Outside
	level   float32
}

// compute returns the sun's and the sky's visibility on the coarse grid of
// k's land beyond (nil slices for what k leaves off), or ok false when ctx
// was cancelled.
func (s *outsideLightState) compute(ctx context.Context, k lightKey, ws *light.Workspace) (g OutsideLight, sun, sky []float32, ok bool) {
	fk := outsideLightKey{k.world, k.outside, k.level}
	if s.fieldOf != fk {
		s.grid, s.field = outsideLightGrid(k.world.Map, k.outside, k.level, outsideLightSide)
		s.normals = terrain.Normals(s.field)
		s.fieldOf = fk
		s.aoOf, s.horOf = outsideLightKey{}, outsideLightKey{}
	}
	n := len(s.field.Samples)
	if k.occlusion && s.aoOf != fk {
		s.ao = grow(s.ao, n)
		if light.Occlusion(ctx, s.field, light.DefaultDirections, s.ao, ws) != nil {
			return g, nil, nil, false
		}
		s.aoOf = fk
	}
	if k.shadows && (s.horOf != fk || s.horAz != k.azimuth) {
		s.horizon = grow(s.horizon, n)
		if light.Horizon(ctx, s.field, float64(k.azimuth)*math.Pi/180, s.horizon, ws) != nil {
			return g, nil, nil, false
		}
		s.horOf, s.horAz = fk, k.azimuth
	}
	if k.shadows {
		sun = make([]float32, n)
		light.SunVisibility(s.horizon, float64(k.elevation), float64(max(k.penumbra, 0.1)), sun)
	}
	if k.occlusion {
		sky = s.ao
	}
	return s.grid, sun, sky, ctx.Err() == nil
}
