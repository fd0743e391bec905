package game

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"cordillera/internal/lesson"
	"cordillera/terrain"
	"cordillera/terrain/erosion"
)

// The erosion lesson one droplet at a time: each droplet's state and the
// map it leaves are the hydraulic stage's own droplets' (an independent
// stepper from the same map agrees bit for bit), the table shows them, and
// the back step puts the map back bit for bit and shows the droplet
// before as it was.
func TestDropletLessonStepAndBack(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 65))
	g.Layout(ScreenWidth, ScreenHeight)
	t.Cleanup(func() { onLoop(func() { g.OpenLesson(lesson.State{}, true) }) })
	openLink(t, g, "size=65&lesson=erosion&droplet=7")
	e := &g.teach.erosion
	ref, err := erosion.NewDropletStepper(e.start, g.Params)
	if err != nil {
		t.Fatal(err)
	}
	var want erosion.Droplet
	for range 7 {
		want, _ = ref.Next()
	}
	refMap := *e.start
	refMap.Samples = slices.Clone(e.start.Samples)
	ref.Store(&refMap)
	if len(want.Steps) == 0 || !slices.Equal(e.drop.Steps, want.Steps) || e.drop.End != want.End {
		t.Fatalf("droplet 7 shows %d steps; the stage's 7th droplet has %d, or they differ", len(e.drop.Steps), len(want.Steps))
	}
	if !slices.Equal(e.m.Samples, refMap.Samples) {
		t.Fatal("the lesson's map after 7 droplets is not the stepper's")
	}
	seven := slices.Clone(e.m.Samples)
	onLoop(g.dropletStep)
	if e.drops.Done() != 8 || slices.Equal(e.m.Samples, seven) {
		t.Fatalf("one droplet more: %d done, map changed %v", e.drops.Done(), !slices.Equal(e.m.Samples, seven))
	}
	onLoop(g.dropletBack)
	if e.drops.Done() != 7 || e.drop.Number != 7 || !slices.Equal(e.drop.Steps, want.Steps) {
		t.Errorf("after the back step: %d done, droplet %d shown; want the 7th again", e.drops.Done(), e.drop.Number)
	}
	for i, v := range e.m.Samples {
		if math.Float32bits(v) != math.Float32bits(seven[i]) {
			t.Fatalf("after the back step sample %d is %v; before the 8th droplet it was %v", i, v, seven[i])
		}
	}
	if e.prev == nil || slices.Equal(e.prev, e.m.Samples) {
		t.Error("after the back step the droplet's own change is not shown")
	}
	text := g.lessonText()
	for _, w := range []string{"Droplet 7 of ", "c = max(−Δh/cell, 0.01)·speed·water·4·cell"} {
		if !strings.Contains(text, w) {
			t.Errorf("the droplet's text lacks %q:\n%s", w, text)
		}
	}
	// The table's rows are the droplet's state, drawn at the view's left
	// in the colours of what each step did.
	img := renderFrame(g, false)
	coloured := 0
	for y := teachTop; y < testH-30; y++ {
		for x := 0; x < testW/2; x++ {
			if c := img.RGBAAt(x, y); c == erodeColour || c == depositColour {
				coloured++
			}
		}
	}
	if coloured < 200 {
		t.Errorf("%d pixels of the table's coloured rows; want its rows drawn", coloured)
	}
	// The table gives the cell its x, y and volumes are in.
	if u, want := g.dropletUnits(), fmt.Sprintf("cell = %g m; sediment, capacity: m of height over\none %g m × %g m cell", e.m.CellSize, e.m.CellSize, e.m.CellSize); !strings.HasPrefix(u, want) {
		t.Errorf("the table's units read %q; want %q…", u, want)
	}
	s := want.Steps[1]
	row := fmt.Sprintf("%3d %7.2f %7.2f %7.3f %6.3f %9.4f %9.4f %7.3f", 1, s.X, s.Y, s.Speed, s.Water, s.Sediment, s.Capacity, s.DeltaH)
	if got := g.dropletRows(); len(got) < 2 || got[1] != row {
		t.Errorf("the table's step 1 reads %q; want %q", got[min(1, len(got)-1)], row)
	}
	// A batch after single droplets starts from the uneroded map.
	onLoop(g.erosionStep)
	if e.drops != nil || e.pass != 1 {
		t.Errorf("a batch after droplets: droplets %v, pass %d", e.drops != nil, e.pass)
	}
}

