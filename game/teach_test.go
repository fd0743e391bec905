package game

import (
	"context"
	"image"
	"image/color"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"cordillera/terrain"
)

// Stepping through diamond-square on a 33² map: every stage shows the mesh
// at its iteration's resolution with its new points marked, the frame
// changes at each step, and the last stage is exactly the generator's map.
func TestTeachSubdivisionSteps(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 257))
	before := g.World
	g.teach.alg, g.teach.sizeIdx = 1, 3 // diamond-square, 33²
	onLoop(func() { g.setTeachMode(teachSubdivision) })
	steps := g.teach.stepper.Steps()
	if len(steps) != 10 {
		t.Fatalf("%d stages for 33² diamond-square, want 10 (5 iterations × diamond, square)", len(steps))
	}
	if g.World.Map.Width != 2 {
		t.Errorf("before any stage the mesh is %d², want the 2² corners", g.World.Map.Width)
	}
	all := image.Rect(0, 0, testW, testH)
	// Looking straight down on the lattice, left of the diagram: every
	// point is on screen and nothing hides its mark.
	g.Camera.Pos = mgl32.Vec3{512, 1400, 760}
	g.Camera.Pitch, g.Camera.Yaw = -math.Pi/2+0.001, 0
	prev := renderFrame(g, false)
	for k := 1; k <= len(steps); k++ {
		onLoop(func() { g.teachStep(1) })
		s := steps[k-1]
		if want := 32/s.Spacing + 1; g.World.Map.Width != want {
			t.Errorf("stage %d (%s of iteration %d): mesh %d², want %d²", k, s.Stage, s.Iteration, g.World.Map.Width, want)
		}
		frame := renderFrame(g, false)
		if n, _ := differing(frame, prev, all, 4); n < 200 {
			t.Errorf("stage %d changed only %d pixels", k, n)
		}
		// Every added point is marked with a red dot where it is, and was
		// not red before its stage: the pose shows the whole 33² lattice,
		// so a point off screen is a failure, not a reason to skip.
		diagram := image.Rect(testW-diagramSide-10, teachTop, testW-10, teachTop+diagramSide)
		p := newProjector(viewProjection(g.Camera, testW, testH), testW, testH, g.Camera.Near)
		cell := lessonCell(33)
		for _, a := range s.Added {
			x, z := float64(a[0])*cell, float64(a[1])*cell
			pos := mgl32.Vec3{float32(x), float32(g.World.Map.GroundHeight(x, z)), float32(z)}
			if p.clipW(pos) < p.near {
				t.Fatalf("stage %d: added point (%d,%d) is behind the camera %+v", k, a[0], a[1], g.Camera)
			}
			v := p.vertex(surfaceVertex{pos: pos})
			at := image.Pt(int(v.DstX), int(v.DstY))
			if !at.In(all) || at.In(diagram.Inset(-5)) {
				t.Fatalf("stage %d: added point (%d,%d) projects to %v, off the %d×%d screen or under the diagram %v", k, a[0], a[1], at, testW, testH, diagram)
			}
			if c := frame.RGBAAt(at.X, at.Y); !isMarkRed(c) {
				t.Errorf("stage %d: added point (%d,%d) at %v shows %v, not the red mark", k, a[0], a[1], at, c)
			}
			if c := prev.RGBAAt(at.X, at.Y); isMarkRed(c) {
				t.Errorf("stage %d: added point (%d,%d) at %v was already red (%v) before its stage", k, a[0], a[1], at, c)
			}
		}
		prev = frame
	}
	p := g.Params
	p.Algorithm, p.Size = terrain.DiamondSquareAlg, 33
	want, err := terrain.Generate(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range want.Samples {
		if math.Float32bits(g.World.Map.Samples[i]) != math.Float32bits(v) {
			t.Fatalf("last stage differs from the generator at sample %d: %v vs %v", i, g.World.Map.Samples[i], v)
		}
	}
	onLoop(func() { g.setTeachMode(teachOff) })
	if g.World != before {
		t.Error("leaving the lesson did not bring back the world")
	}
}

// isMarkRed tells the lesson's marks of added points from the terrain.
func isMarkRed(c color.RGBA) bool { return c.R > 200 && c.G < 80 && c.B < 80 }

// The octave slider shows the partial sum of the first k octaves exactly.
func TestTeachOctaveSlider(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 257))
	g.Params.Size, g.Params.Octaves = 129, 5
	onLoop(func() { g.setTeachMode(teachOctaves) })
	t.Cleanup(func() { onLoop(func() { g.setTeachMode(teachOff) }) })
	if len(g.teach.partials) != 5 || len(g.teach.thumbRGB) != 5 {
		t.Fatalf("%d partial sums and %d thumbnails, want 5 of each", len(g.teach.partials), len(g.teach.thumbRGB))
	}
	p := g.Params
	full, _ := terrain.Generate(context.Background(), p, nil)
	all := image.Rect(0, 0, testW, testH)
	var frames []*image.RGBA
	for k := 1; k <= 5; k++ {
		onLoop(func() { g.teach.octK = k; g.showOctaves() })
		q := p
		q.Octaves = k
		parts, _ := terrain.Octaves(context.Background(), q)
		lo, hi := g.teach.partials[4].Range()
		for i, v := range parts[k-1].Samples {
			want := float32((float64(v) - float64(lo)) / (float64(hi) - float64(lo)))
			if g.World.Map.Samples[i] != want {
				t.Fatalf("k=%d: sample %d is %v, want the normalised partial sum %v", k, i, g.World.Map.Samples[i], want)
			}
		}
		frames = append(frames, renderFrame(g, false))
	}
	for i, v := range full.Samples { // all octaves: the generator's own map
		if math.Abs(float64(g.World.Map.Samples[i]-v)) > 1e-6 {
			t.Fatalf("all octaves differ from the generator at sample %d", i)
		}
	}
	if n, _ := differing(frames[0], frames[4], all, 8); n < testW*testH/20 {
		t.Errorf("one octave and five look alike: %d pixels differ", n)
	}
}

// The spectrum plot of the world shown appears over the 3D view with the
// fitted slope beside fBm theory's.
func TestExplorerSpectrumPlot(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 257))
	before := renderFrame(g, false)
	onLoop(func() { g.setPlot(3) })
	deadline := time.Now().Add(20 * time.Second)
	for g.plots.img == nil && time.Now().Before(deadline) {
		onLoop(func() { g.updatePlot() })
		waitFrames(1)
	}
	if g.plots.img == nil {
		t.Fatal("the spectrum plot never came")
	}
	if !strings.Contains(g.plots.summary, "spectrum slope") || !strings.Contains(g.plots.summary, "theory") {
		t.Errorf("summary %q lacks the fitted and theory slopes", g.plots.summary)
	}
	after := renderFrame(g, false)
	r := g.plotRect(testH)
	n, total := differing(after, before, r.Intersect(image.Rect(0, 0, testW, testH)), 8)
	if n < total/3 {
		t.Errorf("the plot area changed in only %d of %d pixels", n, total)
	}
	onLoop(func() { g.setPlot(0) })
	if cleared := renderFrame(g, false); func() int { n, _ := differing(cleared, before, image.Rect(0, 0, testW, testH), 0); return n }() != 0 {
		t.Error("choosing no plot left the plot on screen")
	}
}
