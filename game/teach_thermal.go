package game

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"cordillera/terrain"
	"cordillera/terrain/erosion"
)

// The thermal lesson: the thermal stage's sweeps one at a time
// (erosion.ThermalStepper, the stage's own sweep) on the erosion lesson's
// map, with one sample's exchanges with its 8 neighbours in the next sweep
// (the drop Δh to each, the talus drop T = tan θ·L with the distance L √2
// times longer on a diagonal, and the flux to each neighbour below the talus slope), and a
// map of what every sample sends.

// thermalLesson is the state of the thermal lesson.
type thermalLesson struct {
	start *terrain.Heightmap
	m     *terrain.Heightmap
	st    *erosion.ThermalStepper
	sweep int
	// The sample shown: the one that sends most in the first sweep,
	// until one is clicked or a link names one.
	x, y   int
	picked bool
	// The diagrams, drawn anew when nil; top is the largest |h − h(0)|.
	cellsImg, mapImg, changeImg *ebiten.Image
	top                         float64
}

// buildThermalLesson makes the lesson's map and its stepper.
func (g *Game) buildThermalLesson() {
	m, err := g.wearLessonMap()
	if err != nil {
		g.ui.fail(err)
		return
	}
	t := &g.teach.thermal
	t.freeImages()
	*t = thermalLesson{start: m}
	t.m = &terrain.Heightmap{}
	*t.m = *m
	t.m.Samples = slices.Clone(m.Samples)
	if !g.thermalTo(0) {
		return
	}
	t.x, t.y = t.st.Steepest()
}

// thermalTo shows the map after k sweeps, from the start: the way back
// as well as forward, as the sweeps are quick.
func (g *Game) thermalTo(k int) bool {
	t := &g.teach.thermal
	if t.start == nil {
		return false
	}
	k = max(0, min(k, g.Params.ThermalIterations))
	if t.st == nil || k < t.sweep {
		st, err := erosion.NewThermalStepper(t.start, g.Params)
		if err != nil {
			g.ui.fail(err)
			return false
		}
		t.st, t.sweep = st, 0
	}
	for t.sweep < k {
		t.st.Sweep()
		t.sweep++
	}
	t.st.Store(t.m)
	t.freeImages()
	m := *t.m
	m.Samples = slices.Clone(t.m.Samples)
	g.showLessonWorld(&m)
	return true
}

// pick shows sample (x, y)'s exchanges, as a click on it does.
func (t *thermalLesson) pick(x, y int) {
	if t.m == nil || x < 0 || y < 0 || x >= t.m.Width || y >= t.m.Height {
		return
	}
	t.x, t.y, t.picked = x, y, true
}

// freeImages lets the diagrams go.
func (t *thermalLesson) freeImages() {
	for _, im := range []*ebiten.Image{t.cellsImg, t.mapImg, t.changeImg} {
		if im != nil {
			im.Deallocate()
		}
	}
	t.cellsImg, t.mapImg, t.changeImg = nil, nil, nil
}

// thermalPanel is the Teach panel's part for the thermal lesson.
func (g *Game) thermalPanel(ctx *debugui.Context) {
	t := &g.teach
	ctx.SetGridLayout([]int{-1, -1, -1, -1}, nil)
	ctx.Button("<").On(func() { t.playing = false; g.thermalTo(t.thermal.sweep - 1) })
	ctx.Button(">").On(func() { t.playing = false; g.thermalTo(t.thermal.sweep + 1) })
	play := "Play"
	if t.playing {
		play = "Pause"
	}
	ctx.Button(play).On(func() { t.playing = !t.playing })
	ctx.Button("Reset").On(func() { t.playing = false; g.thermalTo(0) })
	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Text(g.thermalText())
}

// updateWearLesson plays the thermal or fluvial lesson a step every few
// frames.
func (g *Game) updateWearLesson() {
	t := &g.teach
	if !t.playing {
		return
	}
	t.tick++
	if t.tick%10 != 0 {
		return
	}
	switch t.mode {
	case teachThermal:
		if t.thermal.sweep >= g.Params.ThermalIterations || !g.thermalTo(t.thermal.sweep+1) {
			t.playing = false
		}
	case teachFluvial:
		if !g.fluvialTo(t.fluvial.step + 1) {
			t.playing = false
		}
	}
}

