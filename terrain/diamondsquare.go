package terrain

import "context"

// DiamondSquare makes a p.Size² map (p.Size = 2^N+1) by the diamond-square
// algorithm (course notes 000 section 3; papers 001 and 003). At each level
// n = 1..N, with d = d_n = 2^(N−n):
//
//   - the diamond step sets the centre of every square of side 2d from its
//     four corners, h(v_m) = (h(v₁) + h(v₂) + h(v₃) + h(v₄))/4 + z (notes eq. 9);
//   - then the square step sets the midpoint of every edge from the diamond
//     around it — the edge's two ends and the centres of the squares on either
//     side — or from the three of them that exist on the map's border.
//
// z = A·R·2^(−nH) with R uniform in [−1, 1]. Unlike midpoint displacement,
// every vertex but those on the border averages four parents in two
// directions, which softens the axis-aligned creases (notes section 3).
//
// The heights are raw (the corners' level plus displacements of up to about
// 2A); CellSize and VerticalScale come from p.
func DiamondSquare(ctx context.Context, p Params, progress Progress) (*Heightmap, error) {
	return subdivide(ctx, p, progress, (*subdivision).diamondSquare)
}

// diamondSquare runs every level of DiamondSquare on s.
func (s *subdivision) diamondSquare(ctx context.Context) error {
	total, known := float64(s.size*s.size), 4.0
	for n := 1; n <= s.N; n++ {
		k := float64(int(1) << (n - 1)) // squares per side before the split
		diamonds, squares := k*k, 2*k*(k+1)
		if err := s.diamondStep(ctx, n, known/total, diamonds/total); err != nil {
			return err
		}
		known += diamonds
		if err := s.squareStep(ctx, n, known/total, squares/total); err != nil {
			return err
		}
		known += squares
	}
	return nil
}

// diamondStep sets the centre (x, y) = (d+2di, d+2dj) of every square of
// level n from the square's four corners (x±d, y±d). Progress goes from base
// to base+span.
func (s *subdivision) diamondStep(ctx context.Context, n int, base, span float64) error {
	d, scaled := s.half(n), s.amp[n]*0x1p-52
	return forRows(ctx, (s.size-1)/(2*d), s.reporter(), base, span, func(r int) {
		y := d + 2*d*r
		k := rowKey(s.key, y)
		south, row, north := s.row(y-d), s.row(y), s.row(y+d)
		for x := d; x < s.size; x += 2 * d {
			row[x] = height(mean4(south[x-d], south[x+d], north[x-d], north[x+d]), scaled, k, x)
		}
		s.count(y, d, s.size, 2*d)
	})
}

// squareStep sets every edge midpoint of level n — on rows y = 0, 2d, …
// the points x = d, 3d, …; on rows y = d, 3d, … the points x = 0, 2d, … —
// from its neighbours (x, y±d) and (x±d, y), which diamondStep(n) and the
// levels before have set. A border point has three. Progress goes from base
// to base+span.
func (s *subdivision) squareStep(ctx context.Context, n int, base, span float64) error {
	d, scaled := s.half(n), s.amp[n]*0x1p-52
	last := s.size - 1
	return forRows(ctx, last/d+1, s.reporter(), base, span, func(r int) {
		y := r * d
		k := rowKey(s.key, y)
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
		south, north := s.row(y-d), s.row(y+d)
		start := d
		if r%2 == 1 {
			row[0] = height(mean3(south[0], north[0], row[d]), scaled, k, 0)
			row[last] = height(mean3(south[last], north[last], row[last-d]), scaled, k, last)
			s.count(y, 0, s.size, last)
			start = 2 * d
		}
		for x := start; x < last; x += 2 * d {
			row[x] = height(mean4(south[x], north[x], row[x-d], row[x+d]), scaled, k, x)
		}
		s.count(y, start, last, 2*d)
	})
}

// mean3 is the mean of a border point's three parents.
func mean3(a, b, c float32) float64 { return (float64(a) + float64(b) + float64(c)) / 3 }
