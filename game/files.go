package game

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hajimehoshi/ebiten/v2"

	"cordillera/assets"
	"cordillera/route"
	"cordillera/terrain"
	"cordillera/terrain/heightfile"
)

// maxDropped bounds what a dropped or loaded file may weigh: a 16385²
// 16-bit map is 537 MB raw, far less as a PNG.
const maxDropped = 1 << 30

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

// DetectFile tells a heightmap (PNG, raw 16-bit) from a parameter file by
// content, not by name.
func DetectFile(data []byte) FileKind {
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return HeightmapPNG
	case bytes.HasPrefix(data, []byte("\x76\x2f\x31\x01")):
		return HeightmapEXR
	case bytes.HasPrefix(data, []byte("II*\x00")), bytes.HasPrefix(data, []byte("MM\x00*")):
		return HeightmapTIFF
	case len(trimmed) > 0 && trimmed[0] == '{':
		if bytes.Contains(trimmed, []byte(`"type"`)) { // GeoJSON names its type; parameters have no such key
			return RouteFile
		}
		return ParamsJSON
	case route.Detect(data) != "":
		return RouteFile
	case len(data) >= 8 && len(data)%2 == 0 && isSquare(len(data)/2):
		return HeightmapR16
	}
	return UnknownFile
}

func isSquare(n int) bool {
	for s := 1; s*s <= n; s++ {
		if s*s == n {
			return true
		}
	}
	return false
}

// LoadFile opens a heightmap or a parameter file; errors show in the UI
// and leave the current world as it is.
func (g *Game) LoadFile(path string) {
	data, err := readLimited(path)
	if err != nil {
		g.fail(err)
		return
	}
	g.loadData(path, data)
}

func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxDropped+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > maxDropped {
		return nil, fmt.Errorf("%s: larger than 1 GB, which is not a map Cordillera can open", path)
	}
	return data, nil
}

// loadData opens a file's content by its kind. Heightmaps are decoded and
// prepared on the background worker, like generated maps.
func (g *Game) loadData(name string, data []byte) {
	switch DetectFile(data) {
	case ParamsJSON:
		var p terrain.Params
		if err := p.UnmarshalJSON(data); err != nil {
			g.fail(fmt.Errorf("%s: %w", name, err))
			return
		}
		g.Params = p
		g.regen.Request(p)
		g.say("loaded parameters from " + filepath.Base(name))
	case RouteFile:
		t, err := route.Parse(data)
		if err != nil {
			g.fail(fmt.Errorf("%s: %w", name, err))
			return
		}
		g.regen.RequestRoute(g.Params, t)
		g.say("making terrain through " + filepath.Base(name))
	case HeightmapPNG, HeightmapR16, HeightmapEXR, HeightmapTIFF:
		kind := DetectFile(data)
		g.regen.RequestMap(func(ctx context.Context) (*terrain.Heightmap, error) {
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
		g.say("loading " + filepath.Base(name))
	default:
		g.fail(fmt.Errorf("%s: not a heightmap (PNG, .r16, EXR, TIFF), a parameter file (.json) or a route (GPX, TCX, KML, FIT, GeoJSON, CSV)", name))
	}
}

// decodeHeightmap reads a heightmap file's content of the given kind.
func decodeHeightmap(kind FileKind, data []byte) (*heightfile.Source, error) {
	r := bytes.NewReader(data)
	switch kind {
	case HeightmapPNG:
		m, err := heightfile.DecodeHeightmapImage(r)
		if err != nil {
			return nil, err
		}
		return &heightfile.Source{Map: m}, nil
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

// handleDrops opens files dropped onto the window.
func (g *Game) handleDrops() {
	dropped := ebiten.DroppedFiles()
	if dropped == nil {
		return
	}
	err := fs.WalkDir(dropped, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(dropped, path)
		if err != nil {
			return err
		}
		g.loadData(path, data)
		return nil
	})
	if err != nil {
		g.fail(err)
	}
}

// importMaterials replaces the built-in materials with a folder of PNGs.
func (g *Game) importMaterials(dir string) {
	atlas, n, err := assets.LoadMaterials(dir)
	if err != nil {
		g.fail(err)
		return
	}
	g.render.setAtlas(atlas)
	g.say(fmt.Sprintf("imported %d material images from %s", n, dir))
}

// errNoMap is a loader that produced nothing.
var errNoMap = errors.New("no map")
