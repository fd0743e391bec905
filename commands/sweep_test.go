package commands

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cordillera/terrain"
)

func runSweepCLI(args ...string) (stdout string, err error) {
	var out, errb bytes.Buffer
	err = Sweep(args, &out, &errb)
	return out.String() + errb.String(), err
}

// meanAbsDiff is the mean absolute difference of two same-sized regions'
// RGB channels, 0–255.
func meanAbsDiff(img *image.RGBA, a, b image.Rectangle) float64 {
	sum, n := 0.0, 0
	for y := 0; y < a.Dy(); y++ {
		for x := 0; x < a.Dx(); x++ {
			p, q := img.RGBAAt(a.Min.X+x, a.Min.Y+y), img.RGBAAt(b.Min.X+x, b.Min.Y+y)
			for _, d := range []int{int(p.R) - int(q.R), int(p.G) - int(q.G), int(p.B) - int(q.B)} {
				sum += float64(max(d, -d))
				n++
			}
		}
	}
	return sum / float64(n)
}

func TestSweepSheet(t *testing.T) {
	opt, err := parseSweepFlags([]string{"-param", "octaves", "-values", "1,3,8", "-o", "x.png"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if opt.cols != 2 {
		t.Errorf("default columns for 3 panels: %d, want 2", opt.cols)
	}
	s, err := makeSweep(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	l := s.Layout
	if len(l.Panels) != 3 || l.Cols != 2 || l.Rows != 2 {
		t.Fatalf("%d panels in %d×%d, want 3 in 2×2", len(l.Panels), l.Cols, l.Rows)
	}
	// The sheet is the title block plus cols × rows cells, each a 257²
	// shaded relief (one pixel per sample, the default size) over its
	// caption strip; margins and gaps add under 60 pixels.
	cellW, cellH := l.Captions[0].Dx(), 257+l.Captions[0].Dy()
	if b := s.Image.Bounds(); b.Dx() < 2*cellW || b.Dy() < l.Title.Dy()+2*cellH || b.Dx() > 2*cellW+60 || b.Dy() > l.Title.Dy()+2*cellH+60 {
		t.Errorf("sheet %v for 2×2 cells of %d×%d under a %d-pixel title", b, cellW, cellH, l.Title.Dy())
	}
	for i, r := range l.Panels {
		if r.Dx() != 257 || r.Dy() != 257 {
			t.Errorf("panel %d is %v, want 257×257", i, r)
		}
	}
	want := []string{"octaves = 1", "octaves = 3", "octaves = 8"}
	if strings.Join(s.Captions, "|") != strings.Join(want, "|") {
		t.Errorf("captions %q, want %q", s.Captions, want)
	}
	if !strings.HasPrefix(s.Title[0], "octaves varies") || !strings.Contains(s.Title[1], "algorithm\u00a0fbm") ||
		!strings.Contains(s.Title[1], "hurst\u00a01") || strings.Contains(s.Title[1], "octaves") || strings.Contains(s.Title[1], "offset") {
		t.Errorf("title %q: want what varies, then the fixed parameters of fbm without the swept one", s.Title)
	}
	// Different values make different pictures and different captions.
	for i := range l.Panels {
		for j := range i {
			if d := meanAbsDiff(s.Image, l.Panels[i], l.Panels[j]); d < 2 {
				t.Errorf("panels %d and %d differ by %.2f on average; want different maps", i, j, d)
			}
			if d := meanAbsDiff(s.Image, l.Captions[i], l.Captions[j]); d == 0 {
				t.Errorf("captions %d and %d look the same", i, j)
			}
		}
	}
	if len(s.Identical) != 0 || len(s.Flat) != 0 {
		t.Errorf("identical %v, flat %v; want none", s.Identical, s.Flat)
	}
}

func TestSweepWritesTheSheet(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sheet.png")
	stdout, err := runSweepCLI("-param", "hurst", "-values", "0.3, 1.5", "-cols", "1", "-o", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "hurst = 0.3, 1.5") || !strings.Contains(stdout, "wrote "+out) {
		t.Errorf("output %q lacks the values and the file", stdout)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dy() < 2*257 || b.Dx() > b.Dy() {
		t.Errorf("one column of two 257² panels is %v: want taller than wide", b)
	}
}

// A thesis figure uses its preset, parameter and values, and letters the
// panels as the thesis does.
func TestSweepFigure(t *testing.T) {
	opt, err := parseSweepFlags([]string{"-figure", "fig7.12", "-size", "33", "-o", "x.png"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if opt.spec.Name != "intensity" || opt.base.Effect != terrain.Glacier || opt.base.Amplitude != 50 || opt.base.Size != 33 {
		t.Errorf("fig7.12: %s over %s; want intensity over the glacier preset at -size 33", opt.spec.Name, describeMap(opt.base))
	}
	s, err := makeSweep(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	want := "(a) intensity = 0|(b) intensity = 50|(c) intensity = 75|(d) intensity = 90"
	if got := strings.Join(s.Captions, "|"); got != want {
		t.Errorf("captions %q, want %q", got, want)
	}
	if !strings.HasPrefix(s.Title[0], "Thesis figure 7.12") {
		t.Errorf("title %q, want the thesis caption", s.Title[0])
	}
	// Without -size a sweep is made at the thesis's 257².
	opt, err = parseSweepFlags([]string{"-param", "seed", "-values", "1,2", "-o", "x.png"}, &bytes.Buffer{})
	if err != nil || opt.base.Size != 257 {
		t.Errorf("default panel size %d (%v), want 257", opt.base.Size, err)
	}
}

func TestSweepList(t *testing.T) {
	stdout, err := runSweepCLI("-list")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range terrain.Figures {
		if !strings.Contains(stdout, f.Name+" ") || !strings.Contains(stdout, f.Preset) {
			t.Errorf("-list lacks %s or its preset %s", f.Name, f.Preset)
		}
	}
}

// A sweep whose values make the same map says so.
func TestSweepNotesIdenticalAndFlatPanels(t *testing.T) {
	opt, err := parseSweepFlags([]string{"-param", "feature-size", "-values", "0,0,60", "-octaves", "1", "-size", "33", "-o", "x.png"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := makeSweep(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Identical) != 1 || s.Identical[0] != [2]int{0, 1} {
		t.Errorf("identical pairs %v, want [[0 1]]", s.Identical)
	}
	// Feature size 0 (a period of one sample) once sampled Perlin noise
	// only at lattice points, where it is zero: flat panels. The samples
	// now sit off the lattice, so no panel is flat.
	if len(s.Flat) != 0 {
		t.Errorf("flat panels %v, want none", s.Flat)
	}
}

func TestSweepErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "sheet.png")
	for _, tc := range []struct {
		args []string
		want []string // every one must be in the error
	}{
		{[]string{"-param", "octave", "-values", "1,2", "-o", out}, []string{`"octave" is not a generator parameter`, "octaves", "hurst"}},
		{[]string{"-param", "octaves", "-values", "1,30", "-o", out}, []string{"value 2 of 2", "30", "[1, 24]"}},
		{[]string{"-param", "octaves", "-values", "1,two", "-o", out}, []string{`"two"`, "[1, 24]"}},
		{[]string{"-param", "hurst", "-values", "0.5,NaN", "-o", out}, []string{"NaN", "[0, 2]"}},
		{[]string{"-param", "effect", "-values", "glacier,volcano", "-o", out}, []string{`"volcano"`, "glacier, canyon, plateau"}},
		{[]string{"-param", "size", "-values", "65,100", "-algorithm", "midpoint", "-o", out}, []string{"size = 100", "2^k+1"}},
		{[]string{"-param", "offset", "-values", "0,1", "-o", out}, []string{"offset does not change a fbm map", "hetero"}},
		{[]string{"-param", "thermal-talus", "-values", "20,40", "-o", out}, []string{"thermal-talus does not change", "add -erosion thermal"}},
		{[]string{"-param", "intensity", "-values", "0,50", "-o", out}, []string{"-effect"}},
		{[]string{"-param", "levels", "-values", "3,4", "-o", out}, []string{"route"}},
		{[]string{"-param", "octaves", "-values", "1,2", "-octaves", "3", "-o", out}, []string{"-octaves is the parameter being swept"}},
		{[]string{"-param", "octaves", "-o", out}, []string{"-values is required"}},
		{[]string{"-values", "1,2", "-o", out}, []string{"-param NAME is required"}},
		{[]string{"-param", "octaves", "-values", "1,2"}, []string{"-o FILE.png"}},
		{[]string{"-param", "octaves", "-values", "1,2", "-o", filepath.Join(dir, "sheet.jpg")}, []string{"-o FILE.png"}},
		{[]string{"-param", "octaves", "-values", "1,2", "-cols", "3", "-o", out}, []string{"-cols 3"}},
		{[]string{"-param", "seed", "-values", strings.Repeat("1,", 40) + "1", "-o", out}, []string{"41 values"}},
		{[]string{"-figure", "fig7.99", "-o", out}, []string{`unknown figure "fig7.99"`, "fig7.5"}},
		{[]string{"-figure", "fig7.5", "-param", "hurst", "-o", out}, []string{"leave out -param"}},
		{[]string{"-figure", "fig7.5", "-preset", "default", "-o", out}, []string{"leave out -preset"}},
		{[]string{"-param", "octaves", "-values", "1,2", "-exaggeration", "0", "-o", out}, []string{"-exaggeration"}},
		{[]string{"-figure", "fig7.5", "-thesis-look", "-o", out}, []string{"-thesis-look", "add -3d"}},
	} {
		_, err := runSweepCLI(tc.args...)
		if err == nil {
			t.Errorf("%q: no error", tc.args)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: error %q lacks %q", tc.args, err, w)
			}
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed sweep left %s behind (%v)", out, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("failed sweeps left files: %v", entries)
	}
}

// "all" sweeps every choice of a choice parameter.
func TestSweepAllChoices(t *testing.T) {
	opt, err := parseSweepFlags([]string{"-param", "effect", "-values", "all", "-o", "x.png"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(opt.values, ",") != "none,glacier,canyon,plateau" {
		t.Errorf("values %q, want every effect", opt.values)
	}
}

// sweepPanelsDiffer makes the sweep of args and checks its captions and
// that every panel differs from every other.
func sweepPanelsDiffer(t *testing.T, args []string, captions string) sweepSheet {
	t.Helper()
	opt, err := parseSweepFlags(args, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := makeSweep(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.Captions, "|"); got != captions {
		t.Errorf("%q: captions %q, want %q", args, got, captions)
	}
	l := s.Layout
	for i := range l.Panels {
		for j := range i {
			if d := meanAbsDiff(s.Image, l.Panels[i], l.Panels[j]); d < 2 {
				t.Errorf("%q: panels %d and %d differ by %.2f on average; want different maps", args, i, j, d)
			}
		}
	}
	if len(s.Identical) != 0 || len(s.Flat) != 0 {
		t.Errorf("%q: identical %v, flat %v; want none", args, s.Identical, s.Flat)
	}
	return s
}

// Figure 7.3 compares value and Perlin noise, one octave each.
func TestSweepFigure73(t *testing.T) {
	s := sweepPanelsDiffer(t, []string{"-figure", "fig7.3", "-size", "129", "-o", "x.png"}, "(a) basis = value|(b) basis = perlin")
	if len(s.Layout.Panels) != 2 || !strings.HasPrefix(s.Title[0], "Thesis figure 7.3") || !strings.Contains(s.Title[1], "octaves\u00a01") {
		t.Errorf("fig7.3: %d panels under %q; want 2 under the thesis caption, one octave", len(s.Layout.Panels), s.Title)
	}
}

// The basis transforms T_in make three different maps of one algorithm,
// and the parameter is refused where it cannot act.
func TestSweepBasisTransform(t *testing.T) {
	sweepPanelsDiffer(t, []string{"-param", "basis-transform", "-values", "all", "-algorithm", "hybrid", "-size", "129", "-o", "x.png"},
		"basis-transform = none|basis-transform = ridged|basis-transform = billow")
	_, err := parseSweepFlags([]string{"-param", "basis-transform", "-values", "all", "-algorithm", "midpoint", "-size", "129", "-o", "x.png"}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "subdivision") {
		t.Errorf("basis-transform on a subdivision map: %v, want a refusal naming subdivision", err)
	}
}

// thinMap keeps every k-th sample of a map too large for a -3d panel, with
// cells k times as large, so that the world keeps its extent; a map that
// fits comes back as it is.
func TestThinMap(t *testing.T) {
	m := terrain.NewHeightmap(41, 21)
	m.CellSize, m.VerticalScale = 2, 50
	for i := range m.Samples {
		m.Samples[i] = float32(i)
	}
	if thinMap(m, 41) != m {
		t.Fatal("a map that fits was copied")
	}
	th := thinMap(m, 11) // k = 4: 11×6 samples
	if th.Width != 11 || th.Height != 6 || th.CellSize != 8 || th.VerticalScale != 50 {
		t.Fatalf("thinned to %d×%d, cell %g, vertical %g; want 11×6, cell 8, vertical 50", th.Width, th.Height, th.CellSize, th.VerticalScale)
	}
	for row := range th.Height {
		for col := range th.Width {
			if got, want := th.At(col, row), m.At(4*col, 4*row); got != want {
				t.Fatalf("sample (%d,%d) = %v, want the original's (%d,%d) = %v", col, row, got, 4*col, 4*row, want)
			}
		}
	}
	if w, _ := th.Extent(); w != 80 {
		t.Errorf("thinned extent %g, want the original's 80", w)
	}
	if big := thinMap(terrain.NewHeightmap(8193, 3), sweepMaxSide); big.Width != 1025 {
		t.Errorf("an 8193-wide map thinned to %d samples, want %d", big.Width, sweepMaxSide)
	}
}
