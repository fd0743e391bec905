package erosion

import (
	"cmp"
	"context"
	"math"
	"slices"

	"cordillera/internal/parallel"
	"cordillera/noise"
)

// network is the drainage of a grid: every sample's receiver (the
// neighbour it drains to by steepest descent, D8; itself on the map's
// edge, the base level), an order in which every receiver comes before its
// donors (the stack of Braun and Willett 2013), and drainage areas in
// cells. The slices are reused from step to step.
type network struct {
	w, h    int
	offset  [8]int     // index offsets of neighbours8
	invDist [8]float64 // 1 / distance in metres to each of neighbours8
	rec     []int32    // receiver of each sample
	stack   []int32    // samples, receivers before donors
	todo    []int32    // buildStack: samples whose donors are still to add
	area    []int32    // drainage area in cells (the sample and all upstream)
	pits    []int      // per row block, samples with no lower neighbour off the edge
	heap    floodHeap  // breach: the flood's front
	way     []int32    // breachPits: the pits, then each one's way out

	// marks holds a byte per sample for the passes that need one and never
	// run at the same time: breach's marks of the ways the flood came, and stream power's donor masks (donorMask). A byte rather
	// than a bool and an int32 keeps the fluvial stage's working set small
	// on large maps; bytes rather than words, so that the cores can each
	// write their own samples' marks.
	marks []uint8

	// wander, if above 0, scales each way's slope by a factor in
	// [1 − wander/2, 1 + wander/2] drawn from a hash of key and the sample
	// (fixed from step to step, and hashed afresh where it is used: a
	// multiply or two is cheaper than 8 bytes a sample read from memory)
	// when choosing the receiver: on the planar slopes plain D8 drains
	// along the grid's axes and diagonals in parallel straight lines, and
	// a little randomness lets the channels wander and join as real ones
	// do. Only lower neighbours are candidates, so the network stays free
	// of cycles.
	wander float64
	key    uint64
}

// newNetwork returns the network of g, its arrays not yet made: each is
// made where it is first needed (receivers, area by accumulate or the
// fluvial stage), so that a breach before them does not hold them.
func newNetwork(g *grid) *network {
	n := &network{w: g.w, h: g.h,
		rec:  make([]int32, len(g.z)),
		pits: make([]int, (g.h+parallel.RowBlock-1)/parallel.RowBlock)}
	for k, nb := range neighbours8 {
		n.offset[k] = nb.dy*g.w + nb.dx
		d := g.cell
		if nb.diagonal {
			d *= math.Sqrt2
		}
		n.invDist[k] = 1 / d
	}
	return n
}

// release drops the network's arrays, so that the collector can take them
// while the network itself is still referenced.
func (n *network) release() {
	n.rec, n.stack, n.todo, n.area, n.marks, n.way = nil, nil, nil, nil, nil, nil
	n.heap = floodHeap{}
}

// route sets the receivers and builds the stack; see receivers.
func (n *network) route(ctx context.Context, z []float64) (pits int, err error) {
	if pits, err = n.receivers(ctx, z); err == nil {
		n.buildStack()
	}
	return pits, err
}

// receivers sets every receiver to the steepest lower neighbour (D8) of
// z, row blocks in parallel; samples on the edge are their own receivers.
// It returns how many inner samples have no lower neighbour (pits, which
// breach removes).
func (n *network) receivers(ctx context.Context, z []float64) (pits int, err error) {
	w, h := n.w, n.h
	if len(n.rec) != w*h {
		n.rec = make([]int32, w*h)
	}
	ia, id := n.invDist[1], n.invDist[0] // to a side, to a diagonal neighbour
	err = parallel.Blocks(ctx, h, func(y0, y1 int) {
		count := 0
		for y := y0; y < y1; y++ {
			row := n.rec[y*w : (y+1)*w]
			if y == 0 || y == h-1 {
				for x := range row {
					row[x] = int32(y*w + x)
				}
				continue
			}
			if n.wander > 0 {
				count += n.wanderingRow(z, y, row)
				continue
			}
			up, mid, down := z[(y-1)*w:y*w], z[y*w:(y+1)*w], z[(y+1)*w:(y+2)*w]
			row[0], row[w-1] = int32(y*w), int32(y*w+w-1)
			for x := 1; x < w-1; x++ {
				// The eight neighbours in the order of neighbours8, unrolled:
				// this is the hottest loop of the fluvial stage.
				zi := mid[x]
				best, r := 0.0, y*w+x
				if s := (zi - up[x-1]) * id; s > best {
					best, r = s, r-w-1
				}
				if s := (zi - up[x]) * ia; s > best {
					best, r = s, y*w+x-w
				}
				if s := (zi - up[x+1]) * id; s > best {
					best, r = s, y*w+x-w+1
				}
				if s := (zi - mid[x-1]) * ia; s > best {
					best, r = s, y*w+x-1
				}
				if s := (zi - mid[x+1]) * ia; s > best {
					best, r = s, y*w+x+1
				}
				if s := (zi - down[x-1]) * id; s > best {
					best, r = s, y*w+x+w-1
				}
				if s := (zi - down[x]) * ia; s > best {
					best, r = s, y*w+x+w
				}
				if s := (zi - down[x+1]) * id; s > best {
					r = y*w + x + w + 1
				}
				if r == y*w+x {
					count++
				}
				row[x] = int32(r)
			}
		}
		n.pits[y0/parallel.RowBlock] = count
	})
	if err != nil {
		return 0, err
	}
	for _, c := range n.pits {
		pits += c
	}
	return pits, nil
}

