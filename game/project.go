package game

import (
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/hajimehoshi/ebiten/v2"

	"cordillera/terrain"
	"cordillera/terrain/mesh"
)

// Ebiten has no vertex stage and no depth buffer (DESIGN.md): the CPU
// projects every vertex, clips triangles that cross the near plane, and
// submits the triangles in the back-to-front order mesh.LOD emits them.
//
// Vertex contract with shaders/terrain.kage (perspective-correct: every
// interpolated attribute is divided by w and recovered in the fragment):
//
//	ColorR..B  normal · 1/w
//	ColorA     world distance between neighbouring mesh vertices (not / w)
//	Custom0..2 world position · 1/w
//	Custom3    1/w

// surfaceVertex is a mesh vertex in world space.
type surfaceVertex struct {
	pos, normal mgl32.Vec3
	spacing     float32 // world distance to the neighbouring vertices
	// A vertex made by clipping at the near plane is drawn lowered by
	// drop (the curvature's drops at its ends, interpolated) where
	// dropped is set, so that it lies on the near plane as drawn.
	drop    float32
	dropped bool
}

// projector maps world space to screen pixels.
type projector struct {
	vp         mgl32.Mat4 // projection · view
	w, h       float32    // screen size in pixels
	near       float32    // smallest clip w drawn: the near plane distance
	halfW, hfH float32
	keepBack   bool // draw the triangles that face away too (tests compare with it)
	// The Earth's curvature (curveAround): points drop by curve times
	// their squared horizontal distance from eye.
	eye   mgl32.Vec3
	curve float32
}

// earthCurve is 1/(2R) for the Earth's radius R in metres: a point d away
// lies d²/(2R) below the eye's tangent plane (8 cm at 1 km, 785 m at
// 100 km).
const earthCurve = 1 / (2 * 6.371e6)

// curveAround bends the world for an eye at eye: the ground falls away
// with the Earth's curvature, so that far land sinks below a curved
// horizon instead of a level plane meeting the sky in a ruler-straight
// line, and mountains, not the plane, form the skyline. The bend moves
// only the screen position; the shaders see the true world position.
func (p *projector) curveAround(eye mgl32.Vec3) {
	p.eye, p.curve = eye, earthCurve
}

// bend is world point v as drawn: lowered by the curvature.
func (p *projector) bend(v mgl32.Vec3) mgl32.Vec3 {
	v[1] -= p.drop(v)
	return v
}

// drop is how far the curvature lowers world point v.
func (p *projector) drop(v mgl32.Vec3) float32 {
	dx, dz := v[0]-p.eye[0], v[2]-p.eye[2]
	return p.curve * (dx*dx + dz*dz)
}

func newProjector(vp mgl32.Mat4, w, h int, near float32) projector {
	return projector{vp: vp, w: float32(w), h: float32(h), near: near, halfW: float32(w) / 2, hfH: float32(h) / 2}
}

// clipW returns the clip-space w of a world point: its depth along the view.
func (p *projector) clipW(v mgl32.Vec3) float32 {
	m := &p.vp
	v = p.bend(v)
	return m[3]*v[0] + m[7]*v[1] + m[11]*v[2] + m[15]
}

// vertex projects a surface vertex in front of the near plane.
func (p *projector) vertex(s surfaceVertex) ebiten.Vertex {
	m := &p.vp
	v := s.pos
	b := p.bend(v)
	if s.dropped {
		b[1] = v[1] - s.drop
	}
	cx := m[0]*b[0] + m[4]*b[1] + m[8]*b[2] + m[12]
	cy := m[1]*b[0] + m[5]*b[1] + m[9]*b[2] + m[13]
	cw := m[3]*b[0] + m[7]*b[1] + m[11]*b[2] + m[15]
	inv := 1 / cw
	return ebiten.Vertex{
		DstX:    (cx*inv + 1) * p.halfW,
		DstY:    (1 - cy*inv) * p.hfH,
		ColorR:  s.normal[0] * inv,
		ColorG:  s.normal[1] * inv,
		ColorB:  s.normal[2] * inv,
		ColorA:  s.spacing,
		Custom0: v[0] * inv,
		Custom1: v[1] * inv,
		Custom2: v[2] * inv,
		Custom3: inv,
	}
}

// drawCall is geometry for one DrawTrianglesShader32 call with one shader variant.
type drawCall struct {
	vertices []ebiten.Vertex
	indices  []uint32
	noDetail bool // every chunk in it lies beyond the detail maps' reach
	dry      bool // no vertex of it lies below the water surface
}

