package game

import (
	"math"
	"slices"
	"sync"

	"cordillera/terrain"
	"cordillera/terrain/scatter"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/hajimehoshi/ebiten/v2"
)

// Rocks are low-poly meshes, not billboards: a boulder has faces the sun
// lights and faces it leaves to the sky, as the ground around it has,
// and seen from above it shows its top instead of a card's edge. Each
// is a jittered sphere cut by a few planes (the flat faces of broken
// rock), stretched to the plant's size, turned about the vertical and
// sunk a quarter into the ground; the part under the ground's plane is
// cut off on the CPU, as is the part the ground in front hides. With no
// depth buffer a rock's faces that turn from the eye are left out and
// the rest are painted farthest first, which is exact for a convex
// shape and near enough for these. Their colour is the terrain's rock
// (shaders/terrain.kage's albedo 4), darker towards the ground where
// the soil and the stone shade each other.

// The shapes: rockShapes of each level of detail, near (rockNearDistance)
// and far.
const (
	rockShapes       = 8
	rockNearDistance = 60
)

// rockMaxTriangles is the most triangles a rock of each level of detail
// draws from any side (TestScatterRockTriangles), and scatterMaxRocks the
// rocks a frame draws at most, the farthest left out first: at most
// 600 × 48 = 28 800 triangles of rock, and far fewer in a view, where
// most rocks lie beyond rockNearDistance.
var rockMaxTriangles = [2]int{48, 16}

const scatterMaxRocks = 600

// rockAlbedo is terrain.kage's grey rock (albedo 4), linear.
var rockAlbedo = [3]float32{0.165, 0.155, 0.138}

// rockShape is a boulder's mesh around its centre, about a unit in
// radius, its faces wound either way (addRock turns them out).
type rockShape struct {
	verts []mgl32.Vec3
	faces [][3]uint16
}

// rockMeshes is the shapes: [0] near (4 rings of 8), [1] far (2 of 5).
var rockMeshes = sync.OnceValue(func() (s *[2][rockShapes]rockShape) {
	s = new([2][rockShapes]rockShape)
	for k := range rockShapes {
		s[0][k] = makeRockShape(uint64(1000+k), 4, 8)
		s[1][k] = makeRockShape(uint64(1000+k), 2, 5)
	}
	return s
})

// makeRockShape is a sphere of rings × segs vertices between two poles,
// each vertex's radius and longitude jittered, then cut by seven planes:
// the vertices beyond a plane are moved onto it, which leaves a flat
// face where a block broke off.
func makeRockShape(seed uint64, rings, segs int) rockShape {
	var s rockShape
	s.verts = append(s.verts, mgl32.Vec3{0, 1, 0})
	for r := 1; r <= rings; r++ {
		lat := math.Pi * float64(r) / float64(rings+1)
		twist := 0.5 * float64(r%2)
		for k := range segs {
			lon := 2 * math.Pi * (float64(k) + twist + 0.35*(hashUnit(seed, r, k)-0.5)) / float64(segs)
			rad := 0.82 + 0.18*hashUnit(seed, 100+r, k)
			s.verts = append(s.verts, mgl32.Vec3{
				float32(math.Sin(lat) * math.Cos(lon) * rad),
				float32(math.Cos(lat) * rad),
				float32(math.Sin(lat) * math.Sin(lon) * rad)})
		}
	}
	s.verts = append(s.verts, mgl32.Vec3{0, -1, 0})
	for i := range 7 {
		// Around the sides, a quarter turn apart and jittered, and one
		// on top: a block, not a ball.
		a := 2 * math.Pi * (float64(i)/6 + 0.12*hashUnit(seed, 200, i))
		y := -0.15 + 0.6*hashUnit(seed, 201, i)
		if i == 6 {
			y = 0.85 + 0.15*hashUnit(seed, 201, i)
		}
		c := math.Sqrt(1 - y*y)
		n := mgl32.Vec3{float32(c * math.Cos(a)), float32(y), float32(c * math.Sin(a))}
		d := float32(0.5 + 0.25*hashUnit(seed, 202, i))
		for j, v := range s.verts {
			if e := v.Dot(n) - d; e > 0 {
				s.verts[j] = v.Sub(n.Mul(e))
			}
		}
	}
	ring := func(r, k int) uint16 { return uint16(1 + (r-1)*segs + (k+segs)%segs) }
	last := uint16(len(s.verts) - 1)
	for k := range segs {
		s.faces = append(s.faces, [3]uint16{0, ring(1, k), ring(1, k+1)})
		for r := 1; r < rings; r++ {
			// The next ring is turned by half a step on odd rings.
			o := r % 2
			s.faces = append(s.faces, [3]uint16{ring(r, k), ring(r+1, k-1+o), ring(r+1, k+o)},
				[3]uint16{ring(r, k), ring(r+1, k+o), ring(r, k+1)})
		}
		s.faces = append(s.faces, [3]uint16{ring(rings, k), last, ring(rings, k+1)})
	}
	return s
}

// rockFace is a face of a rock, clipped, waiting to be painted.
type rockFace struct {
	p     [5]mgl32.Vec3 // a triangle, cut by up to two planes
	n     int
	depth float32
	shade float32
}

