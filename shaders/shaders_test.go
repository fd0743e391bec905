package shaders

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"cordillera/assets"
)

// TestCompile compiles the shaders; ebiten.NewShader needs no display.
func TestCompile(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  []byte
	}{{"terrain", Terrain}, {"sky", Sky}, {"antialias", Antialias}, {"upscale", Upscale}, {"scatter", Scatter}} {
		if _, err := ebiten.NewShader(tc.src); err != nil {
			t.Errorf("%s.kage: %v", tc.name, err)
		}
	}
}

var uniformDecl = regexp.MustCompile(`(?m)^var ([A-Z]\w*) (\w+)$`)

// TestUniforms checks that each shader declares exactly the uniforms of the
// contract in the package comment, with their types: the renderer sets them
// by name, and a misspelt one would silently read as zero.
func TestUniforms(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  []byte
		want map[string]string
	}{
		{"terrain", Terrain, map[string]string{
			"CameraPos": "vec3", "SunDir": "vec3", "SkyColor": "vec3", "SunColor": "vec3",
			"Lighting": "float", "Ambient": "float", "Attribute": "float", "Scheme": "float",
			"MaterialCount": "float", "Boundaries": "vec4", "BandMaterials": "vec4", "Blend": "float",
			"HeightMin": "float", "HeightMax": "float", "MapExtent": "float", "Tiling": "float",
			"UseTriplanar": "float", "UseDetail": "float", "DetailTiling": "float",
			"DetailDistance": "float", "BreakTiling": "float", "FlatShading": "float", "Wireframe": "float", "RouteScale": "float", "RouteColor": "vec3", "RouteReach": "float", "TrailHalfWidth": "float", "TrailRoad": "float", "RouteLine": "float",
			"Gamma": "float", "SkyTint": "vec3", "AirSun": "vec3", "AirSky": "vec3", "BetaR": "vec3", "BetaM": "float",
			"FogColor": "vec3", "FogBeta": "float", "FogBase": "float", "FogHeight": "float",
			"UseWater": "float", "WaterLevel": "float", "WaterDepth": "float",
			"UseLightMap": "float", "UseOcclusion": "float", "LightScale": "float", "LightSize": "vec2", "LightLevelsY": "float", "SlopeSpread": "vec2", "EdgeLevel": "float", "UseOutsideLight": "float", "OutsideOrigin": "vec2", "OutsideScale": "float", "OutsideSize": "float", "SnowLine": "float", "SnowCos": "vec2", "ShoreLine": "float", "MaterialMeans": "mat4",
			"UseMasks": "float", "MaskScale": "float",
		}},
		{"sky", Sky, map[string]string{
			"InvViewProj": "mat4", "ScreenSize": "vec2", "CameraPos": "vec3", "SunDir": "vec3", "SunColor": "vec3", "Gamma": "float",
			"SkyTint": "vec3", "AirSun": "vec3", "AirSky": "vec3", "BetaR": "vec3", "BetaM": "float",
			"FogColor": "vec3", "FogBeta": "float", "FogBase": "float", "FogHeight": "float",
		}},
		{"antialias", Antialias, map[string]string{}},
		{"upscale", Upscale, map[string]string{}},
	} {
		got := map[string]string{}
		for _, m := range uniformDecl.FindAllSubmatch(tc.src, -1) {
			got[string(m[1])] = string(m[2])
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s.kage uniforms:\n got %v\nwant %v", tc.name, got, tc.want)
		}
	}
}

// TestAtlasLayout checks the terrain shader's copy of the atlas layout
// against package assets.
func TestAtlasLayout(t *testing.T) {
	want := map[string]float64{
		"textureSize":    assets.TextureSize,
		"maxLevel":       assets.MipLevels - 1,
		"atlasWidth":     assets.AtlasWidth,
		"materialStride": assets.MaterialStride,
		"detailOffset":   assets.DetailOffset,
	}
	for name, v := range want {
		m := regexp.MustCompile(`(?m)^const ` + name + ` = ([0-9.]+)`).FindSubmatch(Terrain)
		if m == nil {
			t.Errorf("terrain.kage: no const %s", name)
			continue
		}
		if got, _ := strconv.ParseFloat(string(m[1]), 64); got != v {
			t.Errorf("terrain.kage: const %s = %v, want %v", name, got, v)
		}
	}
}

// Every variant compiles and differs from the full shader exactly in its
// switches.
func TestTerrainVariants(t *testing.T) {
	// All combinations of the first five switches; the newer ones in
	// combinations with every other switch on or off together.
	var variants []Variant
	for mask := 0; mask < 32; mask++ {
		variants = append(variants, Variant{NoScheme: mask&1 != 0, NoTriplanar: mask&2 != 0, NoDetail: mask&4 != 0, NoTextures: mask&8 != 0, NoRoute: mask&16 != 0})
	}
	for mask := 1; mask < 16; mask++ {
		for _, rest := range []bool{false, true} {
			variants = append(variants, Variant{NoScheme: rest, NoTriplanar: rest, NoDetail: rest, NoRoute: rest,
				NoLight: mask&1 != 0, NoBands: mask&2 != 0, NoRules: mask&4 != 0, NoMasks: mask&8 != 0, NoWater: mask&1 != 0, NoTileBreak: mask&2 != 0, NoThreePlanes: mask&4 != 0})
		}
	}
	for _, v := range variants {
		src := TerrainVariant(v)
		if _, err := ebiten.NewShader(src); err != nil {
			t.Fatalf("%+v: %v", v, err)
		}
		for name, off := range map[string]bool{"compiledScheme": v.NoScheme, "compiledTriplanar": v.NoTriplanar, "compiledDetail": v.NoDetail, "compiledTextures": v.NoTextures, "compiledRoute": v.NoRoute,
			"compiledLight": v.NoLight, "compiledBands": v.NoBands, "compiledRules": v.NoRules, "compiledMasks": v.NoMasks, "compiledWater": v.NoWater, "compiledTileBreak": v.NoTileBreak, "compiledThreePlanes": v.NoThreePlanes} {
			want := "const " + name + " = 1.0"
			if off {
				want = "const " + name + " = 0.0"
			}
			if !bytes.Contains(src, []byte(want)) {
				t.Errorf("%+v: source lacks %q", v, want)
			}
		}
	}
}
