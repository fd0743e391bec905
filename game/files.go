package game

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"io/fs"
	"path"
	"path/filepath"

	"github.com/hajimehoshi/ebiten/v2"

	"cordillera/assets"
	"cordillera/internal/inputfile"
	"cordillera/route/track"
	"cordillera/route/trackfile"
	"cordillera/terrain"
	"cordillera/terrain/heightfile"
)

// FileKind is what a file holds, told from its content.
type FileKind int

// The kinds of file the explorer opens.
const (
	UnknownFile FileKind = iota
	HeightmapPNG
	HeightmapR16
	ParamsJSON
	RouteFile     // GPX, TCX, KML, FIT, GeoJSON or CSV track
	HeightmapEXR  // OpenEXR float heights in metres
	HeightmapTIFF // TIFF or GeoTIFF DEM
)

// MaxFileBytes is the most the explorer reads of a file of each kind: the
// same caps as the command line (terrain.MaxParamsFile, trackfile.MaxFileSize,
// heightfile.MaxFileBytes), so a file that opens in one opens in the other.
func MaxFileBytes(kind FileKind) int64 {
	switch kind {
	case ParamsJSON:
		return terrain.MaxParamsFile
	case RouteFile:
		return trackfile.MaxFileSize
	case HeightmapPNG, HeightmapR16, HeightmapEXR, HeightmapTIFF:
		return heightfile.MaxFileBytes
	}
	return sniffBytes
}

// kindNames names the kinds for messages.
var kindNames = map[FileKind]string{
	HeightmapPNG: "a PNG heightmap", HeightmapR16: "an r16 heightmap", ParamsJSON: "a parameter file",
	RouteFile: "a route", HeightmapEXR: "an EXR heightmap", HeightmapTIFF: "a TIFF heightmap",
}

// sniffBytes is how much of a file is read to tell its kind, before the
// kind's cap decides how much more may be read.
const sniffBytes = 64 << 10

// maxDropFiles bounds the files one drop opens: each replaces the world,
// so only the last would stay anyway.
const maxDropFiles = 8

// DetectFile tells a heightmap (PNG, raw 16-bit) from a parameter file by
// content, not by name.
func DetectFile(data []byte) FileKind { return detectFile(data, int64(len(data))) }

// detectFile tells a file's kind from its first bytes, head, and its
// length, size (a raw r16 map is told by its length alone).
func detectFile(head []byte, size int64) FileKind {
	trimmed := bytes.TrimLeft(head, " \t\r\n\ufeff")
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return HeightmapPNG
	case bytes.HasPrefix(head, []byte("\x76\x2f\x31\x01")):
		return HeightmapEXR
	case bytes.HasPrefix(head, []byte("II*\x00")), bytes.HasPrefix(head, []byte("MM\x00*")):
		return HeightmapTIFF
	case len(trimmed) > 0 && trimmed[0] == '{':
		if bytes.Contains(trimmed, []byte(`"type"`)) { // GeoJSON names its type; parameters have no such key
			return RouteFile
		}
		return ParamsJSON
	case trackfile.Detect(head) != "":
		return RouteFile
	case size >= 8 && size%2 == 0 && isSquare(size/2):
		return HeightmapR16
	}
	return UnknownFile
}

func isSquare(n int64) bool {
	for s := int64(1); s*s <= n; s++ {
		if s*s == n {
			return true
		}
	}
	return false
}

