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
	atlas       *ebiten.Image
	terrainOpts ebiten.DrawTrianglesShaderOptions
	skyOpts     ebiten.DrawRectShaderOptions
	uniforms    map[string]any
	skyUniforms map[string]any
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
	atlas, err := assets.Atlas()
	if err != nil {
		return nil, fmt.Errorf("materials: %w", err)
	}
	return &renderer{variants: map[shaders.Variant]*ebiten.Shader{{}: ts}, sky: ss, atlas: ebiten.NewImageFromImage(atlas),
		uniforms: map[string]any{}, skyUniforms: map[string]any{}}, nil
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
	inv := vp.Inv()

	su := r.skyUniforms
	su["InvViewProj"] = inv[:]
	su["ScreenSize"] = []float32{float32(w), float32(h)}
	su["SunDir"] = sun[:]
	su["SkyColor"] = vec3(v.SkyColor)
	su["HorizonColor"] = vec3(v.HorizonColor)
	su["SunColor"] = vec3(v.SunColor)
	su["Gamma"] = v.Gamma
	r.skyOpts.Uniforms = su
	dst.DrawRectShader(w, h, r.sky, &r.skyOpts)

	ext, _ := m.Extent()
	tu := r.uniforms
	tu["CameraPos"] = cam.Pos[:]
	tu["SunDir"] = sun[:]
	tu["SkyColor"] = vec3(v.SkyColor)
	tu["SunColor"] = vec3(v.SunColor)
	tu["Lighting"] = boolf(v.Lighting)
	tu["Ambient"] = v.Ambient
	tu["Attribute"] = float32(v.Texturing)
	tu["Scheme"] = boolf(v.ColourScheme)
	tu["MaterialCount"] = float32(v.MaterialCount)
	tu["Boundaries"] = v.Boundaries[:]
	tu["Blend"] = v.Blend
	tu["HeightMin"] = float32(0)
	tu["HeightMax"] = float32(m.VerticalScale)
	tu["MapExtent"] = float32(ext)
	tu["Tiling"] = v.Tiling
	tu["UseTriplanar"] = boolf(v.Triplanar)
	tu["UseDetail"] = boolf(v.DetailMaps)
	tu["DetailTiling"] = v.DetailTiling
	tu["DetailDistance"] = v.DetailDist
	tu["FlatShading"] = boolf(v.FlatShading)
	tu["Wireframe"] = boolf(v.Wireframe)
	tu["FogColor"] = vec3(v.FogColor)
	tu["FogDensity"] = v.FogDensity
	tu["Gamma"] = v.Gamma
	route := world.Route
	r.terrainOpts.Images[1] = nil
	if route != nil {
		tu["RouteScale"] = float32(route.scale / m.CellSize)
		tu["RouteHalfWidth"] = float32(RouteHalfWidth)
		c := routeColour
		tu["RouteColor"] = []float32{srgbToLinear(c.R), srgbToLinear(c.G), srgbToLinear(c.B)}
		r.terrainOpts.Images[1] = route.image()
	}
	r.terrainOpts.Uniforms = tu
	r.terrainOpts.Images[0] = r.atlas
	for i := range f.batches {
		for _, d := range f.batches[i].calls() {
			if len(d.indices) == 0 {
				continue
			}
			dst.DrawTrianglesShader32(d.vertices, d.indices, r.shader(v, d.noDetail, route == nil), &r.terrainOpts)
		}
	}
}

// shader returns the cheapest terrain shader variant that draws the view
// exactly: features the viewer has switched off are compiled out, and so
// are detail maps for chunks beyond their reach.
func (r *renderer) shader(v *Viewer, farFromCamera, noRoute bool) *ebiten.Shader {
	if r.allFeatures {
		if noRoute {
			return r.variant(shaders.Variant{NoRoute: true})
		}
		return r.variants[shaders.Variant{}]
	}
	key := shaders.Variant{
		NoScheme:    !v.ColourScheme,
		NoTextures:  v.ColourScheme,
		NoTriplanar: !v.Triplanar,
		NoDetail:    !v.DetailMaps || farFromCamera,
		NoRoute:     noRoute,
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
}

// srgbToLinear converts an 8-bit sRGB channel to the shaders' linear light.
func srgbToLinear(c uint8) float32 { return float32(math.Pow(float64(c)/255, 2.2)) }
