package erosion

import (
	"context"

	"cordillera/internal/parallel"
)

// sweepReference is one Jacobi sweep written for clarity: for every sample,
// each of its 8 neighbours in the order of neighbours8, with bounds
// checks. It reads z, writes next, and sets rowMoved[y] to the metres sent
// out of row y: what each sample sends out, summed over its neighbours in
// order, then over the row. The fast sweep must do the same arithmetic in
// the same order.
func (th *thermalSweep) sweepReference(ctx context.Context, z, next, rowMoved []float64) error {
	w, h, k := th.w, th.h, th.k
	axial, diagonal := th.axial, th.diagonal
	return parallel.Blocks(ctx, h, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			var out float64
			for x := 0; x < w; x++ {
				i := y*w + x
				zi := z[i]
				var change, sent float64
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
						sent += f
					} else if -d > drop {
						change += float64(k * (-d - drop))
					}
				}
				next[i] = zi + change
				out += sent
			}
			rowMoved[y] = out
		}
	})
}