// The thermal lesson shows the thermal stage: its map after k sweeps is
// the stage's with thermal-iterations k, bit for bit, and the numbers it
// gives for its sample are the sweep's exchanges.
func TestThermalLessonIsTheStage(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 65))
	g.Layout(ScreenWidth, ScreenHeight)
	t.Cleanup(func() { onLoop(func() { g.OpenLesson(lesson.State{}, true) }) })
	openLink(t, g, "size=65&lesson=thermal&step=4")
	th := &g.teach.thermal
	want := *th.start
	want.Samples = slices.Clone(th.start.Samples)
	p := g.Params
	p.ThermalIterations = 4
	if _, err := erosion.Thermal(context.Background(), &want, p, erosion.Options{}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(th.m.Samples, want.Samples) || !slices.Equal(g.World.Map.Samples, want.Samples) {
		t.Fatal("after 4 sweeps the lesson's map is not the thermal stage's")
	}
	ex, change := th.st.Exchanges(th.x, th.y)
	var sent float64
	for _, e := range ex {
		sent += max(e.Flux, 0)
	}
	h := th.st.Height(th.x, th.y)
	text := g.lessonText()
	for _, w := range []string{
		fmt.Sprintf("Next sweep (5 of %d), at sample (%d, %d)", g.Params.ThermalIterations, th.x, th.y),
		fmt.Sprintf("It sends %.4f m", sent),
		fmt.Sprintf("h %.3f → %.3f m", h, h+change),
		"to a diagonal (L = √2·",
		// Distance and drop each under a letter of its own, and k explained.
		"talus drop T = tan θ·L, L the distance",
		"Drop Δh = h_i − h_j",
		"where Δh > T: flux = k·(Δh − T)",
		fmt.Sprintf("k = rate/16 = %g/16 = %.5f: rate is the share\nof the excess moved a sweep", p.ThermalRate, p.ThermalRate/16),
		"trades with 8 neighbours and k <= 1/16 keeps the\nsweep from overshooting",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("the thermal text lacks %q:\n%s", w, text)
		}
	}
	if sent <= 0 {
		t.Errorf("the lesson's sample (%d, %d) sends nothing", th.x, th.y)
	}
	// Back a sweep is the map after 3.
	onLoop(func() { g.thermalTo(3) })
	p.ThermalIterations = 3
	want.Samples = slices.Clone(th.start.Samples)
	if _, err := erosion.Thermal(context.Background(), &want, p, erosion.Options{}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(th.m.Samples, want.Samples) {
		t.Error("back to 3 sweeps: the map is not the stage's")
	}
}

// The fluvial lesson's numbers are its stage's step: the sample's new
// height is the implicit stream-power update from the values shown.
func TestFluvialLessonValues(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 65))
	g.Layout(ScreenWidth, ScreenHeight)
	t.Cleanup(func() { onLoop(func() { g.OpenLesson(lesson.State{}, true) }) })
	openLink(t, g, "size=65&lesson=fluvial&step=2")
	f := &g.teach.fluvial
	p := g.Params
	v := f.st.Sample(f.y*f.m.Width + f.x)
	a := math.Max(float64(v.Area), p.FluvialHead) * f.m.CellSize * f.m.CellSize
	F := p.FluvialK * f.dt * math.Sqrt(a) / v.Distance // m 0.5, n 1
	h := (v.Before + v.Uplift + F*v.Receiver0) / (1 + F)
	if math.Abs(h-v.After) > 1e-9*math.Max(1, math.Abs(h)) {
		t.Errorf("sample (%d, %d): %+v; the update gives %g", f.x, f.y, v, h)
	}
	text := g.lessonText()
	for _, w := range []string{
		fmt.Sprintf("Sample (%d, %d): A_i = %d cells", f.x, f.y, v.Area),
		fmt.Sprintf("F = %.4g\n", F),
		fmt.Sprintf("U_i = %.3g m/yr, Δt·U_i = %.3f m", v.Uplift/f.dt, v.Uplift),
		fmt.Sprintf("h_i(t+Δt) = (%.3f + %.3f + F·%.3f)/(1 + F)\n  = %.3f m", v.Before, v.Uplift, v.Receiver0, h),
		fmt.Sprintf("incision h_i(t) + Δt·U_i − h_i(t+Δt) = %.3f m", v.Before+v.Uplift-h),
		// The implicit step in Braun & Willett's notation, each symbol named.
		"h_i(t+Δt) = [h_i(t)+Δt·U_i+F·h_r(t+Δt)]/(1+F)\nF = K·Δt·A_i^m/L^n\n",
		"h_i, h_r: the sample's and its receiver's height",
		"U_i: uplift, U × input height's share of relief",
		"A_i: drainage area; L: distance; S = (h_i−h_r)/L",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("the fluvial text lacks %q:\n%s", w, text)
		}
	}
	if v.Area < 50 {
		t.Errorf("the lesson's sample drains %d cells; want a channel", v.Area)
	}
}

