package game

import (
	"math"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
)

// The auto scale settles where the frame rate meets the target, on a model
// machine whose frame costs a fixed part plus a part that goes with the
// pixels drawn, and stays there.
func TestAutoViewScaleHoldsTheTarget(t *testing.T) {
	for _, tc := range []struct {
		name        string
		fixed, full float64 // seconds: the frame's fixed part, its pixel part at full scale
		wantScale   float64 // 0: anything between the limits
	}{
		{"slow shader", 0.010, 0.100, 0},
		{"fast machine", 0.005, 0.010, 1},
		{"CPU bound", 0.050, 0.100, minViewScale},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const target = 30.0
			var r viewResolution
			now := time.Unix(0, 0)
			var scales []float64
			for range 300 {
				r.measure(now, target)
				r.redrew(now)
				s := r.auto
				scales = append(scales, s)
				now = now.Add(time.Duration((tc.fixed + tc.full*s*s) * float64(time.Second)))
			}
			last := scales[len(scales)-1]
			for _, s := range scales[len(scales)-100:] {
				if s != last {
					t.Fatalf("the scale still changes after 200 frames: %v", scales[len(scales)-100:])
				}
			}
			fps := 1 / (tc.fixed + tc.full*last*last)
			t.Logf("settled at %.0f %%: %.1f FPS for a target of %v", 100*last, fps, target)
			switch {
			case tc.wantScale != 0 && last != tc.wantScale:
				t.Errorf("settled at %.3f; want %.3f", last, tc.wantScale)
			case tc.wantScale == 0 && (fps < 0.9*target || fps > 1.35*target):
				t.Errorf("settled at %.3f, %.1f FPS; want 0.9–1.35 × %v FPS", last, fps, target)
			}
		})
	}
}

// A fixed scale of 50 % draws the 3D view at half the size and upscales
// it: the same picture, softened, unlike full scale pixel for pixel.
func TestFixedViewScaleDrawsTheSamePicture(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 257))
	lowView(g.Camera, g.World.Map)
	full := renderFrame(g, false)
	if g.ViewScale() != 1 {
		t.Fatalf("the default draws at %.2f; want full scale", g.ViewScale())
	}
	g.Resolution.Fixed = 0.5
	half := renderFrame(g, false)
	if g.ViewScale() != 0.5 {
		t.Fatalf("with Fixed 0.5 the view is drawn at %.2f", g.ViewScale())
	}
	if g.scene.frame.triangles == 0 {
		t.Fatal("nothing drawn at half scale")
	}
	var sum float64
	differ := 0
	for i := 0; i < len(full.Pix); i += 4 {
		d := 0.0
		for k := range 3 {
			d += math.Abs(float64(full.Pix[i+k]) - float64(half.Pix[i+k]))
		}
		sum += d / 3
		if d > 0 {
			differ++
		}
	}
	mean := sum / float64(len(full.Pix)/4)
	t.Logf("half scale: mean difference %.2f levels, %d of %d pixels differ", mean, differ, len(full.Pix)/4)
	if differ < len(full.Pix)/4/20 {
		t.Errorf("only %d pixels differ from the full-scale frame: the view was not drawn at half scale", differ)
	}
	if mean > 12 {
		t.Errorf("the half-scale frame differs by %.1f levels on average: not the same picture", mean)
	}
}

// benchmarkFPS1280 measures whole frames of the default world at 1280×720
// with the panels, HUD and minimap shown, after the auto scale has
// settled: fps and the scale the view was drawn at.
func benchmarkFPS1280(b *testing.B, auto, walk bool) {
	needLoop(b)
	g := newTestGame(b, testWorld(b, 1025))
	g.ShowUI, g.ShowMinimap, g.HUD = true, true, true
	g.Resolution.Auto = auto
	if walk {
		lowView(g.Camera, g.World.Map)
		g.Camera.SetMode(Walk, g.World.Map)
	}
	waitLight(b, g)
	onLoop(func() { loop.w, loop.h = ScreenWidth, ScreenHeight })
	defer onLoop(func() { loop.w, loop.h = testW, testH })
	setDraw(func(screen *ebiten.Image) {
		if walk {
			// A walker who walks: one 30 Hz tick forward and a slight turn
			// every frame, so that no frame is the last one kept.
			g.Camera.Look(0.01, 0)
			g.Camera.Step(Input{Forward: 1}, 1.0/30, g.World.Map)
		}
		if err := g.Update(); err != nil {
			b.Error(err)
		}
		g.Draw(screen)
	})
	defer setDraw(nil)
	waitFrames(60) // the scale settles within about 30 frames
	b.ResetTimer()
	waitFrames(int64(b.N))
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "fps")
	b.ReportMetric(100*g.ViewScale(), "scale%")
}

func BenchmarkFPSAuto1280(b *testing.B)     { benchmarkFPS1280(b, true, false) }
func BenchmarkFPSAuto1280Walk(b *testing.B) { benchmarkFPS1280(b, true, true) }
func BenchmarkFPSFull1280(b *testing.B)     { benchmarkFPS1280(b, false, false) }
