package game

import (
	"context"
	"fmt"
	"image/color"
	"slices"

	"github.com/ebitengine/debugui"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"cordillera/internal/lesson"
	"cordillera/pipeline"
	"cordillera/terrain"
	"cordillera/terrain/erosion"
)

// The erosion lesson: a small map worn by droplets batch by batch (Beyer
// 2015), with play, pause and single steps, the paths of a few droplets of
// the last batch drawn on the terrain, and the mass budget in numbers.

const (
	erosionLessonSide   = 257                   // the lesson's map side: a batch takes milliseconds
	erosionLessonPasses = lesson.ErosionBatches // batches that make up one droplet per cell at the default density
	erosionPathsShown   = 24                    // droplet paths drawn per batch
)

// erosionLesson is the state of the erosion lesson.
type erosionLesson struct {
	start  *terrain.Heightmap // the uneroded map
	m      *terrain.Heightmap // the map as worn so far
	pass   int                // batches run
	batch  int                // droplets per batch
	paths  []erosion.DropletPath
	budget erosion.Budget
}

// buildErosionLesson makes the lesson's map from the Generator's parameters
// without their erosion, at most erosionLessonSide samples per side.
func (g *Game) buildErosionLesson() {
	t := &g.teach
	p := g.Params
	p.Erosion = "none"
	p.Size = min(p.Size, erosionLessonSide)
	if p.Algorithm.IsSubdivision() {
		p.Size = erosionLessonSide
	}
	w, err := pipeline.Generate(context.Background(), p, pipeline.Options{})
	if err != nil {
		g.ui.fail(err)
		return
	}
	m := w.Map
	// The extent of the other lessons (the default world's, which the
	// overview frames), with the world's proportion of relief to extent.
	m.CellSize = lessonCell(m.Width)
	m.VerticalScale *= 1024 / (g.Params.CellSize * float64(g.Params.Size-1))
	start := *m
	start.Samples = append([]float32(nil), m.Samples...)
	droplets := max(g.Params.HydraulicDroplets, 0.25) * float64(m.Width*m.Height)
	t.erosion = erosionLesson{start: &start, m: m, batch: max(int(droplets)/erosionLessonPasses, 1)}
	g.showErosionMap()
}

// showErosionMap shows a copy of the lesson's map: the world's map is read
// on other goroutines (the light and shadow maps are made from it) while
// the next batch of droplets wears the lesson's own.
func (g *Game) showErosionMap() {
	m := *g.teach.erosion.m
	m.Samples = slices.Clone(m.Samples)
	g.showLessonWorld(&m)
}

// erosionStep runs the next batch of droplets, keeping the first few paths.
func (g *Game) erosionStep() {
	e := &g.teach.erosion
	if e.m == nil || e.pass >= lesson.MaxBatches { // as far as a link can name
		return
	}
	paths, b := erosion.TraceDroplets(e.m, g.Params, e.batch, g.Params.Seed+int64(e.pass))
	e.pass++
	e.paths = paths[:min(len(paths), erosionPathsShown)]
	e.budget = e.budget.Add(b)
	g.showErosionMap()
}

// erosionReset puts the uneroded map back.
func (g *Game) erosionReset() {
	e := &g.teach.erosion
	if e.start == nil {
		return
	}
	m := *e.start
	m.Samples = append([]float32(nil), e.start.Samples...)
	e.m, e.pass, e.paths, e.budget = &m, 0, nil, erosion.Budget{}
	g.teach.playing = false
	g.showErosionMap()
}

// erosionPanel is the Teach panel's part for the erosion lesson.
func (g *Game) erosionPanel(ctx *debugui.Context) {
	t := &g.teach
	ctx.SetGridLayout([]int{-1, -1, -1}, nil)
	play := "Play"
	if t.playing {
		play = "Pause"
	}
	ctx.Button(play).On(func() { t.playing = !t.playing })
	ctx.Button("Step").On(func() { t.playing = false; g.erosionStep() })
	ctx.Button("Reset").On(g.erosionReset)
	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Text(g.erosionText())
}

