package commands

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	gplot "gonum.org/v1/plot"

	"cordillera/internal/atomicfile"
	"cordillera/plot"
	"cordillera/terrain"
)

// The plot command: a measurement of one map drawn as a chart — the
// heights along a line, the distribution of heights, or the power
// spectrum whose slope measures the roughness H.

// The kinds of plot.
const (
	plotProfile   = plot.KindProfile
	plotHistogram = plot.KindHistogram
	plotSpectrum  = plot.KindSpectrum
)

var plotKinds = []string{plotProfile, plotHistogram, plotSpectrum}

// plotOptions are the parsed flags of the plot command.
type plotOptions struct {
	kind          string
	out           string
	width, height int
	line          [4]float64 // map fractions x0, y0, x1, y1
	bins          int
	band          [2]float64 // cycles per sample; zero: terrain.DefaultFitBand
	world         *worldFlags
}

// parsePlotFlags reads the plot command's flags.
func parsePlotFlags(args []string, stderr io.Writer) (plotOptions, error) {
	fs := flag.NewFlagSet("plot", flag.ContinueOnError)
	opt := plotOptions{world: addWorldFlags(fs)}
	var line, band string
	fs.StringVar(&opt.kind, "kind", "", "what to plot: "+strings.Join(plotKinds, ", "))
	fs.StringVar(&opt.out, "o", "", "output image (.png)")
	fs.IntVar(&opt.width, "width", 900, "image width in pixels")
	fs.IntVar(&opt.height, "height", 600, "image height in pixels")
	fs.StringVar(&line, "line", "0,0.5,1,0.5", "with -kind profile: the line x0,y0,x1,y1 in map fractions, (0,0) the north-west corner, (1,1) the south-east")
	fs.IntVar(&opt.bins, "bins", 50, "with -kind histogram: the number of bins, 1 to 1000")
	fs.StringVar(&band, "band", "", "with -kind spectrum: the frequencies fitted, fmin,fmax in cycles per sample (default 8/N to 1/8 for an N-sample transform)")
	synopsis := "cordillera plot -kind profile|histogram|spectrum -o plot.png [-line x0,y0,x1,y1] [-bins N] [-band fmin,fmax] [-preset NAME | -heightmap FILE] [flags]"
	if err := parseFlags(fs, args, stderr, synopsis); err != nil {
		return opt, err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })

	if opt.kind == "" {
		return opt, fmt.Errorf("plot: -kind is required: %s", strings.Join(plotKinds, ", "))
	}
	if !slices.Contains(plotKinds, opt.kind) {
		return opt, fmt.Errorf("plot: -kind %q is not one of %s", opt.kind, strings.Join(plotKinds, ", "))
	}
	for _, only := range [][2]string{{"line", plotProfile}, {"bins", plotHistogram}, {"band", plotSpectrum}} {
		if given[only[0]] && opt.kind != only[1] {
			return opt, fmt.Errorf("plot: -%s applies only to -kind %s", only[0], only[1])
		}
	}
	if opt.out == "" || !strings.EqualFold(filepath.Ext(opt.out), ".png") {
		return opt, errors.New("plot: -o FILE.png is required")
	}
	if opt.width < 200 || opt.height < 150 || opt.width > 8192 || opt.height > 8192 {
		return opt, fmt.Errorf("plot: -width %d -height %d: want 200 to 8192 by 150 to 8192 pixels", opt.width, opt.height)
	}
	var err error
	if opt.line, err = parseLine(line); err != nil {
		return opt, fmt.Errorf("plot: -line: %w", err)
	}
	if opt.bins < 1 || opt.bins > 1000 {
		return opt, fmt.Errorf("plot: -bins %d: want 1 to 1000", opt.bins)
	}
	if band != "" {
		if opt.band, err = parseBand(band); err != nil {
			return opt, fmt.Errorf("plot: -band: %w", err)
		}
	}
	return opt, nil
}

