package commands

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"cordillera/internal/atomicfile"
	"cordillera/pipeline"
	"cordillera/route"
	"cordillera/route/trackfile"
	"cordillera/terrain"
	"cordillera/terrain/erosion"
	"cordillera/terrain/heightfile"
)

// ErrUsage marks an error the flag package has already reported; ErrHelp a
// request for the flag list, which has been printed.
var (
	ErrUsage = errors.New("usage")
	ErrHelp  = errors.New("help")
)

// paramFlags adds -preset and one flag per generation parameter (from the
// parameter table) to a flag set. Flags given on the command line override
// the preset, in whatever order they appear.
type paramFlags struct {
	preset string
	given  []paramSetting
	swept  string // the parameter a sweep varies, whose values resolve does not see
}

type paramSetting struct {
	spec  terrain.Spec
	value string
}

func addParamFlags(fs *flag.FlagSet) *paramFlags {
	pf := &paramFlags{preset: "default"}
	fs.StringVar(&pf.preset, "preset", pf.preset, "built-in preset name (see 'cordillera presets') or a parameters .json file")
	for _, s := range terrain.Specs {
		s := s
		define := fs.Func
		if s.Kind == terrain.BoolParam {
			define = fs.BoolFunc // -route-keep-all alone means true
		}
		define(s.Name, specUsage(s), func(v string) error {
			if err := s.Set(&terrain.Params{}, v); err != nil {
				return errors.New(strings.TrimPrefix(err.Error(), s.Name+": "))
			}
			pf.given = append(pf.given, paramSetting{s, v})
			return nil
		})
	}
	return pf
}

// resolve returns the preset's parameters with the given flags applied.
// fit, when not nil, changes them before they are validated (an engine
// target's size).
func (pf *paramFlags) resolve(cmd string, fit func(*terrain.Params)) (terrain.Params, error) {
	p, err := terrain.ResolvePreset(pf.preset)
	if err != nil {
		return p, fmt.Errorf("%s: -preset: %w", cmd, err)
	}
	for _, g := range pf.given {
		if err := g.spec.Set(&p, g.value); err != nil {
			return p, fmt.Errorf("%s: -%w", cmd, err)
		}
	}
	if fit != nil {
		fit(&p)
	}
	if err := p.Validate(); err != nil {
		return p, fmt.Errorf("%s: -%w", cmd, err)
	}
	if pf.swept != "erosion" { // a sweep of the stages may bring the one a flag shapes
		if err := checkStageFlags(cmd, p, pf.given); err != nil {
			return p, err
		}
	}
	return p, nil
}

// checkStageFlags refuses an erosion stage's flags (-hydraulic-*,
// -thermal-*, -fluvial-*) when -erosion (or the preset) does not run that
// stage: they would be silently unused.
func checkStageFlags(cmd string, p terrain.Params, given []paramSetting) error {
	for _, g := range given {
		stage, _, found := strings.Cut(g.spec.Name, "-")
		if !found || !slices.Contains(terrain.ErosionStages, stage) {
			continue
		}
		if ok, why := g.spec.AppliesTo(p); !ok {
			return fmt.Errorf("%s: -%s is not used: %s (erosion now: %s)", cmd, g.spec.Name, why, p.Erosion)
		}
	}
	return nil
}

// parseFlags parses a command's flags: a bad flag gets its error and a
// pointer to -h, -h the full list.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer, synopsis string) error {
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "usage: "+synopsis)
			fs.PrintDefaults()
			return ErrHelp
		}
		fmt.Fprintf(stderr, "run 'cordillera %s -h' for the list of flags\n", fs.Name())
		return ErrUsage
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%s: unexpected argument %q (flags start with -)", fs.Name(), fs.Arg(0))
	}
	return nil
}

// generateOptions are the parsed flags of the generate command.
type generateOptions struct {
	outs               []string // the -o files, in order: one build writes them all
	paramsOut          string
	route, routeReport string
	routeWarn          bool    // warn, not fail, when the map misses the track (route.Result.CheckTrack)
	routePart          int     // the recording to map where the file holds several far apart; 0 = the longest
	heightmap          string  // erode this file instead of generating a map
	mapHeight          float64 // with heightmap: world height of white
	cellSizeGiven      bool    // -cell-size was on the command line: it wins over a file's own
	masks              string  // folder for the erosion masks
	presetFile         string  // -preset when it names a parameter file
	params             terrain.Params
	export             exportOptions // export.go: derived maps, meshes, engine targets, tiles
}

