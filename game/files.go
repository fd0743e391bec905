package game

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/hajimehoshi/ebiten/v2"

	"cordillera/assets"
	"cordillera/game/fileopen"
	"cordillera/terrain"
)

// pollFiles applies the files finished reading since the last frame.
func (g *Game) pollFiles() {
	for {
		o, ok := g.files.Poll()
		if !ok {
			return
		}
		g.applyOpened(o)
	}
}

// LoadFile opens a heightmap, a parameter file or a route; it is read and
// parsed in the background, and errors show in the UI and leave the
// current world as it is.
func (g *Game) LoadFile(path string) {
	g.ui.say("reading " + filepath.Base(path))
	g.files.Start(path, fileopen.Path(path))
}

// applyOpened makes the world of a file read in the background.
func (g *Game) applyOpened(o fileopen.Opened) {
	if o.Err != nil {
		g.ui.fail(o.Err)
		return
	}
	name := o.Name
	if o.Materials != nil {
		g.render.setAtlas(o.Materials)
		g.ui.say(fmt.Sprintf("imported %d material images from %s", o.NMaterial, name))
		return
	}
	switch o.Kind {
	case fileopen.Params:
		g.Params = o.Params
		g.gen.regen.Request(o.Params)
		g.ui.say("loaded parameters from " + filepath.Base(name))
	case fileopen.Route:
		g.gen.regen.RequestRoute(g.Params, o.Track)
		g.ui.say("making terrain through " + filepath.Base(name))
	default:
		kind, data := o.Kind, o.Data
		g.gen.regen.RequestMap(func(ctx context.Context) (*terrain.Heightmap, error) {
			src, err := fileopen.DecodeHeightmap(kind, data)
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

// handleDrops applies files read since the last frame and opens files
// dropped onto the window: only the files at the top of the drop, at most
// fileopen.MaxDrop of them; folders are not walked.
func (g *Game) handleDrops() {
	g.pollFiles()
	dropped := ebiten.DroppedFiles()
	if dropped == nil {
		return
	}
	names, skipped, err := fileopen.DropEntries(dropped)
	if err != nil {
		g.ui.fail(err)
		return
	}
	for _, name := range names {
		g.files.Start(name, fileopen.Dropped(dropped, name))
	}
	if len(skipped) > 0 {
		g.ui.fail(fmt.Errorf("dropped %s not opened: drop at most %d map, parameter or route files, not folders",
			fileopen.JoinNames(skipped), fileopen.MaxDrop))
	}
}

// importMaterials replaces the built-in materials with a folder of PNGs.
// The files are read and the atlas built off the UI goroutine, through
// the input checks (a FIFO named sand.png would block the window for
// ever, eight large PNGs take seconds); pollFiles puts the atlas in place.
func (g *Game) importMaterials(dir string) {
	g.ui.say("reading materials from " + dir)
	g.files.InBackground(func() fileopen.Opened {
		atlas, n, err := assets.LoadMaterials(dir)
		return fileopen.Opened{Name: dir, Materials: atlas, NMaterial: n, Err: err}
	})
}

// errNoMap is a loader that produced nothing.
var errNoMap = errors.New("no map")
