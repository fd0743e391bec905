package game

import (
	"os"
	"path/filepath"
	"testing"
)

// Saving over a file asks first; the second click replaces it; a new file
// is saved at once.
func TestSaveAsksBeforeReplacing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "map.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := &Game{}
	saves := 0
	save := func(p string) error { saves++; return os.WriteFile(p, []byte("new"), 0o644) }
	g.saveAsking("Save params", path, save)
	if data, _ := os.ReadFile(path); string(data) != "old" || saves != 0 {
		t.Fatalf("the first click replaced the file (%q, %d saves); want a question", data, saves)
	}
	if g.ui.message == "" || g.ui.isError {
		t.Errorf("the first click said %q (error %v); want the question", g.ui.message, g.ui.isError)
	}
	g.saveAsking("Save map", path, save) // another button asks anew
	if saves != 0 {
		t.Fatal("Save map replaced the file that Save params asked about")
	}
	g.saveAsking("Save map", path, save)
	if data, _ := os.ReadFile(path); string(data) != "new" || saves != 1 {
		t.Errorf("the second click left %q (%d saves); want it replaced", data, saves)
	}
	fresh := filepath.Join(dir, "fresh.json")
	g.saveAsking("Save params", fresh, save)
	if saves != 2 {
		t.Error("saving a new file asked first")
	}
}
