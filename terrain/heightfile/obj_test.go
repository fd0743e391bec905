package heightfile

import (
	"bufio"
	"bytes"
	"cordillera/terrain"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
)

// objMesh is what parseOBJ reads back: one [3] or [2] per line of its kind.
type objMesh struct {
	comments  []string
	positions [][3]float64
	texcoords [][2]float64
	normals   [][3]float64
	faces     [][3]int // 0-based vertex indices
}

// parseOBJ reads the subset of OBJ that EncodeOBJ writes, insisting on the
// shared index form "f i/i/i j/j/j k/k/k".
func parseOBJ(t *testing.T, data []byte) objMesh {
	t.Helper()
	var mesh objMesh
	floats := func(fields []string, n int, line int) []float64 {
		if len(fields) != n {
			t.Fatalf("line %d: %d numbers, want %d", line, len(fields), n)
		}
		out := make([]float64, n)
		for i, f := range fields {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatalf("line %d: %v", line, err)
			}
			out[i] = v
		}
		return out
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if strings.HasPrefix(text, "#") {
			mesh.comments = append(mesh.comments, text)
			continue
		}
		fields := strings.Fields(text)
		if len(fields) == 0 {
			t.Fatalf("line %d is empty", line)
		}
		switch fields[0] {
		case "v":
			p := floats(fields[1:], 3, line)
			mesh.positions = append(mesh.positions, [3]float64{p[0], p[1], p[2]})
		case "vt":
			p := floats(fields[1:], 2, line)
			mesh.texcoords = append(mesh.texcoords, [2]float64{p[0], p[1]})
		case "vn":
			p := floats(fields[1:], 3, line)
			mesh.normals = append(mesh.normals, [3]float64{p[0], p[1], p[2]})
		case "f":
			if len(fields) != 4 {
				t.Fatalf("line %d: face %q is not a triangle", line, text)
			}
			var f [3]int
			for k, corner := range fields[1:] {
				parts := strings.Split(corner, "/")
				if len(parts) != 3 || parts[0] != parts[1] || parts[1] != parts[2] {
					t.Fatalf("line %d: corner %q is not i/i/i", line, corner)
				}
				i, err := strconv.Atoi(parts[0])
				if err != nil {
					t.Fatalf("line %d: %v", line, err)
				}
				f[k] = i - 1
			}
			mesh.faces = append(mesh.faces, f)
		default:
			t.Fatalf("line %d: unexpected %q", line, text)
		}
	}
	return mesh
}

func encodeOBJ(t *testing.T, m *terrain.Heightmap) objMesh {
	t.Helper()
	var buf bytes.Buffer
	if err := EncodeOBJ(&buf, m); err != nil {
		t.Fatal(err)
	}
	return parseOBJ(t, buf.Bytes())
}

func TestEncodeOBJShapeAndValues(t *testing.T) {
	m := randomHeightmap(6, 4, 9)
	m.CellSize, m.VerticalScale = 2.5, 80
	mesh := encodeOBJ(t, m)

	n := m.Width * m.Height
	if len(mesh.positions) != n || len(mesh.texcoords) != n || len(mesh.normals) != n {
		t.Fatalf("%d v, %d vt, %d vn; want %d of each", len(mesh.positions), len(mesh.texcoords), len(mesh.normals), n)
	}
	if want := 2 * (m.Width - 1) * (m.Height - 1); len(mesh.faces) != want {
		t.Fatalf("%d faces, want %d", len(mesh.faces), want)
	}
	if len(mesh.comments) == 0 || !strings.Contains(mesh.comments[0], "6x4") ||
		!strings.Contains(mesh.comments[0], "cell size 2.5") || !strings.Contains(mesh.comments[0], "vertical scale 80") {
		t.Errorf("header %q does not give the size and scales", mesh.comments)
	}

	normals := terrain.Normals(m)
	for row := range m.Height {
		for col := range m.Width {
			i := row*m.Width + col
			want := [3]float64{float64(col) * 2.5, float64(m.Samples[i]) * 80, float64(row) * 2.5}
			for k := range 3 {
				if math.Abs(mesh.positions[i][k]-want[k]) > 1e-5*math.Max(1, math.Abs(want[k])) {
					t.Fatalf("v %d (col %d, row %d) = %v, want %v", i+1, col, row, mesh.positions[i], want)
				}
				if float32(mesh.normals[i][k]) != normals[3*i+k] {
					t.Fatalf("vn %d = %v, want terrain.Normals' %v", i+1, mesh.normals[i], normals[3*i:3*i+3])
				}
			}
			if u, v := float64(col)/5, 1-float64(row)/3; math.Abs(mesh.texcoords[i][0]-u) > 1e-7 || math.Abs(mesh.texcoords[i][1]-v) > 1e-7 {
				t.Fatalf("vt %d = %v, want (%v, %v)", i+1, mesh.texcoords[i], u, v)
			}
		}
	}
	// Corners of the texture: OBJ's v = 0 is the bottom of the image, so
	// row 0 (the image's top) is v = 1 and the last row v = 0.
	if got := mesh.texcoords[n-1]; got != [2]float64{1, 0} {
		t.Errorf("last vt = %v, want (1, 0): the texture would drape flipped north to south", got)
	}
	if got := mesh.texcoords[0]; got != [2]float64{0, 1} {
		t.Errorf("first vt = %v, want (0, 1)", got)
	}

	// Faces: indices in range, and the cells' triangles in the listing's
	// order, (a, c, b) then (b, c, d).
	seen := make([]bool, n)
	for i, f := range mesh.faces {
		for _, k := range f {
			if k < 0 || k >= n {
				t.Fatalf("face %d %v: index out of [1, %d]", i+1, f, n)
			}
			seen[k] = true
		}
	}
	for i, ok := range seen {
		if !ok {
			t.Errorf("vertex %d is in no face", i+1)
		}
	}
	a := 1*m.Width + 2 // cell (2, 1)
	cell := 1*(m.Width-1) + 2
	if got, want := mesh.faces[2*cell], [3]int{a, a + m.Width, a + 1}; got != want {
		t.Errorf("upper triangle of cell (2,1) = %v, want %v", got, want)
	}
	if got, want := mesh.faces[2*cell+1], [3]int{a + 1, a + m.Width, a + m.Width + 1}; got != want {
		t.Errorf("lower triangle of cell (2,1) = %v, want %v", got, want)
	}
}

