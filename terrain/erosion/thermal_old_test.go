package erosion

import (
	"context"
	"math"
	"testing"

	"cordillera/internal/parallel"
	"cordillera/terrain"
)

// The thermal stage as it was before its sweep was vectorised and made to
// update in place, kept to be measured beside the present one:
//
//	go test -run XXX -bench 'Thermal1025' -cpu 1 -count 3 ./terrain/erosion/
//
// It holds a second float64 grid and takes a branch for every neighbour.
// Its map is identical bit for bit; its budget adds the same fluxes one at
// a time rather than sample by sample, so it may differ in the last bits.

func BenchmarkThermal1025Before(b *testing.B) {
	benchmark(b, 1025, "thermal", func(ctx context.Context, m *terrain.Heightmap, p terrain.Params, opt Options) (Budget, error) {
		return single(ctx, m, p, opt, func(ctx context.Context, opt Options) (Budget, error) {
			return thermalBefore(ctx, m, p, opt)
		})
	})
}

func thermalBefore(ctx context.Context, m *terrain.Heightmap, p terrain.Params, opt Options) (Budget, error) {
	before := stageInput(m, opt)
	g := newGrid(m)
	h := g.h
	next := make([]float64, len(g.z))
	rowMoved := make([]float64, h)
	th := newThermalSweep(g, p)
	iters := p.ThermalIterations
	passes := min(thermalPasses, iters)
	var moved float64 // metres over one cell
	for it := 0; it < iters; it++ {
		if err := th.sweepBefore(ctx, g.z, next, rowMoved); err != nil {
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

// sweepBefore is the sweep as it was: the edges of the map through a
// bounds-checked loop, and the inner samples through an unrolled one with
// a branch for each neighbour.
func (th *thermalSweep) sweepBefore(ctx context.Context, z, next, rowMoved []float64) error {
	w, h := th.w, th.h
	k, ax, dg := th.k, th.axial, th.diagonal
	return parallel.Blocks(ctx, h, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			if y == 0 || y == h-1 || w < 3 {
				rowMoved[y] = th.cellsBefore(z, next, y, 0, w, 0)
				continue
			}
			out := th.cellsBefore(z, next, y, 0, 1, 0)
			up, mid, down := z[(y-1)*w:y*w], z[y*w:(y+1)*w], z[(y+1)*w:(y+2)*w]
			nrow := next[y*w : (y+1)*w]
			_, _, _ = up[w-1], down[w-1], nrow[w-1]
			for x := 1; x < w-1; x++ {
				zi := mid[x]
				var c float64
				c, out = exchangeBefore(c, out, zi-up[x-1], dg, k)
				c, out = exchangeBefore(c, out, zi-up[x], ax, k)
				c, out = exchangeBefore(c, out, zi-up[x+1], dg, k)
				c, out = exchangeBefore(c, out, zi-mid[x-1], ax, k)
				c, out = exchangeBefore(c, out, zi-mid[x+1], ax, k)
				c, out = exchangeBefore(c, out, zi-down[x-1], dg, k)
				c, out = exchangeBefore(c, out, zi-down[x], ax, k)
				c, out = exchangeBefore(c, out, zi-down[x+1], dg, k)
				nrow[x] = zi + c
			}
			rowMoved[y] = th.cellsBefore(z, next, y, w-1, w, out)
		}
	})
}

// exchangeBefore adds to a sample's change, and to what its row sends out, the
// flux to one neighbour d metres lower (negative: higher) whose talus
// drop is drop.
func exchangeBefore(change, out, d, drop, k float64) (float64, float64) {
	if d > drop {
		f := float64(k * (d - drop))
		return change - f, out + f
	}
	if -d > drop {
		return change + float64(k*(-d-drop)), out
	}
	return change, out
}

// cellsBefore is the bounds-checked sweep over samples [x0, x1) of row y,
// adding what they send out to out: the edges of sweepBefore.
func (th *thermalSweep) cellsBefore(z, next []float64, y, x0, x1 int, out float64) float64 {
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

// The present thermal stage gives the map the stage gave before bit for
// bit, and its budget to float rounding, on a steep map whose blocks of
// rows do not divide its height.
func TestThermalSameAsBefore(t *testing.T) {
	m, p := testMap(t, 129, "thermal", "thermal-iterations", "30", "thermal-talus", "25", "thermal-rate", "0.9")
	m.VerticalScale, m.CellSize = 300, 2.5
	m.Height = 101
	m.Samples = m.Samples[:m.Width*m.Height]
	now, before := clone(m), clone(m)
	bn, err := Thermal(context.Background(), now, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	bb, err := single(context.Background(), before, p, Options{}, func(ctx context.Context, opt Options) (Budget, error) {
		return thermalBefore(ctx, before, p, opt)
	})
	if err != nil {
		t.Fatal(err)
	}
	if i := sameBits(now.Samples, before.Samples); i >= 0 {
		t.Errorf("sample %d: now %v, before %v", i, now.Samples[i], before.Samples[i])
	}
	if d := bn.Eroded/bb.Eroded - 1; !(math.Abs(d) < 1e-12) || bn.Deposited != bn.Eroded {
		t.Errorf("budget now %v, before %v", bn, bb)
	}
}
