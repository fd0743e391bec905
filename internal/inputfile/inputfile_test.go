package inputfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadAllWithinLimit(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.json")
	if err := os.WriteFile(small, []byte(`{"size": 65}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadAll(small, 100, "a parameter file"); err != nil || string(data) != `{"size": 65}` {
		t.Errorf("small file: %q, %v", data, err)
	}
	if _, err := ReadAll(small, 5, "a parameter file"); err == nil || !strings.Contains(err.Error(), "12 bytes is too large for a parameter file (at most 5 bytes)") {
		t.Errorf("over the limit: %v", err)
	}
	sparse := filepath.Join(dir, "sparse.json")
	if err := os.WriteFile(sparse, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(sparse, 8<<30); err == nil {
		if _, err := ReadAll(sparse, 1<<20, "a parameter file"); err == nil || !strings.Contains(err.Error(), "8 GB is too large") {
			t.Errorf("8 GB sparse file: %v", err)
		}
	}
	if _, err := ReadAll(dir, 1<<20, "a parameter file"); err == nil || !strings.Contains(err.Error(), "a directory, not a regular file; want a parameter file") {
		t.Errorf("a directory: %v", err)
	}
	if _, err := ReadAll(filepath.Join(dir, "missing"), 1, "x"); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v, want not-exist", err)
	}
}

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{812: "812 bytes", 1 << 20: "1 MB", 1536: "1.5 KB", 8 << 30: "8 GB", 64 << 20: "64 MB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}
