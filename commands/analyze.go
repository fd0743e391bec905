package commands

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"path/filepath"
	"strings"

	"cordillera/internal/atomicfile"
	"cordillera/pipeline"
	"cordillera/terrain"
	"cordillera/terrain/analysis"
	"cordillera/terrain/heightfile"
)

// The analyze command: the geomorphometric statistics of a map read from
// a file or of a generated world, as a table or as JSON, and optionally the
// shaded relief with the channel network the statistics counted.

// analyzeOptions are the parsed flags of the analyze command.
type analyzeOptions struct {
	file        string  // the map to read; empty: generate from the parameters
	mapHeight   float64 // with file: world height of white, metres
	channelArea float64 // m²
	json        bool
	picture     string
	params      *paramFlags
}

const analyzeSynopsis = "cordillera analyze [MAP] [-preset NAME [flags]] [-channel-area M2] [-json] [-picture relief.png]"

// parseAnalyzeFlags reads the analyze command's flags; MAP may come
// before or after them.
func parseAnalyzeFlags(args []string, stderr io.Writer) (analyzeOptions, error) {
	fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
	var opt analyzeOptions
	fs.Float64Var(&opt.mapHeight, "map-height", 0, "with MAP: world height of white in metres, over the file's own (default: the file's, or a fifth of the map's width in cells)")
	fs.Float64Var(&opt.channelArea, "channel-area", analysis.DefaultChannelArea, "drainage area in m² above which a cell is a channel (D8 flow accumulation × cell area)")
	fs.BoolVar(&opt.json, "json", false, "print the statistics as one JSON object instead of a table")
	fs.StringVar(&opt.picture, "picture", "", "also draw the shaded relief with the channel network over it to this .png")
	opt.params = addParamFlags(fs)
	// MAP may stand before, among or after the flags; the flag package
	// stops at the first argument that is not a flag, so parse on past it.
	for {
		err := parseFlags(fs, args, stderr, analyzeSynopsis)
		if err == nil {
			break
		}
		if errors.Is(err, ErrHelp) || errors.Is(err, ErrUsage) || opt.file != "" || fs.NArg() == 0 {
			return opt, err
		}
		opt.file, args = fs.Arg(0), fs.Args()[1:]
	}
	if err := checkMapHeight("analyze", opt.mapHeight); err != nil {
		return opt, err
	}
	if !(opt.channelArea > 0) || math.IsInf(opt.channelArea, 0) {
		return opt, fmt.Errorf("analyze: -channel-area %g: want a positive area in m²", opt.channelArea)
	}
	if opt.picture != "" && !strings.EqualFold(filepath.Ext(opt.picture), ".png") {
		return opt, fmt.Errorf("analyze: -picture %s: want a .png file", opt.picture)
	}
	if opt.file == "" {
		if opt.mapHeight != 0 {
			return opt, errors.New("analyze: -map-height needs a MAP file")
		}
		return opt, nil
	}
	for _, g := range opt.params.given {
		if g.spec.Name != "cell-size" {
			return opt, fmt.Errorf("analyze: -%s makes a map; with a MAP file only -cell-size and -map-height apply", g.spec.Name)
		}
	}
	if opt.params.preset != "default" {
		return opt, errors.New("analyze: -preset makes a map; give a MAP file or a preset, not both")
	}
	return opt, nil
}

