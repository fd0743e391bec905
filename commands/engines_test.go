package commands

import (
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"cordillera/internal/testenv"
	"cordillera/terrain"
	"cordillera/terrain/heightfile"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// readR16 reads a raw little-endian 16-bit square file.
func readR16(t *testing.T, path string) (n int, v []uint16) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v = make([]uint16, len(b)/2)
	for i := range v {
		v[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	n = int(math.Sqrt(float64(len(v))))
	return n, v
}

// number reads the float after a label in the engine report.
func number(t *testing.T, report, pattern string) []float64 {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(report)
	if m == nil {
		t.Fatalf("the report lacks %q:\n%s", pattern, report)
	}
	var out []float64
	for _, s := range m[1:] {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, f)
	}
	return out
}

// Terrain3D reads an r16 file as r16_range.x + v/65535·(r16_range.y −
// r16_range.x) and then applies height·import_scale + height_offset (its
// load_image and import_images). Following the printed numbers that way
// must give the map's heights in metres, scaled once: the report used to
// give both import_scale = relief and r16_range 0..relief, so Terrain3D
// made every height 200 times too tall.
func TestGodotR16ImportsAtTrueHeight(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "g.r16")
	stdout, _, err := runCLI(t, "-size", "65", "-amplitude", "350", "-target", "godot", "-o", out)
	if err != nil {
		t.Fatal(err)
	}
	rng := number(t, stdout, `r16_range ([-0-9.e+]+) to ([-0-9.e+]+)`)
	scale := number(t, stdout, `import_scale ([-0-9.e+]+)`)[0]
	offset := number(t, stdout, `height_offset ([-0-9.e+]+)`)[0]
	p := terrain.DefaultParams()
	p.Size, p.Amplitude = 65, 350
	want, err := terrain.Generate(t.Context(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	n, v := readR16(t, out)
	if n != 65 {
		t.Fatalf("r16 of %d², want 65²", n)
	}
	worst := 0.0
	for i, s := range v {
		h := rng[0] + float64(s)/65535*(rng[1]-rng[0])
		h = h*scale + offset
		worst = max(worst, math.Abs(h-float64(want.Samples[i])*want.VerticalScale))
	}
	if worst > 350.0/65535 {
		t.Errorf("Terrain3D following the report lands up to %.3g m from the map's heights (import_scale %g, range %v)", worst, scale, rng)
	}
}

// Terrain3D's documentation asks for EXR or r16 heightmaps: Godot loads a
// PNG at 8 bits, terraces of 1/255 of the relief.
func TestGodotRefusesPNG(t *testing.T) {
	out := filepath.Join(t.TempDir(), "g.png")
	_, _, err := runCLI(t, "-size", "65", "-target", "godot", "-o", out)
	if err == nil || !strings.Contains(err.Error(), "imports .exr, .r16") {
		t.Errorf("-target godot -o g.png: %v; want a refusal naming .exr and .r16", err)
	}
}

// Unity's Import Raw puts the file's first row at the terrain's z = 0,
// the south edge. With -target unity the rows are written south first, so
// the terrain is not mirrored north to south; the plain r16 keeps the
// image order (north first).
func TestUnityRawIsNotMirrored(t *testing.T) {
	dir := t.TempDir()
	plain, unity := filepath.Join(dir, "plain.r16"), filepath.Join(dir, "unity.r16")
	if _, _, err := runCLI(t, "-size", "65", "-o", plain); err != nil {
		t.Fatal(err)
	}
	stdout, _, err := runCLI(t, "-size", "65", "-target", "unity", "-o", unity)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "Flip Vertically off") {
		t.Errorf("the Unity instructions do not say how to set Flip Vertically:\n%s", stdout)
	}
	n, a := readR16(t, plain)
	_, b := readR16(t, unity)
	for y := range n {
		for x := range n {
			if a[y*n+x] != b[(n-1-y)*n+x] {
				t.Fatalf("sample (%d, %d): the Unity file's row %d is not the map's row %d", x, y, n-1-y, y)
			}
		}
	}
}

// A loaded map bigger than Unreal's size is resampled over its whole area,
// not cropped to its north-west corner (a 647² DEM lost 40 % of its area).
func TestUnrealKeepsALoadedMapsArea(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "dem.png")
	m := terrain.NewHeightmap(647, 647)
	m.VerticalScale = 300
	for y := range 647 {
		for x := range 647 {
			m.Set(x, y, float32(x+y)/(2*646))
		}
	}
	if err := heightfile.SaveHeightmap(in, m); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "ue.r16")
	stdout, _, err := runCLI(t, "-heightmap", in, "-map-height", "300", "-target", "unreal", "-o", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "resampled to 505×505") {
		t.Errorf("the report does not say the map was resampled:\n%s", stdout)
	}
	n, v := readR16(t, out)
	if n != 505 {
		t.Fatalf("wrote %d², want 505²", n)
	}
	// The far corner is the map's highest point: kept only if the whole
	// area is.
	if last := v[n*n-1]; last < 65500 {
		t.Errorf("the south-east corner is %d of 65535; the map's corner (the top) was cropped away", last)
	}
}