// parseLine reads "x0,y0,x1,y1": four map fractions in [0, 1], not all
// one point.
func parseLine(s string) ([4]float64, error) {
	var l [4]float64
	parts := strings.Split(s, ",")
	if len(parts) != 4 {
		return l, fmt.Errorf("%q: want four numbers x0,y0,x1,y1 (map fractions in [0, 1])", s)
	}
	for i, part := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(part), 64)
		if err != nil || !(v >= 0 && v <= 1) { // also refuses NaN
			return l, fmt.Errorf("%q: coordinate %d (%s) is not a map fraction in [0, 1]", s, i+1, strings.TrimSpace(part))
		}
		l[i] = v
	}
	if l[0] == l[2] && l[1] == l[3] {
		return l, fmt.Errorf("%q: the two ends are the same point", s)
	}
	return l, nil
}

// parseBand reads "fmin,fmax" in cycles per sample, 0 < fmin < fmax ≤ ½;
// each may be a fraction such as 1/128.
func parseBand(s string) ([2]float64, error) {
	var b [2]float64
	parts := strings.Split(s, ",")
	if len(parts) != 2 {
		return b, fmt.Errorf("%q: want two frequencies fmin,fmax in cycles per sample, e.g. 1/128,1/8", s)
	}
	for i, part := range parts {
		v, err := parseFraction(strings.TrimSpace(part))
		if err != nil {
			return b, fmt.Errorf("%q: %w", s, err)
		}
		b[i] = v
	}
	if !(b[0] > 0 && b[0] < b[1] && b[1] <= 0.5) {
		return b, fmt.Errorf("%q: want 0 < fmin < fmax ≤ 0.5 (the Nyquist frequency)", s)
	}
	return b, nil
}

// parseFraction reads a number or a fraction "a/b".
func parseFraction(s string) (float64, error) {
	num, den, isFrac := strings.Cut(s, "/")
	v, err := strconv.ParseFloat(num, 64)
	d := 1.0
	if err == nil && isFrac {
		d, err = strconv.ParseFloat(den, 64)
	}
	if err != nil || math.IsNaN(v/d) || math.IsInf(v/d, 0) {
		return 0, fmt.Errorf("%q is not a number or a fraction a/b", s)
	}
	return v / d, nil
}

// Plot is the plot command: parse, make or load the map, measure it,
// draw the chart and write it atomically.
func Plot(args []string, stdout, stderr io.Writer) error {
	opt, err := parsePlotFlags(args, stderr)
	if err != nil {
		return err
	}
	// The parameters give the spectrum's theory line its H, also for a
	// loaded heightmap (-hurst says what to compare it with).
	if err := opt.world.checkOutput("plot", opt.out); err != nil {
		return err
	}
	params, err := opt.world.params.resolve("plot", nil)
	if err != nil {
		return err
	}
	opt.world.mapOnly = true // a plot measures the heights alone
	w, _, name, err := opt.world.load("plot", stdout)
	if err != nil {
		return err
	}
	if opt.world.heightmap == "" {
		name = describeMap(params)
	}
	p, summary, err := makePlot(opt, w.Map, params, name)
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	img, err := plot.Render(p, opt.width, opt.height)
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	if err := writePNG(opt.out, img); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	fmt.Fprintf(stdout, "%s; wrote %s\n", summary, opt.out)
	return nil
}

func makePlot(opt plotOptions, m *terrain.Heightmap, params terrain.Params, name string) (*gplot.Plot, string, error) {
	return plot.Make(opt.kind, m, plot.MakeOptions{Line: opt.line, Bins: opt.bins, Band: opt.band, Hurst: params.Hurst, Name: name})
}

// describeMap is Params.Describe plus what it leaves out that shapes a
// generated map: the multifractals' offset, the distortion, the post-effect.
func describeMap(p terrain.Params) string {
	d := p.Describe()
	if p.Algorithm == terrain.Hetero || p.Algorithm == terrain.Hybrid {
		d += fmt.Sprintf(" offset %g", p.Offset)
	}
	if p.Distortion > 0 {
		d += fmt.Sprintf(" distortion %g%%", p.Distortion)
	}
	if p.Effect != terrain.NoEffect {
		d += fmt.Sprintf(" %s %g%%", p.Effect, p.Intensity)
	}
	return d
}

// writePNG encodes img as a PNG file, atomically.
func writePNG(path string, img image.Image) error {
	return atomicfile.Write(path, func(w io.Writer) error { return png.Encode(w, img) })
}
