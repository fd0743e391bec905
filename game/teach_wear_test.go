package game

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"cordillera/internal/lesson"
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
		"to a diagonal (d = √2·",
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
	F := p.FluvialK * p.FluvialDt * math.Sqrt(a) / v.Distance // m 0.5, n 1
	h := (v.Before + v.Uplift + F*v.Receiver0) / (1 + F)
	if math.Abs(h-v.After) > 1e-9*math.Max(1, math.Abs(h)) {
		t.Errorf("sample (%d, %d): %+v; the update gives %g", f.x, f.y, v, h)
	}
	text := g.lessonText()
	for _, w := range []string{
		fmt.Sprintf("Sample (%d, %d): A = %d cells", f.x, f.y, v.Area),
		fmt.Sprintf("F = K·Δt·A^m/d^n = %.4g", F),
		fmt.Sprintf("= %.3f m; incision Δt·U + h0 − h = %.3f m", h, v.Before+v.Uplift-h),
	} {
		if !strings.Contains(text, w) {
			t.Errorf("the fluvial text lacks %q:\n%s", w, text)
		}
	}
	if v.Area < 50 {
		t.Errorf("the lesson's sample drains %d cells; want a channel", v.Area)
	}
}
