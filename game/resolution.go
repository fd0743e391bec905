package game

import (
	"fmt"
	"image"
	"image/color"
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
	aaImg *ebiten.Image // the view after the edge pass
	upImg *ebiten.Image // the view upscaled to the screen's size
	scale float64       // the scale of the frame being drawn
	auto  float64       // the scale auto mode chose (0: not started)

	last    time.Time // when the last frame that drew the 3D view started
	avg     float64   // smoothed time of a frame that draws the 3D view, seconds
	samples int       // frames measured since the last change
	// lastRedrew: the frame that started at last drew the 3D view.
	lastRedrew bool
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

// measure records that a frame starts now and adapts the auto scale
// towards targetFPS (0: leave it). Only the frames that drew the 3D view
// count: the others are a copy of it and say nothing of its cost.
func (r *viewResolution) measure(now time.Time, targetFPS float64) {
	if r.auto == 0 {
		r.auto = maxViewScale
	}
	if dt := now.Sub(r.last).Seconds(); r.lastRedrew && !r.last.IsZero() && dt < maxFrameTime {
		if r.avg == 0 {
			r.avg = dt
		}
		r.avg += frameTimeSmoothing * (dt - r.avg)
		r.samples++
	}
	r.lastRedrew = false
	if r.samples >= adaptEvery && targetFPS > 0 {
		if s := nextViewScale(r.auto, r.avg, 1/targetFPS); s != r.auto {
			r.auto = s
			r.samples = 0
		}
	}
}

// redrew records that the frame that started at now draws the 3D view.
func (r *viewResolution) redrew(now time.Time) { r.last, r.lastRedrew = now, true }

// viewScale measures the frame starting now and returns the scale to draw
// the 3D view at.
func (g *Game) viewScale(now time.Time) float64 {
	r, set := &g.scene.res, g.Resolution
	target := 0.0
	if set.Auto {
		target = set.TargetFPS
	}
	r.measure(now, target)
	if set.Auto {
		return r.auto
	}
	return math.Max(minViewScale, math.Min(set.Fixed, maxViewScale))
}

// viewTarget returns the image a 3D view of the size is drawn into at
// scale and its size: a corner of the offscreen image, which keeps the
// view for the frames that do not draw it again.
func (s *sceneState) viewTarget(size image.Point, scale float64) (*ebiten.Image, int, int) {
	r := &s.res
	r.scale = scale
	w, h := size.X, size.Y
	if r.img == nil || r.img.Bounds().Dx() != w || r.img.Bounds().Dy() != h {
		if r.img != nil {
			r.img.Deallocate()
		}
		r.img = ebiten.NewImageWithOptions(image.Rect(0, 0, w, h), &ebiten.NewImageOptions{Unmanaged: true})
		s.view.invalidate()
	}
	vw, vh := max(int(math.Round(float64(w)*scale)), 1), max(int(math.Round(float64(h)*scale)), 1)
	return r.img.SubImage(image.Rect(0, 0, vw, vh)).(*ebiten.Image), vw, vh
}

// finishView returns the drawn view as it is shown, at the size: through
// the edge anti-aliasing pass when it is on, then through the sharp
// upscale (upscale.go) when it was drawn smaller. Both are done once per
// drawing of the view, not per frame: the frames between copy it.
func (g *Game) finishView(size image.Point, view *ebiten.Image) *ebiten.Image {
	if g.View.Antialias {
		view = g.antialiased(size, view)
	}
	sw, sh := size.X, size.Y
	if view.Bounds().Dx() == sw && view.Bounds().Dy() == sh {
		return view
	}
	r := &g.scene.res
	if r.upImg == nil || r.upImg.Bounds().Dx() != sw || r.upImg.Bounds().Dy() != sh {
		if r.upImg != nil {
			r.upImg.Deallocate()
		}
		r.upImg = ebiten.NewImageWithOptions(image.Rect(0, 0, sw, sh), &ebiten.NewImageOptions{Unmanaged: true})
	}
	g.render.upscale(r.upImg, view)
	return r.upImg
}

// panelStripColour fills the strip left of the 3D view that holds the
// panels: darker than their window, so the window stands out on it.
var panelStripColour = color.RGBA{24, 24, 24, 255}

// presentView copies the shown view, vr's size, onto vr of the screen,
// and fills what lies left of it (the panels' strip).
func (g *Game) presentView(screen *ebiten.Image, vr image.Rectangle, view *ebiten.Image) {
	if vr.Min.X > 0 {
		screen.SubImage(image.Rect(0, 0, vr.Min.X, vr.Max.Y)).(*ebiten.Image).Fill(panelStripColour)
	}
	var op ebiten.DrawImageOptions
	op.Blend = ebiten.BlendCopy
	op.GeoM.Translate(float64(vr.Min.X), float64(vr.Min.Y))
	screen.DrawImage(view, &op)
}

// ViewScale is the scale the latest frame's 3D view was drawn at.
func (g *Game) ViewScale() float64 { return g.scene.res.scale }

// resolutionText is the HUD's note of the view's scale.
func (g *Game) resolutionText() string {
	mode := "fixed"
	if g.Resolution.Auto {
		mode = fmt.Sprintf("auto for %.0f FPS", g.Resolution.TargetFPS)
	}
	return fmt.Sprintf("view %.0f %% (%s)", 100*g.scene.res.scale, mode)
}

// resolutionWidgets are the Viewer panel's resolution settings.
func (g *Game) resolutionWidgets(ctx *debugui.Context) {
	set := &g.Resolution
	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Checkbox(&set.Auto, "Auto resolution (holds the target FPS)")
	ctx.SetGridLayout([]int{specLabelW, -1}, nil)
	if set.Auto {
		ctx.Text("Target FPS")
		ctx.SliderF(&set.TargetFPS, 10, 60, 1, 0)
		ctx.Text("Resolution, %")
		ctx.Text(fmt.Sprintf("%.0f (auto)", 100*g.scene.res.scale))
		return
	}
	ctx.Text("Resolution, %")
	pct := int(math.Round(100 * set.Fixed))
	ctx.Slider(&pct, 25, 100, 1).On(func() { set.Fixed = float64(pct) / 100 })
}
