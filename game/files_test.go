package game

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"cordillera/internal/testenv"
	"cordillera/route/trackfile"
	"cordillera/terrain"
	"cordillera/terrain/heightfile"
)

// EXR and TIFF heightmaps open in the explorer like PNGs, told apart by
// content; EXR and a PNG Cordillera wrote keep their heights in metres.
func TestExplorerOpensEXRAndTIFF(t *testing.T) {
	m := terrain.NewHeightmap(33, 33)
	for i := range m.Samples {
		m.Samples[i] = float32(i%33) / 32
	}
	m.CellSize, m.VerticalScale = 2, 350
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		kind FileKind
	}{{"map.exr", HeightmapEXR}, {"map.tif", HeightmapTIFF}, {"map.png", HeightmapPNG}} {
		path := filepath.Join(dir, c.name)
		if err := heightfile.SaveHeightmap(path, m); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := DetectFile(data); got != c.kind {
			t.Fatalf("%s: detected as %v, want %v", c.name, got, c.kind)
		}
		src, err := decodeHeightmap(c.kind, data)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if src.Map.Width != 33 || src.Map.Height != 33 {
			t.Fatalf("%s: %d×%d", c.name, src.Map.Width, src.Map.Height)
		}
		if c.kind != HeightmapTIFF { // a PNG records its metres in text chunks
			if !src.Metric || math.Abs(src.Map.VerticalScale-350) > 1e-3 {
				t.Errorf("%s: metric %v, height span %v m, want 350 m", c.name, src.Metric, src.Map.VerticalScale)
			}
		}
		if c.kind == HeightmapPNG && (!src.HasCellSize || src.Map.CellSize != 2) {
			t.Errorf("%s: cell size %v m (%v), want the file's 2 m", c.name, src.Map.CellSize, src.HasCellSize)
		}
		if v := src.Map.At(16, 5); math.Abs(float64(v)-0.5) > 1e-3 {
			t.Errorf("%s: sample (16,5) = %v, want 0.5", c.name, v)
		}
	}
}

// countingReader counts what is read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// endless repeats a byte for ever after a prefix, like /dev/zero.
type endless struct {
	prefix []byte
	b      byte
}

func (e *endless) Read(p []byte) (int, error) {
	n := copy(p, e.prefix)
	e.prefix = e.prefix[n:]
	for i := n; i < len(p); i++ {
		p[i] = e.b
	}
	return len(p), nil
}

// Each kind of file is read within its own cap, the command line's: a
// parameter file stops at 1 MB and a route at 64 MB whatever size the
// file claims, where every kind used to be read up to 1 GB.
func TestReadFileCapsPerKind(t *testing.T) {
	for _, c := range []struct {
		name   string
		prefix string
		claim  int64
		limit  int64
		want   string
	}{
		{"huge.json", "{", 8 << 30, terrain.MaxParamsFile, "8 GB is too large for a parameter file (at most 1 MB)"},
		{"growing.json", "{", 100, terrain.MaxParamsFile, "more than 1 MB is too large for a parameter file"},
		{"endless.gpx", `<?xml version="1.0"?><gpx version="1.1">`, 100, trackfile.MaxFileSize, "more than 64 MB is too large for a route"},
	} {
		r := &countingReader{r: &endless{prefix: []byte(c.prefix), b: ' '}}
		_, _, err := readFile(c.name, r, c.claim)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), c.name) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
		if r.n > c.limit+sniffBytes {
			t.Errorf("%s: read %d bytes, over the %d-byte cap", c.name, r.n, c.limit)
		}
	}
	// A 2×2 r16 map is told by its length and read whole.
	kind, data, err := readFile("tiny.r16", bytes.NewReader(make([]byte, 8)), 8)
	if err != nil || kind != HeightmapR16 || len(data) != 8 {
		t.Errorf("2×2 r16: kind %v, %d bytes, error %v", kind, len(data), err)
	}
}

// Parameter files and routes are parsed by openFile, which runs off the UI
// goroutine; a FIFO, which blocked the UI forever, is refused by openPath.
func TestOpenFileParsesOffTheUIGoroutine(t *testing.T) {
	dir := t.TempDir()
	params := filepath.Join(dir, "p.json")
	if err := os.WriteFile(params, []byte("\ufeff{\"size\": 129, \"hurst\": 0.5}"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := openFile(params, openPath(params))
	if o.err != nil || o.kind != ParamsJSON || o.params.Size != 129 || o.params.Hurst != 0.5 {
		t.Errorf("parameter file: kind %v, size %d, hurst %v, error %v", o.kind, o.params.Size, o.params.Hurst, o.err)
	}
	dup := filepath.Join(dir, "dup.json")
	if err := os.WriteFile(dup, []byte(`{"size": 99999999, "size": 65}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if o := openFile(dup, openPath(dup)); o.err == nil || !strings.Contains(o.err.Error(), "size: the key appears more than once") {
		t.Errorf("duplicate key: error %v", o.err)
	}
	if o := openFile(dir, openPath(dir)); o.err == nil || !strings.Contains(o.err.Error(), "a directory, not a regular file") {
		t.Errorf("a folder: error %v", o.err)
	}
	if fifo := filepath.Join(dir, "f.json"); testenv.Mkfifo(fifo) == nil {
		if o := openFile(fifo, openPath(fifo)); o.err == nil || !strings.Contains(o.err.Error(), "named pipe") {
			t.Errorf("FIFO: error %v", o.err)
		}
	}
}

// A drop opens the files at its top, at most maxDropFiles, and never walks
// into a folder: a dropped home folder used to be read whole.
func TestDropEntriesDoesNotWalkFolders(t *testing.T) {
	drop := fstest.MapFS{
		"map.png":              {Data: []byte("x")},
		"p.json":               {Data: []byte("{}")},
		"home/deep/a.png":      {Data: []byte("x")},
		"home/deep/b/c/d.json": {Data: []byte("{}")},
	}
	files, skipped, err := dropEntries(drop)
	if err != nil || !slices.Equal(files, []string{"map.png", "p.json"}) || !slices.Equal(skipped, []string{"home"}) {
		t.Errorf("files %q, skipped %q, error %v; want map.png and p.json, home skipped", files, skipped, err)
	}
	many := fstest.MapFS{}
	for i := range maxDropFiles + 3 {
		many[fmt.Sprintf("m%02d.png", i)] = &fstest.MapFile{Data: []byte("x")}
	}
	files, skipped, _ = dropEntries(many)
	if len(files) != maxDropFiles || len(skipped) != 3 {
		t.Errorf("%d files dropped: %d opened, %d skipped; want %d and 3", len(many), len(files), len(skipped), maxDropFiles)
	}
}
