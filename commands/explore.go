package commands

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"cordillera/game"
	"cordillera/internal/atomicfile"
	"cordillera/internal/lesson"
	"cordillera/pipeline"
	"cordillera/route/trackfile"
	"cordillera/terrain"
	"cordillera/terrain/erosion"
	"cordillera/terrain/heightfile"
)

// worldFlags choose the world to open: a generated one (preset and
// parameter flags) or a heightmap file.
type worldFlags struct {
	params    *paramFlags
	heightmap string
	height    float64
	route     string
	routePart int // the recording to map where the file holds several far apart; 0 = the longest
	// mapOnly makes load build only the heights: no level of detail,
	// normals, minimap or erosion masks (headless commands such as plot).
	mapOnly bool
}

// newWorld wraps a map as the world load returns: the explorer's whole
// world, or with mapOnly the heights alone.
func (wf *worldFlags) newWorld(m *terrain.Heightmap) *game.World {
	if wf.mapOnly {
		return &game.World{Map: m}
	}
	return game.NewWorld(m)
}

func addWorldFlags(fs *flag.FlagSet) *worldFlags {
	wf := &worldFlags{params: addParamFlags(fs)}
	fs.StringVar(&wf.heightmap, "heightmap", "", "open this heightmap (.png 8/16-bit gray, .r16, .exr, .tif GeoTIFF DEM) instead of generating one")
	fs.StringVar(&wf.route, "route", "", "make the terrain through this GPS track ("+trackfile.FormatNames(", ", ", ")+") and draw it")
	fs.IntVar(&wf.routePart, "route-part", 0, "with -route, map recording N (from 1) of a file holding several far apart (default: the longest)")
	fs.Float64Var(&wf.height, "map-height", 0, "with -heightmap: world height of white in world units, over the file's own (default: the file's, or a fifth of the map's width)")
	return wf
}

// load generates or reads the world, and returns the generation
// parameters (the defaults for a file) and a name for it.
func (wf *worldFlags) load(cmd string, stdout io.Writer) (*game.World, terrain.Params, string, error) {
	if wf.heightmap != "" && wf.route != "" {
		return nil, terrain.Params{}, "", fmt.Errorf("%s: -heightmap and -route exclude each other", cmd)
	}
	if err := checkMapHeight(cmd, wf.height); err != nil {
		return nil, terrain.Params{}, "", err
	}
	if wf.routePart != 0 && wf.route == "" {
		return nil, terrain.Params{}, "", fmt.Errorf("%s: -route-part needs -route TRACK", cmd)
	}
	if wf.height != 0 && wf.heightmap == "" {
		return nil, terrain.Params{}, "", fmt.Errorf("%s: -map-height needs -heightmap FILE", cmd)
	}
	if wf.heightmap != "" {
		src, err := heightfile.Load(wf.heightmap)
		if err != nil {
			return nil, terrain.Params{}, "", fmt.Errorf("%s: %w", cmd, err)
		}
		m := src.Map
		if src.Note != "" { // e.g. a 16-bit PNG of metres: say how to see it at its true scale
			fmt.Fprintf(stdout, "%s: %s\n", wf.heightmap, src.Note)
		}
		if !src.Metric { // EXR, GeoTIFF DEMs, PNGs that record their metres: true proportions
			m.VerticalScale = float64(m.Width) / 5
		}
		p, err := wf.params.resolve(cmd, nil)
		if err != nil {
			return nil, p, "", err
		}
		if !src.HasCellSize { // a r16 or another tool's PNG knows no cell size: -cell-size gives it
			m.CellSize = p.CellSize
		}
		overrideScale(stdout, wf.heightmap, src, wf.height, p.CellSize, wf.params.isGiven("cell-size"))
		if len(erosion.Stages(p)) == 0 {
			w := wf.newWorld(m)
			w.Source = m
			return w, p, filepath.Base(wf.heightmap), nil
		}
		pw, err := pipeline.Erode(context.Background(), m, p, pipeline.Options{Masks: !wf.mapOnly})
		if err != nil {
			return nil, p, "", fmt.Errorf("%s: -heightmap %s: %w", cmd, wf.heightmap, err)
		}
		w := wf.newWorld(pw.Map)
		w.Masks, w.Source = pw.Masks, m
		return w, p, filepath.Base(wf.heightmap), nil
	}
	p, err := wf.params.resolve(cmd, nil)
	if err != nil {
		return nil, p, "", err
	}
	if err := pipeline.Check(p); err != nil {
		return nil, p, "", fmt.Errorf("%s: %w", cmd, err)
	}
	ctx, stop := signalContext()
	defer stop()
	start := time.Now()
	if wf.route != "" {
		t, err := trackfile.Load(wf.route)
		if err != nil {
			return nil, p, "", fmt.Errorf("%s: -route: %w", cmd, err)
		}
		if err := t.SelectPart(wf.routePart); err != nil {
			return nil, p, "", fmt.Errorf("%s: -route %s: -route-%w", cmd, wf.route, err)
		}
		pw, err := pipeline.Route(ctx, p, t, pipeline.Options{Masks: !wf.mapOnly})
		if err != nil {
			return nil, p, "", fmt.Errorf("%s: -route %s: %w", cmd, wf.route, err)
		}
		res := pw.Route
		fmt.Fprintf(stdout, "terrain through %s (%.1f km, %.2f m per cell) in %v\n", wf.route, res.Path.Length/1000, res.Path.CellSize, time.Since(start).Round(time.Millisecond))
		for _, note := range res.Notes() { // as generate says them: parts left out, repairs
			fmt.Fprintln(stdout, note)
		}
		w := wf.newWorld(res.Map)
		w.Masks = pw.Masks
		w.Route = game.NewRouteView(res)
		return w, p, filepath.Base(wf.route), nil
	}
	pw, err := pipeline.Generate(ctx, p, pipeline.Options{Masks: !wf.mapOnly})
	if err != nil {
		return nil, p, "", fmt.Errorf("%s: %w", cmd, err)
	}
	fmt.Fprintf(stdout, "%s generated in %v\n", p.Describe(), time.Since(start).Round(time.Millisecond))
	w := wf.newWorld(pw.Map)
	w.Masks = pw.Masks
	if !wf.mapOnly {
		game.AddOutside(ctx, w, p)
	}
	return w, p, p.Describe(), nil
}

