package game

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
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
// the last batch drawn on the terrain, and the mass budget in numbers; or
// one droplet at a time, the hydraulic stage's own droplets in turn
// (erosion.DropletStepper), each shown with its state at every step, its
// path coloured by what it did, the change it made and the change of all
// so far, with a back step that undoes it exactly.

const (
	erosionLessonSide   = lesson.WearSide       // the lesson's largest map side
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

	// One droplet at a time: drops runs them (nil in the batch mode),
	// drop is the last one run, prev the map before it.
	drops *erosion.DropletStepper
	drop  erosion.Droplet
	prev  []float32
	// The diagrams of the droplet mode, drawn anew when nil.
	dropImg, allImg *ebiten.Image
}

// buildErosionLesson makes the lesson's map from the Generator's parameters
// without their erosion, at most lesson.WearSide samples per side.
func (g *Game) buildErosionLesson() {
	t := &g.teach
	m, err := g.wearLessonMap()
	if err != nil {
		g.ui.fail(err)
		return
	}
	start := *m
	start.Samples = append([]float32(nil), m.Samples...)
	droplets := max(g.Params.HydraulicDroplets, 0.25) * float64(m.Width*m.Height)
	t.erosion.freeImages()
	t.erosion = erosionLesson{start: &start, m: m, batch: max(int(droplets)/erosionLessonPasses, 1)}
	g.showErosionMap()
}

