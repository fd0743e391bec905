package game

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cordillera/internal/testenv"
)

// Import materials folder returns at once and reads the folder off the UI
// goroutine, through the input checks: a FIFO named sand.png, which used
// to block the window for ever, comes back as an error naming it.
func TestImportMaterialsLeavesTheUIGoroutine(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "sand.png")
	if err := testenv.Mkfifo(fifo); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	// Guards against a hang, not measures: if the import blocks, opening
	// the FIFO for writing lets it go.
	unblock := time.AfterFunc(30*time.Second, func() {
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
	})
	defer unblock.Stop()
	g := &Game{}
	returned := make(chan struct{})
	go func() {
		g.importMaterials(dir)
		close(returned)
	}()
	select {
	case <-returned:
	case <-time.After(30 * time.Second):
		<-returned
		t.Fatal("importMaterials blocked the UI goroutine on a FIFO named sand.png")
	}
	if g.files.Pending() != 1 {
		t.Errorf("%d imports in the background; want the folder read there, not on the UI goroutine", g.files.Pending())
	}
	for deadline := time.Now().Add(time.Minute); g.files.Pending() > 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		g.pollFiles()
	}
	if !g.ui.isError || !strings.Contains(g.ui.message, fifo) || !strings.Contains(g.ui.message, "named pipe") {
		t.Errorf("the panel says %q (error %v); want the FIFO refused by name", g.ui.message, g.ui.isError)
	}
}
