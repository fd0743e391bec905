package world

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"cordillera/internal/atomicfile"
	"cordillera/terrain"
	"cordillera/terrain/heightfile"
)

// The folder a build writes: the manifest and the mosaic at the top, the
// tiles and each tile's record (its files' checksums) in tileDir.
const (
	ManifestName = "manifest.json"
	VRTName      = "world.vrt"
	rangeName    = "range.json"
	tileDir      = "tiles"
)

// Report is what one build did.
type Report struct {
	Built []string // tiles made by this build, in the order made
	Kept  []string // selected tiles found finished (checksums matching) and not made again
	// RangePass: this build made the pass over every tile that finds the
	// raw height range (no earlier build in the folder had).
	RangePass bool
	Done      int // tiles finished in the folder, this build's and earlier ones'
	Total     int // tiles in the world
}

// Build makes the selected tiles of the world d in the folder dir (made
// if missing), then writes the VRT mosaic and the manifest. A tile whose
// record and files are in the folder with matching checksums is kept, not
// made again; anything else of a tile — a file missing or altered, a
// temporary left by a killed build — is made anew. Each tile's files are
// written atomically and its record only after them, so a tile is never
// taken as finished unless it is. log, if not nil, gets a line per tile.
func Build(ctx context.Context, dir string, d Description, sel Selection, log io.Writer) (Report, error) {
	var r Report
	if err := d.Validate(); err != nil {
		return r, err
	}
	tiles, err := sel.pick(d)
	if err != nil {
		return r, err
	}
	if err := os.MkdirAll(filepath.Join(dir, tileDir), 0o755); err != nil {
		return r, err
	}
	if err := checkFolder(dir, d); err != nil {
		return r, err
	}
	if _, err := writeManifest(ctx, dir, d); err != nil { // pins the folder to d before any tile
		return r, err
	}
	rng, pass, err := worldRange(ctx, dir, d, log)
	if err != nil {
		return r, err
	}
	r.RangePass = pass
	for _, t := range tiles {
		if finished(dir, d, t) {
			r.Kept = append(r.Kept, t.Name())
			continue
		}
		start := time.Now()
		if err := buildTile(ctx, dir, d, t, rng); err != nil {
			return r, fmt.Errorf("tile %s: %w", t.Name(), err)
		}
		r.Built = append(r.Built, t.Name())
		if log != nil {
			fmt.Fprintf(log, "%s: built in %v\n", t.Name(), time.Since(start).Round(time.Millisecond))
		}
	}
	if err := atomicfile.WriteContext(ctx, filepath.Join(dir, VRTName), func(w io.Writer) error { return writeVRT(w, d, rng.verticalScale(d)) }); err != nil {
		return r, err
	}
	r.Total = len(d.Tiles())
	r.Done, err = writeManifest(ctx, dir, d)
	return r, err
}

// MakeTile returns tile t of the world d, finished with the world's
// ranges rng (Build finds them): bit for bit the whole map's samples
// there, eroded and normalised again where d erodes.
func MakeTile(ctx context.Context, d Description, t Tile, rng Range) (*terrain.Heightmap, error) {
	m, err := erodedTile(ctx, d, t, rng)
	if err != nil {
		return nil, err
	}
	if rng.Eroded != nil {
		renormalise(m, rng.Eroded.Lo(), rng.Eroded.Hi())
	}
	return m, nil
}

// buildTile makes tile t and writes its files, then its record.
func buildTile(ctx context.Context, dir string, d Description, t Tile, rng Range) error {
	m, err := MakeTile(ctx, d, t, rng)
	if err != nil {
		return err
	}
	g := atomicfile.NewGroup(ctx)
	defer g.Abort() // a failed tile leaves none of its files
	rec := record{Key: d.Key(), Tile: t.Name()}
	for _, f := range d.Formats {
		name := filepath.ToSlash(filepath.Join(tileDir, t.Name()+"."+f))
		path := filepath.Join(dir, name)
		encode, err := heightfile.Encoder(path, m, heightfile.SaveOptions{Geo: tileGeo(d, t)})
		if err != nil {
			return err
		}
		sum := sha256.New()
		count := &counter{}
		if err := g.Add(path, func(w io.Writer) error { return encode(io.MultiWriter(w, sum, count)) }); err != nil {
			return err
		}
		rec.Files = append(rec.Files, fileSum{Name: name, SHA256: hex.EncodeToString(sum.Sum(nil)), Bytes: count.n})
	}
	if err := g.Commit(); err != nil {
		return err
	}
	return writeJSON(ctx, recordPath(dir, t), rec)
}

