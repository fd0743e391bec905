package commands

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cordillera/internal/testenv"
	"cordillera/terrain"
	"cordillera/terrain/heightfile"
)

// expectRefusal runs generate with args and checks that it fails with an
// error (or usage text) containing want and writes none of the files.
func expectRefusal(t *testing.T, args []string, want string, files ...string) {
	t.Helper()
	_, stderr, err := runCLI(t, args...)
	msg := stderr
	if err != nil {
		msg += err.Error()
	}
	if err == nil || !strings.Contains(msg, want) {
		t.Errorf("%v: error %v, stderr %q; want %q", args, err, stderr, want)
	}
	for _, f := range files {
		if _, statErr := os.Stat(f); statErr == nil {
			t.Fatalf("%v: %s was written despite the error", args, f)
		}
	}
}

func runCLI(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	err = Generate(args, &out, &errb)
	return out.String(), errb.String(), err
}

func TestGenerateWritesEveryFormat(t *testing.T) {
	dir := t.TempDir()
	p := terrain.DefaultParams()
	p.Size = 65
	want, err := terrain.Generate(t.Context(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".png", ".r16", ".obj"} {
		out := filepath.Join(dir, "map"+ext)
		stdout, _, err := runCLI(t, "-size", "65", "-o", out)
		if err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		if !strings.Contains(stdout, "generated in") || !strings.Contains(stdout, "heights 0–200") {
			t.Errorf("%s: output %q lacks the time and the height range", ext, stdout)
		}
		m, err := loadAny(out, want)
		if err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		if m.Width != 65 || m.Height != 65 {
			t.Fatalf("%s: read back %d×%d, want 65×65", ext, m.Width, m.Height)
		}
		// 16-bit files round each height to the nearest of 65536 steps.
		for i, v := range want.Samples {
			if d := math.Abs(float64(m.Samples[i]) - float64(v)); d > 0.5/65535+1e-7 {
				t.Fatalf("%s: sample %d (%d,%d) reads back %v, want %v", ext, i, i%65, i/65, m.Samples[i], v)
			}
		}
	}
}

// loadAny reads back a heightmap file; an OBJ's vertices "v x y z" are
// checked to lie on want's grid and read back as heights over want's
// vertical scale.
func loadAny(path string, want *terrain.Heightmap) (*terrain.Heightmap, error) {
	if filepath.Ext(path) != ".obj" {
		return heightfile.LoadHeightmap(path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m := terrain.NewHeightmap(want.Width, want.Height)
	n := 0
	for line := range strings.Lines(string(data)) {
		if !strings.HasPrefix(line, "v ") {
			continue
		}
		var x, y, z float64
		if _, err := fmt.Sscan(line[2:], &x, &y, &z); err != nil {
			return nil, fmt.Errorf("%s: vertex %d %q: %v", path, n, line, err)
		}
		if n >= len(m.Samples) {
			return nil, fmt.Errorf("%s: more than %d vertices", path, len(m.Samples))
		}
		col, row := n%want.Width, n/want.Width
		if math.Abs(x-float64(col)*want.CellSize) > 1e-3 || math.Abs(z-float64(row)*want.CellSize) > 1e-3 {
			return nil, fmt.Errorf("%s: vertex %d at x %g z %g, want sample (%d,%d) at cell size %g", path, n, x, z, col, row, want.CellSize)
		}
		m.Samples[n] = float32(y / want.VerticalScale)
		n++
	}
	if n != len(m.Samples) {
		return nil, fmt.Errorf("%s: %d vertices, want %d", path, n, len(m.Samples))
	}
	return m, nil
}

// Saving the parameters and regenerating from them reproduces the map bit
// for bit.
func TestParamsOutRegeneratesBitForBit(t *testing.T) {
	dir := t.TempDir()
	a, js, b := filepath.Join(dir, "a.r16"), filepath.Join(dir, "p.json"), filepath.Join(dir, "b.r16")
	if _, _, err := runCLI(t, "-preset", "scenario-3", "-size", "129", "-seed", "-5", "-distortion", "30", "-o", a, "-params-out", js); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, "-preset", js, "-o", b); err != nil {
		t.Fatal(err)
	}
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if len(da) != 2*129*129 || !bytes.Equal(da, db) {
		t.Fatalf("regenerated map differs (%d vs %d bytes)", len(da), len(db))
	}
	p, err := terrain.LoadParams(js)
	if err != nil || p.Algorithm != terrain.Hybrid || p.Seed != -5 || p.Distortion != 30 {
		t.Fatalf("saved parameters %+v, %v", p, err)
	}
}

func TestFlagsOverridePresetInAnyOrder(t *testing.T) {
	opt, err := parseGenerateFlags([]string{"-hurst", "0.4", "-preset", "scenario-2", "-o", "x.png"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if opt.params.Hurst != 0.4 || opt.params.Effect != terrain.Plateau {
		t.Errorf("got %+v, want scenario-2 with hurst 0.4", opt.params)
	}
}

func TestGenerateBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.png")
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"hurst": "high"}`), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-hurst", "NaN", "-o", out}, "not a finite number"},
		{[]string{"-octaves", "-3", "-o", out}, "out of range"},
		{[]string{"-size", "99999", "-o", out}, "out of range [2, 8193]: larger maps would need more than 2 GB"},
		{[]string{"-algorithm", "diamond-square", "-size", "1000", "-o", out}, "nearest valid sizes are 513 and 1025"},
		{[]string{"-basis", "plaid", "-o", out}, "not one of"},
		{[]string{"-size", "65"}, "-o OUT is required"},
		{[]string{"-o", filepath.Join(dir, "out.bmp")}, `unknown format ".bmp"`},
		{[]string{"-preset", "nowhere", "-o", out}, "unknown preset"},
		{[]string{"-preset", bad, "-o", out}, "hurst: want a number"},
		{[]string{"-preset", filepath.Join(dir, "missing.json"), "-o", out}, "no such file"},
		{[]string{"-size", "65", "-o", out, "-params-out", filepath.Join(dir, "p.txt")}, "want a .json file"},
		{[]string{"-size", "65", "-o", filepath.Join(dir, "no", "such", "dir.png")}, "no such file"},
		{[]string{"-nonsense", "-o", out}, "flag provided but not defined"},
		{[]string{"-size", "65", "-o", out, "extra"}, `unexpected argument "extra"`},
	}
	for _, c := range cases {
		expectRefusal(t, c.args, c.want, out)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "bad.json" {
			t.Errorf("left behind %s", e.Name())
		}
	}
}

// writeTrack writes a CSV track: a quarter circle of n points, 600 m
// across, climbing from 200 to 260 m. On a 257² map with the default 10 %
// margin it takes 600/204.8 m per sample.
func writeTrack(t *testing.T, dir string, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("latitude;longitude;altitude (m)\n")
	for i := range n {
		a := math.Pi / 2 * float64(i) / float64(n-1)
		lat := 46 + 600*math.Sin(a)/111195
		lon := 14 + 600*math.Cos(a)/(111195*math.Cos(46*math.Pi/180))
		fmt.Fprintf(&b, "%s;%s;%s\n", decimalComma(lat), decimalComma(lon), decimalComma(200+60*float64(i)/float64(n-1)))
	}
	path := filepath.Join(dir, "track.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func decimalComma(v float64) string { return strings.Replace(fmt.Sprintf("%.7f", v), ".", ",", 1) }

// The route report lists every point with its target and height, and the
// PNG meets them too, to within its 16-bit rounding.
func TestGenerateRoute(t *testing.T) {
	dir := t.TempDir()
	track := writeTrack(t, dir, 120)
	out, rep := filepath.Join(dir, "map.png"), filepath.Join(dir, "report.json")
	stdout, _, err := runCLI(t, "-route", track, "-o", out, "-route-report", rep, "-size", "257", "-levels", "6", "-road-width", "4")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"route " + track + ": csv, 120 points, 0.94 km", "m per cell", "max error", "wrote " + out + ", " + rep} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output %q lacks %q", stdout, want)
		}
	}
	data, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Points        []struct{ X, Y, Target, Height float64 }
		MaxError      float64 `json:"max_error"`
		MeanError     float64 `json:"mean_error"`
		Seconds       float64
		MetresPerCell float64 `json:"metres_per_cell"`
		LengthM       float64 `json:"length_m"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Points) < 20 || r.MaxError > 1e-3 || r.Seconds <= 0 || math.Abs(r.MetresPerCell-600/204.8) > 1e-3 || math.Abs(r.LengthM-942) > 2 {
		t.Fatalf("report: %d points, max error %g, %g s, %g m per cell, %g m long", len(r.Points), r.MaxError, r.Seconds, r.MetresPerCell, r.LengthM)
	}
	m, err := heightfile.LoadHeightmap(out)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for _, p := range r.Points {
		if e := math.Abs(p.Height - p.Target); e > r.MaxError {
			t.Fatalf("point %+v is off by %g, more than the reported %g", p, e, r.MaxError)
		}
		// The PNG, read back: bilinear at the point.
		c, row := int(p.X), int(p.Y)
		fx, fy := p.X-float64(c), p.Y-float64(row)
		h := (1-fy)*((1-fx)*float64(m.At(c, row))+fx*float64(m.At(c+1, row))) + fy*((1-fx)*float64(m.At(c, row+1))+fx*float64(m.At(c+1, row+1)))
		worst = max(worst, math.Abs(h-p.Target))
	}
	if worst > r.MaxError+0.5/65535 {
		t.Errorf("16-bit PNG off by %g at worst, more than %g + 0.5/65535", worst, r.MaxError)
	}
}

func TestGenerateRouteRealTrack(t *testing.T) {
	track := testenv.SharedData(t, "gpx", "korita-zbevnica.gpx")
	out := filepath.Join(t.TempDir(), "k.r16")
	stdout, _, err := runCLI(t, "-route", track, "-o", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "871 points, 14.62 km") || !strings.Contains(stdout, "15.62 m per cell") {
		t.Errorf("output %q", stdout)
	}
}

func TestGenerateRouteBadInput(t *testing.T) {
	dir := t.TempDir()
	track := writeTrack(t, dir, 30)
	write := func(name, data string) string {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(data), 0o644)
		return path
	}
	noEle := write("noele.gpx", `<gpx version="1.1"><trk><trkseg><trkpt lat="1" lon="1"/><trkpt lat="1.1" lon="1"/></trkseg></trk></gpx>`)
	single := write("one.geojson", `{"type":"LineString","coordinates":[[14,46,100]]}`)
	junk := write("junk.gpx", "hello, world\n")
	out, rep := filepath.Join(dir, "out.png"), filepath.Join(dir, "r.json")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-route", noEle, "-o", out, "-route-report", rep}, "noele.gpx: gpx: none of the 2 points has an elevation"},
		{[]string{"-route", single, "-o", out}, "one.geojson: geojson: 1 point(s) with a position; a route needs at least 2"},
		{[]string{"-route", junk, "-o", out}, "junk.gpx: not a GPX, TCX, KML, FIT, GeoJSON or CSV route"},
		{[]string{"-route", filepath.Join(dir, "missing.gpx"), "-o", out}, "no such file"},
		{[]string{"-route", track, "-o", out, "-algorithm", "diamond-square"}, "algorithm diamond-square cannot follow a route"},
		{[]string{"-route", track, "-o", out, "-octaves", "4"}, "-octaves cannot be combined with -route"},
		{[]string{"-route", track, "-o", out, "-preset", "scenario-3"}, "algorithm hybrid cannot follow a route"},
		{[]string{"-route", track, "-o", out, "-preset", "canyon"}, "effect canyon cannot be used with a route"},
		{[]string{"-route", track, "-o", out, "-size", "33", "-levels", "7"}, "levels 7 needs a map of at least 65 samples"},
		{[]string{"-route", track, "-o", out, "-route-report", filepath.Join(dir, "r.txt")}, "want a .json file"},
		{[]string{"-o", out, "-route-report", rep}, "-route-report needs -route TRACK"},
		{[]string{"-o", out, "-levels", "5"}, "-levels shapes only a route terrain"},
		{[]string{"-route", track, "-o", out, "-interpolation", "cubic"}, `"cubic" is not one of bilinear, quintic`},
	}
	for _, c := range cases {
		expectRefusal(t, c.args, c.want, out, rep)
	}
}

