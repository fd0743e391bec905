package erosion

import (
	"context"
	"math"
	"sync"

	"cordillera/internal/parallel"
	"cordillera/terrain"
)

// Thermal erosion (Musgrave, Kolb and Mace 1989; Olsen 2004): loose
// material on a slope steeper than the angle of repose θ slides down until
// the slope is θ. Each sweep, between every pair of 8-neighbours i, j
// (diagonals √2·CellSize apart) whose drop exceeds the talus drop
// T·d = tan θ·distance, the higher sends the lower
//
//	flux = k·(h_i − h_j − T·d),   k = rate/16,
//
// proportional to the excess. The sweep is Jacobi-style: every flux comes
// from the heights before the sweep (kept aside only where a block of rows
// meets the next; see sweep), so the result does not depend on the number
// of cores, and both ends of a pair compute the identical flux, so
// material is conserved to float rounding. k ≤ 1/16 keeps the sweep from
// overshooting: a sample exchanges with at most 8 neighbours, and the
// explicit update of
// h' = h + k·L·h is monotone while k·2·8 ≤ 1 (Gershgorin's bound on the
// graph Laplacian L). The map's edge is closed: nothing leaves.

// Thermal erodes m with p's talus angle, sweeps and rate, on all cores.
func Thermal(ctx context.Context, m *terrain.Heightmap, p terrain.Params, opt Options) (Budget, error) {
	return single(ctx, m, p, opt, func(ctx context.Context, opt Options) (Budget, error) {
		return thermal(ctx, m, p, opt, false)
	})
}

// thermalPasses is how many passes a thermal stage reports (fewer if it
// has fewer sweeps).
const thermalPasses = 16

// ThermalReference is Thermal done the straightforward way, one
// neighbour at a time with bounds checks: the oracle the fast sweep is
// tested against; its result is identical bit for bit.
func ThermalReference(ctx context.Context, m *terrain.Heightmap, p terrain.Params, opt Options) (Budget, error) {
	return single(ctx, m, p, opt, func(ctx context.Context, opt Options) (Budget, error) {
		return thermal(ctx, m, p, opt, true)
	})
}

func thermal(ctx context.Context, m *terrain.Heightmap, p terrain.Params, opt Options, reference bool) (Budget, error) {
	before := stageInput(m, opt)
	g := newGrid(m)
	h := g.h
	rowMoved := make([]float64, h)
	th := newThermalSweep(g, p)
	iters := p.ThermalIterations
	passes := min(thermalPasses, iters)
	var moved float64 // metres over one cell
	sweep := th.sweep
	if reference {
		next := make([]float64, len(g.z))
		sweep = func(ctx context.Context, z, rowMoved []float64) error {
			if err := th.sweepReference(ctx, g.z, next, rowMoved); err != nil {
				return err
			}
			g.z, next = next, g.z
			return nil
		}
	}
	for it := 0; it < iters; it++ {
		if err := sweep(ctx, g.z, rowMoved); err != nil {
			return Budget{}, err
		}
		for _, r := range rowMoved {
			moved += r
		}
		if opt.Progress != nil {
			opt.Progress(float64(it+1) / float64(iters))
		}
		if pass := (it + 1) * passes / iters; opt.Pass != nil && pass > it*passes/iters && it+1 < iters {
			g.store(m)
			opt.Pass(terrain.ThermalErosion, pass, passes)
		}
	}
	finishStage(g, m, before, opt)
	if opt.Pass != nil {
		opt.Pass(terrain.ThermalErosion, passes, passes)
	}
	moved *= g.cellArea()
	return Budget{Eroded: moved, Deposited: moved}, nil
}

// thermalBlockRows is how many rows one task of the sweep updates in
// place: enough that the two rows a block saves for its neighbours cost
// little memory (2/thermalBlockRows of the grid), few enough that every
// core has blocks on a 1025² map and a cancelled context is noticed soon.
const thermalBlockRows = 32

// sweep is one Jacobi sweep done in place, with the same arithmetic in the
// same order as sweepReference. A sample's new height needs the old
// heights of the rows above and below it, so each block of rows first
// saves its first and last row for the blocks beside it (all blocks, then
// a barrier), and then updates its rows top to bottom, writing each new
// row back only once the row below it has read the old one. Only those
// saved rows and two rows a block in flight are held beside the grid,
// instead of a second grid.
func (th *thermalSweep) sweep(ctx context.Context, z, rowMoved []float64) error {
	w, h := th.w, th.h
	blocks := (h + thermalBlockRows - 1) / thermalBlockRows
	if len(th.saved) != 2*blocks*w {
		th.saved = make([]float64, 2*blocks*w)
	}
	saved := th.saved
	row := func(y int) []float64 { return z[y*w : (y+1)*w] }
	// savedRow is the old row y, which a block beside it saved.
	savedRow := func(y int) []float64 {
		k := 2 * (y / thermalBlockRows)
		if y%thermalBlockRows != 0 {
			k++ // a block's last row
		}
		return saved[k*w : (k+1)*w]
	}
	err := parallel.Each(ctx, blocks, func(b int) {
		y0, y1 := b*thermalBlockRows, min((b+1)*thermalBlockRows, h)
		copy(saved[2*b*w:(2*b+1)*w], row(y0))
		copy(saved[(2*b+1)*w:(2*b+2)*w], row(y1-1))
	})
	if err != nil {
		return err
	}
	return parallel.Each(ctx, blocks, func(b int) {
		y0, y1 := b*thermalBlockRows, min((b+1)*thermalBlockRows, h)
		bufs := th.rows.Get().(*[2][]float64)
		if len(bufs[0]) != w {
			bufs[0], bufs[1] = make([]float64, w), make([]float64, w)
		}
		for y := y0; y < y1; y++ {
			var up, down []float64
			switch {
			case y == 0:
			case y == y0:
				up = savedRow(y - 1)
			default:
				up = row(y - 1)
			}
			switch {
			case y == h-1:
			case y == y1-1:
				down = savedRow(y + 1)
			default:
				down = row(y + 1)
			}
			rowMoved[y] = th.row(up, row(y), down, bufs[y%2])
			if y > y0 {
				copy(row(y-1), bufs[(y-1)%2])
			}
		}
		copy(row(y1-1), bufs[(y1-1)%2])
		th.rows.Put(bufs)
	})
}