// checkOutput refuses an output file that is one of the world's input
// files (the heightmap, the route, a parameter file) or not a regular file.
func (wf *worldFlags) checkOutput(cmd, out string) error {
	inputs := []string{wf.heightmap, wf.route}
	if terrain.IsParamsFile(wf.params.preset) {
		inputs = append(inputs, wf.params.preset)
	}
	if err := atomicfile.CheckOutputs([]string{out}, inputs); err != nil {
		return fmt.Errorf("%s: -o %w", cmd, err)
	}
	return nil
}

// needDisplay refuses, before a window is asked for, a command that opens one
// where Linux has no display, and says how to get one: Ebitengine's own
// error names a framebuffer device and nothing else.
func needDisplay(cmd, more string) error {
	if runtime.GOOS == "linux" && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return fmt.Errorf("%s: no display (DISPLAY is not set): run it on a desktop, or under a virtual one: xvfb-run -a cordillera %s ... (apt-get install xvfb)%s", cmd, cmd, more)
	}
	return nil
}

// Explore opens the 3D explorer.
func Explore(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("explore", flag.ContinueOnError)
	wf := addWorldFlags(fs)
	var teach lesson.State
	lesson.AddFlags(fs, &teach, true) // -lesson, -stage, …: as a link names them
	uiScale := fs.String("ui-scale", "", "the panels' scale for a projector or a large screen: 1, 1.5 or 2 (default: as the Viewer's Window scale was left, else 1)")
	drawDelay := fs.Duration("draw-delay", 0, "slow every drawing of the 3D view down by this much (e.g. 500ms): try the explorer as a slow machine runs it")
	if err := parseFlags(fs, args, stderr, "cordillera [explore] [-preset NAME] [-heightmap FILE] [flags]"); err != nil {
		return err
	}
	scale, err := exploreUIScale(*uiScale, stderr)
	if err != nil {
		return err
	}
	if err := needDisplay("explore", "; 'cordillera generate' works headless"); err != nil {
		return err
	}
	w, p, name, err := wf.load("explore", stdout)
	if err != nil {
		return err
	}
	if err := teach.Check(p); err != nil {
		return fmt.Errorf("explore: -%w", err)
	}
	// A built-in preset brings its look too (the thesis's scenario settings).
	return game.Run(w, p, "Cordillera — "+name, func(g *game.Game) {
		g.UsePreset(wf.params.preset)
		g.DrawDelay = *drawDelay
		_ = g.SetUIScale(scale) // one of game.UIScales: checked above
		g.Resolution.Auto = true
		if teach != (lesson.State{}) {
			g.OpenLesson(teach, true)
		}
	})
}