// readFile reads what r holds, size bytes by its header or Stat, within
// the cap of its kind: the first bytes tell the kind, and no more than the
// kind's cap is ever read, whatever the file claims or turns out to be.
func readFile(name string, r io.Reader, size int64) (FileKind, []byte, error) {
	head, err := io.ReadAll(io.LimitReader(r, sniffBytes))
	if err != nil {
		return UnknownFile, nil, fmt.Errorf("%s: %w", name, err)
	}
	kind := detectFile(head, max(size, int64(len(head))))
	if kind == UnknownFile {
		return kind, nil, fmt.Errorf("%s: not a heightmap (PNG, .r16, EXR, TIFF), a parameter file (.json) or a route (GPX, TCX, KML, FIT, GeoJSON, CSV)", name)
	}
	limit := MaxFileBytes(kind)
	if size > limit {
		return kind, nil, inputfile.TooLarge(name, size, limit, kindNames[kind])
	}
	// One buffer of the size the file claims (heightmaps run to hundreds of
	// MB), with room for ReadFrom to see the end without growing it.
	buf := bytes.NewBuffer(make([]byte, 0, min(max(size, int64(len(head))), limit)+bytes.MinRead))
	buf.Write(head)
	if _, err := buf.ReadFrom(io.LimitReader(r, limit+1-int64(len(head)))); err != nil {
		return kind, nil, fmt.Errorf("%s: %w", name, err)
	}
	data := buf.Bytes()
	if int64(len(data)) > limit {
		return kind, nil, fmt.Errorf("%s: more than %s is too large for %s", name, inputfile.Bytes(limit), kindNames[kind])
	}
	if kind == HeightmapR16 && int64(len(data)) != size {
		kind = detectFile(data, int64(len(data))) // it changed while read: judge what was read
	}
	return kind, data, nil
}

// opened is a file read and parsed in the background, for the UI
// goroutine to apply.
type opened struct {
	name      string
	kind      FileKind
	data      []byte // a heightmap's content, decoded by the regeneration worker
	params    terrain.Params
	track     *track.Track
	materials *image.RGBA // a materials folder's atlas (importMaterials), of nMaterial images
	nMaterial int
	err       error
}

// fileLoader reads and parses the files the explorer opens off the UI
// goroutine: a large route takes seconds to parse and a FIFO would never
// end. Results come back on done and are applied by pollFiles.
type fileLoader struct {
	done    chan opened
	pending int // files being read; touched only on the UI goroutine
}

// startOpen reads and parses a file on a new goroutine; open returns its
// content, its size and a function to close it.
func (fl *fileLoader) startOpen(name string, open func() (io.ReadCloser, int64, error)) {
	fl.inBackground(func() opened { return openFile(name, open) })
}

// inBackground runs work on a new goroutine; pollFiles applies its result.
func (fl *fileLoader) inBackground(work func() opened) {
	if fl.done == nil {
		fl.done = make(chan opened, maxDropFiles)
	}
	fl.pending++
	go func() {
		fl.done <- work()
	}()
}

// openFile reads and parses one file (see opened).
func openFile(name string, open func() (io.ReadCloser, int64, error)) opened {
	r, size, err := open()
	if err != nil {
		return opened{name: name, err: err}
	}
	defer r.Close()
	kind, data, err := readFile(name, r, size)
	if err != nil {
		return opened{name: name, err: err}
	}
	return parseFile(name, kind, data)
}

// parseFile parses a parameter file or a route; heightmaps are decoded
// later, by the regeneration worker.
func parseFile(name string, kind FileKind, data []byte) opened {
	o := opened{name: name, kind: kind}
	switch kind {
	case ParamsJSON:
		o.err = o.params.UnmarshalJSON(data)
	case RouteFile:
		o.track, o.err = trackfile.Parse(data)
	default:
		o.data = data
	}
	if o.err != nil {
		o.err = fmt.Errorf("%s: %w", name, o.err)
	}
	return o
}

// pollFiles applies the files finished reading since the last frame.
func (g *Game) pollFiles() {
	for g.files.pending > 0 {
		select {
		case o := <-g.files.done:
			g.files.pending--
			g.applyOpened(o)
		default:
			return
		}
	}
}

// LoadFile opens a heightmap, a parameter file or a route; it is read and
// parsed in the background, and errors show in the UI and leave the
// current world as it is.
func (g *Game) LoadFile(path string) {
	g.ui.say("reading " + filepath.Base(path))
	g.files.startOpen(path, openPath(path))
}

