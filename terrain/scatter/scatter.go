// Package scatter places trees and rocks, so that a person in the explorer
// has something of a known size beside the hills. Placement follows the
// land cover the terrain shader paints with materials by rules
// (shaders/terrain.kage's ruleWeights), so that trees stand on the ground
// painted as forest and rocks on the scree:
//
//   - trees only below the tree line, which lies 650–900 m below the snow
//     line (the shader's forest fades over that band; in the Alps about
//     2100 m against 2900 m); dense in the forest patches the shader
//     paints with its value noise, a few in the open meadows between;
//   - none on slopes steeper than TreeSlopeLimit (the shader's rock starts
//     at about 36°), where the slope is the rules' (ruleNy: the ground's
//     own mixed with the landform's), none under water or on the shore;
//   - more in moist ground: hollows and valley floors (concave ground,
//     where water gathers), fewer on convex crests;
//   - broadleaf trees low in the belt with stands of conifers among them,
//     conifers in its upper part, smaller
//     towards the tree line;
//   - rocks on the scree, which the shader paints only at the foot of
//     rock (in hollows below ground that is rock uphill), a few on the
//     rock itself; none on snow or under water.
//
// Every candidate is a cell of a jittered grid whose choices come from a
// hash of the seed and the cell, never a shared random source: the same
// seed and map always give the same plants, and any cell can be placed
// on its own.
package scatter

import (
	"context"
	"errors"
	"math"
	"runtime"
	"slices"
	"sync"

	"cordillera/terrain"
)

// PlantKind is what stands at a scatter point.
type PlantKind uint8

// The kinds of plants and stones.
const (
	Conifer PlantKind = iota
	Broadleaf
	Rock
)

// Plant is one tree or rock: its foot on the ground in world units.
type Plant struct {
	X, Y, Z float32
	Height  float32 // world units: a tree's top above its foot, a rock's height
	Width   float32 // world units across: a tree's crown, a rock's breadth
	Kind    PlantKind
	Variant uint8 // which of the drawings of its kind, 0–255
	// Rank is uniform in [0, 1): far away, where only a share k of the
	// plants is drawn, those of rank below k are; a plant fades out as k
	// falls through its rank instead of popping.
	Rank float32
	Hash uint32 // the cell's hash, for any further variation (colour)
}

// Rules are the land cover the plants follow.
type Rules struct {
	// SnowLine is the height, world units (metres) above the map's zero,
	// where snow starts on level ground; the tree line lies TreeLineGap
	// below it. It may lie far above the map: a few hundred metres of
	// lowland hills under an alpine climate's 2800 m are forest to the top.
	SnowLine float64
	// Water is the water level, world units; Wet false: no water.
	Water float64
	Wet   bool
	// TreeSpacing and RockSpacing are the candidate grids' cells, world
	// units: at most one tree or rock stands in each. 0 takes the defaults.
	TreeSpacing, RockSpacing float64
	Seed                     int64
}

// The land-cover constants, in metres (world units), shared with the
// terrain shader's materials by rules.
const (
	// TreeLineGap is how far below the snow line the last trees stand
	// (the shader's forest is gone there); it thins out from
	// TreeLineGap+TreeLineBand below the snow line up to it.
	TreeLineGap  = 650.0
	TreeLineBand = 250.0
	// TreeSlopeLimit is the steepest ground trees stand on, degrees: the
	// shader's rock starts at about 35°; TreeSlopeThin below it they thin out.
	TreeSlopeLimit = 33.0
	TreeSlopeThin  = 8.0
	// TreeFaceLimit is the steepest the map's surface under a tree's foot
	// may be, degrees, where the vertex normals (TreeSlopeLimit) average
	// it over the cells around: steep enough to leave the roughness of a
	// map of metre cells under the trees, which stand on the mean slope
	// of their few metres, but not a cliff either side of a sharp crest.
	TreeFaceLimit = 45.0
	// ShoreMargin is how far above the water level the first trees stand.
	ShoreMargin = 2.0
	// DefaultTreeSpacing and DefaultRockSpacing are the candidate grids'
	// cells: a crown is about 5–9 m across, so a dense forest of cells
	// 7 m wide closes its canopy.
	DefaultTreeSpacing = 7.0
	DefaultRockSpacing = 5.0
	// MaxScatterCells bounds a candidate grid's side: on large maps the
	// cells widen so that placing stays tens of milliseconds and the
	// plants a few hundred thousand at most.
	MaxScatterCells = 1024
)