// tileGeo places tile t in the world's local grid in metres: x east from
// the world's west edge, y north from its north edge (negative
// southwards), as generate -tiles places its tiles.
func tileGeo(d Description, t Tile) *heightfile.GeoRef {
	c := d.Params.CellSize
	return &heightfile.GeoRef{OriginX: float64(t.Col) * c, OriginY: -float64(t.Row) * c, PixelX: c, PixelY: c}
}

// counter counts the bytes written through it.
type counter struct{ n int64 }

func (c *counter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

// worldRange returns the world's ranges: from the folder where an earlier
// build of d found them, or by passes over every tile, which it then
// keeps there: the raw range, and with erosion the eroded map's range.
// pass reports whether this call made the passes.
func worldRange(ctx context.Context, dir string, d Description, log io.Writer) (rng Range, pass bool, err error) {
	path := filepath.Join(dir, rangeName)
	var kept rangeFile
	if readJSON(path, &kept) == nil && kept.Key == d.Key() {
		return kept.Range, false, nil
	}
	start := time.Now()
	rng, err = tilesRange(ctx, d, func(t Tile) (*terrain.Heightmap, error) {
		return terrain.FractalRegionRaw(ctx, d.Params, t.Col, t.Row, d.Tile, d.Tile)
	})
	if err == nil && d.eroding() {
		var eroded Range
		eroded, err = tilesRange(ctx, d, func(t Tile) (*terrain.Heightmap, error) { return erodedTile(ctx, d, t, rng) })
		rng.Eroded = &eroded
	}
	if err != nil {
		return rng, true, err
	}
	if log != nil {
		fmt.Fprintf(log, "height range of %d tiles found in %v\n", len(d.Tiles()), time.Since(start).Round(time.Millisecond))
	}
	return rng, true, writeJSON(ctx, path, rangeFile{Key: d.Key(), Range: rng})
}

// tilesRange returns the lowest and highest height of the tiles tile
// makes, over every tile of d.
func tilesRange(ctx context.Context, d Description, tile func(Tile) (*terrain.Heightmap, error)) (Range, error) {
	var lo, hi float32
	for k, t := range d.Tiles() {
		m, err := tile(t)
		if err != nil {
			return Range{}, err
		}
		a, b := m.Range()
		if a-a != 0 || b-b != 0 { // NaN or ±Inf: FinishRegion names the parameters to change
			return Range{}, terrain.FinishRegion(ctx, m, d.Params, a, b)
		}
		if k == 0 {
			lo, hi = a, b
		}
		// The builtin min and max, as the whole map's normalisation takes
		// them: they order −0 below +0 and propagate NaN.
		lo, hi = min(lo, a), max(hi, b)
	}
	return Range{Low: float64(lo), High: float64(hi)}, nil
}

// finished reports whether tile t of d is in the folder whole: its record
// is d's, names a file of every format, and every file's checksum
// matches.
func finished(dir string, d Description, t Tile) bool {
	var rec record
	if readJSON(recordPath(dir, t), &rec) != nil || rec.Key != d.Key() || len(rec.Files) != len(d.Formats) {
		return false
	}
	for _, f := range rec.Files {
		sum, n, err := fileSHA256(filepath.Join(dir, f.Name))
		if err != nil || sum != f.SHA256 || n != f.Bytes {
			return false
		}
	}
	return true
}

// fileSHA256 returns the SHA-256 of the file at path and its length.
func fileSHA256(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	return hex.EncodeToString(h.Sum(nil)), n, err
}
