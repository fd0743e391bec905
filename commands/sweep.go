package commands

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"image"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"cordillera/game"
	"cordillera/plot"
	"cordillera/terrain"
	"cordillera/terrain/analysis"

	xdraw "golang.org/x/image/draw"
)

// The sweep command: one parameter at several values, every other
// parameter fixed, as a contact sheet of shaded reliefs — the thesis's
// figures 7.4–7.14 made for any parameter.

const (
	sweepDefaultSize = 257  // map side of a panel unless -size is given: the thesis's 256² test maps
	sweepMaxPanels   = 36   // more panels would be too small to compare
	sweepMaxSide     = 1025 // panel side in pixels; larger maps are shaded at this size
)

// sweepOptions are the parsed flags of the sweep command.
type sweepOptions struct {
	out          string
	cols         int
	exaggeration float64
	spec         terrain.Spec   // the parameter that varies
	values       []string       // its values, one panel each
	figure       terrain.Figure // the thesis figure drawn, if -figure was given
	base         terrain.Params // every other parameter
	list         bool
	threeD       bool // panels as 3D views of the explorer (needs a display)
	thesisLook   bool // with threeD: the thesis's rendering of its figures (7.3)
}

// Size of a -3d panel in pixels.
const sweep3DWidth, sweep3DHeight = 400, 300

// Size of the thesis's figure renders (section 7.3: an 800×600 window),
// scaled into a -3d panel with -thesis-look.
const thesisWidth, thesisHeight = 800, 600

