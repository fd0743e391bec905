package game

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ebitengine/debugui"

	"cordillera/terrain"
	"cordillera/terrain/erosion"
	"cordillera/terrain/heightfile"
)

// The debug UI: one window with collapsible Generator, Erosion, Route,
// Viewer, File and Teach panels under a status row. The Generator panel is
// built from terrain.Specs, so every generation parameter appears with its
// range and meaning, and a parameter added to the table appears here by
// itself.

// uiWidth is the width of the UI window.
const uiWidth = 330

// sizes are the map sizes offered in the Generator panel.
var sizes = []int{65, 129, 257, 513, 1025, 2049, 4097}

// uiState holds what the widgets edit between frames.
type uiState struct {
	preset  int
	path    string // the File panel's path field
	matDir  string // the File panel's materials folder field
	message string // the last error or confirmation, in plain words
	isError bool
	open    map[string]bool // panels that start unfolded (Generator does unless closed)
	closed  map[string]bool
	// flipped are the panels unfolded or folded by the program since the
	// window was built (see openPanel).
	flipped map[string]bool
	built   bool // the window is shown and g.ui.unfolded tells its panels

	presetView int // the preset whose look the Viewer was last given (UsePreset)

	unfolded []string // the panels unfolded in the latest UI update, in order
	// remembered are the panels that were unfolded when U hid them: they
	// come back so (nil: as OpenPanels set).
	remembered map[string]bool

	tip     tipState       // the tooltip under the pointer
	replace pendingReplace // a save that asked before replacing a file

	generateOver *terrain.Heightmap // the loaded map whose Generator controls were asked for
}

// OpenPanels sets which panels start unfolded: any of Generator, Erosion,
// Route, Viewer, File and Teach. It takes effect when the UI is first built.
func (g *Game) OpenPanels(names ...string) {
	g.ui.open, g.ui.closed = map[string]bool{}, map[string]bool{"Generator": true}
	for _, n := range names {
		g.ui.open[n] = true
		delete(g.ui.closed, n)
	}
}

// say shows a message in the UI and, briefly, on the HUD.
func (g *Game) say(s string) {
	g.ui.message, g.ui.isError = s, false
	g.status, g.statusAt = s, time.Now()
}

// fail shows an error in plain words; nothing else changes.
func (g *Game) fail(err error) {
	g.ui.message, g.ui.isError = err.Error(), true
	g.status, g.statusAt = "error: "+err.Error(), time.Now()
}

// buildUI lays out the window; it runs inside debugui's Update.
func (g *Game) buildUI(ctx *debugui.Context) {
	h := max(g.h-20, 200)
	g.ui.unfolded = g.ui.unfolded[:0]
	g.ui.built = true
	ctx.Window("Cordillera", image.Rect(10, 10, 10+uiWidth, 10+h), func(layout debugui.ContainerLayout) {
		g.beginTips(layout.BodyBounds)
		defer g.endTips()
		g.statusRow(ctx)
		p := g.Params
		g.panel(ctx, "Generator", func() { g.generatorPanel(ctx, &p) })
		g.panel(ctx, "Erosion", func() { g.erosionSection(ctx, &p) })
		g.panel(ctx, "Route", func() { g.routeSection(ctx, &p) })
		g.applyParams(p)
		g.panel(ctx, "Viewer", func() { g.viewerPanel(ctx) })
		g.panel(ctx, "File", func() { g.filePanel(ctx) })
		g.panel(ctx, "Teach", func() { g.teachPanel(ctx) })
		if g.ui.message != "" {
			prefix := ""
			if g.ui.isError {
				prefix = "Error: "
			}
			ctx.SetGridLayout([]int{-1}, nil)
			ctx.Text(prefix + g.ui.message)
		}
	})
}

// statusRow is the window's first row: the progress while a map is being
// made, "ready" otherwise. It is always there and one line long, so that no
// widget moves when a rebuild starts or ends (a click aimed at one would
// land on another).
func (g *Game) statusRow(ctx *debugui.Context) {
	ctx.SetGridLayout([]int{-1}, nil)
	text := "ready"
	if busy, f := g.regen.Status(); busy {
		text = fmt.Sprintf("generating… %.0f %%", 100*f)
		if g.stage != "" {
			text += " (showing " + g.stage + ")"
		}
	}
	const most = (uiWidth - 30) / 6 // characters of the 6-pixel font on one line
	if r := []rune(text); len(r) > most {
		text = string(r[:most-1]) + "…"
	}
	ctx.Text(text)
}