// routeOnly are the parameters that shape only a route terrain, and
// notForRoute those a route terrain does not use (it is paper 002's
// turbulence, shaped by the route parameters instead).
var (
	routeOnly   = []string{"levels", "interpolation", "route-margin", "route-median", "route-relief", "route-keep-all", "road-width"}
	notForRoute = []string{"basis", "feature-size", "octaves", "lacunarity", "hurst", "offset", "amplitude",
		"corners", "corner-value", "distortion", "effect", "intensity", "tileable", "worley-jitter"}
	// notForHeightmap are the parameters that make a map, which a loaded
	// heightmap already is.
	notForHeightmap = slices.Concat([]string{"algorithm", "size"}, notForRoute, routeOnly)
)

// parseGenerateFlags reads the generate command's flags: -o, -params-out,
// -route, -route-report and the parameter flags.
func parseGenerateFlags(args []string, stderr io.Writer) (generateOptions, error) {
	fs := flag.NewFlagSet("generate", flag.ContinueOnError)
	var opt generateOptions
	fs.Func("o", "output file: .png (16-bit grayscale), .r16 (raw little-endian 16-bit), .exr (32-bit float metres), .tif (16-bit GeoTIFF), .obj or .glb/.gltf (mesh); repeat -o to write several formats from one build", func(v string) error {
		opt.outs = append(opt.outs, v)
		return nil
	})
	fs.StringVar(&opt.paramsOut, "params-out", "", "also save the parameters as JSON to this file")
	fs.StringVar(&opt.route, "route", "", "build the terrain through this GPS track: "+trackfile.FormatNames(", ", " or ")+" (paper 002)")
	fs.StringVar(&opt.routeReport, "route-report", "", "with -route, also write a JSON report of every route point's target and height")
	fs.IntVar(&opt.routePart, "route-part", 0, "with -route, map recording N (from 1) of a file holding several far apart (default: the longest)")
	fs.BoolVar(&opt.routeWarn, "route-warn", false, "with -route, write the map with a warning when it misses the track by more than the tolerance (5 % of the track's elevation range or 5 m) instead of failing")
	fs.StringVar(&opt.heightmap, "heightmap", "", "erode this heightmap (.png 8/16-bit gray, .r16, .exr, .tif GeoTIFF DEM) instead of generating one; keeps its cell size (-cell-size) and height scale, or the file's own")
	fs.Float64Var(&opt.mapHeight, "map-height", 0, "with -heightmap: world height of white in metres, over the file's own (default: the file's, or a fifth of the map's width in cells)")
	fs.StringVar(&opt.masks, "masks", "", "with -erosion: write the flow, eroded and deposited masks as 16-bit PNGs into this folder, named after -o")
	addExportFlags(fs, &opt.export)
	pf := addParamFlags(fs)
	if err := parseFlags(fs, args, stderr, "cordillera generate -o OUT [-route TRACK [-route-report R.json] | -heightmap IN] [-erosion LIST [-masks DIR]] [flags]"); err != nil {
		return opt, err
	}
	if err := checkOutputs(opt.outs); err != nil {
		return opt, err
	}
	if opt.paramsOut != "" && !strings.EqualFold(filepath.Ext(opt.paramsOut), ".json") {
		return opt, fmt.Errorf("generate: -params-out %s: want a .json file", opt.paramsOut)
	}
	if err := checkRouteFlags(opt, pf); err != nil {
		return opt, err
	}
	if err := checkHeightmapFlags(opt, pf); err != nil {
		return opt, err
	}
	if terrain.IsParamsFile(pf.preset) {
		opt.presetFile = pf.preset
	}
	opt.cellSizeGiven = pf.isGiven("cell-size")
	var fit func(*terrain.Params) // a loaded map is fitted when it is saved
	if opt.heightmap == "" {
		fit = opt.export.fitTargetSize
	}
	p, err := pf.resolve("generate", fit)
	opt.params = p
	if err == nil {
		err = pipeline.Check(p)
	}
	if err == nil && opt.masks != "" && p.Erosion == "none" {
		err = errors.New("generate: -masks needs erosion: add -erosion hydraulic, thermal or fluvial (or a list)")
	}
	if err == nil && opt.route != "" {
		if err = route.CheckParams(p); err != nil {
			err = fmt.Errorf("generate: -route: %w", err)
		}
	}
	if err == nil {
		err = checkExport(&opt)
	}
	return opt, err
}

