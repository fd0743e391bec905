package heightfile

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cordillera/terrain"
)

// randomHeightmap returns a w×h map of uniform heights in [0, 1).
func randomHeightmap(w, h int, seed uint64) *terrain.Heightmap {
	rng := rand.New(rand.NewPCG(seed, 1))
	m := terrain.NewHeightmap(w, h)
	for i := range m.Samples {
		m.Samples[i] = rng.Float32()
	}
	return m
}

func TestSaveLoadHeightmap(t *testing.T) {
	dir := t.TempDir()
	m := randomHeightmap(17, 17, 8)
	for _, name := range []string{"a.png", "b.r16", "c.raw", "D.PNG", "e.R16"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			if err := SaveHeightmap(path, m); err != nil {
				t.Fatal(err)
			}
			got, err := LoadHeightmap(path)
			if err != nil {
				t.Fatal(err)
			}
			if got.Width != m.Width || got.Height != m.Height {
				t.Fatalf("loaded %d×%d, want %d×%d", got.Width, got.Height, m.Width, m.Height)
			}
			for i, want := range m.Samples {
				if d := got.Samples[i] - want; d > 0.5/65535 || d < -0.5/65535 {
					t.Fatalf("sample %d = %v, want %v", i, got.Samples[i], want)
				}
			}
		})
	}

	obj := filepath.Join(dir, "f.obj")
	if err := SaveHeightmap(obj, m); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(obj); !strings.HasPrefix(string(data), "# Cordillera terrain mesh: 17x17") {
		t.Errorf("%s does not start with the OBJ header", obj)
	}
}

func TestSaveHeightmapRefusals(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		m    *terrain.Heightmap
		want string
	}{
		{"map.jpg", terrain.NewHeightmap(4, 4), `cannot save a heightmap as ".jpg"; supported extensions: ` + SaveExtensions},
		{"noextension", terrain.NewHeightmap(4, 4), `as ""`},
		{"wide.r16", terrain.NewHeightmap(4, 2), "4×2"},
		{"line.obj", terrain.NewHeightmap(4, 1), "4×1"},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, tt.name)
		err := SaveHeightmap(path, tt.m)
		if err == nil || !strings.HasPrefix(err.Error(), path+": ") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q after the path", tt.name, err, tt.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("refused saves left %d files, the first %s", len(entries), entries[0].Name())
	}
}

func TestLoadHeightmapRefusals(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	tests := []struct {
		path string
		want string
	}{
		{write("odd.raw", make([]byte, 6)), "length 6 bytes"},
		{write("fake.png", []byte("GIF89a\x01\x00\x01\x00 and so on")), "not a PNG"},
		{write("mesh.obj", []byte("v 0 0 0\n")), ".obj is an export format"},
		{write("map.jpg", []byte{0xff, 0xd8}), `cannot load a heightmap from ".jpg"`},
		{filepath.Join(dir, "missing.png"), "no such file"},
		{write("one.r16", make([]byte, 2)), "at least 8 (2×2)"},
	}
	// A folder, a device and a FIFO are refused before they are opened
	// (opening a FIFO blocked until someone wrote to it).
	folder := filepath.Join(dir, "folder.png")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	tests = append(tests, struct{ path, want string }{folder, "a directory, not a regular file"})
	zero := filepath.Join(dir, "zero.r16")
	if err := os.Symlink("/dev/zero", zero); err == nil {
		tests = append(tests, struct{ path, want string }{zero, "a device, not a regular file"})
	}
	if fifo := filepath.Join(dir, "fifo.png"); mkfifo(fifo) == nil {
		tests = append(tests, struct{ path, want string }{fifo, "named pipe (FIFO), not a regular file"})
	}
	for _, tt := range tests {
		m, err := LoadHeightmap(tt.path)
		if err == nil || !strings.Contains(err.Error(), tt.path) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: map %v, error %v; want an error naming the path and containing %q", tt.path, m != nil, err, tt.want)
		}
	}
}

// Every format gives back the heights it was given, within its precision:
// half a 16-bit step for PNG, r16 and TIFF, float32 rounding for EXR.
func TestRoundTripEveryFormat(t *testing.T) {
	dir := t.TempDir()
	m := randomHeightmap(24, 24, 11)
	m.Samples[0], m.Samples[1] = 0, 1 // the full range, as generated maps have
	m.CellSize, m.VerticalScale = 4, 900
	for _, tt := range []struct {
		name string
		tol  float64 // metres
	}{
		{"m.png", 900 * 0.5 / 65535}, {"m.r16", 900 * 0.5 / 65535}, {"m.raw", 900 * 0.5 / 65535},
		{"m.tif", 900*0.5/65535 + 1e-4}, {"m.tiff", 900*0.5/65535 + 1e-4}, {"m.exr", 1e-4},
	} {
		path := filepath.Join(dir, tt.name)
		if err := Save(path, m, SaveOptions{}); err != nil {
			t.Fatal(err)
		}
		src, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		vs := src.Map.VerticalScale
		if !src.Metric {
			vs = 900 // the caller gives r16 its scale
		}
		for i, h := range m.Samples {
			want := float64(h) * 900
			if got := src.Base + float64(src.Map.Samples[i])*vs; math.Abs(got-want) > tt.tol {
				t.Fatalf("%s: sample %d = %v m, want %v ± %v", tt.name, i, got, want, tt.tol)
			}
		}
		if metric := !strings.HasSuffix(tt.name, ".r16") && !strings.HasSuffix(tt.name, ".raw"); src.Metric != metric || src.HasCellSize != metric ||
			(metric && src.Map.CellSize != 4) {
			t.Errorf("%s: metric %v, cell size %v (%v)", tt.name, src.Metric, src.Map.CellSize, src.HasCellSize)
		}
	}
}

// A 16-bit PNG holding metres (44–2044) is recognised and explained.
func TestNarrowRangeNote(t *testing.T) {
	m := terrain.NewHeightmap(8, 8)
	for i := range m.Samples {
		m.Samples[i] = float32(44+2000*i/63) / 65535
	}
	path := filepath.Join(t.TempDir(), "metres.png")
	writePlainPNG16(t, path, m) // another tool's: no metres recorded
	src, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := "values 44–2044 use only 3.1 % of the 16-bit range"; !strings.Contains(src.Note, want) || !strings.Contains(src.Note, "-map-height 65535") {
		t.Errorf("note %q; want %q and the flag to keep the scale", src.Note, want)
	}
	if n := narrowRangeNote(randomHeightmap(8, 8, 1)); n != "" {
		t.Errorf("a full-range map got the note %q", n)
	}
}