// batch is the projected geometry of a run of chunks: one worker's share
// of a frame, as draw calls in order.
type batch struct {
	draws     []drawCall
	n         int // draws in use
	triangles int

	// per-chunk scratch
	surf  []surfaceVertex
	w     []float32
	remap []int32         // chunk vertex → index in the draw call; −1 not projected, −2 projected (in proj) but not used yet
	proj  []ebiten.Vertex // chunk vertex → its projection, where remap says so
}

func (b *batch) reset() { b.n, b.triangles = 0, 0 }

// calls returns the draw calls in use.
func (b *batch) calls() []drawCall { return b.draws[:b.n] }

// maxCallVertices is about the most vertices one draw call carries: a
// chunk's vertices go into the current call while it has room for them,
// else into a fresh one. Ebiten copies every vertex of a call at once,
// and on 32-bit systems it refuses calls beyond ebiten.MaxVertexCount;
// moderate calls keep both in bounds (Ebiten merges consecutive calls
// with the same shader, so splitting costs nothing on the GPU).
const maxCallVertices = 1 << 16

// begin returns the draw call the next chunk, of about n vertices, goes
// into: the current one if it has the same shader variant and room for
// them, else a fresh one.
func (b *batch) begin(noDetail, dry bool, n int) *drawCall {
	if b.n > 0 && b.draws[b.n-1].noDetail == noDetail && b.draws[b.n-1].dry == dry && len(b.draws[b.n-1].vertices)+n <= min(maxCallVertices, ebiten.MaxVertexCount) {
		return &b.draws[b.n-1]
	}
	if b.n == len(b.draws) {
		b.draws = append(b.draws, drawCall{})
	}
	d := &b.draws[b.n]
	b.n++
	d.vertices, d.indices, d.noDetail, d.dry = d.vertices[:0], d.indices[:0], noDetail, dry
	return d
}

// addChunk projects one chunk and appends its triangles in the order
// given, clipping those that cross the near plane and dropping those that
// face away from the eye (backFacing). Only vertices that a drawn triangle
// uses are handed over. noDetail marks a chunk entirely beyond
// the detail maps' distance, dry one wholly above the water surface.
func (b *batch) addChunk(p *projector, c *mesh.ChunkDraw, m *terrain.Heightmap, normals []float32, noDetail, dry bool) {
	// The grid and the vertices on its edges shared with finer chunks.
	n := len(c.Heights)
	d := b.begin(noDetail, dry, n)
	b.remap = grow(b.remap, n)
	b.proj = grow(b.proj, n)
	// use hands chunk vertex k, projected, to the draw call once.
	use := func(k uint32) uint32 {
		if b.remap[k] < 0 {
			b.remap[k] = int32(len(d.vertices))
			d.vertices = append(d.vertices, b.proj[k])
		}
		return uint32(b.remap[k])
	}
	cs := float32(m.CellSize)
	spacing := cs * float32(c.Step)
	// A vertex two chunks share has the same sample and height in both,
	// and its position is computed the same way here, so both project to
	// the same float32 screen coordinates.
	surface := func(k, col, row int) surfaceVertex {
		s := (row*m.Width + col) * 3
		return surfaceVertex{
			pos:     mgl32.Vec3{float32(col) * cs, c.Heights[k], float32(row) * cs},
			normal:  mgl32.Vec3{normals[s], normals[s+1], normals[s+2]},
			spacing: spacing,
		}
	}
	if p.inFront(c, cs) {
		// No triangle reaches the near plane: project each vertex the
		// first time a triangle uses it, and test nothing per vertex.
		for k := range b.remap {
			b.remap[k] = -1
		}
		project := func(k uint32) *ebiten.Vertex {
			if b.remap[k] == -1 {
				col, row := c.Sample(int(k))
				b.proj[k] = p.vertex(surface(int(k), col, row))
				b.remap[k] = -2
			}
			return &b.proj[k]
		}
		for t := 0; t+2 < len(c.Tris); t += 3 {
			i0, i1, i2 := c.Tris[t], c.Tris[t+1], c.Tris[t+2]
			if p.backFacing(project(i0), project(i1), project(i2)) {
				continue
			}
			d.indices = append(d.indices, use(i0), use(i1), use(i2))
			b.triangles++
		}
		return
	}
	b.surf = grow(b.surf, n)
	b.w = grow(b.w, n)
	at := func(k, col, row int) {
		b.surf[k] = surface(k, col, row)
		b.w[k] = p.clipW(b.surf[k].pos)
		b.remap[k] = -1
	}
	for j := 0; j < c.Rows; j++ {
		row := min(c.Row0+j*c.Step, c.Row1)
		for i := 0; i < c.Cols; i++ {
			at(j*c.Cols+i, min(c.Col0+i*c.Step, c.Col1), row)
		}
	}
	for k, e := range c.Edge {
		at(c.Cols*c.Rows+k, e[0], e[1])
	}
	project := func(k uint32) *ebiten.Vertex {
		if b.remap[k] == -1 {
			b.proj[k] = p.vertex(b.surf[k])
			b.remap[k] = -2
		}
		return &b.proj[k]
	}
	for t := 0; t+2 < len(c.Tris); t += 3 {
		i0, i1, i2 := c.Tris[t], c.Tris[t+1], c.Tris[t+2]
		in0, in1, in2 := b.w[i0] >= p.near, b.w[i1] >= p.near, b.w[i2] >= p.near
		switch {
		case in0 && in1 && in2:
			if p.backFacing(project(i0), project(i1), project(i2)) {
				continue
			}
			d.indices = append(d.indices, use(i0), use(i1), use(i2))
			b.triangles++
		case !in0 && !in1 && !in2:
		default:
			b.triangles += d.clipTriangle(p, [3]surfaceVertex{b.surf[i0], b.surf[i1], b.surf[i2]}, [3]float32{b.w[i0], b.w[i1], b.w[i2]})
		}
	}
}

