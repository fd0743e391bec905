// Package fileopen reads the files the explorer opens (heightmaps,
// parameter files and routes, typed, picked or dropped) and tells their
// kind by content, not by name. Each kind is read within the same cap as
// on the command line, and off the UI goroutine (Loader): a large route
// takes seconds to parse, and a FIFO would never end.
package fileopen

import (
	"bytes"
	"fmt"
	"image"
	"io"
	"io/fs"
	"path"

	"cordillera/internal/inputfile"
	"cordillera/route/track"
	"cordillera/route/trackfile"
	"cordillera/terrain"
	"cordillera/terrain/heightfile"
)

// Kind is what a file holds, told from its content.
type Kind int

// The kinds of file the explorer opens.
const (
	Unknown Kind = iota
	HeightmapPNG
	HeightmapR16
	Params
	Route         // a track in any of trackfile's formats
	HeightmapEXR  // OpenEXR float heights in metres
	HeightmapTIFF // TIFF or GeoTIFF DEM
)

// heightmapKinds are the kinds of the heightmap formats.
var heightmapKinds = map[heightfile.Format]Kind{
	heightfile.PNG: HeightmapPNG, heightfile.R16: HeightmapR16,
	heightfile.EXR: HeightmapEXR, heightfile.TIFF: HeightmapTIFF,
}

// IsHeightmap reports whether the kind is a heightmap's.
func (k Kind) IsHeightmap() bool { return k.format() != heightfile.NotHeightmap }

// format is the heightmap format of a heightmap's kind.
func (k Kind) format() heightfile.Format {
	for f, kind := range heightmapKinds {
		if kind == k {
			return f
		}
	}
	return heightfile.NotHeightmap
}

// MaxBytes is the most the explorer reads of a file of each kind: the
// same caps as the command line (terrain.MaxParamsFile, trackfile.MaxFileSize,
// heightfile.MaxFileBytes), so a file that opens in one opens in the other.
func MaxBytes(kind Kind) int64 {
	switch {
	case kind == Params:
		return terrain.MaxParamsFile
	case kind == Route:
		return trackfile.MaxFileSize
	case kind.IsHeightmap():
		return heightfile.MaxFileBytes
	}
	return sniffBytes
}

// kindNames names the kinds for messages.
var kindNames = map[Kind]string{
	HeightmapPNG: "a PNG heightmap", HeightmapR16: "an r16 heightmap", Params: "a parameter file",
	Route: "a route", HeightmapEXR: "an EXR heightmap", HeightmapTIFF: "a TIFF heightmap",
}

// sniffBytes is how much of a file is read to tell its kind, before the
// kind's cap decides how much more may be read.
const sniffBytes = 64 << 10

// MaxDrop bounds the files one drop opens: each replaces the world, so
// only the last would stay anyway.
const MaxDrop = 8

// Detect tells a file's kind from its whole content.
func Detect(data []byte) Kind { return detect(data, int64(len(data))) }

// detect tells a file's kind from its first bytes, head, and its length,
// size. A raw r16 map is told by its length alone, so it comes last.
func detect(head []byte, size int64) Kind {
	format := heightfile.Detect(head, size)
	if format != heightfile.NotHeightmap && format != heightfile.R16 {
		return heightmapKinds[format]
	}
	trimmed := bytes.TrimLeft(head, " \t\r\n\ufeff")
	switch {
	case len(trimmed) > 0 && trimmed[0] == '{':
		if bytes.Contains(trimmed, []byte(`"type"`)) { // GeoJSON names its type; parameters have no such key
			return Route
		}
		return Params
	case trackfile.Detect(head) != "":
		return Route
	case format == heightfile.R16:
		return HeightmapR16
	}
	return Unknown
}

