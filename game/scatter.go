package game

import (
	"context"
	"fmt"
	"math"
	"slices"

	"cordillera/shaders"
	"cordillera/terrain"
	"cordillera/terrain/mesh"
	"cordillera/terrain/scatter"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/hajimehoshi/ebiten/v2"
)

// The scatter: trees and rocks where the land cover puts them
// (terrain.Scatter): trees as billboards and rocks as low-poly meshes
// (scatter_rock.go), lit like the ground, with a soft shadow under each
// tree. They give the hills a scale.
//
// Ebiten has no depth buffer, so they are painted after the terrain,
// farthest first. The ground in front of a plant hides its lower part:
// for each plant the CPU walks the heightmap from the eye towards its
// foot and finds the steepest rise of the ground seen from the eye; the
// plant's billboard, an upright plane, is cut off below the height where
// that rise passes it, so that a tree behind a crest shows only its top.
//
// Level of detail: near the eye every plant is drawn; beyond a kind's
// full-density distance the share drawn falls with the square of the
// distance (the plants a pixel holds stay about the same), those whose
// Rank lies below the share. A plant fades in and out while the share
// passes through the fadeShare above its rank instead of popping, and
// all fade out towards the kind's farthest distance. No frame draws more than
// scatterMaxSprites plants (of them scatterMaxRocks rocks) and
// scatterMaxShadows shadows: beyond that the shares shrink together.

// The budgets and distances, world units (metres).
const (
	scatterMaxSprites = 4000 // plants a frame: a tree's billboard is 2 triangles
	scatterMaxShadows = 1200 // shadows a frame: 2·shadowGrid² triangles each
	treeFullDistance  = 350
	treeFarDistance   = 2500
	rockFullDistance  = 100
	rockFarDistance   = 600
	shadowDistance    = 250
	// fadeShare is the share of a plant's keep share over which it fades in.
	fadeShare = 0.25
	// scatterSeed chooses the plants; the map chooses where they may stand.
	scatterSeed = 1
)

// scatterKey is what a world's placement depends on.
type scatterKey struct {
	world           *World
	snowLine, water float32
}

// scatterPlaced is a finished placement.
type scatterPlaced struct {
	key scatterKey
	set *scatter.Set
}

// scatterView places a world's plants off the frame loop and draws them.
type scatterView struct {
	shader         *ebiten.Shader
	albedo, normal *ebiten.Image
	tops           []float32 // per drawing: its trapezoid's top half-width share (drawing.top)

	set     *scatter.Set
	setKey  scatterKey
	asked   scatterKey
	cancel  context.CancelFunc
	results chan scatterPlaced

	// The frame's geometry, kept while its inputs stay the same.
	built   scatterFrameKey
	valid   bool
	items   []scatterItem
	sprites geometry
	shadows geometry
	// rockFaces is addRock's scratch: one rock's faces in paint order.
	rockFaces []rockFace
	uniforms  map[string]any
	opts      ebiten.DrawTrianglesShaderOptions

	onlyTrees bool // leave the rocks out (the tests count tree pixels)
}

type geometry struct {
	vertices []ebiten.Vertex
	indices  []uint32
}

func (g *geometry) reset() { g.vertices, g.indices = g.vertices[:0], g.indices[:0] }

// scatterFrameKey is what a frame's scatter geometry depends on.
type scatterFrameKey struct {
	vp   mgl32.Mat4
	w, h int
	eye  mgl32.Vec3
	set  *scatter.Set
	sun  [3]float32
}

// scatterItem is a plant chosen for the frame.
type scatterItem struct {
	p     *scatter.Plant
	dist  float32 // horizontal, from the eye
	score float32 // rank over keep share: drawn below 1
	fade  float32 // opacity from the distance alone
}

// drawScatterAtlas draws the plants' atlas for each new view: a variable
// so that the tests, which make hundreds of games in one process, draw it
// once (about 0.4 s of CPU each time); the explorer makes one view and
// keeps no copy of the atlas's pixels once they are on the GPU.
var drawScatterAtlas = scatterAtlas

func newScatterView() (*scatterView, error) {
	s, err := ebiten.NewShader(shaders.Scatter)
	if err != nil {
		return nil, fmt.Errorf("scatter shader: %w", err)
	}
	a, n, tops := drawScatterAtlas()
	return &scatterView{shader: s, albedo: ebiten.NewImageFromImage(a), normal: ebiten.NewImageFromImage(n), tops: tops,
		results: make(chan scatterPlaced, 1), uniforms: map[string]any{}}, nil
}