// backFacing reports whether the projected triangle a, b, c faces away from the eye (or has no area). The terrain is a height
// field seen from above it, so the first surface along any view ray is
// one that faces the eye, and a triangle facing away is always covered
// by nearer ones: drawn back to front without a depth buffer it would be
// shaded and then painted over. Walking, a fifth of a frame's triangles
// face away, most of them slivers on the far sides of ridges, which cost
// llvmpipe a 4×4 block of shading each (issue 12). The grid's triangles
// wind clockwise on the y-down screen when they face the eye.
func (p *projector) backFacing(a, b, c *ebiten.Vertex) bool {
	if p.keepBack {
		return false
	}
	return (b.DstX-a.DstX)*(c.DstY-a.DstY)-(c.DstX-a.DstX)*(b.DstY-a.DstY) >= 0
}

// inFront reports whether every vertex of chunk c, on a map of cell size
// cs, has a clip w of at least the near plane's, as clipW computes it in
// float32: the least w over the corners of the chunk's bounding box,
// exact in float64, clears the near plane by far more than clipW's
// rounding (under 1e-6 of the terms' magnitudes).
func (p *projector) inFront(c *mesh.ChunkDraw, cs float32) bool {
	lo, hi := heightRange(c)
	m := &p.vp
	ext := [3][2]float64{
		{float64(float32(c.Col0) * cs), float64(float32(c.Col1) * cs)},
		{float64(lo), float64(hi)},
		{float64(float32(c.Row0) * cs), float64(float32(c.Row1) * cs)},
	}
	w, size := float64(m[15]), math.Abs(float64(m[15]))
	for a, coef := range [3]float32{m[3], m[7], m[11]} {
		k := float64(coef)
		w += min(k*ext[a][0], k*ext[a][1])
		size += math.Abs(k) * max(math.Abs(ext[a][0]), math.Abs(ext[a][1]))
	}
	return w-1e-4*size >= float64(p.near)
}

// heightRange returns the lowest and highest height of c's vertices.
func heightRange(c *mesh.ChunkDraw) (lo, hi float32) {
	lo, hi = c.Heights[0], c.Heights[0]
	for _, h := range c.Heights {
		lo, hi = min(lo, h), max(hi, h)
	}
	return lo, hi
}

