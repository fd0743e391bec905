package mesh

// DrawnHeight is the world height at world (x, z) of the surface that
// draws show, for a map of cell size cellSize: the plane of the triangle
// over (x, z) in the chunk that holds it, at that chunk's step, with its
// borders as stitched onto coarser neighbours. A walker held above it
// stands on what is drawn, where the finest mesh (or the bilinear patch)
// can lie metres above or below a coarse chunk's triangle. The Edge
// vertices cut a border triangle into pieces in its own plane, so the
// plane of the cell's triangle is the height there too. It reports false
// where no chunk of draws holds (x, z) (culled, or off the map).
func DrawnHeight(draws []ChunkDraw, cellSize, x, z float64) (float64, bool) {
	fx, fz := x/cellSize, z/cellSize
	for k := range draws {
		d := &draws[k]
		if fx < float64(d.Col0) || fx > float64(d.Col1) || fz < float64(d.Row0) || fz > float64(d.Row1) || d.Cols < 2 || d.Rows < 2 {
			continue
		}
		s := d.Step
		i := min(int((fx-float64(d.Col0))/float64(s)), d.Cols-2)
		j := min(int((fz-float64(d.Row0))/float64(s)), d.Rows-2)
		c0, r0 := d.Col0+i*s, d.Row0+j*s
		c1, r1 := min(c0+s, d.Col1), min(r0+s, d.Row1)
		u := (fx - float64(c0)) / float64(c1-c0)
		v := (fz - float64(r0)) / float64(r1-r0)
		a := j*d.Cols + i
		ha, hb := float64(d.Heights[a]), float64(d.Heights[a+1])
		hc, hd := float64(d.Heights[a+d.Cols]), float64(d.Heights[a+d.Cols+1])
		// The cell is split along b–c (ChunkDraw.Tris): (a, c, b) and (b, c, d).
		if u+v <= 1 {
			return ha + u*(hb-ha) + v*(hc-ha), true
		}
		return hd + (1-u)*(hc-hd) + (1-v)*(hb-hd), true
	}
	return 0, false
}