// Render renders one frame of the explorer's view to a PNG.
func Render(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	rf := addRenderFlags(fs)
	if err := parseFlags(fs, args, stderr, "cordillera render -o shot.png [-preset NAME] [-camera x,y,z,yaw,pitch] [-width W -height H] [flags]"); err != nil {
		return err
	}
	pose, err := rf.check()
	if err != nil {
		return err
	}
	if err := rf.world.checkOutput("render", rf.out); err != nil {
		return err
	}
	w, params, _, err := rf.world.load("render", stdout)
	if err != nil {
		return err
	}
	if err := rf.teach.Check(params); err != nil {
		return fmt.Errorf("render: -%w", err)
	}
	if rf.mask != "" && w.Masks == nil {
		return errors.New("render: -mask needs erosion: add -erosion hydraulic, thermal or fluvial")
	}
	if err := needDisplay("render", ""); err != nil {
		return err
	}
	img, err := game.RenderGame(w, pose, rf.width, rf.height, func(g *game.Game) { rf.setUp(g, w, params) })
	if err != nil {
		return fmt.Errorf("render: %w", err)
	}
	if err := game.SavePNG(rf.out, img); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	fmt.Fprintln(stdout, "wrote", rf.out)
	return nil
}

// renderFlags are render's flags: the world's, the Viewer's, and what
// one frame shows (camera, size, overlays, a lesson's state).
type renderFlags struct {
	world                     *worldFlags
	view                      *viewerFlags
	out, camera, open, mask   string
	walk                      bool
	width, height             int
	slope, fog, full, hud, ui bool
	help, noShadows           bool
	follow                    float64
	teach                     lesson.State
}

// addRenderFlags defines render's flags on fs.
func addRenderFlags(fs *flag.FlagSet) *renderFlags {
	rf := &renderFlags{world: addWorldFlags(fs)}
	fs.StringVar(&rf.out, "o", "", "output PNG file")
	fs.StringVar(&rf.camera, "camera", "", "camera as x,y,z,yaw,pitch (world units, degrees); default: the overview")
	fs.BoolVar(&rf.walk, "walk", false, "put the camera at eye height above the ground at x,z")
	fs.IntVar(&rf.width, "width", 1280, "image width in pixels")
	fs.IntVar(&rf.height, "height", 720, "image height in pixels")
	rf.view = addViewerFlags(fs) // -texturing, -sun-elevation, -water, -aa, …: docs/viewer.md
	fs.BoolVar(&rf.slope, "slope", false, "choose materials by slope: -texturing slope")
	fs.BoolVar(&rf.fog, "fog", false, "distance fog, its visibility about twice the map's side (-fog-density sets it)")
	fs.BoolVar(&rf.full, "full-mesh", false, "draw every triangle (no level of detail or culling)")
	fs.BoolVar(&rf.hud, "hud", false, "draw the HUD (FPS, triangles, camera) as the explorer does")
	fs.BoolVar(&rf.ui, "ui", false, "draw the panels and the minimap as the explorer does")
	fs.StringVar(&rf.open, "open", "Generator", "with -ui: the panels shown unfolded, comma-separated: Generator, Viewer, File, Teach, Erosion, Route")
	fs.BoolVar(&rf.help, "help-overlay", false, "draw the key help overlay")
	fs.StringVar(&rf.mask, "mask", "", "with -erosion: show an erosion mask on the minimap: flow, eroded or deposited")
	fs.Float64Var(&rf.follow, "follow", -1, "with -route: put the camera on the route this many world units along it, following it")
	fs.BoolVar(&rf.noShadows, "no-shadows", false, "leave out the terrain's shadows and ambient occlusion: -shadows=false -occlusion=false")
	lesson.AddFlags(fs, &rf.teach, false) // -lesson, -stage, …: a lesson state on a slide, as a link names it
	return rf
}