func scatterKeyOf(world *World, v *Viewer) scatterKey {
	water, _ := waterLevel(v, world.Map)
	return scatterKey{world: world, snowLine: float32(scatterSnowLine(world, v)), water: water}
}

// scatterRules are the land-cover rules of placement key k.
func scatterRules(k scatterKey, v *Viewer) scatter.Rules {
	return scatter.Rules{SnowLine: float64(k.snowLine), Water: float64(k.water), Wet: v.Water > 0, Seed: scatterSeed}
}

// scatterSnowLine is the snow line the plants follow, world units (metres)
// above the map's zero: the viewer's, a share of the height range; but
// where that share is the viewer's highest (maxSnowLine, no snow on the
// map) the climate's, which can lie far above the map. The viewer's line
// is clamped there, and a tree line 650 m under the clamped line put
// every hill of a 200 m world above it: no trees on lowland.
func scatterSnowLine(world *World, v *Viewer) float64 {
	m := world.Map
	line := float64(v.SnowLine) * m.VerticalScale
	if v.SnowLine < maxSnowLine {
		return line
	}
	climate := climateSnowLine(defaultSnowLatitude)
	if world.Route != nil && world.Route.Stats != nil && world.Route.Stats.Map != nil {
		// A route map's heights are metres above its base.
		res := world.Route.Stats
		mid := float64(res.Map.Width-1) / 2
		lat, _ := res.Path.LatLon(mid, mid)
		climate = climateSnowLine(lat) - res.Base
	}
	if math.IsNaN(climate) {
		return line
	}
	return max(line, climate)
}

// pending reports whether the view asks for plants not yet placed.
func (s *scatterView) pending(world *World, v *Viewer) bool {
	return s != nil && v.Scatter && world != nil && s.setKey != scatterKeyOf(world, v)
}

// poll takes a finished placement, asks for the view's if it is not yet
// asked for, and reports whether a placement arrived.
func (s *scatterView) poll(world *World, v *Viewer) bool {
	if s == nil || !v.Scatter || world == nil {
		return false
	}
	arrived := false
	select {
	case r := <-s.results:
		s.set, s.setKey = r.set, r.key
		arrived = true
	default:
	}
	k := scatterKeyOf(world, v)
	if k == s.setKey || k == s.asked {
		return arrived
	}
	if s.cancel != nil {
		s.cancel()
	}
	s.asked = k
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	m := world.Map
	rules := scatterRules(k, v)
	normals := world.Normals
	go func() {
		set, err := scatter.Place(ctx, m, normals, rules)
		if err != nil {
			return // cancelled: a newer placement is on its way
		}
		// Only the newest result is kept.
		select {
		case <-s.results:
		default:
		}
		s.results <- scatterPlaced{k, set}
	}()
	return arrived
}

// draw paints the plants of world seen by cam onto dst, with the
// terrain's uniforms tu; light is the terrain's light map where it is
// drawn with one (nil: none).
func (s *scatterView) draw(dst *ebiten.Image, cam *Camera, v *Viewer, world *World, tu map[string]any, light *ebiten.Image) {
	if s == nil || !v.Scatter || world == nil {
		return
	}
	if s.set == nil || s.setKey.world != world {
		return
	}
	w, h := dst.Bounds().Dx(), dst.Bounds().Dy()
	sun := v.SunDir()
	key := scatterFrameKey{vp: viewProjection(cam, w, h), w: w, h: h, eye: cam.Pos, set: s.set, sun: sun}
	if !s.valid || key != s.built {
		s.build(cam, w, h, world.Map, sun)
		s.built, s.valid = key, true
	}
	u := s.uniforms
	for _, name := range []string{"CameraPos", "SunDir", "SkyColor", "SunColor", "Lighting", "Ambient", "Gamma",
		"UseLightMap", "LightScale", "LightSize", "SkyTint", "AirSun", "AirSky", "BetaR", "BetaM", "FogColor", "FogBeta", "FogBase", "FogHeight"} {
		if val, ok := tu[name]; ok {
			u[name] = val
		} else {
			delete(u, name) // a uniform left out reads as 0
		}
	}
	if light == nil {
		u["UseLightMap"] = float32(0)
	}
	s.opts.Uniforms = u
	s.opts.Images = [4]*ebiten.Image{s.albedo, s.normal, light}
	if len(s.shadows.indices) > 0 {
		u["Shadows"] = float32(1)
		dst.DrawTrianglesShader32(s.shadows.vertices, s.shadows.indices, s.shader, &s.opts)
	}
	if len(s.sprites.indices) > 0 {
		u["Shadows"] = float32(0)
		dst.DrawTrianglesShader32(s.sprites.vertices, s.sprites.indices, s.shader, &s.opts)
	}
}

