package game

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/ebitengine/debugui"
)

// The one table of the Viewer's settings, as terrain.Specs is for the
// generator: the Viewer panel's rows are drawn from it in its order,
// `render` makes its flags from it, docs/viewer.md is generated from it
// (TestViewerDoc), and a test checks that every shader uniform it names
// is declared in shaders/terrain.kage and receives the Viewer's value as
// it is. A field added to Viewer fails TestViewerSpecsCoverViewer until
// it has a row here.

// ViewerKind is how a Viewer setting is edited.
type ViewerKind int

// The kinds of Viewer settings.
const (
	ViewerBool   ViewerKind = iota // a checkbox; a boolean flag
	ViewerNumber                   // a slider over [Min, Max]
	ViewerInt                      // a whole number over [Min, Max]
	ViewerChoice                   // one of Choices, kept as its index
	ViewerColour                   // a linear RGB colour, edited as 8-bit sRGB
	ViewerList                     // several values on a row of their own
)

var viewerKindNames = map[ViewerKind]string{
	ViewerBool: "on/off", ViewerNumber: "number", ViewerInt: "integer",
	ViewerChoice: "choice", ViewerColour: "colour", ViewerList: "list",
}

func (k ViewerKind) String() string { return viewerKindNames[k] }

// The Viewer panel's folds, in the panel's order. Settings on top are in
// no fold ("").
const (
	foldMaterials = "Materials and snow"
	foldLight     = "Light and colours"
	foldCamera    = "Camera and resolution"
)

// viewerFolds are the Viewer panel's folds under its top rows, in order.
var viewerFolds = []string{foldMaterials, foldLight, foldCamera}

// ViewerSpec is one setting of the Viewer.
type ViewerSpec struct {
	Name  string // the Viewer field it edits
	Label string // the panel row's name with its unit; "" for no row
	Kind  ViewerKind
	// Min and Max bound the value as Viewer keeps it and the flag takes
	// it; the panel shows it times Scale (a share as a %), or, with
	// Heights, times the map's height range (a share of it in metres).
	Min, Max float64
	Scale    float64 // 0 reads as 1
	Heights  bool
	Choices  []string // ViewerChoice: the names of the indices 0, 1, …
	Fold     string   // the panel fold the row is under; "" for the top
	Flag     string   // the `render` flag that sets it; "" for none
	// Uniform is the terrain shader's uniform that receives the value as
	// it is (a bool as 0 or 1, a choice as its index); Feeds are uniforms
	// the renderer computes from it.
	Uniform string
	Feeds   []string
	Doc     string // one line: what it does

	// row draws a setting whose row is not one of the plain kinds'.
	row func(g *Game, ctx *debugui.Context, s ViewerSpec)
}

