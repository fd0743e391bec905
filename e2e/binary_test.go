package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var (
	plainOnce sync.Once
	plainBin  string
	plainErr  error
	// scratch holds what the tests build once for all of them (the plain
	// binary, the web page); TestMain removes it.
	scratch string
)

// plainBinary builds the cordillera command once for every test that runs
// it as a user would (sweep, web, the desktop window), instead of once per
// test.
func plainBinary(t *testing.T) string {
	t.Helper()
	bin, err := plainBuild()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// plainBuild is plainBinary for callers without a test at hand.
func plainBuild() (string, error) {
	plainOnce.Do(func() {
		dir, err := scratchDir()
		if err != nil {
			plainErr = err
			return
		}
		plainBin = filepath.Join(dir, "cordillera")
		build := exec.Command("go", "build", "-o", plainBin, ".")
		build.Dir = repoRoot()
		if out, err := build.CombinedOutput(); err != nil {
			plainErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	return plainBin, plainErr
}

var scratchOnce sync.Once

// scratchDir returns the run's shared build folder, made on first use.
func scratchDir() (string, error) {
	var err error
	scratchOnce.Do(func() {
		scratch, err = os.MkdirTemp("", "cordillera-e2e-")
	})
	return scratch, err
}