// addRock adds plant pl's boulder, seen from eye at horizontal distance
// d, cut off below world height cut, its height times rise (a far rock
// grows out of the ground instead of fading in).
func (s *scatterView) addRock(p *projector, m *terrain.Heightmap, eye mgl32.Vec3, pl *scatter.Plant, d, cut, rise float32) {
	lod := 0
	if d > rockNearDistance {
		lod = 1
	}
	sh := &rockMeshes()[lod][int(pl.Variant)%rockShapes]
	// The ground's plane at the foot.
	x, z := float64(pl.X), float64(pl.Z)
	e := max(0.5*float64(pl.Width), 0.25)
	gx := (m.GroundHeight(x+e, z) - m.GroundHeight(x-e, z)) / (2 * e)
	gz := (m.GroundHeight(x, z+e) - m.GroundHeight(x, z-e)) / (2 * e)
	up := mgl32.Vec3{float32(-gx), 1, float32(-gz)}.Normalize()
	foot := mgl32.Vec3{pl.X, pl.Y, pl.Z}
	// The semi-axes: across, up (three quarters of the height, a quarter
	// of the rock under the foot) and along, turned by the hash.
	h := pl.Height * rise
	ax, ay := 0.5*pl.Width, 0.75*h
	az := ax * (0.65 + 0.35*float32(pl.Hash>>24)/255)
	ang := 2 * math.Pi * float64(pl.Hash>>12&0xff) / 256
	ca, sa := float32(math.Cos(ang)), float32(math.Sin(ang))
	centre := foot.Add(mgl32.Vec3{0, 0.25 * h, 0})
	// The ground plane, a little below the foot: the drawn ground is the
	// terrain's mesh, not this plane, and a rock cut a few centimetres
	// short of it shows a sliver of air under it.
	sink := 0.05 * h
	s.rockFaces = s.rockFaces[:0]
	var w [64]mgl32.Vec3
	for i, v := range sh.verts {
		lx, ly, lz := v[0]*ax, v[1]*ay, v[2]*az
		w[i] = centre.Add(mgl32.Vec3{lx*ca - lz*sa, ly, lx*sa + lz*ca})
	}
	for fi, f := range sh.faces {
		a, b, c := w[f[0]], w[f[1]], w[f[2]]
		mid := a.Add(b).Add(c).Mul(1.0 / 3)
		n := b.Sub(a).Cross(c.Sub(a))
		if n.Dot(mid.Sub(centre)) < 0 {
			n = n.Mul(-1)
			b, c = c, b
		}
		if n.Dot(eye.Sub(mid)) <= 0 {
			continue // turned from the eye
		}
		var b0, b1 [5]mgl32.Vec3
		poly := clipPolygon([]mgl32.Vec3{a, b, c}, b0[:0], func(q mgl32.Vec3) float32 { return q.Sub(foot).Dot(up) + sink })
		if cut > foot[1]-sink {
			poly = clipPolygon(poly, b1[:0], func(q mgl32.Vec3) float32 { return q[1] - cut })
		}
		if len(poly) < 3 {
			continue
		}
		rf := rockFace{n: len(poly), depth: mid.Sub(eye).Len(), shade: 0.9 + 0.2*float32(hashUnit(uint64(pl.Hash), fi, 0))}
		copy(rf.p[:], poly)
		s.rockFaces = append(s.rockFaces, rf)
	}
	slices.SortFunc(s.rockFaces, func(a, b rockFace) int { return cmpf(b.depth, a.depth) })
	tint := plantTint(pl)
	o := scatterCellOrigin(blobCell)
	for _, rf := range s.rockFaces {
		var vs [5]ebiten.Vertex
		ok := true
		for i := range rf.n {
			q := rf.p[i]
			v, in := p.billboardVertex(q)
			if !in {
				ok = false
				break
			}
			// Contact darkening: the stone near the soil sees little sky
			// and is wet and dirty.
			ao := 0.45 + 0.55*smoothstep32(-sink, 0.45*h, q.Sub(foot).Dot(up))
			k := ao * rf.shade
			v.SrcX, v.SrcY = float32(o.X)+0.5, float32(o.Y)+0.5
			v.ColorR, v.ColorG, v.ColorB = rockAlbedo[0]*tint[0]*k, rockAlbedo[1]*tint[1]*k, rockAlbedo[2]*tint[2]*k
			v.ColorA = 64 + 1
			vs[i] = v
		}
		if !ok {
			continue
		}
		base := uint32(len(s.sprites.vertices))
		s.sprites.vertices = append(s.sprites.vertices, vs[:rf.n]...)
		for i := 2; i < rf.n; i++ {
			s.sprites.indices = append(s.sprites.indices, base, base+uint32(i-1), base+uint32(i))
		}
	}
}

// clipPolygon appends to out the part of convex polygon poly where
// side(q) ≥ 0 (Sutherland–Hodgman against one plane): a triangle cut by
// two planes keeps five corners at most.
func clipPolygon(poly, out []mgl32.Vec3, side func(mgl32.Vec3) float32) []mgl32.Vec3 {
	for i, a := range poly {
		b := poly[(i+1)%len(poly)]
		da, db := side(a), side(b)
		if da >= 0 {
			out = append(out, a)
		}
		if (da >= 0) != (db >= 0) {
			t := da / (da - db)
			out = append(out, a.Add(b.Sub(a).Mul(t)))
		}
	}
	return out
}
