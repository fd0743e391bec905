package atomicfile

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// The folders a group makes for its files go again when it is aborted,
// innermost first, and only those: a folder that was already there stays,
// and so does one a committed group filled.
func TestMkdirAllUndoneByAbort(t *testing.T) {
	dir := t.TempDir()
	kept := filepath.Join(dir, "kept")
	if err := os.Mkdir(kept, 0o755); err != nil {
		t.Fatal(err)
	}
	deep := filepath.Join(kept, "a", "b", "c")
	g := NewGroup(context.Background())
	if err := g.MkdirAll(deep); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(deep); err != nil || !info.IsDir() {
		t.Fatalf("MkdirAll made no %s: %v", deep, err)
	}
	if err := g.Add(filepath.Join(deep, "m.png"), func(w io.Writer) error { _, err := w.Write([]byte("x")); return err }); err != nil {
		t.Fatal(err)
	}
	g.Abort()
	if _, err := os.Stat(filepath.Join(kept, "a")); !os.IsNotExist(err) {
		t.Errorf("after Abort %s is still there (%v); the group made it", filepath.Join(kept, "a"), err)
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("Abort removed %s, which was there before: %v", kept, err)
	}

	// Folders made by two calls, the second inside the first's, all go:
	// the newest, innermost, first.
	g = NewGroup(context.Background())
	if err := g.MkdirAll(filepath.Join(kept, "a", "b")); err != nil {
		t.Fatal(err)
	}
	if err := g.MkdirAll(deep); err != nil {
		t.Fatal(err)
	}
	g.Abort()
	if _, err := os.Stat(filepath.Join(kept, "a")); !os.IsNotExist(err) {
		t.Errorf("after Abort of two MkdirAll %s is still there (%v)", filepath.Join(kept, "a"), err)
	}

	// Committed, the folders and the file stay.
	g = NewGroup(context.Background())
	if err := g.MkdirAll(deep); err != nil {
		t.Fatal(err)
	}
	if err := g.Add(filepath.Join(deep, "m.png"), func(w io.Writer) error { _, err := w.Write([]byte("x")); return err }); err != nil {
		t.Fatal(err)
	}
	if err := g.Commit(); err != nil {
		t.Fatal(err)
	}
	g.Abort()
	if data, err := os.ReadFile(filepath.Join(deep, "m.png")); err != nil || string(data) != "x" {
		t.Errorf("after Commit: %q, %v", data, err)
	}
	// A path through a file is an error, and nothing is made.
	g = NewGroup(context.Background())
	if err := g.MkdirAll(filepath.Join(deep, "m.png", "d")); err == nil {
		t.Error("MkdirAll through a file succeeded")
	}
	g.Abort()
	if data, err := os.ReadFile(filepath.Join(deep, "m.png")); err != nil || string(data) != "x" {
		t.Errorf("the file in the way was changed: %q, %v", data, err)
	}
}
