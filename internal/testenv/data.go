package testenv

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// RequireDataEnv names the switch that turns a missing ../shared/data
// into a failure. The real GPS tracks and DEMs live beside the repository,
// not in it, so a clone without them skips the tests that read them;
// test.sh sets the switch, so that a run that lost the data cannot look
// green.
const RequireDataEnv = "CORDILLERA_REQUIRE_DATA"

// DataRequired reports whether CORDILLERA_REQUIRE_DATA=1.
func DataRequired() bool { return os.Getenv(RequireDataEnv) == "1" }

// SharedDataDir returns the folder shared/data beside the repository
// (../shared/data from its root), found from the working directory, and
// whether it exists.
func SharedDataDir() (string, bool) {
	root, ok := repoRoot()
	if !ok {
		return "", false
	}
	dir := filepath.Join(filepath.Dir(root), "shared", "data")
	info, err := os.Stat(dir)
	return dir, err == nil && info.IsDir()
}

// SharedData returns the path of elem under ../shared/data. When it is
// absent t skips, saying so, or fails when CORDILLERA_REQUIRE_DATA=1.
func SharedData(t testing.TB, elem ...string) string {
	t.Helper()
	dir, _ := SharedDataDir()
	if dir == "" {
		dir = filepath.Join("..", "shared", "data") // for the message
	}
	path := filepath.Join(append([]string{dir}, elem...)...)
	if _, err := os.Stat(path); err != nil {
		NoData(t, path)
	}
	return path
}

// NoData ends t, which needs path from ../shared/data and found it absent:
// a skip, or a failure when the data is required.
func NoData(t testing.TB, path string) {
	t.Helper()
	if DataRequired() {
		t.Fatalf("needs %s (real data beside the repository), and %s=1 requires it", path, RequireDataEnv)
		return
	}
	t.Skipf("needs %s (real data beside the repository, absent here); set %s=1 to make this a failure", path, RequireDataEnv)
}

// repoRoot is the nearest folder at or above the working directory whose
// go.mod declares the module cordillera.
func repoRoot() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if f, err := os.Open(filepath.Join(dir, "go.mod")); err == nil {
			s := bufio.NewScanner(f)
			isRoot := s.Scan() && strings.TrimSpace(s.Text()) == "module cordillera"
			f.Close()
			if isRoot {
				return dir, true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}
