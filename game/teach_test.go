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
	lookDown := func() { // after each stage, which frames the lesson as it likes
		g.Camera.Pos = mgl32.Vec3{512, 1400, 760}
		g.Camera.Pitch, g.Camera.Yaw = -math.Pi/2+0.001, 0
	}
	lookDown()
	prev := renderFrame(g, false)
	for k := 1; k <= len(steps); k++ {
		onLoop(func() { g.teachStep(1); lookDown() })
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
	onLoop(func() { g.plots.setPlot(3) })
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
	onLoop(func() { g.plots.setPlot(0) })
	if cleared := renderFrame(g, false); func() int { n, _ := differing(cleared, before, image.Rect(0, 0, testW, testH), 0); return n }() != 0 {
		t.Error("choosing no plot left the plot on screen")
	}
}

// The octave thumbnails share the first octave's scale: on screen, each
// fBm octave's grey spread against the first's is its share of the height
// (λ^(−H) = 1/2 per octave here), not a full-contrast picture of its own.
func TestTeachOctaveThumbsCommonScale(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 257))
	g.Params.Algorithm, g.Params.Size, g.Params.Octaves = terrain.FBm, 129, 5
	g.Params.Hurst, g.Params.Lacunarity = 1, 2
	onLoop(func() { g.setTeachMode(teachOctaves) })
	t.Cleanup(func() { onLoop(func() { g.setTeachMode(teachOff) }) })
	onLoop(func() { g.teach.octK = 5; g.showOctaves() }) // every thumbnail opaque
	frame := renderFrame(g, false)
	spread := func(vs []float64) float64 {
		var s, s2 float64
		for _, v := range vs {
			s += v
			s2 += v * v
		}
		m := s / float64(len(vs))
		return math.Sqrt(s2/float64(len(vs)) - m*m)
	}
	var pix, height []float64
	for i := range 5 {
		x0 := testW - (5-i)*(thumbSide+6) - 4
		var grey []float64
		for y := teachTop; y < teachTop+thumbSide; y++ {
			for x := x0; x < x0+thumbSide; x++ {
				c := frame.RGBAAt(x, y)
				if c.R != c.G || c.G != c.B {
					t.Fatalf("thumbnail %d at (%d, %d) is %v, not grey", i+1, x, y, c)
				}
				grey = append(grey, float64(c.R))
			}
		}
		pix = append(pix, spread(grey))
		c, err := terrain.OctaveContribution(context.Background(), g.Params, i)
		if err != nil {
			t.Fatal(err)
		}
		var hs []float64
		for _, v := range c.Samples {
			hs = append(hs, float64(v))
		}
		height = append(height, spread(hs))
	}
	for i := 1; i < 5; i++ {
		got, want := pix[i]/pix[0], height[i]/height[0]
		if math.Abs(got-want) > 0.25*want {
			t.Errorf("octave %d: grey spread %.3g of octave 1's, its heights' %.3g (λ^(-iH) = %.3g)", i+1, got, want, math.Pow(2, -float64(i)))
		}
	}
	if g := pix[1] / pix[0]; g > 0.7 {
		t.Errorf("octave 2 spreads %.2g of octave 1's greys; at H = 1 it carries about half the height", g)
	}
}

