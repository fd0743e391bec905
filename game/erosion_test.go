package game

import (
	"context"
	"encoding/json"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cordillera/pipeline"
	"cordillera/terrain"

	"github.com/go-gl/mathgl/mgl32"
)

// A generated world with erosion: the worker publishes the map as erosion
// goes (here after every pass), ends
// with exactly what the pipeline makes, and brings the masks along.
func TestRegeneratorErodesAndShowsPasses(t *testing.T) {
	r := NewRegenerator()
	defer r.Close()
	p := terrain.DefaultParams()
	p.Size, p.Erosion, p.HydraulicDroplets = 257, "hydraulic,thermal", 4
	r.PreviewSide = 257 // no coarse preview: only erosion passes come early
	r.PassEvery = 0     // every pass but the last of each stage
	id := r.Request(p)
	var last *Generated
	var passes int
	deadline := time.Now().Add(60 * time.Second)
	for busy := true; busy; busy, _ = r.Status() {
		if x := r.Take(); x != nil {
			if x.Preview && x.Stage != "" {
				passes++
			}
			last = x
		}
		if time.Now().After(deadline) {
			t.Fatal("erosion never finished")
		}
		time.Sleep(time.Millisecond)
	}
	if x := r.Take(); x != nil {
		last = x
	}
	if last == nil || last.ID != id || last.Preview || last.Err != nil {
		t.Fatalf("last result %+v, want the full eroded map", last)
	}
	want, err := pipeline.Generate(context.Background(), p, pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range want.Map.Samples {
		if last.World.Map.Samples[i] != v {
			t.Fatalf("sample %d is %v, the pipeline makes %v", i, last.World.Map.Samples[i], v)
		}
	}
	if last.World.Masks == nil || len(last.World.Masks.Flow) != 257*257 || last.Budget.Eroded <= 0 {
		t.Errorf("masks %v, budget %v: want the masks and a budget", last.World.Masks != nil, last.Budget)
	}
	if passes < 2 {
		t.Errorf("%d intermediate maps shown, want one per pass", passes)
	}
	t.Logf("%d intermediate maps shown; %v", passes, last.Budget)
}

// A loaded map with erosion: shown as loaded first, then eroded, the
// source kept so that new erosion settings wear the file's map again.
func TestRegeneratorErodesLoadedMap(t *testing.T) {
	r := NewRegenerator()
	defer r.Close()
	src := terrain.NewHeightmap(96, 96)
	for row := 0; row < 96; row++ {
		for col := 0; col < 96; col++ {
			src.Set(col, row, float32(max(0, 1-abs(col-48)/24.0)))
		}
	}
	src.VerticalScale = 40
	p := terrain.DefaultParams()
	p.Erosion = "thermal"
	r.RequestMap(func(context.Context) (*terrain.Heightmap, error) { return src, nil }, p)
	waitIdle(t, r)
	g := r.Take()
	if g == nil || g.Err != nil || g.Preview || g.World.Source != src {
		t.Fatalf("got %+v, want the eroded map with its source", g)
	}
	if g.World.Map.At(48, 48) >= src.At(48, 48) {
		t.Errorf("crest %v, was %v: not eroded", g.World.Map.At(48, 48), src.At(48, 48))
	}
	if src.At(48, 48) != 1 {
		t.Errorf("the source map was changed: crest now %v", src.At(48, 48))
	}
	// Less erosion: the crest stands higher than with the default rate.
	p.ThermalIterations = 1
	r.RequestErode(src, p)
	waitIdle(t, r)
	h := r.Take()
	if h == nil || h.Err != nil || h.World.Source != src || !(h.World.Map.At(48, 48) > g.World.Map.At(48, 48)) {
		t.Fatalf("one sweep left the crest at %v, fifty at %v", h.World.Map.At(48, 48), g.World.Map.At(48, 48))
	}
}

func abs(x int) float64 {
	if x < 0 {
		return float64(-x)
	}
	return float64(x)
}

// The erosion lesson: each step runs a batch of droplets on the lesson's
// map, which changes, draws the droplets' paths in water blue, and keeps
// the mass budget balanced; reset brings the uneroded map back.
func TestTeachErosionLesson(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 257))
	g.Params.Size = 257
	onLoop(func() { g.setTeachMode(teachErosion) })
	t.Cleanup(func() { onLoop(func() { g.setTeachMode(teachOff) }) })
	e := &g.teach.erosion
	if e.m == nil || e.m.Width != erosionLessonSide {
		t.Fatal("no lesson map")
	}
	start := append([]float32(nil), e.m.Samples...)
	before := renderFrame(g, false)
	for range 3 {
		onLoop(g.erosionStep)
	}
	if e.pass != 3 || len(e.paths) != erosionPathsShown {
		t.Fatalf("after 3 steps: pass %d, %d paths shown", e.pass, len(e.paths))
	}
	// The state file tells the lesson and its batches.
	statePath := filepath.Join(t.TempDir(), "state.json")
	t.Setenv(StateFileEnv, statePath)
	onLoop(func() { g.writeState(0) })
	var st State
	if data, err := os.ReadFile(statePath); err != nil || json.Unmarshal(data, &st) != nil {
		t.Fatalf("state file: %v", err)
	}
	if st.Teach.Mode != "erosion" || st.Teach.Batch != 3 {
		t.Errorf("state says lesson %q at batch %d, want erosion at 3", st.Teach.Mode, st.Teach.Batch)
	}
	changed := 0
	for i, v := range e.m.Samples {
		if v != start[i] {
			changed++
		}
	}
	if changed < len(start)/10 {
		t.Errorf("3 batches changed %d of %d samples", changed, len(start))
	}
	b := e.budget
	if b.Eroded <= 0 || abs64(b.Eroded-b.Deposited-b.Suspended-b.CarriedOff) > 1e-6*b.Eroded {
		t.Errorf("budget %v does not balance", b)
	}
	after := renderFrame(g, false)
	blue := 0
	for y := 0; y < testH; y++ {
		for x := 0; x < testW; x++ {
			if c := after.RGBAAt(x, y); c.B > 200 && c.R < 110 && c.G > 120 && c.G < 210 {
				blue++
			}
		}
	}
	if blue < 50 {
		t.Errorf("%d pixels of droplet paths drawn, want the paths in view", blue)
	}
	if n, _ := differing(before, after, image.Rect(0, 0, testW, testH), 8); n < 500 {
		t.Errorf("the view changed in %d pixels after 3 batches", n)
	}
	onLoop(g.erosionReset)
	for i, v := range e.m.Samples {
		if v != start[i] {
			t.Fatalf("reset left sample %d at %v, want %v", i, v, start[i])
		}
	}
	if text := g.erosionText(); len(text) == 0 {
		t.Error("no lesson text")
	}
}

func abs64(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// Entering a lesson frames its mesh wherever the camera was, and a plot
// of the lesson says what it plots: the partial sum, not the generator.
func TestLessonsFrameTheCameraAndTitlePlots(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 257))
	g.Params.Size, g.Params.Octaves = 129, 5
	g.Camera.Pos = mgl32.Vec3{5000, 3, -4000} // far off the map
	onLoop(func() { g.setTeachMode(teachOctaves) })
	t.Cleanup(func() { onLoop(func() { g.setTeachMode(teachOff) }) })
	lessonMapInView(t, g)
	onLoop(func() { g.teach.octK = 3; g.showOctaves() })
	if name := g.shownName(); !strings.Contains(name, "partial sum of 3 of 5 octaves") {
		t.Errorf("plot title %q, want it to name the partial sum shown", name)
	}
}