// wearLessonMap makes the map the erosion, thermal and fluvial lessons
// wear: the Generator's parameters without their erosion, at most
// lesson.WearSide samples per side.
func (g *Game) wearLessonMap() (*terrain.Heightmap, error) {
	p := g.Params
	p.Erosion = "none"
	p.Size = lesson.WearSize(p) // as a link's point= is checked against

	w, err := pipeline.Generate(context.Background(), p, pipeline.Options{})
	if err != nil {
		return nil, err
	}
	m := w.Map
	// The extent of the other lessons (the default world's, which the
	// overview frames), with the world's proportion of relief to extent.
	m.CellSize = lessonCell(m.Width)
	m.VerticalScale *= 1024 / (g.Params.CellSize * float64(g.Params.Size-1))
	return m, nil
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
	if e.drops != nil { // from single droplets to batches: from the start
		g.erosionReset()
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
	e.drops, e.drop, e.prev = nil, erosion.Droplet{}, nil
	e.freeImages()
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
	ctx.SetGridLayout([]int{-1, -1}, nil)
	ctx.Button("< Back a droplet").On(func() { t.playing = false; g.dropletBack() })
	ctx.Button("One droplet >").On(func() { t.playing = false; g.dropletStep() })
	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Text(g.erosionText())
}

// erosionText is the lesson's state and mass budget.
func (g *Game) erosionText() string {
	e := &g.teach.erosion
	if e.drops != nil {
		return g.dropletText()
	}
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

// freeImages lets the droplet diagrams go.
func (e *erosionLesson) freeImages() {
	for _, im := range []*ebiten.Image{e.dropImg, e.allImg} {
		if im != nil {
			im.Deallocate()
		}
	}
	e.dropImg, e.allImg = nil, nil
}

// startDroplets puts the uneroded map back and prepares the stage's
// droplets for running one at a time.
func (g *Game) startDroplets() bool {
	e := &g.teach.erosion
	if e.start == nil {
		return false
	}
	g.erosionReset()
	p := g.Params
	p.HydraulicDroplets = max(p.HydraulicDroplets, 0.25) // as the batches: a lesson with droplets to show
	s, err := erosion.NewDropletStepper(e.start, p)
	if err != nil {
		g.ui.fail(err)
		return false
	}
	e.drops = s
	return true
}

// dropletStep runs the next droplet of the stage and shows it.
func (g *Game) dropletStep() {
	e := &g.teach.erosion
	if e.drops == nil && !g.startDroplets() {
		return
	}
	e.prev = slices.Clone(e.m.Samples)
	d, ok := e.drops.Next()
	if !ok {
		return
	}
	e.drop = d
	e.drops.Store(e.m)
	e.freeImages()
	g.showErosionMap()
	g.frameDroplet()
}

// dropletFrame is where the droplet's path is framed: the view's middle,
// between its table on the left and its diagrams and text on the right.
var dropletFrame = frameMargins{side: 0.3, bottom: 0.7, top: 0.5}

// dropletFrameCells is the least side, in cells, of the square framed
// around a droplet's path: a short path is shown with the land around it,
// not magnified into a blur.
const dropletFrameCells = 24

// frameDroplet frames the droplet shown, its path and brush, in the middle
// of the view; it leaves the camera where it is when no droplet has a step.
func (g *Game) frameDroplet() {
	e := &g.teach.erosion
	d := e.drop
	if len(d.Steps) == 0 {
		return
	}
	x0, y0, n := e.dropletBox(max(g.Params.HydraulicRadius, 1))
	n = max(n, dropletFrameCells)
	cell := e.m.CellSize
	cx, cy := float64(x0)+float64(n)/2, float64(y0)+float64(n)/2
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range d.Steps {
		lo, hi = math.Min(lo, s.Height), math.Max(hi, s.Height)
	}
	var box []mgl32.Vec3
	for _, x := range []float64{cx - float64(n)/2, cx + float64(n)/2} {
		for _, y := range []float64{cy - float64(n)/2, cy + float64(n)/2} {
			for _, h := range []float64{lo, hi + cell} { // the track is drawn a cell above the ground
				box = append(box, mgl32.Vec3{float32(x * cell), float32(h), float32(y * cell)})
			}
		}
	}
	vr := g.viewRect(g.ui.w, g.ui.h)
	if vr.Empty() {
		vr = g.viewRect(ScreenWidth, ScreenHeight)
	}
	centre := mgl32.Vec3{float32(cx * cell), float32((lo + hi) / 2), float32(cy * cell)}
	g.frameBox(vr, box, centre, float64(n)*cell, dropletFrame)
}

// dropletBack takes the last droplet back, exactly, and shows the one
// before it as it was shown.
func (g *Game) dropletBack() {
	e := &g.teach.erosion
	if e.drops == nil || e.drops.Done() == 0 {
		return
	}
	e.drops.Back()
	e.drop, e.prev = erosion.Droplet{}, nil
	if e.drops.Done() > 0 {
		// The droplet before: taken back and run again, which gives the
		// same bits, so that its track and the map before it are shown.
		e.drops.Back()
		e.drops.Store(e.m)
		e.prev = slices.Clone(e.m.Samples)
		e.drop, _ = e.drops.Next()
	}
	e.drops.Store(e.m)
	e.freeImages()
	g.showErosionMap()
	g.frameDroplet()
}

// openDroplet shows the k-th droplet of the stage, after the k−1 before
// it (the last one if the stage has fewer).
func (g *Game) openDroplet(k int) {
	e := &g.teach.erosion
	if !g.startDroplets() {
		return
	}
	for range min(k, e.drops.Total()) - 1 {
		e.drops.Next()
	}
	e.drops.Store(e.m)
	g.dropletStep()
}

// dropletText is the droplet mode's text: the droplet shown, Beyer's
// rules with their constants, and the mass budget.
func (g *Game) dropletText() string {
	e := &g.teach.erosion
	p := g.Params
	d := e.drop
	text := fmt.Sprintf("Droplet %d of %d (round %d, tile %d, its no. %d)\n", e.drops.Done(), e.drops.Total(), d.Round+1, d.Tile, d.Index)
	if e.drops.Done() == 0 {
		text = fmt.Sprintf("No droplet yet, of %d\n", e.drops.Total())
	}
	text += fmt.Sprintf("starts with speed 1, water 1, no sediment;\n"+
		"each step: dir = dir·%g − ∇h·%g, normalised;\n"+
		"c = max(−Δh/cell, %g)·speed·water·%g·cell;\n"+
		"uphill: deposit min(Δh, sediment); over c:\n"+
		"deposit %g·(sediment − c); else erode\n"+
		"min(%g·(c − sediment), −Δh) with a radius-%d brush;\n"+
		"speed = √(speed² − %g·Δh/cell), water ·= %g",
		p.HydraulicInertia, 1-p.HydraulicInertia, p.HydraulicMinSlope, p.HydraulicCapacity, p.HydraulicDeposition,
		p.HydraulicErosion, max(p.HydraulicRadius, 1), p.HydraulicGravity, 1-p.HydraulicEvaporation)
	if len(d.Steps) > 0 {
		fate := map[string]string{"lifetime": fmt.Sprintf("its lifetime, %d steps", p.HydraulicLifetime), "left the map": "leaving the map"}[d.Fate]
		text += fmt.Sprintf("\nIt ended at %s:\neroded %s, deposited %s, left with %s",
			fate, volume(d.Moved.Eroded), volume(d.Moved.Deposited), volume(d.Moved.Suspended+d.Moved.CarriedOff))
	} else if e.drops.Done() > 0 {
		text += "\nIt started off the map's inner samples: no step."
	}
	if b := e.drops.Budget(); b.Eroded > 0 {
		text += fmt.Sprintf("\nAll %d: eroded %s = deposited %s\n+ suspended %s + carried off %s",
			e.drops.Done(), volume(b.Eroded), volume(b.Deposited), volume(b.Suspended), volume(b.CarriedOff))
	}
	return text
}

// Colours of a droplet's path by what each step did.
var (
	erodeColour   = color.RGBA{255, 140, 0, 255} // took material
	depositColour = color.RGBA{0, 225, 255, 255} // laid it down
	carryColour   = color.RGBA{245, 245, 245, 255}
)

// stepColour is the colour of a droplet's step.
func stepColour(s erosion.DropletStep) color.RGBA {
	switch {
	case s.Eroded > 0:
		return erodeColour
	case s.Deposited > 0:
		return depositColour
	}
	return carryColour
}

// diverging is the colour of a height change v on a scale of ±scale:
// red where the ground was lowered, blue where it was raised, dark grey
// where it is unchanged (the square root lifts small changes into view).
func diverging(v, scale float64) color.RGBA {
	if scale <= 0 || v == 0 {
		return color.RGBA{38, 38, 42, 255}
	}
	t := math.Sqrt(min(math.Abs(v)/scale, 1))
	if v < 0 {
		return color.RGBA{uint8(38 + 210*t), uint8(38 + 20*t), uint8(42 - 20*t), 255}
	}
	return color.RGBA{uint8(38 - 10*t), uint8(38 + 110*t), uint8(42 + 213*t), 255}
}

// secondDiagramRect is the diagram left of diagramRect on a screen w wide.
func secondDiagramRect(w int) image.Rectangle {
	return diagramRect(w).Sub(image.Pt(diagramSide+12, 0))
}

// fieldImage draws the cells [x0, x0+n)×[y0, y0+n) of a w-wide field into
// a diagramSide² image, each pixel the nearest cell's colour.
func fieldImage(w, h, x0, y0, n int, colour func(i int) color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, diagramSide, diagramSide))
	for py := range diagramSide {
		for px := range diagramSide {
			x, y := x0+px*n/diagramSide, y0+py*n/diagramSide
			c := color.RGBA{20, 20, 24, 255}
			if x >= 0 && y >= 0 && x < w && y < h {
				c = colour(y*w + x)
			}
			img.SetRGBA(px, py, c)
		}
	}
	return img
}

