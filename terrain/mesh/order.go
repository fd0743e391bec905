package mesh

// Back-to-front order for drawing a heightfield without a depth buffer
// (DESIGN.md, "Rendering a 3D heightfield on Ebiten").
//
// A point Q on the ray from the eye E to a point P lies, seen from above,
// on the segment from E to P. That segment runs monotonically along each
// grid axis, so every cell it crosses lies, on each axis, between P's cell
// and the eye's cell. Hence an order that draws, on each axis, the cells
// from the far ends towards the eye's cell (rows outside, columns inside)
// draws every cell before all the cells that can hide part of it. It is
// the four quadrants around the eye's cell, each row by row from the
// farthest, plus the eye's row, column and cell last; rows and columns may
// be spaced unevenly, so it orders chunks, and then the coarse cells
// inside each chunk, with the same function.

// backToFront calls visit(i) for every i in [0, n), in drawing order along
// one axis when the eye is in cell cam: first 0, 1, …, cam−1 (the cells
// before the eye, farthest first), then n−1, n−2, …, cam+1, then cam.
// cam < 0 means the eye is before cell 0 and cam ≥ n after cell n−1.
func backToFront(n, cam int, visit func(i int)) {
	cam = min(max(cam, -1), n)
	for i := 0; i < cam; i++ {
		visit(i)
	}
	for i := n - 1; i > cam; i-- {
		visit(i)
	}
	if cam >= 0 && cam < n {
		visit(cam)
	}
}

// cellOf returns the index of the cell holding coordinate x on an axis of n
// cells with boundaries origin, origin+step, …, origin+(n−1)·step, last
// (the last cell may be shorter): −1 when x < origin, n when x ≥ last.
// Which of two cells a boundary point belongs to does not matter for the
// order.
func cellOf(x, origin, step float64, last float64, n int) int {
	switch {
	case !(x >= origin): // also NaN
		return -1
	case x >= last:
		return n
	}
	return min(int((x-origin)/step), n-1)
}

// lowerFirst reports whether, of the two triangles of the cell with corner
// columns c0 < c1 and rows r0 < r1, the lower one (b, c, d) must be drawn
// before the upper one (a, c, b) for an eye above sample position (ex, ez).
// The diagonal b–c runs from (c1, r0) to (c0, r1) (thesis listing 5.1, as in
// Normals); the triangle on the eye's side of its line can hide the other,
// so it goes second. f below is negative on a's side and positive on d's.
func lowerFirst(ex, ez, c0, r0, c1, r1 float64) bool {
	f := (ex-c1)*(r1-r0) + (ez-r0)*(c1-c0)
	return f < 0
}
