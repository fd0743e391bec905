// Package shaders holds Cordillera's Kage shaders, embedded as source for
// ebiten.NewShader. Each returns premultiplied colour with alpha 1. Every
// uniform is a float32, or a []float32 for vectors and matrices (a Go int
// would be reinterpreted bit for bit); a uniform left out reads as 0.
//
// # Terrain
//
// Drawn with DrawTrianglesShader32, Images[0] = assets.Atlas() (layout in
// package assets). Ebiten has no vertex stage, so the renderer projects on
// the CPU and passes, per vertex, with w the vertex's clip-space w:
//
//	ColorR, ColorG, ColorB       world normal (nx, ny, nz) · 1/w
//	ColorA                       world distance between neighbouring mesh
//	                             vertices (LOD step × cell size), constant per
//	                             chunk, NOT divided by w
//	Custom0, Custom1, Custom2    world position (x, y, z) · 1/w
//	Custom3                      1/w
//	SrcX, SrcY                   0 (unused)
//
// and the shader recovers world = custom.xyz / custom.w and normal =
// normalize(color.rgb / custom.w), perspective-correct. World y is up; mesh
// vertex (col, row) lies at x = col·cell, z = row·cell, and each cell is
// split along its (col+1, row)–(col, row+1) diagonal (thesis listing 5.1,
// terrain/normals.go), which the wireframe draws.
//
// Uniforms:
//
//	CameraPos vec3        camera position, world units
//	SunDir vec3           unit vector towards the sun
//	SkyColor vec3         sky (ambient) light colour, linear 0–1
//	SunColor vec3         sun (diffuse) light colour, linear 0–1
//	Lighting float        1: colour × (SkyColor·Ambient + SunColor·max(N·L, 0))
//	                      (thesis eq. 5.3); 0: unlit
//	Ambient float         ambient strength, default 0.45
//	Attribute float       texturing attribute: 0 height, 1 slope = 1 − n.y
//	                      (thesis listing 5.2); 2 materials by rules (rock on
//	                      steep ground, grass and forest on gentle ground,
//	                      snow above a snow line moved by facing and noise,
//	                      sand on the lowest ground, sediment and wet rock
//	                      from the erosion masks), ignoring MaterialCount,
//	                      Boundaries and Blend
//	SnowLine float        rules: share of the height range where snow starts
//	SnowCos vec2          rules: cosines of the slopes where snow starts to
//	                      thin out (x) and beyond which none lies (y)
//	ShoreLine float       rules: share of the height range sand and gravel
//	                      reach above the water level (none without water)
//	UseMasks float        rules: 1: Images[3] holds the erosion masks, one
//	                      texel per map sample at world xz · MaskScale:
//	                      normalised flow (R) and deposition (G)
//	MaskScale float       mask texels per world unit
//	Scheme float          0: textured materials; 1: paper 001's solid colours
//	                      by share of the height range (yellow < 30 %,
//	                      green < 50 %, brown < 70 %, white above; these
//	                      fixed thresholds, not Boundaries or Attribute, but
//	                      with the same Blend at each band edge)
//	MaterialCount float   materials in use, 1–4, from sand (0), grass (1),
//	                      rock (2), snow (3)
//	Boundaries vec4       upper end of each material's attribute range
//	                      (thesis boundaries[4]); the last is 1
//	BandMaterials vec4    the material each of those bands shows: sand 0,
//	                      grass 1, rock 2, snow 3 (0, 1, 2, 3 by default)
//	Blend float           width above each boundary over which the two
//	                      materials are smoothstep-blended, default 0.05
//	HeightMin float       world y that maps to height attribute 0
//	HeightMax float       world y that maps to height attribute 1
//	MapExtent float       world width of the map
//	Tiling float          texture repeats across MapExtent
//	UseTriplanar float    1: triplanar projection (thesis eq. 5.2); 0: planar
//	                      onto xz
//	UseDetail float       1: add the detail maps, col = tex + det − 0.5
//	                      (thesis eq. 5.1)
//	DetailTiling float    detail map repeats across MapExtent
//	DetailDistance float  distance from the camera at which the detail has
//	                      faded to neutral grey
//	BreakTiling float     1: each colour texture is sampled a second time,
//	                      turned 0.61 rad about the vertical, tilted 0.3 rad
//	                      about x and then z, and scaled by 0.7071, and the
//	                      two mixed by a value noise w
//	                      (changing over about 1/0.37 tiles) with the
//	                      variance-preserving blend μ + ((1−w)(a−μ) +
//	                      w(b−μ)) / √((1−w)² + w²), μ the texture's 1×1 mip
//	                      level (Heitz & Neyret 2018): no visible repeat
//	FlatShading float     1: light with the face normal, from
//	                      cross(dfdy(world), dfdx(world)), turned to the side
//	                      of the vertex normal (texturing keeps the vertex
//	                      normal)
//	Wireframe float       1: dark anti-aliased lines over the shaded surface
//	                      on x = k·ColorA, z = k·ColorA and the cell diagonals
//	                      x + z = k·ColorA
//	SkyTint vec3          the atmosphere (game/sky.go), shared with the
//	AirSun vec3           sky: the Rayleigh sky's tint, the sun's light the
//	AirSky vec3           air scatters, the sky's light it scatters again,
//	BetaR vec3            Rayleigh scattering per world unit at y = 0
//	                      (density exp(−y/8000)), Mie scattering BetaM
//	BetaM float           (density exp(−y/1200), extinction BetaM/0.9)
//	FogColor vec3         and the fog, extinction FogBeta at y = FogBase,
//	FogBeta float         density exp(−(y − FogBase)/FogHeight), its
//	FogBase float         grains FogColor. The ground's colour c becomes
//	FogHeight float       c·T + L, T = exp(−τ) and L the in-scattered
//	                      light, by the optical depth τ of each along the
//	                      straight ray from the eye (the ground's altitude
//	                      lowered by the Earth's curve, d²/2R)
//	UseWater float        1: ground below WaterLevel is drawn as the water
//	                      surface above it (where the ray to the ground
//	                      crosses y = WaterLevel): sky reflection by
//	                      Fresnel, sun glint, the bed fading to deep water
//	                      over WaterDepth world units of path, foam at the
//	                      shore; the haze then measures to the surface
//	WaterLevel float      world y of the water surface
//	WaterDepth float      world units of water path that hide the bed
//	Gamma float           display gamma, default 2.2; ≤ 0 reads as 1
//	UseLightMap float     1: Images[2] is the light map (package
//	                      terrain/light: R the sun's visibility, heightfield
//	                      shadows; G the sky's, ambient occlusion), one
//	                      texel per map sample, sampled bilinearly by hand at
//	                      world xz · LightScale and clamped to the map; the
//	                      lighting becomes SkyColor·Ambient·G +
//	                      SunColor·max(N·L, 0)·R
//	UseOcclusion float    1: the light map's G is the ambient occlusion
//	                      (else 1 everywhere); the materials by rules read
//	                      the ground's convexity from it
//	LightScale float      light map texels per world unit
//	RouteLine float       1 (the Viewer's default): the GPS route's
//	                      highlight line over its trail (Images[1] is the
//	                      route's field; the route's uniforms are described
//	                      in terrain.kage)
//
// Textures are stored display-referred: the shader picks the material
// colour (textures, detail, blending) in that space as the thesis does,
// raises it to Gamma into linear light, lights it, draws the wireframe,
// fogs it and encodes it with 1/Gamma. Sampling is by hand: bilinear with
// wrap-around inside one mip level, the level from the screen-space
// derivatives of the texture coordinate (max of |∂uv/∂x|, |∂uv/∂y| in
// texels, the OpenGL rule), trilinear between the two nearest levels for the
// colour textures and bilinear in the nearest level for the detail maps.
//
// # Sky
//
// Drawn with DrawRectShader over the whole destination, no images.
// Uniforms:
//
//	InvViewProj mat4      inverse of projection·view, the view's eye at the
//	                      origin (no translation), column-major as mgl32
//	                      stores it ([]float32 of 16)
//	ScreenSize vec2       destination size in pixels
//	CameraPos vec3        camera position, world units (its y the eye's
//	                      altitude in the atmosphere)
//	SunDir vec3           unit vector towards the sun
//	SunColor vec3         the sun disc's colour (its light's transmittance)
//	Gamma float           display gamma, default 2.2; ≤ 0 reads as 1
//	SkyTint … FogHeight   the atmosphere, as the terrain's
//
// Each pixel's ray comes from NDC x = 2·px/W − 1, y = 1 − 2·py/H (pixel
// centres, relative to the destination image's origin) unprojected at the
// near and far planes. Its colour is the light the air scatters along it
// from the eye to space: the optical depth of each kind of scatterer is
// its density at the eye times its scale height times the air mass
// 1/(μ + 1/√(πR/2H)) of a round Earth (rays below the horizon count as
// level); then the sun's disc, 0.6° across, seen through that air; then
// gamma.
//
// # Anti-aliasing
//
// Drawn with DrawRectShader over the finished 3D view, Images[0] = that
// view (display-referred, the same size as the destination); no uniforms.
// Where the Rec. 601 luma of a pixel and its four diagonal neighbours
// spans more than max(0.0312, 0.125 × the largest), the pixel becomes the
// average of the view sampled (bilinearly, by hand) along the edge's
// direction, up to 8 pixels each way (Lottes's FXAA); elsewhere it is
// copied unchanged.
//
// # Upscale
//
// Drawn with DrawTrianglesShader, one quad over the destination whose
// source coordinates span Images[0], the 3D view drawn at a share of the
// screen's size (display-referred); no uniforms. Each pixel is 2c − b, c
// the Catmull-Rom bicubic of the 4×4 source pixels around its point (edge
// pixels repeated beyond the image) and b the bilinear of the 2×2 nearest,
// clamped per channel to the range of those 2×2, so it never rings past
// its neighbours: a step edge's 10–90 % width is 0.61 of a source pixel,
// bilinear's 0.8.
package shaders