// row computes the new heights of one row, mid, from it and the old rows
// above and below it (nil beyond the map), into next, and returns the
// metres its samples sent out. The first and last sample go through the
// bounds-checked loop, the others through the interior kernel.
func (th *thermalSweep) row(up, mid, down, next []float64) float64 {
	w := len(mid)
	if up == nil || down == nil || w < 3 {
		return th.cells(up, mid, down, next, 0, w, 0)
	}
	out := th.cells(up, mid, down, next, 0, 1, 0)
	out = th.interior(up, mid, down, next, out)
	return th.cells(up, mid, down, next, w-1, w, out)
}

// interiorGo is the interior kernel in Go: samples 1 to w−2 of a row
// whose rows above and below are on the map, unrolled, reading the three
// rows without bounds checks. It adds what each sample sends out to out.
func (th *thermalSweep) interiorGo(up, mid, down, next []float64, x0 int, out float64) float64 {
	w := len(mid)
	k, ax, dg := th.k, th.axial, th.diagonal
	up, down, next = up[:w], down[:w], next[:w]
	for x := max(x0, 1); x < w-1; x++ {
		zi := mid[x]
		var c, s float64
		c, s = exchange(c, s, zi-up[x-1], dg, k)
		c, s = exchange(c, s, zi-up[x], ax, k)
		c, s = exchange(c, s, zi-up[x+1], dg, k)
		c, s = exchange(c, s, zi-mid[x-1], ax, k)
		c, s = exchange(c, s, zi-mid[x+1], ax, k)
		c, s = exchange(c, s, zi-down[x-1], dg, k)
		c, s = exchange(c, s, zi-down[x], ax, k)
		c, s = exchange(c, s, zi-down[x+1], dg, k)
		next[x] = zi + c
		out += s
	}
	return out
}

// exchange adds to a sample's change, and to what it sends out, the flux
// to one neighbour d metres lower (negative: higher) whose talus drop is
// drop.
func exchange(change, sent, d, drop, k float64) (float64, float64) {
	if d > drop {
		f := float64(k * (d - drop))
		return change - f, sent + f
	}
	if -d > drop {
		return change + float64(k*(-d-drop)), sent
	}
	return change, sent
}

// thermalSweep holds the constants of one thermal sweep and the sweep's
// rows saved between blocks.
type thermalSweep struct {
	w, h            int
	axial, diagonal float64 // talus drops to a side and a diagonal neighbour, metres
	k               float64 // share of the excess moved: rate/16
	saved           []float64
	rows            sync.Pool // *[2][]float64: a block's new rows in flight
}

func newThermalSweep(g *grid, p terrain.Params) *thermalSweep {
	talus := math.Tan(p.ThermalTalus * math.Pi / 180)
	return &thermalSweep{w: g.w, h: g.h,
		axial: talus * g.cell, diagonal: talus * g.cell * math.Sqrt2,
		k:    p.ThermalRate / 16,
		rows: sync.Pool{New: func() any { return new([2][]float64) }}}
}

// cells is the sweep over samples [x0, x1) of row mid, the rows above and
// below it up and down (nil beyond the map), with bounds checks: the map's
// edges. It writes next and adds what each sample sends out to out.
func (th *thermalSweep) cells(up, mid, down, next []float64, x0, x1 int, out float64) float64 {
	w, k := len(mid), th.k
	for x := x0; x < x1; x++ {
		zi := mid[x]
		var change, sent float64
		for _, nb := range neighbours8 {
			nx := x + nb.dx
			row := mid
			switch nb.dy {
			case -1:
				row = up
			case 1:
				row = down
			}
			if nx < 0 || nx >= w || row == nil {
				continue
			}
			drop := th.axial
			if nb.diagonal {
				drop = th.diagonal
			}
			d := zi - row[nx]
			if d > drop {
				f := float64(k * (d - drop))
				change -= f
				sent += f
			} else if -d > drop {
				change += float64(k * (-d - drop))
			}
		}
		next[x] = zi + change
		out += sent
	}
	return out
}

// neighbour is an offset to one of the 8 neighbours of a sample.
type neighbour struct {
	dx, dy   int
	diagonal bool
}

// neighbours8 are the 8 neighbours in a fixed order (row above, same row,
// row below), so that sums over them round the same way every time.
var neighbours8 = [8]neighbour{
	{-1, -1, true}, {0, -1, false}, {1, -1, true},
	{-1, 0, false}, {1, 0, false},
	{-1, 1, true}, {0, 1, false}, {1, 1, true},
}