// checkRouteFlags refuses flags that would be silently ignored: route
// parameters without -route, and generator parameters with it.
func checkRouteFlags(opt generateOptions, pf *paramFlags) error {
	if opt.routeWarn && opt.route == "" {
		return errors.New("generate: -route-warn needs -route TRACK")
	}
	if opt.routePart != 0 && opt.route == "" {
		return errors.New("generate: -route-part needs -route TRACK")
	}
	if opt.routeReport != "" {
		if opt.route == "" {
			return errors.New("generate: -route-report needs -route TRACK")
		}
		if !strings.EqualFold(filepath.Ext(opt.routeReport), ".json") {
			return fmt.Errorf("generate: -route-report %s: want a .json file", opt.routeReport)
		}
	}
	for _, g := range pf.given {
		switch {
		case opt.route == "" && slices.Contains(routeOnly, g.spec.Name):
			return fmt.Errorf("generate: -%s shapes only a route terrain; add -route TRACK", g.spec.Name)
		case opt.route != "" && slices.Contains(notForRoute, g.spec.Name):
			return fmt.Errorf("generate: -%s cannot be combined with -route: the route terrain is paper 002's turbulence, shaped by -%s",
				g.spec.Name, strings.Join(routeOnly, ", -"))
		}
	}
	return nil
}

// checkHeightmapFlags refuses what a loaded heightmap cannot use: a route,
// and the parameters that would make a map rather than erode one.
func checkHeightmapFlags(opt generateOptions, pf *paramFlags) error {
	if err := checkMapHeight("generate", opt.mapHeight); err != nil {
		return err
	}
	if opt.heightmap == "" {
		if opt.mapHeight != 0 {
			return errors.New("generate: -map-height needs -heightmap IN")
		}
		return nil
	}
	if opt.route != "" {
		return errors.New("generate: -heightmap and -route exclude each other")
	}
	for _, g := range pf.given {
		if slices.Contains(notForHeightmap, g.spec.Name) {
			return fmt.Errorf("generate: -%s makes a map; with -heightmap only the erosion parameters, -seed and -cell-size apply", g.spec.Name)
		}
	}
	return nil
}

// overrideScale applies -map-height (when positive) and a -cell-size given
// on the command line to a loaded map: the user's flag wins over the scale
// the file records (a PNG's, an EXR's), and a note on w says what it
// replaced. A georeferenced file keeps its cell size, which its
// coordinates fix.
func overrideScale(w io.Writer, name string, src *heightfile.Source, mapHeight, cellSize float64, cellSizeGiven bool) {
	m := src.Map
	if mapHeight > 0 {
		if src.Metric && mapHeight != m.VerticalScale {
			fmt.Fprintf(w, "%s: -map-height %g m replaces the file's own height range of %g m (%g to %g m)\n",
				name, mapHeight, m.VerticalScale, src.Base, src.Base+m.VerticalScale)
		}
		m.VerticalScale = mapHeight
	}
	if cellSizeGiven && src.HasCellSize && src.Geo == nil && cellSize != m.CellSize {
		fmt.Fprintf(w, "%s: -cell-size %g m replaces the file's own cell size of %g m\n", name, cellSize, m.CellSize)
		m.CellSize = cellSize
	}
}

// isGiven reports whether the parameter flag -name was on the command line.
func (pf *paramFlags) isGiven(name string) bool {
	return slices.ContainsFunc(pf.given, func(g paramSetting) bool { return g.spec.Name == name })
}

// checkMapHeight refuses a -map-height that is not a positive, finite
// number of metres (0, the flag's default, picks one from the map).
func checkMapHeight(cmd string, h float64) error {
	if math.IsNaN(h) || math.IsInf(h, 0) || h < 0 {
		return fmt.Errorf("%s: -map-height %g: want a positive number of metres", cmd, h)
	}
	return nil
}

