package terrain

// WithSize returns p at another map size with the same world extent: the
// cell size scales so that (Size−1)·CellSize stays, and the map gains or
// loses resolution, not area. The explorer's size list uses it; the cell
// size itself stays the user's to change.
func (p Params) WithSize(size int) Params {
	if size > 1 && p.Size > 1 && size != p.Size {
		p.CellSize *= float64(p.Size-1) / float64(size-1)
	}
	p.Size = size
	return p
}
