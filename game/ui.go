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

	"cordillera/game/swatch"
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

	// unfold is the subsection laid out unfolded whatever its tree node
	// says (the tests measure it so), and scrolls whether the window's
	// content was taller than its body at the last update.
	unfold  string
	scrolls bool

	debug    debugui.DebugUI
	scale    float64 // the panels' scale, one of UIScales (0: 1); ui_scale.go
	w, h     int     // the screen's size, as Layout or Draw last saw it
	ticks    int64   // updates since the start, for the tooltip's delay
	status   string  // the line the HUD shows for a while (setStatus)
	statusAt time.Time
	// maskShown is the erosion mask the minimap shows ("" or "relief": none).
	maskShown string
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
func (u *uiState) say(s string) {
	u.message, u.isError = s, false
	u.status, u.statusAt = s, time.Now()
}

// fail shows an error in plain words; nothing else changes.
func (u *uiState) fail(err error) {
	u.message, u.isError = err.Error(), true
	u.status, u.statusAt = "error: "+err.Error(), time.Now()
}

// buildUI lays out the window; it runs inside debugui's Update.
func (g *Game) buildUI(ctx *debugui.Context) {
	ctx.SetScale(g.ui.uiScale())
	// The window's rectangle is in the panels' units: the screen's
	// pixels divided by the scale.
	h := max(int(float64(g.ui.h)/g.ui.uiScale())-20, 200)
	g.ui.unfolded = g.ui.unfolded[:0]
	g.ui.built = true
	ctx.Window("Cordillera", image.Rect(10, 10, 10+uiWidth, 10+h), func(layout debugui.ContainerLayout) {
		g.ui.beginTips(layout.BodyBounds)
		g.ui.scrolls = layout.ContentSize.Y > layout.BodyBounds.Dy()
		defer g.ui.endTips()
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
// made, "Ready" otherwise. It is always there and one line long, so that no
// widget moves when a rebuild starts or ends (a click aimed at one would
// land on another).
func (g *Game) statusRow(ctx *debugui.Context) {
	ctx.SetGridLayout([]int{-1}, nil)
	text := "Ready"
	if busy, f := g.gen.regen.Status(); busy {
		text = fmt.Sprintf("Generating… %.0f %%", 100*f)
		if g.gen.stage != "" {
			text += " (showing " + g.gen.stage + ")"
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
	// What the file itself made the track leave out or choose (recordings
	// far apart, copies of one recording, a damaged checksum): said here
	// as generate says it, since whoever opened the explorer from a
	// desktop never sees its standard output.
	if lines := routeNotes(g.World.Route); len(lines) > 0 {
		ctx.SetGridLayout([]int{-1}, nil)
		for _, line := range lines {
			ctx.Text(line)
		}
	}
}

// routeNotes are the track's warnings as the Route panel's lines.
func routeNotes(rv *RouteView) []string {
	if rv == nil || rv.Stats == nil || rv.Stats.Path == nil {
		return nil
	}
	var lines []string
	for _, w := range rv.Stats.Path.Warnings {
		lines = append(lines, wrapWords("Note: "+w, (uiWidth-30)/6)...)
	}
	return lines
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
	g.ui.maskShown = name
	mm := g.World.Minimap
	if g.World.Masks == nil || name == "relief" {
		if mm.OverlayName != "" {
			mm.SetOverlay("", nil, color.RGBA{})
		}
		return
	}
	mask, err := g.World.Masks.Normalised(name)
	if err != nil {
		g.ui.fail(err)
		return
	}
	mm.SetOverlay(name, mask, maskTints[name])
}

// erosionStageOrder is the order the Erosion section runs its stages in:
// the river network first, then the droplets' gullies and fans, then the
// talus slopes that settle what they left.
var erosionStageOrder = []string{terrain.FluvialErosion, terrain.HydraulicErosion, terrain.ThermalErosion}

// subsection is a fold inside a section: a tree node, folded until it is
// clicked. Folds keep a long section short enough for the window. The
// tests lay one out unfolded (ui.unfold) to measure it.
func (u *uiState) subsection(ctx *debugui.Context, label string, body func()) {
	ctx.IDScope(label, func() {
		if u.unfold == label {
			ctx.SetGridLayout([]int{-1}, nil)
			ctx.Text(label) // a tree node's row
			body()
			return
		}
		ctx.TreeNode(label, body)
	})
}

// erosionStageNames are the stages' names on their settings' fold.
var erosionStageNames = map[string]string{
	terrain.FluvialErosion:   "Rivers (fluvial)",
	terrain.HydraulicErosion: "Droplets (hydraulic)",
	terrain.ThermalErosion:   "Talus (thermal)",
}

// erosionSection is the Erosion panel: a checkbox per stage, and the
// parameters of the stages that are on.
func (g *Game) erosionSection(ctx *debugui.Context, p *terrain.Params) {
	on := erosion.Stages(*p)
	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Text("Stages, run left to right:")
	ctx.SetGridLayout([]int{-1, -1, -1}, nil)
	for _, stage := range erosionStageOrder {
		checked := slices.Contains(on, stage)
		ctx.IDScope(stage, func() {
			ctx.Checkbox(&checked, strings.ToUpper(stage[:1])+stage[1:]).On(func() {
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
						g.ui.fail(err)
					}
				}
			})
		})
	}
	// Each stage's settings fold under its name, so that all three on
	// do not make the section scroll.
	for _, stage := range erosionStageOrder {
		if !slices.Contains(on, stage) {
			continue
		}
		g.ui.subsection(ctx, erosionStageNames[stage]+" settings", func() {
			for _, s := range terrain.Specs {
				if prefix, _, _ := strings.Cut(s.Name, "-"); s.Group == "erosion" && prefix == stage && s.Name != "erosion" {
					ctx.IDScope(s.Name, func() { g.specWidget(ctx, s, p) })
				}
			}
		})
	}
	if masks := g.World.Masks; masks != nil {
		ctx.SetGridLayout([]int{specLabelW, -1}, nil)
		ctx.Text("Minimap shows")
		choices := append([]string{"relief"}, erosion.MaskNames...)
		i := max(slices.Index(choices, g.World.Minimap.OverlayName), 0)
		ctx.Dropdown(&i, choices).On(func() { g.ShowMask(choices[i]) })
	}
	if len(on) > 0 && g.gen.budget.Eroded > 0 {
		b := g.gen.budget
		ctx.SetGridLayout([]int{-1}, nil)
		ctx.Text(fmt.Sprintf("Eroded %s, of which", volume(b.Eroded)))
		ctx.Text(fmt.Sprintf("deposited %.0f %%, suspended %.0f %%, off the map %.0f %%",
			100*b.Deposited/b.Eroded, 100*b.Suspended/b.Eroded, 100*b.CarriedOff/b.Eroded))
	}
}

// specWidget draws one parameter on one row: its name, with its range and
// meaning in a tooltip, and a widget suited to its type.
func (g *Game) specWidget(ctx *debugui.Context, s terrain.Spec, p *terrain.Params) {
	// The tooltip gives the flag's name and range: what the command
	// line and the parameter files call it.
	tip := "-" + s.Name + " " + s.RangeText() + ": " + s.Usage
	if s.Kind == terrain.ChoiceParam || s.Kind == terrain.BoolParam { // the dropdown or checkbox says the choices
		tip = "-" + s.Name + ": " + s.Usage
	}
	if s.Name == "seed" {
		ctx.SetGridLayout([]int{specLabelW, -1, 80}, nil)
	} else {
		ctx.SetGridLayout([]int{specLabelW, -1}, nil)
	}
	g.ui.labelWithTip(ctx, specLabel(s), tip)
	set := func(text string) {
		if err := s.Set(p, text); err != nil {
			g.ui.fail(err)
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
		ctx.Button("New seed").On(func() { p.Seed = int64(g.gen.rng.Uint32()) })
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
	case s.Name == "feature-size":
		// In metres, from one cell to the map's side; typed values
		// (shift+click) are as exact as the share terrain keeps.
		m := featureMetres(p)
		lo, hi := p.CellSize, p.CellSize*float64(p.Size)
		ctx.SliderF(&m, lo, hi, (hi-lo)/200, 0).On(func() { set(strconv.FormatFloat(featureShare(p, m), 'g', 6, 64)) })
	case s.Kind == terrain.IntParam && s.Max-s.Min > 256: // counts up to thousands: typed or stepped
		v := int(mustFloat(s.Get(p)))
		ctx.NumberField(&v, 1).On(func() { set(strconv.Itoa(v)) })
	case s.Kind == terrain.IntParam:
		v := int(mustFloat(s.Get(p)))
		ctx.Slider(&v, int(s.Min), int(s.Max), 1).On(func() { set(strconv.Itoa(v)) })
	default:
		k := specScale(s)
		v := mustFloat(s.Get(p)) * k
		lo, hi := s.Min*k, s.Max*k
		setScaled := func() { set(strconv.FormatFloat(v/k, 'g', -1, 64)) }
		if hi/math.Max(math.Abs(lo), 1e-9) > 1e4 && lo > 0 { // huge ranges: type the value
			ctx.NumberFieldF(&v, hi/1e5, decimalsOf(v)).On(setScaled)
		} else {
			step := (hi - lo) / 200
			ctx.SliderF(&v, lo, hi, step, sliderDigits(v, step)).On(setScaled)
		}
	}
}

// volume is a volume in words a reader takes in at once: "12 300 m³",
// "1.2 million m³".
func volume(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e9:
		return fmt.Sprintf("%.3g billion m³", v/1e9)
	case a >= 1e6:
		return fmt.Sprintf("%.3g million m³", v/1e6)
	case a >= 1e4:
		return fmt.Sprintf("%.0f 000 m³", math.Round(v/1e3))
	}
	return fmt.Sprintf("%.3g m³", v)
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

// sliderDigits is how many decimals show v on a slider that moves in steps
// of step: the step's (digitsFor), less the value's trailing zeros, so that
// a whole value shows none ("35", not "35.0") and a half one one ("0.5",
// not "0.500").
func sliderDigits(v, step float64) int { return decimals(v, digitsFor(step)) }

// decimals is how many of v's first most decimals are not trailing zeros,
// once v is rounded to most decimals (so 0.1+0.2 has one, not most).
func decimals(v float64, most int) int {
	s := strconv.FormatFloat(v, 'f', max(most, 0), 64)
	dot := strings.IndexByte(s, '.')
	if dot < 0 {
		return 0
	}
	return len(strings.TrimRight(s, "0")) - dot - 1
}

// isBool reports whether a parameter is a yes-or-no choice: a checkbox.
func isBool(s terrain.Spec) bool {
	return s.Kind == terrain.BoolParam
}

func mustFloat(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

// viewerPanel edits the look of the world and the camera, its rows drawn
// from ViewerSpecs. The settings used most are on top; materials, colours
// and the camera fold under their names, so that the section fits a
// 720-pixel window with any one of them open.
func (g *Game) viewerPanel(ctx *debugui.Context) {
	g.viewerRows(ctx, "")
	for _, fold := range viewerFolds {
		g.ui.subsection(ctx, fold, func() {
			g.viewerRows(ctx, fold)
			if fold == foldCamera {
				g.cameraWidgets(ctx)
			}
		})
	}
}

// cameraWidgets are the Viewer's camera, route, resolution and window
// settings.
func (g *Game) cameraWidgets(ctx *debugui.Context) {
	ctx.SetGridLayout([]int{specLabelW, -1}, nil)
	ctx.Text("Camera")
	mode := int(g.Camera.Mode)
	ctx.Dropdown(&mode, []string{"fly", "walk"}).On(func() { g.Camera.SwitchMode(Mode(mode), g.World.Map) })
	ctx.Text("Camera speed, m/s")
	speed := float64(g.Camera.Speed)
	ctx.SliderF(&speed, 0.5, 2000, 0.5, sliderDigits(speed, 0.5)).On(func() { g.Camera.Speed = float32(speed) })
	if g.World.Route != nil {
		ctx.Text("Route speed, m/s")
		fs := float64(g.FollowSpeed)
		ctx.SliderF(&fs, 0.5, 200, 0.5, sliderDigits(fs, 0.5)).On(func() { g.FollowSpeed = float32(fs) })
		ctx.SetGridLayout([]int{-1}, nil)
		follow := g.Follow
		ctx.Checkbox(&follow, "Follow the route (R)").On(func() { g.setFollow(follow) })
	}
	g.resolutionWidgets(ctx)
	g.uiScaleRow(ctx)
}

// sliderF32 is a row: a label and a slider of *v shown times scale (a
// share as a %, a height share in metres) over [lo, hi], in those units.
func sliderF32(ctx *debugui.Context, label string, v *float32, lo, hi, scale float64) {
	ctx.IDScope(label, func() {
		ctx.Text(label)
		f := float64(*v) * scale
		step := (hi - lo) / 500
		ctx.SliderF(&f, lo, hi, step, sliderDigits(f, step)).On(func() { *v = float32(f / scale) })
	})
}

// colourRow edits a linear colour as its three 8-bit sRGB channels, beside
// a swatch of it.
func colourRow(ctx *debugui.Context, label string, c *[3]float32) {
	ctx.IDScope(label, func() {
		ctx.Text(label)
		srgb := func(k int) int { return int(math.Round(255 * math.Pow(float64(c[k]), 1/2.2))) }
		swatch.Cell(ctx, color.RGBA{uint8(srgb(0)), uint8(srgb(1)), uint8(srgb(2)), 255})
		for k, ch := range []string{"R", "G", "B"} {
			ctx.IDScope(ch, func() {
				v := srgb(k)
				ctx.Slider(&v, 0, 255, 1).On(func() { c[k] = float32(math.Pow(float64(v)/255, 2.2)) })
			})
		}
	})
}

// filePanel loads and saves maps, parameters, screenshots and materials.
func (g *Game) filePanel(ctx *debugui.Context) {
	ctx.SetGridLayout([]int{specLabelW, -1}, nil)
	ctx.Text("File path")
	ctx.TextField(&g.ui.path)
	ctx.SetGridLayout([]int{-1, -1}, nil)
	ctx.Button("Load map or params").On(func() { g.LoadFile(g.ui.path) })
	ctx.Button("Save map").On(func() {
		g.saveAsking("Save map", g.ui.path, func(path string) error { return heightfile.SaveHeightmap(path, g.World.Map) })
	})
	ctx.Button("Save params").On(func() {
		g.saveAsking("Save params", g.ui.path, func(path string) error { return terrain.SaveParams(path, g.Params) })
	})
	ctx.Button("Screenshot").On(func() { g.scene.shotPending = true })
	ctx.SetGridLayout([]int{specLabelW, -1}, nil)
	ctx.Text("Materials folder")
	ctx.TextField(&g.ui.matDir)
	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Button("Import materials folder").On(func() { g.importMaterials(g.ui.matDir) })
	// One line each, at most 50 characters: the panel's width.
	for _, l := range []string{
		"Maps: .png (8/16-bit grey), .r16, .exr, .tif;",
		"a map saves as .obj too. Parameters: .json.",
		"Routes (.gpx, .tcx, .geojson, .csv) make terrain",
		"through the track with the Generator's settings.",
		"Dropping a file on the window loads it.",
	} {
		ctx.Text(l)
	}
}

// materialNames are the four materials, in the order of the atlas.
var materialNames = []string{"sand", "grass", "rock", "snow"}
