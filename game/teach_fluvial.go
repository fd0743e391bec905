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

// The fluvial lesson: the fluvial stage's time steps one at a time
// (erosion.FluvialStepper, the stage's own receivers and stream-power
// step) on the erosion lesson's map: the receiver tree and the drainage
// areas each step uses, then what the step cut, with one channel
// sample's implicit update in numbers.

// fluvialLesson is the state of the fluvial lesson.
type fluvialLesson struct {
	start *terrain.Heightmap
	m     *terrain.Heightmap
	st    *erosion.FluvialStepper
	step  int
	dt    float64 // the lesson's time step, years (terrain.FluvialTeachingDt)
	// The sample shown: the largest drainage area a quarter of the map
	// from its edges, until one is clicked or a link names one.
	x, y   int
	picked bool
	// The diagrams, drawn anew when nil.
	treeImg, cutImg, changeImg *ebiten.Image
	top                        float64   // the largest |h − h0| of the step, metres
	sinceTop                   float64   // the largest |h − h(0)| since the start, metres
	h0                         []float64 // the model's heights before step 1 (the pits breached), metres
}

// fluvialChannel is the drainage area, in cells, from which the tree
// diagram draws a sample's link to its receiver: the channels.
const fluvialChannel = 48

// buildFluvialLesson makes the lesson's map and its stepper.
func (g *Game) buildFluvialLesson() {
	m, err := g.wearLessonMap()
	if err != nil {
		g.ui.fail(err)
		return
	}
	f := &g.teach.fluvial
	f.freeImages()
	*f = fluvialLesson{start: m, m: &terrain.Heightmap{}, dt: teachingDt(m, g.Params)}
	*f.m = *m
	f.m.Samples = slices.Clone(m.Samples)
	if err := f.restart(g.Params); err != nil {
		g.ui.fail(err)
		return
	}
	f.h0 = make([]float64, len(m.Samples))
	for i := range f.h0 {
		f.h0[i] = f.st.Sample(i).Before
	}
	w, h := m.Width, m.Height
	area := f.st.Areas()
	best := int32(-1)
	for y := h / 4; y < h-h/4; y++ {
		for x := w / 4; x < w-w/4; x++ {
			if a := area[y*w+x]; a > best {
				best, f.x, f.y = a, x, y
			}
		}
	}
	g.fluvialTo(0)
}

// teachingMeanShare is the most the fluvial lesson's first step may change
// the map, on average over its samples, as a share of its relief.
const teachingMeanShare = 0.01

// teachingDt is the fluvial lesson's time step for m: terrain.
// FluvialTeachingDt, lowered along 1, 2, 5 while the first step changes
// the map by more than teachingMeanShare of its relief on average. The
// first steps cut the most, as the input's rivers are not graded: their
// drops to their receivers are cut by F/(1 + F) a step, and F grows with
// Δt. The steps are milliseconds on the lesson's map.
func teachingDt(m *terrain.Heightmap, p terrain.Params) float64 {
	dt := terrain.FluvialTeachingDt(m, p)
	lo, hi := m.Range()
	relief := float64(hi-lo) * m.VerticalScale
	for range 12 {
		p.FluvialDt = dt
		st, err := erosion.NewFluvialStepper(m, p)
		if err != nil || !st.Step() {
			return dt // the lesson reports the error when it makes its own
		}
		var sum float64
		for i := range m.Samples {
			v := st.Sample(i)
			sum += math.Abs(v.After - v.Before)
		}
		if sum/float64(len(m.Samples)) <= teachingMeanShare*relief {
			break
		}
		dt = terrain.LowerTeachingDt(dt)
	}
	return dt
}

// restart makes a new stepper from the start with p's constants and the
// lesson's time step.
func (f *fluvialLesson) restart(p terrain.Params) error {
	f.step = 0
	p.FluvialDt = f.dt
	st, err := erosion.NewFluvialStepper(f.start, p)
	f.st = st
	return err
}

