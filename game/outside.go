package game

import (
	"context"
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl32"

	"cordillera/terrain"
	"cordillera/terrain/erosion"
)

// The land beyond the map. For the noise generators the same noise goes
// on outside the map's square (terrain.NewOutside), made with the world
// off the frame loop and drawn coarse around the map. Worlds whose map is
// not the noise's own — subdivision, loaded files, routes, erosion, which
// changes the map but not the noise, so the two would no longer meet —
// get land synthesised from the map itself (mirroredOutside). Either
// reaches beyondReach from the map, fading into the level ground that
// reaches on to the horizon (horizon.go), where the atmosphere has long
// hidden it.

// beyondReach is how far, in world units taken as metres, the land beyond
// reaches from the map at least: far enough that from a summit or a plane
// its far end lies in the haze (the atmosphere leaves a few per cent of
// the ground's contrast over 100 km of low air) and mountains, not a
// plain, meet the sky.
const beyondReach = 120000

// AddOutside gives w, made from p by the generator alone, the land beyond
// its map when p's generator continues; it leaves w as it is otherwise
// or when ctx is done (the view then synthesises the land beyond from
// the map: outsideOf).
func AddOutside(ctx context.Context, w *World, p terrain.Params) {
	if w == nil || w.Map == nil || w.Route != nil || w.Source != nil || p.Algorithm.IsSubdivision() || len(erosion.Stages(p)) > 0 {
		return
	}
	if o, err := terrain.NewOutsideReaching(ctx, p, w.Map, beyondReach); err == nil {
		w.Outside = o
		// The minimap's view of the map with that land around it, at
		// the minimap's resolution: 8–14 ms at 1025² (BenchmarkOverview1025).
		if ov, err := terrain.NewOverview(ctx, p, w.Map, beyondMargin, minimapSize); err == nil && w.Minimap != nil {
			w.Minimap = w.Minimap.withBeyond(ov)
		}
	}
}

// outsideOf is the land beyond the map the view draws: none when the
// viewer turned it off or for a lesson's map; for a world without the noise's own, the land
// synthesised from its map, made once (a few milliseconds: its rings
// have some 17 000 vertices) and kept with the world.
func outsideOf(v *Viewer, w *World) *terrain.Outside {
	if !v.Continue || w.lesson {
		return nil
	}
	if w.Outside == nil && w.Map != nil {
		w.Outside = mirroredOutside(w.Map)
	}
	return w.Outside
}

// mirroredOutside is land beyond m made of m itself, for maps that are no
// noise function. Mirroring the map at its edges continues it with no
// step in height at any edge and keeps its heights' distribution and
// spectrum, its valleys' widths and its ridges' spacing, the character a
// terrain artist reads. A mirror repeats, so from half a map width out a
// second mirrored copy, transposed and shifted by half a period, is
// blended in by a smooth noise with the variance-preserving blend (Heitz
// and Neyret 2018, as the shader hides the textures' repeat): neither
// the mirror's symmetry nor a tile grid shows, and the relief keeps its
// amplitude where the two are halved. Nil when m is too small.
func mirroredOutside(m *terrain.Heightmap) *terrain.Outside {
	w, h := m.Width, m.Height
	if w < 3 || h < 3 || len(m.Samples) != w*h {
		return nil
	}
	var mean float64
	for _, v := range m.Samples {
		mean += float64(v)
	}
	mean /= float64(len(m.Samples))
	side := float64(max(w, h) - 1)
	shiftC, shiftR := (w-1)/2, (h-1)/2
	height := func(col, row int) float64 {
		a := float64(m.Samples[mirror(row, h)*w+mirror(col, w)])
		// How far beyond the map, in map widths: the second copy
		// comes in from half a map width out.
		dx := max(-col, col-(w-1), 0)
		dz := max(-row, row-(h-1), 0)
		out := smoothstep64(0.5, 1.5, float64(max(dx, dz))/side)
		if out == 0 {
			return a
		}
		// The second copy: the map transposed (rows for columns) where
		// it is square, shifted by half a period.
		var b float64
		if w == h {
			b = float64(m.Samples[mirror(col+shiftC, w)*w+mirror(row+shiftR, h)])
		} else {
			b = float64(m.Samples[mirror(row+shiftR, h)*w+mirror(col+shiftC, w)])
		}
		t := out * beyondNoise(float64(col)/side, float64(row)/side)
		return mean + ((1-t)*(a-mean)+t*(b-mean))/math.Sqrt((1-t)*(1-t)+t*t)
	}
	o, err := terrain.NewOutsideOf(context.Background(), m, beyondReach, height)
	if err != nil {
		return nil
	}
	return o
}

// mirror folds sample k onto a map of n samples mirrored at its edges:
// … 2 1 0 1 2 … n−2 n−1 n−2 …
func mirror(k, n int) int {
	p := 2 * (n - 1)
	k %= p
	if k < 0 {
		k += p
	}
	if k > n-1 {
		k = p - k
	}
	return k
}

