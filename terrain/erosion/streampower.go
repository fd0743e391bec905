package erosion

import (
	"context"
	"math"
	"sync"
	"sync/atomic"

	"cordillera/internal/parallel"
	"cordillera/terrain"
)

// streamPower is one implicit stream-power time step (see fluvial.go) over
// a drainage network whose receivers are set: the drainage areas, then
// every sample's new height from its receiver's, receivers first.
//
// The straightforward way (stepReference) orders the whole map into one
// stack and walks it on one goroutine. The parallel step (step) uses the
// fact that a sample's new height depends only on its own old height, its
// drainage area and its receiver's new height, and that areas are integer
// sums, so any order that puts receivers first gives the same bits:
//
//   - areas by dependency counting: a sample whose donors are all done
//     adds its area to its receiver's; the worker that completes a
//     receiver goes on with it (Barnes 2017's parallel flow accumulation
//     without the tiles);
//   - heights by splitting the drainage trees: the trunk, the samples
//     draining more than trunkArea cells, is solved on one goroutine from
//     the outlets up; the subtrees hanging off it, each at most trunkArea
//     cells, are then independent tasks, handed to the cores.
//
// The sums a step reports (the change, the eroded height) are added per
// task and the tasks' sums in their fixed order, which does not depend on
// the number of cores; so neither does the result.
type streamPower struct {
	g                     *grid
	net                   *network
	uplift                upliftField
	base                  float64 // the base level, metres
	head                  float64 // drainage area in cells below which the head's is used
	mExp, nExp            float64
	c0                    float64   // K·Δt·(cell area)^m: F = c0·cells^m / d^n
	powTab                []float64 // max(cells, head)^m for small areas
	invAxial, invDiagonal float64   // 1/d^n to a side and a diagonal neighbour
	trunkArea             int32

	hanging []int32   // roots of the subtrees hanging off the trunk, in trunk order
	sums    []stepSum // per hanging subtree
	pool    sync.Pool // *[]int32 depth-first stacks of the tasks
}

// stepSum is what part of a step moved: Σ|Δh|, the highest new height and
// Σ(uplifted − new height), in metres.
type stepSum struct{ change, top, eroded float64 }

func (a stepSum) add(b stepSum) stepSum {
	return stepSum{a.change + b.change, max(a.top, b.top), a.eroded + b.eroded}
}

// newStreamPower prepares the step's constants for p on g.
func newStreamPower(g *grid, net *network, p terrain.Params, uplift upliftField, base float64) *streamPower {
	sp := &streamPower{g: g, net: net, uplift: uplift, base: base, mExp: p.FluvialM, nExp: p.FluvialN}
	// Below the channel head's area the ground is hillslope: it erodes as
	// the head does, so its slope never exceeds the head's. Without this,
	// a sample that drains only itself would stand at S = (U/K)^(1/n)
	// times A^(−m/n) of one cell: a needle on every ridge.
	sp.head = max(p.FluvialHead, 1)
	sp.powTab = make([]float64, min(len(g.z)+1, powTableSize))
	for a := range sp.powTab {
		sp.powTab[a] = math.Pow(max(float64(a), sp.head), sp.mExp)
	}
	sp.c0 = p.FluvialK * p.FluvialDt * math.Pow(g.cellArea(), sp.mExp) // K·Δt·A^m = c0·cells^m
	sp.invAxial, sp.invDiagonal = 1/g.cell, 1/(g.cell*math.Sqrt2)
	if sp.nExp != 1 {
		sp.invAxial, sp.invDiagonal = math.Pow(sp.invAxial, sp.nExp), math.Pow(sp.invDiagonal, sp.nExp)
	}
	// A fixed share of the map, so that the split, and with it the order
	// of the sums, is the same on any number of cores; small enough that
	// the largest basin splits into many tasks, large enough that the
	// trunk is a few channels.
	sp.trunkArea = int32(max(len(g.z)/256, 256))
	sp.pool.New = func() any { s := make([]int32, 0, 256); return &s }
	return sp
}