// A subdivision generator with an Unreal size is made at the next 2^k+1
// and cropped, saying so (it was refused: 1009 is no 2^k+1).
func TestUnrealSizeForSubdivision(t *testing.T) {
	out := filepath.Join(t.TempDir(), "d.r16")
	stdout, _, err := runCLI(t, "-size", "1009", "-algorithm", "diamond-square", "-target", "unreal", "-o", out)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := readR16(t, out); n != 1009 {
		t.Errorf("wrote %d², want 1009²", n)
	}
	if !strings.Contains(stdout, "made at 1025² and its last 16 rows and columns are left out") {
		t.Errorf("the crop is not said:\n%s", stdout)
	}
}

// Tiled engine exports name the tiles they wrote and give each tile's
// size: the report named "ue.png" (no such file) at the untiled size.
func TestTiledEngineReportNamesTheTiles(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "ue.png")
	stdout, _, err := runCLI(t, "-size", "1009", "-tiles", "2", "-target", "unreal", "-o", out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stdout, "ue.png") {
		t.Errorf("the report names ue.png, which was not written:\n%s", stdout)
	}
	if !strings.Contains(stdout, "ue_x0_y0.png (505×505 a file)") {
		t.Errorf("the report does not name a tile and its size:\n%s", stdout)
	}
	for _, name := range []string{"ue_x0_y0.png", "ue_x1_y1.png"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TIFF tiles of a generated map carry a local grid in metres, so that
// GDAL mosaics them (gdalbuildvrt) into exactly the untiled map: it skipped
// every tile as ungeoreferenced. Both ways of tiling are checked: tile by
// tile (fBm) and cut from the whole map (diamond-square).
func TestTIFFTilesMosaicInGDAL(t *testing.T) {
	vrt := testenv.NeedTool(t, "gdalbuildvrt", "gdal-bin")
	translate := testenv.NeedTool(t, "gdal_translate", "gdal-bin")
	for _, alg := range []string{"fbm", "diamond-square"} {
		dir := t.TempDir()
		whole, tiled := filepath.Join(dir, "whole.tif"), filepath.Join(dir, "t.tif")
		if _, _, err := runCLI(t, "-algorithm", alg, "-size", "65", "-o", whole); err != nil {
			t.Fatal(err)
		}
		if _, _, err := runCLI(t, "-algorithm", alg, "-size", "65", "-tiles", "2", "-o", tiled); err != nil {
			t.Fatal(err)
		}
		tiles, _ := filepath.Glob(filepath.Join(dir, "t_x*_y*.tif"))
		if len(tiles) != 4 {
			t.Fatalf("%s: %d tiles, want 4", alg, len(tiles))
		}
		mosaic := filepath.Join(dir, "m.vrt")
		if out, err := exec.Command(vrt, append([]string{mosaic}, tiles...)...).CombinedOutput(); err != nil || strings.Contains(string(out), "Skipping") {
			t.Fatalf("%s: gdalbuildvrt: %v\n%s", alg, err, out)
		}
		raw := func(src string) []byte {
			dst := filepath.Join(dir, filepath.Base(src)+".bin")
			if out, err := exec.Command(translate, "-of", "ENVI", "-ot", "UInt16", src, dst).CombinedOutput(); err != nil {
				t.Fatalf("gdal_translate %s: %v\n%s", src, err, out)
			}
			b, err := os.ReadFile(dst)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		a, b := raw(whole), raw(mosaic)
		if len(a) != 65*65*2 || string(a) != string(b) {
			t.Errorf("%s: GDAL's mosaic of the tiles (%d bytes) differs from the untiled map (%d bytes)", alg, len(b), len(a))
		}
	}
}

// meshOf reads a glTF tile: its node's translation, and its vertices'
// world positions and normals.
func meshOf(t *testing.T, path string) (pos, nor [][3]float32, doc *gltf.Document) {
	t.Helper()
	doc, err := gltf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	p := doc.Meshes[0].Primitives[0]
	pos, err = modeler.ReadPosition(doc, doc.Accessors[p.Attributes[gltf.POSITION]], nil)
	if err != nil {
		t.Fatal(err)
	}
	nor, err = modeler.ReadNormal(doc, doc.Accessors[p.Attributes[gltf.NORMAL]], nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := doc.Nodes[0].Translation
	for i := range pos {
		for c := range 3 {
			pos[i][c] += float32(tr[c])
		}
	}
	return pos, nor, doc
}

// Mesh tiles imported together join: each sits at its own place in the
// world (every tile sat at the origin), shared border vertices coincide,
// and their normals are the same on both sides (they differed by up to
// 36°, a shading seam), the whole map's. A mesh this small takes 16-bit
// indices.
func TestMeshTilesJoin(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "t.glb")
	if _, _, err := runCLI(t, "-size", "65", "-cell-size", "3", "-tiles", "2", "-o", out); err != nil {
		t.Fatal(err)
	}
	type key struct{ x, z float32 }
	seen := map[key][3]float32{}
	normal := map[key][3]float32{}
	shared := 0
	for _, name := range []string{"t_x0_y0.glb", "t_x1_y0.glb", "t_x0_y1.glb", "t_x1_y1.glb"} {
		pos, nor, doc := meshOf(t, filepath.Join(dir, name))
		if ct := doc.Accessors[*doc.Meshes[0].Primitives[0].Indices].ComponentType; ct != gltf.ComponentUshort {
			t.Errorf("%s: %d vertices with index component type %v; want 16-bit", name, len(pos), ct)
		}
		for i, p := range pos {
			k := key{p[0], p[2]}
			if q, ok := seen[k]; ok {
				shared++
				if q[1] != p[1] {
					t.Fatalf("%s: the vertex at x %g, z %g has height %g here and %g in its neighbour", name, p[0], p[2], p[1], q[1])
				}
				n, m := nor[i], normal[k]
				if d := math.Abs(float64(n[0]*m[0]+n[1]*m[1]+n[2]*m[2])) - 1; math.Abs(d) > 1e-6 {
					t.Fatalf("%s: the normals at x %g, z %g differ between neighbours: %v against %v", name, p[0], p[2], n, m)
				}
			}
			seen[k], normal[k] = p, nor[i]
		}
	}
	// Four tiles of 33² over a 65² map: every vertex beyond the map's
	// count is a border vertex seen again.
	if want := 4*33*33 - 65*65; shared != want {
		t.Errorf("%d border vertices shared between tiles; want %d: the tiles do not lie side by side", shared, want)
	}
	if len(seen) != 65*65 {
		t.Errorf("the tiles cover %d distinct positions; want the map's 65²", len(seen))
	}
}

// A hydraulic stage whose parameters multiply to minutes says so before it
// starts (the 129² example ran 4 min 18 s without a word); a quick one
// says nothing.
func TestWarnsOfALongHydraulicStage(t *testing.T) {
	p := terrain.DefaultParams()
	p.Size, p.Erosion = 129, "hydraulic"
	p.HydraulicDroplets, p.HydraulicLifetime, p.HydraulicRadius = 100, 500, 16
	var buf strings.Builder
	warnCost(&buf, p)
	if !strings.Contains(buf.String(), "will take up to about 4m") {
		t.Errorf("no estimate for a 4-minute stage: %q", buf.String())
	}
	buf.Reset()
	p.HydraulicDroplets, p.HydraulicLifetime, p.HydraulicRadius = 1, 30, 3
	warnCost(&buf, p)
	if buf.Len() != 0 {
		t.Errorf("a quick stage warned: %q", buf.String())
	}
}
