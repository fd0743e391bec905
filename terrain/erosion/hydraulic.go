package erosion

import (
	"context"
	"math"

	"cordillera/internal/parallel"
	"cordillera/noise"
	"cordillera/terrain"
)

// Hydraulic erosion by droplets (Hans Theobald Beyer, "Implementation of a
// method for hydraulic erosion", TU München 2015). A droplet starts at a
// random point with speed 1, water 1 and no sediment, and each step:
//
//	g        = ∇h at its position, bilinear (as a slope, m/m)
//	dir      = dir·inertia − g·(1 − inertia), normalised (random if zero)
//	pos'     = pos + dir                      (one cell per step)
//	Δh       = h(pos') − h(pos)
//	c        = max(−Δh/cell, minSlope)·speed·water·capacity·cell
//	deposit    min(Δh, sediment) if Δh > 0 (fill the pit it climbs out of),
//	           else (sediment − c)·deposition if sediment > c,
//	           bilinearly at pos;
//	erode      min((c − sediment)·erosion, −Δh) otherwise, over a brush of
//	           the given radius around pos with weights max(0, r − d), normalised;
//	speed    = √(speed² − Δh/cell·gravity)  (faster downhill)
//	water    = water·(1 − evaporation)
//
// and it dies after lifetime steps (its sediment is then Suspended) or when
// it leaves the map (CarriedOff). The map's outermost ring of samples is
// the base level: droplets cross it but neither erode nor deposit there,
// and the brush erodes only where it lies wholly inside that ring, so the
// outlets of valleys are never dug below the edge. Every height difference is divided by
// the cell size, so that Beyer's constants act on slopes and the result
// does not depend on the map's scale; capacity is in cell sizes.
//
// Parallel and deterministic: the map is cut into square tiles of side
// 2·reach, where reach = lifetime + radius + 2 bounds how far from its
// start a droplet can read or write (lifetime steps of at most one cell,
// the brush, the bilinear stencil's second cell, one for rounding). The
// tiles are run in four phases by the parity of their column and row, so
// that tiles of one phase are a whole tile apart and their droplets touch
// disjoint cells; within a tile droplets run one after another, each from a
// start drawn from a hash of (seed, round, tile, index). The droplet budget
// is spread over hydraulicRounds rounds of the four phases, so every
// region is eroded in turn. The result is the same on any number of cores.

// hydraulicRounds is how many times every tile is visited: enough that
// neighbouring tiles' droplets interleave, few enough that the barriers
// between phases cost nothing measurable.
const hydraulicRounds = 8

// hydraulicParams are the droplet constants in the units the loop uses.
type hydraulicParams struct {
	seed                                 int64
	droplets                             float64 // per cell
	inertia, minSlope, erosion           float64
	deposition, evaporation, gravity     float64
	capacity                             float64 // capacity·cell, in metres
	lifetime, radius                     int
	cell                                 float64   // metres between samples
	keep                                 float64   // 1 − inertia
	dry                                  float64   // 1 − evaporation
	brushOffsets                         []int     // brush cells relative to the centre, for a map of the grid's width
	brushDX, brushDY                     []int     // the same offsets as columns and rows
	brushWeights                         []float64 // normalised weights of a brush wholly inside the map
	tileSide, tilesX, tilesY, tilesTotal int
}

func newHydraulicParams(p terrain.Params, g *grid) *hydraulicParams {
	hp := &hydraulicParams{
		seed: p.Seed, droplets: p.HydraulicDroplets,
		inertia: p.HydraulicInertia, minSlope: p.HydraulicMinSlope, erosion: p.HydraulicErosion,
		deposition: p.HydraulicDeposition, evaporation: p.HydraulicEvaporation, gravity: p.HydraulicGravity,
		capacity: p.HydraulicCapacity * g.cell, lifetime: p.HydraulicLifetime, radius: max(p.HydraulicRadius, 1),
		cell: g.cell, keep: 1 - p.HydraulicInertia, dry: 1 - p.HydraulicEvaporation,
	}
	r := hp.radius
	var sum float64
	for dy := -(r - 1); dy <= r-1; dy++ {
		for dx := -(r - 1); dx <= r-1; dx++ {
			if raw := brushRaw(r, dx, dy); raw > 0 {
				hp.brushDX = append(hp.brushDX, dx)
				hp.brushDY = append(hp.brushDY, dy)
				hp.brushOffsets = append(hp.brushOffsets, dy*g.w+dx)
				hp.brushWeights = append(hp.brushWeights, raw)
				sum += raw
			}
		}
	}
	for k := range hp.brushWeights {
		hp.brushWeights[k] /= sum
	}
	hp.tileSide = 2 * (hp.lifetime + hp.radius + 2)
	hp.tilesX = (g.w + hp.tileSide - 1) / hp.tileSide
	hp.tilesY = (g.h + hp.tileSide - 1) / hp.tileSide
	hp.tilesTotal = hp.tilesX * hp.tilesY
	return hp
}