// generatorPanel edits p; any change starts a regeneration.
func (g *Game) generatorPanel(ctx *debugui.Context, p *terrain.Params) {
	if g.World.Source == nil {
		g.ui.generateOver = nil
	}
	if src := g.World.Source; src == nil || g.loadedSection(ctx, src) {
		g.presetRow(ctx, p)
		for _, s := range generatorSpecsShown(*p) {
			ctx.IDScope(s.Name, func() { g.specWidget(ctx, s, p) })
		}
	}
}

// routeSection edits the parameters of the terrain made through a route.
func (g *Game) routeSection(ctx *debugui.Context, p *terrain.Params) {
	for _, s := range terrain.Specs {
		if s.Group == "route" {
			ctx.IDScope(s.Name, func() { g.specWidget(ctx, s, p) })
		}
	}
}

// maskTints colour the erosion masks on the minimap: water blue for the
// flow, rust for the ground removed, sand for the ground laid down.
var maskTints = map[string]color.RGBA{
	"flow":      {40, 110, 230, 255},
	"eroded":    {200, 60, 30, 255},
	"deposited": {240, 200, 80, 255},
}

// ShowMask shows an erosion mask of the world on the minimap ("relief":
// none). The choice carries over to the next world while it has masks.
func (g *Game) ShowMask(name string) {
	g.maskShown = name
	mm := g.World.Minimap
	if g.World.Masks == nil || name == "relief" {
		if mm.OverlayName != "" {
			mm.SetOverlay("", nil, color.RGBA{})
		}
		return
	}
	mask, err := g.World.Masks.Normalised(name)
	if err != nil {
		g.fail(err)
		return
	}
	mm.SetOverlay(name, mask, maskTints[name])
}

// erosionStageOrder is the order the Erosion section runs its stages in:
// the river network first, then the droplets' gullies and fans, then the
// talus slopes that settle what they left.
var erosionStageOrder = []string{terrain.FluvialErosion, terrain.HydraulicErosion, terrain.ThermalErosion}

// erosionSection is the Erosion panel: a checkbox per stage, and the
// parameters of the stages that are on.
func (g *Game) erosionSection(ctx *debugui.Context, p *terrain.Params) {
	on := erosion.Stages(*p)
	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Text("stages, run in the order listed: " + p.Erosion)
	ctx.SetGridLayout([]int{-1, -1, -1}, nil)
	for _, stage := range erosionStageOrder {
		checked := slices.Contains(on, stage)
		ctx.IDScope(stage, func() {
			ctx.Checkbox(&checked, stage).On(func() {
				var list []string
				for _, s := range erosionStageOrder {
					if s == stage && checked || s != stage && slices.Contains(on, s) {
						list = append(list, s)
					}
				}
				text := "none"
				if len(list) > 0 {
					text = strings.Join(list, ",")
				}
				if spec, ok := terrain.SpecByName("erosion"); ok {
					if err := spec.Set(p, text); err != nil {
						g.fail(err)
					}
				}
			})
		})
	}
	for _, s := range terrain.Specs {
		stage, _, _ := strings.Cut(s.Name, "-")
		if s.Group == "erosion" && s.Name != "erosion" && slices.Contains(on, stage) {
			ctx.IDScope(s.Name, func() { g.specWidget(ctx, s, p) })
		}
	}
	if masks := g.World.Masks; masks != nil {
		ctx.SetGridLayout([]int{110, -1}, nil)
		ctx.Text("minimap shows")
		choices := append([]string{"relief"}, erosion.MaskNames...)
		i := max(slices.Index(choices, g.World.Minimap.OverlayName), 0)
		ctx.Dropdown(&i, choices).On(func() { g.ShowMask(choices[i]) })
	}
	if len(on) > 0 && g.budget.Eroded > 0 {
		b := g.budget
		ctx.SetGridLayout([]int{-1}, nil)
		ctx.Text(fmt.Sprintf("eroded %.3g m³: deposited %.0f %%, suspended %.0f %%, off the map %.0f %%",
			b.Eroded, 100*b.Deposited/b.Eroded, 100*b.Suspended/b.Eroded, 100*b.CarriedOff/b.Eroded))
	}
}