// thermalText is the lesson's rule with the shown sample's numbers.
func (g *Game) thermalText() string {
	t := &g.teach.thermal
	p := g.Params
	ax, dg, k := t.st.Talus()
	ex, change := t.st.Exchanges(t.x, t.y)
	var sent, got float64
	to := 0
	for _, e := range ex {
		if e.Flux > 0 {
			sent += e.Flux
			to++
		} else {
			got -= e.Flux
		}
	}
	h := t.st.Height(t.x, t.y)
	// Distance L and drop Δh have letters of their own: the source's d
	// names both in places.
	text := fmt.Sprintf("Next sweep (%d of %d), at sample (%d, %d):\n", t.sweep+1, p.ThermalIterations, t.x, t.y) +
		fmt.Sprintf("angle of repose θ = %g°, tan θ = %.4f;\n", p.ThermalTalus, math.Tan(p.ThermalTalus*math.Pi/180)) +
		fmt.Sprintf("talus drop T = tan θ·L, L the distance:\n%.3f m to a side (L = %g m),\n%.3f m to a diagonal (L = √2·%g m).\n", ax, t.m.CellSize, dg, t.m.CellSize) +
		"Drop Δh = h_i − h_j (all heights of the sweep's\nstart); where Δh > T: flux = k·(Δh − T).\n" +
		fmt.Sprintf("k = rate/16 = %g/16 = %.5f: rate is the share\nof the excess moved a sweep; /16 as a sample\ntrades with 8 neighbours and k <= 1/16 keeps the\nsweep from overshooting (rate 1: fastest).\n", p.ThermalRate, k) +
		fmt.Sprintf("It sends %.4f m to %d neighbours,\nreceives %.4f m: h %.3f → %.3f m.\n", sent, to, got, h, h+change) +
		fmt.Sprintf("Moved so far: %s in %d sweeps.\n", volume(t.st.Moved()), t.sweep) +
		"Click a map, or a neighbour, for another sample."
	return text
}

// thermalCaption is the caption strip's line for the thermal lesson.
func (g *Game) thermalCaption() string {
	t := &g.teach.thermal
	p := g.Params
	if t.st == nil {
		return ""
	}
	return fmt.Sprintf("Thermal erosion, after sweep %d of %d (Musgrave et al. 1989, the thermal stage's own sweep): talus %g°, rate %g, %s %d x %d, seed %d",
		t.sweep, p.ThermalIterations, p.ThermalTalus, p.ThermalRate, p.Algorithm, t.m.Width, t.m.Height, p.Seed)
}

// Colours of the thermal lesson.
var (
	sendColour    = color.RGBA{255, 140, 0, 255} // a neighbour that receives material
	restColour    = color.RGBA{70, 70, 78, 255}  // one within the talus slope
	receiveColour = color.RGBA{0, 200, 255, 255} // one that sends material to the sample
	pickColour    = color.RGBA{255, 215, 0, 255} // the sample shown
	diagramGround = color.RGBA{20, 20, 24, 235}
)