// beyondNoise is smooth value noise (0–1, about one feature per map
// width at (u, v) in map widths) that weighs the two copies of the map
// beyond it.
func beyondNoise(u, v float64) float64 {
	i, j := math.Floor(u), math.Floor(v)
	fu, fv := u-i, v-j
	fu, fv = fu*fu*(3-2*fu), fv*fv*(3-2*fv)
	hash := func(a, b float64) float64 {
		x := math.Sin(a*127.1+b*311.7) * 43758.5453
		return x - math.Floor(x)
	}
	top := hash(i, j) + (hash(i+1, j)-hash(i, j))*fu
	bottom := hash(i, j+1) + (hash(i+1, j+1)-hash(i, j+1))*fu
	return top + (bottom-top)*fv
}

// smoothstep64 is GLSL's smoothstep.
func smoothstep64(e0, e1, x float64) float64 {
	t := min(max((x-e0)/(e1-e0), 0), 1)
	return t * t * (3 - 2*t)
}

// outsideSurface is the outside's surface at one plane level, kept while
// the outside and the level stay.
type outsideSurface struct {
	of        *terrain.Outside
	level     float32
	heights   []float32
	normals   [][3]float32
	low, high float32 // the lowest and highest of heights
}

// at returns the surface of o faded into the plane at level.
func (s *outsideSurface) at(o *terrain.Outside, level float32) *outsideSurface {
	if s.of != o || s.level != level {
		s.heights, s.normals = o.Surface(level, s.heights, s.normals)
		s.of, s.level = o, level
		s.low, s.high = slices.Min(s.heights), slices.Max(s.heights)
	}
	return s
}

// buildOutside projects the outside's cells back to front: those beyond
// the map into behind (drawn before the map), the others into front
// (drawn after it). The cells along the map's edges meet it at the
// terrain's edge vertices (m's heights and normals), not only at their
// corners, so that no crack opens between the map's edge and the land
// beyond; the cells along a finer ring meet it at its vertices (Fan).
// Cells wholly outside the view are left out.
func (hz *horizon) buildOutside(p *projector, cam *Camera, m *terrain.Heightmap, normals []float32, o *terrain.Outside, level float32, behind, front *drawCall) {
	s := hz.surface.at(o, level)
	cs := float32(o.CellSize)
	ex, ez := float64(cam.Pos[0]), float64(cam.Pos[2])
	// Per vertex, the frustum planes it lies outside of (bits: left,
	// right, bottom, top, near; unknown until asked for): a cell whose
	// vertices all lie outside one plane cannot be seen.
	const unknown = 0xff
	hz.outcodes = grow(hz.outcodes, len(s.heights))
	for k := range hz.outcodes {
		hz.outcodes[k] = unknown
	}
	code := func(k int) uint8 {
		if hz.outcodes[k] == unknown {
			hz.outcodes[k] = p.outcode(mgl32.Vec3{float32(o.X[k]) * cs, s.heights[k], float32(o.Z[k]) * cs})
		}
		return hz.outcodes[k]
	}
	// A block of cells out of view is left out whole: the box over it
	// from the lowest to the highest vertex, lowered by the curvature
	// (least at the point nearest the eye, most at a far corner).
	// The stitched cells rise to the map's edge samples.
	high := s.high
	for k := range m.Width {
		high = max(high, float32(float64(max(m.At(k, 0), m.At(k, m.Height-1)))*m.VerticalScale))
	}
	for k := range m.Height {
		high = max(high, float32(float64(max(m.At(0, k), m.At(m.Width-1, k)))*m.VerticalScale))
	}
	keep := func(c0, r0, c1, r1 int) bool {
		if hz.noBlockCulling {
			return true
		}
		x0, x1, z0, z1 := float32(c0)*cs, float32(c1)*cs, float32(r0)*cs, float32(r1)*cs
		nx, nz := min(max(cam.Pos[0], x0), x1), min(max(cam.Pos[2], z0), z1)
		least := p.drop(mgl32.Vec3{nx, 0, nz})
		most := max(p.drop(mgl32.Vec3{x0, 0, z0}), p.drop(mgl32.Vec3{x1, 0, z0}), p.drop(mgl32.Vec3{x0, 0, z1}), p.drop(mgl32.Vec3{x1, 0, z1}))
		y0, y1 := s.low-most, high-least
		all := uint8(0x1f)
		for _, v := range [8]mgl32.Vec3{{x0, y0, z0}, {x1, y0, z0}, {x0, y0, z1}, {x1, y0, z1}, {x0, y1, z0}, {x1, y1, z0}, {x0, y1, z1}, {x1, y1, z1}} {
			all &= p.flatOutcode(v)
		}
		return all == 0
	}
	vertex := func(k int) surfaceVertex {
		n := s.normals[k]
		return surfaceVertex{pos: mgl32.Vec3{float32(o.X[k]) * cs, s.heights[k], float32(o.Z[k]) * cs}, normal: mgl32.Vec3{n[0], n[1], n[2]}}
	}
	sample := func(col, row int) surfaceVertex {
		k := row*m.Width + col
		v := surfaceVertex{pos: mgl32.Vec3{float32(col) * cs, float32(float64(m.Samples[k]) * m.VerticalScale), float32(row) * cs}, normal: mgl32.Vec3{0, 1, 0}}
		if len(normals) == 3*len(m.Samples) {
			v.normal = mgl32.Vec3{normals[3*k], normals[3*k+1], normals[3*k+2]}
		}
		return v
	}
	o.Order(ex, ez, keep, func(c int) {
		cl := &o.Cells[c]
		q := cl.Corners
		d := front
		if o.BehindMap(c, ex, ez) {
			d = behind
		}
		if cl.OnMap {
			// A cell along an edge: its outer side o0–o1 and the
			// terrain's edge vertices from o0's end to o1's, culled with
			// those, which may rise above the cell's corners.
			stitch := func(o0, o1 int, edge, from, to int, at func(k int) surfaceVertex) {
				ks := append(hz.stitch[:0], from)
				for k := from + 1; k < to; k++ {
					if hz.onEdge(m, edge, k) {
						ks = append(ks, k)
					}
				}
				hz.stitch = append(ks, to)
				out := code(o0) & code(o1)
				for _, k := range hz.stitch {
					out &= p.outcode(at(k).pos)
				}
				if out == 0 {
					d.fan(p, vertex(o0), vertex(o1), at, hz.stitch)
				}
			}
			switch cl.Side {
			case terrain.SideSouth: // north of the map: its south side is row 0
				stitch(q[0], q[1], edgeNorth, cl.X0, cl.X1, func(k int) surfaceVertex { return sample(k, 0) })
			case terrain.SideNorth:
				stitch(q[2], q[3], edgeSouth, cl.X0, cl.X1, func(k int) surfaceVertex { return sample(k, m.Height-1) })
			case terrain.SideEast:
				stitch(q[0], q[2], edgeWest, cl.Z0, cl.Z1, func(k int) surfaceVertex { return sample(0, k) })
			case terrain.SideWest:
				stitch(q[1], q[3], edgeEast, cl.Z0, cl.Z1, func(k int) surfaceVertex { return sample(m.Width-1, k) })
			}
			return
		}
		if cl.Side != terrain.SideNone {
			o0, o1, ks := o.Fan(c)
			out := code(o0) & code(o1)
			for _, k := range ks {
				out &= code(k)
			}
			if out == 0 {
				d.fan(p, vertex(o0), vertex(o1), vertex, ks)
			}
			return
		}
		if code(q[0])&code(q[1])&code(q[2])&code(q[3]) != 0 {
			return
		}
		v := [4]surfaceVertex{vertex(q[0]), vertex(q[1]), vertex(q[2]), vertex(q[3])}
		// Of the cell's two triangles the one on the eye's side of the
		// diagonal b–c goes second (terrain/mesh lowerFirst).
		c0, c1 := float64(cl.X0)*o.CellSize, float64(cl.X1)*o.CellSize
		r0, r1 := float64(cl.Z0)*o.CellSize, float64(cl.Z1)*o.CellSize
		if (ex-c1)*(r1-r0)+(ez-r0)*(c1-c0) < 0 {
			d.triangles(p, v, [2][3]int{{1, 2, 3}, {0, 2, 1}})
		} else {
			d.triangles(p, v, [2][3]int{{0, 2, 1}, {1, 2, 3}})
		}
	})
}