// triangles is the frame's scatter triangles.
func (s *scatterView) triangles() int {
	return (len(s.sprites.indices) + len(s.shadows.indices)) / 3
}

// keepShare is the share of a kind's plants drawn at horizontal distance
// d, and the opacity the far fade leaves them.
func keepShare(kind scatter.PlantKind, d float32) (float32, float32) {
	full, far := float32(treeFullDistance), float32(treeFarDistance)
	if kind == scatter.Rock {
		full, far = rockFullDistance, rockFarDistance
	}
	if d >= far {
		return 0, 0
	}
	k := float32(1)
	if d > full {
		k = (full / d) * (full / d)
	}
	t := min(max((d-0.75*far)/(0.25*far), 0), 1)
	return k, 1 - t*t*(3-2*t)
}

// build chooses the frame's plants and makes their quads.
func (s *scatterView) build(cam *Camera, w, h int, m *terrain.Heightmap, sun [3]float32) {
	s.sprites.reset()
	s.shadows.reset()
	s.items = s.items[:0]
	if len(s.set.Plants) == 0 {
		return
	}
	vp := viewProjection(cam, w, h)
	planes := mesh.FrustumPlanes([16]float32(vp))
	s.gather(&planes, cam.Pos, m)
	limit := s.trim()
	p := newProjector(vp, w, h, cam.Near)
	p.curveAround(cam.Pos)
	s.emit(&p, cam.Pos, m, sun, limit)
}

// gather collects the plants within reach and in view, each with its
// distance, score and fade, into s.items.
func (s *scatterView) gather(planes *[6][4]float64, eye mgl32.Vec3, m *terrain.Heightmap) {
	set := s.set
	reach := float64(treeFarDistance)
	c0 := max(int((float64(eye[0])-reach)/set.Tile), 0)
	c1 := min(int((float64(eye[0])+reach)/set.Tile), set.Cols-1)
	r0 := max(int((float64(eye[2])-reach)/set.Tile), 0)
	r1 := min(int((float64(eye[2])+reach)/set.Tile), set.Rows-1)
	top := float64(m.VerticalScale) + 40
	for row := r0; row <= r1; row++ {
		for col := c0; col <= c1; col++ {
			if boxOutside(planes, float64(col)*set.Tile, float64(row)*set.Tile, set.Tile, top) {
				continue
			}
			ps := set.TilePlants(col, row)
			for i := range ps {
				if it, ok := s.consider(planes, eye, &ps[i]); ok {
					s.items = append(s.items, it)
				}
			}
		}
	}
}