// update solves sample i's new height from its receiver's, which must be
// solved already, and adds what it moved to s.
func (sp *streamPower) update(i int, s *stepSum) {
	z, net := sp.g.z, sp.net
	r := int(net.rec[i])
	zr, inv := sp.base, sp.invAxial // an edge sample drains off the map, to the base level a cell away
	if r != i {
		zr, inv = z[r], sp.invDiagonal
		if d := r - i; d == 1 || d == -1 || d == sp.g.w || d == -sp.g.w {
			inv = sp.invAxial
		}
	}
	a := net.area[i]
	var am float64
	if int(a) < len(sp.powTab) {
		am = sp.powTab[a]
	} else {
		am = math.Pow(max(float64(a), sp.head), sp.mExp)
	}
	f := float64(sp.c0*am) * inv
	old := z[i]
	up := old + sp.uplift.at(i)
	var next float64
	if sp.nExp == 1 {
		next = (up + float64(f*zr)) / (1 + f)
	} else {
		next = zr + newtonDrop(up-zr, f, sp.nExp)
	}
	z[i] = next
	s.change += math.Abs(next - old)
	s.top = max(s.top, next)
	s.eroded += up - next
}

// stepReference is the step on one goroutine over the whole map's stack.
func (sp *streamPower) stepReference(ctx context.Context) (change, top, eroded float64, err error) {
	net := sp.net
	net.buildStack()
	net.accumulate()
	if err := ctx.Err(); err != nil {
		return 0, 0, 0, err
	}
	total := stepSum{top: sp.base}
	for k, s := range net.stack {
		if k&0xffff == 0 && ctx.Err() != nil { // a step at 4097² takes long enough to be worth a look
			return 0, 0, 0, ctx.Err()
		}
		sp.update(int(s), &total)
	}
	return total.change, total.top, total.eroded, nil
}

// step is the step on all cores, as described above.
func (sp *streamPower) step(ctx context.Context) (change, top, eroded float64, err error) {
	if err := sp.accumulate(ctx); err != nil {
		return 0, 0, 0, err
	}
	trunk := sp.solveTrunk()
	if len(sp.sums) < len(sp.hanging) {
		sp.sums = make([]stepSum, len(sp.hanging))
	}
	err = parallel.Each(ctx, len(sp.hanging), func(k int) {
		sp.sums[k] = sp.solveSubtree(int(sp.hanging[k]))
	})
	if err != nil {
		return 0, 0, 0, err
	}
	for _, s := range sp.sums[:len(sp.hanging)] {
		trunk = trunk.add(s)
	}
	return trunk.change, trunk.top, trunk.eroded, nil
}

// accumulate sets every sample's drainage area in cells, on all cores:
// each row block counts its samples' donors, then starts from those with
// none and walks down, each sample adding its area to its receiver's; the
// walk stops at a receiver that still waits for other donors, which the
// last of them completes.
func (sp *streamPower) accumulate(ctx context.Context) error {
	net := sp.net
	w, h := net.w, net.h
	// The counts are the network's marks, a byte per sample (at most 8
	// donors, or leaf): a block writes the words that lie wholly in its
	// rows and ORs into the two it shares with its neighbours, so the
	// marks are cleared first.
	pending := net.resetMarks(w * h)
	rec, area := net.rec, net.area
	err := parallel.Blocks(ctx, h, func(y0, y1 int) {
		lo, hi := y0*w, y1*w
		var word uint32
		for y := y0; y < y1; y++ {
			for x := 0; x < w; x++ {
				i := y*w + x
				area[i] = 1
				var donors uint32
				if x > 0 && y > 0 && x < w-1 && y < h-1 {
					for _, off := range net.offset {
						if rec[i+off] == int32(i) {
							donors++
						}
					}
				} else {
					for _, nb := range neighbours8 {
						nx, ny := x+nb.dx, y+nb.dy
						if nx >= 0 && ny >= 0 && nx < w && ny < h && rec[ny*w+nx] == int32(i) && ny*w+nx != i {
							donors++
						}
					}
				}
				if donors == 0 {
					donors = leaf
				}
				word |= donors << (8 * (i & 3))
				if i&3 == 3 || i == hi-1 {
					if k := i >> 2; k<<2 >= lo && k<<2+3 < hi {
						pending[k] = word
					} else {
						atomic.OrUint32(&pending[k], word)
					}
					word = 0
				}
			}
		}
	})
	if err != nil {
		return err
	}
	return parallel.Blocks(ctx, h, func(y0, y1 int) {
		for i := y0 * w; i < y1*w; i++ {
			if uint8(atomic.LoadUint32(&pending[i>>2])>>(8*(i&3))) != leaf {
				continue
			}
			// i has no donors: walk down from it while this walk completes
			// each receiver.
			for c := i; ; {
				r := int(rec[c])
				if r == c {
					break
				}
				atomic.AddInt32(&area[r], atomic.LoadInt32(&area[c]))
				// r's count is at least 1 here (c is one of its donors), so
				// taking 1 from its byte never borrows from its neighbours'.
				shift := 8 * (r & 3)
				if uint8(atomic.AddUint32(&pending[r>>2], ^(uint32(1)<<shift-1))>>shift) != 0 {
					break
				}
				c = r
			}
		}
	})
}