// specWidget draws one parameter on one row: its name, with its range and
// meaning in a tooltip, and a widget suited to its type.
func (g *Game) specWidget(ctx *debugui.Context, s terrain.Spec, p *terrain.Params) {
	tip := s.Name + " " + s.RangeText() + ": " + s.Usage
	if s.Kind == terrain.ChoiceParam { // the dropdown lists the choices
		tip = s.Name + ": " + s.Usage
	}
	if s.Name == "seed" {
		ctx.SetGridLayout([]int{specLabelW, -1, 80}, nil)
	} else {
		ctx.SetGridLayout([]int{specLabelW, -1}, nil)
	}
	g.labelWithTip(ctx, s.Name, tip)
	set := func(text string) {
		if err := s.Set(p, text); err != nil {
			g.fail(err)
		}
	}
	switch {
	case isBool(s):
		on := s.Get(p) == "true"
		ctx.Checkbox(&on, "").On(func() { set(strconv.FormatBool(on)) })
	case s.Kind == terrain.ChoiceParam:
		i := slices.Index(s.Choices, s.Get(p))
		ctx.Dropdown(&i, s.Choices).On(func() { set(s.Choices[i]) })
	case s.Name == "seed":
		seed := int(p.Seed)
		ctx.NumberField(&seed, 1).On(func() { p.Seed = int64(seed) })
		ctx.Button("New seed").On(func() { p.Seed = int64(g.rng.Uint32()) })
	case s.Name == "size":
		opts := make([]string, len(sizes))
		idx := 0
		for i, n := range sizes {
			opts[i] = strconv.Itoa(n)
			if n == p.Size {
				idx = i
			}
		}
		if !slices.Contains(sizes, p.Size) {
			opts = append(opts, strconv.Itoa(p.Size))
			idx = len(opts) - 1
		}
		ctx.Dropdown(&idx, opts).On(func() {
			if n, err := strconv.Atoi(opts[idx]); err == nil {
				*p = p.WithSize(n) // more or fewer samples over the same ground
			}
		})
	case s.Kind == terrain.IntParam:
		v := int(mustFloat(s.Get(p)))
		ctx.Slider(&v, int(s.Min), int(min(s.Max, 64)), 1).On(func() { set(strconv.Itoa(v)) })
	default:
		v := mustFloat(s.Get(p))
		if s.Max/math.Max(math.Abs(s.Min), 1e-9) > 1e4 && s.Min > 0 { // huge ranges: type the value
			ctx.NumberFieldF(&v, s.Max/1e5, decimalsOf(v)).On(func() { set(strconv.FormatFloat(v, 'g', -1, 64)) })
		} else {
			step := (s.Max - s.Min) / 200
			ctx.SliderF(&v, s.Min, s.Max, step, digitsFor(step)).On(func() { set(strconv.FormatFloat(v, 'g', -1, 64)) })
		}
	}
}

// digitsFor is how many decimals show a value that moves in steps of d:
// none for whole steps (counts, metres over a wide range), up to 3.
func digitsFor(d float64) int {
	d = math.Abs(d)
	if d == 0 || d >= 1 {
		return 0
	}
	return min(3, int(math.Ceil(-math.Log10(d)-1e-9)))
}

// decimalsOf is how many decimals (up to 3) a typed value needs.
func decimalsOf(v float64) int {
	for d := range 3 {
		if f := v * math.Pow(10, float64(d)); f == math.Round(f) {
			return d
		}
	}
	return 3
}

// isBool reports whether a parameter is a yes-or-no choice: a checkbox.
func isBool(s terrain.Spec) bool {
	return s.Kind == terrain.ChoiceParam && slices.Equal(s.Choices, []string{"false", "true"})
}