// fan appends the cell between the coarse side o0–o1 and the finer
// side's vertices at(k) for k in ks (terrain.FanTriangles): the triangle
// (o0, o1, at(mid)), mid the middle one, and a fan of thin triangles
// from each coarse end to its half of the finer side.
func (d *drawCall) fan(p *projector, o0, o1 surfaceVertex, at func(k int) surfaceVertex, ks []int) {
	get := func(k int) surfaceVertex {
		switch k {
		case -1:
			return o0
		case -2:
			return o1
		}
		return at(ks[k])
	}
	terrain.FanTriangles(len(ks), func(a, b, c int) { d.triangle(p, [3]surfaceVertex{get(a), get(b), get(c)}) })
}

// outcode returns the frustum planes (bit 0 left, 1 right, 2 bottom,
// 3 top, 4 near) the world point v lies outside of.
func (p *projector) outcode(v mgl32.Vec3) uint8 {
	return p.flatOutcode(p.bend(v))
}

// flatOutcode is outcode for a point already lowered by the curvature.
func (p *projector) flatOutcode(v mgl32.Vec3) uint8 {
	m := &p.vp
	x := m[0]*v[0] + m[4]*v[1] + m[8]*v[2] + m[12]
	y := m[1]*v[0] + m[5]*v[1] + m[9]*v[2] + m[13]
	w := m[3]*v[0] + m[7]*v[1] + m[11]*v[2] + m[15]
	var c uint8
	if x < -w {
		c |= 1
	}
	if x > w {
		c |= 2
	}
	if y < -w {
		c |= 4
	}
	if y > w {
		c |= 8
	}
	if w < p.near {
		c |= 16
	}
	return c
}