// erosionText is the lesson's state and mass budget.
func (g *Game) erosionText() string {
	e := &g.teach.erosion
	b := e.budget
	// Lines of at most 50 characters: the panel's width.
	text := fmt.Sprintf("Batch %d: %d droplets of %d (%.2f per cell)\n"+
		"Each droplet runs downhill with inertia %g and\n"+
		"carries up to max(slope, %g)·speed·water·%g;\n"+
		"it erodes %g and deposits %g of the difference,\n"+
		"evaporates %g per step and lives %d steps.",
		e.pass, e.pass*e.batch, erosionLessonPasses*e.batch, float64(e.pass*e.batch)/float64(max(len(e.start.Samples), 1)),
		g.Params.HydraulicInertia, g.Params.HydraulicMinSlope, g.Params.HydraulicCapacity, g.Params.HydraulicErosion,
		g.Params.HydraulicDeposition, g.Params.HydraulicEvaporation, g.Params.HydraulicLifetime)
	if b.Eroded > 0 {
		text += fmt.Sprintf("\nEroded %s = deposited %s\n+ in the droplets when they died %s\n+ carried off the map %s\n(balance %.2g m³)",
			volume(b.Eroded), volume(b.Deposited), volume(b.Suspended), volume(b.CarriedOff), b.Eroded-b.Deposited-b.Suspended-b.CarriedOff)
	}
	return text
}

// updateErosionLesson runs a batch every few frames while playing.
func (g *Game) updateErosionLesson() {
	t := &g.teach
	if !t.playing {
		return
	}
	t.tick++
	if t.tick%6 != 0 {
		return
	}
	if t.erosion.pass >= erosionLessonPasses {
		t.playing = false
		return
	}
	g.erosionStep()
}

// dropletColour draws the droplets' paths: water blue, bright on any ground.
var dropletColour = color.RGBA{40, 170, 255, 255}

// drawDropletPaths draws the last batch's first paths on the terrain as
// lines, in the 3D view (over the terrain: a path behind a hill still
// shows, which helps to follow it).
func (g *Game) drawDropletPaths(screen *ebiten.Image) {
	e := &g.teach.erosion
	vr := g.viewRect(screen.Bounds().Dx(), screen.Bounds().Dy())
	p := newProjector(viewProjection(g.Camera, vr.Dx(), vr.Dy()), vr.Dx(), vr.Dy(), g.Camera.Near)
	screen = screen.SubImage(vr).(*ebiten.Image) // clipped to the view, in the screen's coordinates
	at := func(v ebiten.Vertex) (float32, float32) {
		return float32(vr.Min.X) + v.DstX, float32(vr.Min.Y) + v.DstY
	}
	lift := float32(e.m.CellSize) // above the ground, so the line is not half buried
	for _, path := range e.paths {
		var prev *ebiten.Vertex
		for _, q := range path {
			pos := mgl32.Vec3{float32(q[0]), float32(q[1]) + lift, float32(q[2])}
			if p.clipW(pos) < p.near {
				prev = nil
				continue
			}
			v := p.vertex(surfaceVertex{pos: pos})
			if prev != nil {
				x0, y0 := at(*prev)
				x1, y1 := at(v)
				vector.StrokeLine(screen, x0, y0, x1, y1, 2, dropletColour, true)
			}
			prev = &v
		}
		if len(path) > 0 { // where the droplet started
			q := path[0]
			pos := mgl32.Vec3{float32(q[0]), float32(q[1]) + lift, float32(q[2])}
			if p.clipW(pos) >= p.near {
				x, y := at(p.vertex(surfaceVertex{pos: pos}))
				vector.FillCircle(screen, x, y, 3, dropletColour, true)
			}
		}
	}
}