// TreeLine is the height, world units, above which no tree stands for a
// snow line at height snowLine (world units): a rule in metres, whatever
// the map's relief.
func TreeLine(snowLine float64) float64 {
	return snowLine - TreeLineGap
}

// Scatter is the plants on m by the rules: its trees and rocks in rows of
// tiles (ScatterTiles), and the tiles' layout. normals are m's vertex
// normals (terrain.Normals). It returns ctx.Err() soon after ctx is done.
func Place(ctx context.Context, m *terrain.Heightmap, normals []float32, r Rules) (*Set, error) {
	if m.Width < 3 || m.Height < 3 {
		return &Set{}, nil
	}
	if len(normals) != 3*m.Width*m.Height {
		return nil, errors.New("scatter: normals do not match the map")
	}
	ts, rs := r.TreeSpacing, r.RockSpacing
	if ts <= 0 {
		ts = DefaultTreeSpacing
	}
	if rs <= 0 {
		rs = DefaultRockSpacing
	}
	w, d := m.Extent()
	side := max(w, d)
	ts = max(ts, side/MaxScatterCells)
	rs = max(rs, side/MaxScatterCells)
	s := &Set{Tile: scatterTileCells * ts}
	s.Cols, s.Rows = int(math.Ceil(w/s.Tile)), int(math.Ceil(d/s.Tile))
	p := placer{m: m, normals: normals, r: r, ext: float32(side)}
	p.treeLine = TreeLine(r.SnowLine)
	p.cosLimit = math.Cos(TreeSlopeLimit * math.Pi / 180)
	p.cosThin = math.Cos((TreeSlopeLimit - TreeSlopeThin) * math.Pi / 180)
	p.cosFace = math.Cos(TreeFaceLimit * math.Pi / 180)
	seed := uint64(r.Seed)
	// Bands of candidate rows on all cores, each keeping its plants in
	// candidate order; the tiles are then filled band after band, so the
	// result does not depend on the number of cores.
	type band struct {
		plants []Plant
		tiles  []int32
	}
	var bands []band
	for pass, sp := range []float64{ts, rs} {
		nx, nz := int(w/sp), int(d/sp)
		workers := max(1, min(runtime.GOMAXPROCS(0), nz/16))
		part := make([]band, workers)
		var wg sync.WaitGroup
		for k := range part {
			wg.Add(1)
			go func() {
				defer wg.Done()
				b := &part[k]
				for j := k * nz / workers; j < (k+1)*nz/workers; j++ {
					if j%32 == 0 && ctx.Err() != nil {
						return
					}
					for i := 0; i < nx; i++ {
						h := cellHash(seed+uint64(pass)*0x9e3779b97f4a7c15, i, j)
						x := (float64(i) + unit(h, 0)) * sp
						z := (float64(j) + unit(h, 1)) * sp
						var pl Plant
						var ok bool
						if pass == 0 {
							pl, ok = p.tree(x, z, h)
						} else {
							pl, ok = p.rock(x, z, h)
						}
						if ok {
							b.plants = append(b.plants, pl)
							b.tiles = append(b.tiles, int32(min(int(z/s.Tile), s.Rows-1)*s.Cols+min(int(x/s.Tile), s.Cols-1)))
						}
					}
				}
			}()
		}
		wg.Wait()
		bands = append(bands, part...)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Counting sort by tile.
	s.Start = make([]int32, s.Cols*s.Rows+1)
	for _, b := range bands {
		for _, t := range b.tiles {
			s.Start[t+1]++
		}
	}
	for t := 1; t < len(s.Start); t++ {
		s.Start[t] += s.Start[t-1]
	}
	s.Plants = make([]Plant, s.Start[len(s.Start)-1])
	next := slices.Clone(s.Start)
	for _, b := range bands {
		for i, t := range b.tiles {
			s.Plants[next[t]] = b.plants[i]
			next[t]++
		}
	}
	return s, nil
}

// scatterTileCells is a tile's side in tree cells.
const scatterTileCells = 16

// Set is the plants of a map by square tiles, so that the explorer
// finds those near the camera without looking at all of them.
type Set struct {
	Plants     []Plant
	Tile       float64 // a tile's side, world units
	Cols, Rows int     // tiles across x and z
	// Start[t] is the index of tile t's first plant (tile t = row·Cols +
	// col); Start[Cols·Rows] is len(Plants).
	Start []int32
}

// TilePlants is tile (col, row)'s plants.
func (s *Set) TilePlants(col, row int) []Plant {
	t := row*s.Cols + col
	return s.Plants[s.Start[t]:s.Start[t+1]]
}

// placer decides the candidates of one map.
type placer struct {
	m        *terrain.Heightmap
	normals  []float32
	r        Rules
	ext      float32
	treeLine float64
	// The cosines of TreeSlopeLimit and of TreeSlopeThin less, and of
	// TreeFaceLimit.
	cosLimit, cosThin, cosFace float64
}

// ground is the height and normal at world (x, z): bilinear height,
// the nearest sample's normal.
func (p *placer) ground(x, z float64) (float64, [3]float32) {
	m := p.m
	y := m.GroundHeight(x, z)
	c := min(max(int(x/m.CellSize+0.5), 0), m.Width-1)
	r := min(max(int(z/m.CellSize+0.5), 0), m.Height-1)
	k := 3 * (r*m.Width + c)
	return y, [3]float32{p.normals[k], p.normals[k+1], p.normals[k+2]}
}

// faceCos is the cosine of the steepest slope of the map's bilinear
// surface within a tenth of a cell of world (x, z), the slope in metres
// over metres (the cell size the run, the samples times the vertical scale the rise): over a cell the gradient is
// steepest at a corner, where it is the two edges' rise over the cell.
func (p *placer) faceCos(x, z float64) float64 {
	m := p.m
	cs := m.CellSize
	h := func(c, r int) float64 {
		c, r = min(max(c, 0), m.Width-1), min(max(r, 0), m.Height-1)
		return float64(m.Samples[r*m.Width+c]) * m.VerticalScale
	}
	steepest := 0.0
	for r := int(math.Floor(z/cs - 0.1)); r <= int(math.Floor(z/cs+0.1)); r++ {
		for c := int(math.Floor(x/cs - 0.1)); c <= int(math.Floor(x/cs+0.1)); c++ {
			h00, h10, h01, h11 := h(c, r), h(c+1, r), h(c, r+1), h(c+1, r+1)
			for _, g := range [4][2]float64{{h10 - h00, h01 - h00}, {h10 - h00, h11 - h10}, {h11 - h01, h01 - h00}, {h11 - h01, h11 - h10}} {
				steepest = max(steepest, math.Hypot(g[0], g[1])/cs)
			}
		}
	}
	return 1 / math.Sqrt(1+steepest*steepest)
}

// concavity is how much lower (world units) the ground at (x, z) lies
// than the mean of the ground a distance span around it, over span: positive
// in hollows and on valley floors, where water gathers, negative on crests.
func (p *placer) concavity(x, z, y, span float64) float64 {
	m := p.m
	mean := (m.GroundHeight(x-span, z) + m.GroundHeight(x+span, z) + m.GroundHeight(x, z-span) + m.GroundHeight(x, z+span)) / 4
	return (mean - y) / span
}

// landNoise is the shader's land-cover noise at world (x, z): the forest
// patches where it exceeds about 0.5 (shaders/terrain.kage ruleWeights).
func (p *placer) landNoise(x, z float64) float64 {
	qx, qz := float32(x)/p.ext, float32(z)/p.ext
	return 0.65*valueNoise21(qx*23, qz*23) + 0.35*valueNoise21(qx*97+17.3, qz*97+17.3)
}

// tree decides the tree candidate at (x, z).
func (p *placer) tree(x, z float64, h uint64) (Plant, bool) {
	y, n := p.ground(x, z)
	if p.r.Wet && y < p.r.Water+ShoreMargin {
		return Plant{}, false
	}
	// The belt: full below TreeLineBand under the tree line, none above it.
	belt := 1 - smoothstep(p.treeLine-TreeLineBand, p.treeLine, y)
	if belt <= 0 {
		return Plant{}, false
	}
	ny := p.ruleNy(x, z, float64(n[1]))
	if ny < p.cosLimit {
		return Plant{}, false
	}
	slope := smoothstep(p.cosLimit, p.cosThin, ny)
	// The cheap factors first: most candidates fail on them.
	draw := unit(h, 2)
	if draw >= belt*slope*0.9 {
		return Plant{}, false
	}
	// The faces under the foot too: on a sharp crest the vertex normal,
	// the mean of the faces either side, points up, and a tree stood on
	// the crest hung over both cliffs.
	if p.faceCos(x, z) < p.cosFace {
		return Plant{}, false
	}
	noise := p.landNoise(x, z)
	forest := smoothstep(0.44, 0.64, noise)
	if draw >= belt*slope*(0.08+0.82*forest) {
		return Plant{}, false
	}
	// Moist ground: concave hollows hold more trees, convex crests fewer.
	moist := clamp01(0.75 + 6*p.concavity(x, z, y, 3*DefaultTreeSpacing))
	if draw >= belt*slope*(0.08+0.82*forest)*(0.45+0.55*moist) {
		return Plant{}, false
	}
	// Conifers in the belt's upper 600 m, broadleaf below, mixed between.
	up := p.treeLine - y
	coniferShare := 1 - smoothstep(350, 750, up+120*(noise-0.5)*4)
	// Low down, stands of spruce and pine among the broadleaf woods, where
	// the fine noise says so: a lowland forest is mixed, not one kind.
	coniferShare = max(coniferShare, 0.4*smoothstep(0.45, 0.7, noise))
	kind := Broadleaf
	if unit(h, 3) < coniferShare {
		kind = Conifer
	}
	// Stunted towards the tree line.
	stunt := 0.45 + 0.55*smoothstep(0, 300, up)
	g := unit(h, 4)
	var height, width float64
	if kind == Conifer {
		height = (13 + 15*g*g) * stunt
		width = height * (0.36 + 0.12*unit(h, 5))
	} else {
		height = (10 + 11*g) * stunt
		width = height * (0.65 + 0.25*unit(h, 5))
	}
	return Plant{X: float32(x), Y: float32(y), Z: float32(z), Height: float32(height), Width: float32(width),
		Kind: kind, Variant: uint8(h >> 40), Rank: float32(unit(h, 6)), Hash: uint32(h >> 8)}, true
}

// rock decides the rock candidate at (x, z).
func (p *placer) rock(x, z float64, h uint64) (Plant, bool) {
	y, n := p.ground(x, z)
	if p.r.Wet && y < p.r.Water+ShoreMargin {
		return Plant{}, false
	}
	draw := unit(h, 2)
	if draw >= 0.6 {
		return Plant{}, false
	}
	above := smoothstep(p.treeLine-TreeLineBand, p.treeLine, y)
	score := p.rockScore(x, z, float64(n[1]), above)
	rock := smoothstep(0.19, 0.31, score)
	// Scree is an apron at the foot of the rock: in hollows (the shader's
	// occlusion concavity, here the ground's own) below ground that is
	// rock a few cells uphill, not on every slope of its steepness.
	scree := 0.0
	if rock < 1 && draw < 0.6*0.8 {
		gx, gz := -float64(n[0]), -float64(n[2]) // uphill
		if l, hollow := math.Hypot(gx, gz), p.concavity(x, z, y, 2*DefaultRockSpacing); l > 1e-6 && hollow > 0.02 {
			ux, uz := x+gx/l*3*DefaultRockSpacing, z+gz/l*3*DefaultRockSpacing
			uy, un := p.ground(ux, uz)
			foot := smoothstep(0.02, 0.06, hollow) *
				smoothstep(0.19, 0.31, p.rockScore(ux, uz, float64(un[1]), smoothstep(p.treeLine-TreeLineBand, p.treeLine, uy)))
			scree = smoothstep(0.10, 0.19, score) * (1 - rock) * (0.35 + 0.45*above) * foot
		}
	}
	if draw >= 0.6*scree+0.06*rock {
		return Plant{}, false
	}
	// None on the snow: the shader's snow on level ground where it lies
	// thickest (its line wanders with the same noise).
	line := p.r.SnowLine + 300*(p.landNoise(x, z)-0.5)
	if smoothstep(line-60, line+120, y) > 0.3 {
		return Plant{}, false
	}
	g := unit(h, 4)
	size := 0.8 + 4.2*g*g*g // most small, a few boulders
	return Plant{X: float32(x), Y: float32(y), Z: float32(z), Height: float32(size * (0.55 + 0.3*unit(h, 5))), Width: float32(size),
		Kind: Rock, Variant: uint8(h >> 40), Rank: float32(unit(h, 6)), Hash: uint32(h >> 8)}, true
}

// BroadMetres is the landform's scale, metres: the width of the boxes
// over which the shader (broadMetres in shaders/terrain.kage) measures
// the landform's slope that its rock rules mix with the ground's own.
const BroadMetres = 24.0

// ruleNy is the cosine of the slope the shader's rules read at world
// (x, z), where the ground's own normal has y component ny: the mean of
// the tangents of the ground's slope (0.6) and the landform's over
// BroadMetres (0.4), so that a steep face is rock over its small bumps
// and a steep bump on gentle ground is not.
func (p *placer) ruleNy(x, z, ny float64) float64 {
	m := p.m
	w, d := m.Extent()
	r := BroadMetres / 2
	x0, x1 := max(x-r, 0), min(x+r, float64(w))
	z0, z1 := max(z-r, 0), min(z+r, float64(d))
	gx := (m.GroundHeight(x1, z) - m.GroundHeight(x0, z)) / max(x1-x0, 1e-9)
	gz := (m.GroundHeight(x, z1) - m.GroundHeight(x, z0)) / max(z1-z0, 1e-9)
	ny = max(ny, 1e-3)
	t := 0.6*math.Sqrt(max(1-ny*ny, 0))/ny + 0.4*math.Hypot(gx, gz)
	return 1 / math.Sqrt(1+t*t)
}

// rockScore is the shader's steepness score at world (x, z) for the
// ground's normal y ny and its place in the tree line's band above
// (0 below, 1 above): 1 − the rule slope's cosine, raised above the tree
// line and moved by the shader's low-frequency noise. The shader's crest
// and hollow term (its occlusion's convexity) the map alone does not give
// and is left out.
func (p *placer) rockScore(x, z, ny, above float64) float64 {
	qx, qz := float32(x)/p.ext, float32(z)/p.ext
	noise := 0.65*valueNoise21(qx*6, qz*6) + 0.35*valueNoise21(qx*15+17.3, qz*15+17.3)
	return (1 - p.ruleNy(x, z, ny)) + 0.05*above + 0.04*(noise-0.5)
}

// cellHash is a 64-bit hash of the seed and the cell (i, j) (SplitMix64's
// finaliser over their mix).
func cellHash(seed uint64, i, j int) uint64 {
	z := seed ^ uint64(uint32(i))*0xbf58476d1ce4e5b9 ^ uint64(uint32(j))*0x94d049bb133111eb
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// unit is the k-th uniform number in [0, 1) drawn from hash h.
func unit(h uint64, k int) float64 {
	z := h + uint64(k+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11) / (1 << 53)
}

func smoothstep(a, b, x float64) float64 {
	t := clamp01((x - a) / (b - a))
	return t * t * (3 - 2*t)
}

func clamp01(x float64) float64 { return min(max(x, 0), 1) }

// hash21 is the terrain shader's lattice hash (Dave Hoskins, "Hash
// without sine") in float32, 0–1.
func hash21(px, py float32) float32 {
	fract := func(v float32) float32 { return v - float32(math.Floor(float64(v))) }
	x, y, z := fract(px*0.1031), fract(py*0.1031), fract(px*0.1031)
	d := x*(y+33.33) + y*(z+33.33) + z*(x+33.33)
	x, y, z = x+d, y+d, z+d
	return fract((x + y) * z)
}

// valueNoise21 is the terrain shader's value noise at (qx, qy), 0–1.
func valueNoise21(qx, qy float32) float64 {
	ix, iy := float32(math.Floor(float64(qx))), float32(math.Floor(float64(qy)))
	fx, fy := float64(qx-ix), float64(qy-iy)
	ux, uy := fx*fx*(3-2*fx), fy*fy*(3-2*fy)
	a, b := float64(hash21(ix, iy)), float64(hash21(ix+1, iy))
	c, d := float64(hash21(ix, iy+1)), float64(hash21(ix+1, iy+1))
	return (a+(b-a)*ux)*(1-uy) + (c+(d-c)*ux)*uy
}