// consider says whether plant p is drawn this frame, and how.
func (s *scatterView) consider(planes *[6][4]float64, eye mgl32.Vec3, p *scatter.Plant) (scatterItem, bool) {
	if s.onlyTrees && p.Kind == scatter.Rock {
		return scatterItem{}, false
	}
	dx, dz := p.X-eye[0], p.Z-eye[2]
	d := float32(math.Sqrt(float64(dx*dx + dz*dz)))
	// A boulder is thinned by its true distance: seen from high above,
	// stones at the eye's feet are a few pixels each, bright specks over
	// the forest rather than scale.
	ld := d
	if p.Kind == scatter.Rock {
		dy := eye[1] - p.Y
		ld = float32(math.Sqrt(float64(d*d + dy*dy)))
	}
	k, fade := keepShare(p.Kind, ld)
	// Drawn below the share stretched so that at a share of 1 every
	// plant is wholly opaque.
	k /= 1 - fadeShare
	if p.Rank >= k {
		return scatterItem{}, false
	}
	// A billboard near the eye fills the view with a few texels blown up
	// to slabs, and one whose crown reaches the eye cuts through the
	// camera: a plant fades out as the eye comes within
	// eyeClearance+eyeFade of its crown (the eye's distance from the
	// plant's axis, less the crown's half-width) and is gone within
	// eyeClearance. A rock is a mesh: near, it is drawn whole down to the
	// near plane.
	if gap := eyeGap(eye, p, d); p.Kind != scatter.Rock {
		if gap <= eyeClearance {
			return scatterItem{}, false
		}
		fade *= smoothstep32(eyeClearance, eyeClearance+eyeFade, gap)
		// A billboard stands upright: looked down on steeply it is seen
		// edge-on, a bright sliver of its drawing instead of a crown. Seen
		// from more than about 55° above, the trees fade into the ground's
		// own forest colour, gone by 70°.
		if dy := eye[1] - p.Y - 0.5*p.Height; dy > 0 {
			sinDown := dy / float32(math.Hypot(float64(d), float64(dy)))
			fade *= 1 - smoothstep32(0.82, 0.94, sinDown)
		}
	}
	r := 0.5 * max(p.Height, p.Width)
	if sphereOutside(planes, p.X, p.Y+0.5*p.Height, p.Z, r) {
		return scatterItem{}, false
	}
	return scatterItem{p: p, dist: d, score: p.Rank / k, fade: fade}, true
}

// trim keeps s.items within the budgets, sorted far to near, and returns
// the score limit the kept plants fade towards.
func (s *scatterView) trim() float32 {
	// Over the budget, the shares shrink together: the lowest scores stay.
	limit := float32(1)
	if len(s.items) > scatterMaxSprites {
		slices.SortFunc(s.items, func(a, b scatterItem) int { return cmpf(a.score, b.score) })
		limit = s.items[scatterMaxSprites].score
		s.items = s.items[:scatterMaxSprites]
	}
	slices.SortFunc(s.items, func(a, b scatterItem) int { return cmpf(b.dist, a.dist) })
	// Over the rocks' budget, the farthest rocks are left out.
	rocks := 0
	for _, it := range s.items {
		if it.p.Kind == scatter.Rock {
			rocks++
		}
	}
	if rocks > scatterMaxRocks {
		drop := rocks - scatterMaxRocks
		s.items = slices.DeleteFunc(s.items, func(it scatterItem) bool {
			if drop > 0 && it.p.Kind == scatter.Rock {
				drop--
				return true
			}
			return false
		})
	}
	return limit
}

// emit makes the quads and meshes of s.items, far to near, with the
// shadows of the nearest trees.
func (s *scatterView) emit(p *projector, eye mgl32.Vec3, m *terrain.Heightmap, sun [3]float32, limit float32) {
	sunXZ := mgl32.Vec2{sun[0], sun[2]}
	sunLen := sunXZ.Len()
	shadows := 0
	// The shadows of the nearest trees: count back from the nearest.
	firstShadow := len(s.items)
	for i := len(s.items) - 1; i >= 0 && shadows < scatterMaxShadows; i-- {
		if it := s.items[i]; it.p.Kind != scatter.Rock && it.dist < shadowDistance {
			shadows++
			firstShadow = i
		}
	}
	for i, it := range s.items {
		a := it.fade * min((limit-it.score)/(fadeShare*limit), 1)
		if a <= 0.01 {
			continue
		}
		pl := it.p
		cut := horizonCut(m, eye, pl, it.dist)
		if cut >= pl.Y+pl.Height {
			continue
		}
		if pl.Kind != scatter.Rock && i >= firstShadow && it.dist < shadowDistance && sun[1] > 0.02 && cut < pl.Y {
			s.addShadow(p, m, pl, a, sun[1], sunXZ, sunLen)
		}
		if pl.Kind == scatter.Rock {
			// A rock, a few pixels wide out there, fades by sinking into
			// the ground: a stone seen through would read as a ghost.
			s.addRock(p, m, eye, pl, it.dist, cut, a)
			continue
		}
		s.addSprite(p, eye, pl, a, cut, 1)
	}
}

// The clearance the plants keep from the eye, world units (metres): none
// is drawn within eyeClearance of the eye, and they fade in over eyeFade
// beyond it. The fade is short: a tree caught half-faded in a still frame
// is a pale ghost of a crown across the sky, worse than a tree that
// appears a step later.
const (
	eyeClearance = 6
	eyeFade      = 1.5
)