// At 257², the lesson's size for the default 1025² world, octave 8 has a
// wavelength of 1.15 samples: its label and the panel say it is aliased;
// octave 7 (2.3 samples) is not flagged.
func TestTeachOctaveAliasFlag(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 257))
	g.Params = terrain.DefaultParams() // fBm, 8 octaves, 1025²
	onLoop(func() { g.setTeachMode(teachOctaves) })
	t.Cleanup(func() { onLoop(func() { g.setTeachMode(teachOff) }) })
	if n := g.teach.partials[0].Width; n != 257 {
		t.Fatalf("the lesson's map is %d², want 257²", n)
	}
	if l := g.octaveLabel(7); !strings.Contains(l, "aliased") || !strings.Contains(l, "x0.0078") {
		t.Errorf("octave 8's label %q does not flag it aliased or lacks its factor 0.0078", l)
	}
	if l := g.octaveLabel(6); strings.Contains(l, "aliased") {
		t.Errorf("octave 7's label %q flags it, at 2.3 samples", l)
	}
	text := g.octaveText()
	for _, want := range []string{"octave 8 (i = 7): frequency λ^i = 128", "wavelength 257^(90/100)/λ^7 = 1.15 samples: below 2 samples: aliased", "the map made at 257², not the world's 1025²"} {
		if !strings.Contains(text, want) {
			t.Errorf("the panel says\n%s\nwithout %q", text, want)
		}
	}
	onLoop(func() { g.teach.octK = 7; g.showOctaves() })
	if text := g.octaveText(); strings.Contains(text, "aliased") {
		t.Errorf("octave 7 is flagged aliased:\n%s", text)
	}
}

// The octave lesson's labels as a lecturer reads them off a slide: the
// listing's bands is the whole sum's octave count and k the octaves
// summed, each under its own name; a factor of 0.125 is not shown as
// 0.12; the first octave's wavelength is size^(fs/100), given with its
// numbers, so that 148 samples at 257² and 79 at 129² both read as what
// they are (docs/teaching.md gives both).
func TestTeachOctaveLabelsRead(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 257))
	g.Params = terrain.DefaultParams() // fBm, 8 octaves, H 1, λ 2, feature size 90
	g.Params.Size = 129
	onLoop(func() { g.setTeachMode(teachOctaves) })
	t.Cleanup(func() { onLoop(func() { g.setTeachMode(teachOff) }) })
	if l := g.octaveLabel(3); !strings.Contains(l, "x0.125") {
		t.Errorf("octave 4's label %q; want its factor λ^(-3H) = 0.125 in full", l)
	}
	onLoop(func() { g.teach.octK = 3; g.showOctaves() })
	text := g.octaveText()
	if strings.Contains(text, "bands = 3") {
		t.Errorf("the panel names the octaves summed bands:\n%s", text)
	}
	for _, want := range []string{"summed: the first k = 3 of bands = 8 octaves", "octave 3 (i = 2)", "wavelength 129^(90/100)/λ^2 = 19.8 samples"} {
		if !strings.Contains(text, want) {
			t.Errorf("the panel says\n%s\nwithout %q", text, want)
		}
	}
	// The 1-D fBm's sum is not named H(x) beside H, the Hurst exponent.
	onLoop(func() { g.setTeachMode(teachProfile) })
	if text := g.profileText(); strings.Contains(text, "H(x)") || !strings.Contains(text, "f(x) = sum over i < k of N(λ^i x)·λ^(-iH)") {
		t.Errorf("the profile's fBm reads:\n%s", text)
	}
	onLoop(func() { g.setTeachMode(teachOctaves) })
	if w := g.octaveInfo(0).wavelength; math.Abs(w-79.3) > 0.05 {
		t.Errorf("octave 1 at 129²: wavelength %.3g samples; want 129^0.9 = 79.3", w)
	}
}

// The panel shows each fractal generator's formula as terrain's table
// has it (checked there against the thesis's listings and the generator),
// under its source.
func TestTeachOctaveFormulaShown(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 257))
	g.Params.Size, g.Params.Octaves = 33, 3
	onLoop(func() { g.setTeachMode(teachOctaves) })
	t.Cleanup(func() { onLoop(func() { g.setTeachMode(teachOff) }) })
	for alg, f := range terrain.OctaveFormulas {
		onLoop(func() { g.Params.Algorithm = alg; g.buildLesson() })
		text := g.octaveText()
		for _, l := range append([]string{f.Source + ":"}, f.Lines...) {
			if !strings.Contains(text, l+"\n") {
				t.Errorf("%s: the panel says\n%s\nwithout the line %q", alg, text, l)
			}
		}
	}
}
