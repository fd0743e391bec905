// Package world builds a world too large for one map in memory as a folder
// of tiles: GeoTIFF tiles (and EXR or r16 copies), a GDAL VRT that mosaics
// them, and a manifest of the parameters, the tiles and their checksums.
//
// A fractal generator is a function of world coordinates, so a tile made
// on its own is bit for bit the same window of the whole map. The one
// step of generation that sees the whole map is the normalisation onto
// [0, 1] by the raw height range; a first pass over every tile finds that
// range exactly (the lowest and highest of the tiles' own), kept in the
// folder so that it is found once. Tiles can then be made in any order,
// any subset at a time and on any number of machines, and the same
// description always gives the same bytes. Thermal erosion is local, so
// a tile made with a halo as wide as its sweeps is eroded exactly as the
// whole map is (erode.go). Subdivision generators, droplets and rivers are
// refused: their samples depend on the whole map.
package world

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"cordillera/terrain"
)

// Description is a world to build: the generation parameters (Params.Size
// is the world's side in samples), how it is cut into tiles and the files
// each tile is written as. The same description gives the same bytes.
type Description struct {
	Params terrain.Params `json:"params"`
	// Tile is the side of a tile in samples. Neighbouring tiles share
	// their border samples, as game engines' terrain tiles do, so the
	// world's side is n·(Tile−1)+1 for n tiles per side.
	Tile int `json:"tile"`
	// Halo is the margin, in samples, a tile is made with beyond its
	// edges for stages that look at neighbours: thermal erosion needs one
	// of at least its sweeps; without erosion it must be 0.
	Halo int `json:"halo"`
	// Formats are the files of each tile: "tif" (16-bit GeoTIFF, always,
	// the VRT's source), "exr" (32-bit float metres), "r16".
	Formats []string `json:"formats"`
}

// describedJSON is a description as JSON: the world's side beside the
// parameters rather than as their size, which for a map held whole stops
// at terrain.MaxSize and would refuse a world's side on reading.
type describedJSON struct {
	World   int             `json:"world"`
	Tile    int             `json:"tile"`
	Halo    int             `json:"halo"`
	Formats []string        `json:"formats"`
	Params  json.RawMessage `json:"params"` // every parameter but size
}

// MarshalJSON writes the description with the world's side as "world".
func (d Description) MarshalJSON() ([]byte, error) {
	raw, err := json.Marshal(d.Params)
	if err != nil {
		return nil, err
	}
	var params map[string]json.RawMessage
	if err := json.Unmarshal(raw, &params); err != nil {
		return nil, err
	}
	delete(params, "size")
	if raw, err = json.Marshal(params); err != nil { // keys sorted: the same bytes every time
		return nil, err
	}
	return json.Marshal(describedJSON{d.Params.Size, d.Tile, d.Halo, d.Formats, raw})
}

// UnmarshalJSON reads what MarshalJSON writes; the parameters are checked
// as a parameter file's are.
func (d *Description) UnmarshalJSON(b []byte) error {
	var v describedJSON
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	p := terrain.DefaultParams()
	if err := p.UnmarshalJSON(v.Params); err != nil {
		return err
	}
	p.Size = v.World
	*d = Description{Params: p, Tile: v.Tile, Halo: v.Halo, Formats: v.Formats}
	return nil
}

// MaxTilesPerSide bounds the grid of tiles: 1024² tiles are a million
// records and a manifest of some hundred megabytes, the most a folder
// and one JSON file should hold.
const MaxTilesPerSide = 1024

// Formats lists the tile formats, in the order a tile's files are written.
var Formats = []string{"tif", "exr", "r16"}

// Tile is one tile of the world: its place in the grid of tiles (I from
// the west, J from the north) and its top-left sample in the world.
type Tile struct {
	I, J     int
	Col, Row int
}

// Name is the tile's name, x{I}_y{J}, as generate -tiles names tiles and
// World Machine and Unreal's tiled import expect.
func (t Tile) Name() string { return fmt.Sprintf("x%d_y%d", t.I, t.J) }

// Validate checks the description and says what to change: the
// parameters as for a region-by-region map, the generator and stages that
// can be tiled, the tile size against the world's, the halo and the
// formats.
func (d Description) Validate() error {
	p := d.Params
	if err := terrain.ValidateRegions(p); err != nil {
		return err
	}
	if !terrain.CanGenerateRegions(p) {
		return fmt.Errorf("algorithm %s cannot be built by tiles: a subdivision map's every sample depends on the coarser levels of the whole map; use a fractal algorithm (fbm, hetero, hybrid, quilez, ridged, billow, swiss) or generate it whole", p.Algorithm)
	}
	if d.Tile < 2 || d.Tile > terrain.MaxSize {
		return fmt.Errorf("tile %d: a tile has 2 to %d samples per side", d.Tile, terrain.MaxSize)
	}
	if d.Tile > p.Size || (p.Size-1)%(d.Tile-1) != 0 {
		n := max(1, (p.Size-1)/(d.Tile-1))
		return fmt.Errorf("world %d, tile %d: tiles of %d samples share their borders, so the world's side must be n·%d+1 (such as %d or %d)",
			p.Size, d.Tile, d.Tile, d.Tile-1, n*(d.Tile-1)+1, (n+1)*(d.Tile-1)+1)
	}
	if n := d.TilesPerSide(); n > MaxTilesPerSide {
		return fmt.Errorf("world %d in tiles of %d is %d tiles per side, more than %d: use larger tiles, such as %d",
			p.Size, d.Tile, n, MaxTilesPerSide, (p.Size-1)/MaxTilesPerSide+1)
	}
	if err := d.checkErosion(); err != nil {
		return err
	}
	return checkFormats(d.Formats)
}