// eyeGap is the distance from eye to plant pl's crown, at horizontal
// distance d: the eye's distance from the segment of the plant's axis
// between its foot and its top, less half its width.
func eyeGap(eye mgl32.Vec3, pl *scatter.Plant, d float32) float32 {
	dy := float32(0)
	if eye[1] > pl.Y+pl.Height {
		dy = eye[1] - pl.Y - pl.Height
	} else if eye[1] < pl.Y {
		dy = pl.Y - eye[1]
	}
	return float32(math.Hypot(float64(d), float64(dy))) - 0.5*pl.Width
}

// smoothstep32 is GLSL's smoothstep.
func smoothstep32(e0, e1, x float32) float32 {
	t := min(max((x-e0)/(e1-e0), 0), 1)
	return t * t * (3 - 2*t)
}

// horizonCut is the world height below which the ground in front hides
// plant pl, seen from eye at horizontal distance d: the eye's height
// plus d times the steepest rise of the ground along the way.
func horizonCut(m *terrain.Heightmap, eye mgl32.Vec3, pl *scatter.Plant, d float32) float32 {
	// The ground right under the plant's crown is its own: stop short.
	end := float64(d) - 0.3*float64(pl.Width)
	start := max(m.CellSize, 0.5)
	if end <= start {
		return -math.MaxFloat32
	}
	ex, ey, ez := float64(eye[0]), float64(eye[1]), float64(eye[2])
	dx, dz := (float64(pl.X)-ex)/float64(d), (float64(pl.Z)-ez)/float64(d)
	// Samples closer together near the eye, where the ground rises most
	// steeply in view; about a cell apart near, a 32nd of the way far.
	const n = 40
	ratio := math.Pow(end/start, 1.0/n)
	best := math.Inf(-1)
	for t, i := start, 0; i <= n; t, i = t*ratio, i+1 {
		g := m.GroundHeight(ex+dx*t, ez+dz*t)
		best = max(best, (g-ey)/t)
	}
	return float32(ey + best*float64(d))
}

// addSprite adds tree pl's billboard, seen from eye with opacity a, cut
// off below world height cut, its height times rise.
func (s *scatterView) addSprite(p *projector, eye mgl32.Vec3, pl *scatter.Plant, a, cut, rise float32) {
	f := mgl32.Vec3{eye[0] - pl.X, 0, eye[2] - pl.Z}
	if f.Len() < 1e-4 {
		return
	}
	f = f.Normalize()
	right := mgl32.Vec3{f[2], 0, -f[0]}
	// Seen from above, the billboard leans towards the eye by up to half
	// the angle it is seen at, so that it keeps some of its face.
	mid := pl.Y + 0.5*pl.Height
	look := float32(math.Atan2(float64(eye[1]-mid), float64(mgl32.Vec2{eye[0] - pl.X, eye[2] - pl.Z}.Len())))
	lean := min(max(0.5*look, 0), 0.6)
	up := mgl32.Vec3{0, 1, 0}.Mul(float32(math.Cos(float64(lean)))).Add(f.Mul(float32(math.Sin(float64(lean)))))
	// Trunks stand a little into the ground.
	sink := 0.03 * pl.Height
	height := pl.Height*rise + sink
	foot := mgl32.Vec3{pl.X, pl.Y - sink, pl.Z}
	s0 := float32(0)
	if cut > foot[1] {
		s0 = (cut - foot[1]) / (height * up[1])
		if s0 >= 1 {
			return
		}
	}
	cell := int(pl.Variant) % drawings
	if pl.Kind == scatter.Broadleaf {
		cell += broadleafs
	}
	o := scatterCellOrigin(cell)
	// The quad is the drawing's trapezoid (drawing.top): narrower at the
	// top, where a cone's tip leaves air. Half the plants are drawn
	// mirrored (the shader turns their normals too), so that two of a
	// drawing seldom look alike.
	top := float32(1)
	if cell < len(s.tops) {
		top = s.tops[cell]
	}
	mirror := pl.Hash>>16&1 == 1
	cu, hu := float32(o.X)+scatterCellW/2, float32(scatterCellW)/2-0.5
	if mirror {
		hu = -hu
	}
	vTop, vBottom := float32(o.Y)+0.5, float32(o.Y+scatterCellH)-0.5
	vCut := vBottom + (vTop-vBottom)*s0
	cutW := 1 + (top-1)*s0 // the half-width share at the cut
	tint := plantTint(pl)
	half := right.Mul(0.5 * pl.Width)
	bottom := foot.Add(up.Mul(height * s0))
	topP := foot.Add(up.Mul(height))
	corners := [4]mgl32.Vec3{bottom.Sub(half.Mul(cutW)), bottom.Add(half.Mul(cutW)), topP.Add(half.Mul(top)), topP.Sub(half.Mul(top))}
	uv := [4][2]float32{{cu - hu*cutW, vCut}, {cu + hu*cutW, vCut}, {cu + hu*top, vTop}, {cu - hu*top, vTop}}
	// The mip level: the whole quad's texels a pixel (a cut sliver's
	// own derivatives would say far more).
	fb, ok1 := p.billboardVertex(foot.Sub(half))
	fr, ok2 := p.billboardVertex(foot.Add(half))
	ft, ok3 := p.billboardVertex(topP.Sub(half))
	if !ok1 || !ok2 || !ok3 {
		return
	}
	lod := mipLevel(scatterCellW/math.Hypot(float64(fr.DstX-fb.DstX), float64(fr.DstY-fb.DstY)),
		scatterCellH/math.Hypot(float64(ft.DstX-fb.DstX), float64(ft.DstY-fb.DstY)))
	var vs [4]ebiten.Vertex
	for i, c := range corners {
		v, ok := p.billboardVertex(c)
		if !ok {
			return
		}
		v.SrcX, v.SrcY = uv[i][0], uv[i][1]
		v.ColorR, v.ColorG, v.ColorB, v.ColorA = tint[0], tint[1], tint[2], 4*lod+a
		if mirror {
			v.ColorA += 32
		}
		vs[i] = v
	}
	base := uint32(len(s.sprites.vertices))
	s.sprites.vertices = append(s.sprites.vertices, vs[:]...)
	s.sprites.indices = append(s.sprites.indices, base, base+1, base+2, base, base+2, base+3)
}

