package game

import (
	"fmt"
	"image"
	"math"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/hajimehoshi/ebiten/v2"

	"cordillera/assets"
	"cordillera/shaders"
)

// renderer owns the GPU resources: the compiled shaders and the material atlas.
type renderer struct {
	variants    map[shaders.Variant]*ebiten.Shader // terrain shaders, compiled on first use
	allFeatures bool                               // always the full shader (tests compare the variants with it)
	sky         *ebiten.Shader
	aa          *ebiten.Shader // the edge anti-aliasing pass (antialias.go)
	up          *ebiten.Shader // the sharp upscale of the view (upscale.go)
	atlas       *ebiten.Image
	means       []float32 // the colour textures' means (materialMeans), the MaterialMeans uniform
	terrainOpts ebiten.DrawTrianglesShaderOptions
	skyOpts     ebiten.DrawRectShaderOptions
	uniforms    map[string]any
	skyUniforms map[string]any

	// The light map (shadows and occlusion), made by lighter off the
	// frame loop, and the world and sun it shows.
	lighter  Lighter
	lightImg *ebiten.Image
	lightKey lightKey
	// The light image's layout: the map's texels, and where the land
	// beyond the map has its light, that land's coarse grid.
	lightMapSize [2]int
	lightLevelsY int
	lightSlope   [2]float32 // the light map's SlopeSpread
	lightOutside *OutsideLight

	// The erosion masks of maskWorld as an image (nil: it has none).
	maskImg   *ebiten.Image
	maskWorld *World

	// The ground beyond the map, projected again only when the camera,
	// the view, the map or the plane's height changes, or the terrain's
	// edge vertices (edges).
	horizon horizon
	edges   []bool

	scatter *scatterView // the trees and rocks (scatter.go)

	// version counts the changes to what the renderer draws with besides
	// the view and the world: a new light map, new materials.
	version uint64
}

func newRenderer() (*renderer, error) {
	ts, err := ebiten.NewShader(shaders.Terrain)
	if err != nil {
		return nil, fmt.Errorf("terrain shader: %w", err)
	}
	ss, err := ebiten.NewShader(shaders.Sky)
	if err != nil {
		return nil, fmt.Errorf("sky shader: %w", err)
	}
	aa, err := ebiten.NewShader(shaders.Antialias)
	if err != nil {
		return nil, fmt.Errorf("anti-aliasing shader: %w", err)
	}
	up, err := ebiten.NewShader(shaders.Upscale)
	if err != nil {
		return nil, fmt.Errorf("upscale shader: %w", err)
	}
	sc, err := newScatterView()
	if err != nil {
		return nil, err
	}
	atlas, err := assets.Atlas()
	if err != nil {
		return nil, fmt.Errorf("materials: %w", err)
	}
	return &renderer{variants: map[shaders.Variant]*ebiten.Shader{{}: ts}, sky: ss, aa: aa, up: up, atlas: ebiten.NewImageFromImage(atlas),
		means: materialMeans(atlas), uniforms: map[string]any{}, skyUniforms: map[string]any{}, scatter: sc}, nil
}

// materialMeans are the means of the atlas's colour textures, display-
// referred, as a column-major mat4 (column m material m's, alpha 0): each
// texture's 1×1 mip level, the box average of the texture in linear light.
// The materials by rules tint each texture so that its mean is a
// calibrated albedo.
func materialMeans(atlas *image.RGBA) []float32 {
	out := make([]float32, 16)
	last := assets.MipLevels - 1
	for _, m := range assets.Materials {
		r := assets.MipRect(m, false, last)
		c := atlas.RGBAAt(r.Min.X, r.Min.Y)
		out[4*int(m)], out[4*int(m)+1], out[4*int(m)+2] = float32(c.R)/255, float32(c.G)/255, float32(c.B)/255
	}
	return out
}

func vec3(v [3]float32) []float32 { return []float32{v[0], v[1], v[2]} }

func boolf(b bool) float32 {
	if b {
		return 1
	}
	return 0
}