// Analyze is the analyze command.
func Analyze(args []string, stdout, stderr io.Writer) error {
	opt, err := parseAnalyzeFlags(args, stderr)
	if err != nil {
		return err
	}
	if opt.picture != "" {
		var inputs []string
		if opt.file != "" {
			inputs = []string{opt.file}
		}
		if err := atomicfile.CheckOutputs([]string{opt.picture}, inputs); err != nil {
			return fmt.Errorf("analyze: -picture %w", err)
		}
	}
	m, name, notes, err := opt.loadMap(stderr)
	if err != nil {
		return err
	}
	g, flow, err := analysis.Geomorph(m, opt.channelArea)
	if err != nil {
		return fmt.Errorf("analyze: %s: %w", name, err)
	}
	if opt.picture != "" {
		img := channelPicture(m, flow, opt.channelArea)
		if err := atomicfile.Write(opt.picture, func(w io.Writer) error { return png.Encode(w, img) }); err != nil {
			return fmt.Errorf("analyze: -picture %w", err)
		}
	}
	// The notes on the scale go with the table, or to the standard error
	// beside JSON, which a script reads whole.
	noteTo := stdout
	if opt.json {
		noteTo = stderr
	}
	for _, n := range notes {
		if n != "" {
			fmt.Fprintln(noteTo, n)
		}
	}
	if opt.json {
		return writeAnalyzeJSON(stdout, name, g)
	}
	fmt.Fprintf(stdout, "%s: %d×%d, %.4g m per cell, relief %.4g m; channels: drainage area ≥ %g m² (%d cells)\n",
		name, g.Width, g.Height, g.CellSize, g.ReliefM, g.ChannelArea, g.ChannelCells)
	for _, s := range analyzeStats(g) {
		fmt.Fprintf(stdout, "  %-22s %10s %-5s %s\n", s.name, formatStat(s.value), s.unit, s.what)
	}
	if opt.picture != "" {
		fmt.Fprintf(stdout, "wrote %s\n", opt.picture)
	}
	return nil
}

// analyzeBytesPerSample is analyze's measured peak memory a sample (heights,
// filled heights, receivers, areas, path lengths in float64, the order, the
// sorted slopes, the spectrum's complex grid, and the collector's slack):
// about 95 bytes at 2049².
const analyzeBytesPerSample = 100

// checkAnalyzeMemory refuses a map whose analysis would pass generate's
// memory budget, before the work starts rather than out of memory.
func checkAnalyzeMemory(width, height int) error {
	if need := float64(width) * float64(height) * analyzeBytesPerSample; need > generateMemoryLimit {
		return fmt.Errorf("a %d×%d map needs about %.1f GB to analyze, over the %.0f GB budget (at most about %d² samples)",
			width, height, need/1e9, generateMemoryLimit/1e9, int(math.Sqrt(generateMemoryLimit/analyzeBytesPerSample)))
	}
	return nil
}

// loadMap reads the MAP file, or generates the world of the parameters,
// and names it. notes are what the user should know about the scale.
func (opt analyzeOptions) loadMap(stderr io.Writer) (*terrain.Heightmap, string, []string, error) {
	p, err := opt.params.resolve("analyze", nil)
	if err != nil {
		return nil, "", nil, err
	}
	if opt.file == "" {
		if err := pipeline.Check(p); err != nil {
			return nil, "", nil, fmt.Errorf("analyze: %w", err)
		}
		if err := checkAnalyzeMemory(p.Size, p.Size); err != nil {
			return nil, "", nil, fmt.Errorf("analyze: -size %d: %w", p.Size, err)
		}
		if err := checkMemory(p, p.Size, p.Size, 0, false, "-size"); err != nil {
			return nil, "", nil, fmt.Errorf("analyze: %w", err)
		}
		warnCost(stderr, p)
		ctx, stop := signalContext()
		defer stop()
		m, err := generateMap(ctx, p)
		if err != nil {
			return nil, "", nil, fmt.Errorf("analyze: %w", err)
		}
		return m, describeMap(p), nil, nil
	}
	src, err := heightfile.Load(opt.file)
	if err != nil {
		return nil, "", nil, fmt.Errorf("analyze: %w", err)
	}
	m := src.Map
	if err := checkAnalyzeMemory(m.Width, m.Height); err != nil {
		return nil, "", nil, fmt.Errorf("analyze: %s: %w", opt.file, err)
	}
	var notes strings.Builder
	name := filepath.Base(opt.file)
	if src.Note != "" {
		fmt.Fprintf(&notes, "%s: %s\n", opt.file, src.Note)
	}
	if !src.HasCellSize {
		m.CellSize = p.CellSize
		if !opt.params.isGiven("cell-size") {
			fmt.Fprintf(&notes, "%s: the file records no cell size: %g m assumed (give -cell-size)\n", opt.file, m.CellSize)
		}
	}
	if !src.Metric {
		m.VerticalScale = float64(max(m.Width, m.Height)) / 5
		if opt.mapHeight == 0 {
			fmt.Fprintf(&notes, "%s: the file records no heights in metres: white taken as %g m above black (give -map-height)\n", opt.file, m.VerticalScale)
		}
	}
	overrideScale(&notes, opt.file, src, opt.mapHeight, p.CellSize, opt.params.isGiven("cell-size"))
	if src.NoData != nil {
		fmt.Fprintf(&notes, "%s: %d cells have no data; they are measured as the reader filled them\n", opt.file, countTrue(src.NoData))
	}
	return m, name, strings.Split(strings.TrimSuffix(notes.String(), "\n"), "\n"), nil
}