// fluvialTo shows the map after k time steps, from the start going back,
// and reports whether it moved: the stage may stop early, once steady.
func (g *Game) fluvialTo(k int) bool {
	f := &g.teach.fluvial
	if f.start == nil {
		return false
	}
	k = max(0, min(k, g.Params.FluvialSteps))
	from := f.step
	if f.st == nil || k < f.step {
		if err := f.restart(g.Params); err != nil {
			g.ui.fail(err)
			return false
		}
	}
	for f.step < k && f.st.Step() {
		f.step++
	}
	f.st.Store(f.m)
	f.freeImages()
	m := *f.m
	m.Samples = slices.Clone(f.m.Samples)
	g.showLessonWorld(&m)
	return f.step != from
}

// pick shows sample (x, y)'s step, as a click on it does.
func (f *fluvialLesson) pick(x, y int) {
	if f.m == nil || x < 0 || y < 0 || x >= f.m.Width || y >= f.m.Height {
		return
	}
	f.x, f.y, f.picked = x, y, true
	f.freeImages() // the tree diagram draws the sample's way to the edge
}

// freeImages lets the diagrams go.
func (f *fluvialLesson) freeImages() {
	for _, im := range []*ebiten.Image{f.treeImg, f.cutImg, f.changeImg} {
		if im != nil {
			im.Deallocate()
		}
	}
	f.treeImg, f.cutImg, f.changeImg = nil, nil, nil
}

// fluvialPanel is the Teach panel's part for the fluvial lesson.
func (g *Game) fluvialPanel(ctx *debugui.Context) {
	t := &g.teach
	ctx.SetGridLayout([]int{-1, -1, -1, -1}, nil)
	ctx.Button("<").On(func() { t.playing = false; g.fluvialTo(t.fluvial.step - 1) })
	ctx.Button(">").On(func() { t.playing = false; g.fluvialTo(t.fluvial.step + 1) })
	play := "Play"
	if t.playing {
		play = "Pause"
	}
	ctx.Button(play).On(func() { t.playing = !t.playing })
	ctx.Button("Reset").On(func() { t.playing = false; g.fluvialTo(0) })
	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Text(g.fluvialText())
}

