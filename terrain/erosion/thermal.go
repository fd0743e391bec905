package erosion

import (
	"context"

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
// from the heights before the sweep and lands in a new buffer, one row per
// task, so the result does not depend on the number of cores, and both
// ends of a pair compute the identical flux, so material is conserved to
// float rounding. k ≤ 1/16 keeps the sweep from overshooting: a sample
// exchanges with at most 8 neighbours, and the explicit update of
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
	next := make([]float64, len(g.z))
	rowMoved := make([]float64, h)
	th := newThermalSweep(g, p)
	iters := p.ThermalIterations
	passes := min(thermalPasses, iters)
	var moved float64 // metres over one cell
	sweep := th.sweep
	if reference {
		sweep = th.sweepReference
	}
	for it := 0; it < iters; it++ {
		if err := sweep(ctx, g.z, next, rowMoved); err != nil {
			return Budget{}, err
		}
		g.z, next = next, g.z
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

// sweep is one Jacobi sweep, the same arithmetic in the same order as
// sweepReference: the edges of the map go through the reference's
// bounds-checked loop, and the inner samples through an unrolled one that
// reads its three rows without bounds checks.
func (th *thermalSweep) sweep(ctx context.Context, z, next, rowMoved []float64) error {
	w, h := th.w, th.h
	k, ax, dg := th.k, th.axial, th.diagonal
	return parallel.Blocks(ctx, h, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			if y == 0 || y == h-1 || w < 3 {
				rowMoved[y] = th.cellsReference(z, next, y, 0, w, 0)
				continue
			}
			out := th.cellsReference(z, next, y, 0, 1, 0)
			up, mid, down := z[(y-1)*w:y*w], z[y*w:(y+1)*w], z[(y+1)*w:(y+2)*w]
			nrow := next[y*w : (y+1)*w]
			_, _, _ = up[w-1], down[w-1], nrow[w-1]
			for x := 1; x < w-1; x++ {
				zi := mid[x]
				var c float64
				c, out = exchange(c, out, zi-up[x-1], dg, k)
				c, out = exchange(c, out, zi-up[x], ax, k)
				c, out = exchange(c, out, zi-up[x+1], dg, k)
				c, out = exchange(c, out, zi-mid[x-1], ax, k)
				c, out = exchange(c, out, zi-mid[x+1], ax, k)
				c, out = exchange(c, out, zi-down[x-1], dg, k)
				c, out = exchange(c, out, zi-down[x], ax, k)
				c, out = exchange(c, out, zi-down[x+1], dg, k)
				nrow[x] = zi + c
			}
			rowMoved[y] = th.cellsReference(z, next, y, w-1, w, out)
		}
	})
}

// exchange adds to a sample's change, and to what its row sends out, the
// flux to one neighbour d metres lower (negative: higher) whose talus
// drop is drop.
func exchange(change, out, d, drop, k float64) (float64, float64) {
	if d > drop {
		f := float64(k * (d - drop))
		return change - f, out + f
	}
	if -d > drop {
		return change + float64(k*(-d-drop)), out
	}
	return change, out
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