// brushRaw is Beyer's unnormalised brush weight max(0, r − d) of the cell
// (dx, dy) from the centre.
func brushRaw(r, dx, dy int) float64 {
	return max(0, float64(r)-math.Sqrt(float64(dx*dx+dy*dy)))
}

// tileStarts returns the rectangle in which tile t's droplets start: its
// cells, less the last column and row of the map, where the bilinear
// stencil has no second cell.
func (hp *hydraulicParams) tileStarts(g *grid, t int) (x0, y0, x1, y1 int) {
	tx, ty := t%hp.tilesX, t/hp.tilesX
	x0, y0 = tx*hp.tileSide, ty*hp.tileSide
	x1, y1 = min(x0+hp.tileSide, g.w-1), min(y0+hp.tileSide, g.h-1)
	return x0, y0, x1, y1
}

// tileDroplets is how many droplets tile t starts in round r: the tile's
// share of the density, spread evenly over the rounds.
func (hp *hydraulicParams) tileDroplets(g *grid, t, r int) int {
	x0, y0, x1, y1 := hp.tileStarts(g, t)
	if x1 <= x0 || y1 <= y0 {
		return 0
	}
	total := int64(math.Round(hp.droplets * float64((x1-x0)*(y1-y0))))
	return int(total*int64(r+1)/hydraulicRounds - total*int64(r)/hydraulicRounds)
}

// phaseTiles lists the tiles of phase ph (0–3) in row-major order: those
// whose column has parity ph&1 and whose row has parity ph>>1.
func (hp *hydraulicParams) phaseTiles(ph int) []int {
	var ts []int
	for ty := ph >> 1; ty < hp.tilesY; ty += 2 {
		for tx := ph & 1; tx < hp.tilesX; tx += 2 {
			ts = append(ts, ty*hp.tilesX+tx)
		}
	}
	return ts
}

// dropletKey is the droplet's random identity, from which its start and
// any random turns follow.
func dropletKey(seed int64, round, tile, index int) uint64 {
	return noise.SplitMix64(noise.SplitMix64(noise.SplitMix64(uint64(seed)^0x6a09e667f3bcc908)+uint64(round)) ^ noise.SplitMix64(uint64(tile)+0x3c6ef372fe94f82b) + uint64(index))
}

// unit maps a hash onto [0, 1).
func unit(x uint64) float64 { return float64(x>>11) / (1 << 53) }

// dropletStart is where a droplet with the given key starts in the
// rectangle [x0, x1)×[y0, y1).
func dropletStart(key uint64, x0, y0, x1, y1 int) (x, y float64) {
	x = float64(x0) + float64(unit(noise.SplitMix64(key^1))*float64(x1-x0))
	y = float64(y0) + float64(unit(noise.SplitMix64(key^2))*float64(y1-y0))
	// Rounding may land exactly on x1; stay inside.
	return min(x, math.Nextafter(float64(x1), 0)), min(y, math.Nextafter(float64(y1), 0))
}

// randomDirection is the unit direction a droplet takes on a flat spot,
// Beyer's choice when the gradient and the inertia cancel.
func randomDirection(key uint64, step int) (dx, dy float64) {
	a := 2 * math.Pi * unit(noise.SplitMix64(key^uint64(step+3)))
	return math.Cos(a), math.Sin(a)
}

// Hydraulic erodes m with droplets as described above, on all cores.
func Hydraulic(ctx context.Context, m *terrain.Heightmap, p terrain.Params, opt Options) (Budget, error) {
	return single(ctx, m, p, opt, func(ctx context.Context, opt Options) (Budget, error) {
		return hydraulic(ctx, m, p, opt, false)
	})
}