func specUsage(s terrain.Spec) string {
	return fmt.Sprintf("%s: %s (default %s)", s.Usage, s.RangeText(), s.Default)
}

// checkOutputs refuses, before anything is made, a missing -o, an -o of
// an unknown format and one named twice (as written; atomicfile.CheckOutputs
// then compares the files themselves): with several outputs a bad one
// would otherwise fail after the build.
func checkOutputs(outs []string) error {
	if len(outs) == 0 || slices.Contains(outs, "") {
		return errors.New("generate: -o OUT is required (a .png, .r16, .exr, .tif, .obj, .glb or .gltf file; repeat -o for several)")
	}
	seen := map[string]string{}
	for _, out := range outs {
		if err := checkOutputExt(out); err != nil {
			return err
		}
		abs, err := filepath.Abs(out)
		if err != nil {
			abs = filepath.Clean(out)
		}
		if first, ok := seen[abs]; ok {
			return fmt.Errorf("generate: -o %s: the same file as -o %s; give each output once", out, first)
		}
		seen[abs] = out
	}
	return nil
}

func checkOutputExt(path string) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png", ".r16", ".raw", ".exr", ".tif", ".tiff", ".obj", ".glb", ".gltf":
		return nil
	}
	return fmt.Errorf("generate: -o %s: unknown format %q (want .png, .r16, .raw, .exr, .tif, .tiff, .obj, .glb or .gltf)", path, filepath.Ext(path))
}

// Generate is the generate command: parse, generate (Ctrl-C cancels),
// write the outputs atomically, and print the time and the height range.
func Generate(args []string, stdout, stderr io.Writer) error {
	opt, err := parseGenerateFlags(args, stderr)
	if err != nil {
		return err
	}
	if err := atomicfile.CheckOutputs(opt.outputs(), opt.inputs()); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	// Files are renamed into place one by one at the end, so two runs into
	// one -o (the tiles of a map, say) would mix their files.
	for _, out := range opt.outs {
		unlock, err := atomicfile.Lock(out)
		if err != nil {
			return fmt.Errorf("generate: -o %w", err)
		}
		defer unlock()
	}
	ctx, stop := signalContext()
	defer stop()
	if opt.route != "" {
		return runGenerateRoute(ctx, opt, stdout, stderr)
	}
	if buildsByTiles(opt) {
		return runGenerateTiles(ctx, opt, stdout, stderr)
	}
	start := time.Now()
	popt := pipeline.Options{Masks: opt.masks != ""}
	bar := generateBar(stderr)
	defer bar.Finish()
	if bar != nil {
		popt.Phase = bar.Phase
		opt.export.bar = bar
	}
	var w *pipeline.World
	if opt.heightmap != "" {
		loaded, err := heightfile.Load(opt.heightmap)
		if err != nil {
			return fmt.Errorf("generate: -heightmap %w", err)
		}
		// A DEM, EXR or TIFF brings its own cell size and heights in metres.
		opt.export.source = loaded
		src := loaded.Map
		if loaded.Note != "" {
			fmt.Fprintf(stdout, "%s: %s\n", opt.heightmap, loaded.Note)
		}
		if !loaded.HasCellSize {
			src.CellSize = opt.params.CellSize
		}
		if !loaded.Metric {
			src.VerticalScale = float64(max(src.Width, src.Height)) / 5
		}
		overrideScale(stdout, opt.heightmap, loaded, opt.mapHeight, opt.params.CellSize, opt.cellSizeGiven)
		ep := opt.params
		ep.Size = max(src.Width, src.Height)
		// The loaded map is kept beside the eroded copy: 4 bytes a sample more.
		if err := checkMemory(opt.params, src.Width, src.Height, 4, opt.masks != "", ""); err != nil {
			return fmt.Errorf("generate: -heightmap %s: %w", opt.heightmap, err)
		}
		warnCost(stderr, ep)
		w, err = pipeline.Erode(ctx, src, opt.params, popt)
		if err != nil {
			return fmt.Errorf("generate: -heightmap %s: %w", opt.heightmap, err)
		}
	} else {
		if err := checkMemory(opt.params, opt.params.Size, opt.params.Size, 0, opt.masks != "", "-size"); err != nil {
			return fmt.Errorf("generate: %w", err)
		}
		warnCost(stderr, opt.params)
		w, err = pipeline.Generate(ctx, opt.params, popt)
		if err != nil {
			return fmt.Errorf("generate: %w", err)
		}
	}
	elapsed := time.Since(start)
	m := w.Map
	g := newOutputGroup(ctx, opt)
	defer g.Abort()
	wrote, err := saveWorld(ctx, g, opt, w)
	if err == nil {
		err = commit(g)
	}
	bar.Finish()
	if err != nil {
		return err
	}
	lo, hi := m.Range()
	what := opt.params.Describe()
	if opt.heightmap != "" {
		what = fmt.Sprintf("%s: %d×%d, %g m per cell, white at %g m", opt.heightmap, m.Width, m.Height, m.CellSize, m.VerticalScale)
	}
	fmt.Fprintf(stdout, "%s\n", what)
	if stages := erosion.Stages(opt.params); len(stages) > 0 {
		fmt.Fprintf(stdout, "erosion %s: %v\n", strings.Join(stages, " → "), w.Budget)
	}
	// The time a user waited includes writing, which for large maps and
	// meshes can be most of it.
	fmt.Fprintf(stdout, "generated in %v, written in %v (%v in all); heights %.4g–%.4g (normalised %.4f–%.4f × %.6g); wrote %s\n",
		elapsed.Round(time.Millisecond), (time.Since(start) - elapsed).Round(time.Millisecond), time.Since(start).Round(time.Millisecond),
		float64(lo)*m.VerticalScale, float64(hi)*m.VerticalScale, lo, hi, m.VerticalScale, wrote)
	fmt.Fprint(stdout, opt.export.report.String())
	return nil
}