// Read reads what r holds, size bytes by its header or Stat, within the
// cap of its kind: the first bytes tell the kind, and no more than the
// kind's cap is ever read, whatever the file claims or turns out to be.
func Read(name string, r io.Reader, size int64) (Kind, []byte, error) {
	head, err := io.ReadAll(io.LimitReader(r, sniffBytes))
	if err != nil {
		return Unknown, nil, fmt.Errorf("%s: %w", name, err)
	}
	kind := detect(head, max(size, int64(len(head))))
	if kind == Unknown {
		return kind, nil, fmt.Errorf("%s: not a heightmap (PNG, .r16, EXR, TIFF), a parameter file (.json) or a route (%s)", name, trackfile.FormatNames(", ", ", "))
	}
	limit := MaxBytes(kind)
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
		kind = detect(data, int64(len(data))) // it changed while read: judge what was read
	}
	return kind, data, nil
}

// Opener opens a file: its content, its size and a way to close it.
type Opener func() (io.ReadCloser, int64, error)

// Opened is a file read and parsed in the background, for the UI
// goroutine to apply.
type Opened struct {
	Name      string
	Kind      Kind
	Data      []byte // a heightmap's content, decoded later (DecodeHeightmap)
	Params    terrain.Params
	Track     *track.Track
	Materials *image.RGBA // a materials folder's atlas, of NMaterial images
	NMaterial int
	Err       error
}

// Loader reads and parses files off the UI goroutine. Its results come
// back through Poll, on the UI goroutine.
type Loader struct {
	done    chan Opened
	pending int // files being read; touched only on the UI goroutine
}

// Start reads and parses a file on a new goroutine (Open).
func (l *Loader) Start(name string, open Opener) {
	l.InBackground(func() Opened { return Open(name, open) })
}

// InBackground runs work on a new goroutine; Poll returns its result.
func (l *Loader) InBackground(work func() Opened) {
	if l.done == nil {
		l.done = make(chan Opened, MaxDrop)
	}
	l.pending++
	go func() {
		l.done <- work()
	}()
}

// Pending is how many files are still being read.
func (l *Loader) Pending() int { return l.pending }

// Poll returns a file finished reading, without waiting; false when
// none has finished.
func (l *Loader) Poll() (Opened, bool) {
	if l.pending == 0 {
		return Opened{}, false
	}
	select {
	case o := <-l.done:
		l.pending--
		return o, true
	default:
		return Opened{}, false
	}
}

// Open reads and parses one file (see Opened).
func Open(name string, open Opener) Opened {
	r, size, err := open()
	if err != nil {
		return Opened{Name: name, Err: err}
	}
	defer r.Close()
	kind, data, err := Read(name, r, size)
	if err != nil {
		return Opened{Name: name, Err: err}
	}
	return parse(name, kind, data)
}

// parse parses a parameter file or a route; heightmaps are decoded
// later, by the regeneration worker (DecodeHeightmap).
func parse(name string, kind Kind, data []byte) Opened {
	o := Opened{Name: name, Kind: kind}
	switch kind {
	case Params:
		o.Err = o.Params.UnmarshalJSON(data)
	case Route:
		o.Track, o.Err = trackfile.Parse(data)
	default:
		o.Data = data
	}
	if o.Err != nil {
		o.Err = fmt.Errorf("%s: %w", name, o.Err)
	}
	return o
}

// DecodeHeightmap reads a heightmap file's content of the given kind.
func DecodeHeightmap(kind Kind, data []byte) (*heightfile.Source, error) {
	return heightfile.Decode(kind.format(), data)
}

// DropEntries lists the files at the top of a drop to open and the
// entries skipped (folders, special files, files past MaxDrop). It reads
// one directory, never walking into folders (a dropped home folder would
// otherwise be read whole).
func DropEntries(dropped fs.FS) (files, skipped []string, err error) {
	entries, err := fs.ReadDir(dropped, ".")
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || len(files) == MaxDrop {
			skipped = append(skipped, e.Name())
			continue
		}
		files = append(files, e.Name())
	}
	return files, skipped, nil
}

// Dropped opens a dropped file, refusing what is not a regular file.
func Dropped(dropped fs.FS, name string) Opener {
	return func() (io.ReadCloser, int64, error) {
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
}

// JoinNames lists a few names for a message.
func JoinNames(names []string) string {
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
