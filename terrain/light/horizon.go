// Package light computes how a heightfield is lit: where the sun's light
// is blocked by the terrain itself (heightfield shadows) and how much of
// the sky each sample sees (horizon-based ambient occlusion). Both come
// from horizon maps: for every sample, the elevation of the horizon seen
// looking along one azimuth.
//
// A horizon map along one azimuth costs one sweep, O(n) in the samples.
// The map is cut into parallel lines along the azimuth; each line is
// walked from its far end (the end being looked at) towards its near end
// while the upper convex hull of the profile already walked is kept on a
// stack. The horizon of the next point is its tangent to that hull, and
// every point enters and leaves the stack once (Timonen and Westerholm,
// "Scalable height field self-shadowing", Eurographics 2010, after Stewart
// 1998). Lines do not pass through every sample for a general azimuth:
// they are one row apart, heights along them are interpolated between the
// two rows they cross, and a sample takes the linear blend of the two
// lines beside it.
//
// Everything here is plain Go: the explorer uploads the results as a
// texture, but light knows nothing of graphics.
package light

import (
	"context"
	"math"
	"sync"

	"cordillera/internal/parallel"
	"cordillera/terrain"
)

// NoHorizon is the horizon tangent of a sample with nothing ahead of it
// (the map's edge, or ground that falls away): far below any sun.
const NoHorizon = -1.0

// Workspace holds the scratch memory of horizon sweeps, so that repeated
// sweeps (a sun being dragged, the directions of the occlusion) do not
// allocate and page-fault anew. The zero value is ready; it is not safe
// for concurrent use.
type Workspace struct {
	grid  []float32 // heights in world units, turned so the azimuth looks along +x
	lines []float32 // per line point: the horizon point's distance ahead (0: none) and height
}

// Horizon writes to out (len = samples of m) the tangent of the horizon's
// elevation angle seen from every sample looking along azimuth (radians,
// measured like the camera's yaw: 0 looks along +x, π/2 along +z):
//
//	tan θ(p) = max over q ahead of p of (h(q) − h(p)) / |q − p|
//
// in world units (x = col·CellSize, z = row·CellSize, y = h·VerticalScale),
// and NoHorizon where that maximum is lower or nothing lies ahead. ws may
// be nil.
func Horizon(ctx context.Context, m *terrain.Heightmap, azimuth float64, out []float32, ws *Workspace) error {
	if ws == nil {
		ws = &Workspace{}
	}
	t := newTurn(m, azimuth)
	ws.grid = grow(ws.grid, t.w*t.h)
	vs := float32(m.VerticalScale)
	for r := 0; r < m.Height; r++ {
		for c := 0; c < m.Width; c++ {
			ws.grid[t.index(c, r)] = m.Samples[r*m.Width+c] * vs
		}
	}
	return t.sweep(ctx, ws, float32(m.CellSize), func(c, r int, v float32) { out[r*m.Width+c] = v })
}

// turn maps the map's grid onto a working grid in which the azimuth looks
// along +x with a z step of s per x step, |s| ≤ 1: a transpose and a flip
// of x at most.
type turn struct {
	mw, mh    int // the map's size
	w, h      int // the working grid's size
	transpose bool
	flip      bool    // working x runs against the map's
	s         float64 // z step per x step
}

func newTurn(m *terrain.Heightmap, azimuth float64) turn {
	dx, dz := math.Cos(azimuth), math.Sin(azimuth)
	t := turn{mw: m.Width, mh: m.Height, w: m.Width, h: m.Height}
	if math.Abs(dz) > math.Abs(dx) {
		t.transpose, dx, dz = true, dz, dx
		t.w, t.h = m.Height, m.Width
	}
	if dx < 0 {
		t.flip = true
	}
	t.s = dz / math.Abs(dx)
	return t
}

// index is the working grid index of map sample (c, r).
func (t *turn) index(c, r int) int {
	x, z := c, r
	if t.transpose {
		x, z = r, c
	}
	if t.flip {
		x = t.w - 1 - x
	}
	return z*t.w + x
}