// ViewerSpecs are the Viewer's settings in the panel's order.
var ViewerSpecs = []ViewerSpec{
	{Name: "Texturing", Label: "Texturing by", Kind: ViewerChoice, Choices: []string{"height", "slope", "rules"}, Flag: "texturing", Uniform: "Attribute",
		Doc: "what picks the materials: the thesis's bands by height or by slope, or the rules a terrain artist uses (rock on steep ground, snow above a snow line, …)"},
	{Name: "SunElevation", Label: "Sun elevation, °", Kind: ViewerNumber, Min: -10, Max: 90, Flag: "sun-elevation", Feeds: []string{"SunDir", "SunColor", "SkyColor", "AirSun", "AirSky"},
		Doc: "the sun's height above the horizon, degrees"},
	{Name: "SunAzimuth", Label: "Sun azimuth, °", Kind: ViewerNumber, Min: 0, Max: 360, Flag: "sun-azimuth", Feeds: []string{"SunDir"},
		Doc: "the sun's direction, degrees like the camera yaw: 0 towards +x, 90 towards +z"},
	{Name: "Ambient", Label: "Ambient light, %", Kind: ViewerNumber, Min: 0, Max: 1, Scale: 100, Flag: "ambient", Uniform: "Ambient",
		Doc: "the strength of the sky's light, which reaches slopes facing away from the sun"},
	{Name: "FogDensity", Label: "Fog range, m", Kind: ViewerNumber, Min: 0, Max: 0.1, Flag: "fog-density", Feeds: []string{"FogBeta"},
		row: func(g *Game, ctx *debugui.Context, s ViewerSpec) { g.fogWidgets(ctx, s.Label) },
		Doc: "exp² fog per world unit, 0 for none; the panel shows its visibility, √ln 20 / density metres (5 % of the contrast left)"},
	{Name: "Water", Label: "Water level, m", Kind: ViewerNumber, Min: 0, Max: 1, Heights: true, Flag: "water", Feeds: []string{"UseWater", "WaterLevel"},
		Doc: "the water level as a share of the height range; 0 for no water"},
	{Name: "Triplanar", Label: "Cliff textures", Kind: ViewerBool, Flag: "triplanar", Uniform: "UseTriplanar",
		Doc: "project the textures from three planes, so steep slopes are not smeared (thesis eq. 5.2)"},
	{Name: "DetailMaps", Label: "Detail maps", Kind: ViewerBool, Flag: "detail-maps", Uniform: "UseDetail",
		Doc: "add the detail maps near the camera (thesis eq. 5.1)"},
	{Name: "Lighting", Label: "Lighting", Kind: ViewerBool, Flag: "lighting", Uniform: "Lighting",
		Doc: "light by the sky and the sun; off draws the materials unlit"},
	{Name: "Shadows", Label: "Shadows", Kind: ViewerBool, Flag: "shadows", Feeds: []string{"UseLightMap"},
		Doc: "the terrain's shadows from the sun, computed from the map"},
	{Name: "Occlusion", Label: "Occlusion", Kind: ViewerBool, Flag: "occlusion", Feeds: []string{"UseLightMap"},
		Doc: "ambient occlusion: valleys and crevices see less of the sky"},
	{Name: "Wireframe", Label: "Wireframe", Kind: ViewerBool, Flag: "wireframe", Uniform: "Wireframe",
		Doc: "draw the mesh edges over the ground"},
	{Name: "FlatShading", Label: "Flat shading", Kind: ViewerBool, Flag: "flat", Uniform: "FlatShading",
		Doc: "light each triangle with its face normal"},
	{Name: "ColourScheme", Label: "Height colours", Kind: ViewerBool, Flag: "colour-scheme", Uniform: "Scheme",
		Doc: "paper 001's solid colours by height share instead of textures"},
	{Name: "Antialias", Label: "Anti-aliasing", Kind: ViewerBool, Fold: foldCamera, Flag: "aa",
		Doc: "an edge anti-aliasing pass (FXAA) over the 3D view: smooth silhouettes"},
	{Name: "BreakTiling", Label: "Hide repeats", Kind: ViewerBool, Flag: "hide-repeats", Uniform: "BreakTiling",
		Doc: "hide the textures' repeat: a second, turned and scaled sampling blended in by noise"},
	{Name: "RouteLine", Label: "Route line", Kind: ViewerBool, Flag: "route-line", Uniform: "RouteLine",
		Doc: "a GPS route's highlight line, magenta with a dark outline, about 4 pixels wide at any distance, over the trail or road it is drawn as on the ground"},
	{Name: "Continue", Label: "Land beyond", Kind: ViewerBool, Flag: "land-beyond",
		Doc: "the noise generators' land goes on beyond the map to the horizon; off: level ground"},
	{Name: "Scatter", Label: "Trees, rocks", Kind: ViewerBool, Flag: "scatter",
		Doc: "trees below the tree line and rocks on the scree, by the land cover the materials by rules paint, drawn near the camera: they give the hills a scale"},

	{Name: "SnowLine", Label: "Snow line, m", Kind: ViewerNumber, Min: 0, Max: 1.2, Heights: true, Fold: foldMaterials, Flag: "snow-line", Uniform: "SnowLine",
		Doc: "rules: the share of the height range where snow starts on level ground facing away from the sun"},
	{Name: "SnowSlope", Label: "Snow max slope, °", Kind: ViewerNumber, Min: 10, Max: 90, Fold: foldMaterials, Flag: "snow-slope", Feeds: []string{"SnowCos"},
		Doc: "rules: the steepest slope that holds snow, degrees"},
	{Name: "Boundaries", Label: "Band tops, %", Kind: ViewerList, Min: 0, Max: 1, Scale: 100, Fold: foldMaterials, Uniform: "Boundaries",
		row: bandTopsRow, Doc: "height or slope bands: the upper end of each band's attribute range (thesis boundaries[4]); the last is 1"},
	{Name: "MaterialCount", Label: "Bands", Kind: ViewerInt, Min: 1, Max: 4, Fold: foldMaterials, Flag: "bands", Uniform: "MaterialCount",
		Doc: "height or slope bands: how many are in use"},
	{Name: "BandMaterials", Label: "Band materials", Kind: ViewerList, Choices: materialNames, Fold: foldMaterials, Uniform: "BandMaterials",
		row: bandMaterialsRow, Doc: "height or slope bands: the material each shows, lowest first"},
	{Name: "Blend", Label: "Band blend, %", Kind: ViewerNumber, Min: 0, Max: 0.3, Scale: 100, Fold: foldMaterials, Flag: "blend", Uniform: "Blend",
		Doc: "height or slope bands: the width above each band's top over which two materials blend (thesis: 0.05)"},
	{Name: "Tiling", Label: "Texture repeats", Kind: ViewerNumber, Min: 1, Max: 400, Fold: foldMaterials, Flag: "tiling", Uniform: "Tiling",
		Doc: "how many times the textures repeat across the map"},
	{Name: "DetailTiling", Label: "Detail repeats", Kind: ViewerNumber, Min: 1, Max: 3000, Fold: foldMaterials, Flag: "detail-tiling", Uniform: "DetailTiling",
		Doc: "how many times the detail maps repeat across the map"},
	{Name: "DetailDist", Label: "Detail reach, m", Kind: ViewerNumber, Min: 0, Max: 1000, Fold: foldMaterials, Flag: "detail-reach", Uniform: "DetailDistance",
		Doc: "the distance from the camera over which the detail maps fade out"},

	{Name: "Penumbra", Label: "Shadow edge, °", Kind: ViewerNumber, Min: 0.5, Max: 15, Fold: foldLight, Flag: "shadow-edge",
		Doc: "the sun elevation, degrees, over which a shadow's edge softens (in the light map)"},
	{Name: "SkyColor", Label: "Sky", Kind: ViewerColour, Fold: foldLight, Feeds: []string{"SkyColor", "SkyTint"},
		Doc: "the colour of the sky's light on the ground, and the tint of the sky drawn"},
	{Name: "HorizonColor", Label: "Horizon", Kind: ViewerColour, Fold: foldLight, Feeds: []string{"AirSky"},
		Doc: "the colour of the sky's light the air scatters again: the haze towards the horizon"},
	{Name: "SunColor", Label: "Sun", Kind: ViewerColour, Fold: foldLight, Feeds: []string{"SunColor"},
		Doc: "the colour of the sun's light on the ground with the sun overhead; the air reddens it as the sun sinks"},
	{Name: "FogColor", Label: "Fog", Kind: ViewerColour, Fold: foldLight, Uniform: "FogColor",
		Doc: "the colour of the fog's grains"},
	{Name: "Gamma", Kind: ViewerNumber, Min: 1, Max: 3, Uniform: "Gamma",
		Doc: "the display gamma the textures are decoded and the frame encoded with"},
}

