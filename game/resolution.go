package game

import (
	"fmt"
	"image"
	"math"
	"time"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
)

// Dynamic resolution. Under software OpenGL the terrain's fragment shader
// is most of a frame, and its cost goes with the pixels drawn; so the 3D
// view is drawn into an offscreen image a scale of the screen's size and
// upscaled with filtering, while the panels, HUD and minimap stay sharp.
// In auto mode the scale follows the frame time towards a target.

// Resolution is how finely the 3D view is drawn.
type Resolution struct {
	// Auto adapts the scale to hold TargetFPS; the explorer window starts
	// so (Run), renders and tests draw at Fixed.
	Auto bool
	// Fixed is the scale when Auto is off: 0.25–1 of the screen's size
	// (default 1).
	Fixed float64
	// TargetFPS is the frame rate Auto holds (default 30).
	TargetFPS float64
}

// DefaultResolution draws at the full size; the target for auto is 30 FPS.
func DefaultResolution() Resolution { return Resolution{Fixed: 1, TargetFPS: 30} }

// Scale limits and the scale's quantum (a change smaller than a step is
// not made, so the view does not shimmer between nearly equal sizes).
const (
	minViewScale  = 0.25
	maxViewScale  = 1
	viewScaleStep = 1.0 / 64
)

// viewResolution is the offscreen view and the auto scale's state.
type viewResolution struct {
	img   *ebiten.Image // the offscreen view, the screen's size (drawn into a corner)
	aaImg *ebiten.Image // the view after the edge pass when it is upscaled after it
	scale float64       // the scale of the frame being drawn
	auto  float64       // the scale auto mode chose (0: not started)

	last    time.Time // when the previous frame started
	avg     float64   // smoothed frame time, seconds
	samples int       // frames measured since the last change
}

// frameTimeSmoothing is the weight of the newest frame in the average.
const frameTimeSmoothing = 0.3

// maxFrameTime is the longest time between two frames that counts as a
// frame: a longer one is a pause (the window hidden, a file dialog).
const maxFrameTime = 2.0

// adaptEvery is how many frames pass between two changes of the scale: the
// average needs that long to show the last change's effect.
const adaptEvery = 4

// nextViewScale is the scale that should bring a frame time of frameTime
// seconds at scale to target seconds, assuming the time goes with the
// pixels drawn (the square of the scale). Within a band around the target
// it keeps the scale; a step changes it by at most a quarter.
func nextViewScale(scale, frameTime, target float64) float64 {
	if frameTime <= 0 {
		return scale
	}
	ratio := target / frameTime // > 1: time to spare
	if ratio >= 0.95 && ratio <= 1.3 {
		return scale
	}
	s := scale * math.Max(0.75, math.Min(math.Sqrt(ratio), 1.25))
	s = math.Round(s/viewScaleStep) * viewScaleStep
	return math.Max(minViewScale, math.Min(s, maxViewScale))
}

// measure records that a frame starts now and adapts the auto scale.
func (r *viewResolution) measure(now time.Time, targetFPS float64) {
	if r.auto == 0 {
		r.auto = maxViewScale
	}
	if dt := now.Sub(r.last).Seconds(); !r.last.IsZero() && dt < maxFrameTime {
		if r.avg == 0 {
			r.avg = dt
		}
		r.avg += frameTimeSmoothing * (dt - r.avg)
		r.samples++
	}
	r.last = now
	if r.samples >= adaptEvery && targetFPS > 0 {
		if s := nextViewScale(r.auto, r.avg, 1/targetFPS); s != r.auto {
			r.auto = s
			r.samples = 0
		}
	}
}

// target returns the image the 3D view is drawn into this frame and its
// size: the screen itself at full scale without anti-aliasing, else a
// corner of the offscreen image.
func (g *Game) viewTarget(screen *ebiten.Image) (*ebiten.Image, int, int) {
	r, set := &g.res, g.Resolution
	w, h := screen.Bounds().Dx(), screen.Bounds().Dy()
	r.scale = math.Max(minViewScale, math.Min(set.Fixed, maxViewScale))
	if set.Auto {
		r.measure(time.Now(), set.TargetFPS)
		r.scale = r.auto
	}
	if r.scale >= maxViewScale && !g.View.Antialias {
		return screen, w, h
	}
	if r.img == nil || r.img.Bounds().Dx() != w || r.img.Bounds().Dy() != h {
		if r.img != nil {
			r.img.Deallocate()
		}
		r.img = ebiten.NewImageWithOptions(image.Rect(0, 0, w, h), &ebiten.NewImageOptions{Unmanaged: true})
	}
	vw, vh := max(int(math.Round(float64(w)*r.scale)), 1), max(int(math.Round(float64(h)*r.scale)), 1)
	return r.img.SubImage(image.Rect(0, 0, vw, vh)).(*ebiten.Image), vw, vh
}

// presentView upscales the 3D view onto the screen with the sharp upscale
// (upscale.go; nothing to do when it was drawn there), through the edge
// anti-aliasing pass first when it is on.
func (g *Game) presentView(screen, view *ebiten.Image) {
	if view == screen {
		return
	}
	if g.View.Antialias {
		if view = g.antialiased(screen, view); view == nil {
			return
		}
	}
	g.render.upscale(screen, view)
}

// ViewScale is the scale the latest frame's 3D view was drawn at.
func (g *Game) ViewScale() float64 { return g.res.scale }

// resolutionText is the HUD's note of the view's scale.
func (g *Game) resolutionText() string {
	mode := "fixed"
	if g.Resolution.Auto {
		mode = fmt.Sprintf("auto for %.0f FPS", g.Resolution.TargetFPS)
	}
	return fmt.Sprintf("view %.0f %% (%s)", 100*g.res.scale, mode)
}

// resolutionWidgets are the Viewer panel's resolution settings.
func (g *Game) resolutionWidgets(ctx *debugui.Context) {
	set := &g.Resolution
	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Checkbox(&set.Auto, "auto resolution (holds the target FPS)")
	ctx.SetGridLayout([]int{110, -1}, nil)
	if set.Auto {
		ctx.Text("target FPS")
		ctx.SliderF(&set.TargetFPS, 10, 60, 1, 0)
		ctx.Text("resolution %")
		ctx.Text(fmt.Sprintf("%.0f (auto)", 100*g.res.scale))
		return
	}
	ctx.Text("resolution %")
	pct := int(math.Round(100 * set.Fixed))
	ctx.Slider(&pct, 25, 100, 1).On(func() { set.Fixed = float64(pct) / 100 })
}