// mapCoords is the map sample of working grid point (x, z).
func (t *turn) mapCoords(x, z int) (c, r int) {
	if t.flip {
		x = t.w - 1 - x
	}
	if t.transpose {
		return z, x
	}
	return x, z
}

// hullPool recycles the per-line convex hull stacks.
var hullPool = sync.Pool{New: func() any { return new(hull) }}

type hull struct{ t, h []float32 }

// sweep computes the horizon of every working grid point looking along +x
// (z rising by s per step) and hands each to set in map coordinates.
func (t *turn) sweep(ctx context.Context, ws *Workspace, cell float32, set func(c, r int, v float32)) error {
	w, h, s := t.w, t.h, t.s
	// Line j passes through (x, j + x·s). Lines one row apart cover the
	// grid; keep every line that comes within a row of it.
	span := float64(w-1) * math.Abs(s)
	j0 := -int(math.Ceil(span)) - 1
	nLines := h + 2*int(math.Ceil(span)) + 3
	ws.lines = grow(ws.lines, 2*nLines*w)
	step := cell * float32(math.Sqrt(1+s*s)) // world distance per x step along a line
	grid := ws.grid
	err := parallel.Rows(ctx, nLines, nil, 0, 0, func(li int) {
		j := float64(j0 + li)
		line := ws.lines[2*li*w : 2*(li+1)*w]
		hl := hullPool.Get().(*hull)
		hl.t, hl.h = hl.t[:0], hl.h[:0]
		for x := w - 1; x >= 0; x-- {
			z := j + float64(x)*s
			const eps = 1e-6 // lines along an axis stay on their row
			if z < -eps || z > float64(h-1)+eps {
				line[2*x] = 0
				continue
			}
			// Height along the line: linear between the rows it crosses.
			zf := math.Floor(z)
			f := float32(z - zf)
			r0, r1 := max(int(zf), 0), min(int(zf)+1, h-1)
			ph := grid[r0*w+x]*(1-f) + grid[r1*w+x]*f
			pt := float32(x) * step
			// Pop hull points that the tangent from p passes above.
			n := len(hl.t)
			for n >= 2 && (hl.h[n-1]-ph)*(hl.t[n-2]-pt) <= (hl.h[n-2]-ph)*(hl.t[n-1]-pt) {
				n--
			}
			hl.t, hl.h = hl.t[:n], hl.h[:n]
			line[2*x] = 0
			if n > 0 {
				line[2*x], line[2*x+1] = hl.t[n-1]-pt, hl.h[n-1]
			}
			hl.t, hl.h = append(hl.t, pt), append(hl.h, ph)
		}
		hullPool.Put(hl)
	})
	if err != nil {
		return err
	}
	// Each grid point lies between line ⌊z − x·s⌋, which passes f rows
	// below it, and the next, 1 − f rows above. Its horizon point is the
	// blend of theirs (distance ahead and height), seen from the point's
	// own height: the lines' own heights differ from it on steep ground,
	// what they see far ahead hardly does. A line that sees nothing (or
	// lies outside the map) leaves the other to decide.
	return parallel.Rows(ctx, h, nil, 0, 0, func(z int) {
		for x := 0; x < w; x++ {
			u := float64(z) - float64(x)*s
			uf := math.Floor(u)
			f := float32(u - uf)
			li := int(uf) - j0
			a := ws.lines[2*(li*w+x) : 2*(li*w+x)+2]
			b := ws.lines[2*((li+1)*w+x) : 2*((li+1)*w+x)+2]
			var d, q float32
			switch {
			case a[0] > 0 && b[0] > 0:
				d, q = a[0]+(b[0]-a[0])*f, a[1]+(b[1]-a[1])*f
			case a[0] > 0 && f < 1:
				d, q = a[0], a[1]
			case b[0] > 0 && f > 0:
				d, q = b[0], b[1]
			}
			tan := float32(NoHorizon)
			if d > 0 {
				tan = max((q-grid[z*w+x])/d, NoHorizon)
			}
			c, r := t.mapCoords(x, z)
			set(c, r, tan)
		}
	})
}

func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}