// generateBar returns generate's progress bar on stderr: nil unless it is
// a terminal. Tests replace it to see the bar on a buffer.
var generateBar = terminalBar

// generateMemoryLimit is the peak memory generate promises to stay under
// (docs/generate.md), in bytes.
const generateMemoryLimit = 2e9

// checkMemory refuses, before anything is made, erosion whose estimated
// peak (erosion.PeakBytesPerSample, with extra bytes a sample the caller
// holds beside the map, and 64 MB for the runtime and the generator's
// tables) passes generateMemoryLimit: it names the estimate and what would
// fit (no -masks, fewer stages, or, where sizeFlag names the flag that
// sets it, a smaller size), rather than letting the run go out of memory
// part of the way through.
func checkMemory(p terrain.Params, width, height, extra int, masks bool, sizeFlag string) error {
	samples := width * height
	stages := erosion.Stages(p)
	if len(stages) == 0 {
		return nil
	}
	estimate := func(q terrain.Params, samples int, masks bool) float64 {
		return 64<<20 + float64(erosion.PeakBytesPerSample(q, masks)+extra)*float64(samples)
	}
	est := estimate(p, samples, masks)
	if est <= generateMemoryLimit {
		return nil
	}
	var fits []string
	if masks && estimate(p, samples, false) <= generateMemoryLimit {
		fits = append(fits, "no -masks")
	}
	if len(stages) > 1 {
		for i := range stages {
			q := p
			q.Erosion = strings.Join(slices.Delete(slices.Clone(stages), i, i+1), ",")
			if estimate(q, samples, masks) <= generateMemoryLimit {
				fits = append(fits, "-erosion "+q.Erosion)
			}
		}
	}
	if sizeFlag != "" {
		for size := (p.Size-1)/2 + 1; size > 2; size = (size-1)/2 + 1 {
			if estimate(p, size*size, masks) <= generateMemoryLimit {
				fits = append(fits, fmt.Sprintf("%s %d", sizeFlag, size))
				break
			}
		}
	}
	what := "-erosion " + p.Erosion
	if masks {
		what += " with -masks"
	}
	msg := fmt.Sprintf("%s on %d×%d samples would peak at about %.1f GB of memory, over generate's %.0f GB", what, width, height, est/1e9, generateMemoryLimit/1e9)
	if len(fits) > 0 {
		msg += "; within it: " + strings.Join(fits, ", or ")
	}
	return errors.New(msg + "; nothing written")
}