// setWander turns on wandering receivers with factors drawn from key.
func (n *network) setWander(wander float64, key uint64) {
	n.wander, n.key = wander, key
}

// wanderingRow sets the receivers of inner row y like receivers, with
// each way's slope scaled by the sample's fixed random factors (wander),
// and returns the number of pits.
func (n *network) wanderingRow(z []float64, y int, row []int32) (pits int) {
	w := n.w
	row[0], row[w-1] = int32(y*w), int32(y*w+w-1)
	lo, span := 1-n.wander/2, n.wander/255
	// The factor of way k is lo + span·(byte k of the sample's hash), with
	// the distance folded in: the same unrolled shape as receivers.
	ia, id := n.invDist[1], n.invDist[0]
	la, ld, sa, sd := lo*ia, lo*id, span*ia, span*id
	up, mid, down := z[(y-1)*w:y*w], z[y*w:(y+1)*w], z[(y+1)*w:(y+2)*w]
	for x := 1; x < w-1; x++ {
		b := noise.SplitMix64(n.key ^ uint64(y*w+x))
		zi := mid[x]
		best, r := 0.0, y*w+x
		if d := zi - up[x-1]; d > 0 {
			if s := float64(d * float64(ld+float64(sd*float64(uint8(b))))); s > best {
				best, r = s, y*w+x-w-1
			}
		}
		if d := zi - up[x]; d > 0 {
			if s := float64(d * float64(la+float64(sa*float64(uint8(b>>8))))); s > best {
				best, r = s, y*w+x-w
			}
		}
		if d := zi - up[x+1]; d > 0 {
			if s := float64(d * float64(ld+float64(sd*float64(uint8(b>>16))))); s > best {
				best, r = s, y*w+x-w+1
			}
		}
		if d := zi - mid[x-1]; d > 0 {
			if s := float64(d * float64(la+float64(sa*float64(uint8(b>>24))))); s > best {
				best, r = s, y*w+x-1
			}
		}
		if d := zi - mid[x+1]; d > 0 {
			if s := float64(d * float64(la+float64(sa*float64(uint8(b>>32))))); s > best {
				best, r = s, y*w+x+1
			}
		}
		if d := zi - down[x-1]; d > 0 {
			if s := float64(d * float64(ld+float64(sd*float64(uint8(b>>40))))); s > best {
				best, r = s, y*w+x+w-1
			}
		}
		if d := zi - down[x]; d > 0 {
			if s := float64(d * float64(la+float64(sa*float64(uint8(b>>48))))); s > best {
				best, r = s, y*w+x+w
			}
		}
		if d := zi - down[x+1]; d > 0 {
			if s := float64(d * float64(ld+float64(sd*float64(uint8(b>>56))))); s > best {
				r = y*w + x + w + 1
			}
		}
		if r == y*w+x {
			pits++
		}
		row[x] = int32(r)
	}
	return pits
}