// drawTeachOnly draws the lesson's overlays alone on a w×h screen.
func drawTeachOnly(g *Game, w, h int) *image.RGBA {
	var img *image.RGBA
	onLoop(func() {
		screen := ebiten.NewImage(w, h)
		defer screen.Deallocate()
		g.drawTeach(screen)
		img = ScreenPixels(screen)
	})
	return img
}

// checkChangeMap checks a wear lesson's "change since start" map in a
// frame: the sample with the largest change has the scale's end colour,
// and the colour bar under the map's label runs from the lowered end's
// colour to the raised end's.
func checkChangeMap(t *testing.T, img *image.RGBA, d []float64, n int, top float64) {
	t.Helper()
	if top <= 0 {
		t.Fatal("nothing changed since the start")
	}
	r := thirdDiagramRect(img.Bounds().Dx())
	most := 0
	for i, v := range d {
		if math.Abs(v) > math.Abs(d[most]) {
			most = i
		}
	}
	if got := math.Abs(d[most]); got != top {
		t.Errorf("the map's scale is ±%g m; the largest change is %g m", top, got)
	}
	// The pixel whose nearest cell is the sample (fieldImage's rule).
	px := (2*(most%n)*diagramSide + diagramSide) / (2 * n)
	py := (2*(most/n)*diagramSide + diagramSide) / (2 * n)
	if x, y := px*n/diagramSide, py*n/diagramSide; x != most%n || y != most/n {
		t.Fatalf("pixel (%d, %d) is cell (%d, %d), not (%d, %d)", px, py, x, y, most%n, most/n)
	}
	if c, want := img.RGBAAt(r.Min.X+px, r.Min.Y+py), diverging(d[most], top); c != want {
		t.Errorf("the largest change (%g m) shows as %v; want %v", d[most], c, want)
	}
	by := r.Max.Y + debugLineH + 4 + colourBarH/2
	bw := r.Dx() - 8
	for _, i := range []int{0, bw - 1} {
		v := (2*(float64(i)+0.5)/float64(bw) - 1) * top
		if c, want := img.RGBAAt(r.Min.X+4+i, by), diverging(v, top); c != want {
			t.Errorf("colour bar at %+.3g m: %v; want %v", v, c, want)
		}
	}
}

// The thermal and fluvial lessons show what all their steps so far did,
// as the droplet lesson does: a change map on ±its largest change, with a
// colour bar that gives the scale in metres.
func TestWearLessonChangeSinceStart(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 65))
	g.Layout(ScreenWidth, ScreenHeight)
	t.Cleanup(func() { onLoop(func() { g.OpenLesson(lesson.State{}, true) }) })

	// Before the first sweep: no scale of ±0 m, no bar.
	openLink(t, g, "size=65&lesson=thermal")
	img := drawTeachOnly(g, 1280, 720)
	r := thirdDiagramRect(1280)
	if c := img.RGBAAt(r.Min.X+r.Dx()/2+20, r.Max.Y+debugLineH+4+colourBarH/2); c == diverging(0, 0) {
		t.Errorf("before any sweep the colour bar is drawn (%v)", c)
	}
	openLink(t, g, "size=65&lesson=thermal&step=4")
	th := &g.teach.thermal
	img = drawTeachOnly(g, 1280, 720)
	d := th.sinceStart()
	for i, v := range d {
		if want := (float64(th.m.Samples[i]) - float64(th.start.Samples[i])) * th.m.VerticalScale; v != want {
			t.Fatalf("thermal sample %d changed %g m since the start; the maps say %g", i, v, want)
		}
	}
	checkChangeMap(t, img, d, th.m.Width, th.top)

	openLink(t, g, "size=65&lesson=fluvial&step=3")
	f := &g.teach.fluvial
	img = drawTeachOnly(g, 1280, 720)
	ref, err := erosion.NewFluvialStepper(f.start, withDt(g.Params, f.dt))
	if err != nil {
		t.Fatal(err)
	}
	d = f.sinceStart()
	for i, v := range d {
		if want := f.st.Sample(i).After - ref.Sample(i).Before; v != want {
			t.Fatalf("fluvial sample %d changed %g m since step 0; the stepper says %g", i, v, want)
		}
	}
	checkChangeMap(t, img, d, f.m.Width, f.sinceTop)
}

