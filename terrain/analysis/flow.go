package analysis

import (
	"container/heap"
	"cordillera/terrain"
	"errors"
	"fmt"
	"math"
)

// Flow routing over a heightmap: where water on each cell goes (D8, the
// steepest of the eight neighbours), how much ground drains through each
// cell, and the longest flow path above it. The geomorphometric statistics
// (geomorph.go) read rivers from it.

// Flow is the D8 flow routing of a heightmap, in metres.
type Flow struct {
	Width, Height int
	CellSize      float64 // metres between neighbouring samples

	// Elevation is each cell's height in metres (sample × VerticalScale);
	// Filled the same after depression filling, never lower, and with a
	// strictly lower neighbour on every cell that is not an outlet.
	Elevation, Filled []float64
	// Receiver is the cell each cell drains to, −1 for an outlet (a cell
	// on the map's edge with no lower neighbour: water leaves the map).
	Receiver []int32
	// Area is the ground draining through each cell, itself included, in
	// m² (the D8 flow accumulation in cells × CellSize²).
	Area []float64
	// Length is the longest flow path from a divide down to each cell, in
	// metres: 0 on a cell nothing drains into.
	Length []float64
	// Order lists the cells upstream first: every cell comes before its
	// receiver.
	Order []int32
}

// d8 are the eight neighbours' offsets (column, row).
var d8 = [8][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}

// RouteFlow fills the map's depressions and routes its flow by D8.
//
// Depressions: a real DEM has pits (noise, bridges, lakes) and flats where
// steepest descent has nowhere to go, and a generated map has them too.
// They are filled by Priority-Flood+ε (Barnes, Lehman & Mulla 2014,
// "Priority-Flood: An optimal depression-filling and watershed-labeling
// algorithm", algorithm 3): the edge cells are the outlets; cells are taken
// lowest first from a priority queue, and a neighbour no higher than the
// cell it is reached from is raised to the next representable number above
// it (the ε) and taken next from a plain queue. So a filled pit or flat
// becomes a surface that falls, by ε a cell, towards its spill point, and
// every cell but an outlet has a strictly lower neighbour: flow cannot stop
// or loop.
//
// Routing: each cell drains to the neighbour with the greatest drop per
// distance (1 or √2 cells) on the filled surface (O'Callaghan & Mark 1984);
// an edge cell with no lower neighbour is an outlet. Area and Length are
// then passed down in topological order.
func RouteFlow(m *terrain.Heightmap) (*Flow, error) {
	w, h := m.Width, m.Height
	if w < 3 || h < 3 || len(m.Samples) != w*h {
		return nil, fmt.Errorf("flow routing: a %d×%d map is too small; it needs at least 3×3 samples", w, h)
	}
	if !(m.CellSize > 0) || math.IsInf(m.CellSize, 0) {
		return nil, fmt.Errorf("flow routing: cell size %g m: want a positive number of metres", m.CellSize)
	}
	n := w * h
	f := &Flow{Width: w, Height: h, CellSize: m.CellSize,
		Elevation: make([]float64, n), Filled: make([]float64, n),
		Receiver: make([]int32, n), Area: make([]float64, n), Length: make([]float64, n)}
	for i, v := range m.Samples {
		z := float64(v) * m.VerticalScale
		if math.IsNaN(z) || math.IsInf(z, 0) {
			return nil, errors.New("flow routing: the map has heights that are not finite numbers")
		}
		f.Elevation[i] = z
	}
	copy(f.Filled, f.Elevation)
	f.fill()
	f.route()
	f.accumulate()
	return f, nil
}