// clipTriangle cuts a triangle that crosses the near plane (Sutherland–
// Hodgman against clip w = near) and appends the one or two triangles of
// the part in front, returning how many. Clip coordinates are affine in
// world position, so the cut vertices interpolate position and normal with
// the same parameter. A cut vertex is always computed from the edge's
// vertex in front towards the one behind: the neighbouring triangle walks
// the shared edge the other way round, and the same arithmetic in both
// gives the same point to the bit, where the reverse would leave a crack.
func (d *drawCall) clipTriangle(p *projector, v [3]surfaceVertex, w [3]float32) int {
	var poly [4]surfaceVertex
	n := 0
	for i := 0; i < 3; i++ {
		j := (i + 1) % 3
		inI, inJ := w[i] >= p.near, w[j] >= p.near
		if inI {
			poly[n] = v[i]
			n++
		}
		if inI != inJ {
			f, b := i, j // in front, behind
			if inJ {
				f, b = j, i
			}
			t := (w[f] - p.near) / (w[f] - w[b])
			df, db := p.drop(v[f].pos), p.drop(v[b].pos)
			poly[n] = surfaceVertex{
				pos:     v[f].pos.Add(v[b].pos.Sub(v[f].pos).Mul(t)),
				normal:  v[f].normal.Add(v[b].normal.Sub(v[f].normal).Mul(t)),
				spacing: v[f].spacing,
				drop:    df + (db-df)*t,
				dropped: true,
			}
			n++
		}
	}
	base := uint32(len(d.vertices))
	for i := 0; i < n; i++ {
		d.vertices = append(d.vertices, p.vertex(poly[i]))
	}
	for i := 1; i+1 < n; i++ {
		d.indices = append(d.indices, base, base+uint32(i), base+uint32(i+1))
	}
	return max(n-2, 0)
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// frame is everything the CPU prepares for one terrain draw.
type frame struct {
	batches     []batch
	triangles   int
	chunks      []mesh.ChunkDraw
	noOcclusion bool // draw hidden chunks too (tests compare with it)
	keepBack    bool // draw the triangles facing away too (tests compare with it)
	// The water surface's height, where wet, once waterKnown: chunks
	// wholly above it are drawn with a shader without the water (their
	// fragments lie between their vertices' heights). Unknown, every
	// chunk keeps it.
	water           float32
	wet, waterKnown bool

	// The inputs of the last build. While they stay the same (the camera
	// and the view have not moved, the world is the same), the level of
	// detail, the occlusion culling and the projected vertices would come
	// out the same, and build keeps them.
	built   frameKey
	valid   bool
	noReuse bool // rebuild every time (the tests' reference)
}

// frameKey is what a frame's geometry depends on. It holds the world's
// map, level of detail and normals themselves, so that they cannot be
// freed and their addresses reused by another world while it is kept.
type frameKey struct {
	vp                mgl32.Mat4
	w, h              int
	near, detailDist  float32
	m                 *terrain.Heightmap
	lod               *mesh.LOD
	normals           *float32
	full, noOcclusion bool
	maxTriangles      int
	keepBack          bool
	water             float32
	wet, waterKnown   bool
}

// dry reports whether chunk c lies wholly above the water surface, as far
// as the frame knows it.
func (f *frame) dry(c *mesh.ChunkDraw) bool {
	if !f.waterKnown {
		return false
	}
	if !f.wet {
		return true
	}
	return !slices.ContainsFunc(c.Heights, func(h float32) bool { return !(h >= f.water) })
}

// MaxErrorPx is the screen-space error the level of detail allows.
const MaxErrorPx = 2

// MaxTriangles bounds the triangles of a terrain frame (before near-plane
// clipping, which adds at most one per cut triangle): where the error
// MaxErrorPx allows would take more, as on rough maps of 2049² and up seen
// whole, the level of detail is coarsened to fit (mesh.View.MaxTriangles).
// It keeps a frame's memory bounded, about 0.5 GB at most with the
// driver's copies, and its drawing time under software OpenGL.
const MaxTriangles = 1 << 19

// FullMeshMaxTriangles bounds a frame drawn without level of detail (the
// reference FullMesh draws): the whole 1025² map at step 1, and larger
// maps at the finest common step that fits.
const FullMeshMaxTriangles = 1 << 22

// build selects the chunks for the camera, projects them on all cores and
// leaves one batch per worker, in back-to-front order. full disables level
// of detail and culling (the reference the benchmarks compare against).
//
// detailDist is the distance beyond which detail maps vanish: chunks
// entirely farther away are drawn with a shader without them.
func (f *frame) build(cam *Camera, w, h int, m *terrain.Heightmap, lod *mesh.LOD, normals []float32, full bool, detailDist float32) {
	vp := cam.Projection(w, h).Mul4(cam.View())
	budget := MaxTriangles
	if full {
		budget = FullMeshMaxTriangles
	}
	// The cull of triangles facing away holds only with the eye above the
	// drawn surface. The moving camera stands on the drawn ground
	// (Camera.groundAt), but a camera placed at the bilinear ground (a
	// teleport, a follow pose, a test's pose) can lie under the planar
	// triangles inside a cell (on a ridge or a saddle of a coarse map by
	// metres): there, with the eye inside the mountain, they are all
	// drawn, as before the cull.
	keepBack := f.keepBack || float64(cam.Pos[1]) <= meshHeight(m, float64(cam.Pos[0]), float64(cam.Pos[2]))
	key := frameKey{vp: vp, w: w, h: h, near: cam.Near, detailDist: detailDist, m: m, lod: lod,
		full: full, noOcclusion: f.noOcclusion, maxTriangles: budget, keepBack: keepBack,
		water: f.water, wet: f.wet, waterKnown: f.waterKnown}
	if len(normals) > 0 {
		key.normals = &normals[0]
	}
	if f.valid && !f.noReuse && key == f.built {
		return
	}
	f.built, f.valid = key, true
	view := mesh.View{
		Eye:           [3]float64{float64(cam.Pos[0]), float64(cam.Pos[1]), float64(cam.Pos[2])},
		Planes:        mesh.FrustumPlanes([16]float32(vp)),
		PixelsPerUnit: float64(h) / (2 * math.Tan(float64(cam.FovY)/2)),
		MaxErrorPx:    MaxErrorPx,
		Full:          full,
		MaxTriangles:  budget,
	}
	if !full && !f.noOcclusion {
		view.ViewProj, view.Width, view.Height, view.NearW = [16]float32(vp), w, h, float64(cam.Near)
	}
	f.chunks = lod.Select(view, f.chunks)
	p := newProjector(vp, w, h, cam.Near)
	p.curveAround(cam.Pos)
	p.keepBack = keepBack
	workers := min(runtime.GOMAXPROCS(0), max(1, len(f.chunks)))
	if len(f.batches) < workers {
		f.batches = append(f.batches, make([]batch, workers-len(f.batches))...)
	}
	f.batches = f.batches[:workers]
	// Contiguous runs of chunks per worker keep the global order when the
	// batches are drawn one after another; the runs hold equal vertex counts.
	total := 0
	for i := range f.chunks {
		total += f.chunks[i].Cols * f.chunks[i].Rows
	}
	cut := make([]int, workers+1)
	for i, acc, k := 0, 0, 1; i < len(f.chunks) && k < workers; i++ {
		acc += f.chunks[i].Cols * f.chunks[i].Rows
		for k < workers && acc*workers >= k*total {
			cut[k] = i + 1
			k++
		}
	}
	cut[workers] = len(f.chunks)
	var wg sync.WaitGroup
	for k := range f.batches {
		lo, hi := cut[k], cut[k+1]
		b := &f.batches[k]
		b.reset()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				c := &f.chunks[i]
				b.addChunk(&p, c, m, normals, chunkDistance(c, cam.Pos, m) >= detailDist, f.dry(c))
			}
		}()
	}
	wg.Wait()
	f.triangles = 0
	for i := range f.batches {
		f.triangles += f.batches[i].triangles
	}
}