// leaf marks a sample with no donors in accumulate's pending counts: the
// counts of the others fall to 0 as their donors finish.
const leaf = 0xff

// solveTrunk solves the samples draining more than trunkArea cells, from
// the outlets up, on the calling goroutine, and lists the roots of the
// subtrees hanging off them (the outlets of smaller basins among them) in
// the order met.
func (sp *streamPower) solveTrunk() stepSum {
	net := sp.net
	w, h := net.w, net.h
	rec, area := net.rec, net.area
	sp.hanging = sp.hanging[:0]
	sum := stepSum{top: sp.base}
	todo := net.todo[:0]
	visit := func(d int) {
		if area[d] > sp.trunkArea {
			todo = append(todo, int32(d))
		} else {
			sp.hanging = append(sp.hanging, int32(d))
		}
	}
	// The outlets lie on the map's edge: visit them in index order.
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if y != 0 && y != h-1 && x == 1 {
				x = w - 1 // an inner row: only its first and last samples
			}
			i := y*w + x
			if rec[i] != int32(i) {
				continue
			}
			visit(i)
			for len(todo) > 0 {
				c := int(todo[len(todo)-1])
				todo = todo[:len(todo)-1]
				sp.update(c, &sum)
				sp.donors(c, visit)
			}
		}
	}
	net.todo = todo
	return sum
}

// solveSubtree solves the subtree draining to root, depth first from it.
func (sp *streamPower) solveSubtree(root int) stepSum {
	sum := stepSum{top: sp.base}
	tp := sp.pool.Get().(*[]int32)
	todo := append((*tp)[:0], int32(root))
	push := func(d int) { todo = append(todo, int32(d)) }
	for len(todo) > 0 {
		c := int(todo[len(todo)-1])
		todo = todo[:len(todo)-1]
		sp.update(c, &sum)
		sp.donors(c, push)
	}
	*tp = todo
	sp.pool.Put(tp)
	return sum
}

// donors calls visit for each neighbour that drains to c, in the order of
// neighbours8.
func (sp *streamPower) donors(c int, visit func(d int)) {
	net := sp.net
	w, h := net.w, net.h
	x, y := c%w, c/w
	if x > 0 && y > 0 && x < w-1 && y < h-1 {
		for _, off := range net.offset {
			if d := c + off; net.rec[d] == int32(c) {
				visit(d)
			}
		}
		return
	}
	for _, nb := range neighbours8 {
		nx, ny := x+nb.dx, y+nb.dy
		if nx < 0 || ny < 0 || nx >= w || ny >= h {
			continue
		}
		if d := ny*w + nx; d != c && net.rec[d] == int32(c) {
			visit(d)
		}
	}
}