// withDt is p with the fluvial time step dt.
func withDt(p terrain.Params, dt float64) terrain.Params {
	p.FluvialDt = dt
	return p
}

// The fluvial lesson's time step is a teaching one: a step lifts the
// highest point by about a fiftieth of the map's relief (at the stage's
// default Δt, 1000 m, more than the whole relief: mesas in two steps),
// the panel and the caption give it, and the lesson's steps are the
// stage's with that Δt.
func TestFluvialLessonTeachingDt(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 65))
	g.Layout(ScreenWidth, ScreenHeight)
	t.Cleanup(func() { onLoop(func() { g.OpenLesson(lesson.State{}, true) }) })
	openLink(t, g, "size=65&lesson=fluvial&step=1")
	f := &g.teach.fluvial
	lo, hi := f.start.Range()
	relief := float64(hi-lo) * f.start.VerticalScale
	p := g.Params
	if up := f.dt * p.FluvialUplift; up > relief*terrain.TeachingDtShare {
		t.Errorf("the lesson's Δt %g yr lifts the top %g m a step; want at most %g of the relief %g m", f.dt, up, terrain.TeachingDtShare, relief)
	}
	meanChange := func(st *erosion.FluvialStepper) float64 {
		var sum float64
		for i := range f.start.Samples {
			v := st.Sample(i)
			sum += math.Abs(v.After - v.Before)
		}
		return sum / float64(len(f.start.Samples))
	}
	if m := meanChange(f.st); m > teachingMeanShare*relief || m == 0 {
		t.Errorf("the first step changed the map by %.3g m on average; want some, at most %g of the relief %.3g m", m, teachingMeanShare, relief)
	}
	stage, err := erosion.NewFluvialStepper(f.start, p)
	if err != nil {
		t.Fatal(err)
	}
	stage.Step()
	if m := meanChange(stage); m < 10*teachingMeanShare*relief {
		t.Errorf("at the stage's Δt %g yr the first step changes the map by only %.3g m on average (relief %.3g m): the check has no teeth", p.FluvialDt, m, relief)
	}
	ref, err := erosion.NewFluvialStepper(f.start, withDt(p, f.dt))
	if err != nil {
		t.Fatal(err)
	}
	ref.Step()
	want := *f.start
	want.Samples = slices.Clone(f.start.Samples)
	ref.Store(&want)
	if !slices.Equal(want.Samples, f.m.Samples) {
		t.Error("the lesson's step is not the stage's step with the lesson's Δt")
	}
	dt := fmt.Sprintf("Δt %g yr (the lesson's; the stage's %g yr),\n  Δt·U = %.3g m a step", f.dt, p.FluvialDt, f.dt*p.FluvialUplift)
	if text := g.lessonText(); !strings.Contains(text, dt) {
		t.Errorf("the fluvial text lacks %q:\n%s", dt, text)
	}
	if c := g.fluvialCaption(); !strings.Contains(c, fmt.Sprintf("lesson Δt %g yr", f.dt)) {
		t.Errorf("the caption %q lacks the lesson's Δt", c)
	}
}

