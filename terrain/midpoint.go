package terrain

import (
	"context"
	"cordillera/internal/parallel"
	"sync"
	"sync/atomic"
)

// MidpointDisplacement makes a p.Size² map (p.Size = 2^N+1) by midpoint
// displacement, iteratively (course notes 000, listing 2). At each level
// n = 1..N every square of side 2·d_n is split in four: first the midpoints
// of all edges,
//
//	h(v) = (h(v₁) + h(v₂))/2 + z                      (notes eq. 7)
//
// then the centres from those four new edge midpoints,
//
//	h(v_m) = (h(v_n) + h(v_s) + h(v_e) + h(v_w))/4 + z   (notes eq. 8)
//
// with z = A·R·2^(−nH), R uniform in [−1, 1]. Because every edge midpoint of
// a level is done before any centre, a vertex shared by two squares is
// computed once, and each centre sees its edges' final heights. (Listing 2
// counts its loop from n = 0, which would give the first level the corners'
// full amplitude A; the text and listing 3 start at n = 1, as here.)
//
// The heights are raw, for the caller to normalise: the corners plus
// displacements that sum to at most A·Σ2^(−nH). CellSize and VerticalScale
// come from p.
func MidpointDisplacement(ctx context.Context, p Params, progress Progress) (*Heightmap, error) {
	return subdivide(ctx, p, progress, (*subdivision).midpoint)
}

// midpoint runs every level of MidpointDisplacement on s.
func (s *subdivision) midpoint(ctx context.Context) error {
	total, known := float64(s.size*s.size), 4.0
	for n := 1; n <= s.N; n++ {
		k := float64(int(1) << (n - 1)) // squares per side before the split
		edges, centres := 2*k*(k+1), k*k
		if err := s.midpointEdges(ctx, n, known/total, edges/total); err != nil {
			return err
		}
		known += edges
		if err := s.midpointCentres(ctx, n, known/total, centres/total); err != nil {
			return err
		}
		known += centres
	}
	return nil
}

// midpointEdges sets the midpoint of every edge of level n's squares (the
// first two loops of listing 2): on rows y = 0, 2d, 4d, … the horizontal
// edges' midpoints x = d, 3d, …, and on rows y = d, 3d, … the vertical edges'
// midpoints x = 0, 2d, …, 2^N, where d = d_n. Progress goes from base to
// base+span.
func (s *subdivision) midpointEdges(ctx context.Context, n int, base, span float64) error {
	d, scaled := s.half(n), s.amp[n]*0x1p-52
	return parallel.Rows(ctx, (s.size-1)/d+1, s.reporter(), base, span, func(r int) {
		y := r * d
		k := rowKey(s.key, y)
		row := s.row(y)
		if r%2 == 0 {
			for x := d; x < s.size; x += 2 * d {
				row[x] = height(mean2(row[x-d], row[x+d]), scaled, k, x)
			}
			s.count(y, d, s.size, 2*d)
			return
		}
		south, north := s.row(y-d), s.row(y+d)
		for x := 0; x < s.size; x += 2 * d {
			row[x] = height(mean2(south[x], north[x]), scaled, k, x)
		}
		s.count(y, 0, s.size, 2*d)
	})
}

// midpointCentres sets the centre of every square of level n (the third loop
// of listing 2) from the four edge midpoints around it, which
// midpointEdges(n) must have set. Progress goes from base to base+span.
func (s *subdivision) midpointCentres(ctx context.Context, n int, base, span float64) error {
	d, scaled := s.half(n), s.amp[n]*0x1p-52
	return parallel.Rows(ctx, (s.size-1)/(2*d), s.reporter(), base, span, func(r int) {
		y := d + 2*d*r
		k := rowKey(s.key, y)
		south, row, north := s.row(y-d), s.row(y), s.row(y+d)
		for x := d; x < s.size; x += 2 * d {
			row[x] = height(mean4(south[x], north[x], row[x-d], row[x+d]), scaled, k, x)
		}
		s.count(y, d, s.size, 2*d)
	})
}

// Granularity of the recursive form, in square sides: a square this large
// or larger checks for cancellation before it starts (each is at least 1024
// samples, a few microseconds), and one this large or larger runs its SE and
// NW quarters on two goroutines.
const (
	recursiveCheckSide = 32
	recursiveSplitSide = 256
)