// A track the map cannot meet (a random walk whose passes over the same
// ground disagree by hundreds of metres) fails with the numbers and
// writes nothing; -route-warn writes the map with a warning. It used to
// pass with exit status 0 and no word.
func TestGenerateRouteMissFails(t *testing.T) {
	dir := t.TempDir()
	var csv strings.Builder
	csv.WriteString("lat,lon,ele\n")
	x, y, ele := 0.0, 0.0, 600.0
	for i := range 4000 {
		a := float64(i*i%997) * 2 * math.Pi / 997 // a deterministic scramble of directions
		x, y = x+3*math.Cos(a), y+3*math.Sin(a)
		ele = min(max(ele+40*math.Sin(float64(i)*1.7), 50), 1163)
		fmt.Fprintf(&csv, "%.7f,%.7f,%.1f\n", 46+y/111195, 14+x/(111195*0.6947), ele)
	}
	track := filepath.Join(dir, "walk.csv")
	if err := os.WriteFile(track, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.png")
	// Refused before the build: its detail departs from what the samples hold by 26 m.
	expectRefusal(t, []string{"-route", track, "-o", out, "-size", "129"}, "so the map would miss it by more (not built)", out)
	stdout, _, err := runCLI(t, "-route", track, "-o", out, "-size", "129", "-route-warn")
	if err != nil || !strings.Contains(stdout, "warning: -route "+track+": the map misses the track") {
		t.Errorf("-route-warn: %v, stdout %q", err, stdout)
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("-route-warn wrote no map: %v", err)
	}
	expectRefusal(t, []string{"-o", out + "2.png", "-route-warn"}, "-route-warn needs -route TRACK", out+"2.png")
}