// buildStack orders the samples depth first from the base level (Braun
// and Willett 2013): each outlet (a sample that is its own receiver), then
// all that drain to it, every receiver before its donors. Depth first keeps
// a basin's samples together, which the passes over the stack read faster
// than a breadth-first order. Only outlets can lie on the map's edge.
func (n *network) buildStack() {
	w, h := n.w, n.h
	rec := n.rec
	if cap(n.stack) < len(rec) { // made on first use: the parallel fluvial step needs no stack
		n.stack = make([]int32, 0, len(rec))
	}
	n.stack = n.stack[:0]
	todo := n.todo[:0]
	for i := len(rec) - 1; i >= 0; i-- {
		if rec[i] == int32(i) {
			todo = append(todo, int32(i))
		}
	}
	for len(todo) > 0 {
		c := int(todo[len(todo)-1])
		todo = todo[:len(todo)-1]
		n.stack = append(n.stack, int32(c))
		if rec[c] != int32(c) { // an inner sample: every neighbour is on the map
			for _, off := range n.offset {
				if d := c + off; rec[d] == int32(c) {
					todo = append(todo, int32(d))
				}
			}
			continue
		}
		x, y := c%w, c/w
		for _, nb := range neighbours8 {
			nx, ny := x+nb.dx, y+nb.dy
			if nx < 0 || ny < 0 || nx >= w || ny >= h {
				continue
			}
			if d := ny*w + nx; rec[d] == int32(c) && d != c {
				todo = append(todo, int32(d))
			}
		}
	}
	n.todo = todo
}

// accumulate sums drainage areas in cells from the top of the stack down:
// each sample passes its area on to its receiver.
func (n *network) accumulate() {
	if len(n.area) != len(n.rec) {
		n.area = make([]int32, len(n.rec))
	}
	for i := range n.area {
		n.area[i] = 1
	}
	for k := len(n.stack) - 1; k >= 0; k-- {
		i := n.stack[k]
		if r := n.rec[i]; r != i {
			n.area[r] += n.area[i]
		}
	}
}

// breach makes every sample drain to the map's edge along strictly falling
// heights by digging, not filling: a priority flood grows from the edge in
// order of height, each sample remembering the neighbour it was reached
// from, and a sample with no lower neighbour when the flood takes it (a
// pit, or a sample on a flat) has the way the flood came to it lowered, a
// tiny step a sample below it, back to the first sample already lower
// (Lindsay 2016, complete breaching on a priority flood). The flood enters
// a basin at its spill point and runs down its floor, so the dug way
// follows the valley out over the rim.
//
// Filling instead (Priority-Flood+ε) turns a closed basin into a flat
// whose every sample drains, a float step at a time, towards the sample it
// was flooded from: parallel straight lines from the spill point, which
// stream power cuts into straight grooves over a fifth to a third of a
// noise map. Breaching keeps the basin's own ground, so water in it runs
// down the input's slopes and gathers into the same branching network as
// everywhere else; only the one dug way per pit is new.
//
// It returns the sum of the lowerings in metres.
func (n *network) breach(ctx context.Context, z []float64) (lowered float64, err error) {
	w, h := n.w, n.h
	// The way falls by fall a sample, or by a float step where that is
	// larger: a share of the relief rather than float steps alone, which
	// near zero are subnormal and would not scale with the map's heights,
	// so that the same map at another scale is dug alike.
	lo, hi := minMax(z)
	fall := (hi - lo) * 0x1p-40
	// from holds, per sample, 0 before the flood reaches it, 1 + k where it
	// was reached from its neighbours8[k] way back (the sample at
	// i + offset[k]), and edgeMark on the map's edge.
	from := n.resetMarks(len(z))
	n.heap.reset(len(z))
	edge := func(i int) {
		if from[i] == 0 { // a map one sample wide or high meets itself
			from[i] = edgeMark
			n.heap.push(int32(i), z[i])
		}
	}
	for x := 0; x < w; x++ {
		edge(x)
		edge((h-1)*w + x)
	}
	for y := 1; y < h-1; y++ {
		edge(y * w)
		edge(y*w + w - 1)
	}
	for count := 0; n.heap.len() > 0; count++ {
		if count%(1<<16) == 0 && ctx.Err() != nil {
			return lowered, ctx.Err()
		}
		i, _ := n.heap.pop()
		c := int(i)
		x, y := c%w, c/w
		inner := from[c] != edgeMark
		lower := !inner
		for k, nb := range neighbours8 {
			nx, ny := x+nb.dx, y+nb.dy
			if nx < 0 || ny < 0 || nx >= w || ny >= h {
				continue
			}
			d := ny*w + nx
			if z[d] < z[c] {
				lower = true
			}
			if from[d] == 0 {
				from[d] = uint8(7-k) + 1 // neighbours8[7-k] is the way back
				n.heap.push(int32(d), z[d])
			}
		}
		if lower {
			continue
		}
		// A pit: dig the way back until it falls below it. Every sample
		// on the way was taken earlier and drains already, so the way
		// ends on the map's edge or on ground below the pit.
		level := z[c]
		for p := c; from[p] != edgeMark; {
			p += n.offset[from[p]-1]
			if z[p] < level {
				break
			}
			next := min(level-fall, math.Nextafter(level, math.Inf(-1)))
			lowered += z[p] - next
			z[p], level = next, next
		}
	}
	return lowered, nil
}