// draw renders the sky and the prepared terrain frame of world onto dst.
func (r *renderer) draw(dst *ebiten.Image, cam *Camera, v *Viewer, world *World, f *frame) {
	m := world.Map
	w, h := dst.Bounds().Dx(), dst.Bounds().Dy()
	sun := v.SunDir()
	vp := cam.Projection(w, h).Mul4(cam.View())
	// The sky's rays from a view without the camera's translation: a
	// point the sky shader rebuilds is then its ray's direction from the
	// eye, exact in float32 at any altitude (world points tens of
	// kilometres up lost it to rounding and stepped the gradient into
	// stairs).
	view := cam.View()
	view[12], view[13], view[14] = 0, 0, 0
	inv := cam.Projection(w, h).Mul4(view).Inv()

	su := r.skyUniforms
	su["InvViewProj"] = inv[:]
	su["ScreenSize"] = []float32{float32(w), float32(h)}
	su["SunDir"] = sun[:]
	su["CameraPos"] = cam.Pos[:]
	sl := lightOf(v)
	// The fog lies on the map's lowest ground and thins out over half its
	// height range.
	fogBase, fogHeight := horizonLevel(v, m), float32(0.5*m.VerticalScale)
	sl.setSky(su, v.FogDensity, fogBase, fogHeight)
	su["SunColor"] = vec3(sl.disc)
	su["FogColor"] = vec3(v.FogColor)
	su["Gamma"] = v.Gamma
	r.skyOpts.Uniforms = su
	dst.DrawRectShader(w, h, r.sky, &r.skyOpts)

	ext, _ := m.Extent()
	tu := r.uniforms
	tu["CameraPos"] = cam.Pos[:]
	tu["SunDir"] = sun[:]
	sl.setSky(tu, v.FogDensity, fogBase, fogHeight)
	tu["SunColor"] = vec3(sl.sun)
	tu["SkyColor"] = vec3(sl.zenith)
	waterY, water := waterLevel(v, m)
	tu["UseWater"] = boolf(water)
	tu["WaterLevel"] = waterY
	tu["WaterDepth"] = float32(waterDepthShare * m.VerticalScale)
	tu["Lighting"] = boolf(v.Lighting)
	tu["Ambient"] = v.Ambient
	tu["Attribute"] = float32(v.Texturing)
	tu["Scheme"] = boolf(v.ColourScheme)
	tu["MaterialCount"] = float32(v.MaterialCount)
	tu["Boundaries"] = v.Boundaries[:]
	tu["BandMaterials"] = []float32{float32(v.BandMaterials[0]), float32(v.BandMaterials[1]), float32(v.BandMaterials[2]), float32(v.BandMaterials[3])}
	tu["Blend"] = v.Blend
	tu["HeightMin"] = float32(0)
	tu["HeightMax"] = float32(m.VerticalScale)
	tu["MapExtent"] = float32(ext)
	tu["Tiling"] = v.Tiling
	tu["UseTriplanar"] = boolf(v.Triplanar)
	tu["UseDetail"] = boolf(v.DetailMaps)
	tu["DetailTiling"] = v.DetailTiling
	tu["DetailDistance"] = v.DetailDist
	tu["BreakTiling"] = boolf(v.BreakTiling)
	tu["FlatShading"] = boolf(v.FlatShading)
	tu["Wireframe"] = boolf(v.Wireframe)
	tu["FogColor"] = vec3(v.FogColor)
	tu["Gamma"] = v.Gamma
	route := world.Route
	r.terrainOpts.Images[1] = nil
	tu["RouteLine"] = boolf(v.RouteLine)
	if route != nil {
		tu["RouteScale"] = float32(route.scale / m.CellSize)
		tu["RouteReach"] = float32(route.reach)
		tu["TrailHalfWidth"] = float32(route.HalfWidth)
		tu["TrailRoad"] = boolf(route.Road)
		c := routeColour
		tu["RouteColor"] = []float32{srgbToLinear(c.R), srgbToLinear(c.G), srgbToLinear(c.B)}
		r.terrainOpts.Images[1] = route.image()
	}
	tu["SnowLine"] = v.SnowLine
	tu["SnowCos"] = []float32{float32(math.Cos(float64(v.SnowSlope-8) * math.Pi / 180)), float32(math.Cos(float64(v.SnowSlope) * math.Pi / 180))}
	tu["ShoreLine"] = float32(shoreLine)
	tu["MaterialMeans"] = r.means
	masks := v.Texturing == ByRules && r.updateMasks(world)
	tu["UseMasks"] = boolf(masks)
	r.terrainOpts.Images[3] = nil
	if masks {
		tu["MaskScale"] = float32(float64(r.maskImg.Bounds().Dx()-1) / (float64(m.Width-1) * m.CellSize))
		r.terrainOpts.Images[3] = r.maskImg
	}
	lit := r.updateLight(world, v)
	tu["UseLightMap"] = boolf(lit)
	tu["UseOcclusion"] = boolf(lit && r.lightKey.occlusion)
	r.terrainOpts.Images[2] = nil
	// The land beyond the map is lit where the light image holds the
	// light of the land drawn now (the same land at the same level).
	k := lightKeyOf(world, v)
	outsideLit := lit && r.lightOutside != nil && k.outside != nil && r.lightKey.outside == k.outside && r.lightKey.level == k.level
	tu["UseOutsideLight"] = boolf(outsideLit)
	if lit {
		tu["LightScale"] = float32(float64(r.lightMapSize[0]-1) / (float64(m.Width-1) * m.CellSize))
		tu["LightSize"] = []float32{float32(r.lightMapSize[0]), float32(r.lightMapSize[1])}
		tu["LightLevelsY"] = float32(r.lightLevelsY)
		tu["SlopeSpread"] = r.lightSlope[:]
		// The map meets the land beyond in that land's band: its cells
		// next to the map in light texels.
		tu["EdgeLevel"] = float32(0)
		if out := outsideOf(v, world); out != nil && len(out.Rings) > 0 {
			texels := float64(out.Rings[0].Step) * float64(r.lightMapSize[0]-1) / float64(m.Width-1)
			tu["EdgeLevel"] = float32(math.Log2(max(texels, 1)))
		}
		r.terrainOpts.Images[2] = r.lightImg
	}
	if outsideLit {
		g := r.lightOutside
		tu["OutsideOrigin"] = []float32{float32(g.X0), float32(g.Z0)}
		tu["OutsideScale"] = float32(1 / g.Texel)
		tu["OutsideSize"] = float32(g.Side)
	}
	r.terrainOpts.Uniforms = tu
	r.terrainOpts.Images[0] = r.atlas
	// The ground beyond the map goes with the terrain: the zero frame,
	// never built (the tests' sky alone), has none.
	if f.batches == nil {
		r.horizon.reset()
	} else {
		r.edges = edgeVertices(r.edges, m, f.chunks)
		r.horizon.update(horizonKey{vp, w, h, cam.Near, m, horizonLevel(v, m), outsideOf(v, world)}, cam, world.Normals, r.edges)
	}
	// The light map holds the map's own samples; the land beyond the map
	// (and the skirts, which stand on its edge) is lit by its coarse
	// light where it has one, and elsewhere the sun and sky are unhidden.
	// The level plane is never shaded: only the land beyond needs a light.
	plane, land := r.horizon.ground, r.horizon.ground
	plane.indices, land.indices = plane.indices[:r.horizon.planeEnd], land.indices[r.horizon.planeEnd:]
	r.drawCall(dst, &plane, v, route == nil, true, !masks, !water, false)
	r.drawCall(dst, &land, v, route == nil, !outsideLit, !masks, !water, outsideLit)
	for i := range f.batches {
		for _, d := range f.batches[i].calls() {
			// Chunks wholly above the water surface never show it.
			r.drawCall(dst, &d, v, route == nil, !lit, !masks, !water || d.dry, false)
		}
	}
	r.drawCall(dst, &r.horizon.skirt, v, route == nil, !outsideLit, !masks, !water, outsideLit)
	if f.batches != nil { // the plants go with the terrain, as the land beyond
		r.scatter.draw(dst, cam, v, world, tu, r.terrainOpts.Images[2])
	}
}