// dropletBox is the square of cells the droplet diagram shows: the
// droplet's path and its brush around it.
func (e *erosionLesson) dropletBox(radius int) (x0, y0, n int) {
	d := e.drop
	lox, loy, hix, hiy := d.End.X, d.End.Y, d.End.X, d.End.Y
	for _, s := range d.Steps {
		lox, loy, hix, hiy = min(lox, s.X), min(loy, s.Y), max(hix, s.X), max(hiy, s.Y)
	}
	pad := float64(radius + 2)
	n = int(math.Ceil(max(hix-lox, hiy-loy, 12) + 2*pad))
	cx, cy := (lox+hix)/2, (loy+hiy)/2
	return int(math.Floor(cx - float64(n)/2)), int(math.Floor(cy - float64(n)/2)), n
}

// maxChange is the largest |a − b| over the cells i for which in is true.
func maxChange(a, b []float32, vs float64, in func(i int) bool) float64 {
	var m float64
	for i := range a {
		if in(i) {
			m = max(m, math.Abs(float64(a[i])-float64(b[i]))*vs)
		}
	}
	return m
}

// dropletDiagrams draws the droplet mode's two diagrams: the last
// droplet's change around its path, zoomed, with the path; and the change
// of all droplets so far over the whole map.
func (e *erosionLesson) dropletDiagrams(radius int) (one, all float64) {
	m := e.m
	w, h, vs := m.Width, m.Height, m.VerticalScale
	all = maxChange(m.Samples, e.start.Samples, vs, func(int) bool { return true })
	if e.allImg == nil {
		img := fieldImage(w, h, 0, 0, w, func(i int) color.RGBA {
			return diverging((float64(m.Samples[i])-float64(e.start.Samples[i]))*vs, all)
		})
		e.allImg = ebiten.NewImageFromImage(img)
		e.strokePath(e.allImg, 0, 0, w, 1)
	}
	if e.prev == nil {
		return 0, all
	}
	x0, y0, n := e.dropletBox(radius)
	one = maxChange(m.Samples, e.prev, vs, func(i int) bool {
		x, y := i%w, i/w
		return x >= x0 && y >= y0 && x < x0+n && y < y0+n
	})
	if e.dropImg == nil {
		img := fieldImage(w, h, x0, y0, n, func(i int) color.RGBA {
			return diverging((float64(m.Samples[i])-float64(e.prev[i]))*vs, one)
		})
		e.dropImg = ebiten.NewImageFromImage(img)
		e.strokePath(e.dropImg, x0, y0, n, 3)
	}
	return one, all
}