// applyOpened makes the world of a file read in the background.
func (g *Game) applyOpened(o opened) {
	if o.err != nil {
		g.ui.fail(o.err)
		return
	}
	name := o.name
	if o.materials != nil {
		g.render.setAtlas(o.materials)
		g.ui.say(fmt.Sprintf("imported %d material images from %s", o.nMaterial, name))
		return
	}
	switch o.kind {
	case ParamsJSON:
		g.Params = o.params
		g.gen.regen.Request(o.params)
		g.ui.say("loaded parameters from " + filepath.Base(name))
	case RouteFile:
		g.gen.regen.RequestRoute(g.Params, o.track)
		g.ui.say("making terrain through " + filepath.Base(name))
	default:
		kind, data := o.kind, o.data
		g.gen.regen.RequestMap(func(ctx context.Context) (*terrain.Heightmap, error) {
			src, err := decodeHeightmap(kind, data)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			m := src.Map
			if !src.Metric { // EXR and DEMs bring heights in metres; images pick a fifth of their width
				m.VerticalScale = float64(max(m.Width, m.Height)) / 5
			}
			return m, nil
		}, g.Params)
		g.ui.say("loading " + filepath.Base(name))
	}
}

// decodeHeightmap reads a heightmap file's content of the given kind.
func decodeHeightmap(kind FileKind, data []byte) (*heightfile.Source, error) {
	r := bytes.NewReader(data)
	switch kind {
	case HeightmapPNG:
		return heightfile.DecodePNG(r) // metric when it records its metres
	case HeightmapR16:
		m, err := heightfile.DecodeR16(r, int64(len(data)))
		if err != nil {
			return nil, err
		}
		return &heightfile.Source{Map: m}, nil
	case HeightmapEXR:
		return heightfile.DecodeEXR(r, int64(len(data)))
	}
	return heightfile.DecodeTIFF(r, int64(len(data)))
}

// handleDrops applies files read since the last frame and opens files
// dropped onto the window: only the files at the top of the drop, at most
// maxDropFiles of them; folders are not walked (a dropped home folder
// would otherwise be read whole).
func (g *Game) handleDrops() {
	g.pollFiles()
	dropped := ebiten.DroppedFiles()
	if dropped == nil {
		return
	}
	names, skipped, err := dropEntries(dropped)
	if err != nil {
		g.ui.fail(err)
		return
	}
	for _, name := range names {
		g.files.startOpen(name, func() (io.ReadCloser, int64, error) {
			return openDropped(dropped, name)
		})
	}
	if len(skipped) > 0 {
		g.ui.fail(fmt.Errorf("dropped %s not opened: drop at most %d map, parameter or route files, not folders",
			joinNames(skipped), maxDropFiles))
	}
}

// dropEntries lists the files at the top of a drop to open and the
// entries skipped (folders, special files, files past maxDropFiles). It
// reads one directory, never walking into folders.
func dropEntries(dropped fs.FS) (files, skipped []string, err error) {
	entries, err := fs.ReadDir(dropped, ".")
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || len(files) == maxDropFiles {
			skipped = append(skipped, e.Name())
			continue
		}
		files = append(files, e.Name())
	}
	return files, skipped, nil
}

// openDropped opens a dropped file, refusing what is not a regular file.
func openDropped(dropped fs.FS, name string) (io.ReadCloser, int64, error) {
	f, err := dropped.Open(name)
	if err != nil {
		return nil, 0, err
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = fmt.Errorf("%s: %s, not a regular file", name, inputfile.Kind(info.Mode()))
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, info.Size(), nil
}

// joinNames lists a few names for a message.
func joinNames(names []string) string {
	const most = 3
	s := ""
	for i, n := range names {
		if i == most {
			return fmt.Sprintf("%s and %d more", s, len(names)-most)
		}
		if i > 0 {
			s += ", "
		}
		s += path.Base(n)
	}
	return s
}

// importMaterials replaces the built-in materials with a folder of PNGs.
// The files are read and the atlas built off the UI goroutine, through
// the input checks (a FIFO named sand.png would block the window for
// ever, eight large PNGs take seconds); pollFiles puts the atlas in place.
func (g *Game) importMaterials(dir string) {
	g.ui.say("reading materials from " + dir)
	g.files.inBackground(func() opened {
		atlas, n, err := assets.LoadMaterials(dir)
		return opened{name: dir, materials: atlas, nMaterial: n, err: err}
	})
}

// errNoMap is a loader that produced nothing.
var errNoMap = errors.New("no map")
