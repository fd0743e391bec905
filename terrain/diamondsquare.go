package terrain

import (
	"context"
	"cordillera/internal/parallel"
)

// DiamondSquare makes a p.Size² map (p.Size = 2^N+1) by the diamond-square
// algorithm (course notes 000 section 3; papers 001 and 003). At each level
// n = 1..N, with d = d_n = 2^(N−n):
//
//   - the diamond step sets the centre of every square of side 2d from its
//     four corners, h(v_m) = (h(v₁) + h(v₂) + h(v₃) + h(v₄))/4 + z (notes eq. 9);
//   - the square step sets the midpoint of every edge from the diamond around
//     it — the edge's two ends and the centres of the squares on either side —
//     or from the three of them that exist on the map's border.
//
// z = A·R·2^(−nH) with R uniform in [−1, 1]. Unlike midpoint displacement,
// every vertex but those on the border averages four parents in two
// directions, which softens the axis-aligned creases (notes section 3).
//
// The heights are raw, for the caller to normalise: the corners plus
// displacements that sum to at most A·Σ2^(−nH). CellSize and VerticalScale
// come from p.
func DiamondSquare(ctx context.Context, p Params, progress Progress) (*Heightmap, error) {
	return subdivide(ctx, p, progress, (*subdivision).diamondSquare)
}

// diamondSquare runs every level of DiamondSquare on s.
func (s *subdivision) diamondSquare(ctx context.Context) error {
	total, known := float64(s.size*s.size), 4.0
	for n := 1; n <= s.N; n++ {
		k := float64(int(1) << (n - 1)) // squares per side before the split
		added := 3*k*k + 2*k
		if err := s.diamondSquareLevel(ctx, n, known/total, added/total); err != nil {
			return err
		}
		known += added
	}
	return nil
}

// diamondStep is level n's diamond step as one pass over the map, as the
// notes describe it: every centre before any edge midpoint. Progress goes
// from base to base+span.
func (s *subdivision) diamondStep(ctx context.Context, n int, base, span float64) error {
	d := s.half(n)
	return parallel.Rows(ctx, (s.size-1)/(2*d), s.reporter(), base, span, func(j int) {
		s.diamondRow(n, d+2*d*j)
	})
}

// squareStep is level n's square step as one pass over the map; diamondStep(n)
// must be done. Progress goes from base to base+span.
func (s *subdivision) squareStep(ctx context.Context, n int, base, span float64) error {
	d := s.half(n)
	return parallel.Rows(ctx, (s.size-1)/d+1, s.reporter(), base, span, func(r int) {
		s.squareRow(n, r*d)
	})
}

// sweepBand is how many rows of centres diamondSquareLevel gives a worker at
// a time.
const sweepBand = 4

// diamondSquareLevel does level n's diamond and square steps together, in
// one sweep down the rows, instead of diamondStep then squareStep: a row's
// edge midpoints are set as soon as the centres beside them are, while those
// rows are still in the cache. The map is the same bit for bit, since every
// vertex still reads only parents that are final; but a 4097² level reads
// and writes its rows from memory once instead of twice or three times.
//
// The rows of centres y_j = d+2dj, j = 0..K−1, are split into bands of
// sweepBand. Within a band, the row of corners between two of its rows of
// centres can take its edge midpoints at once; the rows of corners at the
// bands' edges, which need a neighbouring band's centres, follow in a
// second, short pass. Progress goes from base to base+span.
func (s *subdivision) diamondSquareLevel(ctx context.Context, n int, base, span float64) error {
	d := s.half(n)
	K := (s.size - 1) / (2 * d)
	bands := (K + sweepBand - 1) / sweepBand
	edgeRows := float64(bands+1) * float64(K) / float64(3*K*K+2*K) // share of the level's vertices on the bands' edges
	err := parallel.Rows(ctx, bands, s.reporter(), base, span*(1-edgeRows), func(b int) {
		j0, j1 := b*sweepBand, min((b+1)*sweepBand, K)
		for j := j0; j < j1; j++ {
			y := d + 2*d*j
			s.diamondRow(n, y)
			s.squareRow(n, y)
			if j > j0 {
				s.squareRow(n, y-d) // the corners' row between centre rows j−1 and j
			}
		}
	})
	if err != nil {
		return err
	}
	return parallel.Rows(ctx, bands+1, s.reporter(), base+span*(1-edgeRows), span*edgeRows, func(b int) {
		s.squareRow(n, 2*d*min(b*sweepBand, K))
	})
}

// diamondRow sets the level-n centres on row y = d, 3d, …: each (x, y),
// x = d, 3d, …, from its square's four corners (x±d, y±d) (notes eq. 9).
func (s *subdivision) diamondRow(n, y int) {
	d, scaled, k := s.half(n), s.amp[n]*0x1p-52, rowKey(s.key, y)
	row := s.row(y)
	south, north := s.row(y - d)[:len(row)], s.row(y + d)[:len(row)]
	for x := d; x+d < len(row); x += 2 * d {
		row[x] = height(mean4(south[x-d], south[x+d], north[x-d], north[x+d]), scaled, k, x)
	}
	s.count(y, d, s.size, 2*d)
}

// squareRow sets the level-n edge midpoints on row y, a multiple of d: each
// from the diamond around it, its neighbours (x, y±d) and (x±d, y). On a row
// of corners (y = 0, 2d, …) they are x = d, 3d, …; on a row of centres
// (y = d, 3d, …), x = 0, 2d, …, 2^N. A point on the map's border has three
// neighbours. The centres of level n around the row must be set.
func (s *subdivision) squareRow(n, y int) {
	d, scaled, k := s.half(n), s.amp[n]*0x1p-52, rowKey(s.key, y)
	last := s.size - 1
	row := s.row(y)
	if y == 0 || y == last {
		inner := s.row(d) // the row next to the border
		if y == last {
			inner = s.row(last - d)
		}
		for x := d; x < last; x += 2 * d {
			row[x] = height(mean3(row[x-d], row[x+d], inner[x]), scaled, k, x)
		}
		s.count(y, d, last, 2*d)
		return
	}
	south, north := s.row(y - d)[:len(row)], s.row(y + d)[:len(row)]
	start := d
	if (y/d)%2 == 1 {
		row[0] = height(mean3(south[0], north[0], row[d]), scaled, k, 0)
		row[last] = height(mean3(south[last], north[last], row[last-d]), scaled, k, last)
		s.count(y, 0, s.size, last)
		start = 2 * d
	}
	for x := start; x+d < len(row); x += 2 * d {
		row[x] = height(mean4(south[x], north[x], row[x-d], row[x+d]), scaled, k, x)
	}
	s.count(y, start, last, 2*d)
}

// mean3 is the mean of a border point's three parents.
func mean3(a, b, c float32) float32 { return (a + b + c) / 3 }