// parseSweepFlags reads the sweep command's flags.
func parseSweepFlags(args []string, stderr io.Writer) (sweepOptions, error) {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	var opt sweepOptions
	var param, values, figure string
	fs.StringVar(&opt.out, "o", "", "output contact sheet (.png)")
	fs.StringVar(&param, "param", "", "the parameter to vary: any generator flag's name (e.g. octaves, hurst, lacunarity)")
	fs.StringVar(&values, "values", "", "its values, comma-separated (one panel each); 'all' for every choice of algorithm, basis or effect")
	fs.StringVar(&figure, "figure", "", "redraw a thesis figure instead of -param/-values (see -list)")
	fs.BoolVar(&opt.list, "list", false, "list the thesis figures -figure can draw")
	fs.BoolVar(&opt.threeD, "3d", false, "draw each panel as a 3D view of the explorer (needs a display; xvfb-run on servers)")
	fs.BoolVar(&opt.thesisLook, "thesis-look", false, "with -3d: render as the thesis did its figures (7.3): diffuse light only, sun at 90°, 800×600 scaled into the panel")
	fs.IntVar(&opt.cols, "cols", 0, "panels per row (default: about the square root of the number of panels)")
	fs.Float64Var(&opt.exaggeration, "exaggeration", 1, "vertical exaggeration of the shading, 0.1 to 20")
	pf := addParamFlags(fs)
	if f := fs.Lookup("size"); f != nil {
		f.Usage = fmt.Sprintf("samples per side of each panel's map, also its side in pixels up to %d (subdivision needs 2^k+1): [2, %d] (default %d in a sweep, whatever the preset says)",
			sweepMaxSide, terrain.MaxSize, sweepDefaultSize)
	}
	synopsis := "cordillera sweep -param NAME -values V1,V2,... -o sheet.png [flags]\n       cordillera sweep -figure fig7.5 -o sheet.png [flags]\n       cordillera sweep -list"
	if err := parseFlags(fs, args, stderr, synopsis); err != nil {
		return opt, err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if opt.list {
		return opt, nil
	}
	if opt.thesisLook && !opt.threeD {
		return opt, errors.New("sweep: -thesis-look is a way of rendering -3d panels; add -3d")
	}
	param, err := opt.chooseFigure(figure, param, values, given, pf)
	if err != nil {
		return opt, err
	}
	if err := opt.chooseValues(param, values, given); err != nil {
		return opt, err
	}
	if err := opt.checkSheet(); err != nil {
		return opt, err
	}
	err = opt.resolveBase(pf, given)
	return opt, err
}

// chooseFigure takes -figure's parameter, values and base preset into
// opt and pf, or checks that -param and -values are given without it; it
// returns the parameter swept.
func (opt *sweepOptions) chooseFigure(figure, param, values string, given map[string]bool, pf *paramFlags) (string, error) {
	switch {
	case figure != "" && (param != "" || values != ""):
		return "", errors.New("sweep: -figure sets the parameter and its values; leave out -param and -values")
	case figure != "" && given["preset"]:
		return "", errors.New("sweep: -figure sets its own base preset; leave out -preset (other parameter flags still apply)")
	case figure != "":
		fig, ok := terrain.FigureByName(figure)
		if !ok {
			return "", fmt.Errorf("sweep: unknown figure %q (run 'cordillera sweep -list'; known: %s)", figure, strings.Join(figureNames(), ", "))
		}
		opt.figure, pf.preset = fig, fig.Preset
		opt.values = fig.Values
		return fig.Param, nil
	case param == "":
		return "", errors.New("sweep: -param NAME is required (or -figure, or -list)")
	case values == "":
		return "", fmt.Errorf("sweep: -values is required: the values of %s, comma-separated", param)
	}
	return param, nil
}

// chooseValues sets the swept parameter's spec and, without a figure,
// its values from -values.
func (opt *sweepOptions) chooseValues(param, values string, given map[string]bool) error {
	spec, ok := terrain.SpecByName(param)
	if !ok {
		return fmt.Errorf("sweep: -param %q is not a generator parameter; choose one of: %s", param, strings.Join(specNames(), ", "))
	}
	opt.spec = spec
	if given[spec.Name] {
		return fmt.Errorf("sweep: -%s is the parameter being swept; give its values with -values", spec.Name)
	}
	if opt.figure.Name == "" {
		opt.values = splitValues(values, spec)
	}
	if len(opt.values) < 1 || len(opt.values) > sweepMaxPanels {
		return fmt.Errorf("sweep: -values: %d values; give between 1 and %d", len(opt.values), sweepMaxPanels)
	}
	return nil
}

// checkSheet checks the contact sheet's flags (-o, -cols,
// -exaggeration) and picks the columns where -cols is not given.
func (opt *sweepOptions) checkSheet() error {
	if opt.out == "" || !strings.EqualFold(filepath.Ext(opt.out), ".png") {
		return errors.New("sweep: -o FILE.png is required")
	}
	if opt.cols < 0 || opt.cols > len(opt.values) {
		return fmt.Errorf("sweep: -cols %d: want between 1 and the number of panels, %d", opt.cols, len(opt.values))
	}
	if opt.cols == 0 {
		opt.cols = int(math.Ceil(math.Sqrt(float64(len(opt.values)))))
	}
	if !(opt.exaggeration >= 0.1 && opt.exaggeration <= 20) {
		return fmt.Errorf("sweep: -exaggeration %g: want between 0.1 and 20", opt.exaggeration)
	}
	return nil
}

// resolveBase sets every other parameter from the flags (a sweep's own
// default size unless -size is given) and checks that the swept one
// changes the map and that each of its values is valid.
func (opt *sweepOptions) resolveBase(pf *paramFlags, given map[string]bool) error {
	spec := opt.spec
	pf.swept = spec.Name
	p, err := pf.resolve("sweep", nil)
	if err != nil {
		return err
	}
	if !given["size"] {
		p.Size = sweepDefaultSize
	}
	opt.base = p
	if why := unusedBecause(p, spec.Name); why != "" {
		return fmt.Errorf("sweep: -param %s does not change a %s map with effect %s: %s", spec.Name, p.Algorithm, p.Effect, why)
	}
	// Every value is checked before any panel is generated, so a typo in
	// the last one does not cost the time of the others.
	for i, v := range opt.values {
		if _, err := sweepParams(p, spec, v); err != nil {
			return fmt.Errorf("sweep: -values: value %d of %d: %w", i+1, len(opt.values), err)
		}
	}
	return nil
}

// splitValues splits -values at commas; "all" is every choice of a
// choice parameter.
func splitValues(values string, spec terrain.Spec) []string {
	if values == "all" && (spec.Kind == terrain.ChoiceParam || spec.Kind == terrain.BoolParam) {
		return slices.Clone(spec.Choices)
	}
	parts := strings.Split(values, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// sweepParams returns base with the swept parameter set to value. A bad
// value's error names the value and the range the parameter accepts.
func sweepParams(base terrain.Params, spec terrain.Spec, value string) (terrain.Params, error) {
	p := base
	if err := spec.Set(&p, value); err != nil {
		if spec.Kind != terrain.ChoiceParam && spec.Kind != terrain.BoolParam && !strings.Contains(err.Error(), spec.RangeText()) {
			err = fmt.Errorf("%w; %s accepts %s", err, spec.Name, spec.RangeText())
		}
		return p, err
	}
	if err := p.Validate(); err != nil {
		return p, fmt.Errorf("%s = %s: %w", spec.Name, value, err)
	}
	return p, nil
}

// sweepSheet is a drawn sweep: the contact sheet and what is on it.
type sweepSheet struct {
	Image     *image.RGBA
	Layout    plot.SheetLayout
	Title     []string // the title lines as given, before wrapping
	Captions  []string // each panel's caption, in reading order
	Identical [][2]int // pairs of panels whose maps came out the same
	Flat      []int    // panels whose maps are flat (all one height)
}

// makeSweep generates one map per value, shades each, and lays them out.
// Maps are generated a few at a time (each generation already uses every
// core; running two overlaps their serial parts) and only their shaded
// reliefs are kept (and, with -3d, a copy of each map thinned to
// sweepMaxSide samples a side, plenty for a 400×300 view), so memory stays
// bounded however many panels there are and however large their maps.
func makeSweep(ctx context.Context, opt sweepOptions) (sweepSheet, error) {
	n := len(opt.values)
	side := min(opt.base.Size, sweepMaxSide)
	panels := make([]plot.Panel, n)
	maps := make([]*terrain.Heightmap, n)
	hashes := make([]uint64, n)
	flat := make([]bool, n)
	errs := make([]error, n)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	workers := min(n, max(1, runtime.GOMAXPROCS(0)), 4)
	if opt.base.Size > 2049 {
		workers = 1 // a few 4097² generations at once would need gigabytes
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				p, err := sweepParams(opt.base, opt.spec, opt.values[i])
				var m *terrain.Heightmap
				if err == nil {
					m, err = generateMap(ctx, p)
				}
				if err != nil {
					errs[i] = fmt.Errorf("%s = %s: %w", opt.spec.Name, opt.values[i], err)
					cancel()
					continue
				}
				img := analysis.ShadedRelief(m, side, side, analysis.ReliefOptions{Exaggeration: opt.exaggeration})
				panels[i] = plot.Panel{Image: img, Caption: sweepCaption(opt, i)}
				hashes[i] = mapHash(m)
				lo, hi := m.Range()
				flat[i] = lo == hi
				if opt.threeD {
					maps[i] = thinMap(m, sweepMaxSide)
				}
			}
		}()
	}
	for i := range n {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	for _, err := range errs { // the first failure, not the cancellations it caused
		if err != nil && !errors.Is(err, context.Canceled) {
			return sweepSheet{}, err
		}
	}
	if err := ctx.Err(); err != nil {
		return sweepSheet{}, err
	}

	if opt.threeD {
		worlds := make([]*game.World, n)
		for i, m := range maps {
			worlds[i] = game.NewWorld(m)
		}
		w, h, setup := sweep3DWidth, sweep3DHeight, func(*game.Game) {}
		if opt.thesisLook {
			w, h, setup = thesisWidth, thesisHeight, func(g *game.Game) { game.ThesisFigureLook(&g.View) }
		}
		views, err := game.RenderWorlds(worlds, w, h, setup)
		if err != nil {
			return sweepSheet{}, fmt.Errorf("-3d: %w", err)
		}
		for i := range panels {
			panels[i].Image = fitPanel(views[i], sweep3DWidth, sweep3DHeight)
		}
	}
	title := sweepTitle(opt)
	img, layout, err := plot.Sheet(title, panels, opt.cols)
	if err != nil {
		return sweepSheet{}, err
	}
	s := sweepSheet{Image: img, Layout: layout, Title: title}
	for i, p := range panels {
		s.Captions = append(s.Captions, p.Caption)
		if flat[i] {
			s.Flat = append(s.Flat, i)
		}
		for j := i + 1; j < n; j++ {
			if hashes[i] == hashes[j] {
				s.Identical = append(s.Identical, [2]int{i, j})
			}
		}
	}
	return s, nil
}

// fitPanel scales a rendered view to a panel of w×h pixels (a view of that
// size already is one), with a bilinear filter widened to the scale so
// that every source pixel counts.
func fitPanel(img *image.RGBA, w, h int) *image.RGBA {
	if img.Bounds().Dx() == w && img.Bounds().Dy() == h {
		return img
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	xdraw.BiLinear.Scale(dst, dst.Bounds(), img, img.Bounds(), xdraw.Src, nil)
	return dst
}

// sweepCaption is panel i's caption: "name = value", with the thesis's
// panel letter in front for a figure.
func sweepCaption(opt sweepOptions, i int) string {
	c := opt.spec.Name + " = " + opt.values[i]
	if opt.figure.Name != "" {
		c = fmt.Sprintf("(%c) %s", 'a'+i, c)
	}
	return c
}

// sweepTitle is the sheet's title: what varies, then every parameter that
// shapes these maps and stays fixed.
func sweepTitle(opt sweepOptions) []string {
	first := fmt.Sprintf("%s varies: %s", opt.spec.Name, opt.spec.Usage)
	if opt.figure.Name != "" {
		first = opt.figure.Caption
	}
	// A parameter is listed if it shapes any panel: sweeping the
	// algorithm, the hetero panel's offset counts even though fBm's does not.
	shapes := map[string]bool{}
	for _, v := range opt.values {
		if p, err := sweepParams(opt.base, opt.spec, v); err == nil {
			for _, name := range relevantParams(p) {
				shapes[name] = true
			}
		}
	}
	var fixed []string
	for _, s := range terrain.Specs {
		name := s.Name
		if name == opt.spec.Name || !shapes[name] {
			continue
		}
		fixed = append(fixed, name+nbsp+s.Get(&opt.base))
	}
	// No-break spaces keep each "name value ·" together when the line wraps.
	title := []string{first, "fixed: " + strings.Join(fixed, nbsp+"· ")}
	if opt.thesisLook {
		title = append(title, fmt.Sprintf("rendered as thesis 7.3 did: perspective, diffuse light only, sun at 90°, %d×%d scaled to %d×%d",
			thesisWidth, thesisHeight, sweep3DWidth, sweep3DHeight))
	}
	return title
}

// nbsp is the no-break space: plot.Sheet wraps lines only at plain spaces.
const nbsp = "\u00a0"

// relevantParams are the parameters that shape a map of p's algorithm
// and effect, in the order of the parameter table.
func relevantParams(p terrain.Params) []string {
	var out []string
	for _, s := range terrain.Specs {
		if unusedBecause(p, s.Name) == "" {
			out = append(out, s.Name)
		}
	}
	return out
}

// unusedBecause says why Generate ignores the named parameter for maps
// like p, or "" when the parameter shapes them (terrain.Spec.AppliesTo).
func unusedBecause(p terrain.Params, name string) string {
	s, ok := terrain.SpecByName(name)
	if !ok {
		return ""
	}
	_, why := s.AppliesTo(p)
	return why
}

// mapHash fingerprints a map's samples and scales, to spot panels that
// came out the same because the swept parameter does not act on them.
// The samples go through a small buffer, not a copy of the map.
func mapHash(m *terrain.Heightmap) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d %d %g %g|", m.Width, m.Height, m.CellSize, m.VerticalScale)
	buf := make([]byte, 0, 1<<16)
	for _, v := range m.Samples {
		b := math.Float32bits(v)
		buf = append(buf, byte(b), byte(b>>8), byte(b>>16), byte(b>>24))
		if len(buf) == cap(buf) {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	h.Write(buf)
	return h.Sum64()
}

// thinMap returns m, or for a map wider or taller than maxSide samples
// every k-th sample of it with k the smallest step that fits, its cells k
// times as large, so that the world keeps its extent (up to the last
// k−1 samples where k does not divide the side).
func thinMap(m *terrain.Heightmap, maxSide int) *terrain.Heightmap {
	k := max((m.Width-1+maxSide-2)/(maxSide-1), (m.Height-1+maxSide-2)/(maxSide-1), 1)
	return m.Every(k)
}

// Sweep is the sweep command: parse, generate the panels (Ctrl-C
// cancels), write the sheet atomically, and say what is on it.
func Sweep(args []string, stdout, stderr io.Writer) error {
	opt, err := parseSweepFlags(args, stderr)
	if err != nil {
		return err
	}
	if opt.list {
		listFigures(stdout)
		return nil
	}
	if opt.threeD && runtime.GOOS == "linux" && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return errors.New("sweep: -3d needs a display (DISPLAY is not set): run it under xvfb-run, or leave -3d out for shaded relief")
	}
	ctx, stop := signalContext()
	defer stop()
	start := time.Now()
	s, err := makeSweep(ctx, opt)
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	if err := writePNG(opt.out, s.Image); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	b := s.Layout.Bounds
	fmt.Fprintf(stdout, "%s = %s, base %s: %d panels (%d×%d) made in %v; wrote %s (%d×%d)\n",
		opt.spec.Name, strings.Join(opt.values, ", "), describeMap(opt.base), len(opt.values), s.Layout.Cols, s.Layout.Rows,
		time.Since(start).Round(time.Millisecond), opt.out, b.Dx(), b.Dy())
	for _, i := range s.Flat {
		fmt.Fprintf(stdout, "note: panel %q is flat: the generator gives the same height everywhere at this value\n", s.Captions[i])
	}
	for _, pair := range s.Identical {
		fmt.Fprintf(stdout, "note: panels %q and %q came out the same map (%s makes no difference between these values here)\n",
			s.Captions[pair[0]], s.Captions[pair[1]], opt.spec.Name)
	}
	return nil
}

// listFigures prints the thesis figures -figure can draw.
func listFigures(w io.Writer) {
	for _, f := range terrain.Figures {
		fmt.Fprintf(w, "%-8s %s\n         -preset %s, %s = %s\n", f.Name, f.Caption, f.Preset, f.Param, strings.Join(f.Values, ", "))
	}
}

func figureNames() []string {
	out := make([]string, len(terrain.Figures))
	for i, f := range terrain.Figures {
		out[i] = f.Name
	}
	return out
}

func specNames() []string {
	out := make([]string, len(terrain.Specs))
	for i, s := range terrain.Specs {
		out[i] = s.Name
	}
	return out
}