// addShadow adds the soft contact shadow under tree pl: an ellipse on
// the ground around its foot, drawn out a little away from the sun as it
// sinks, but never into a long streak (the crown's true shadow far from
// the foot would need the crown's shape), faint where its reach grows.
// It is a grid of shadowGrid² quads that follows the ground, so that it
// lies on a hummock rather than cutting through it.
func (s *scatterView) addShadow(p *projector, m *terrain.Heightmap, pl *scatter.Plant, a, sunY float32, sunXZ mgl32.Vec2, sunLen float32) {
	r := 0.6 * pl.Width
	reach := min(0.5*pl.Height*sunLen/max(sunY, 0.05), 0.5*pl.Height)
	dir := mgl32.Vec2{1, 0}
	if sunLen > 1e-3 {
		dir = sunXZ.Mul(-1 / sunLen)
	}
	along := r + 0.5*reach
	cx, cz := pl.X+dir[0]*0.5*reach, pl.Z+dir[1]*0.5*reach
	o := scatterCellOrigin(blobCell)
	u0, v0 := float32(o.X)+0.5, float32(o.Y)+0.5
	du, dv := float32(scatterCellW-1), float32(scatterCellH-1)
	const n = shadowGrid
	var vs [(n + 1) * (n + 1)]ebiten.Vertex
	for j := 0; j <= n; j++ {
		for i := 0; i <= n; i++ {
			ca, cb := 2*float32(i)/n-1, 2*float32(j)/n-1
			x := cx + dir[0]*along*cb - dir[1]*r*ca
			z := cz + dir[1]*along*cb + dir[0]*r*ca
			y := float32(m.GroundHeight(float64(x), float64(z))) + 0.05
			v, ok := p.billboardVertex(mgl32.Vec3{x, y, z})
			if !ok {
				return
			}
			v.SrcX, v.SrcY = u0+du*float32(i)/n, v0+dv*float32(j)/n
			vs[j*(n+1)+i] = v
		}
	}
	// The blob's mip level by its longer side on screen.
	c0, c1, c2 := vs[0], vs[n], vs[n*(n+1)]
	side := max(math.Hypot(float64(c1.DstX-c0.DstX), float64(c1.DstY-c0.DstY)),
		math.Hypot(float64(c2.DstX-c0.DstX), float64(c2.DstY-c0.DstY)))
	lod := mipLevel(scatterCellH/side, scatterCellH/side)
	// Fainter as it is drawn out: the same shade spread wider.
	dark := 0.42 * a * r / along
	for i := range vs {
		vs[i].ColorA = 4*lod + dark
	}
	base := uint32(len(s.shadows.vertices))
	s.shadows.vertices = append(s.shadows.vertices, vs[:]...)
	for j := uint32(0); j < n; j++ {
		for i := uint32(0); i < n; i++ {
			k := base + j*(n+1) + i
			s.shadows.indices = append(s.shadows.indices, k, k+1, k+n+2, k, k+n+2, k+n+1)
		}
	}
}