// HydraulicReference is Hydraulic done the straightforward way: the same
// droplets in the same order on one goroutine, with the brush weighed
// afresh at every step. It is the oracle the fast path is tested against;
// its result is identical bit for bit.
func HydraulicReference(ctx context.Context, m *terrain.Heightmap, p terrain.Params, opt Options) (Budget, error) {
	return single(ctx, m, p, opt, func(ctx context.Context, opt Options) (Budget, error) {
		return hydraulic(ctx, m, p, opt, true)
	})
}

// hydraulic runs the rounds and phases, fast or as the reference.
func hydraulic(ctx context.Context, m *terrain.Heightmap, p terrain.Params, opt Options, reference bool) (Budget, error) {
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
					if reference {
						g.dropletReference(x, y, key, hp, &b)
					} else {
						g.droplet(x, y, key, hp, &b, nil)
					}
				}
				tileBudget[t] = b
			}
			var err error
			if reference {
				for k := range tiles {
					runTile(k)
				}
				err = ctx.Err()
			} else {
				err = parallel.Each(ctx, len(tiles), runTile)
			}
			if err != nil {
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

// droplet runs one droplet from (x, y), adding what it moves to b and,
// if path is not nil, recording its steps. Heights and sediment are in
// metres; b in metres of height over one cell.
func (g *grid) droplet(x, y float64, key uint64, hp *hydraulicParams, b *Budget, path *DropletPath) {
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
		if path != nil {
			*path = append(*path, [3]float64{x * g.cell, height, y * g.cell})
		}
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
	if path != nil {
		*path = append(*path, [3]float64{x * g.cell, g.bilinear(x, y), y * g.cell})
	}
	b.Suspended += sediment
}

// inside reports whether a droplet at (x, y) is on the map, where the
// bilinear stencil has its second sample.
func (hp *hydraulicParams) inside(g *grid, x, y float64) bool {
	return x >= 0 && y >= 0 && x < float64(g.w-1) && y < float64(g.h-1)
}

// erodible reports whether the brush centred on sample (cx, cy) lies
// wholly on the map and off its outermost ring of samples. That ring is
// the base level water leaves the map through: droplets cross it but never
// lower or raise it, so the outlets of valleys are not dug into pits below
// the map's edge (if they were, every droplet leaving the map would lower
// the last samples it crossed, and keep lowering them).
func (hp *hydraulicParams) erodible(g *grid, cx, cy int) bool {
	r := hp.radius
	return cx >= r && cy >= r && cx+r < g.w && cy+r < g.h
}

// depositable reports whether the four samples around (ix, iy) lie off the
// map's outermost ring.
func depositable(g *grid, ix, iy int) bool {
	return ix >= 1 && iy >= 1 && ix+2 < g.w && iy+2 < g.h
}

// bilinear is the height at (x, y), inside [0, w−1]×[0, h−1].
func (g *grid) bilinear(x, y float64) float64 {
	ix, iy := min(int(x), g.w-2), min(int(y), g.h-2)
	u, v := x-float64(ix), y-float64(iy)
	i := iy*g.w + ix
	top := g.z[i] + float64((g.z[i+1]-g.z[i])*u)
	bottom := g.z[i+g.w] + float64((g.z[i+g.w+1]-g.z[i+g.w])*u)
	return top + float64((bottom-top)*v)
}

// DropletPath is the track of one droplet: world x, height and world z
// (x·CellSize, metres, row·CellSize) at each step.
type DropletPath [][3]float64

// TraceDroplets runs k droplets one after another from starts drawn from
// seed, eroding m as they go, and returns their tracks and what they moved:
// the droplet lesson shows them. The droplet constants are p's.
func TraceDroplets(m *terrain.Heightmap, p terrain.Params, k int, seed int64) ([]DropletPath, Budget) {
	if m.Width < 2 || m.Height < 2 {
		return nil, Budget{}
	}
	g := newGrid(m)
	hp := newHydraulicParams(p, g)
	paths := make([]DropletPath, k)
	var b Budget
	for i := range paths {
		key := dropletKey(seed, -1, 0, i)
		x, y := dropletStart(key, 0, 0, g.w-1, g.h-1)
		g.droplet(x, y, key, hp, &b, &paths[i])
	}
	g.store(m)
	return paths, b.scaled(g.cellArea())
}

// scaled multiplies every entry by f: metres over one cell to m³.
func (b Budget) scaled(f float64) Budget {
	return Budget{b.Eroded * f, b.Deposited * f, b.Suspended * f, b.CarriedOff * f}
}
