package meshfile

import (
	"bytes"
	"cordillera/internal/testenv"
	"cordillera/terrain"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// testMap returns a smooth w×h map with some fine noise, at cell size 2 and
// height 100.
func testMap(w, h int) *terrain.Heightmap {
	rng := rand.New(rand.NewPCG(1, 2))
	m := terrain.NewHeightmap(w, h)
	m.CellSize, m.VerticalScale = 2, 100
	for y := range h {
		for x := range w {
			v := 0.5 + 0.3*math.Sin(float64(x)/9)*math.Cos(float64(y)/13) + 0.01*rng.Float64()
			m.Set(x, y, float32(v))
		}
	}
	return m
}

// decode reads an encoded asset back with qmuntal/gltf.
func decode(t *testing.T, data []byte) (pos [][3]float32, tris []uint32, doc *gltf.Document) {
	t.Helper()
	doc = new(gltf.Document)
	if err := gltf.NewDecoder(bytes.NewReader(data)).Decode(doc); err != nil {
		t.Fatal(err)
	}
	p := doc.Meshes[0].Primitives[0]
	pos, err := modeler.ReadPosition(doc, doc.Accessors[p.Attributes[gltf.POSITION]], nil)
	if err != nil {
		t.Fatal(err)
	}
	tris, err = modeler.ReadIndices(doc, doc.Accessors[*p.Indices], nil)
	if err != nil {
		t.Fatal(err)
	}
	return pos, tris, doc
}

func TestFullMesh(t *testing.T) {
	m := testMap(20, 13)
	var buf bytes.Buffer
	if err := Encode(&buf, m, Options{Binary: true}); err != nil {
		t.Fatal(err)
	}
	pos, tris, _ := decode(t, buf.Bytes())
	if len(pos) != 20*13 || len(tris) != 6*19*12 {
		t.Fatalf("%d vertices, %d triangles; want %d and %d", len(pos), len(tris)/3, 20*13, 2*19*12)
	}
	// Every vertex is the sample's world position.
	for _, p := range pos {
		col, row := int(p[0]/2), int(p[2]/2)
		if want := m.At(col, row) * 100; math.Abs(float64(p[1]-want)) > 1e-4 {
			t.Fatalf("vertex at (%d,%d) height %v, want %v", col, row, p[1], want)
		}
	}
	// Triangles face up (counter-clockwise seen from +Y).
	for k := 0; k < len(tris); k += 3 {
		a, b, c := pos[tris[k]], pos[tris[k+1]], pos[tris[k+2]]
		ny := (b[2]-a[2])*(c[0]-a[0]) - (b[0]-a[0])*(c[2]-a[2])
		if ny <= 0 {
			t.Fatalf("triangle %d faces down", k/3)
		}
	}
}

// The decimated mesh stays within -mesh-error of every sample, covers the
// whole map (no cracks) and has far fewer triangles.
func TestDecimatedMeshError(t *testing.T) {
	m := testMap(129, 97)
	for _, maxErr := range []float64{0.5, 2, 10} {
		var buf bytes.Buffer
		if err := Encode(&buf, m, Options{Binary: true, MaxError: maxErr}); err != nil {
			t.Fatal(err)
		}
		pos, tris, _ := decode(t, buf.Bytes())
		got := make([]float64, m.Width*m.Height)
		for i := range got {
			got[i] = math.NaN()
		}
		for k := 0; k < len(tris); k += 3 {
			rasterize(pos[tris[k]], pos[tris[k+1]], pos[tris[k+2]], m.CellSize, m.Width, got)
		}
		worst := 0.0
		for i, g := range got {
			if math.IsNaN(g) {
				t.Fatalf("error %v: sample (%d,%d) is not covered by any triangle: a crack", maxErr, i%m.Width, i/m.Width)
			}
			worst = max(worst, math.Abs(g-float64(m.Samples[i])*m.VerticalScale))
		}
		if worst > maxErr+1e-3 {
			t.Errorf("error %v: the mesh strays %v from the map", maxErr, worst)
		}
		full := 2 * 128 * 96
		t.Logf("mesh error %v m: %d of %d triangles, worst %.3g m", maxErr, len(tris)/3, full, worst)
		if maxErr >= 2 && len(tris)/3 > full/3 {
			t.Errorf("error %v: %d triangles of %d; want real decimation", maxErr, len(tris)/3, full)
		}
	}
}

// rasterize writes the interpolated height of triangle abc at every sample
// inside its ground projection (cell size cs).
func rasterize(a, b, c [3]float32, cs float64, w int, out []float64) {
	x0 := min(a[0], b[0], c[0]) / float32(cs)
	x1 := max(a[0], b[0], c[0]) / float32(cs)
	z0 := min(a[2], b[2], c[2]) / float32(cs)
	z1 := max(a[2], b[2], c[2]) / float32(cs)
	ax, az := float64(a[0])/cs, float64(a[2])/cs
	bx, bz := float64(b[0])/cs, float64(b[2])/cs
	cx, cz := float64(c[0])/cs, float64(c[2])/cs
	den := (bz-cz)*(ax-cx) + (cx-bx)*(az-cz)
	for row := int(z0); row <= int(z1); row++ {
		for col := int(x0); col <= int(x1); col++ {
			px, pz := float64(col), float64(row)
			l1 := ((bz-cz)*(px-cx) + (cx-bx)*(pz-cz)) / den
			l2 := ((cz-az)*(px-cx) + (ax-cx)*(pz-cz)) / den
			l3 := 1 - l1 - l2
			if l1 < -1e-9 || l2 < -1e-9 || l3 < -1e-9 {
				continue
			}
			out[row*w+col] = l1*float64(a[1]) + l2*float64(b[1]) + l3*float64(c[1])
		}
	}
}

// validatorIssues runs the Khronos glTF validator (npm gltf-validator,
// installed by test.sh into .tools at the repository root) on a file.
type validatorIssues struct {
	NumErrors, NumWarnings int
	Messages               []struct{ Code, Message, Pointer string }
}

func validate(t *testing.T, path string) validatorIssues {
	t.Helper()
	module, _ := filepath.Abs("../../.tools/node_modules/gltf-validator")
	node, err := exec.LookPath("node")
	if _, statErr := os.Stat(module); err != nil || statErr != nil {
		testenv.NoTool(t, "the Khronos glTF validator is missing: run `npm install --prefix .tools gltf-validator@2.0.0-dev.3.10` at the repository root (test.sh does)")
	}
	out, err := exec.Command(node, "testdata/validate.js", module, path).Output()
	if err != nil {
		t.Fatalf("gltf-validator on %s: %v", path, err)
	}
	var issues validatorIssues
	if err := json.Unmarshal(out, &issues); err != nil {
		t.Fatalf("gltf-validator output: %v\n%s", err, out)
	}
	return issues
}

// The Khronos validator finds no errors and no warnings in our GLB and
// glTF, decimated or not, with and without a texture.
func TestKhronosValidator(t *testing.T) {
	dir := t.TempDir()
	m := testMap(70, 45)
	tex := image.NewRGBA(image.Rect(0, 0, 70, 45))
	for i := range tex.Pix {
		tex.Pix[i] = uint8(i)
	}
	tex.Set(0, 0, color.RGBA{255, 0, 0, 255})
	for _, tt := range []struct {
		name string
		opt  Options
	}{
		{"full.glb", Options{}},
		{"full.gltf", Options{}},
		{"decimated.glb", Options{MaxError: 1}},
		{"textured.glb", Options{MaxError: 1, Texture: tex}},
		{"textured.gltf", Options{Texture: tex}},
	} {
		path := filepath.Join(dir, tt.name)
		if err := Save(path, m, tt.opt); err != nil {
			t.Fatal(err)
		}
		issues := validate(t, path)
		if issues.NumErrors != 0 || issues.NumWarnings != 0 {
			t.Errorf("%s: validator reports %d errors, %d warnings: %+v", tt.name, issues.NumErrors, issues.NumWarnings, issues.Messages)
		}
	}
}

func TestRefusals(t *testing.T) {
	dir := t.TempDir()
	nan := testMap(4, 4)
	nan.Samples[3] = float32(math.NaN())
	for _, tt := range []struct {
		name string
		m    *terrain.Heightmap
		opt  Options
		want string
	}{
		{"a.obj", testMap(4, 4), Options{}, "saved as .glb or .gltf"},
		{"line.glb", testMap(5, 1), Options{}, "5×1"},
		{"nan.glb", nan, Options{}, "NaN"},
		{"neg.glb", testMap(4, 4), Options{MaxError: -1}, "non-negative"},
	} {
		path := filepath.Join(dir, tt.name)
		if err := Save(path, tt.m, tt.opt); err == nil || !strings.HasPrefix(err.Error(), path+": ") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v; want the path and %q", tt.name, err, tt.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("refused saves left %s", entries[0].Name())
	}
}

// The stitched mesh of a generated world stays within -mesh-error: the
// border vertices moved onto a coarser neighbour's edge used to add that
// neighbour's error to the finer chunk's (2.14 m at -mesh-error 2).
func TestStitchedMeshWithinError(t *testing.T) {
	p := terrain.DefaultParams()
	p.Size, p.Seed = 1025, 42
	m, err := terrain.Generate(t.Context(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	const maxErr = 2
	var buf bytes.Buffer
	if err := Encode(&buf, m, Options{Binary: true, MaxError: maxErr}); err != nil {
		t.Fatal(err)
	}
	pos, tris, _ := decode(t, buf.Bytes())
	got := make([]float64, m.Width*m.Height)
	for k := 0; k < len(tris); k += 3 {
		rasterize(pos[tris[k]], pos[tris[k+1]], pos[tris[k+2]], m.CellSize, m.Width, got)
	}
	worst := 0.0
	for i, g := range got {
		worst = max(worst, math.Abs(g-float64(m.Samples[i])*m.VerticalScale))
	}
	t.Logf("mesh error %v m: %d triangles, worst %.4g m", maxErr, len(tris)/3, worst)
	if worst > maxErr+1e-3 {
		t.Errorf("-mesh-error %v: the mesh strays %.4g m from the map", maxErr, worst)
	}
}

// A mesh of up to 65 536 vertices (indices 0 to 65 535) takes 16-bit
// indices, half the index buffer; one more vertex takes 32-bit ones. The
// indices read back the same either way.
func TestIndexWidthAtTheBoundary(t *testing.T) {
	for _, c := range []struct {
		w, h int
		want gltf.ComponentType
	}{
		{256, 256, gltf.ComponentUshort}, // 65 536 vertices
		{257, 256, gltf.ComponentUint},   // 65 792
	} {
		var buf bytes.Buffer
		if err := Encode(&buf, testMap(c.w, c.h), Options{Binary: true}); err != nil {
			t.Fatal(err)
		}
		_, tris, doc := decode(t, buf.Bytes())
		acc := doc.Accessors[*doc.Meshes[0].Primitives[0].Indices]
		if acc.ComponentType != c.want {
			t.Errorf("%d×%d: indices of type %v, want %v", c.w, c.h, acc.ComponentType, c.want)
		}
		if top := slices.Max(tris); int(top) != c.w*c.h-1 {
			t.Errorf("%d×%d: largest index %d, want %d", c.w, c.h, top, c.w*c.h-1)
		}
	}
}

// The smallest map that has a mesh, 2×2 samples or a strip two samples
// wide, is written: one row of cells, two triangles each.
func TestSmallestMeshes(t *testing.T) {
	for _, c := range [][2]int{{2, 2}, {2, 5}, {5, 2}} {
		var buf bytes.Buffer
		if err := Encode(&buf, testMap(c[0], c[1]), Options{Binary: true}); err != nil {
			t.Errorf("%d×%d: %v", c[0], c[1], err)
			continue
		}
		if _, tris, _ := decode(t, buf.Bytes()); len(tris) != 3*2*(c[0]-1)*(c[1]-1) {
			t.Errorf("%d×%d: %d triangles, want %d", c[0], c[1], len(tris)/3, 2*(c[0]-1)*(c[1]-1))
		}
	}
}

// A textured mesh carries its texture, read back as the same image, in a
// GLB and in a .gltf alike, and a tile's mesh sits at its origin: what
// an engine shows is the map draped with its colours, in its place.
func TestTextureAndOriginReadBack(t *testing.T) {
	tex := image.NewRGBA(image.Rect(0, 0, 12, 7))
	for i := range tex.Pix {
		tex.Pix[i] = byte(37 * i)
		if i%4 == 3 {
			tex.Pix[i] = 255 // opaque: a valid premultiplied colour
		}
	}
	origin := [3]float64{640, 0, -320}
	for _, binary := range []bool{true, false} {
		var buf bytes.Buffer
		m := testMap(30, 20)
		if err := Encode(&buf, m, Options{Binary: binary, Texture: tex, Origin: origin}); err != nil {
			t.Fatal(err)
		}
		pos, _, doc := decode(t, buf.Bytes())
		if len(pos) != 30*20 {
			t.Errorf("binary %v: %d vertices", binary, len(pos))
		}
		if got := doc.Nodes[0].Translation; got != origin {
			t.Errorf("binary %v: the mesh sits at %v, want %v", binary, got, origin)
		}
		if len(doc.Images) != 1 || doc.Images[0].BufferView == nil {
			t.Fatalf("binary %v: images %v", binary, doc.Images)
		}
		data, err := modeler.ReadBufferView(doc, doc.BufferViews[*doc.Images[0].BufferView])
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("binary %v: the texture: %v", binary, err)
		}
		if img.Bounds() != tex.Bounds() {
			t.Fatalf("binary %v: texture %v, want %v", binary, img.Bounds(), tex.Bounds())
		}
		for y := range 7 {
			for x := range 12 {
				if r1, g1, b1, a1 := img.At(x, y).RGBA(); [4]uint32{r1, g1, b1, a1} != func() [4]uint32 {
					r, g, b, a := tex.At(x, y).RGBA()
					return [4]uint32{r, g, b, a}
				}() {
					t.Fatalf("binary %v: texture pixel (%d, %d) differs", binary, x, y)
				}
			}
		}
		if binary {
			// The GLB header's length is the file's.
			if n := int(uint32(buf.Bytes()[8]) | uint32(buf.Bytes()[9])<<8 | uint32(buf.Bytes()[10])<<16 | uint32(buf.Bytes()[11])<<24); n != buf.Len() {
				t.Errorf("the GLB says it is %d bytes long; it is %d", n, buf.Len())
			}
		}
	}
}

// A tile whose normals are to come from a larger map must lie within it,
// on every side.
func TestTileOutsideItsMapRefused(t *testing.T) {
	whole := testMap(40, 30)
	tile := testMap(20, 15)
	for _, at := range []image.Point{{-1, 0}, {0, -1}, {21, 0}, {0, 16}} {
		err := Encode(io.Discard, tile, Options{Binary: true, NormalsFrom: whole, NormalsAt: at})
		if err == nil || !strings.Contains(err.Error(), "lies outside the 40×30 map") {
			t.Errorf("a 20×15 tile at %v: error %v", at, err)
		}
	}
	if err := Encode(io.Discard, tile, Options{Binary: true, NormalsFrom: whole, NormalsAt: image.Pt(20, 15)}); err != nil {
		t.Errorf("a tile at the far corner: %v", err)
	}
}

// The texture coordinates span the map: u across the columns and v down
// the rows from 0 to 1, so a texture of the map drapes it edge to edge.
func TestTexcoordsSpanTheMap(t *testing.T) {
	m := testMap(17, 9)
	var buf bytes.Buffer
	if err := Encode(&buf, m, Options{Binary: true}); err != nil {
		t.Fatal(err)
	}
	_, _, doc := decode(t, buf.Bytes())
	uv, err := modeler.ReadTextureCoord(doc, doc.Accessors[doc.Meshes[0].Primitives[0].Attributes[gltf.TEXCOORD_0]], nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, got := range uv {
		col, row := k%m.Width, k/m.Width
		if want := [2]float32{float32(col) / 16, float32(row) / 8}; got != want {
			t.Fatalf("vertex %d (col %d, row %d): uv %v, want %v", k, col, row, got, want)
		}
	}
}