// shadowGrid is the quads a side of a tree's shadow.
const shadowGrid = 3

// billboardVertex projects world point v (bent by the curvature like the
// terrain) with the scatter shader's attributes; false behind the near
// plane's margin.
func (p *projector) billboardVertex(v mgl32.Vec3) (ebiten.Vertex, bool) {
	m := &p.vp
	b := p.bend(v)
	cx := m[0]*b[0] + m[4]*b[1] + m[8]*b[2] + m[12]
	cy := m[1]*b[0] + m[5]*b[1] + m[9]*b[2] + m[13]
	cw := m[3]*b[0] + m[7]*b[1] + m[11]*b[2] + m[15]
	if cw < 2*p.near {
		return ebiten.Vertex{}, false
	}
	inv := 1 / cw
	return ebiten.Vertex{
		DstX:    (cx*inv + 1) * p.halfW,
		DstY:    (1 - cy*inv) * p.hfH,
		Custom0: v[0] * inv,
		Custom1: v[1] * inv,
		Custom2: v[2] * inv,
		Custom3: inv,
	}, true
}

// mipLevel is the drawings' mip level for texels a pixel across and
// down. Near (up to four texels a pixel) the finer of the two levels
// around the larger, so that a tree is drawn from at least a texel a
// pixel (the nearest level blurred a near tree up to one and a half
// times); farther the nearest level: a tree a few pixels tall drawn from
// a level twice too fine sparkles, its light texels white specks over
// the forest from high up.
func mipLevel(across, down float64) float32 {
	raw := math.Log2(max(across, down, 1))
	l := math.Floor(raw + 0.1)
	if raw > 2 {
		l = math.Round(raw)
	}
	return float32(min(l, scatterLevels-1))
}

// plantTint varies each plant's colour a little: lighter or darker,
// yellower or bluer, as no two trees are alike.
func plantTint(pl *scatter.Plant) [3]float32 {
	h := pl.Hash
	bright := 0.8 + 0.4*float32(h&0xff)/255
	warm := 0.92 + 0.16*float32(h>>8&0xff)/255
	if pl.Kind == scatter.Rock {
		warm = 0.97 + 0.06*float32(h>>8&0xff)/255
		return [3]float32{bright * warm, bright, bright / warm}
	}
	return [3]float32{bright * warm * warm, bright * warm, bright / warm}
}

// sphereOutside reports whether the sphere at (x, y, z) of radius r lies
// wholly outside one of the frustum's side planes.
func sphereOutside(planes *[6][4]float64, x, y, z, r float32) bool {
	for k := range 4 {
		pl := planes[k]
		if pl[0]*float64(x)+pl[1]*float64(y)+pl[2]*float64(z)+pl[3] < -float64(r) {
			return true
		}
	}
	return false
}

// boxOutside reports whether the tile at (x0, z0) of side size, from
// height 0 to top, lies wholly outside one of the frustum's side planes.
func boxOutside(planes *[6][4]float64, x0, z0, size, top float64) bool {
	for k := range 4 {
		pl := planes[k]
		// The box's corner farthest along the plane's normal.
		x, y, z := x0, 0.0, z0
		if pl[0] > 0 {
			x += size
		}
		if pl[1] > 0 {
			y = top
		}
		if pl[2] > 0 {
			z += size
		}
		if pl[0]*x+pl[1]*y+pl[2]*z+pl[3] < -size*0.1 {
			return true
		}
	}
	return false
}

func cmpf(a, b float32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
