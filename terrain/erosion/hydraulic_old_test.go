package erosion

import (
	"context"
	"math"
	"testing"

	"cordillera/internal/parallel"
	"cordillera/terrain"
)

// The hydraulic stage as it was before several droplets were run
// interleaved on each core, kept to be measured beside the present one:
//
//	go test -run XXX -bench 'Hydraulic1025' -cpu 1 -count 3 ./terrain/erosion/
//
// Its map and budget are identical bit for bit.

func BenchmarkHydraulic1025Before(b *testing.B) {
	benchmark(b, 1025, "hydraulic", func(ctx context.Context, m *terrain.Heightmap, p terrain.Params, opt Options) (Budget, error) {
		return single(ctx, m, p, opt, func(ctx context.Context, opt Options) (Budget, error) {
			return hydraulicBefore(ctx, m, p, opt)
		})
	})
}

// The present hydraulic stage gives the map and budget the stage gave
// before bit for bit, at a cell size that is not a power of two (divided)
// and one that is (multiplied by its exact reciprocal).
func TestHydraulicSameAsBefore(t *testing.T) {
	for _, cell := range []float64{2.5, 0.5} {
		m, p := testMap(t, 257, "hydraulic", "hydraulic-lifetime", "24", "hydraulic-radius", "4")
		m.CellSize = cell
		now, before := clone(m), clone(m)
		bn, err := Hydraulic(context.Background(), now, p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		bb, err := single(context.Background(), before, p, Options{}, func(ctx context.Context, opt Options) (Budget, error) {
			return hydraulicBefore(ctx, before, p, opt)
		})
		if err != nil {
			t.Fatal(err)
		}
		if i := sameBits(now.Samples, before.Samples); i >= 0 {
			t.Errorf("cell %g: sample %d: now %v, before %v", cell, i, now.Samples[i], before.Samples[i])
		}
		if bn != bb {
			t.Errorf("cell %g: budget now %v, before %v", cell, bn, bb)
		}
	}
}

// hydraulicBefore runs the rounds and phases as the stage did, one
// droplet after another on each core.
func hydraulicBefore(ctx context.Context, m *terrain.Heightmap, p terrain.Params, opt Options) (Budget, error) {
	before := stageInput(m, opt)
	g := newGrid(m)
	hp := newHydraulicParams(p, g)
	tileBudget := make([]Budget, hp.tilesTotal)
	var phases [4][]int
	for ph := range phases {
		phases[ph] = hp.phaseTiles(ph)
	}
	var total Budget
	for r := range hydraulicRounds {
		for ph, tiles := range phases {
			runTile := func(k int) {
				t := tiles[k]
				x0, y0, x1, y1 := hp.tileStarts(g, t)
				var b Budget
				n := hp.tileDroplets(g, t, r)
				for i := 0; i < n; i++ {
					if i%256 == 0 && ctx.Err() != nil {
						return
					}
					key := dropletKey(hp.seed, r, t, i)
					x, y := dropletStart(key, x0, y0, x1, y1)
					g.dropletBefore(x, y, key, hp, &b)
				}
				tileBudget[t] = b
			}
			if err := parallel.Each(ctx, len(tiles), runTile); err != nil {
				return total, err
			}
			for _, t := range tiles {
				total = total.Add(tileBudget[t])
			}
			if opt.Progress != nil {
				opt.Progress(float64(4*r+ph+1) / (4 * hydraulicRounds))
			}
		}
		if opt.Pass != nil && r < hydraulicRounds-1 {
			g.store(m)
			opt.Pass(terrain.HydraulicErosion, r+1, hydraulicRounds)
		}
	}
	total = total.scaled(g.cellArea())
	finishStage(g, m, before, opt)
	if opt.Pass != nil {
		opt.Pass(terrain.HydraulicErosion, hydraulicRounds, hydraulicRounds)
	}
	return total, nil
}

// dropletBefore is the droplet as it was: one droplet from (x, y), adding
// what it moves to b.
func (g *grid) dropletBefore(x, y float64, key uint64, hp *hydraulicParams, b *Budget) {
	w, z := g.w, g.z
	if !hp.inside(g, x, y) {
		return
	}
	var dirX, dirY, sediment float64
	speed, water := 1.0, 1.0
	for step := 0; step < hp.lifetime; step++ {
		ix, iy := int(x), int(y)
		u, v := x-float64(ix), y-float64(iy)
		i := iy*w + ix
		h00, h10, h01, h11 := z[i], z[i+1], z[i+w], z[i+w+1]
		top := h00 + float64((h10-h00)*u)
		bottom := h01 + float64((h11-h01)*u)
		height := top + float64((bottom-top)*v)
		gx := (float64((h10-h00)*(1-v)) + float64((h11-h01)*v)) / hp.cell
		gy := (float64((h01-h00)*(1-u)) + float64((h11-h10)*u)) / hp.cell
		dirX = float64(dirX*hp.inertia) - float64(gx*hp.keep)
		dirY = float64(dirY*hp.inertia) - float64(gy*hp.keep)
		if l := math.Sqrt(float64(dirX*dirX) + float64(dirY*dirY)); l > 0 {
			dirX, dirY = dirX/l, dirY/l
		} else {
			dirX, dirY = randomDirection(key, step)
		}
		nx, ny := x+dirX, y+dirY
		if !hp.inside(g, nx, ny) {
			b.CarriedOff += sediment
			return
		}
		jx, jy := int(nx), int(ny)
		nu, nv := nx-float64(jx), ny-float64(jy)
		j := jy*w + jx
		ntop := z[j] + float64((z[j+1]-z[j])*nu)
		nbottom := z[j+w] + float64((z[j+w+1]-z[j+w])*nu)
		dh := ntop + float64((nbottom-ntop)*nv) - height
		drop := -dh / hp.cell
		c := float64(float64(float64(max(drop, hp.minSlope)*speed)*water) * hp.capacity)
		if dh > 0 || sediment > c {
			var d float64
			switch {
			case !depositable(g, ix, iy):
			case dh > 0:
				d = min(dh, sediment)
			default:
				d = float64((sediment - c) * hp.deposition)
			}
			sediment -= d
			b.Deposited += d
			z[i] += float64(float64(d*(1-u)) * (1 - v))
			z[i+1] += float64(float64(d*u) * (1 - v))
			z[i+w] += float64(float64(d*(1-u)) * v)
			z[i+w+1] += float64(float64(d*u) * v)
		} else if cx, cy := int(x+0.5), int(y+0.5); hp.erodible(g, cx, cy) {
			e := min(float64((c-sediment)*hp.erosion), -dh)
			sediment += e
			b.Eroded += e
			centre := cy*w + cx
			for k, off := range hp.brushOffsets {
				z[centre+off] -= float64(e * hp.brushWeights[k])
			}
		}
		speed = math.Sqrt(max(0, float64(speed*speed)+float64(drop*hp.gravity)))
		water = float64(water * hp.dry)
		x, y = nx, ny
	}
	b.Suspended += sediment
}
