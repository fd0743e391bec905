package game

import (
	"image"
	"image/color"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

// edgeWidth is how many pixels along row y of img the red channel takes to
// rise from 10 % to 90 % of the way from lo to hi, crossings found between
// pixel centres by linear interpolation.
func edgeWidth(img *image.RGBA, y int, lo, hi float64) float64 {
	cross := func(level float64) float64 {
		for x := 1; x < img.Bounds().Dx(); x++ {
			a, b := float64(img.RGBAAt(x-1, y).R), float64(img.RGBAAt(x, y).R)
			if a < level && b >= level {
				return float64(x-1) + (level-a)/(b-a)
			}
		}
		return -1
	}
	return cross(lo+0.9*(hi-lo)) - cross(lo+0.1*(hi-lo))
}

// The view's upscale keeps a step edge narrower than a bilinear upscale
// does, never rings beyond the edge's two colours, and reads nothing from
// outside the view's part of its image.
func TestUpscaleKeepsEdgesSharp(t *testing.T) {
	needLoop(t)
	const vw, vh, scale = 40, 30, 4
	const lo, hi = 50, 200
	var sharp, linear *image.RGBA
	onLoop(func() {
		r, err := newRenderer()
		if err != nil {
			t.Error(err)
			return
		}
		// The view is the corner of a larger image, as the game's is; the
		// rest of it is red, which must not show.
		whole := ebiten.NewImage(3*vw, 3*vh)
		defer whole.Deallocate()
		whole.Fill(color.RGBA{255, 0, 0, 255})
		view := whole.SubImage(image.Rect(0, 0, vw, vh)).(*ebiten.Image)
		view.Fill(color.RGBA{lo, lo, lo, 255})
		view.SubImage(image.Rect(vw/2, 0, vw, vh)).(*ebiten.Image).Fill(color.RGBA{hi, hi, hi, 255})

		dst := ebiten.NewImage(scale*vw, scale*vh)
		defer dst.Deallocate()
		r.upscale(dst, view)
		sharp = ScreenPixels(dst)

		var op ebiten.DrawImageOptions
		op.GeoM.Scale(scale, scale)
		op.Filter = ebiten.FilterLinear
		op.Blend = ebiten.BlendCopy
		dst.DrawImage(view, &op)
		linear = ScreenPixels(dst)
	})
	if sharp == nil {
		t.FailNow()
	}
	y := scale * vh / 2
	ws, wl := edgeWidth(sharp, y, lo, hi), edgeWidth(linear, y, lo, hi)
	t.Logf("10–90 %% width of a step edge upscaled %d×: %.2f px (bilinear %.2f px)", scale, ws, wl)
	if ws <= 0 || wl <= 0 {
		t.Fatalf("no edge found: widths %.2f, %.2f", ws, wl)
	}
	if ws > 0.8*wl {
		t.Errorf("the edge is %.2f px wide; want under 0.8 of bilinear's %.2f px", ws, wl)
	}
	b := sharp.Bounds()
	for yy := range b.Dy() {
		for x := range b.Dx() {
			c := sharp.RGBAAt(x, yy)
			if c.R < lo || c.R > hi || c.G != c.R || c.B != c.R || c.A != 255 {
				t.Fatalf("pixel (%d, %d) is %v: beyond the edge's greys %d–%d (ringing, or the image around the view)", x, yy, c, lo, hi)
			}
		}
	}
}

// benchmarkUpscale1280 times upscales of a 50 % view to 1280×720, the
// sharp one or Ebitengine's bilinear, each followed by a pixel read so the
// GPU's work is waited for.
func benchmarkUpscale1280(b *testing.B, sharp bool) {
	needLoop(b)
	onLoop(func() {
		r, err := newRenderer()
		if err != nil {
			b.Error(err)
			return
		}
		view := ebiten.NewImage(ScreenWidth/2, ScreenHeight/2)
		defer view.Deallocate()
		dst := ebiten.NewImage(ScreenWidth, ScreenHeight)
		defer dst.Deallocate()
		var px [4]byte
		b.ResetTimer()
		for range b.N {
			if sharp {
				r.upscale(dst, view)
			} else {
				var op ebiten.DrawImageOptions
				op.GeoM.Scale(2, 2)
				op.Filter = ebiten.FilterLinear
				op.Blend = ebiten.BlendCopy
				dst.DrawImage(view, &op)
			}
			dst.SubImage(image.Rect(0, 0, 1, 1)).(*ebiten.Image).ReadPixels(px[:])
		}
	})
}

func BenchmarkUpscale1280Sharp(b *testing.B)    { benchmarkUpscale1280(b, true) }
func BenchmarkUpscale1280Bilinear(b *testing.B) { benchmarkUpscale1280(b, false) }

// benchmarkViewScale1280 measures whole frames of the default world at
// 1280×720, walking, the view drawn at a fixed share: what the auto
// resolution's floor costs.
func benchmarkViewScale1280(b *testing.B, share float64) {
	needLoop(b)
	g := newTestGame(b, testWorld(b, 1025))
	g.Resolution.Fixed = share
	lowView(g.Camera, g.World.Map)
	g.Camera.SetMode(Walk, g.World.Map)
	onLoop(func() { loop.w, loop.h = ScreenWidth, ScreenHeight })
	defer onLoop(func() { loop.w, loop.h = testW, testH })
	setDraw(func(screen *ebiten.Image) {
		g.Camera.Look(0.01, 0)
		g.Camera.Step(Input{Forward: 1}, 1.0/30, g.World.Map)
		g.Draw(screen)
	})
	defer setDraw(nil)
	waitFrames(10)
	b.ResetTimer()
	waitFrames(int64(b.N))
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "fps")
}

func BenchmarkViewScale1280Share25(b *testing.B)  { benchmarkViewScale1280(b, 0.25) }
func BenchmarkViewScale1280Share50(b *testing.B)  { benchmarkViewScale1280(b, 0.5) }
func BenchmarkViewScale1280Share100(b *testing.B) { benchmarkViewScale1280(b, 1) }
