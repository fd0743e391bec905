package assets

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cordillera/internal/testenv"
)

func writePNG(t *testing.T, path string, img image.Image) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

func TestLoadMaterialsReplacesGivenFiles(t *testing.T) {
	dir := t.TempDir()
	red := image.NewRGBA(image.Rect(0, 0, 64, 32)) // any size is resampled
	for i := 0; i < len(red.Pix); i += 4 {
		red.Pix[i], red.Pix[i+3] = 255, 255
	}
	writePNG(t, filepath.Join(dir, "rock.png"), red)
	atlas, found, err := LoadMaterials(dir)
	if err != nil || found != 1 {
		t.Fatalf("found %d, err %v", found, err)
	}
	r := MipRect(Rock, false, 0)
	if c := atlas.RGBAAt(r.Min.X+100, r.Min.Y+100); c != (color.RGBA{255, 0, 0, 255}) {
		t.Errorf("rock texel %v, want the user's red", c)
	}
	builtin, _ := Atlas()
	g := MipRect(Grass, false, 0)
	if atlas.RGBAAt(g.Min.X+7, g.Min.Y+9) != builtin.RGBAAt(g.Min.X+7, g.Min.Y+9) {
		t.Error("grass changed though no grass.png was given")
	}
}

func TestLoadMaterialsErrors(t *testing.T) {
	empty := t.TempDir()
	if _, _, err := LoadMaterials(empty); err == nil || !strings.Contains(err.Error(), "no material files") {
		t.Errorf("empty folder: %v", err)
	}
	bad := t.TempDir()
	os.WriteFile(filepath.Join(bad, "snow.png"), []byte("not a png"), 0o644)
	if _, _, err := LoadMaterials(bad); err == nil || !strings.Contains(err.Error(), "snow.png: not a PNG") {
		t.Errorf("bad file: %v", err)
	}
}

// A material file is opened only when it is a regular file within the
// size cap: a FIFO named sand.png used to block the import for ever, and a
// sparse file of a terabyte would be read. Both are refused, named.
func TestLoadMaterialsRefusesSpecialAndHugeFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "sand.png")
	if err := testenv.Mkfifo(fifo); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := LoadMaterials(dir)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), fifo) || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("a FIFO sand.png: error %v; want one naming it a named pipe", err)
		}
	case <-time.After(30 * time.Second): // a guard against the hang, not a measure
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil { // let the blocked open go
			w.Close()
		}
		<-done
		t.Fatal("LoadMaterials blocked on a FIFO named sand.png")
	}
	os.Remove(fifo)
	huge := filepath.Join(dir, "rock.png")
	if err := os.WriteFile(huge, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, MaxMaterialFile+1); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadMaterials(dir); err == nil || !strings.Contains(err.Error(), "too large") || !strings.Contains(err.Error(), huge) {
		t.Errorf("a sparse rock.png past the cap: error %v; want it refused as too large", err)
	}
}
