package atomicfile

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

func TestWriteFailureKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "map.png")
	if err := os.WriteFile(path, []byte("old content"), 0o600); err != nil {
		t.Fatal(err)
	}
	errBoom := errors.New("boom")
	err := Write(path, func(w io.Writer) error {
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

func TestWritePanicLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "map.r16")
	func() {
		defer func() { recover() }()
		Write(path, func(w io.Writer) error { panic("encoder bug") })
	}()
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("directory holds %q after a panic, want nothing", names)
	}
}

func TestWriteReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "map.obj")
	for _, content := range []string{"first", "second, longer content", "3rd"} {
		if err := Write(path, func(w io.Writer) error {
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

func TestWriteMissingDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no such dir", "map.png")
	err := Write(path, func(io.Writer) error { return nil })
	if err == nil || !strings.HasPrefix(err.Error(), path+": ") {
		t.Fatalf("error %v, want one starting with %s", err, path)
	}
}