func mustFloat(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

// viewerPanel edits the look of the world and the camera.
func (g *Game) viewerPanel(ctx *debugui.Context) {
	v := &g.View
	ctx.SetGridLayout([]int{110, -1}, nil)
	ctx.Text("texturing by")
	tex := int(v.Texturing)
	ctx.Dropdown(&tex, []string{"height", "slope", "rules"}).On(func() { v.Texturing = Texturing(tex) })
	sliderF32(ctx, "snow line", &v.SnowLine, 0, 1.2)
	sliderF32(ctx, "snow max slope", &v.SnowSlope, 10, 90)
	sliderF32(ctx, "shadow softness", &v.Penumbra, 0.5, 15)
	sliderF32(ctx, "boundary 1", &v.Boundaries[0], 0, 1)
	sliderF32(ctx, "boundary 2", &v.Boundaries[1], 0, 1)
	sliderF32(ctx, "boundary 3", &v.Boundaries[2], 0, 1)
	ctx.Text("materials")
	ctx.Slider(&v.MaterialCount, 1, 4, 1)
	for i := range v.MaterialCount {
		ctx.IDScope(fmt.Sprint("band", i), func() {
			ctx.Text(fmt.Sprintf("band %d shows", i+1))
			m := v.BandMaterials[i]
			ctx.Dropdown(&m, materialNames).On(func() { v.BandMaterials[i] = m })
		})
	}
	sliderF32(ctx, "blend", &v.Blend, 0, 0.3)
	sliderF32(ctx, "tiling", &v.Tiling, 1, 400)
	sliderF32(ctx, "detail tiling", &v.DetailTiling, 1, 3000)
	sliderF32(ctx, "detail distance", &v.DetailDist, 0, 1000)
	sliderF32(ctx, "ambient", &v.Ambient, 0, 1)
	sliderF32(ctx, "sun elevation", &v.SunElevation, -10, 90)
	sliderF32(ctx, "sun azimuth", &v.SunAzimuth, 0, 360)
	g.fogWidgets(ctx)
	g.waterWidgets(ctx)
	ctx.SetGridLayout([]int{-1, -1}, nil)
	ctx.Checkbox(&v.Triplanar, "triplanar")
	ctx.Checkbox(&v.DetailMaps, "detail maps")
	ctx.Checkbox(&v.Lighting, "lighting")
	ctx.Checkbox(&v.Shadows, "shadows")
	ctx.Checkbox(&v.Occlusion, "ambient occlusion")
	ctx.Checkbox(&v.Wireframe, "wireframe")
	ctx.Checkbox(&v.FlatShading, "flat shading")
	ctx.Checkbox(&v.ColourScheme, "colour scheme")
	ctx.Checkbox(&v.Antialias, "anti-aliasing")
	ctx.Checkbox(&v.BreakTiling, "hide texture repeat")
	ctx.Checkbox(&v.Continue, "land beyond the map")
	ctx.SetGridLayout([]int{110, -1}, nil)
	colourSliders(ctx, "sky", &v.SkyColor)
	colourSliders(ctx, "horizon", &v.HorizonColor)
	colourSliders(ctx, "sun", &v.SunColor)
	colourSliders(ctx, "fog", &v.FogColor)
	ctx.Text("camera speed")
	speed := float64(g.Camera.Speed)
	ctx.SliderF(&speed, 0.5, 2000, 0.5, 1).On(func() { g.Camera.Speed = float32(speed) })
	ctx.Text("camera")
	mode := int(g.Camera.Mode)
	ctx.Dropdown(&mode, []string{"fly", "walk"}).On(func() { g.Camera.SwitchMode(Mode(mode), g.World.Map) })
	if g.World.Route != nil {
		ctx.Text("route speed")
		fs := float64(g.FollowSpeed)
		ctx.SliderF(&fs, 0.5, 200, 0.5, 1).On(func() { g.FollowSpeed = float32(fs) })
		ctx.SetGridLayout([]int{-1}, nil)
		follow := g.Follow
		ctx.Checkbox(&follow, "follow the route (R)").On(func() { g.setFollow(follow) })
	}
	g.resolutionWidgets(ctx)
}

func sliderF32(ctx *debugui.Context, label string, v *float32, lo, hi float64) {
	ctx.IDScope(label, func() {
		ctx.Text(label)
		f := float64(*v)
		ctx.SliderF(&f, lo, hi, (hi-lo)/500, digitsFor((hi-lo)/500)).On(func() { *v = float32(f) })
	})
}

// colourSliders edits a linear colour as its three 8-bit sRGB channels.
func colourSliders(ctx *debugui.Context, label string, c *[3]float32) {
	ctx.IDScope(label, func() {
		for k, ch := range []string{" R", " G", " B"} {
			ctx.IDScope(ch, func() {
				ctx.Text(label + ch)
				v := int(math.Round(255 * math.Pow(float64(c[k]), 1/2.2)))
				ctx.Slider(&v, 0, 255, 1).On(func() { c[k] = float32(math.Pow(float64(v)/255, 2.2)) })
			})
		}
	})
}

// filePanel loads and saves maps, parameters, screenshots and materials.
func (g *Game) filePanel(ctx *debugui.Context) {
	ctx.SetGridLayout([]int{60, -1}, nil)
	ctx.Text("file")
	ctx.TextField(&g.ui.path)
	ctx.SetGridLayout([]int{-1, -1}, nil)
	ctx.Button("Load map or params").On(func() { g.LoadFile(g.ui.path) })
	ctx.Button("Save map").On(func() {
		g.saveAsking("Save map", g.ui.path, func(path string) error { return heightfile.SaveHeightmap(path, g.World.Map) })
	})
	ctx.Button("Save params").On(func() {
		g.saveAsking("Save params", g.ui.path, func(path string) error { return terrain.SaveParams(path, g.Params) })
	})
	ctx.Button("Screenshot").On(func() { g.shotPending = true })
	ctx.SetGridLayout([]int{60, -1}, nil)
	ctx.Text("materials")
	ctx.TextField(&g.ui.matDir)
	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Button("Import materials folder").On(func() { g.importMaterials(g.ui.matDir) })
	ctx.Text("Maps: .png (8/16-bit gray), .r16; save also .obj. Parameters: .json. Routes (GPX, TCX, GeoJSON, CSV) make terrain through the track with the Generator's parameters. Dropping a file on the window loads it.")
}

// materialNames are the four materials, in the order of the atlas.
var materialNames = []string{"sand", "grass", "rock", "snow"}
