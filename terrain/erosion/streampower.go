package erosion

import (
	"context"
	"math"
	"math/bits"
	"sync"

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
//   - the drainage trees are split in two: the trunk, the samples draining
//     more than trunkArea cells, reached from the outlets, and the
//     subtrees hanging off it. The subtrees are independent tasks, handed
//     to the cores in groups of about trunkArea cells; the trunk, a few
//     channels, is done on one goroutine;
//   - areas first: each subtree sums its own, donors before receivers,
//     then the trunk, from its tips down to the outlets. The split must be
//     made before the areas are known, so it follows the last step's
//     areas (accumulate); each sample's donors are kept as a byte of bits,
//     so that the solve need not look for them again;
//   - heights next, split by this step's areas: the trunk from the
//     outlets up, then the subtrees, each from its root up.
//
// The sums a step reports (the change, the eroded height) are added per
// subtree and the subtrees' sums in their fixed order, which does not
// depend on the number of cores; so neither does the result.
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
	deposition            float64   // G of the deposition term; 0 for none
	z0                    []float64 // with deposition: the heights at the step's start
	qs                    []float64 // with deposition: the sediment each sample passes on, by the last iteration, metres over a cell

	hanging []int32   // roots of the subtrees hanging off the trunk, in trunk order
	sums    []stepSum // per hanging subtree
	trunk   []int32   // accumulate: the trunk by the last step's areas, receivers first
	solved  []int32   // solveTrunk: the trunk by this step's areas, receivers first
	roots   []int32   // accumulate: the roots of the subtrees hanging off it
	tasks   []int     // bounds of the tasks in hanging or roots
	pool    sync.Pool // *[]int32 depth-first stacks of the tasks
}

// stepSum is what part of a step moved: Σ|Δh|, the highest new height,
// Σ(uplifted − new height) where the ground went down and Σ(new −
// uplifted height) where it went up (with deposition), and, with
// deposition, Σ|Δh| since the last iteration; in metres.
type stepSum struct{ change, top, eroded, deposited, moved float64 }

func (a stepSum) add(b stepSum) stepSum {
	return stepSum{a.change + b.change, max(a.top, b.top), a.eroded + b.eroded, a.deposited + b.deposited, a.moved + b.moved}
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
	if p.FluvialDeposition > 0 {
		sp.deposition = p.FluvialDeposition
		sp.z0, sp.qs = make([]float64, len(g.z)), make([]float64, len(g.z))
	}
	return sp
}

