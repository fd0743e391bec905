package game

import (
	"image"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"cordillera/terrain"
	"cordillera/terrain/erosion"
)

// Redrawing the 3D view only when it changes. Ebitengine reads the
// window's input once per frame, so on a machine that needs half a second
// to draw the terrain, two clicks within that half second reach the game
// as one. Most input does not change the 3D view (a panel's widgets, a
// seed that starts a regeneration), so the view is kept in an offscreen
// image and drawn again only when something it shows has changed: the
// frames between are the panels, HUD and a copy, and fast.
//
// A change the user makes by hand (a key that toggles the wireframe,
// three times in a row) does change the view, and the frame that draws
// it would swallow the next presses. So while the view is slow to draw
// and input keeps arriving, the new view waits until input has been
// quiet for as long as a redraw takes (and no longer than
// maxRedrawWait): every press is read on a fast frame first.

// viewKey is everything the 3D view shows: a frame is drawn again when
// it differs from the last drawn one.
type viewKey struct {
	cam      Camera
	view     Viewer
	world    *World
	m        *terrain.Heightmap
	route    *RouteView
	masks    *erosion.Masks
	outside  *terrain.Outside
	fullMesh bool
	screen   image.Point
	scale    float64
	render   uint64 // the renderer's version: its light map, its materials
	// allFeatures: the full shader whatever the view (the tests compare).
	allFeatures bool
}

// viewCache is the 3D view last drawn and when input last arrived.
type viewCache struct {
	key   viewKey
	valid bool
	// shown is what was copied onto the screen: the view (after the edge
	// pass), in a corner of an offscreen image.
	shown *ebiten.Image
	// staleSince is when the view first differed from the shown one
	// (zero while it does not).
	staleSince time.Time
	lastInput  time.Time
	redraws    int64 // views drawn, for the tests
	draws      int64 // frames drawn, for the tests
	keys       []ebiten.Key
	chars      []rune
}

// Redraw timing: a redraw is slow when it takes longer than
// slowRedraw; a slow one waits for input to be quiet for as long as a
// redraw takes, but at most maxQuiet, and never holds the view back more
// than maxRedrawWait.
const (
	slowRedraw    = time.Second / 15
	maxQuiet      = 400 * time.Millisecond
	maxRedrawWait = 1500 * time.Millisecond
)

// noteInput records that the user pressed or released a key or a mouse
// button, typed or turned the wheel during the tick that runs now.
func (c *viewCache) noteInput(now time.Time) {
	c.keys = inpututil.AppendJustPressedKeys(c.keys[:0])
	c.keys = inpututil.AppendJustReleasedKeys(c.keys)
	c.chars = ebiten.AppendInputChars(c.chars[:0])
	active := len(c.keys) > 0 || len(c.chars) > 0
	for b := ebiten.MouseButton0; b <= ebiten.MouseButtonMax && !active; b++ {
		active = inpututil.IsMouseButtonJustPressed(b) || inpututil.IsMouseButtonJustReleased(b)
	}
	if wx, wy := ebiten.Wheel(); wx != 0 || wy != 0 {
		active = true
	}
	if active {
		c.lastInput = now
	}
}

// needsRedraw reports whether the view with key must be drawn now, given
// how long a redraw takes (redrawCost; 0: unknown).
func (c *viewCache) needsRedraw(key viewKey, now time.Time, redrawCost time.Duration) bool {
	c.draws++
	if !c.valid {
		return true
	}
	if key == c.key {
		c.staleSince = time.Time{}
		return false
	}
	if c.staleSince.IsZero() {
		c.staleSince = now
	}
	if redrawCost <= slowRedraw || now.Sub(c.staleSince) >= maxRedrawWait {
		return true
	}
	return now.Sub(c.lastInput) >= min(redrawCost, maxQuiet)
}

// drawn records that the view with key was drawn and shown from img.
func (c *viewCache) drawn(key viewKey, img *ebiten.Image) {
	c.key, c.valid, c.shown, c.staleSince = key, true, img, time.Time{}
	c.redraws++
}

// invalidate makes the next frame draw the view whatever its key.
func (c *viewCache) invalidate() { c.valid = false }

// viewKeyOf is the key of the view the game shows now at the scale.
func (g *Game) viewKeyOf(screen image.Point, scale float64) viewKey {
	w := g.World
	return viewKey{cam: *g.Camera, view: g.View, world: w, m: w.Map, route: w.Route, masks: w.Masks, outside: w.Outside,
		fullMesh: g.FullMesh, screen: screen, scale: scale, render: g.render.version, allFeatures: g.render.allFeatures}
}

// redrawCost is how long a redraw of the 3D view takes: the frame time
// measured over frames that drew it (unless a host steps the frames, which
// says nothing of the machine), and at least the DrawDelay that stands in
// for a slow machine.
func (g *Game) redrawCost() time.Duration {
	d := g.DrawDelay
	if !framesSteppedByHost && g.scene.res.avg > 0 {
		d = max(d, time.Duration(g.scene.res.avg*float64(time.Second)))
	}
	return d
}
