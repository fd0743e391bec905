// Package heightfile reads and writes heightmaps in the formats other tools
// read: 16-bit grayscale PNG, raw 16-bit r16, 32-bit float OpenEXR, 16-bit
// TIFF with GeoTIFF georeferencing (and GeoTIFF DEMs of 16-bit or float
// samples), OBJ meshes, and the maps derived from a heightmap (normal
// maps, splat maps); one format per file, each written atomically. It
// knows the Heightmap and nothing of how a map was made or drawn.
package heightfile

import (
	"bufio"
	"cordillera/internal/atomicfile"
	"cordillera/internal/inputfile"
	"cordillera/terrain"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// SaveExtensions and LoadExtensions list the file extensions Save and Load
// understand, for messages and flag help.
const (
	SaveExtensions = ".png, .r16, .raw, .exr, .tif, .tiff, .obj"
	LoadExtensions = ".png, .r16, .raw, .exr, .tif, .tiff"
)

// SaveOptions carry what a format can record beyond the samples.
type SaveOptions struct {
	// Base is the world height of map height 0, in metres (a route
	// terrain's or a DEM's lowest point); PNG, EXR and TIFF record it.
	Base float64
	// Geo georeferences a TIFF (GeoTIFF tags); nil writes none.
	Geo *GeoRef
	// EXRChannel names an EXR's one channel: "" is Y (OpenEXR's
	// luminance); Godot reads a single R channel as a float image.
	EXRChannel string
	// NoData marks the samples the map's source had no data for (filled
	// since): a TIFF writes them back as nodata. nil for none; otherwise
	// one entry per sample.
	NoData []bool
	// Progress, if set, receives the fraction of the file written, in
	// shares of the writing's time: PNG as its segments are compressed,
	// EXR and TIFF as their blocks are, OBJ as its rows are formatted.
	// r16 does not (its size is known, so the caller can count its
	// bytes).
	Progress terrain.Progress
}

// Source is a heightmap read from a file, with what the file said about
// its scale.
type Source struct {
	// Map holds heights normalised onto [0, 1]. Its CellSize and
	// VerticalScale are the file's when HasCellSize and Metric say so, and
	// 1 otherwise (the caller picks a scale).
	Map *terrain.Heightmap
	// Metric: the file holds heights in world units (EXR, signed or float
	// TIFF samples, GeoTIFF DEMs, TIFFs with a GDAL scale, PNGs that
	// record their metres); Base is the height of map height 0 and
	// Map.VerticalScale the height span.
	Metric      bool
	Base        float64
	HasCellSize bool
	Geo         *GeoRef // georeferencing of a GeoTIFF; nil without
	// NoData is true for each sample the file had no data for (GDAL's
	// nodata value, NaN), which Map holds filled; nil when every sample
	// had data.
	NoData []bool
	// Note is something the user should be told about the file, such as a
	// 16-bit PNG that uses a small part of its range; empty if nothing.
	Note string
}

// newMetricSource normalises a map of world heights onto [0, 1], keeping
// the lowest height as Base and the span as VerticalScale (1 for a flat
// map).
func newMetricSource(m *terrain.Heightmap) *Source {
	lo, hi := m.Range()
	span := float64(hi) - float64(lo)
	if !(span > 0) {
		span = 1
	}
	for i, v := range m.Samples {
		m.Samples[i] = float32((float64(v) - float64(lo)) / span)
	}
	m.VerticalScale = span
	return &Source{Map: m, Metric: true, Base: float64(lo)}
}

// SaveHeightmap writes m to path with no base height or georeferencing;
// see Save.
func SaveHeightmap(path string, m *terrain.Heightmap) error {
	return Save(path, m, SaveOptions{})
}

// Save writes m to path in the format its extension names: .png (16-bit
// grayscale, EncodePNG16), .r16 or .raw (EncodeR16), .exr (32-bit float
// metres, EncodeEXR), .tif or .tiff (16-bit, GeoTIFF with opt.Geo,
// EncodeTIFF), .obj (EncodeOBJ). The file is replaced atomically
// (atomicfile.Write), so a failed save leaves any earlier file intact.
func Save(path string, m *terrain.Heightmap, opt SaveOptions) error {
	encode, err := Encoder(path, m, opt)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, encode)
}