// update solves sample i's new height from its receiver's, which must be
// solved already, and adds what it moved to s.
func (sp *streamPower) update(i int, s *stepSum) {
	if sp.qs != nil {
		sp.updateDeposit(i, s)
		return
	}
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

// updateDeposit is update with the sediment deposition term of Yuan et
// al. (2019):
//
//	∂h/∂t = U − K·A^m·S^n + G·Qs/A,   Qs = ∫_A (U − ∂h/∂t) dA,
//
// the sediment flux Qs being what the ground upstream of a sample, the
// sample included, lost over the step (in metres over a cell: A in cells).
// Qs depends on the new heights upstream, which are solved after the
// sample's, so a step is iterated as Yuan et al. do: each solve takes the
// donors' fluxes of the iteration before (In), the sample's own share of
// Qs implicitly. With a = h⁰ + Δt·U and g = G / A, the update
//
//	h − a = g·(In + a − h) − F·(h − h_r)^n
//
// is the plain one with a' = a + g·In/(1+g) for a and F/(1+g) for F.
// Where the slope is steep the erosion term wins; where it drops, at a
// range's foot, the deposit does, and the floor builds up into fans and
// aprons until its slope carries the flux on (Yuan et al.'s figs 6 and 9).
// Below the channel head's area A is the head's, as for the erosion: a
// hillslope sample keeps no more of what passes than the head would.
func (sp *streamPower) updateDeposit(i int, s *stepSum) {
	z, net, qs := sp.g.z, sp.net, sp.qs
	r := int(net.rec[i])
	zr, inv := sp.base, sp.invAxial
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
	var in float64
	for m := net.marks[i]; m != 0; m &= m - 1 {
		in += qs[i+net.offset[bits.TrailingZeros8(m)]]
	}
	g := sp.deposition / max(float64(a), sp.head)
	up := sp.z0[i] + sp.uplift.at(i)
	upDep := up + float64(g*in)/(1+g)
	f := float64(float64(sp.c0*am)*inv) / (1 + g)
	var next float64
	if sp.nExp == 1 {
		next = (upDep + float64(f*zr)) / (1 + f)
	} else {
		next = zr + newtonDrop(upDep-zr, f, sp.nExp)
	}
	s.moved += math.Abs(next - z[i])
	z[i] = next
	s.change += math.Abs(next - sp.z0[i])
	s.top = max(s.top, next)
	if next < up {
		s.eroded += up - next
	} else {
		s.deposited += next - up
	}
}

// passOn sets the sediment sample c passes on, Qs, once c and everything
// upstream of it are solved: its donors' (summed in their mask's bit
// order, so that any traversal that does donors first gives the same
// bits) and what c itself lost.
func (sp *streamPower) passOn(c int) {
	net, qs := sp.net, sp.qs
	var in float64
	for m := net.marks[c]; m != 0; m &= m - 1 {
		in += qs[c+net.offset[bits.TrailingZeros8(m)]]
	}
	qs[c] = in + (sp.z0[c] + sp.uplift.at(c) - sp.g.z[c])
}

// Deposition's iterations stop once an iteration moves the heights by
// less than depositTolerance of what the step moved them, or after
// maxDepositIterations.
const (
	depositTolerance     = 1e-3
	maxDepositIterations = 30
)

// stepReference is the step on one goroutine over the whole map's stack:
// the solve up it, then the deposits (if any) down it.
func (sp *streamPower) stepReference(ctx context.Context) (stepSum, error) {
	net := sp.net
	net.buildStack()
	net.accumulate()
	if err := ctx.Err(); err != nil {
		return stepSum{}, err
	}
	if sp.qs != nil {
		copy(sp.z0, sp.g.z)
		if len(net.marks) != len(net.rec) {
			net.marks = make([]uint8, len(net.rec))
		}
		for i := range net.marks {
			net.marks[i] = net.donorMask(i)
		}
	}
	for it := 0; ; it++ {
		total := stepSum{top: sp.base}
		for k, s := range net.stack {
			if k&0xffff == 0 && ctx.Err() != nil { // a step at 4097² takes long enough to be worth a look
				return stepSum{}, ctx.Err()
			}
			sp.update(int(s), &total)
		}
		if sp.qs == nil {
			return total, nil
		}
		for k := len(net.stack) - 1; k >= 0; k-- {
			sp.passOn(int(net.stack[k]))
		}
		if total.moved <= depositTolerance*total.change || it+1 == maxDepositIterations {
			return total, nil
		}
	}
}

// step is the step on all cores, as described above; with deposition,
// each subtree lays down its sediment from its tips to its root once
// solved, and the trunk last, from its tips down to the outlets.
func (sp *streamPower) step(ctx context.Context) (stepSum, error) {
	if err := sp.accumulate(ctx); err != nil {
		return stepSum{}, err
	}
	if sp.qs == nil {
		return sp.solve(ctx)
	}
	copy(sp.z0, sp.g.z)
	for it := 0; ; it++ {
		total, err := sp.solve(ctx)
		if err != nil || total.moved <= depositTolerance*total.change || it+1 == maxDepositIterations {
			return total, err
		}
	}
}

// solve solves the heights once the areas and donor masks are set: the
// trunk, then the subtrees on all cores; with deposition, each subtree
// then passes its sediment on from its tips to its root, and the trunk
// last, from its tips down to the outlets.
func (sp *streamPower) solve(ctx context.Context) (stepSum, error) {
	trunk := sp.solveTrunk()
	if len(sp.sums) < len(sp.hanging) {
		sp.sums = make([]stepSum, len(sp.hanging))
	}
	tasks := sp.group(sp.hanging, sp.tasks)
	sp.tasks = tasks
	err := parallel.Each(ctx, len(tasks)-1, func(t int) {
		tp := sp.pool.Get().(*[]int32)
		for k := tasks[t]; k < tasks[t+1]; k++ {
			sp.sums[k] = sp.solveSubtree(int(sp.hanging[k]), tp)
			if sp.qs != nil {
				sp.passOnSubtree(int(sp.hanging[k]), tp)
			}
		}
		sp.pool.Put(tp)
	})
	if err != nil {
		return stepSum{}, err
	}
	if sp.qs != nil {
		for k := len(sp.solved) - 1; k >= 0; k-- {
			sp.passOn(int(sp.solved[k]))
		}
	}
	for _, s := range sp.sums[:len(sp.hanging)] {
		trunk = trunk.add(s)
	}
	return trunk, nil
}

// passOnSubtree sets the sediment each sample of the subtree draining to
// root passes on, each once its donors are done (pushed again,
// complemented, to mark that moment, as accumulateSubtree does); tp is
// the task's stack. The subtree must be solved and its donor masks set.
func (sp *streamPower) passOnSubtree(root int, tp *[]int32) {
	net := sp.net
	masks := net.marks
	todo := append((*tp)[:0], int32(root))
	for len(todo) > 0 {
		c := int(todo[len(todo)-1])
		todo = todo[:len(todo)-1]
		if c < 0 {
			sp.passOn(^c)
			continue
		}
		if masks[c] == 0 { // no donors: done at once
			sp.passOn(c)
			continue
		}
		todo = append(todo, int32(^c))
		for m := masks[c]; m != 0; m &= m - 1 {
			todo = append(todo, int32(c+net.offset[bits.TrailingZeros8(m)]))
		}
	}
	*tp = todo
}

// group cuts roots, in their order, into tasks of consecutive roots that
// drain about trunkArea cells together by the network's areas (at least a
// cell each, and at most maxTaskRoots roots, for the first step, whose
// areas are not known yet); it returns the tasks' bounds in roots, into
// bounds' storage. The cut depends on the areas alone, not on the cores.
func (sp *streamPower) group(roots []int32, bounds []int) []int {
	bounds = append(bounds[:0], 0)
	cells, count := 0, 0
	for k, r := range roots {
		cells += max(int(sp.net.area[r]), 1)
		count++
		if cells >= int(sp.trunkArea) || count == maxTaskRoots || k == len(roots)-1 {
			bounds = append(bounds, k+1)
			cells, count = 0, 0
		}
	}
	return bounds
}

// maxTaskRoots bounds the roots of a task, so that the outlets of the
// first step, whose areas are not known, still spread over the cores.
const maxTaskRoots = 64

// accumulate sets every sample's drainage area in cells, and its donor
// mask in the network's marks, on all cores. The drainage trees are split
// as the step splits them, but by the areas of the step before, the only
// ones known yet: the samples that drained more than trunkArea cells,
// reached from the outlets, are the trunk (this step's receivers may have
// moved a little since, which only makes some task larger). The subtrees
// hanging off it are independent tasks: each sums its own areas, children
// before parents. The trunk's areas are then summed on the calling
// goroutine from the subtrees' roots up. Areas are integers, so the order
// of the sums does not matter.
func (sp *streamPower) accumulate(ctx context.Context) error {
	net := sp.net
	if len(net.marks) != len(net.rec) {
		net.marks = make([]uint8, len(net.rec))
	}
	area, masks := net.area, net.marks
	trunk := sp.trunk[:0]
	roots := sp.roots[:0]
	todo := net.todo[:0]
	visit := func(d int) {
		if area[d] > sp.trunkArea {
			todo = append(todo, int32(d))
		} else {
			roots = append(roots, int32(d))
		}
	}
	sp.outlets(func(i int) {
		visit(i)
		for len(todo) > 0 {
			c := int(todo[len(todo)-1])
			todo = todo[:len(todo)-1]
			trunk = append(trunk, int32(c))
			mask := net.donorMask(c)
			masks[c] = mask
			for m := mask; m != 0; m &= m - 1 {
				visit(c + net.offset[bits.TrailingZeros8(m)])
			}
		}
	})
	net.todo = todo
	sp.trunk, sp.roots = trunk, roots

	tasks := sp.group(roots, sp.tasks)
	sp.tasks = tasks
	err := parallel.Each(ctx, len(tasks)-1, func(t int) {
		tp := sp.pool.Get().(*[]int32)
		for _, r := range roots[tasks[t]:tasks[t+1]] {
			sp.accumulateSubtree(int(r), tp)
		}
		sp.pool.Put(tp)
	})
	if err != nil {
		return err
	}
	// The trunk from its tips down: every donor of a trunk sample is
	// either later in trunk or the root of a subtree summed above.
	for k := len(trunk) - 1; k >= 0; k-- {
		c := int(trunk[k])
		a := int32(1)
		for m := masks[c]; m != 0; m &= m - 1 {
			a += area[c+net.offset[bits.TrailingZeros8(m)]]
		}
		area[c] = a
	}
	return nil
}

// accumulateSubtree sets the areas and donor masks of the subtree draining
// to root, depth first, each sample's area added to its receiver's once
// its own donors are done (a sample is pushed again, complemented, to mark
// that moment). A donor is looked at when its receiver is: one with no
// donors of its own, most of the samples, is done there rather than
// pushed. tp is the task's stack.
func (sp *streamPower) accumulateSubtree(root int, tp *[]int32) {
	net := sp.net
	rec, area, masks := net.rec, net.area, net.marks
	masks[root], area[root] = net.donorMask(root), 1
	todo := (*tp)[:0]
	if masks[root] != 0 {
		todo = append(todo, int32(root))
	}
	for len(todo) > 0 {
		c := int(todo[len(todo)-1])
		todo = todo[:len(todo)-1]
		if c < 0 { // its donors are done
			if c = ^c; c != root {
				area[rec[c]] += area[c]
			}
			continue
		}
		todo = append(todo, int32(^c))
		for m := masks[c]; m != 0; m &= m - 1 {
			d := c + net.offset[bits.TrailingZeros8(m)]
			dm := net.donorMask(d)
			masks[d], area[d] = dm, 1
			if dm != 0 {
				todo = append(todo, int32(d))
			} else {
				area[c]++
			}
		}
	}
	*tp = todo
}

// outlets calls visit for each sample of the map's edge that is its own
// receiver, in index order.
func (sp *streamPower) outlets(visit func(i int)) {
	net := sp.net
	w, h := net.w, net.h
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if y != 0 && y != h-1 && x == 1 {
				x = w - 1 // an inner row: only its first and last samples
			}
			if i := y*w + x; net.rec[i] == int32(i) {
				visit(i)
			}
		}
	}
}