// analyzeStat is one statistic as the table and the JSON name it.
type analyzeStat struct {
	name  string
	value float64
	unit  string
	what  string
}

func analyzeStats(g analysis.Geomorphometry) []analyzeStat {
	return []analyzeStat{
		{"slope_mean_deg", g.SlopeMeanDeg, "°", "mean slope angle (Horn 3×3, interior cells)"},
		{"slope_p90_deg", g.SlopeP90Deg, "°", "90th percentile of the slope angle"},
		{"hypsometric_integral", g.HypsometricIntegral, "", "(mean − min)/(max − min) of the heights"},
		{"drainage_density", g.DrainageDensity, "1/m", "channel length per map area"},
		{"filled_fraction", g.FilledFraction, "", "share of cells raised by depression filling (lakes, flats)"},
		{"concavity", g.Concavity, "", fmt.Sprintf("θ in S = ks·A^−θ over channel cells (%d area bins)", g.ConcavityBins)},
		{"steepness", g.Steepness, "m^2θ", "ks of that fit"},
		{"hack_exponent", g.HackExponent, "", fmt.Sprintf("h in L ∝ A^h over channel cells (%d area bins)", g.HackBins)},
		{"spectral_exponent", g.SpectralExponent, "", "β in P(f) ∝ f^−β, radially averaged power spectrum"},
	}
}

func formatStat(v float64) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return fmt.Sprintf("%.4g", v)
}

// writeAnalyzeJSON writes the statistics as one JSON object, keys in
// table order; a statistic that could not be measured is null.
func writeAnalyzeJSON(w io.Writer, name string, g analysis.Geomorphometry) error {
	var b strings.Builder
	field := func(key string, v any) {
		if f, ok := v.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
			v = nil
		}
		val, _ := json.Marshal(v)
		if b.Len() > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "  %q: %s", key, val)
	}
	field("map", name)
	field("width", g.Width)
	field("height", g.Height)
	field("cell_size_m", g.CellSize)
	field("relief_m", g.ReliefM)
	field("channel_area_m2", g.ChannelArea)
	field("channel_cells", g.ChannelCells)
	field("channel_length_m", g.ChannelLengthM)
	for _, s := range analyzeStats(g) {
		field(s.name, s.value)
	}
	_, err := fmt.Fprintf(w, "{\n%s\n}\n", b.String())
	return err
}

// maxPictureSide is the longest side of -picture, in pixels: a larger map
// is shrunk (the relief is filtered; a channel cell marks the pixel it
// falls in).
const maxPictureSide = 2048

// channelColour is the blue of the channels drawn over the relief, and
// lakeColour the lighter blue of the cells the depression filling raised.
var (
	channelColour = color.RGBA{R: 20, G: 70, B: 210, A: 255}
	lakeColour    = color.RGBA{R: 120, G: 180, B: 235, A: 255}
)

// channelPicture is the shaded relief of m with the channels drawn over it
// in blue and the lakes (cells raised by the depression filling) in light
// blue.
func channelPicture(m *terrain.Heightmap, f *analysis.Flow, channelArea float64) *image.RGBA {
	w, h := m.Width, m.Height
	if s := max(w, h); s > maxPictureSide {
		w, h = max(w*maxPictureSide/s, 1), max(h*maxPictureSide/s, 1)
	}
	img := analysis.ShadedRelief(m, w, h, analysis.ReliefOptions{})
	for i := range f.Area {
		col, row := i%m.Width, i/m.Width
		switch {
		case f.IsChannel(i, channelArea):
			img.SetRGBA(col*w/m.Width, row*h/m.Height, channelColour)
		case f.Filled[i] > f.Elevation[i]:
			img.SetRGBA(col*w/m.Width, row*h/m.Height, lakeColour)
		}
	}
	return img
}

func countTrue(b []bool) int {
	n := 0
	for _, v := range b {
		if v {
			n++
		}
	}
	return n
}