// fill is Priority-Flood+ε on Filled.
func (f *Flow) fill() {
	w, h := f.Width, f.Height
	z := f.Filled
	closed := make([]bool, w*h)
	open := &cellQueue{z: z}
	for i := range w * h {
		col, row := i%w, i/w
		if col == 0 || row == 0 || col == w-1 || row == h-1 {
			closed[i] = true
			open.cells = append(open.cells, int32(i))
		}
	}
	heap.Init(open)
	var pit []int32 // FIFO of raised cells
	for open.Len() > 0 || len(pit) > 0 {
		var c int32
		if len(pit) > 0 {
			c, pit = pit[0], pit[1:]
		} else {
			c = heap.Pop(open).(int32)
		}
		col, row := int(c)%w, int(c)/w
		for _, d := range d8 {
			nc, nr := col+d[0], row+d[1]
			if nc < 0 || nr < 0 || nc >= w || nr >= h {
				continue
			}
			nb := int32(nr*w + nc)
			if closed[nb] {
				continue
			}
			closed[nb] = true
			if raised := math.Nextafter(z[c], math.Inf(1)); z[nb] <= raised {
				z[nb] = raised
				pit = append(pit, nb)
			} else {
				heap.Push(open, nb)
			}
		}
	}
}

// route sets each cell's receiver: the steepest drop on the filled surface.
func (f *Flow) route() {
	w, h := f.Width, f.Height
	z := f.Filled
	for i := range w * h {
		col, row := i%w, i/w
		best, steepest := int32(-1), 0.0
		for _, d := range d8 {
			nc, nr := col+d[0], row+d[1]
			if nc < 0 || nr < 0 || nc >= w || nr >= h {
				continue
			}
			nb := nr*w + nc
			// The drop per distance, times √2: multiplying the cardinal
			// drops rather than dividing the diagonal ones keeps an ε drop
			// near height 0 from rounding to nothing.
			drop := z[i] - z[nb]
			if d[0] == 0 || d[1] == 0 {
				drop *= math.Sqrt2
			}
			if drop > steepest {
				best, steepest = int32(nb), drop
			}
		}
		f.Receiver[i] = best
	}
}

// accumulate orders the cells upstream first (Kahn's algorithm on the
// receiver tree) and passes each cell's area and longest path down to its
// receiver.
func (f *Flow) accumulate() {
	n := f.Width * f.Height
	donors := make([]int32, n)
	for _, r := range f.Receiver {
		if r >= 0 {
			donors[r]++
		}
	}
	f.Order = make([]int32, 0, n)
	for i, d := range donors {
		if d == 0 {
			f.Order = append(f.Order, int32(i))
		}
	}
	cell := f.CellSize * f.CellSize
	for k := 0; k < len(f.Order); k++ {
		i := f.Order[k]
		f.Area[i] += cell
		r := f.Receiver[i]
		if r < 0 {
			continue
		}
		f.Area[r] += f.Area[i]
		f.Length[r] = max(f.Length[r], f.Length[i]+f.linkLength(i))
		if donors[r]--; donors[r] == 0 {
			f.Order = append(f.Order, r)
		}
	}
}

// linkLength is the distance in metres from cell i to its receiver: one
// cell, or √2 cells on a diagonal; 0 for an outlet.
func (f *Flow) linkLength(i int32) float64 {
	r := f.Receiver[i]
	if r < 0 {
		return 0
	}
	if int(i)%f.Width != int(r)%f.Width && int(i)/f.Width != int(r)/f.Width {
		return math.Sqrt2 * f.CellSize
	}
	return f.CellSize
}

// cellQueue is a min-heap of cells by height.
type cellQueue struct {
	z     []float64
	cells []int32
}

func (q *cellQueue) Len() int           { return len(q.cells) }
func (q *cellQueue) Less(a, b int) bool { return q.z[q.cells[a]] < q.z[q.cells[b]] }
func (q *cellQueue) Swap(a, b int)      { q.cells[a], q.cells[b] = q.cells[b], q.cells[a] }
func (q *cellQueue) Push(x any)         { q.cells = append(q.cells, x.(int32)) }
func (q *cellQueue) Pop() any {
	last := q.cells[len(q.cells)-1]
	q.cells = q.cells[:len(q.cells)-1]
	return last
}
