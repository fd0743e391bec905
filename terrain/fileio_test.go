package terrain

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// dirNames lists the names in dir, sorted.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteFileAtomicFailureKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "map.png")
	if err := os.WriteFile(path, []byte("old content"), 0o600); err != nil {
		t.Fatal(err)
	}
	errBoom := errors.New("boom")
	err := WriteFileAtomic(path, func(w io.Writer) error {
		io.WriteString(w, strings.Repeat("half-written ", 10000)) // past bufio's buffer
		return errBoom
	})
	if !errors.Is(err, errBoom) || !strings.Contains(err.Error(), path) {
		t.Fatalf("error %v, want one wrapping %v and naming %s", err, errBoom, path)
	}
	if got, _ := os.ReadFile(path); string(got) != "old content" {
		t.Errorf("file now holds %q, want the old content", got)
	}
	if names := dirNames(t, dir); !slices.Equal(names, []string{"map.png"}) {
		t.Errorf("directory holds %q, want only map.png", names)
	}
}

func TestWriteFileAtomicPanicLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "map.r16")
	func() {
		defer func() { recover() }()
		WriteFileAtomic(path, func(w io.Writer) error { panic("encoder bug") })
	}()
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("directory holds %q after a panic, want nothing", names)
	}
}

func TestWriteFileAtomicReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "map.obj")
	for _, content := range []string{"first", "second, longer content", "3rd"} {
		if err := WriteFileAtomic(path, func(w io.Writer) error {
			_, err := io.WriteString(w, content)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != content {
			t.Errorf("file holds %q, want %q", got, content)
		}
	}
	if names := dirNames(t, dir); !slices.Equal(names, []string{"map.obj"}) {
		t.Errorf("directory holds %q, want only map.obj", names)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o644 {
		t.Errorf("new file has mode %v, want 0644", info.Mode().Perm())
	}
}

func TestWriteFileAtomicMissingDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no such dir", "map.png")
	err := WriteFileAtomic(path, func(io.Writer) error { return nil })
	if err == nil || !strings.HasPrefix(err.Error(), path+": ") {
		t.Fatalf("error %v, want one starting with %s", err, path)
	}
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
		m    *Heightmap
		want string
	}{
		{"map.tif", NewHeightmap(4, 4), `cannot save a heightmap as ".tif"; supported extensions: .png, .r16, .raw, .obj`},
		{"noextension", NewHeightmap(4, 4), `as ""`},
		{"wide.r16", NewHeightmap(4, 2), "4×2"},
		{"line.obj", NewHeightmap(4, 1), "4×1"},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, tt.name)
		err := SaveHeightmap(path, tt.m)
		if err == nil || !strings.HasPrefix(err.Error(), path+": ") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q after the path", tt.name, err, tt.want)
		}
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("refused saves left %q", names)
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
	}
	for _, tt := range tests {
		m, err := LoadHeightmap(tt.path)
		if err == nil || !strings.Contains(err.Error(), tt.path) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: map %v, error %v; want an error naming the path and containing %q", tt.path, m != nil, err, tt.want)
		}
	}
}