// solveTrunk solves the samples draining more than trunkArea cells, from
// the outlets up, on the calling goroutine, and lists the roots of the
// subtrees hanging off them (the outlets of smaller basins among them) in
// the order met. The donor masks must be set.
func (sp *streamPower) solveTrunk() stepSum {
	net := sp.net
	area, masks := net.area, net.marks
	sp.hanging = sp.hanging[:0]
	solved := sp.solved[:0]
	sum := stepSum{top: sp.base}
	todo := net.todo[:0]
	visit := func(d int) {
		if area[d] > sp.trunkArea {
			todo = append(todo, int32(d))
		} else {
			sp.hanging = append(sp.hanging, int32(d))
		}
	}
	sp.outlets(func(i int) {
		visit(i)
		for len(todo) > 0 {
			c := int(todo[len(todo)-1])
			todo = todo[:len(todo)-1]
			sp.update(c, &sum)
			solved = append(solved, int32(c))
			for m := masks[c]; m != 0; m &= m - 1 {
				visit(c + net.offset[bits.TrailingZeros8(m)])
			}
		}
	})
	net.todo = todo
	sp.solved = solved
	return sum
}

// solveSubtree solves the subtree draining to root, depth first from it;
// tp is the task's stack. The donor masks must be set.
func (sp *streamPower) solveSubtree(root int, tp *[]int32) stepSum {
	net := sp.net
	masks := net.marks
	sum := stepSum{top: sp.base}
	todo := append((*tp)[:0], int32(root))
	for len(todo) > 0 {
		c := int(todo[len(todo)-1])
		todo = todo[:len(todo)-1]
		sp.update(c, &sum)
		for m := masks[c]; m != 0; m &= m - 1 {
			todo = append(todo, int32(c+net.offset[bits.TrailingZeros8(m)]))
		}
	}
	*tp = todo
	return sum
}