// Counter-clockwise seen from above means every face's (b−a)×(c−a) points
// to +y, on a flat map and on any heightfield.
func TestEncodeOBJWinding(t *testing.T) {
	for _, m := range []*terrain.Heightmap{terrain.NewHeightmap(5, 5), randomHeightmap(7, 3, 2)} {
		m.VerticalScale = 10
		lo, hi := m.Range()
		mesh := encodeOBJ(t, m)
		for i, f := range mesh.faces {
			n := terrain.FaceNormal(mesh.positions[f[0]], mesh.positions[f[1]], mesh.positions[f[2]])
			if !(n[1] > 0) {
				t.Fatalf("face %d %v has normal %v, want +y", i+1, f, n)
			}
			if lo == hi && n != [3]float64{0, 1, 0} {
				t.Fatalf("face %d of a flat map has normal %v, want (0, 1, 0)", i+1, n)
			}
		}
		for i, vn := range mesh.normals {
			if l := math.Sqrt(vn[0]*vn[0] + vn[1]*vn[1] + vn[2]*vn[2]); math.Abs(l-1) > 1e-6 {
				t.Fatalf("vn %d = %v has length %v", i+1, vn, l)
			}
		}
	}
}

func TestEncodeOBJErrors(t *testing.T) {
	nan := terrain.NewHeightmap(3, 3)
	nan.Samples[4] = float32(math.NaN())
	tests := []struct {
		name string
		m    *terrain.Heightmap
		want string
	}{
		{"one row", terrain.NewHeightmap(5, 1), "5×1"},
		{"one sample", terrain.NewHeightmap(1, 1), "at least 2×2"},
		{"NaN", nan, "NaN"},
		{"no samples", &terrain.Heightmap{Width: 2, Height: 2, CellSize: 1, VerticalScale: 1}, "0 samples"},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		err := EncodeOBJ(&buf, tt.m)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "obj: ") {
			t.Errorf("%s: error %v, want one starting \"obj: \" and mentioning %q", tt.name, err, tt.want)
		}
	}
}

// failingWriter accepts n bytes, then fails.
type failingWriter struct{ n int }

var errDiskFull = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errDiskFull
	}
	w.n -= len(p)
	return len(p), nil
}

func TestEncodeOBJWriteError(t *testing.T) {
	err := EncodeOBJ(&failingWriter{n: 1000}, randomHeightmap(100, 100, 1))
	if !errors.Is(err, errDiskFull) {
		t.Fatalf("error %v, want it to wrap %v", err, errDiskFull)
	}
}

func BenchmarkEncodeOBJ1025(b *testing.B) {
	m := randomHeightmap(1025, 1025, 1)
	var w countingWriter
	b.ReportAllocs()
	for b.Loop() {
		if err := EncodeOBJ(&w, m); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(w)/float64(b.N)/(1<<20), "MiB/op")
}

// countingWriter counts and discards what it is given.
type countingWriter int64

func (w *countingWriter) Write(p []byte) (int, error) {
	*w += countingWriter(len(p))
	return len(p), nil
}