// MidpointDisplacementRecursive is MidpointDisplacement in the recursive form
// of listing 3, and returns the same map bit for bit. The south and west
// borders of the map are made first by the 1-D midpoint algorithm; then each
// square computes only its north and east edge midpoints and its centre, and
// recurses into its quarters in the order SW, SE, NW, NE, so that every
// quarter finds its south and west edges done. A vertex shared by two squares
// therefore belongs to exactly one of them — the one below or to its left —
// and is computed once.
//
// The SE and NW quarters depend only on SW, so large squares run them
// concurrently.
func MidpointDisplacementRecursive(ctx context.Context, p Params, progress Progress) (*Heightmap, error) {
	return subdivide(ctx, p, progress, (*subdivision).midpointRecursive)
}

// midpointRecursive runs MidpointDisplacementRecursive on s.
func (s *subdivision) midpointRecursive(ctx context.Context) error {
	side := s.size - 1
	s.midpointLine(0, 0, 1, 0, side, 1) // south border, row 0
	s.midpointLine(0, 0, 0, 1, side, 1) // west border, column 0
	r := &recursion{ctx: ctx, total: float64(side * side), reportSide: min(64, side)}
	s.midpointSquare(r, 0, 0, side, 1)
	return ctx.Err()
}

// recursion is the state MidpointDisplacementRecursive's squares share.
type recursion struct {
	ctx        context.Context
	area       atomic.Int64 // area of the squares finished so far, for progress
	total      float64      // area of the whole map
	reportSide int          // squares of this side report progress when done
}

// midpointLine sets the midpoints of the segment from (x0, y0), of length
// side along (dx, dy), and recursively of its halves: the 1-D midpoint
// algorithm of listing 3's terreno2D, at level n for the first midpoint.
func (s *subdivision) midpointLine(x0, y0, dx, dy, side, n int) {
	d := side / 2
	if d == 0 {
		return
	}
	s.displace(x0+d*dx, y0+d*dy, n, mean2(s.at(x0, y0), s.at(x0+side*dx, y0+side*dy)))
	s.midpointLine(x0, y0, dx, dy, d, n+1)
	s.midpointLine(x0+d*dx, y0+d*dy, dx, dy, d, n+1)
}

// midpointSquare refines the square with south-west corner (x0, y0) and the
// given side, at level n for its new vertices (listing 3's terreno3D_rec). Its
// corners and its south and west edges, at every level, must be done.
func (s *subdivision) midpointSquare(r *recursion, x0, y0, side, n int) {
	if side >= recursiveCheckSide && r.ctx.Err() != nil {
		return
	}
	d := side / 2
	x1, y1 := x0+side, y0+side
	s.displace(x0+d, y1, n, mean2(s.at(x0, y1), s.at(x1, y1))) // north
	s.displace(x1, y0+d, n, mean2(s.at(x1, y0), s.at(x1, y1))) // east
	xm, ym := x0+d, y0+d
	s.displace(xm, ym, n, mean4(s.at(xm, ym-d), s.at(xm, ym+d), s.at(xm-d, ym), s.at(xm+d, ym))) // centre
	if d > 1 {
		if side >= recursiveSplitSide {
			s.midpointSquare(r, x0, y0, d, n+1) // SW
			var wg sync.WaitGroup
			wg.Go(func() { s.midpointSquare(r, xm, y0, d, n+1) }) // SE: needs SW's east edge
			s.midpointSquare(r, x0, ym, d, n+1)                   // NW: needs SW's north edge
			wg.Wait()
			s.midpointSquare(r, xm, ym, d, n+1) // NE: needs SE's north and NW's east edges
		} else {
			s.midpointSquare(r, x0, y0, d, n+1)
			s.midpointSquare(r, xm, y0, d, n+1)
			s.midpointSquare(r, x0, ym, d, n+1)
			s.midpointSquare(r, xm, ym, d, n+1)
		}
	}
	if side == r.reportSide && s.progress != nil {
		s.report(float64(r.area.Add(int64(side*side))) / r.total)
	}
}
