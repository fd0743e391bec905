package world

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"cordillera/internal/atomicfile"
)

// Range is the world's raw height range, before normalisation: the
// float32 bounds, kept as float64 (which holds them exactly, and JSON
// round-trips them exactly).
type Range struct {
	Low  float64 `json:"lo"`
	High float64 `json:"hi"`
	// Eroded is the eroded world's range, before it is normalised again;
	// nil without erosion.
	Eroded *Range `json:"eroded,omitempty"`
}

// Lo and Hi are the bounds as the normalisation takes them.
func (r Range) Lo() float32 { return float32(r.Low) }
func (r Range) Hi() float32 { return float32(r.High) }

// rangeFile keeps the range a pass over every tile found.
type rangeFile struct {
	Key   string `json:"key"`
	Range Range  `json:"range"`
}

// fileSum is one file of a tile: its name under the world's folder, its
// SHA-256 and its length.
type fileSum struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
	Bytes  int64  `json:"bytes"`
}

// record is a finished tile's checksums, written beside its files once
// they are in place: a tile without one was never finished.
type record struct {
	Key   string    `json:"key"`
	Tile  string    `json:"tile"`
	Files []fileSum `json:"files"`
}

func recordPath(dir string, t Tile) string {
	return filepath.Join(dir, tileDir, t.Name()+".json")
}

// ManifestFormat names the manifest's layout, for readers to check.
const ManifestFormat = "cordillera-world-1"

// Manifest describes a built (or partly built) world: the description, the
// mosaic, and every tile with its files' checksums once it is finished.
type Manifest struct {
	Format      string      `json:"format"`
	Key         string      `json:"key"` // Description.Key
	Description Description `json:"description"`
	Size        int         `json:"size"`           // the world's side in samples
	CellSize    float64     `json:"cell-size"`      // metres between samples
	Amplitude   float64     `json:"amplitude"`      // metres from height 0 to 1 (after erosion's renormalisation, once its range is found)
	RawRange    *Range      `json:"raw-range"`      // nil until found
	Mosaic      string      `json:"mosaic"`         // the VRT, under the folder
	State       string      `json:"state"`          // "complete" once every tile is finished, else "partial"
	Done        int         `json:"tiles-finished"` // of len(Tiles)
	Tiles       []TileEntry `json:"tiles"`
}

// TileEntry is one tile in the manifest: its name, its top-left sample in
// the world, and its files once finished (none before).
type TileEntry struct {
	Name  string    `json:"name"`
	Col   int       `json:"col"`
	Row   int       `json:"row"`
	Files []fileSum `json:"files,omitempty"`
}

// ReadManifest reads the manifest of the world in dir.
func ReadManifest(dir string) (Manifest, error) {
	return ReadManifestFile(filepath.Join(dir, ManifestName))
}

// ReadManifestFile reads a world manifest from path, wherever it lies (a
// copy handed to another machine, say).
func ReadManifestFile(path string) (Manifest, error) {
	var m Manifest
	if err := readJSON(path, &m); err != nil {
		return m, err
	}
	if m.Format != ManifestFormat {
		return m, fmt.Errorf("%s: format %q, want %q: not a world manifest", path, m.Format, ManifestFormat)
	}
	return m, nil
}

// checkFolder refuses a folder that holds another description's world.
func checkFolder(dir string, d Description) error {
	m, err := ReadManifest(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if m.Key != d.Key() {
		return fmt.Errorf("%s holds another world (%s, tiles of %d, formats %v), not this one (%s, tiles of %d, formats %v): build into another folder",
			dir, m.Description.Params.Describe(), m.Description.Tile, m.Description.Formats, d.Params.Describe(), d.Tile, d.Formats)
	}
	return nil
}

// writeManifest writes the manifest from the tiles' records in the folder
// (any build's, on any machine, whose files were copied in) and returns
// how many tiles are finished.
func writeManifest(ctx context.Context, dir string, d Description) (int, error) {
	m := Manifest{Format: ManifestFormat, Key: d.Key(), Description: d, Size: d.Params.Size,
		CellSize: d.Params.CellSize, Amplitude: d.Params.Amplitude, Mosaic: VRTName, State: "partial"}
	var kept rangeFile
	if readJSON(filepath.Join(dir, rangeName), &kept) == nil && kept.Key == m.Key {
		m.RawRange = &kept.Range
		m.Amplitude = kept.Range.verticalScale(d)
	}
	for _, t := range d.Tiles() {
		e := TileEntry{Name: t.Name(), Col: t.Col, Row: t.Row}
		var rec record
		if readJSON(recordPath(dir, t), &rec) == nil && rec.Key == m.Key {
			e.Files = rec.Files
			m.Done++
		}
		m.Tiles = append(m.Tiles, e)
	}
	if m.Done == len(m.Tiles) {
		m.State = "complete"
	}
	return m.Done, writeJSON(ctx, filepath.Join(dir, ManifestName), m)
}

// writeVRT writes the GDAL VRT that mosaics the world's GeoTIFF tiles:
// 16-bit samples with the tiles' scale to metres (verticalScale/65535), each tile placed at its
// top-left sample (shared borders overlap with equal values).
func writeVRT(w io.Writer, d Description, verticalScale float64) error {
	var b bytes.Buffer
	s, c := d.Params.Size, strconv.FormatFloat(d.Params.CellSize, 'g', -1, 64)
	fmt.Fprintf(&b, "<VRTDataset rasterXSize=\"%d\" rasterYSize=\"%d\">\n", s, s)
	fmt.Fprintf(&b, "  <GeoTransform>0, %s, 0, 0, 0, -%s</GeoTransform>\n", c, c)
	b.WriteString("  <VRTRasterBand dataType=\"UInt16\" band=\"1\">\n")
	b.WriteString("    <Offset>0</Offset>\n")
	// The tiles' own scale (heightfile's TIFF): metres per 16-bit step.
	fmt.Fprintf(&b, "    <Scale>%s</Scale>\n", strconv.FormatFloat(verticalScale/65535, 'g', -1, 64))
	for _, t := range d.Tiles() {
		n := d.Tile
		b.WriteString("    <SimpleSource>\n")
		fmt.Fprintf(&b, "      <SourceFilename relativeToVRT=\"1\">%s/%s.tif</SourceFilename>\n", tileDir, t.Name())
		b.WriteString("      <SourceBand>1</SourceBand>\n")
		fmt.Fprintf(&b, "      <SourceProperties RasterXSize=\"%d\" RasterYSize=\"%d\" DataType=\"UInt16\"/>\n", n, n)
		fmt.Fprintf(&b, "      <SrcRect xOff=\"0\" yOff=\"0\" xSize=\"%d\" ySize=\"%d\"/>\n", n, n)
		fmt.Fprintf(&b, "      <DstRect xOff=\"%d\" yOff=\"%d\" xSize=\"%d\" ySize=\"%d\"/>\n", t.Col, t.Row, n, n)
		b.WriteString("    </SimpleSource>\n")
	}
	b.WriteString("  </VRTRasterBand>\n</VRTDataset>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// writeJSON writes v as indented JSON to path, atomically.
func writeJSON(ctx context.Context, path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteContext(ctx, path, func(w io.Writer) error {
		_, err := w.Write(append(b, '\n'))
		return err
	})
}

// readJSON reads path's JSON into v; errors name the path.
func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
