package game

import (
	"context"
	"math"

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
// viewer turned it off; for a world without the noise's own, the land
// synthesised from its map, made once (a few milliseconds: the coarse
// grid has some 30 000 vertices) and kept with the world.
func outsideOf(v *Viewer, w *World) *terrain.Outside {
	if !v.Continue {
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
	of      *terrain.Outside
	level   float32
	heights []float32
	normals [][3]float32
}

// at returns the surface of o faded into the plane at level.
func (s *outsideSurface) at(o *terrain.Outside, level float32) *outsideSurface {
	if s.of != o || s.level != level {
		s.heights, s.normals = o.Surface(level, s.heights, s.normals)
		s.of, s.level = o, level
	}
	return s
}

// buildOutside projects the outside's cells back to front: those beyond
// the map into behind (drawn before the map), the others into front
// (drawn after it). The cells along the map's edges meet it at the
// terrain's edge vertices (m's heights and normals), not only at the
// coarse grid's lines, so that no crack opens between the map's edge and
// the coarse land. Cells wholly outside the view are left out.
func (hz *horizon) buildOutside(p *projector, cam *Camera, m *terrain.Heightmap, normals []float32, o *terrain.Outside, level float32, behind, front *drawCall) {
	s := hz.surface.at(o, level)
	nc := len(o.Cols)
	cs := float32(o.CellSize)
	ex, ez := float64(cam.Pos[0]), float64(cam.Pos[2])
	ic, ir := o.InnerCols, o.InnerRows
	// Per grid vertex, the frustum planes it lies outside of (bits: left,
	// right, bottom, top, near): a cell whose corners all lie outside
	// one plane cannot be seen.
	hz.outcodes = grow(hz.outcodes, len(s.heights))
	for j, row := range o.Rows {
		for i, col := range o.Cols {
			hz.outcodes[j*nc+i] = p.outcode(mgl32.Vec3{float32(col) * cs, s.heights[j*nc+i], float32(row) * cs})
		}
	}
	// Cells along the edges are culled with their edge vertices, which
	// may rise above the coarse corners.
	unseen := func(i, j int) bool {
		k := j*nc + i
		along := (i >= ic[0] && i < ic[1] && (j == ir[0]-1 || j == ir[1])) || (j >= ir[0] && j < ir[1] && (i == ic[0]-1 || i == ic[1]))
		return !along && hz.outcodes[k]&hz.outcodes[k+1]&hz.outcodes[k+nc]&hz.outcodes[k+nc+1] != 0
	}
	vertex := func(i, j int) surfaceVertex {
		k := j*nc + i
		n := s.normals[k]
		return surfaceVertex{pos: mgl32.Vec3{float32(o.Cols[i]) * cs, s.heights[k], float32(o.Rows[j]) * cs}, normal: mgl32.Vec3{n[0], n[1], n[2]}}
	}
	sample := func(col, row int) surfaceVertex {
		k := row*m.Width + col
		v := surfaceVertex{pos: mgl32.Vec3{float32(col) * cs, float32(float64(m.Samples[k]) * m.VerticalScale), float32(row) * cs}, normal: mgl32.Vec3{0, 1, 0}}
		if len(normals) == 3*len(m.Samples) {
			v.normal = mgl32.Vec3{normals[3*k], normals[3*k+1], normals[3*k+2]}
		}
		return v
	}
	o.Order(ex, ez, func(i, j int) {
		if unseen(i, j) {
			return
		}
		d := front
		if o.BehindMap(i, j, ex, ez) {
			d = behind
		}
		// A cell along an edge: its outer line o0–o1 and the terrain's
		// edge vertices from o0's end to o1's.
		stitch := func(o0, o1 surfaceVertex, edge, from, to int, at func(k int) surfaceVertex) {
			ks := append(hz.stitch[:0], from)
			for k := from + 1; k < to; k++ {
				if hz.onEdge(m, edge, k) {
					ks = append(ks, k)
				}
			}
			hz.stitch = append(ks, to)
			code := p.outcode(o0.pos) & p.outcode(o1.pos)
			for _, k := range hz.stitch {
				code &= p.outcode(at(k).pos)
			}
			if code == 0 {
				d.fan(p, o0, o1, at, hz.stitch)
			}
		}
		switch {
		case i >= ic[0] && i < ic[1] && j == ir[0]-1: // north of the map: its inner line is row 0
			stitch(vertex(i, j), vertex(i+1, j), edgeNorth, o.Cols[i], o.Cols[i+1], func(k int) surfaceVertex { return sample(k, 0) })
			return
		case i >= ic[0] && i < ic[1] && j == ir[1]:
			stitch(vertex(i, j+1), vertex(i+1, j+1), edgeSouth, o.Cols[i], o.Cols[i+1], func(k int) surfaceVertex { return sample(k, m.Height-1) })
			return
		case j >= ir[0] && j < ir[1] && i == ic[0]-1:
			stitch(vertex(i, j), vertex(i, j+1), edgeWest, o.Rows[j], o.Rows[j+1], func(k int) surfaceVertex { return sample(0, k) })
			return
		case j >= ir[0] && j < ir[1] && i == ic[1]:
			stitch(vertex(i+1, j), vertex(i+1, j+1), edgeEast, o.Rows[j], o.Rows[j+1], func(k int) surfaceVertex { return sample(m.Width-1, k) })
			return
		}
		q := [4]surfaceVertex{vertex(i, j), vertex(i+1, j), vertex(i, j+1), vertex(i+1, j+1)}
		// Of the cell's two triangles the one on the eye's side of the
		// diagonal b–c goes second (terrain/mesh lowerFirst).
		c0, c1 := float64(o.Cols[i])*o.CellSize, float64(o.Cols[i+1])*o.CellSize
		r0, r1 := float64(o.Rows[j])*o.CellSize, float64(o.Rows[j+1])*o.CellSize
		if (ex-c1)*(r1-r0)+(ez-r0)*(c1-c0) < 0 {
			d.triangles(p, q, [2][3]int{{1, 2, 3}, {0, 2, 1}})
		} else {
			d.triangles(p, q, [2][3]int{{0, 2, 1}, {1, 2, 3}})
		}
	})
}

// fan appends the cell between the coarse line o0–o1 and the edge
// vertices at(k) for k in ks: the triangle (o0, o1, at(mid)), mid the
// middle one, and a fan of thin triangles from each coarse end to its
// half of the edge.
func (d *drawCall) fan(p *projector, o0, o1 surfaceVertex, at func(k int) surfaceVertex, ks []int) {
	mid := ks[len(ks)/2]
	d.triangle(p, [3]surfaceVertex{o0, o1, at(mid)})
	prev := at(ks[0])
	for _, k := range ks[1:] {
		next := at(k)
		apex := o0
		if k > mid {
			apex = o1
		}
		d.triangle(p, [3]surfaceVertex{apex, prev, next})
		prev = next
	}
}

// outcode returns the frustum planes (bit 0 left, 1 right, 2 bottom,
// 3 top, 4 near) the world point v lies outside of.
func (p *projector) outcode(v mgl32.Vec3) uint8 {
	m := &p.vp
	v = p.bend(v)
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
