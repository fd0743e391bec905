package game

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"cordillera/terrain"
)

// The ground beyond the map. The map does not float as a square in the
// sky: a level plane (the ground at the map's lowest height, or the sea
// below the water level) reaches from its edges to the horizon, and where
// the camera has flown out past an edge, the edge falls to that plane as
// a wall (a skirt). The aerial perspective fades the plane into the sky
// before it ends.
//
// Ebiten has no depth buffer, so the order does the hiding: the plane is
// drawn before the terrain (from over the map every ray that meets the
// plane has left the map, and a ray that meets the terrain meets it
// first), the skirts after it (a wall that faces a camera outside the
// map lies in front of the terrain behind it). Walls that face away are
// left out: from over the map none is seen.

// horizonRings is how many rings of cells, growing geometrically, the
// plane has on each side of the map; more keep the interpolation of its
// huge triangles accurate.
const horizonRings = 8

// horizonReach is how far the plane reaches from the map's centre: twelve
// map widths, and at least far enough for the aerial perspective to hide
// its end. (Ebiten clips nothing at the far plane, so it may reach beyond
// it.)
func horizonReach(m *terrain.Heightmap) float64 {
	w, d := m.Extent()
	return math.Max(12*math.Max(w, d), 2.5*aerialVisibility)
}

// horizon is the projected ground beyond the map of one frame.
type horizon struct {
	ground drawCall   // the plane, drawn before the terrain
	skirt  drawCall   // the walls facing the camera, drawn after it
	built  horizonKey // what they were projected for
}

// update projects the plane and the skirts for key, with cam the camera
// key's vp was made from, unless they were projected for it already.
func (hz *horizon) update(key horizonKey, cam *Camera) {
	if key == hz.built {
		return
	}
	hz.reset()
	p := newProjector(key.vp, key.w, key.h, key.near)
	hz.build(&p, cam, key.m, key.level)
	hz.built = key
}

// horizonKey is what a horizon's projection depends on: the camera (its
// position is in vp), the view, the map and the plane's height. While it
// stays the same, the projected plane and skirts are kept.
type horizonKey struct {
	vp    mgl32.Mat4
	w, h  int
	near  float32
	m     *terrain.Heightmap
	level float32
}

// reset empties the plane and the skirts.
func (hz *horizon) reset() {
	hz.built = horizonKey{}
	hz.ground.vertices, hz.ground.indices, hz.ground.noDetail = hz.ground.vertices[:0], hz.ground.indices[:0], true
	hz.skirt.vertices, hz.skirt.indices, hz.skirt.noDetail = hz.skirt.vertices[:0], hz.skirt.indices[:0], true
}

// build projects the plane at height level and the skirts of m's edges
// down to it for the camera, after reset.
func (hz *horizon) build(p *projector, cam *Camera, m *terrain.Heightmap, level float32) {
	ew, ed := m.Extent()
	reach := horizonReach(m)
	xs := horizonCuts(ew, reach)
	zs := horizonCuts(ed, reach)
	up := mgl32.Vec3{0, 1, 0}
	for j := 0; j+1 < len(zs); j++ {
		for i := 0; i+1 < len(xs); i++ {
			if i == horizonRings && j == horizonRings {
				continue // the map itself
			}
			x0, x1, z0, z1 := float32(xs[i]), float32(xs[i+1]), float32(zs[j]), float32(zs[j+1])
			hz.ground.quad(p, [4]surfaceVertex{
				{pos: mgl32.Vec3{x0, level, z0}, normal: up},
				{pos: mgl32.Vec3{x1, level, z0}, normal: up},
				{pos: mgl32.Vec3{x0, level, z1}, normal: up},
				{pos: mgl32.Vec3{x1, level, z1}, normal: up},
			})
		}
	}

	// The skirts: each edge whose outside the camera is on.
	cs, vs := float32(m.CellSize), float32(m.VerticalScale)
	last := func(n int) float32 { return float32(n-1) * cs }
	eye := cam.Pos
	wall := func(n int, at func(k int) (mgl32.Vec3, float32), normal mgl32.Vec3) {
		for k := 0; k+1 < n; k++ {
			a, ha := at(k)
			b, hb := at(k + 1)
			hz.skirt.quad(p, [4]surfaceVertex{
				{pos: mgl32.Vec3{a[0], ha, a[2]}, normal: normal},
				{pos: mgl32.Vec3{b[0], hb, b[2]}, normal: normal},
				{pos: mgl32.Vec3{a[0], level, a[2]}, normal: normal},
				{pos: mgl32.Vec3{b[0], level, b[2]}, normal: normal},
			})
		}
	}
	if eye[2] < 0 { // north edge, row 0
		wall(m.Width, func(k int) (mgl32.Vec3, float32) { return mgl32.Vec3{float32(k) * cs, 0, 0}, vs * m.At(k, 0) }, mgl32.Vec3{0, 0, -1})
	}
	if eye[2] > last(m.Height) {
		wall(m.Width, func(k int) (mgl32.Vec3, float32) {
			return mgl32.Vec3{float32(k) * cs, 0, last(m.Height)}, vs * m.At(k, m.Height-1)
		}, mgl32.Vec3{0, 0, 1})
	}
	if eye[0] < 0 {
		wall(m.Height, func(k int) (mgl32.Vec3, float32) { return mgl32.Vec3{0, 0, float32(k) * cs}, vs * m.At(0, k) }, mgl32.Vec3{-1, 0, 0})
	}
	if eye[0] > last(m.Width) {
		wall(m.Height, func(k int) (mgl32.Vec3, float32) {
			return mgl32.Vec3{last(m.Width), 0, float32(k) * cs}, vs * m.At(m.Width-1, k)
		}, mgl32.Vec3{1, 0, 0})
	}
}

// horizonCuts are the cell boundaries along one axis of the plane: the
// map's span [0, extent] in the middle and horizonRings cells on either
// side, each twice as wide as the one before, out to reach beyond the
// map's centre.
func horizonCuts(extent, reach float64) []float64 {
	out := reach - extent/2
	// Widths w, 2w, 4w, … sum to out: w = out / (2^rings − 1).
	w := out / (math.Exp2(horizonRings) - 1)
	cuts := make([]float64, 0, 2*horizonRings+2)
	for k := horizonRings; k >= 1; k-- {
		cuts = append(cuts, -w*(math.Exp2(float64(k))-1))
	}
	cuts = append(cuts, 0, extent)
	for k := 1; k <= horizonRings; k++ {
		cuts = append(cuts, extent+w*(math.Exp2(float64(k))-1))
	}
	return cuts
}

// quad appends the quad (a, b, c, d), split along b–c as the terrain's
// cells are, clipping at the near plane.
func (d *drawCall) quad(p *projector, v [4]surfaceVertex) {
	for _, t := range [2][3]int{{0, 2, 1}, {1, 2, 3}} {
		tri := [3]surfaceVertex{v[t[0]], v[t[1]], v[t[2]]}
		w := [3]float32{p.clipW(tri[0].pos), p.clipW(tri[1].pos), p.clipW(tri[2].pos)}
		in0, in1, in2 := w[0] >= p.near, w[1] >= p.near, w[2] >= p.near
		switch {
		case in0 && in1 && in2:
			base := uint32(len(d.vertices))
			d.vertices = append(d.vertices, p.vertex(tri[0]), p.vertex(tri[1]), p.vertex(tri[2]))
			d.indices = append(d.indices, base, base+1, base+2)
		case !in0 && !in1 && !in2:
		default:
			d.clipTriangle(p, tri, w)
		}
	}
}
