package erosion

import (
	"context"
	"math"

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
		return thermal(ctx, m, p, opt)
	})
}

// thermalPasses is how many passes a thermal stage reports (fewer if it
// has fewer sweeps).
const thermalPasses = 16

func thermal(ctx context.Context, m *terrain.Heightmap, p terrain.Params, opt Options) (Budget, error) {
	g := newGrid(m)
	w, h := g.w, g.h
	next := make([]float64, len(g.z))
	rowMoved := make([]float64, h)
	talus := math.Tan(p.ThermalTalus * math.Pi / 180)
	axial, diagonal := talus*g.cell, talus*g.cell*math.Sqrt2 // talus drops to a side and a diagonal neighbour
	k := p.ThermalRate / 16
	iters := p.ThermalIterations
	passes := min(thermalPasses, iters)
	var moved float64 // metres over one cell
	for it := 0; it < iters; it++ {
		z := g.z
		err := parallel.Blocks(ctx, h, func(y0, y1 int) {
			for y := y0; y < y1; y++ {
				var out float64
				for x := 0; x < w; x++ {
					i := y*w + x
					zi := z[i]
					var change float64
					for _, nb := range neighbours8 {
						nx, ny := x+nb.dx, y+nb.dy
						if nx < 0 || ny < 0 || nx >= w || ny >= h {
							continue
						}
						drop := axial
						if nb.diagonal {
							drop = diagonal
						}
						d := zi - z[ny*w+nx]
						if d > drop {
							f := float64(k * (d - drop))
							change -= f
							out += f
						} else if -d > drop {
							change += float64(k * (-d - drop))
						}
					}
					next[i] = zi + change
				}
				rowMoved[y] = out
			}
		})
		if err != nil {
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
	finishStage(g, m, opt)
	if opt.Pass != nil {
		opt.Pass(terrain.ThermalErosion, passes, passes)
	}
	moved *= g.cellArea()
	return Budget{Eroded: moved, Deposited: moved}, nil
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