// Encoder returns the function that writes m in the format path's
// extension names (see Save), for writing through an atomicfile.Group.
func Encoder(path string, m *terrain.Heightmap, opt SaveOptions) (func(io.Writer) error, error) {
	var encode func(io.Writer, *terrain.Heightmap) error
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".png":
		encode = func(w io.Writer, m *terrain.Heightmap) error { return encodePNG16(w, m, opt.Base, opt.Progress) }
	case ".r16", ".raw":
		encode = EncodeR16
	case ".exr":
		channel := opt.EXRChannel
		if channel == "" {
			channel = "Y"
		}
		encode = func(w io.Writer, m *terrain.Heightmap) error { return encodeEXR(w, m, opt.Base, channel, opt.Progress) }
	case ".tif", ".tiff":
		encode = func(w io.Writer, m *terrain.Heightmap) error {
			return encodeTIFF(w, m, opt.Base, opt.Geo, opt.NoData, opt.Progress)
		}
	case ".obj":
		encode = func(w io.Writer, m *terrain.Heightmap) error { return writeOBJ(w, m, opt.Progress) }
	default:
		return nil, fmt.Errorf("%s: cannot save a heightmap as %q; supported extensions: %s", path, ext, SaveExtensions)
	}
	return func(w io.Writer) error { return encode(w, m) }, nil
}

// LoadHeightmap reads the heightmap of a file Load reads, with heights in
// [0, 1]; the file's scale, if it has one, is in the map's CellSize and
// VerticalScale. Errors start with the path.
func LoadHeightmap(path string) (*terrain.Heightmap, error) {
	src, err := Load(path)
	if err != nil {
		return nil, err
	}
	return src.Map, nil
}

// Load reads a heightmap from a .png (DecodePNG), a .r16 or
// .raw (DecodeR16), an .exr (DecodeEXR) or a .tif or .tiff file
// (DecodeTIFF), with what the file says about its scale. Errors start with
// the path.
func Load(path string) (*Source, error) {
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".png", ".r16", ".raw", ".exr", ".tif", ".tiff":
	case ".obj", ".glb", ".gltf":
		return nil, fmt.Errorf("%s: %s is an export format; load one of %s", path, ext, LoadExtensions)
	default:
		return nil, fmt.Errorf("%s: cannot load a heightmap from %q; supported extensions: %s", path, ext, LoadExtensions)
	}
	// Only regular files: a FIFO would block the open, a device never end.
	f, size, err := inputfile.Open(path, MaxFileBytes, "a heightmap file")
	if err != nil {
		return nil, err // names the path
	}
	defer f.Close()
	var src *Source
	switch ext {
	case ".png":
		src, err = DecodePNG(bufio.NewReader(f))
	case ".r16", ".raw":
		var m *terrain.Heightmap
		if m, err = DecodeR16(bufio.NewReader(f), size); err == nil {
			src = &Source{Map: m, Note: narrowRangeNote(m)}
		}
	case ".exr":
		src, err = DecodeEXR(f, size)
	default:
		src, err = DecodeTIFF(f, size)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return src, nil
}

// narrowRange is the largest 16-bit value below which a map counts as
// using a small part of its range: 1/16 of it.
const narrowRange = 4096

// narrowRangeNote tells about 16-bit maps whose values all lie low in the
// range, such as 44–2044: most likely heights in metres, which shown at
// [0, 1] × a default scale would look like a flat plane.
func narrowRangeNote(m *terrain.Heightmap) string {
	lo, hi := m.Range()
	if !(hi > lo) || hi*65535 >= narrowRange {
		return ""
	}
	a, b := quantize16(lo), quantize16(hi)
	return fmt.Sprintf("values %d–%d use only %.1f %% of the 16-bit range 0–65535; if they are metres, "+
		"give -map-height 65535 to keep the true scale (relief %d m)", a, b, 100*float64(b)/65535, b-a)
}