// drawThermal draws the lesson's diagrams: the shown sample's 3×3
// neighbourhood with each exchange at the top right, and beside it the
// map of what each sample sends in the next sweep.
func (g *Game) drawThermal(screen *ebiten.Image) {
	t := &g.teach.thermal
	w := screen.Bounds().Dx()
	if t.mapImg == nil {
		t.mapImg = t.sendMap()
		t.changeImg, t.top = changeImage(t.m.Width, t.m.Height, t.sinceStart())
	}
	drawChangeMap(screen, t.changeImg, thirdDiagramRect(w), fmt.Sprintf("since start: h − h(0), %d sweeps", t.sweep), t.top)
	ringSample(screen, thirdDiagramRect(w), t.x, t.y, t.m.Width)
	r := secondDiagramRect(w)
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Translate(float64(r.Min.X), float64(r.Min.Y))
	screen.DrawImage(t.mapImg, op)
	px, py := float32(r.Min.X)+(float32(t.x)+0.5)*diagramSide/float32(t.m.Width), float32(r.Min.Y)+(float32(t.y)+0.5)*diagramSide/float32(t.m.Height)
	vector.StrokeCircle(screen, px, py, 6, 2, pickColour, true)
	vector.FillRect(screen, float32(r.Min.X), float32(r.Max.Y), float32(r.Dx()), debugLineH+4, captionBack, false)
	drawPanelText(screen, "sent in the next sweep (m)", r.Min.X+4, r.Max.Y+2, captionText)

	c := diagramRect(w)
	vector.FillRect(screen, float32(c.Min.X), float32(c.Min.Y), diagramSide, diagramSide, diagramGround, false)
	ex, change := t.st.Exchanges(t.x, t.y)
	cellW := float32(diagramSide) / 3
	h := t.st.Height(t.x, t.y)
	box := func(dx, dy int) (float32, float32) {
		return float32(c.Min.X) + float32(dx+1)*cellW, float32(c.Min.Y) + float32(dy+1)*cellW
	}
	bx, by := box(0, 0)
	vector.StrokeRect(screen, bx+2, by+2, cellW-4, cellW-4, 2, pickColour, false)
	cx, cy := bx+cellW/2, by+cellW/2
	vector.FillCircle(screen, cx, cy, 4, pickColour, true)
	_, _ = h, change // given in the text beside
	for _, e := range ex {
		x, y := box(e.DX, e.DY)
		col := restColour
		switch {
		case e.Flux > 0:
			col = sendColour
		case e.Flux < 0:
			col = receiveColour
		}
		vector.StrokeRect(screen, x+2, y+2, cellW-4, cellW-4, 2, col, false)
		// An arrow from the sample towards a neighbour that receives.
		if e.Flux > 0 { // within the sample's own cell, so as not to hide the numbers
			dx, dy := float32(e.DX), float32(e.DY)
			l := float32(math.Hypot(float64(dx), float64(dy)))
			ax, ay := cx+dx/l*7, cy+dy/l*7
			tx, ty := cx+dx/l*cellW*0.42, cy+dy/l*cellW*0.42
			vector.StrokeLine(screen, ax, ay, tx, ty, 3, sendColour, true)
			vector.FillCircle(screen, tx, ty, 4, sendColour, true)
		}
		lines := []string{fmt.Sprintf("Δh %.2f", e.Drop), fmt.Sprintf("T %.2f", e.Talus)}
		switch {
		case e.Flux > 0:
			lines = append(lines, fmt.Sprintf("→ %.3g", e.Flux))
		case e.Flux < 0:
			lines = append(lines, fmt.Sprintf("← %.3g", -e.Flux))
		default:
			lines = append(lines, "0")
		}
		for i, l := range lines {
			drawPanelText(screen, l, int(x)+6, int(y)+4+i*debugLineH, col)
		}
	}
	vector.FillRect(screen, float32(c.Min.X), float32(c.Max.Y), float32(c.Dx()), debugLineH+4, captionBack, false)
	drawPanelText(screen, "Δh, T; → sends, ← gets (m)", c.Min.X+4, c.Max.Y+2, captionText)
}

// sinceStart is each sample's change since the lesson's start, metres.
func (t *thermalLesson) sinceStart() []float64 {
	d := make([]float64, len(t.m.Samples))
	for i, v := range t.m.Samples {
		d[i] = (float64(v) - float64(t.start.Samples[i])) * t.m.VerticalScale
	}
	return d
}

// sendMap draws what each sample sends in the next sweep, black to
// orange on a square-root scale of the most any sample sends.
func (t *thermalLesson) sendMap() *ebiten.Image {
	w, h := t.m.Width, t.m.Height
	sent := make([]float64, w*h)
	var most float64
	for y := range h {
		for x := range w {
			ex, _ := t.st.Exchanges(x, y)
			for _, e := range ex {
				sent[y*w+x] += max(e.Flux, 0)
			}
			most = max(most, sent[y*w+x])
		}
	}
	img := fieldImage(w, h, 0, 0, w, func(i int) color.RGBA {
		if most <= 0 || sent[i] == 0 {
			return color.RGBA{30, 30, 34, 255}
		}
		s := math.Sqrt(sent[i] / most)
		return color.RGBA{uint8(30 + 225*s), uint8(30 + 110*s), uint8(34 - 34*s), 255}
	})
	return ebiten.NewImageFromImage(img)
}