// fluvialText is the stream-power law, its implicit step in the notation
// of Braun & Willett (2013) with every symbol named, and the shown
// sample's numbers. Lines of at most 50 characters: the panel's width.
func (g *Game) fluvialText() string {
	f := &g.teach.fluvial
	p := g.Params
	w := f.m.Width
	i := f.y*w + f.x
	v := f.st.Sample(i)
	cellArea := f.m.CellSize * f.m.CellSize
	a := math.Max(float64(v.Area), p.FluvialHead)
	F := p.FluvialK * f.dt * math.Pow(a*cellArea, p.FluvialM) / math.Pow(v.Distance, p.FluvialN)
	rx, ry := v.Receiver%w, v.Receiver/w
	way := "a side"
	if v.Distance > f.m.CellSize*1.01 {
		way = "a diagonal"
	}
	if v.Receiver == i {
		way = "the edge: the base level"
	}
	head := ""
	if float64(v.Area) < p.FluvialHead {
		head = fmt.Sprintf(" (under the head's %g:\ncounts as %g)", p.FluvialHead, p.FluvialHead)
	}
	text := "dh/dt = U − K·A^m·S^n, one implicit step:\n" +
		"h_i(t+Δt) = [h_i(t)+Δt·U_i+F·h_r(t+Δt)]/(1+F)\n" +
		"F = K·Δt·A_i^m/L^n\n" +
		"h_i, h_r: the sample's and its receiver's height\n" +
		"  (receiver: the steepest way down, solved first);\n" +
		"U_i: uplift, U × input height's share of relief;\n" +
		"A_i: drainage area; L: distance; S = (h_i−h_r)/L.\n" +
		fmt.Sprintf("K %g, m %g, n %g, U %g m/yr,\n", p.FluvialK, p.FluvialM, p.FluvialN, p.FluvialUplift) +
		fmt.Sprintf("Δt %g yr (the lesson's; the stage's %g yr),\n  Δt·U = %.3g m a step.\n", f.dt, p.FluvialDt, f.dt*p.FluvialUplift)
	if f.step == 0 {
		text += "Before step 1: the receivers and areas it uses.\n"
	} else {
		text += fmt.Sprintf("Step %d of at most %d", f.step, p.FluvialSteps)
		if f.st.Steady() {
			text += ", steady: the stage stops"
		}
		text += ".\n"
	}
	text += fmt.Sprintf("Sample (%d, %d): A_i = %d cells%s\n= %.4g m²; receiver (%d, %d), %s,\nL = %.3g m; U_i = %.3g m/yr, Δt·U_i = %.3f m\n",
		f.x, f.y, v.Area, head, a*cellArea, rx, ry, way, v.Distance, v.Uplift/f.dt, v.Uplift)
	text += fmt.Sprintf("F = %.4g\n", F)
	switch {
	case f.step == 0:
		text += fmt.Sprintf("h_i(t) = %.3f m, h_r(t) = %.3f m\n  (press > for the step)\n", v.Before, v.Receiver0)
	case p.FluvialN == 1:
		text += fmt.Sprintf("h_i(t+Δt) = (%.3f + %.3f + F·%.3f)/(1 + F)\n", v.Before, v.Uplift, v.Receiver0)
	default:
		text += fmt.Sprintf("δ = h_i(t+Δt) − h_r(t+Δt) solves\nδ − δ0 + F·δ^n = 0 (Newton), δ0 = h_i(t) + Δt·U_i\n− h_r(t+Δt) = %.3f + %.3f − %.3f\n", v.Before, v.Uplift, v.Receiver0)
	}
	if f.step > 0 {
		text += fmt.Sprintf("  = %.3f m;\nincision h_i(t) + Δt·U_i − h_i(t+Δt) = %.3f m\n", v.After, v.Before+v.Uplift-v.After)
	}
	text += "Heights: before the rescale. Click picks a sample."
	return text
}

// fluvialCaption is the caption strip's line for the fluvial lesson.
func (g *Game) fluvialCaption() string {
	f := &g.teach.fluvial
	p := g.Params
	if f.st == nil {
		return ""
	}
	return fmt.Sprintf("Fluvial erosion, step %d (Braun & Willett 2013, the fluvial stage's own step): U %g m/yr, K %g, m %g, n %g, lesson Δt %g yr, %s %d x %d, seed %d",
		f.step, p.FluvialUplift, p.FluvialK, p.FluvialM, p.FluvialN, f.dt, p.Algorithm, f.m.Width, f.m.Height, p.Seed)
}

// drawFluvial draws the lesson's diagrams: the receiver tree over the
// drainage areas at the top right, with the shown sample's way to the
// edge, and beside it what the last step cut.
func (g *Game) drawFluvial(screen *ebiten.Image) {
	f := &g.teach.fluvial
	w := screen.Bounds().Dx()
	n := f.m.Width
	if f.treeImg == nil {
		f.treeImg, f.cutImg = f.diagrams()
		f.changeImg, f.sinceTop = changeImage(n, f.m.Height, f.sinceStart())
	}
	drawChangeMap(screen, f.changeImg, thirdDiagramRect(w), fmt.Sprintf("since start: h − h(0), %d steps", f.step), f.sinceTop)
	ringSample(screen, thirdDiagramRect(w), f.x, f.y, n)
	label := func(r interface{ Dx() int }, x, y int, s string) {
		vector.FillRect(screen, float32(x), float32(y), float32(r.Dx()), debugLineH+4, captionBack, false)
		drawPanelText(screen, s, x+4, y+2, captionText)
	}
	tr, cr := secondDiagramRect(w), diagramRect(w) // the tree first, then what the step did
	for _, c := range []struct {
		img  *ebiten.Image
		x, y int
	}{{f.treeImg, tr.Min.X, tr.Min.Y}, {f.cutImg, cr.Min.X, cr.Min.Y}} {
		op := &ebiten.DrawImageOptions{}
		op.GeoM.Translate(float64(c.x), float64(c.y))
		screen.DrawImage(c.img, op)
	}
	scale := float32(diagramSide) / float32(n)
	for _, r := range [](struct{ x, y int }){{tr.Min.X, tr.Min.Y}, {cr.Min.X, cr.Min.Y}} {
		px, py := float32(r.x)+(float32(f.x)+0.5)*scale, float32(r.y)+(float32(f.y)+0.5)*scale
		vector.StrokeCircle(screen, px, py, 6, 2, pickColour, true)
	}
	label(tr, tr.Min.X, tr.Max.Y, "receivers and drainage area")
	cut := fmt.Sprintf("step: h(t+Δt) − h(t), ±%.3g m", f.top)
	if f.step == 0 {
		cut = "no step yet"
	}
	label(cr, cr.Min.X, cr.Max.Y, cut)
}