// breachPits makes every sample drain again after a time step has closed
// a few basins, given the receivers of z, among which pits are pits
// (samples that are their own receivers off the map's edge). A step
// closes few: at 1025² one or a handful, where a way dug through a ridge
// rose with the ridge faster than the river cut it. Flooding the whole map
// for them, as breach does, cost a second core nothing but made the step
// mostly serial; so each pit is breached on its own (breachFrom), and the
// whole map is flooded only when pits are many, as after the input's own
// basins or on a map of pits.
//
// The pits are taken lowest first (ties by index), one after another, so
// that the result depends on the map alone. It returns the sum of the
// lowerings in metres.
func (n *network) breachPits(ctx context.Context, z []float64, pits int) (lowered float64, err error) {
	if pits == 0 {
		return 0, nil
	}
	if pits > max(localPits, len(z)/localPitShare) {
		return n.breach(ctx, z)
	}
	w, h := n.w, n.h
	list := n.way[:0]
	for y := 1; y < h-1; y++ {
		for i := y*w + 1; i < y*w+w-1; i++ {
			if n.rec[i] == int32(i) {
				list = append(list, int32(i))
			}
		}
	}
	slices.SortFunc(list, func(a, b int32) int {
		if c := cmp.Compare(z[a], z[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	pitList := slices.Clone(list) // way is reused for each pit's way below
	lo, hi := minMax(z)
	fall := (hi - lo) * 0x1p-40 // as in breach
	n.resetMarks(len(z))
	n.heap.reset(len(z))
	for _, c := range pitList {
		r, err := n.breachFrom(ctx, z, int(c), fall)
		lowered += r
		if err != nil {
			return lowered, err
		}
	}
	return lowered, nil
}

// localPits and localPitShare bound the pits breachPits breaches one by
// one: at most the larger of localPits and a localPitShare-th of the
// samples. Each costs a flood of its basin up to the spill point; beyond
// that many, one flood of the whole map costs less.
const (
	localPits     = 64
	localPitShare = 4096
)

// breachFrom breaches pit c on its own, as breach would: a priority flood
// grows from c in order of height, each sample keeping the way back to c,
// until it takes a sample below c or on the map's edge; the way from c to
// that sample is lowered, a tiny step (fall, or a float step) a sample
// below c, back to the first sample already lower. The way runs from c up
// the basin's floor to the spill point and down beyond it, as breach's
// does. Where the way ends on ground lower than c but not lower than the
// way (within a few float steps), the digging goes on from there. A sample
// that already drains, through a way dug for an earlier pit, is left as
// it is. The marks must be zero, and are left so unless ctx is done; it
// returns the sum of the lowerings.
func (n *network) breachFrom(ctx context.Context, z []float64, c int, fall float64) (lowered float64, err error) {
	w, h := n.w, n.h
	from := n.marks
	edge := func(i int) bool {
		x, y := i%w, i/w
		return x == 0 || y == 0 || x == w-1 || y == h-1
	}
	for !edge(c) && !n.drains(z, c) {
		seen := append(n.todo[:0], int32(c))
		from[c] = edgeMark // the flood's seed: no way back
		n.heap.push(int32(c), z[c])
		target := -1
		for count := 0; n.heap.len() > 0; count++ {
			if count%(1<<16) == 0 && ctx.Err() != nil { // a basin may be most of a large map
				return lowered, ctx.Err()
			}
			i, _ := n.heap.pop()
			p := int(i)
			if p != c && (z[p] < z[c] || edge(p)) {
				target = p
				break
			}
			x, y := p%w, p/w
			for k, nb := range neighbours8 {
				nx, ny := x+nb.dx, y+nb.dy
				if nx < 0 || ny < 0 || nx >= w || ny >= h {
					continue
				}
				if d := ny*w + nx; from[d] == 0 {
					from[d] = uint8(7-k) + 1 // neighbours8[7-k] is the way back
					n.heap.push(int32(d), z[d])
					seen = append(seen, int32(d))
				}
			}
		}
		// The way from target back to c, then dug from c's end.
		way := n.way[:0]
		for p := target; p >= 0 && p != c; p += n.offset[from[p]-1] {
			way = append(way, int32(p))
		}
		level, last := z[c], -1
		for k := len(way) - 1; k >= 0; k-- {
			p := int(way[k])
			if z[p] < level {
				last = -1
				break
			}
			next := min(level-fall, math.Nextafter(level, math.Inf(-1)))
			lowered += z[p] - next
			z[p], level, last = next, next, p
		}
		for _, s := range seen {
			from[s] = 0
		}
		n.heap.e = n.heap.e[:0]
		n.todo, n.way = seen, way
		if last < 0 {
			break
		}
		c = last // the way's end is no lower than the way: dig on from it
	}
	return lowered, nil
}

// drains reports whether inner sample c has a lower neighbour.
func (n *network) drains(z []float64, c int) bool {
	for _, off := range n.offset {
		if z[c+off] < z[c] {
			return true
		}
	}
	return false
}

// edgeMark marks a sample of the map's edge in breach's marks.
const edgeMark = 9

// resetMarks returns marks for samples samples, all zero.
func (n *network) resetMarks(samples int) []uint8 {
	if len(n.marks) != samples {
		n.marks = make([]uint8, samples)
	} else {
		clear(n.marks)
	}
	return n.marks
}

// donorMask returns which neighbours drain to sample c: bit k for
// neighbours8[k].
func (n *network) donorMask(c int) uint8 {
	rec := n.rec
	c32 := int32(c)
	var mask uint8
	if rec[c] != c32 { // an inner sample: every neighbour is on the map
		// Unrolled and without branches: whether a neighbour drains here
		// is a coin toss to the branch predictor.
		o := &n.offset
		mask = b2u(rec[c+o[0]] == c32) | b2u(rec[c+o[1]] == c32)<<1 |
			b2u(rec[c+o[2]] == c32)<<2 | b2u(rec[c+o[3]] == c32)<<3 |
			b2u(rec[c+o[4]] == c32)<<4 | b2u(rec[c+o[5]] == c32)<<5 |
			b2u(rec[c+o[6]] == c32)<<6 | b2u(rec[c+o[7]] == c32)<<7
		return mask
	}
	w, h := n.w, n.h
	x, y := c%w, c/w
	for k, nb := range neighbours8 {
		nx, ny := x+nb.dx, y+nb.dy
		if nx < 0 || ny < 0 || nx >= w || ny >= h {
			continue
		}
		if d := ny*w + nx; d != c && rec[d] == c32 {
			mask |= 1 << k
		}
	}
	return mask
}

// b2u is 1 for true and 0 for false.
func b2u(b bool) uint8 {
	var u uint8
	if b {
		u = 1
	}
	return u
}

// floodHeap is a binary min-heap of samples keyed by height, ties broken
// by index so that the flood's order, and so its result, is fixed (it is
// the order of the keys alone, not of the pushes). Each entry holds its
// height beside its index, so that the comparisons down the heap read the
// heap's own memory rather than heights scattered over the map.
type floodHeap struct {
	e []floodEntry
}

type floodEntry struct {
	z float64
	i int32
}

// reset empties the heap, with room for a front of a 64th of samples
// samples (a quarter of a byte a sample): the front of a generated map's
// flood stays well below that (a 86th at 1025², a 166th at 2049²), and a
// larger one grows the heap.
func (q *floodHeap) reset(samples int) {
	if capacity := samples / 64; cap(q.e) < capacity {
		q.e = make([]floodEntry, 0, capacity)
	}
	q.e = q.e[:0]
}

func (q *floodHeap) len() int { return len(q.e) }

// before reports whether a leaves the heap before b.
func (a floodEntry) before(b floodEntry) bool {
	return a.z < b.z || (a.z == b.z && a.i < b.i)
}

func (q *floodHeap) push(i int32, z float64) {
	x := floodEntry{z, i}
	q.e = append(q.e, x)
	e := q.e
	c := len(e) - 1
	for c > 0 {
		p := (c - 1) / 2
		if !x.before(e[p]) {
			break
		}
		e[c] = e[p]
		c = p
	}
	e[c] = x
}

// pop removes the first sample and returns it with its height.
func (q *floodHeap) pop() (int32, float64) {
	e := q.e
	top := e[0]
	last := len(e) - 1
	moved := e[last]
	e = e[:last]
	q.e = e
	if last == 0 {
		return top.i, top.z
	}
	c := 0
	for {
		s := 2*c + 1
		if s >= last {
			break
		}
		if r := s + 1; r < last && e[r].before(e[s]) {
			s = r
		}
		if !e[s].before(moved) {
			break
		}
		e[c] = e[s]
		c = s
	}
	e[c] = moved
	return top.i, top.z
}
