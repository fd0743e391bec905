package commands

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"cordillera/internal/testenv"
	"cordillera/route/track"
	"cordillera/terrain"
	"cordillera/terrain/heightfile"
)

// Every new format and derived map comes out of generate, readable.
func TestGenerateExportFormats(t *testing.T) {
	dir := t.TempDir()
	for _, ext := range []string{".exr", ".tif", ".tiff", ".glb", ".gltf"} {
		out := filepath.Join(dir, "map"+ext)
		args := []string{"-size", "65", "-o", out, "-normal-map", filepath.Join(dir, "n"+ext+".png"), "-splat-map", filepath.Join(dir, "s"+ext+".png")}
		if ext == ".glb" {
			args = append(args, "-mesh-error", "2", "-bake-texture")
		}
		stdout, _, err := runCLI(t, args...)
		if err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		if !strings.Contains(stdout, "wrote "+out+", ") {
			t.Errorf("%s: output %q does not list the files", ext, stdout)
		}
		for _, p := range []string{out, filepath.Join(dir, "n"+ext+".png"), filepath.Join(dir, "s"+ext+".png")} {
			if info, err := os.Stat(p); err != nil || info.Size() == 0 {
				t.Errorf("%s: %v", p, err)
			}
		}
		if ext == ".glb" || ext == ".gltf" {
			continue
		}
		src, err := heightfile.Load(out)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := src.Map.Range()
		top := src.Base + float64(hi)*src.Map.VerticalScale
		if src.Map.Width != 65 || !src.Metric || lo != 0 || math.Abs(top-200) > 0.01 {
			t.Errorf("%s: read back %d wide, metric %v, heights %v–%v m; want 65, metric, 0–200", ext, src.Map.Width, src.Metric, src.Base, top)
		}
	}
}

func TestEngineTargets(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args []string
		size int
		want []string
	}{
		{[]string{"-size", "512", "-target", "unity", "-o", "u.r16"}, 513,
			[]string{"size 512 → 513", "Width 513, Height 513", "Terrain Size X (width) 512, Z (length) 512, Y (height) 200"}},
		{[]string{"-size", "1025", "-cell-size", "2", "-target", "unreal", "-o", "e.png"}, 1009,
			[]string{"size 1025 → 1009", "Scale X 200, Y 200, Z 39.0625; Location Z 10000"}},
		{[]string{"-algorithm", "diamond-square", "-size", "513", "-target", "unreal", "-o", "d.r16"}, 505,
			[]string{"size 513 → 505"}},
		{[]string{"-size", "100", "-target", "godot", "-o", "g.exr"}, 100,
			[]string{"Terrain3D: Importer → height_file_name g.exr, import_scale 1"}},
	}
	for _, tt := range tests {
		for i, a := range tt.args {
			if i > 0 && tt.args[i-1] == "-o" {
				tt.args[i] = filepath.Join(dir, a)
			}
		}
		stdout, _, err := runCLI(t, tt.args...)
		if err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		for _, w := range tt.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%v: output lacks %q:\n%s", tt.args, w, stdout)
			}
		}
		out := tt.args[len(tt.args)-1]
		if strings.HasSuffix(out, ".exr") {
			if tool, err := exec.LookPath("exrheader"); err == nil {
				if info, _ := exec.Command(tool, out).Output(); !strings.Contains(string(info), "R, 32-bit floating-point") {
					t.Errorf("the Godot EXR's channels are not one float R:\n%s", info)
				}
			}
		}
		m, err := heightfile.LoadHeightmap(out)
		if err != nil {
			t.Fatal(err)
		}
		if m.Width != tt.size || m.Height != tt.size {
			t.Errorf("%v: wrote %d×%d, want %d²", tt.args, m.Width, m.Height, tt.size)
		}
	}
}

