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
	// scratch holds what the tests build once for all of them (the plain,
	// guest and desktop binaries, the web page); TestMain removes it.
	scratch string
)

// plainBinary builds the cordillera command once for every test that runs
// it as a user would (sweep, web), instead of once per test.
func plainBinary(t *testing.T) string {
	t.Helper()
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
	if plainErr != nil {
		t.Fatal(plainErr)
	}
	return plainBin
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
