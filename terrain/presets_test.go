package terrain

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A parameter file is read through its 1 MB limit: an 8 GB sparse file is
// refused from its size instead of being read whole (which died with
// "fatal error: out of memory"), and so is a directory.
func TestLoadParamsRefusesHugeAndSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 8<<30); err != nil {
		t.Skipf("cannot make a sparse 8 GB file here: %v", err)
	}
	folder := filepath.Join(dir, "folder.json")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{big, "8 GB is too large for a parameter file (at most 1 MB)"},
		{folder, "a directory, not a regular file"},
		{zero, "a device, not a regular file"},
	} {
		_, err := LoadParams(c.path)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), c.path) {
			t.Errorf("%s: error %v, want one naming the file and saying %q", filepath.Base(c.path), err, c.want)
		}
	}
}

func TestLoadParamsReadsBOMFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.json")
	if err := os.WriteFile(path, []byte("\ufeff{\"size\": 65}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LoadParams(path)
	if err != nil || p.Size != 65 {
		t.Errorf("file with a byte-order mark: size %d, error %v; want 65", p.Size, err)
	}
}