// A tiled export's neighbours share their border samples exactly, and the
// tiles put together are the whole map.
func TestTilesShareBorders(t *testing.T) {
	size, n := 129, 4
	if !testing.Short() {
		size = 4097 // the 4×4 tiles of a 4097² world
	}
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.r16")
	if _, _, err := runCLI(t, "-size", itoa(size), "-o", whole); err != nil {
		t.Fatal(err)
	}
	stdout, _, err := runCLI(t, "-size", itoa(size), "-tiles", itoa(n), "-o", filepath.Join(dir, "w.r16"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "generated tile by tile") {
		t.Errorf("output %q; want the map built tile by tile", stdout)
	}
	m, err := heightfile.LoadHeightmap(whole)
	if err != nil {
		t.Fatal(err)
	}
	side := (size-1)/n + 1
	for j := range n {
		for i := range n {
			tile, err := heightfile.LoadHeightmap(filepath.Join(dir, "w_x"+itoa(i)+"_y"+itoa(j)+".r16"))
			if err != nil {
				t.Fatal(err)
			}
			if tile.Width != side {
				t.Fatalf("tile (%d,%d) is %d wide, want %d", i, j, tile.Width, side)
			}
			for y := range side {
				for x := range side {
					if got, want := tile.At(x, y), m.At(i*(side-1)+x, j*(side-1)+y); got != want {
						t.Fatalf("tile (%d,%d) sample (%d,%d) = %v, the map has %v", i, j, x, y, got, want)
					}
				}
			}
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// testDEM is a 41×33 map rising from west to east with a ridge.
func testDEM() *terrain.Heightmap {
	m := terrain.NewHeightmap(41, 33)
	m.VerticalScale = 800
	for y := range 33 {
		for x := range 41 {
			m.Set(x, y, float32(x)/40*0.7+0.3*float32(math.Abs(math.Sin(float64(y)/5))))
		}
	}
	m.Set(0, 0, 0)
	m.Set(40, 0, 1)
	return m
}

// Subdivision maps cannot be made tile by tile: they are made whole and
// cut, and put together the tiles are the map made whole, sharing their
// borders; each GeoTIFF tile carries its own origin, its north-west
// corner in the map's local grid (metres east of the west edge, north of
// the north edge).
func TestTilesOfWholeMap(t *testing.T) {
	dir := t.TempDir()
	args := []string{"-algorithm", "diamond-square", "-size", "65"}
	stdout, _, err := runCLI(t, append(args, "-tiles", "2", "-o", filepath.Join(dir, "d.tif"))...)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stdout, "tile by tile") {
		t.Errorf("diamond-square built tile by tile: %q", stdout)
	}
	if _, _, err := runCLI(t, append(args, "-o", filepath.Join(dir, "whole.tif"))...); err != nil {
		t.Fatal(err)
	}
	whole, err := heightfile.Load(filepath.Join(dir, "whole.tif"))
	if err != nil {
		t.Fatal(err)
	}
	for j, row := range checkTiles(t, filepath.Join(dir, "d.tif"), whole, 2) {
		for i, tile := range row {
			want := heightfile.GeoRef{OriginX: float64(32 * i), OriginY: -float64(32 * j), PixelX: 1, PixelY: 1}
			if tile.Geo == nil || *tile.Geo != want {
				t.Errorf("tile (%d,%d) is placed at %+v; want its corner at %+v", i, j, tile.Geo, want)
			}
		}
	}
}

// A GeoTIFF DEM keeps its metres, cell size and georeferencing through
// generate -heightmap.
func TestGenerateFromDEM(t *testing.T) {
	dir := t.TempDir()
	dem := filepath.Join(dir, "dem.tif")
	m := testDEM()
	geo := &heightfile.GeoRef{OriginX: 500000, OriginY: 5200000, PixelX: 25, PixelY: 25, EPSG: 32633}
	if err := heightfile.Save(dem, m, heightfile.SaveOptions{Base: 1200, Geo: geo}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.tif")
	stdout, _, err := runCLI(t, "-heightmap", dem, "-o", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "25 m per cell, white at 800 m") {
		t.Errorf("output %q; want the DEM's 25 m cells and 800 m relief", stdout)
	}
	src, err := heightfile.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if src.Geo == nil || *src.Geo != *geo || src.Base != 1200 || src.Map.CellSize != 25 {
		t.Errorf("read back geo %+v base %v cell %v", src.Geo, src.Base, src.Map.CellSize)
	}
}

func TestExportBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-o", out + ".png", "-mesh-error", "1"}, "use -o NAME.glb"},
		{[]string{"-o", out + ".glb", "-mesh-error", "-1"}, "-mesh-error -1"},
		// Refused before the map is made: a full 8193² mesh is 3.76 GB.
		{[]string{"-size", "8193", "-o", out + ".glb"}, "a 8193×8193 map would be 3.76 GB, over the limit of 2.00 GB for one glTF file (-tiles 2 writes 4 meshes of at most 0.94 GB each"},
		{[]string{"-o", out + ".png", "-normal-map", out + ".jpg"}, "want a .png"},
		{[]string{"-o", out + ".png", "-target", "cryengine"}, "want unity, unreal, godot"},
		{[]string{"-o", out + ".png", "-target", "unity"}, "imports .r16, .raw heightmaps"},
		{[]string{"-o", out + ".png", "-tiles", "1"}, "want 2 to 64"},
		{[]string{"-size", "129", "-o", out + ".png", "-tiles", "3"}, "do not split into 3 equal tiles"},
		{[]string{"-o", out + ".exr", "-heightmap", filepath.Join(dir, "none.tif")}, "none.tif"},
		// The map is written, then the normal map fails: the map goes too.
		{[]string{"-size", "33", "-o", out + ".png", "-normal-map", filepath.Join(dir, "no", "n.png")}, "no/n.png"},
	}
	for _, tt := range tests {
		_, _, err := runCLI(t, tt.args...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v; want %q", tt.args, err, tt.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("refused runs left %s", entries[0].Name())
	}
}

// The bar names its stage and shows the fraction done; runs whose stderr
// is not a terminal get no bar at all.
func TestProgressBar(t *testing.T) {
	var buf bytes.Buffer
	progress, finish := progressBar(&buf, "generating", 0)
	progress(0.5)
	progress(1)
	finish()
	if out := buf.String(); !strings.Contains(out, "generating") || !strings.Contains(out, "50%") {
		t.Errorf("bar output %q; want the stage and 50%%", out)
	}
	buf.Reset()
	late, finish := progressBar(&buf, "eroding", time.Hour)
	late(0.5)
	finish()
	if buf.Len() != 0 {
		t.Errorf("a short run drew %q", buf.String())
	}
	if p, _ := terminalProgress(&buf, "generating"); p != nil {
		t.Error("a progress bar for a writer that is not a terminal")
	}
	_, stderr, err := runCLI(t, "-size", "33", "-o", filepath.Join(t.TempDir(), "m.png"))
	if err != nil || stderr != "" {
		t.Errorf("generate wrote %q to a non-terminal stderr (%v)", stderr, err)
	}
}

// A route terrain saved as GeoTIFF lies where the track is: GDAL, asked for
// the height at the track's first point by longitude and latitude, finds
// the track's elevation there; and every point the solve met, turned into
// longitude and latitude by GDAL from the file's own projection, lies on the
// recorded track — at mid latitudes and on a loop around the North Pole
// that crosses the antimeridian, where longitude and latitude are far from
// linear in column and row.
func TestRouteGeoTIFFReadByGDAL(t *testing.T) {
	tool := testenv.NeedTool(t, "gdallocationinfo", "gdal-bin")
	dir := t.TempDir()
	track := writeTrack(t, dir, 120)
	out := filepath.Join(dir, "route.tif")
	if _, _, err := runCLI(t, "-route", track, "-o", out, "-size", "257", "-levels", "6"); err != nil {
		t.Fatal(err)
	}
	src, err := heightfile.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if src.Geo == nil || src.Geo.Geographic {
		t.Fatalf("georeferencing %+v; want the projected plane of the solve", src.Geo)
	}
	cell := 600 / 204.8 // metres per cell, as TestGenerateRoute finds
	if math.Abs(src.Map.CellSize-cell) > 0.01 {
		t.Errorf("cell size %v m, want %v", src.Map.CellSize, cell)
	}
	// The first point: lat 46, lon 14 + 600 m east, elevation 200 m.
	lon := 14 + 600/(111195*math.Cos(46*math.Pi/180))
	raw, err := exec.Command(tool, "-valonly", "-wgs84", out, strconv.FormatFloat(lon, 'f', 8, 64), "46").Output()
	if err != nil {
		t.Fatalf("gdallocationinfo: %v", err)
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(string(raw)), 64)
	if err != nil {
		t.Fatalf("gdallocationinfo printed %q", raw)
	}
	h := src.Base + v*src.Map.VerticalScale/65535
	if math.Abs(h-200) > 0.5 {
		t.Errorf("GDAL finds %.2f m at the track's first point; want 200 ± 0.5", h)
	}

	var pts [][2]float64 // the track's latitude and longitude
	for i := range 120 {
		a := math.Pi / 2 * float64(i) / 119
		pts = append(pts, [2]float64{46 + 600*math.Sin(a)/111195, 14 + 600*math.Cos(a)/(111195*math.Cos(46*math.Pi/180))})
	}
	checkSolvedOnTrack(t, dir, "mid", track, pts)

	// A 2 km loop around the North Pole, every 4° of longitude, crossing
	// the antimeridian.
	var b strings.Builder
	b.WriteString("latitude;longitude;altitude (m)\n")
	pts = pts[:0]
	for i := range 91 {
		lat, lon := 90-2000.0/111195, math.Mod(4*float64(i)+540, 360)-180
		pts = append(pts, [2]float64{lat, lon})
		fmt.Fprintf(&b, "%s;%s;%s\n", decimalComma(lat), decimalComma(lon), decimalComma(300+40*math.Sin(float64(i)/9)))
	}
	polar := filepath.Join(dir, "polar.csv")
	if err := os.WriteFile(polar, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	checkSolvedOnTrack(t, dir, "polar", polar, pts)
}

// checkSolvedOnTrack generates the route terrain of trackFile as GeoTIFF, turns
// the solved points of its report into longitude and latitude with GDAL's
// gdaltransform, and checks that each lies within a tenth of a cell of the
// track's polyline pts (latitude, longitude).
func checkSolvedOnTrack(t *testing.T, dir, name, trackFile string, pts [][2]float64) {
	t.Helper()
	tool := testenv.NeedTool(t, "gdaltransform", "gdal-bin")
	out, rep := filepath.Join(dir, name+".tif"), filepath.Join(dir, name+".json")
	if _, _, err := runCLI(t, "-route", trackFile, "-o", out, "-route-report", rep, "-size", "257", "-levels", "6"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	var report struct {
		Points []struct{ X, Y float64 }
		Cell   float64 `json:"metres_per_cell"`
	}
	if err := json.Unmarshal(data, &report); err != nil || len(report.Points) == 0 || report.Cell <= 0 {
		t.Fatalf("%s: report %v, %d points, cell %v", name, err, len(report.Points), report.Cell)
	}
	var in strings.Builder
	for _, p := range report.Points { // sample centres are GDAL's pixel + 0.5
		fmt.Fprintf(&in, "%.9f %.9f\n", p.X+0.5, p.Y+0.5)
	}
	cmd := exec.Command(tool, "-t_srs", "EPSG:4326", out)
	cmd.Stdin = strings.NewReader(in.String())
	raw, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: gdaltransform: %v", name, err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if len(lines) != len(report.Points) {
		t.Fatalf("%s: gdaltransform printed %d lines for %d points", name, len(lines), len(report.Points))
	}
	// unit is the point on the unit sphere at (lat, lon).
	unit := func(lat, lon float64) [3]float64 {
		sl, cl := math.Sincos(lat * math.Pi / 180)
		so, co := math.Sincos(lon * math.Pi / 180)
		return [3]float64{cl * co, cl * so, sl}
	}
	track3 := make([][3]float64, len(pts))
	for i, p := range pts {
		track3[i] = unit(p[0], p[1])
	}
	worst := 0.0
	for i, line := range lines {
		f := strings.Fields(line)
		if len(f) < 2 {
			t.Fatalf("%s: gdaltransform printed %q", name, line)
		}
		lon, err1 := strconv.ParseFloat(f[0], 64)
		lat, err2 := strconv.ParseFloat(f[1], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: gdaltransform printed %q", name, line)
		}
		q := unit(lat, lon)
		best := math.Inf(1)
		for k := 1; k < len(track3); k++ { // distance to each chord, in metres
			a, b := track3[k-1], track3[k]
			var ab, aq [3]float64
			for j := range 3 {
				ab[j], aq[j] = b[j]-a[j], q[j]-a[j]
			}
			s := (ab[0]*aq[0] + ab[1]*aq[1] + ab[2]*aq[2]) / (ab[0]*ab[0] + ab[1]*ab[1] + ab[2]*ab[2])
			s = min(max(s, 0), 1)
			d := math.Hypot(math.Hypot(aq[0]-s*ab[0], aq[1]-s*ab[1]), aq[2]-s*ab[2])
			best = min(best, d*track.EarthRadius)
		}
		if best > 0.1*report.Cell {
			t.Errorf("%s: solved point %d (%v, %v) lies at %.3f, %.3f, %.2f m off the track (cell %.2f m)",
				name, i, report.Points[i].X, report.Points[i].Y, lat, lon, best, report.Cell)
			return
		}
		worst = max(worst, best)
	}
	t.Logf("%s: %d solved points, farthest %.3f m from the track (cell %.2f m)", name, len(lines), worst, report.Cell)
}

// A 16-bit PNG of metres (44–2044) is recognised, and -map-height 65535
// then gives it its true relief.
func TestNarrowPNGNote(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "metres.png")
	m := terrain.NewHeightmap(16, 16)
	for i := range m.Samples {
		m.Samples[i] = float32(44+2000*i/255) / 65535
	}
	writePlainPNG16(t, in, m) // another tool's: no metres recorded
	stdout, _, err := runCLI(t, "-heightmap", in, "-o", filepath.Join(dir, "a.exr"))
	if err != nil || !strings.Contains(stdout, "values 44–2044 use only 3.1 %") || !strings.Contains(stdout, "-map-height 65535") {
		t.Fatalf("output %q (%v); want the note and the flag", stdout, err)
	}
	if _, _, err := runCLI(t, "-heightmap", in, "-map-height", "65535", "-o", filepath.Join(dir, "b.exr")); err != nil {
		t.Fatal(err)
	}
	src, err := heightfile.Load(filepath.Join(dir, "b.exr"))
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi := src.Base, src.Base+src.Map.VerticalScale; math.Abs(lo-44) > 0.01 || math.Abs(hi-2044) > 0.01 {
		t.Errorf("heights %v–%v m, want 44–2044", lo, hi)
	}
}
