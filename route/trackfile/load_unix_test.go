//go:build unix

package trackfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Load refuses what is not a regular file before opening it: a named pipe
// would block the command forever, a sparse file over the cap would be
// read into memory.
func TestLoadRefusesFIFOAndHugeFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "track.gpx")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("SKIPPED: mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := Load(fifo); done <- err }()
	err := <-done // a blocked open would hang here and time the test out
	if err == nil || !strings.Contains(err.Error(), fifo) || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Load(FIFO) = %v; want a refusal naming the file", err)
	}

	big := filepath.Join(dir, "big.csv")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(8 << 30); err != nil { // sparse: no disk used
		f.Close()
		t.Skipf("SKIPPED: sparse file: %v", err)
	}
	f.Close()
	if _, err := Load(big); err == nil || !strings.Contains(err.Error(), big) || !strings.Contains(err.Error(), "too large") {
		t.Errorf("Load(8 GB file) = %v; want a refusal naming the file and its size", err)
	}
}
