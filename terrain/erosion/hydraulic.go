package erosion

import (
	"context"
	"math"
	"unsafe"

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
// start drawn from a hash of (seed, round, tile, index). A core runs a few
// tiles of a phase at once, a step of each in turn (runLanes), which
// changes nothing in the result either. The droplet budget
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
	brushRows                            []brushRow
	brushQuads, brushSingles             []int     // the rows cut into runs of four cells and single cells: their first cells relative to the centre
	quadWeights, singleWeights           []float64 // their weights, four a run
	brushLo, brushHi                     int       // the brush's first and last cell relative to the centre
	xMax, yMax                           float64   // w−1 and h−1: a droplet is on the map short of them
	tileSide, tilesX, tilesY, tilesTotal int
	// perCell is 1/cell where that is exact (cell a power of two): then
	// v·perCell rounds as v/cell does, and a multiplication is much
	// quicker than a division on the droplet's critical path.
	perCell  float64
	cellPow2 bool
}

// brushRow is one row of the brush: its cells from offset off (relative
// to the centre, for a map of the grid's width) and their weights, in
// brushWeights[k0:k0+n]. The brush is a disc, so each row's cells lie
// side by side.
type brushRow struct{ off, k0, n int }

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
		if k == 0 || hp.brushDY[k] != hp.brushDY[k-1] {
			hp.brushRows = append(hp.brushRows, brushRow{off: hp.brushOffsets[k], k0: k})
		}
		hp.brushRows[len(hp.brushRows)-1].n++
	}
	for _, br := range hp.brushRows {
		k := 0
		for ; k+4 <= br.n; k += 4 {
			hp.brushQuads = append(hp.brushQuads, br.off+k)
			hp.quadWeights = append(hp.quadWeights, hp.brushWeights[br.k0+k:br.k0+k+4]...)
		}
		for ; k < br.n; k++ {
			hp.brushSingles = append(hp.brushSingles, br.off+k)
			hp.singleWeights = append(hp.singleWeights, hp.brushWeights[br.k0+k])
		}
	}
	hp.brushLo, hp.brushHi = hp.brushOffsets[0], hp.brushOffsets[len(hp.brushOffsets)-1]
	hp.xMax, hp.yMax = float64(g.w-1), float64(g.h-1)
	if frac, _ := math.Frexp(g.cell); frac == 0.5 {
		hp.perCell, hp.cellPow2 = 1/g.cell, true
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
			var err error
			if reference {
				for _, t := range tiles {
					x0, y0, x1, y1 := hp.tileStarts(g, t)
					var b Budget
					for i := range hp.tileDroplets(g, t, r) {
						if i%256 == 0 && ctx.Err() != nil {
							break
						}
						key := dropletKey(hp.seed, r, t, i)
						x, y := dropletStart(key, x0, y0, x1, y1)
						g.dropletReference(x, y, key, hp, &b)
					}
					tileBudget[t] = b
				}
				err = ctx.Err()
			} else {
				// Fewer lanes where there are too few tiles to keep
				// every core busy with hydraulicLanes each.
				lanes := max(1, min(hydraulicLanes, len(tiles)/parallel.Workers(ctx)))
				groups := (len(tiles) + lanes - 1) / lanes
				err = parallel.Each(ctx, groups, func(k int) {
					g.runLanes(ctx, tiles[k*lanes:min((k+1)*lanes, len(tiles))], r, hp, tileBudget)
				})
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

// hydraulicLanes is how many tiles' droplets one core runs at once: it
// aims each of them (aim) and then moves each (move), a step at a time. A
// droplet's step is a chain of dependent operations (its position, the
// heights there, the slope, a division and a square root, the next
// position and heights, the erosion the next step reads back), so one
// droplet leaves most of the core idle; droplets of different tiles of one
// phase touch disjoint cells, so interleaving them changes nothing in the
// result, while the core overlaps their chains.
const hydraulicLanes = 4

// lane is one of the droplets a core runs interleaved: the droplet in
// flight, its tile's rectangle of starts, budget and droplets.
type lane struct {
	d              drop
	mv             move
	on             bool // the droplet's aim stays on the map
	b              Budget
	tile, i, n     int
	x0, y0, x1, y1 int
}

// runLanes runs round r's droplets of tiles (of one phase, at most
// hydraulicLanes), interleaved step by step, each tile's droplets one
// after another in order, and sets each tile's budget.
func (g *grid) runLanes(ctx context.Context, tiles []int, r int, hp *hydraulicParams, tileBudget []Budget) {
	var lanes [hydraulicLanes]lane
	live := lanes[:0]
	// launch starts ln's next droplet, and reports false when its tile has
	// none left (or the run is cancelled).
	launch := func(ln *lane) bool {
		for ln.i < ln.n {
			i := ln.i
			ln.i++
			if i%256 == 0 && ctx.Err() != nil {
				return false
			}
			key := dropletKey(hp.seed, r, ln.tile, i)
			x, y := dropletStart(key, ln.x0, ln.y0, ln.x1, ln.y1)
			if hp.inside(g, x, y) {
				ln.d = drop{x: x, y: y, speed: 1, water: 1, key: key}
				return true
			}
		}
		tileBudget[ln.tile] = ln.b
		return false
	}
	for _, t := range tiles {
		ln := &lanes[len(live)]
		*ln = lane{tile: t, n: hp.tileDroplets(g, t, r)}
		ln.x0, ln.y0, ln.x1, ln.y1 = hp.tileStarts(g, t)
		if launch(ln) {
			live = live[:len(live)+1]
		}
	}
	for len(live) > 0 {
		for k := range live {
			live[k].on = g.aim(&live[k].d, hp, &live[k].mv)
		}
		for k := 0; k < len(live); k++ {
			ln := &live[k]
			if ln.on {
				g.move(&ln.d, hp, &ln.mv, &ln.b)
				if ln.d.step < hp.lifetime {
					continue
				}
				ln.b.Suspended += ln.d.sediment
			} else {
				ln.b.CarriedOff += ln.d.sediment
			}
			if !launch(ln) {
				// The lane's tile is done: the last live lane, aimed and
				// not yet moved, takes its place.
				live[k] = live[len(live)-1]
				live = live[:len(live)-1]
				k--
			}
		}
	}
}

// drop is a droplet in flight: its position, direction, load, speed and
// water, its random key and the steps it has taken.
type drop struct {
	x, y, dirX, dirY       float64
	sediment, speed, water float64
	key                    uint64
	step                   int
}

// droplet runs one droplet from (x, y), adding what it moves to b and,
// if path is not nil, recording its steps. Heights and sediment are in
// metres; b in metres of height over one cell.
func (g *grid) droplet(x, y float64, key uint64, hp *hydraulicParams, b *Budget, path *DropletPath) {
	if !hp.inside(g, x, y) {
		return
	}
	d := drop{x: x, y: y, speed: 1, water: 1, key: key}
	for d.step < hp.lifetime {
		if path != nil {
			*path = append(*path, [3]float64{d.x * g.cell, g.bilinear(d.x, d.y), d.y * g.cell})
		}
		if !g.step(&d, hp, b) {
			return
		}
	}
	if path != nil {
		*path = append(*path, [3]float64{d.x * g.cell, g.bilinear(d.x, d.y), d.y * g.cell})
	}
	b.Suspended += d.sediment
}

// step moves d one step, eroding or depositing as it goes, and adds what
// it moves to b. It reports false when the droplet left the map, its
// sediment carried off.
func (g *grid) step(d *drop, hp *hydraulicParams, b *Budget) bool {
	var mv move
	if !g.aim(d, hp, &mv) {
		b.CarriedOff += d.sediment
		return false
	}
	g.move(d, hp, &mv, b)
	return true
}

// move is a droplet's step as aim finds it: the cell it leaves and where
// in it, its height change, slope and capacity, and where it goes.
type move struct {
	ix, iy       int
	u, v         float64
	dh, slope, c float64
	nextX, nextY float64
}

// aim is the first half of a step, which only reads the map: the slope
// under d, its new direction (kept in d), where it goes and the height
// change and capacity there, into mv. It reports false when the droplet
// leaves the map. The long chain of a step (the heights, a division, a
// square root, the next heights, another division) is here, so a core
// that aims several droplets before moving them works on their chains at
// once.
func (g *grid) aim(d *drop, hp *hydraulicParams, mv *move) bool {
	w, z := g.w, g.z
	x, y := d.x, d.y
	ix, iy := int(x), int(y)
	u, v := x-float64(ix), y-float64(iy)
	h00, h10, h01, h11 := cell4(z, iy*w+ix, w)
	top := h00 + float64((h10-h00)*u)
	bottom := h01 + float64((h11-h01)*u)
	height := top + float64((bottom-top)*v)
	gx := hp.slope(float64((h10-h00)*(1-v)) + float64((h11-h01)*v))
	gy := hp.slope(float64((h01-h00)*(1-u)) + float64((h11-h10)*u))
	dirX := float64(d.dirX*hp.inertia) - float64(gx*hp.keep)
	dirY := float64(d.dirY*hp.inertia) - float64(gy*hp.keep)
	if l := math.Sqrt(float64(dirX*dirX) + float64(dirY*dirY)); l > 0 {
		dirX, dirY = dirX/l, dirY/l
	} else {
		dirX, dirY = randomDirection(d.key, d.step)
	}
	d.dirX, d.dirY = dirX, dirY
	nx, ny := x+dirX, y+dirY
	if !hp.inside(g, nx, ny) {
		return false
	}
	jx, jy := int(nx), int(ny)
	nu, nv := nx-float64(jx), ny-float64(jy)
	n00, n10, n01, n11 := cell4(z, jy*w+jx, w)
	ntop := n00 + float64((n10-n00)*nu)
	nbottom := n01 + float64((n11-n01)*nu)
	dh := ntop + float64((nbottom-ntop)*nv) - height
	slope := hp.slope(-dh)
	c := float64(float64(float64(max(slope, hp.minSlope)*d.speed)*d.water) * hp.capacity)
	*mv = move{ix: ix, iy: iy, u: u, v: v, dh: dh, slope: slope, c: c, nextX: nx, nextY: ny}
	return true
}

// cell4 returns the heights of the grid cell whose first sample is i:
// samples i, i+1, i+w and i+w+1. The caller has checked that the cell lies
// on the map (inside): read without bounds checks, which cost a tenth of
// aim's instructions.
func cell4(z []float64, i, w int) (h00, h10, h01, h11 float64) {
	p := unsafe.Add(unsafe.Pointer(unsafe.SliceData(z)), uintptr(i)*8)
	q := unsafe.Add(p, uintptr(w)*8)
	return *(*float64)(p), *(*float64)(unsafe.Add(p, 8)), *(*float64)(q), *(*float64)(unsafe.Add(q, 8))
}

// add4 adds a, b, c and d to the heights of the grid cell whose first
// sample is i, as cell4 reads them, without bounds checks.
func add4(z []float64, i, w int, a, b, c, d float64) {
	p := unsafe.Add(unsafe.Pointer(unsafe.SliceData(z)), uintptr(i)*8)
	q := unsafe.Add(p, uintptr(w)*8)
	*(*float64)(p) += a
	*(*float64)(unsafe.Add(p, 8)) += b
	*(*float64)(q) += c
	*(*float64)(unsafe.Add(q, 8)) += d
}

// move is the second half of a step: d erodes or deposits as mv says,
// adding what it moves to b, and goes on.
func (g *grid) move(d *drop, hp *hydraulicParams, mv *move, b *Budget) {
	w, z := g.w, g.z
	dh, c, u, v := mv.dh, mv.c, mv.u, mv.v
	sediment, speed := d.sediment, d.speed
	if dh > 0 || sediment > c {
		var dep float64
		switch {
		case !depositable(g, mv.ix, mv.iy):
		case dh > 0:
			dep = min(dh, sediment)
		default:
			dep = float64((sediment - c) * hp.deposition)
		}
		sediment -= dep
		b.Deposited += dep
		add4(z, mv.iy*w+mv.ix, w, float64(float64(dep*(1-u))*(1-v)), float64(float64(dep*u)*(1-v)),
			float64(float64(dep*(1-u))*v), float64(float64(dep*u)*v))
	} else if cx, cy := int(d.x+0.5), int(d.y+0.5); hp.erodible(g, cx, cy) {
		e := min(float64((c-sediment)*hp.erosion), -dh)
		sediment += e
		b.Eroded += e
		hp.erodeBrush(z, cy*w+cx, e)
	}
	d.sediment = sediment
	d.speed = math.Sqrt(max(0, float64(speed*speed)+float64(mv.slope*hp.gravity)))
	d.water = float64(d.water * hp.dry)
	d.x, d.y = mv.nextX, mv.nextY
	d.step++
}

// erodeBrushGo takes e·weight from each cell of the brush around sample
// centre, which lies wholly on the map, a row at a time.
func (hp *hydraulicParams) erodeBrushGo(z []float64, centre int, e float64) {
	for _, br := range hp.brushRows {
		cells := z[centre+br.off : centre+br.off+br.n]
		weights := hp.brushWeights[br.k0 : br.k0+len(cells)]
		for k := range cells {
			cells[k] -= float64(e * weights[k])
		}
	}
}

// slope is a height difference v over one cell as a slope, v/cell: by
// the exact reciprocal where there is one.
func (hp *hydraulicParams) slope(v float64) float64 {
	if hp.cellPow2 {
		return v * hp.perCell
	}
	return v / hp.cell
}

// inside reports whether a droplet at (x, y) is on the map, where the
// bilinear stencil has its second sample.
func (hp *hydraulicParams) inside(g *grid, x, y float64) bool {
	return x >= 0 && y >= 0 && x < hp.xMax && y < hp.yMax
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