// chunkDistance is the distance from eye to the nearest point of the
// chunk's bounding box.
func chunkDistance(c *mesh.ChunkDraw, eye mgl32.Vec3, m *terrain.Heightmap) float32 {
	lo, hi := heightRange(c)
	cs := float32(m.CellSize)
	d := func(v, a, b float32) float32 { return max(a-v, 0, v-b) }
	dx := d(eye[0], float32(c.Col0)*cs, float32(c.Col1)*cs)
	dy := d(eye[1], lo, hi)
	dz := d(eye[2], float32(c.Row0)*cs, float32(c.Row1)*cs)
	return float32(math.Sqrt(float64(dx*dx + dy*dy + dz*dz)))
}

// meshHeight is the world height at (x, z) of the drawn step-1 mesh: the
// cell's two planar triangles split along its (col+1, row)–(col, row+1)
// diagonal (thesis listing 5.1), not the bilinear patch GroundHeight
// interpolates. Chunks around the eye are drawn at an exact step, so this
// is the surface over the eye. The point is clamped onto the map.
func meshHeight(m *terrain.Heightmap, x, z float64) float64 {
	if m.Width < 2 || m.Height < 2 {
		return m.GroundHeight(x, z)
	}
	fx := min(max(x/m.CellSize, 0), float64(m.Width-1))
	fz := min(max(z/m.CellSize, 0), float64(m.Height-1))
	c0, r0 := min(int(fx), m.Width-2), min(int(fz), m.Height-2)
	u, v := fx-float64(c0), fz-float64(r0)
	ha, hb := float64(m.At(c0, r0)), float64(m.At(c0+1, r0))
	hc, hd := float64(m.At(c0, r0+1)), float64(m.At(c0+1, r0+1))
	var h float64
	if u+v <= 1 {
		h = ha + u*(hb-ha) + v*(hc-ha)
	} else {
		h = hd + (1-u)*(hc-hd) + (1-v)*(hb-hd)
	}
	return h * m.VerticalScale
}