import (
	_ "embed"
	"strings"
)

// Terrain is the Kage source of the terrain shader.
//
//go:embed terrain.kage
var Terrain []byte

// Sky is the Kage source of the sky shader.
//
//go:embed sky.kage
var Sky []byte

// Antialias is the Kage source of the edge anti-aliasing pass.
//
//go:embed antialias.kage
var Antialias []byte

// Upscale is the Kage source of the sharp upscale of the 3D view.
//
//go:embed upscale.kage
var Upscale []byte

// Scatter is the Kage source of the trees' and rocks' billboards and
// shadows (its vertex contract is in its header).
//
//go:embed scatter.kage
var Scatter []byte

// Variant selects the features compiled into a terrain shader. Software
// rasterizers such as llvmpipe run every branch of a shader whatever its
// uniforms say, so a feature that is off, or that cannot show in a chunk
// (detail maps beyond DetailDistance fade to nothing), is compiled out
// instead: the output is the same and the shader is cheaper.
type Variant struct {
	NoScheme    bool // the colour scheme of paper 001 is never used
	NoTextures  bool // only the colour scheme is used: no texture sampling
	NoTriplanar bool // planar projection only
	NoDetail    bool // no detail maps
	NoRoute     bool // no GPS route mask (Images[1] unused)
	NoLight     bool // no light map: no shadows or occlusion (Images[2] unused)
	NoBands     bool // no thesis texturing by height or slope bands (Attribute 0, 1)
	NoRules     bool // no materials by rules (Attribute 2)
	NoMasks     bool // no erosion masks (Images[3] unused)
	NoWater     bool // no water surface
	NoTileBreak bool // colour textures sampled once: their repeat not hidden
	// NoThreePlanes leaves only the two-plane (biplanar) sampling that
	// BreakTiling switches to: the thesis's three-plane projection is out.
	NoThreePlanes bool
	// NoOutsideLight leaves out the light of the land beyond the map:
	// beyond it nothing shades (the map's own chunks never need it).
	NoOutsideLight bool
}

// TerrainVariant returns the terrain shader source with the features v
// turns off compiled out.
func TerrainVariant(v Variant) []byte {
	src := string(Terrain)
	off := func(name string, disable bool) {
		if disable {
			src = strings.Replace(src, "const "+name+" = 1.0", "const "+name+" = 0.0", 1)
		}
	}
	off("compiledScheme", v.NoScheme)
	off("compiledTextures", v.NoTextures)
	off("compiledTriplanar", v.NoTriplanar)
	off("compiledDetail", v.NoDetail)
	off("compiledRoute", v.NoRoute)
	off("compiledLight", v.NoLight)
	off("compiledBands", v.NoBands)
	off("compiledRules", v.NoRules)
	off("compiledMasks", v.NoMasks)
	off("compiledWater", v.NoWater)
	off("compiledTileBreak", v.NoTileBreak)
	off("compiledThreePlanes", v.NoThreePlanes)
	off("compiledOutsideLight", v.NoOutsideLight)
	return []byte(src)
}
