package erosion

import (
	"context"
	"math"

	"cordillera/internal/parallel"
	"cordillera/terrain"
)

// thermalSweep holds the constants of one thermal sweep.
type thermalSweep struct {
	w, h            int
	axial, diagonal float64 // talus drops to a side and a diagonal neighbour, metres
	k               float64 // share of the excess moved: rate/16
}

func newThermalSweep(g *grid, p terrain.Params) *thermalSweep {
	talus := math.Tan(p.ThermalTalus * math.Pi / 180)
	return &thermalSweep{w: g.w, h: g.h,
		axial: talus * g.cell, diagonal: talus * g.cell * math.Sqrt2,
		k: p.ThermalRate / 16}
}

// sweepReference is one Jacobi sweep written for clarity: for every sample,
// each of its 8 neighbours in the order of neighbours8, with bounds
// checks. It reads z, writes next, and sets rowMoved[y] to the metres sent
// out of row y. The fast sweep must do the same arithmetic in the same
// order.
func (th *thermalSweep) sweepReference(ctx context.Context, z, next, rowMoved []float64) error {
	w, h, k := th.w, th.h, th.k
	axial, diagonal := th.axial, th.diagonal
	return parallel.Blocks(ctx, h, func(y0, y1 int) {
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
}

// cellsReference is the reference sweep over samples [x0, x1) of row y,
// adding what they send out to out: the fast sweep's edges.
func (th *thermalSweep) cellsReference(z, next []float64, y, x0, x1 int, out float64) float64 {
	w, h, k := th.w, th.h, th.k
	for x := x0; x < x1; x++ {
		i := y*w + x
		zi := z[i]
		var change float64
		for _, nb := range neighbours8 {
			nx, ny := x+nb.dx, y+nb.dy
			if nx < 0 || ny < 0 || nx >= w || ny >= h {
				continue
			}
			drop := th.axial
			if nb.diagonal {
				drop = th.diagonal
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
	return out
}