// ViewerSpecByFlag is the setting the `render` flag name sets.
func ViewerSpecByFlag(flag string) (ViewerSpec, bool) {
	i := slices.IndexFunc(ViewerSpecs, func(s ViewerSpec) bool { return s.Flag == flag })
	if i < 0 {
		return ViewerSpec{}, false
	}
	return ViewerSpecs[i], true
}

// field is the address of v's field of this setting.
func (s ViewerSpec) field(v *Viewer) any {
	return reflect.ValueOf(v).Elem().FieldByName(s.Name).Addr().Interface()
}

// Get is v's value of this setting as the flag would take it; a
// colour as 8-bit sRGB "r, g, b", a list as its values.
func (s ViewerSpec) Get(v *Viewer) string {
	num := func(f float32) string { return strconv.FormatFloat(float64(f), 'g', -1, 32) }
	switch p := s.field(v).(type) {
	case *bool:
		return strconv.FormatBool(*p)
	case *float32:
		return num(*p)
	case *int:
		return strconv.Itoa(*p)
	case *Texturing:
		return s.Choices[*p]
	case *[3]float32:
		c := srgbOf(*p)
		return fmt.Sprintf("%d, %d, %d", c[0], c[1], c[2])
	case *[4]float32:
		return num(p[0]) + ", " + num(p[1]) + ", " + num(p[2]) + ", " + num(p[3])
	case *[4]int:
		var names []string
		for _, m := range p {
			names = append(names, s.Choices[m])
		}
		return strings.Join(names, ", ")
	}
	panic("viewer setting " + s.Name + " has no text form")
}

