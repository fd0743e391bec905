//go:build unix

package terrain

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A FIFO as the parameter file is refused before it is opened: opening it
// blocked forever, waiting for a writer.
func TestLoadParamsRefusesFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "p.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	_, err := LoadParams(fifo)
	if err == nil || !strings.Contains(err.Error(), "named pipe (FIFO), not a regular file") {
		t.Errorf("FIFO: error %v, want a refusal naming it a named pipe", err)
	}
}