// sinceStart is each sample's change since step 0, metres: the model's
// heights, as the text gives them, from the map step 1 starts from (the
// pits breached, which the stage does before its first step), so that
// the map shows uplift less incision.
func (f *fluvialLesson) sinceStart() []float64 {
	d := make([]float64, len(f.h0))
	for i, h := range f.h0 {
		d[i] = f.st.Sample(i).After - h
	}
	return d
}

// diagrams draws the receiver tree over the drainage areas (log scale,
// dark to light blue; the links of samples draining fluvialChannel cells
// or more in white, the shown sample's way to the edge in yellow) and the
// last step's incision (black to orange, square-root scale).
func (f *fluvialLesson) diagrams() (tree, cut *ebiten.Image) {
	n := f.m.Width
	area, rec := f.st.Areas(), f.st.Receivers()
	most := math.Log(float64(slices.Max(area)))
	img := fieldImage(n, f.m.Height, 0, 0, n, func(i int) color.RGBA {
		s := math.Log(float64(area[i])) / most
		return color.RGBA{uint8(20 + 40*s), uint8(30 + 120*s), uint8(50 + 190*s), 255}
	})
	tree = ebiten.NewImageFromImage(img)
	scale := float32(diagramSide) / float32(n)
	centre := func(i int) (float32, float32) {
		return (float32(i%n) + 0.5) * scale, (float32(i/n) + 0.5) * scale
	}
	for i, r := range rec {
		if area[i] < fluvialChannel || int(r) == i {
			continue
		}
		x0, y0 := centre(i)
		x1, y1 := centre(int(r))
		wd := float32(0.6 + 0.25*math.Log2(float64(area[i])/fluvialChannel))
		vector.StrokeLine(tree, x0, y0, x1, y1, min(wd, 2.5), color.RGBA{235, 240, 255, 255}, true)
	}
	for i, hops := f.y*n+f.x, 0; int(rec[i]) != i && hops < len(rec); hops++ {
		x0, y0 := centre(i)
		i = int(rec[i])
		x1, y1 := centre(i)
		vector.StrokeLine(tree, x0, y0, x1, y1, 2.5, pickColour, true)
	}
	// What the step did to the ground (Δt·U − incision), on the scale of
	// its 90th percentile: on the largest change's (a breached pit, the
	// edge) the channels were all but black.
	net, abs := make([]float64, n*f.m.Height), make([]float64, n*f.m.Height)
	for i := range net {
		v := f.st.Sample(i)
		net[i] = v.After - v.Before
		abs[i] = math.Abs(net[i])
	}
	slices.Sort(abs)
	top := abs[len(abs)*9/10]
	if top == 0 {
		top = abs[len(abs)-1]
	}
	f.top = top
	cimg := fieldImage(n, f.m.Height, 0, 0, n, func(i int) color.RGBA { return diverging(net[i], top) })
	return tree, ebiten.NewImageFromImage(cimg)
}
