package game

import (
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl32"

	"cordillera/terrain"
	"cordillera/terrain/mesh"
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
// map widths, and at least four times as far as the land beyond the map,
// where even a ray from high up has crossed enough air to hide its end.
// (Ebiten clips nothing at the far plane, so it may reach beyond it.)
func horizonReach(m *terrain.Heightmap) float64 {
	w, d := m.Extent()
	return math.Max(12*math.Max(w, d), 4*beyondReach)
}

// horizon is the projected ground beyond the map of one frame.
type horizon struct {
	ground drawCall // the plane, drawn before the terrain
	skirt  drawCall // the walls facing the camera, drawn after it
	// planeEnd is where ground's level plane ends in its indices: the
	// land beyond the map that follows it is lit, the plane never shaded.
	planeEnd int
	built    horizonKey // what they were projected for
	surface  outsideSurface
	// edges marks the map's edge samples the terrain has vertices at
	// (edgeVertices), nil for all of them: the skirts and the land beyond
	// meet the terrain's edge at exactly its own vertices.
	edges    []bool
	stitch   []int   // scratch: the edge vertices of one cell of the land beyond
	outcodes []uint8 // scratch: the frustum planes each vertex of the land beyond lies outside of
	// noBlockCulling looks at every cell of the land beyond, none left
	// out with its block (tests compare with it).
	noBlockCulling bool
}

// update projects the plane and the skirts for key, with cam the camera
// key's vp was made from and normals those of key's map, unless they were
// projected for it already.
func (hz *horizon) update(key horizonKey, cam *Camera, normals []float32, edges []bool) {
	if key == hz.built && slices.Equal(edges, hz.edges) {
		return
	}
	hz.reset()
	hz.edges = append(hz.edges[:0], edges...)
	p := newProjector(key.vp, key.w, key.h, key.near)
	p.curveAround(cam.Pos)
	hz.build(&p, cam, key.m, normals, key.level, key.out)
	hz.built = key
}

// horizonKey is what a horizon's projection depends on: the camera (its
// position is in vp), the view, the map, the plane's height and the land
// beyond the map (nil: none). While it stays the same, the projected
// plane and skirts are kept.
type horizonKey struct {
	vp    mgl32.Mat4
	w, h  int
	near  float32
	m     *terrain.Heightmap
	level float32
	out   *terrain.Outside
}

// reset empties the plane and the skirts.
func (hz *horizon) reset() {
	hz.built = horizonKey{}
	hz.ground.vertices, hz.ground.indices, hz.ground.noDetail = hz.ground.vertices[:0], hz.ground.indices[:0], true
	hz.skirt.vertices, hz.skirt.indices, hz.skirt.noDetail = hz.skirt.vertices[:0], hz.skirt.indices[:0], true
	hz.planeEnd = 0
}

// build projects the plane at height level and the skirts of m's edges
// down to it for the camera, after reset. With out, the land beyond the
// map, the plane starts where out ends, and out's cells are drawn with
// it (those beyond the map) and after the terrain (the others).
func (hz *horizon) build(p *projector, cam *Camera, m *terrain.Heightmap, normals []float32, level float32, out *terrain.Outside) {
	ew, ed := m.Extent()
	reach := horizonReach(m)
	x0, x1, z0, z1 := 0.0, ew, 0.0, ed
	if out != nil {
		c0, r0, c1, r1 := out.Bounds()
		x0, x1 = float64(c0)*out.CellSize, float64(c1)*out.CellSize
		z0, z1 = float64(r0)*out.CellSize, float64(r1)*out.CellSize
	}
	xs := horizonCuts(x0, x1, reach)
	zs := horizonCuts(z0, z1, reach)
	up := mgl32.Vec3{0, 1, 0}
	for j := 0; j+1 < len(zs); j++ {
		for i := 0; i+1 < len(xs); i++ {
			if i == horizonRings && j == horizonRings {
				continue // the map itself, or the land beyond it
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

	hz.planeEnd = len(hz.ground.indices)

	// The skirts: each edge whose outside the camera is on, after the
	// terrain. With the land beyond, every edge has one, those the camera
	// is not beyond drawn before the terrain (after the land beyond the
	// map): they close any crack between the map's edge and the land, and
	// hide only what the map's own ground hides (a ray that passes below
	// the edge has gone into the ground). The land in front of the map
	// goes after the skirts facing the camera.
	cs, vs := float32(m.CellSize), float32(m.VerticalScale)
	last := func(n int) float32 { return float32(n-1) * cs }
	eye := cam.Pos
	wall := func(edge, n int, at func(k int) (mgl32.Vec3, float32), normal mgl32.Vec3, facing, back bool) {
		if facing == back || (back && out == nil) {
			return
		}
		d := &hz.skirt
		if back {
			d = &hz.ground
		}
		for j, k := 0, 1; k < n; k++ {
			if k < n-1 && !hz.onEdge(m, edge, k) {
				continue
			}
			a, ha := at(j)
			b, hb := at(k)
			j = k
			q := [4]surfaceVertex{
				{pos: mgl32.Vec3{a[0], ha, a[2]}, normal: normal},
				{pos: mgl32.Vec3{b[0], hb, b[2]}, normal: normal},
				{pos: mgl32.Vec3{a[0], level, a[2]}, normal: normal},
				{pos: mgl32.Vec3{b[0], level, b[2]}, normal: normal},
			}
			if p.outcode(q[0].pos)&p.outcode(q[1].pos)&p.outcode(q[2].pos)&p.outcode(q[3].pos) == 0 { // else wholly out of view
				d.quad(p, q)
			}
		}
	}
	walls := func(back bool) {
		wall(edgeNorth, m.Width, func(k int) (mgl32.Vec3, float32) { return mgl32.Vec3{float32(k) * cs, 0, 0}, vs * m.At(k, 0) }, mgl32.Vec3{0, 0, -1}, eye[2] < 0, back)
		wall(edgeSouth, m.Width, func(k int) (mgl32.Vec3, float32) {
			return mgl32.Vec3{float32(k) * cs, 0, last(m.Height)}, vs * m.At(k, m.Height-1)
		}, mgl32.Vec3{0, 0, 1}, eye[2] > last(m.Height), back)
		wall(edgeWest, m.Height, func(k int) (mgl32.Vec3, float32) { return mgl32.Vec3{0, 0, float32(k) * cs}, vs * m.At(0, k) }, mgl32.Vec3{-1, 0, 0}, eye[0] < 0, back)
		wall(edgeEast, m.Height, func(k int) (mgl32.Vec3, float32) {
			return mgl32.Vec3{last(m.Width), 0, float32(k) * cs}, vs * m.At(m.Width-1, k)
		}, mgl32.Vec3{1, 0, 0}, eye[0] > last(m.Width), back)
	}
	walls(false)
	if out != nil {
		hz.buildOutside(p, cam, m, normals, out, level, &hz.ground, &hz.skirt)
	}
	walls(true)
}

// The map's edges, in the order edgeVertices lists their samples.
const (
	edgeNorth = iota // row 0
	edgeSouth        // the last row
	edgeWest         // column 0
	edgeEast         // the last column
)

// edgeVertices marks, in dst, the samples of m's edges (north, south, west,
// east, one after another: Width, Width, Height, Height samples) that
// are vertices of the terrain drawn from chunks: a border chunk drawn on
// every step-th sample has only those on the map's edge (nothing outside
// the map bends them). Samples of edges no chunk draws stay marked.
func edgeVertices(dst []bool, m *terrain.Heightmap, chunks []mesh.ChunkDraw) []bool {
	w, h := m.Width, m.Height
	dst = append(dst[:0], make([]bool, 2*w+2*h)...)
	for k := range dst {
		dst[k] = true
	}
	span := func(base, from, to, step int) {
		for s := from + 1; s < to; s++ {
			dst[base+s] = (s-from)%step == 0
		}
	}
	for i := range chunks {
		c := &chunks[i]
		if c.Step <= 1 {
			continue
		}
		if c.Row0 == 0 {
			span(0, c.Col0, c.Col1, c.Step)
		}
		if c.Row1 == h-1 {
			span(w, c.Col0, c.Col1, c.Step)
		}
		if c.Col0 == 0 {
			span(2*w, c.Row0, c.Row1, c.Step)
		}
		if c.Col1 == w-1 {
			span(2*w+h, c.Row0, c.Row1, c.Step)
		}
	}
	return dst
}

// onEdge reports whether sample k of edge is a vertex of the terrain's
// edge as last drawn.
func (hz *horizon) onEdge(m *terrain.Heightmap, edge, k int) bool {
	if hz.edges == nil {
		return true
	}
	base := [4]int{0, m.Width, 2 * m.Width, 2*m.Width + m.Height}[edge]
	return hz.edges[base+k]
}

// horizonCuts are the cell boundaries along one axis of the plane: the
// span [lo, hi] it leaves to the map (and the land beyond it) in the
// middle and horizonRings cells on either side, each twice as wide as the
// one before, out to reach beyond the span's centre.
func horizonCuts(lo, hi, reach float64) []float64 {
	out := max(reach-(hi-lo)/2, hi-lo)
	// Widths w, 2w, 4w, … sum to out: w = out / (2^rings − 1).
	w := out / (math.Exp2(horizonRings) - 1)
	cuts := make([]float64, 0, 2*horizonRings+2)
	for k := horizonRings; k >= 1; k-- {
		cuts = append(cuts, lo-w*(math.Exp2(float64(k))-1))
	}
	cuts = append(cuts, lo, hi)
	for k := 1; k <= horizonRings; k++ {
		cuts = append(cuts, hi+w*(math.Exp2(float64(k))-1))
	}
	return cuts
}

// quad appends the quad (a, b, c, d), split along b–c as the terrain's
// cells are, clipping at the near plane.
func (d *drawCall) quad(p *projector, v [4]surfaceVertex) {
	d.triangles(p, v, [2][3]int{{0, 2, 1}, {1, 2, 3}})
}

// triangles appends the two triangles of the quad v that tris name, in
// that order, clipping at the near plane.
func (d *drawCall) triangles(p *projector, v [4]surfaceVertex, tris [2][3]int) {
	for _, t := range tris {
		d.triangle(p, [3]surfaceVertex{v[t[0]], v[t[1]], v[t[2]]})
	}
}

// triangle appends one triangle, clipping it at the near plane.
func (d *drawCall) triangle(p *projector, tri [3]surfaceVertex) {
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