// A click on a thermal or fluvial map picks the sample whose numbers are
// shown (in the thermal 3×3 diagram, the neighbour clicked); the link
// names it as point= and opens it again.
func TestWearLessonClickSample(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 65))
	g.Layout(ScreenWidth, ScreenHeight)
	t.Cleanup(func() { onLoop(func() { g.OpenLesson(lesson.State{}, true) }) })
	click := func(x, y int) {
		for _, in := range []pointerInput{{x: x, y: y, left: true, leftJust: true}, {x: x, y: y}} {
			g.pointer(in, false)
		}
	}
	// The pixel whose nearest cell is (cx, cy) in the diagram r.
	at := func(r image.Rectangle, cx, cy, n int) (int, int) {
		return r.Min.X + (2*cx*diagramSide+diagramSide)/(2*n), r.Min.Y + (2*cy*diagramSide+diagramSide)/(2*n)
	}
	for _, c := range []struct {
		lesson string
		rect   func(w int) image.Rectangle
		shown  func() (int, int)
		text   string
	}{
		{"thermal", thirdDiagramRect, func() (int, int) { return g.teach.thermal.x, g.teach.thermal.y }, "at sample (%d, %d)"},
		{"thermal", secondDiagramRect, func() (int, int) { return g.teach.thermal.x, g.teach.thermal.y }, "at sample (%d, %d)"},
		{"fluvial", secondDiagramRect, func() (int, int) { return g.teach.fluvial.x, g.teach.fluvial.y }, "Sample (%d, %d)"},
		{"fluvial", diagramRect, func() (int, int) { return g.teach.fluvial.x, g.teach.fluvial.y }, "Sample (%d, %d)"},
	} {
		openLink(t, g, "size=65&lesson="+c.lesson+"&step=2")
		if strings.Contains(linkOf(g), "point=") {
			t.Errorf("%s: the lesson's own sample is written in the link: %s", c.lesson, linkOf(g))
		}
		x, y := at(c.rect(g.ui.w), 40, 21, 65)
		onLoop(func() { click(x, y) })
		if sx, sy := c.shown(); sx != 40 || sy != 21 {
			t.Fatalf("%s: a click on cell (40, 21) shows sample (%d, %d)", c.lesson, sx, sy)
		}
		if text := g.lessonText(); !strings.Contains(text, fmt.Sprintf(c.text, 40, 21)) {
			t.Errorf("%s: the text is not the clicked sample's:\n%s", c.lesson, text)
		}
		link := linkOf(g)
		if !strings.Contains(link, "lesson="+c.lesson+"&step=2") || !strings.Contains(link, "point=40,21") {
			t.Fatalf("%s: the link %s does not name the sample clicked", c.lesson, link)
		}
		openLink(t, g, "size=65&lesson=erosion")
		openLink(t, g, strings.TrimPrefix(link, "#"))
		if sx, sy := c.shown(); sx != 40 || sy != 21 || linkOf(g) != link {
			t.Errorf("%s: %s opens sample (%d, %d) and writes %s", c.lesson, link, sx, sy, linkOf(g))
		}
	}
	// In the thermal 3×3 diagram, a click on the top left neighbour.
	openLink(t, g, "size=65&lesson=thermal&step=2&point=40,21")
	cr := diagramRect(g.ui.w)
	onLoop(func() { click(cr.Min.X+diagramSide/6, cr.Min.Y+diagramSide/6) })
	if th := &g.teach.thermal; th.x != 39 || th.y != 20 {
		t.Errorf("the top left neighbour of (40, 21) clicked: sample (%d, %d) shown", th.x, th.y)
	}
}

// The droplet table follows the panels' scale: at 2× its rows are twice
// as wide and twice as far apart as at 1×, for a lecture hall.
func TestDropletTableFollowsUIScale(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 65))
	g.Layout(ScreenWidth, ScreenHeight)
	t.Cleanup(func() {
		onLoop(func() { g.OpenLesson(lesson.State{}, true) })
		g.ui.scale = 0
	})
	openLink(t, g, "size=65&lesson=erosion&droplet=7")
	// The box around the table's coloured rows (the steps that eroded or
	// deposited) in the left half of a 1280×720 frame.
	near := func(a, b color.RGBA) bool {
		d := func(x, y uint8) bool { return x-y < 24 || y-x < 24 }
		return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B)
	}
	box := func() image.Rectangle {
		var img *image.RGBA
		onLoop(func() {
			screen := ebiten.NewImage(1280, 720)
			defer screen.Deallocate()
			g.drawDropletTable(screen)
			img = ScreenPixels(screen)
		})
		var r image.Rectangle
		for y := range 720 {
			for x := range 1280 {
				if c := img.RGBAAt(x, y); near(c, erodeColour) || near(c, depositColour) {
					r = r.Union(image.Rect(x, y, x+1, y+1))
				}
			}
		}
		return r
	}
	show := g.ShowUI
	g.ShowUI = false // the view the whole frame wide, as render draws it
	defer func() { g.ShowUI = show }()
	one := box()
	g.ui.scale = 2
	two := box()
	if one.Empty() || two.Empty() {
		t.Fatalf("no table rows drawn: %v at 1×, %v at 2×", one, two)
	}
	if w1, w2 := one.Dx(), two.Dx(); w2 < 2*w1-6 || w2 > 2*w1+6 {
		t.Errorf("the rows are %d px wide at 1× and %d at 2×; want twice", w1, w2)
	}
	// Under a header twice as tall.
	if h1, h2 := one.Min.Y-teachTop, two.Min.Y-teachTop; h2 < 2*h1-6 || h2 > 2*h1+6 {
		t.Errorf("the first row starts %d px under the table's top at 1× and %d at 2×; want twice", h1, h2)
	}
}