// drawCall draws one call's triangles with the terrain shader; beyond
// says whether they need the light of the land beyond the map.
func (r *renderer) drawCall(dst *ebiten.Image, d *drawCall, v *Viewer, noRoute, noLight, noMasks, noWater, beyond bool) {
	if len(d.indices) == 0 {
		return
	}
	dst.DrawTrianglesShader32(d.vertices, d.indices, r.shader(v, d.noDetail, noRoute, noLight, noMasks, noWater, beyond), &r.terrainOpts)
}

// shoreLine is how far above the water level, as a share of the height
// range, sand and gravel reach with materials by rules.
const shoreLine = 0.012

// updateMasks makes the image of world's erosion masks (R the normalised
// flow, G the deposition) when the world changes, and reports whether
// the world has masks.
func (r *renderer) updateMasks(world *World) bool {
	if world == r.maskWorld {
		return r.maskImg != nil
	}
	if r.maskImg != nil {
		r.maskImg.Deallocate()
		r.maskImg = nil
	}
	r.maskWorld = world
	mk := world.Masks
	if mk == nil || mk.Width != world.Map.Width || mk.Height != world.Map.Height {
		return false
	}
	flow, err1 := mk.Normalised("flow")
	dep, err2 := mk.Normalised("deposited")
	if err1 != nil || err2 != nil {
		return false
	}
	pix := make([]byte, 4*mk.Width*mk.Height)
	for i := range flow.Samples {
		pix[4*i] = uint8(flow.Samples[i]*255 + 0.5)
		pix[4*i+1] = uint8(dep.Samples[i]*255 + 0.5)
		pix[4*i+3] = 255
	}
	r.maskImg = ebiten.NewImage(mk.Width, mk.Height)
	r.maskImg.WritePixels(pix)
	return true
}