// warnCost says before it starts that a hydraulic stage will take long:
// its parameters, each within its range, multiply (a few minutes at 129²
// is hours at 1025²; erosion.Check refuses above ten minutes).
func warnCost(stderr io.Writer, p terrain.Params) {
	if !slices.Contains(erosion.Stages(p), "hydraulic") {
		return
	}
	if est := erosion.HydraulicCost(p); est > 30*time.Second {
		fmt.Fprintf(stderr, "generate: hydraulic erosion of %d² samples will take up to about %v of CPU (%g droplets per cell × lifetime %d × radius %d); Ctrl-C stops it\n",
			p.Size, est.Round(time.Second), p.HydraulicDroplets, p.HydraulicLifetime, p.HydraulicRadius)
	}
}

// signalContext returns a context cancelled by SIGINT (Ctrl-C), SIGTERM or
// SIGHUP: a command stops at whatever stage it is, removes the temporaries
// of the files it was writing and exits non-zero. Until stop is called
// further signals are caught too, so that the clean-up is not cut short.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
}

// outputs and inputs list the files generate writes and reads (by their
// flags; tiles and masks are named later), so that no output replaces an
// input or another output.
func (opt generateOptions) outputs() []string {
	var outs []string
	if opt.export.tiles <= 1 { // tiles are named NAME_x{i}_y{j}.EXT, checked as they are added
		outs = slices.Clone(opt.outs)
	}
	return append(outs, opt.paramsOut, opt.routeReport, opt.export.normalMap, opt.export.splatMap)
}

func (opt generateOptions) inputs() []string {
	in := []string{opt.heightmap, opt.route}
	if opt.presetFile != "" {
		in = append(in, opt.presetFile)
	}
	return in
}

// newOutputGroup returns the group generate writes all its files through:
// none is put in place unless all were written.
func newOutputGroup(ctx context.Context, opt generateOptions) *atomicfile.Group {
	g := atomicfile.NewGroup(ctx)
	g.Input(opt.inputs()...)
	return g
}

// commit puts generate's files in place.
func commit(g *atomicfile.Group) error {
	if err := g.Commit(); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	return nil
}

// saveWorld adds the map to -o, and the parameters and masks where asked,
// to the group g, and returns the list of files written. It uses up
// w.Masks.
func saveWorld(ctx context.Context, g *atomicfile.Group, opt generateOptions, w *pipeline.World) (string, error) {
	files, err := saveMap(ctx, g, opt, w)
	if err != nil {
		return "", err
	}
	wrote := strings.Join(files, ", ")
	if opt.paramsOut != "" {
		opt.export.bar.Phase("writing " + filepath.Base(opt.paramsOut))
		if err := g.Add(opt.paramsOut, func(wr io.Writer) error { return terrain.EncodeParams(wr, opt.params) }); err != nil {
			return "", fmt.Errorf("generate: %w", err)
		}
		wrote += ", " + opt.paramsOut
	}
	if opt.masks != "" && w.Masks != nil {
		if err := g.MkdirAll(opt.masks); err != nil {
			return "", fmt.Errorf("generate: -masks %w", err)
		}
		base := strings.TrimSuffix(filepath.Base(opt.outs[0]), filepath.Ext(opt.outs[0]))
		for _, name := range erosion.MaskNames {
			// Each mask is normalised in its own storage and written at
			// once: no copy of it is made, and nothing reads the masks after.
			mask, ms, err := w.Masks.TakeNormalised(name)
			if err != nil {
				return "", fmt.Errorf("generate: -masks: %w", err)
			}
			scale := heightfile.MaskScale{Name: name, Unit: ms.Unit, Min: ms.Zero, Max: ms.One, Log: ms.Log}
			path := filepath.Join(opt.masks, base+"-"+name+".png")
			opt.export.bar.Phase("writing " + filepath.Base(path))
			if err := g.Add(path, func(wr io.Writer) error { return heightfile.EncodeMaskPNG16(wr, mask, scale) }); err != nil {
				return "", fmt.Errorf("generate: -masks: %w", err)
			}
			wrote += ", " + path
		}
	}
	return wrote, nil
}

