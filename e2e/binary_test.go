package e2e

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
// it as a user would (sweep, web, the desktop window), instead of once per
// test.
func plainBinary(t *testing.T) string {
	t.Helper()
	bin, err := buildPlain()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// buildPlain builds the command into the run's shared build folder, once.
func buildPlain() (string, error) {
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

// runBinary runs the built command (plainBinary) with args until ctx
// ends, and returns what it printed, standard output and error together.
func runBinary(ctx context.Context, bin string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	var msg bytes.Buffer
	cmd.Stdout, cmd.Stderr = &msg, &msg
	err := cmd.Run()
	return msg.String(), err
}

// binaryPNG runs the built command with args, which write the picture
// out, and returns it decoded; a failed run fails t with what the
// command printed.
func binaryPNG(ctx context.Context, t *testing.T, bin, out string, args ...string) image.Image {
	t.Helper()
	if msg, err := runBinary(ctx, bin, args...); err != nil {
		t.Fatalf("cordillera %s: %v\n%s", strings.Join(args, " "), err, msg)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	return img
}
