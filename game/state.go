package game

import (
	"encoding/json"
	"io"
	"os"
	"sync/atomic"

	"cordillera/internal/atomicfile"
	"cordillera/terrain"
)

// StateFileEnv names the environment variable that, when set, makes the
// explorer write its state as JSON to that file every few ticks: what the
// end-to-end tests read where pixels alone would not tell (the camera's
// position, which world is shown, what the UI said).
const StateFileEnv = "CORDILLERA_STATE_FILE"

// stateEvery is how many ticks pass between two writes of the state file.
const stateEvery = 5

// State is what the state file holds.
type State struct {
	Tick      int64          `json:"tick"`
	Camera    CameraState    `json:"camera"`
	WorldID   uint64         `json:"world_id"` // grows each time a new world is shown
	MapWidth  int            `json:"map_width"`
	MapHeight int            `json:"map_height"`
	Extent    [2]float64     `json:"extent"` // world width and depth
	Params    terrain.Params `json:"params"`
	Busy      bool           `json:"busy"`
	Message   string         `json:"message"`
	IsError   bool           `json:"is_error"`
	Minimap   [4]int         `json:"minimap"` // x0, y0, x1, y1 on the screen
	// MinimapArea is the world rectangle the minimap spans, x0, z0, x1,
	// z1: the map's extent, or more with the land beyond the map around it.
	MinimapArea [4]float64 `json:"minimap_area"`
	Screen      [2]int     `json:"screen"`
	Wireframe   bool       `json:"wireframe"`
	ShowUI      bool       `json:"show_ui"`
	MapSumHash  float64    `json:"map_checksum"` // sum of the samples: tells maps apart
	Teach       TeachState `json:"teach"`
	Path        string     `json:"path"`   // the File panel's path field
	Panels      []string   `json:"panels"` // the panels and sections unfolded, in the order built
	View        Viewer     `json:"view"`
	// Redraws counts the frames that drew the 3D view (the others copy
	// the last one).
	Redraws int64 `json:"redraws"`
	// Draws counts the frames drawn.
	Draws int64 `json:"draws"`
}

// TeachState is the lesson part of State.
type TeachState struct {
	Mode   string `json:"mode"`   // off, subdivision, octaves or erosion
	Stage  int    `json:"stage"`  // subdivision stages shown
	Stages int    `json:"stages"` // of how many
	Added  int    `json:"added"`  // points the current stage added
	Octave int    `json:"octave"` // octaves shown
	Batch  int    `json:"batch"`  // erosion lesson: droplet batches run
	// Droplet is the erosion lesson's droplets run one at a time (0 in
	// its batch mode), DropletSteps and DropletFate the last one's path
	// length in steps and how it ended, as its panel gives them.
	Droplet      int    `json:"droplet"`
	DropletSteps int    `json:"droplet_steps"`
	DropletFate  string `json:"droplet_fate,omitempty"`
	// Step is the thermal lesson's sweeps or the fluvial lesson's time
	// steps run: a link's step=.
	Step int `json:"step"`
	// Picked is the step-through diagram's point clicked, (col, row), and
	// Point its values as the Teach panel gives them.
	Picked *[2]int `json:"picked,omitempty"`
	Point  string  `json:"point,omitempty"`
}

// CameraState is the camera part of State.
type CameraState struct {
	X, Y, Z    float32
	Yaw, Pitch float32 // degrees
	Mode       string
	Speed      float32 // flying speed, world units per second
}

var worldSerial atomic.Uint64

// writeState writes the state file when one is asked for.
func (g *Game) writeState(tick int64) {
	path := os.Getenv(StateFileEnv)
	if path == "" || tick%stateEvery != 0 {
		return
	}
	data, err := json.Marshal(g.state(tick))
	if err != nil {
		return
	}
	_ = atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// state is what the explorer shows at tick: the state file's content.
func (g *Game) state(tick int64) State {
	c := g.Camera
	r := g.World.Minimap.Rect(g.viewRect(g.ui.w, g.ui.h))
	busy, _ := g.gen.regen.Status()
	sum := g.mapSum()
	ew, ed := g.World.Map.Extent()
	mx0, mz0, mx1, mz1 := g.World.Minimap.bounds()
	s := State{
		Tick:    tick,
		Camera:  CameraState{X: c.Pos[0], Y: c.Pos[1], Z: c.Pos[2], Yaw: radToDeg(c.Yaw), Pitch: radToDeg(c.Pitch), Mode: c.Mode.String(), Speed: c.Speed},
		WorldID: g.gen.worldID, MapWidth: g.World.Map.Width, MapHeight: g.World.Map.Height, Extent: [2]float64{ew, ed},
		Params: g.Params, Busy: busy, Message: g.ui.message, IsError: g.ui.isError,
		Minimap: [4]int{r.Min.X, r.Min.Y, r.Max.X, r.Max.Y}, MinimapArea: [4]float64{mx0, mz0, mx1, mz1}, Screen: [2]int{g.ui.w, g.ui.h},
		Wireframe: g.View.Wireframe, ShowUI: g.ShowUI, MapSumHash: sum,
		Teach: TeachState{Mode: teachModes[g.teach.mode], Stage: g.teach.k, Octave: g.teach.octK, Batch: g.teach.erosion.pass},
		Path:  g.ui.path, Panels: g.ui.unfolded, View: g.View, Redraws: g.scene.view.redraws, Draws: g.scene.view.draws,
	}
	g.teachStateOfWear(&s.Teach)
	if st := g.teach.stepper; st != nil && g.teach.mode == teachSubdivision {
		s.Teach.Stages = len(st.Steps())
		s.Teach.Picked, s.Teach.Point = g.teach.picked, g.teach.pointText()
		if g.teach.k > 0 {
			s.Teach.Added = len(st.Steps()[g.teach.k-1].Added)
		}
	}
	return s
}

// teachStateOfWear fills in where the erosion, thermal and fluvial lessons
// stand: what a link to them would give as droplet= or step=.
func (g *Game) teachStateOfWear(s *TeachState) {
	t := &g.teach
	switch t.mode {
	case teachErosion:
		if d := t.erosion.drops; d != nil {
			s.Droplet = d.Done()
			if s.Droplet > 0 {
				s.DropletSteps, s.DropletFate = len(t.erosion.drop.Steps), t.erosion.drop.Fate
			}
		}
	case teachThermal:
		s.Step = t.thermal.sweep
	case teachFluvial:
		s.Step = t.fluvial.step
	}
}

// mapSum is the sum of the shown map's heights, a fingerprint the tests
// compare. It is summed once per world (a teaching step is a new world),
// not each time the state is published.
func (g *Game) mapSum() float64 {
	if g.gen.sumOf.id != g.gen.worldID || g.gen.sumOf.m != g.World.Map {
		g.gen.sumOf.id, g.gen.sumOf.m, g.gen.sumOf.sum = g.gen.worldID, g.World.Map, 0
		for _, v := range g.World.Map.Samples {
			g.gen.sumOf.sum += float64(v)
		}
	}
	return g.gen.sumOf.sum
}

func radToDeg(r float32) float32 { return r * 180 / 3.14159265358979 }