// strokePath draws the droplet's path on a diagram of the cells
// [x0, x0+n)², each step in the colour of what it did, its start a
// white disc.
func (e *erosionLesson) strokePath(img *ebiten.Image, x0, y0, n int, width float32) {
	d := e.drop
	if len(d.Steps) == 0 {
		return
	}
	scale := float64(diagramSide) / float64(n)
	at := func(x, y float64) (float32, float32) {
		return float32((x - float64(x0) + 0.5) * scale), float32((y - float64(y0) + 0.5) * scale)
	}
	for k, s := range d.Steps {
		next := d.End
		if k+1 < len(d.Steps) {
			next = d.Steps[k+1]
		}
		ax, ay := at(s.X, s.Y)
		bx, by := at(next.X, next.Y)
		vector.StrokeLine(img, ax, ay, bx, by, width, stepColour(s), true)
	}
	x, y := at(d.Steps[0].X, d.Steps[0].Y)
	vector.FillCircle(img, x, y, width+1.5, carryColour, true)
}

// drawDroplet draws the droplet mode's overlays: the droplet's path in the
// 3D view coloured by what each step did, the two change diagrams at the
// top right, and the droplet's state at every step in a table at the
// left.
func (g *Game) drawDroplet(screen *ebiten.Image) {
	e := &g.teach.erosion
	if e.drops == nil {
		return
	}
	w := screen.Bounds().Dx()
	one, all := e.dropletDiagrams(max(g.Params.HydraulicRadius, 1))
	label := func(r image.Rectangle, s string) {
		vector.FillRect(screen, float32(r.Min.X), float32(r.Max.Y), float32(r.Dx()), debugLineH+4, captionBack, false)
		drawPanelText(screen, s, r.Min.X+4, r.Max.Y+2, captionText)
	}
	for _, c := range []struct {
		img  *ebiten.Image
		r    image.Rectangle
		text string
	}{
		{e.allImg, secondDiagramRect(w), fmt.Sprintf("all %d: after − before, ±%.3g m", e.drops.Done(), all)},
		{e.dropImg, diagramRect(w), fmt.Sprintf("droplet %d: its change, ±%.3g m", e.drops.Done(), one)},
	} {
		if c.img == nil {
			continue
		}
		op := &ebiten.DrawImageOptions{}
		op.GeoM.Translate(float64(c.r.Min.X), float64(c.r.Min.Y))
		screen.DrawImage(c.img, op)
		label(c.r, c.text)
	}
	d := e.drop
	if len(d.Steps) == 0 {
		return
	}
	g.drawDropletTrack(screen)
	g.drawDropletTable(screen)
}

