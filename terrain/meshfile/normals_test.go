package meshfile

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"cordillera/terrain"
)

// An exported mesh is lit by its slopes: on a tilted plane every vertex
// normal of the file points downhill and up in glTF's frame (+Y up, rows
// along +Z), perpendicular to the file's own triangles. A plane falling to
// the east has normals towards +X, one falling to the south towards +Z;
// read back from the .glb as a viewer reads it, full and decimated.
func TestExportedNormalsFollowTheSlope(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name   string
		sx, sz float64 // the drop in metres per metre eastwards and southwards
	}{
		{"falls-east", 0.5, 0},
		{"falls-south", 0, 0.5},
		{"falls-west-and-south", -0.3, 0.4},
	} {
		for _, maxErr := range []float64{0, 1} {
			m := terrain.NewHeightmap(17, 9)
			m.CellSize, m.VerticalScale = 2, 100
			for row := range m.Height {
				for col := range m.Width {
					x, z := float64(col)*m.CellSize, float64(row)*m.CellSize
					m.Set(col, row, float32((50-tc.sx*x-tc.sz*z)/m.VerticalScale))
				}
			}
			path := filepath.Join(dir, tc.name+".glb")
			if err := Save(path, m, Options{MaxError: maxErr}); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			pos, tris, doc := decode(t, data)
			p := doc.Meshes[0].Primitives[0]
			nor, err := modeler.ReadNormal(doc, doc.Accessors[p.Attributes[gltf.NORMAL]], nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(nor) != len(pos) {
				t.Fatalf("%s: %d normals for %d vertices", tc.name, len(nor), len(pos))
			}
			l := math.Sqrt(tc.sx*tc.sx + 1 + tc.sz*tc.sz)
			want := [3]float64{tc.sx / l, 1 / l, tc.sz / l}
			// The file's own triangles face the same way.
			for k := 0; k < len(tris); k += 3 {
				a, b, c := pos[tris[k]], pos[tris[k+1]], pos[tris[k+2]]
				f := terrain.FaceNormal(vec64(a), vec64(b), vec64(c))
				if !near(f, want, 1e-5) {
					t.Fatalf("%s: triangle %d faces %v; want %v", tc.name, k/3, f, want)
				}
			}
			for i, n := range nor {
				if !near(vec64(n), want, 1e-5) {
					t.Fatalf("%s (mesh error %v): vertex %d at %v has normal %v; want %v, downhill and up",
						tc.name, maxErr, i, pos[i], n, want)
				}
			}
		}
	}
}

func vec64(v [3]float32) [3]float64 { return [3]float64{float64(v[0]), float64(v[1]), float64(v[2])} }

func near(a, b [3]float64, tol float64) bool {
	return math.Abs(a[0]-b[0]) <= tol && math.Abs(a[1]-b[1]) <= tol && math.Abs(a[2]-b[2]) <= tol
}

// Every vertex's normal is the map's own (terrain.Normals), however far
// down a tall map it lies: the writer computes them a band of rows at a
// time, and a band past the first must be its own rows'.
func TestNormalsAreTheMapsOnTallMaps(t *testing.T) {
	m := testMap(23, 100)
	var buf bytes.Buffer
	if err := Encode(&buf, m, Options{Binary: true}); err != nil {
		t.Fatal(err)
	}
	_, _, doc := decode(t, buf.Bytes())
	got, err := modeler.ReadNormal(doc, doc.Accessors[doc.Meshes[0].Primitives[0].Attributes[gltf.NORMAL]], nil)
	if err != nil {
		t.Fatal(err)
	}
	want := terrain.Normals(m)
	for k, n := range got {
		if n != [3]float32{want[3*k], want[3*k+1], want[3*k+2]} {
			t.Fatalf("vertex %d (row %d): normal %v, want %v", k, k/m.Width, n, want[3*k:3*k+3])
		}
	}
}