// check rejects flags that cannot go together before any world is made,
// and returns the camera pose that -camera and -walk ask for (nil: the
// overview, or a lesson's own framing, which then takes -camera).
func (rf *renderFlags) check() (*game.CameraPose, error) {
	if rf.out == "" || !strings.EqualFold(filepath.Ext(rf.out), ".png") {
		return nil, errors.New("render: -o FILE.png is required")
	}
	if rf.width < 16 || rf.height < 16 || rf.width > 8192 || rf.height > 8192 {
		return nil, fmt.Errorf("render: -width %d -height %d: each must be between 16 and 8192", rf.width, rf.height)
	}
	var pose *game.CameraPose
	if rf.camera != "" {
		p, err := parsePose(rf.camera)
		if err != nil {
			return nil, fmt.Errorf("render: -camera: %w", err)
		}
		p.Walk = rf.walk
		pose = &p
	}
	if rf.mask != "" && !slices.Contains(erosion.MaskNames, rf.mask) {
		return nil, fmt.Errorf("render: -mask %q: want one of %s", rf.mask, strings.Join(erosion.MaskNames, ", "))
	}
	if math.IsNaN(rf.follow) || math.IsInf(rf.follow, 0) {
		return nil, fmt.Errorf("render: -follow %g: want a distance along the route in world units", rf.follow)
	}
	if rf.follow >= 0 && rf.world.route == "" {
		return nil, errors.New("render: -follow needs -route TRACK")
	}
	if rf.teach.Lesson != "" {
		if rf.walk {
			return nil, errors.New("render: -walk: a lesson's camera flies (give -camera alone)")
		}
		if pose != nil { // after the lesson's own framing
			rf.teach.Camera = &lesson.Pose{X: pose.X, Y: pose.Y, Z: pose.Z, Yaw: pose.Yaw, Pitch: pose.Pitch}
			pose = nil
		}
	}
	return pose, nil
}

// setUp sets g, the explorer about to draw w's frame, as the flags ask:
// the preset's look first, then the flags over it.
func (rf *renderFlags) setUp(g *game.Game, w *game.World, params terrain.Params) {
	g.Params = params                   // what the Generator panel shows
	g.UsePreset(rf.world.params.preset) // the preset's look; the flags below override it
	g.HUD, g.FullMesh, g.ShowUI, g.ShowMinimap, g.ShowHelp = rf.hud, rf.full, rf.ui, rf.ui, rf.help
	g.OpenPanels(strings.Split(rf.open, ",")...)
	if rf.mask != "" {
		g.ShowMask(rf.mask)
	}
	if rf.follow >= 0 && w.Route != nil {
		g.Follow, g.FollowSpeed = true, 0
		g.FollowAt = rf.follow
		g.Camera.Pitch = -0.09
	}
	v := &g.View
	rf.view.apply(v)
	if rf.slope {
		v.Texturing = game.BySlope
	}
	if rf.noShadows {
		v.Shadows, v.Occlusion = false, false
	}
	if rf.fog && !rf.view.isGiven("fog-density") {
		v.FogDensity = game.DefaultFog(w.Map)
	}
	if rf.teach != (lesson.State{}) {
		g.OpenLesson(rf.teach, false) // the panels as -ui says
	}
}

// parsePose reads "x,y,z,yaw,pitch", as a link's camera= is read.
func parsePose(s string) (game.CameraPose, error) {
	p, err := lesson.ParsePose(s)
	return game.CameraPose{X: p.X, Y: p.Y, Z: p.Z, Yaw: p.Yaw, Pitch: p.Pitch}, err
}

// exploreUIScale is the panels' scale: -ui-scale's where it is given (for
// this run only), else the one kept from the last run, else 1. A damaged
// settings file is said on stderr and otherwise ignored: it must not keep
// the explorer from opening.
func exploreUIScale(flagValue string, stderr io.Writer) (float64, error) {
	if flagValue != "" {
		s, err := game.ParseUIScale(flagValue)
		if err != nil {
			return 0, fmt.Errorf("explore: -%w", err)
		}
		return s, nil
	}
	prefs, err := game.LoadPrefs()
	if err != nil {
		fmt.Fprintf(stderr, "explore: %v (ignored)\n", err)
	}
	if prefs.UIScale == 0 {
		return 1, nil
	}
	return prefs.UIScale, nil
}