// checkErosion accepts the erosion a tile with its halo makes exactly as
// the whole map does: none (and no halo), or thermal erosion alone with a
// halo of at least its sweeps (erode.go).
func (d Description) checkErosion() error {
	p := d.Params
	switch {
	case p.Erosion == "" || p.Erosion == "none":
		if d.Halo != 0 {
			return fmt.Errorf("halo %d: without erosion no stage looks beyond a tile's edge, so the halo must be 0", d.Halo)
		}
		return nil
	case p.Erosion != terrain.ThermalErosion:
		return fmt.Errorf("erosion %s cannot be built by tiles: droplets run far and are seeded over the whole map, and rivers drain the whole map, so a tile made alone differs from the whole map's; only thermal erosion alone is tiled exactly, or erode a map of up to %d² with generate", p.Erosion, terrain.MaxSize)
	case d.Halo < p.ThermalIterations:
		return fmt.Errorf("halo %d: thermal erosion's %d sweeps reach %d samples, so a tile equals the whole map only with a halo of at least %d", d.Halo, p.ThermalIterations, p.ThermalIterations, p.ThermalIterations)
	case d.Tile+2*d.Halo > terrain.MaxSize:
		return fmt.Errorf("tile %d with halo %d: a tile and its halo must fit in %d samples per side", d.Tile, d.Halo, terrain.MaxSize)
	}
	return nil
}

// checkFormats accepts a list of Formats, each once, with tif among them.
func checkFormats(formats []string) error {
	for i, f := range formats {
		if !slices.Contains(Formats, f) {
			return fmt.Errorf("format %q: want tif, exr or r16", f)
		}
		if slices.Contains(formats[:i], f) {
			return fmt.Errorf("format %s is listed twice", f)
		}
	}
	if !slices.Contains(formats, "tif") {
		return fmt.Errorf("formats %s: tif is needed, the VRT mosaic reads the GeoTIFF tiles", strings.Join(formats, ","))
	}
	return nil
}

// TilesPerSide is the number of tiles along each side of the world.
func (d Description) TilesPerSide() int { return (d.Params.Size - 1) / (d.Tile - 1) }

// Tiles lists the world's tiles row by row from the north-west.
func (d Description) Tiles() []Tile {
	n := d.TilesPerSide()
	tiles := make([]Tile, 0, n*n)
	for j := range n {
		for i := range n {
			tiles = append(tiles, Tile{I: i, J: j, Col: i * (d.Tile - 1), Row: j * (d.Tile - 1)})
		}
	}
	return tiles
}

// Key is the description's fingerprint: the SHA-256 of its JSON. Every
// file of a build records it, so that a folder is never taken to hold
// another description's tiles.
func (d Description) Key() string {
	b, err := json.Marshal(d)
	if err != nil { // a Description always marshals: numbers and strings
		panic("world: " + err.Error())
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Selection picks the tiles a build makes: all of them, those named in
// Only, or shard K of N (tiles K−1, K−1+N, … in Tiles' order, so shards
// share the rows evenly). Several machines building shards 1/N … N/N of
// one description make every tile once.
type Selection struct {
	Only []string // tile names (x0_y1); empty for all
	K, N int      // shard K of N, 1 ≤ K ≤ N; N = 0 for all
}

// pick returns the selected tiles, or an error naming a tile that is not
// in the world.
func (s Selection) pick(d Description) ([]Tile, error) {
	all := d.Tiles()
	if s.N > 0 && (s.K < 1 || s.K > s.N) {
		return nil, fmt.Errorf("shard %d/%d: want K/N with 1 ≤ K ≤ N", s.K, s.N)
	}
	var picked []Tile
	for k, t := range all {
		if s.N > 0 && k%s.N != s.K-1 {
			continue
		}
		if len(s.Only) > 0 && !slices.Contains(s.Only, t.Name()) {
			continue
		}
		picked = append(picked, t)
	}
	n := d.TilesPerSide()
	for _, name := range s.Only {
		if !slices.ContainsFunc(all, func(t Tile) bool { return t.Name() == name }) {
			return nil, fmt.Errorf("tile %q is not in the world: tiles are x0_y0 to x%d_y%d", name, n-1, n-1)
		}
	}
	return picked, nil
}