// drawDropletTrack draws the droplet's path on the terrain in the 3D
// view, each step in the colour of what it did.
func (g *Game) drawDropletTrack(screen *ebiten.Image) {
	e := &g.teach.erosion
	d := e.drop
	vr := g.viewRect(screen.Bounds().Dx(), screen.Bounds().Dy())
	p := newProjector(viewProjection(g.Camera, vr.Dx(), vr.Dy()), vr.Dx(), vr.Dy(), g.Camera.Near)
	view := screen.SubImage(vr).(*ebiten.Image)
	cell, lift := e.m.CellSize, float32(e.m.CellSize)
	at := func(x, y, hgt float64) (float32, float32, bool) {
		pos := mgl32.Vec3{float32(x * cell), float32(hgt) + lift, float32(y * cell)}
		if p.clipW(pos) < p.near {
			return 0, 0, false
		}
		v := p.vertex(surfaceVertex{pos: pos})
		return float32(vr.Min.X) + v.DstX, float32(vr.Min.Y) + v.DstY, true
	}
	end := d.End
	if end.Height == 0 { // it left the map: its last height is the last step's
		end.Height = d.Steps[len(d.Steps)-1].Height
	}
	for k, s := range d.Steps {
		next := end
		if k+1 < len(d.Steps) {
			next = d.Steps[k+1]
		}
		x0, y0, ok0 := at(s.X, s.Y, s.Height)
		x1, y1, ok1 := at(next.X, next.Y, next.Height)
		if ok0 && ok1 {
			vector.StrokeLine(view, x0, y0, x1, y1, 4, stepColour(s), true)
		}
	}
	if x, y, ok := at(d.Steps[0].X, d.Steps[0].Y, d.Steps[0].Height); ok {
		vector.FillCircle(view, x, y, 5, carryColour, true)
	}
}

// dropletRows are the droplet table's rows: the state at each step.
func (g *Game) dropletRows() []string {
	d := g.teach.erosion.drop
	var rows []string
	for k, s := range d.Steps {
		row := fmt.Sprintf("%3d %7.2f %7.2f %7.3f %6.3f %9.4f %9.4f %7.3f", k, s.X, s.Y, s.Speed, s.Water, s.Sediment, s.Capacity, s.DeltaH)
		if k == len(d.Steps)-1 && d.Fate == "left the map" {
			row = fmt.Sprintf("%3d %7.2f %7.2f %7.3f %6.3f %9.4f   leaves the map", k, s.X, s.Y, s.Speed, s.Water, s.Sediment)
		}
		rows = append(rows, row)
	}
	return rows
}

// dropletUnits is the table's last line: the cell the x, y and the
// volumes are in, so that a reader can turn them into metres.
func (g *Game) dropletUnits() string {
	c := g.teach.erosion.m.CellSize
	return fmt.Sprintf("cell = %g m; sediment, capacity: m of height over\none %g m × %g m cell (×%g m² = m³)", c, c, c, c*c)
}

// drawDropletTable writes the droplet's state at each step at the left of
// the view, each row in its step's colour, at the panels' scale: a
// projector's 1.5× or 2× makes the table as legible as the panels.
func (g *Game) drawDropletTable(screen *ebiten.Image) {
	d := g.teach.erosion.drop
	sc := g.ui.uiScale()
	line := int(math.Round(debugLineH * sc))
	vr := g.viewRect(screen.Bounds().Dx(), screen.Bounds().Dy())
	x, y := vr.Min.X+10, teachTop
	header := []string{
		fmt.Sprintf("Droplet %d at each step's start: orange erodes, cyan deposits", g.teach.erosion.drops.Done()),
		"  k       x       y   speed  water  sediment  capacity      Δh",
		"        cells   cells                 m         m        m",
	}
	// The header, the rows, the end row and the two lines of units.
	rows := max(min(len(d.Steps), (vr.Max.Y-captionStripH-y-8)/line-len(header)-3), 0)
	width := int(math.Round(float64(max(panelTextWidth(header[0]), panelTextWidth(header[1]))+12) * sc))
	height := (len(header)+rows+3)*line + 8
	vector.FillRect(screen, float32(x), float32(y), float32(width), float32(height), captionBack, false)
	text := func(s string, y int, c color.Color) { drawPanelTextScaled(screen, s, x+6, y, c, sc) }
	for i, l := range header {
		text(l, y+4+i*line, captionText)
	}
	y += 4 + len(header)*line
	for k, row := range g.dropletRows()[:rows] {
		text(row, y+k*line, stepColour(d.Steps[k]))
	}
	y += rows * line
	last := fmt.Sprintf("end %7.2f %7.2f %7.3f %6.3f %9.4f", d.End.X, d.End.Y, d.End.Speed, d.End.Water, d.End.Sediment)
	if rows < len(d.Steps) {
		last = fmt.Sprintf("… %d more steps", len(d.Steps)-rows)
	}
	text(last, y, captionText)
	text(g.dropletUnits(), y+line, captionText)
}