// Set sets v's value of this setting from text as the flag gives it,
// refusing a value outside its range.
func (s ViewerSpec) Set(v *Viewer, text string) error {
	switch p := s.field(v).(type) {
	case *bool:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return fmt.Errorf("%q: want true or false", text)
		}
		*p = b
		return nil
	case *float32, *int:
		f, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if err != nil || !(f >= s.Min && f <= s.Max) {
			return fmt.Errorf("%q: want a number from %g to %g", text, s.Min, s.Max)
		}
		if ip, ok := p.(*int); ok {
			if f != math.Trunc(f) {
				return fmt.Errorf("%q: want a whole number from %g to %g", text, s.Min, s.Max)
			}
			*ip = int(f)
		} else {
			*p.(*float32) = float32(f)
		}
		return nil
	case *Texturing:
		i := slices.Index(s.Choices, text)
		if i < 0 {
			return fmt.Errorf("%q: want one of %s", text, strings.Join(s.Choices, ", "))
		}
		*p = Texturing(i)
		return nil
	}
	return fmt.Errorf("the Viewer's %s has no text form", s.Name)
}

// shownScale is what the panel multiplies the value by on map vs.
func (s ViewerSpec) shownScale(verticalScale float64) float64 {
	switch {
	case s.Heights:
		return verticalScale
	case s.Scale != 0:
		return s.Scale
	}
	return 1
}

// srgbOf is a linear colour as 8-bit sRGB, as the colour rows show it.
func srgbOf(c [3]float32) [3]int {
	var out [3]int
	for k := range c {
		out[k] = int(math.Round(255 * math.Pow(float64(c[k]), 1/2.2)))
	}
	return out
}

// viewerRows draws the Viewer panel's rows of one fold ("": the top) from
// ViewerSpecs: a labelled row per setting, the switches three to a row,
// and the colours under one header.
func (g *Game) viewerRows(ctx *debugui.Context, fold string) {
	v := &g.View
	boxes, colours := 0, false
	for _, s := range ViewerSpecs {
		if s.Fold != fold || s.Label == "" {
			continue
		}
		if s.Kind == ViewerBool {
			if boxes == 0 {
				ctx.SetGridLayout([]int{-1, -1, -1}, nil)
			}
			boxes++
			ctx.IDScope(s.Name, func() { ctx.Checkbox(s.field(v).(*bool), s.Label) })
			continue
		}
		boxes = 0
		if s.Kind == ViewerColour {
			if !colours {
				ctx.SetGridLayout([]int{56, 18, -1, -1, -1}, nil)
				for _, h := range []string{"Colour", "", "red", "green", "blue"} {
					ctx.Text(h)
				}
				colours = true
			}
			colourRow(ctx, s.Label, s.field(v).(*[3]float32))
			continue
		}
		ctx.SetGridLayout([]int{specLabelW, -1}, nil)
		ctx.IDScope(s.Name, func() {
			switch p := s.field(v).(type) {
			case *float32:
				if s.row != nil {
					s.row(g, ctx, s)
					return
				}
				k := s.shownScale(g.World.Map.VerticalScale)
				sliderF32(ctx, s.Label, p, s.Min*k, s.Max*k, k)
			case *int:
				ctx.Text(s.Label)
				ctx.Slider(p, int(s.Min), int(s.Max), 1)
			case *Texturing:
				ctx.Text(s.Label)
				i := int(*p)
				ctx.Dropdown(&i, s.Choices).On(func() { *p = Texturing(i) })
			default:
				s.row(g, ctx, s)
			}
		})
	}
}

// bandTopsRow edits the tops of the first three bands in % (the last is 1).
func bandTopsRow(g *Game, ctx *debugui.Context, s ViewerSpec) {
	v := &g.View
	ctx.SetGridLayout([]int{specLabelW, -1, -1, -1}, nil)
	ctx.Text(s.Label)
	for i := range 3 {
		ctx.IDScope(fmt.Sprint("top", i), func() {
			f := 100 * float64(v.Boundaries[i])
			ctx.SliderF(&f, 0, 100, 0.5, 0).On(func() { v.Boundaries[i] = float32(f / 100) })
		})
	}
}

// bandMaterialsRow picks the material of each band in use, lowest first,
// each beside a swatch of its colour (bandSwatches).
func bandMaterialsRow(g *Game, ctx *debugui.Context, s ViewerSpec) {
	g.bandSwatches(ctx, s.Label+", lowest first")
}
