package fileopen

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
		kind Kind
	}{{"map.exr", HeightmapEXR}, {"map.tif", HeightmapTIFF}, {"map.png", HeightmapPNG}} {
		path := filepath.Join(dir, c.name)
		if err := heightfile.SaveHeightmap(path, m); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := Detect(data); got != c.kind {
			t.Fatalf("%s: detected as %v, want %v", c.name, got, c.kind)
		}
		src, err := DecodeHeightmap(c.kind, data)
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
		_, _, err := Read(c.name, r, c.claim)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), c.name) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
		if r.n > c.limit+sniffBytes {
			t.Errorf("%s: read %d bytes, over the %d-byte cap", c.name, r.n, c.limit)
		}
	}
	// A 2×2 r16 map is told by its length and read whole.
	kind, data, err := Read("tiny.r16", bytes.NewReader(make([]byte, 8)), 8)
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
	o := Open(params, Path(params))
	if o.Err != nil || o.Kind != Params || o.Params.Size != 129 || o.Params.Hurst != 0.5 {
		t.Errorf("parameter file: kind %v, size %d, hurst %v, error %v", o.Kind, o.Params.Size, o.Params.Hurst, o.Err)
	}
	dup := filepath.Join(dir, "dup.json")
	if err := os.WriteFile(dup, []byte(`{"size": 99999999, "size": 65}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if o := Open(dup, Path(dup)); o.Err == nil || !strings.Contains(o.Err.Error(), "size: the key appears more than once") {
		t.Errorf("duplicate key: error %v", o.Err)
	}
	if o := Open(dir, Path(dir)); o.Err == nil || !strings.Contains(o.Err.Error(), "a directory, not a regular file") {
		t.Errorf("a folder: error %v", o.Err)
	}
	if fifo := filepath.Join(dir, "f.json"); testenv.Mkfifo(fifo) == nil {
		if o := Open(fifo, Path(fifo)); o.Err == nil || !strings.Contains(o.Err.Error(), "named pipe") {
			t.Errorf("FIFO: error %v", o.Err)
		}
	}
}

// A drop opens the files at its top, at most MaxDrop, and never walks
// into a folder: a dropped home folder used to be read whole.
func TestDropEntriesDoesNotWalkFolders(t *testing.T) {
	drop := fstest.MapFS{
		"map.png":              {Data: []byte("x")},
		"p.json":               {Data: []byte("{}")},
		"home/deep/a.png":      {Data: []byte("x")},
		"home/deep/b/c/d.json": {Data: []byte("{}")},
	}
	files, skipped, err := DropEntries(drop)
	if err != nil || !slices.Equal(files, []string{"map.png", "p.json"}) || !slices.Equal(skipped, []string{"home"}) {
		t.Errorf("files %q, skipped %q, error %v; want map.png and p.json, home skipped", files, skipped, err)
	}
	many := fstest.MapFS{}
	for i := range MaxDrop + 3 {
		many[fmt.Sprintf("m%02d.png", i)] = &fstest.MapFile{Data: []byte("x")}
	}
	files, skipped, _ = DropEntries(many)
	if len(files) != MaxDrop || len(skipped) != 3 {
		t.Errorf("%d files dropped: %d opened, %d skipped; want %d and 3", len(many), len(files), len(skipped), MaxDrop)
	}
}

// Routes are told from parameter files by content: GeoJSON names its
// type; GPX, CSV and the real tracks by trackfile.Detect.
func TestDetectRouteFiles(t *testing.T) {
	gpx := []byte(`<?xml version="1.0"?><gpx version="1.1"><trk><trkseg><trkpt lat="1" lon="2"><ele>3</ele></trkpt></trkseg></trk></gpx>`)
	geo := []byte(`{"type": "LineString", "coordinates": [[2, 1, 3], [2.1, 1.1, 4]]}`)
	csv := []byte("latitude,longitude,elevation\n1,2,3\n1.1,2.1,4\n")
	params := []byte(`{"algorithm": "hybrid", "hurst": 0.25}`)
	for name, c := range map[string]struct {
		data []byte
		want Kind
	}{"gpx": {gpx, Route}, "geojson": {geo, Route}, "csv": {csv, Route}, "params": {params, Params}} {
		if got := Detect(c.data); got != c.want {
			t.Errorf("%s: kind %v, want %v", name, got, c.want)
		}
	}
	// The real tracks beside the repository, when they are there.
	for _, sub := range []string{"gpx", "routes"} {
		dir := testenv.SharedData(t, sub) // skips, having checked the samples, when absent
		files, err := filepath.Glob(filepath.Join(dir, "*"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Fatalf("%s holds no tracks", dir)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if Detect(data) != Route {
				t.Errorf("%s: not recognised as a route", f)
			}
		}
	}
}