// wantsLight reports whether the view uses a light map.
func wantsLight(v *Viewer) bool { return v.Lighting && (v.Shadows || v.Occlusion) }

// updateLight asks the lighter for the light of world under the view's
// sun, uploads any newer map it has finished, and reports whether the
// light image belongs to world and can be drawn with. While the sun
// moves, the map of the previous sun stands in.
func (r *renderer) updateLight(world *World, v *Viewer) bool {
	if !wantsLight(v) {
		return false
	}
	r.pollLight(world, v)
	k := lightKeyOf(world, v)
	return r.lightImg != nil && r.lightKey.world == world && r.lightKey.shadows == k.shadows && r.lightKey.occlusion == k.occlusion
}

// pollLight asks the lighter for the light of world under the view's sun
// and uploads any newer map it has finished.
func (r *renderer) pollLight(world *World, v *Viewer) {
	if r.scatter.poll(world, v) { // the plants placed: the frame changes
		r.version++
	}
	if !wantsLight(v) {
		return
	}
	r.lighter.Request(world, v)
	if lm := r.lighter.Take(); lm != nil {
		r.version++
		if r.lightImg != nil && r.lightImg.Bounds().Dx() == lm.Width && r.lightImg.Bounds().Dy() == lm.Height {
			r.lightImg.WritePixels(lm.Pix)
		} else {
			if r.lightImg != nil {
				r.lightImg.Deallocate()
			}
			r.lightImg = ebiten.NewImage(lm.Width, lm.Height)
			r.lightImg.WritePixels(lm.Pix)
		}
		r.lightKey = lm.key
		r.lightMapSize, r.lightOutside, r.lightLevelsY, r.lightSlope = [2]int{lm.MapWidth, lm.MapHeight}, lm.Outside, lm.LevelsY, lm.SlopeSpread
	}
}

// lightPending reports whether the light map drawn is not yet the one the
// view asks for (the render command waits for it).
func (r *renderer) lightPending(world *World, v *Viewer) bool {
	return wantsLight(v) && (r.lighter.Pending() || r.lightKey != lightKeyOf(world, v)) || r.scatter.pending(world, v)
}

// shader returns the cheapest terrain shader variant that draws the view
// exactly: features the viewer has switched off are compiled out, and so
// are detail maps for chunks beyond their reach.
func (r *renderer) shader(v *Viewer, farFromCamera, noRoute, noLight, noMasks, noWater, beyond bool) *ebiten.Shader {
	if r.allFeatures {
		// Only what has no image to sample is left out.
		return r.variant(shaders.Variant{NoRoute: noRoute, NoLight: noLight, NoMasks: noMasks})
	}
	key := shaders.Variant{
		NoScheme:    !v.ColourScheme,
		NoTextures:  v.ColourScheme,
		NoTriplanar: !v.Triplanar,
		NoDetail:    !v.DetailMaps || farFromCamera,
		NoRoute:     noRoute,
		NoLight:     noLight,
		NoBands:     v.ColourScheme || v.Texturing == ByRules,
		NoRules:     v.ColourScheme || v.Texturing != ByRules,
		NoMasks:     noMasks || v.ColourScheme,
		NoWater:     noWater,
		NoTileBreak: v.ColourScheme || !v.BreakTiling,
		// With the repeat hidden every projection is biplanar.
		NoThreePlanes: !v.ColourScheme && v.BreakTiling,
		// The map's own chunks never reach beyond it, but materials by
		// rules read their convexity from the land beyond's coarse grid
		// on the map too.
		NoOutsideLight: !beyond && (v.ColourScheme || v.Texturing != ByRules),
	}
	return r.variant(key)
}

// variant returns a compiled terrain shader variant.
func (r *renderer) variant(key shaders.Variant) *ebiten.Shader {
	if s, ok := r.variants[key]; ok {
		return s
	}
	s, err := ebiten.NewShader(shaders.TerrainVariant(key))
	if err != nil { // every variant is compile-checked by package shaders' tests
		panic(fmt.Sprintf("terrain shader variant %+v: %v", key, err))
	}
	r.variants[key] = s
	return s
}

// viewProjection is exposed for the tests: the matrix the frame uses.
func viewProjection(cam *Camera, w, h int) mgl32.Mat4 { return cam.Projection(w, h).Mul4(cam.View()) }

// setAtlas replaces the materials.
func (r *renderer) setAtlas(img *image.RGBA) {
	r.atlas.Deallocate()
	r.atlas = ebiten.NewImageFromImage(img)
	r.means = materialMeans(img)
	r.version++
}

// srgbToLinear converts an 8-bit sRGB channel to the shaders' linear light.
func srgbToLinear(c uint8) float32 { return float32(math.Pow(float64(c)/255, 2.2)) }