// runGenerateRoute is generate -route: read the track, build the terrain
// through it, write the map (and the parameters and the report), and print
// the scale and how closely the map meets the route.
func runGenerateRoute(ctx context.Context, opt generateOptions, stdout, stderr io.Writer) error {
	track, err := trackfile.Load(opt.route)
	if err != nil {
		return fmt.Errorf("generate: -route %w", err)
	}
	if err := track.SelectPart(opt.routePart); err != nil {
		return fmt.Errorf("generate: -route %s: -route-%w", opt.route, err)
	}
	if err := checkMemory(opt.params, opt.params.Size, opt.params.Size, 0, opt.masks != "", "-size"); err != nil {
		return fmt.Errorf("generate: -route %s: %w", opt.route, err)
	}
	if !opt.routeWarn { // refuse in milliseconds what the build would refuse after seconds
		if err := route.Precheck(opt.params, track); err != nil {
			return fmt.Errorf("generate: -route %s: %w; nothing written", opt.route, err)
		}
	}
	start := time.Now()
	bar := generateBar(stderr)
	defer bar.Finish()
	popt := pipeline.Options{Masks: opt.masks != ""}
	if bar != nil {
		popt.Phase = bar.Phase
		opt.export.bar = bar
	}
	w, err := pipeline.Route(ctx, opt.params, track, popt)
	if err != nil {
		return fmt.Errorf("generate: -route %s: %w", opt.route, err)
	}
	elapsed := time.Since(start)
	res, m := w.Route, w.Map
	if err := res.CheckTrack(); err != nil {
		if !opt.routeWarn {
			return fmt.Errorf("generate: -route %s: %w; nothing written (-route-warn writes the map anyway)", opt.route, err)
		}
		fmt.Fprintf(stdout, "warning: -route %s: %v\n", opt.route, err)
	}
	g := newOutputGroup(ctx, opt)
	defer g.Abort()
	wrote, err := saveWorld(ctx, g, opt, w)
	if err != nil {
		return err
	}
	if opt.routeReport != "" {
		rep, err := res.Report(ctx, elapsed.Seconds())
		if err != nil {
			return fmt.Errorf("generate: %w", err)
		}
		if err := g.Add(opt.routeReport, func(wr io.Writer) error { return route.EncodeReport(wr, rep) }); err != nil {
			return fmt.Errorf("generate: %w", err)
		}
		wrote += ", " + opt.routeReport
	}
	err = commit(g)
	bar.Finish()
	if err != nil {
		return err
	}
	written := time.Since(start) - elapsed
	p := opt.params
	fmt.Fprintf(stdout, "route %s: %s, %d points, %.2f km → %d points solved every %.3g samples (%d merged where passes meet)\n",
		opt.route, track.Format, track.Points(), res.Path.Length/1000, len(res.Points), res.Spacing, res.Merged)
	fmt.Fprintf(stdout, "route terrain %d² seed %d levels %d %s relief %g: %.4g m per cell, heights %.5g–%.5g m\n",
		p.Size, p.Seed, p.RouteLevels(), p.Interpolation, p.RouteRelief, m.CellSize, res.Base, res.Base+m.VerticalScale)
	for _, note := range res.Notes() {
		fmt.Fprintln(stdout, note)
	}
	if stages := erosion.Stages(p); len(stages) > 0 {
		fmt.Fprintf(stdout, "erosion %s before the route constraint: %v\n", strings.Join(stages, " → "), w.Budget)
	}
	fmt.Fprintf(stdout, "generated in %v, written in %v; max error %.2g (%.2g m), mean %.2g; along the whole track max %.2g (%.3g m); wrote %s\n",
		elapsed.Round(time.Millisecond), written.Round(time.Millisecond), res.MaxError, res.MaxError*m.VerticalScale, res.MeanError,
		res.TrackMaxError, res.TrackMaxError*m.VerticalScale, wrote)
	fmt.Fprint(stdout, opt.export.report.String())
	return nil
}

// Presets lists the built-in presets.
func Presets(stdout io.Writer) error {
	for _, pr := range terrain.Presets {
		fmt.Fprintf(stdout, "%-20s %s\n", pr.Name, pr.Description)
	}
	return nil
}

// generateMap makes the map of p through the whole pipeline.
func generateMap(ctx context.Context, p terrain.Params) (*terrain.Heightmap, error) {
	w, err := pipeline.Generate(ctx, p, pipeline.Options{})
	if err != nil {
		return nil, err
	}
	return w.Map, nil
}
