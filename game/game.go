// Package game is Cordillera's explorer: the Ebiten game loop, the fly and
// walk camera, the CPU projection and level-of-detail renderer, and the HUD.
// Terrain maths lives below it: heights and normals in terrain, the LOD
// mesh in terrain/mesh, worlds are made through pipeline, files read
// through terrain/heightfile; the shaders are in package shaders, the
// materials in package assets.
package game

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ebitengine/debugui"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"cordillera/game/fileopen"
	"cordillera/internal/atomicfile"
	"cordillera/route/trackfile"
	"cordillera/terrain"
	"cordillera/terrain/erosion"
	"cordillera/terrain/mesh"
)

// Default window size.
const (
	ScreenWidth  = 1280
	ScreenHeight = 720
)

// chunkCells is the side of an LOD chunk in cells.
const chunkCells = 32

// World is a heightmap prepared for drawing: its normals, LOD chunks and
// minimap. NewWorld does all the CPU work, so the regenerator runs it off
// the frame loop.
type World struct {
	Map     *terrain.Heightmap
	LOD     *mesh.LOD
	Normals []float32
	Minimap *Minimap
	Route   *RouteView     // the GPS route the map was made through, if any
	Masks   *erosion.Masks // where erosion moved material, if it ran
	// Source is the loaded map this world was eroded from (nil for a
	// generated world): erosion settings wear it anew rather than
	// generating a new map.
	Source *terrain.Heightmap
	// Outside is the noise continued beyond the map (outside.go); nil
	// where the map is not the noise's own.
	Outside *terrain.Outside
	// lesson marks a Teach lesson's map, which stands alone on the level
	// plane: land continued from it would hide where its mesh ends.
	lesson bool
}

// NewWorld prepares a heightmap for drawing.
func NewWorld(m *terrain.Heightmap) *World {
	// context.Background is never done, so newWorldContext cannot fail here.
	w, _ := newWorldContext(context.Background(), m)
	return w
}

// newWorldContext is NewWorld as cancellable background work: its meshes'
// bounds and its normals are measured in parallel.Rows, which in the
// browser gives the page its frames (a 2049² world spent 1–2 s there with
// the page frozen); it returns ctx.Err() soon after ctx is done.
func newWorldContext(ctx context.Context, m *terrain.Heightmap) (*World, error) {
	lod, err := mesh.NewLODContext(ctx, m, chunkCells)
	if err != nil {
		return nil, err
	}
	normals, err := terrain.NormalsContext(ctx, m)
	if err != nil {
		return nil, err
	}
	return &World{Map: m, LOD: lod, Normals: normals, Minimap: NewMinimap(m, minimapSize)}, nil
}

// Game is the explorer's ebiten.Game. It dispatches: each concern keeps
// its own state in a type of its own (the UI's in uiState, undo's in
// undoHistory, a lesson's in teachState, and so on), and Game holds one
// of each and the World and Camera they share.
type Game struct {
	World  *World
	Camera *Camera

	// Options are what the caller sets; embedded, they read as g.View,
	// g.ShowUI and so on.
	Options

	render *renderer
	scene  sceneState   // the 3D view as drawn: its frame, resolution and cache
	gen    genState     // regen.go: the worlds made in the background and the one shown
	ui     uiState      // ui.go: the debug UI window and its panels
	input  pointerState // keys.go: the pointer's mouse look
	undo   undoHistory  // undo.go
	teach  teachState   // teach.go: the Teach panel's lesson
	plots  plotState    // plots.go: the Teach panel's plots
	err    error        // what ends the game loop (errQuit: the user quit)

	files fileopen.Loader // files.go: files read and parsed off the UI goroutine
}

// sceneState is the 3D view as drawn: the frame projected, the resolution
// it is drawn at and the cache of the image drawn.
type sceneState struct {
	frame       frame
	res         viewResolution
	view        viewCache
	shotPending bool // F12 was pressed: the next frame drawn is saved
}

// Options are the explorer's settings that its callers (the explore and
// render commands, the web page, the tests) set on a Game.
type Options struct {
	View   Viewer
	Params terrain.Params // what the Generator panel shows and regenerates
	HUD    bool

	// ShowUI, ShowMinimap and ShowHelp toggle the debug UI window, the
	// minimap and the key overlay.
	ShowUI, ShowMinimap, ShowHelp bool

	// FullMesh disables level of detail and culling (for comparisons).
	FullMesh bool

	// Resolution is how finely the 3D view is drawn: a fixed share of the
	// screen's size, or adapting to hold a frame rate.
	Resolution Resolution

	// DrawDelay slows every drawing of the 3D view down by this much: a
	// stand-in for a slow machine, to try how the explorer handles input
	// at a low frame rate.
	DrawDelay time.Duration

	// Follow walks the camera along the world's GPS route at eye height,
	// FollowSpeed world units per second; FollowAt is how far along it is.
	Follow      bool
	FollowSpeed float32
	FollowAt    float64

	// ScreenshotDir is where F12 saves screenshots.
	ScreenshotDir string

	// OnFrame, if set, is called at the end of every Draw with the screen:
	// the render command and the tests read pixels through it.
	OnFrame func(screen *ebiten.Image) error
}

// New returns a game over the world, made from the default parameters,
// with the default view from above.
func New(w *World) (*Game, error) {
	return NewWithParams(w, terrain.DefaultParams())
}

// NewWithParams returns a game over the world that p made.
func NewWithParams(w *World, p terrain.Params) (*Game, error) {
	r, err := newRenderer()
	if err != nil {
		return nil, err
	}
	g := &Game{World: w, Camera: NewCamera(),
		Options: Options{View: DefaultViewer(), Params: p, HUD: true, FollowSpeed: 6, Resolution: DefaultResolution(),
			ShowUI: true, ShowMinimap: true, ScreenshotDir: "."},
		teach:  teachState{alg: 1, sizeIdx: 3}, // diamond-square on 33²: every point visible
		render: r,
		gen:    genState{regen: NewRegenerator(), rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))}}
	g.ui.path, g.ui.matDir = "map.png", "materials"
	g.Camera.Overview(w.Map)
	return g, nil
}

// minimapSize is the minimap's side in pixels before scaling to the screen.
const minimapSize = 192

// Close stops background work.
func (g *Game) Close() { g.gen.regen.Close(); g.render.lighter.Close() }

// errQuit ends the game loop without an error (an OnFrame that has what
// it came for returns it).
var errQuit = errors.New("quit")

// Update handles the UI, input and background results, and moves the
// camera, once per tick. It never waits for generation.
func (g *Game) Update() error {
	if g.err != nil {
		if g.err == errQuit {
			return ebiten.Termination
		}
		return g.err
	}
	g.scene.view.noteInput(time.Now())
	capture, err := g.ui.debug.Update(func(ctx *debugui.Context) error {
		if g.ShowUI {
			g.buildUI(ctx)
		}
		return nil
	})
	if err != nil {
		return err
	}
	g.followPresetChoice()
	g.handleDrops()
	if g.teach.mode == teachOff {
		g.takeGenerated()
	}
	g.updateTeach()
	g.updatePlot()
	typing := capture&debugui.InputCapturingStateFocus != 0
	if !typing {
		g.handleKeys()
		g.handleUndoKeys()
	}
	g.trackChanges(ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft))
	g.handleMouse(capture&debugui.InputCapturingStateHover != 0)
	in := Input{}
	if !typing {
		in = readMovement()
	}
	dt := float32(1) / float32(ebiten.TPS())
	if g.Follow && g.World.Route != nil {
		g.followRoute(float64(dt) * float64(g.FollowSpeed*max(1+in.Forward, 0.25)))
	} else {
		g.Camera.Water, g.Camera.Wet = waterLevel(&g.View, g.World.Map)
		g.Camera.Beyond, g.Camera.BeyondLevel = outsideOf(&g.View, g.World), horizonLevel(&g.View, g.World.Map)
		g.Camera.Surface = &g.scene.frame
		g.Camera.Step(in, dt, g.World.Map)
	}
	g.ui.ticks++
	g.writeState(g.ui.ticks)
	return nil
}

// followRoute moves the camera d world units along the route, at eye
// height, looking along it; W and S speed up and slow down. The camera
// looks the way the track goes over a look-ahead of 8 cells and up or down
// its grade there, tilted down by followTilt so the track ahead stays in
// view on a steep climb as on the flat. It turns at most followTurn a
// tick, so a hairpin is a smooth pan rather than a jump, except when the
// camera has just been put on the route (following starts, or the render
// command places it): then it faces the way at once.
func (g *Game) followRoute(d float64) {
	rv, m := g.World.Route, g.World.Map
	g.FollowAt = math.Min(g.FollowAt+d, rv.Length())
	look := 8 * m.CellSize
	x, z, yaw := rv.At(g.FollowAt, look)
	ground := m.GroundHeight(x, z)
	pitch := followTilt
	// The grade over the distance along the track, not the chord, which
	// across a hairpin is a fraction of it.
	ahead := math.Min(g.FollowAt+look, rv.Length())
	ax, az, _ := rv.At(ahead, look)
	if along := ahead - g.FollowAt; along > 0 {
		pitch += math.Atan2(m.GroundHeight(ax, az)-ground, along)
	}
	pitch = math.Max(-followMaxPitch, math.Min(followMaxPitch, pitch))
	c := g.Camera
	c.Mode = Walk
	pos := mgl32.Vec3{float32(x), float32(ground) + EyeHeight, float32(z)}
	placed := float64(c.Pos.Sub(pos).Len()) > 2*look
	c.Pos = pos
	if placed {
		c.Yaw, c.Pitch = float32(yaw), float32(pitch)
		return
	}
	turn := math.Remainder(yaw-float64(c.Yaw), 2*math.Pi)
	c.Yaw = float32(math.Remainder(float64(c.Yaw)+math.Max(-followTurn, math.Min(followTurn, turn)), 2*math.Pi))
	tilt := pitch - float64(c.Pitch)
	c.Pitch = float32(float64(c.Pitch) + math.Max(-followTurn, math.Min(followTurn, tilt)))
}

// followTurn is the most the follow camera turns in a tick: 3°, a half
// turn in a second at 60 ticks per second.
const followTurn = 3 * math.Pi / 180

// followTilt is how far below the track's grade the follow camera looks
// (5°), and followMaxPitch the steepest it looks up or down (60°).
const (
	followTilt     = -5 * math.Pi / 180
	followMaxPitch = 60 * math.Pi / 180
)

// setFollow starts or stops following the route from where it was.
func (g *Game) setFollow(on bool) {
	if on && g.World.Route == nil {
		g.ui.fail(errors.New("no route: load a " + trackfile.FormatNames(", ", " or ") + " track first"))
		return
	}
	g.Follow = on
	if on {
		g.Camera.Pitch = mgl32.DegToRad(-5)
		g.ui.say(fmt.Sprintf("following the route (%.1f km)", g.World.Route.Length()/1000))
	}
}

// takeGenerated swaps in a world the background worker has finished. The
// camera stays where it is (on the ground when walking), unless the new
// map covers another extent: then it starts from the overview.
func (g *Game) takeGenerated() {
	res := g.gen.regen.Take()
	if res == nil {
		return
	}
	if res.Err != nil {
		g.ui.fail(res.Err)
		return
	}
	g.gen.worlds.put(res)
	g.showGenerated(res)
}

// showGenerated shows a world made for the parameters, just finished or
// kept from before (worldcache.go).
func (g *Game) showGenerated(res *Generated) {
	ow, od := g.World.Map.Extent()
	g.World = res.World
	g.gen.worldID = worldSerial.Add(1)
	g.gen.stage, g.gen.budget = res.Stage, res.Budget
	if g.ui.maskShown != "" {
		g.ShowMask(g.ui.maskShown)
	}
	if nw, nd := g.World.Map.Extent(); math.Abs(nw-ow) > 0.01*ow || math.Abs(nd-od) > 0.01*od {
		g.Camera.Overview(g.World.Map) // a map of another size: frame it anew
	}
	g.FollowAt = 0
	if g.World.Route == nil {
		g.Follow = false
	}
	g.fitSnowLine()
	if g.Camera.Mode == Walk {
		g.Camera.SetMode(Walk, g.World.Map)
	}
	if !res.Preview && !g.ui.isError {
		// A finished map ends "generating…", but an error stays until the
		// next message: a bad link's error came before the map it fell
		// back to, and would otherwise vanish as that map arrived.
		g.ui.message = ""
	}
}

// readMovement turns the held keys into camera input.
func readMovement() Input {
	axis := func(pos, neg ebiten.Key) float32 {
		v := float32(0)
		if ebiten.IsKeyPressed(pos) {
			v++
		}
		if ebiten.IsKeyPressed(neg) {
			v--
		}
		return v
	}
	lift := axis(ebiten.KeySpace, ebiten.KeyC) + axis(ebiten.KeyE, ebiten.KeyQ)
	return Input{
		Forward: axis(ebiten.KeyW, ebiten.KeyS) + axis(ebiten.KeyArrowUp, ebiten.KeyArrowDown),
		Strafe:  axis(ebiten.KeyD, ebiten.KeyA) + axis(ebiten.KeyArrowRight, ebiten.KeyArrowLeft),
		Lift:    mgl32.Clamp(lift, -1, 1),
		Boost:   ebiten.IsKeyPressed(ebiten.KeyShift),
		Jump:    ebiten.IsKeyPressed(ebiten.KeySpace),
	}
}

// DefaultFog is an exp² density that halves visibility at about the map's size.
func DefaultFog(m *terrain.Heightmap) float32 {
	w, d := m.Extent()
	return float32(0.83 / max(w, d))
}

// mouseSensitivity is radians of turn per pixel of mouse motion.
const mouseSensitivity = 0.003

// pointerInput is the mouse as one tick saw it.
type pointerInput struct {
	x, y             int
	left, leftJust   bool // the left button held, and pressed this tick
	right, rightJust bool
	wheel            float64
}

// handleMouse reads the mouse; overPanel tells that the pointer is over a
// panel, which has the mouse then.
func (g *Game) handleMouse(overPanel bool) {
	x, y := ebiten.CursorPosition()
	_, wy := ebiten.Wheel()
	g.pointer(pointerInput{x: x, y: y,
		left: ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft), leftJust: inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft),
		right: ebiten.IsMouseButtonPressed(ebiten.MouseButtonRight), rightJust: inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonRight),
		wheel: wy}, overPanel)
}

// pointer acts on one tick's mouse. A left click on the minimap teleports
// there; a drag with either button that starts on the 3D view looks around
// (the left one as most viewers do, the right one as before). A left drag
// that starts on a panel or the minimap belongs to it and never turns the
// camera, even once the pointer has left it.
func (g *Game) pointer(in pointerInput, overPanel bool) {
	dx, dy := in.x-g.input.cursor[0], in.y-g.input.cursor[1]
	g.input.cursor = [2]int{in.x, in.y}
	if !in.left {
		g.input.leftLook = false
	}
	if overPanel {
		if in.leftJust {
			g.input.leftLook = false
		}
		return
	}
	if in.leftJust && g.pickDiagramPoint(in.x, in.y) { // a click on the lesson's diagram shows a point's values
		g.input.leftLook = false
		return
	}
	if in.leftJust {
		// Only a press on the 3D view looks around: not one on the strip
		// that holds the panels, below or beside their window.
		g.input.leftLook = image.Pt(in.x, in.y).In(g.viewRect(g.ui.w, g.ui.h))
		if g.ShowMinimap {
			if wx, wz, ok := g.World.Minimap.WorldAt(in.x, in.y, g.viewRect(g.ui.w, g.ui.h)); ok {
				g.input.leftLook = false
				g.World.Minimap.Teleport(g.Camera, wx, wz)
				g.ui.say(fmt.Sprintf("teleported to x %.0f z %.0f", wx, wz))
				return
			}
		}
	}
	// The tick a button goes down has no motion of its own: the cursor
	// may have come from a panel, where its moves were not followed.
	look := g.input.captured || (in.right && !in.rightJust) || (g.input.leftLook && !in.leftJust)
	if look && (dx != 0 || dy != 0) {
		g.Camera.Look(float32(dx)*mouseSensitivity, -float32(dy)*mouseSensitivity)
	}
	if in.wheel != 0 {
		if in.wheel > 0 {
			g.Camera.Speed *= 1.25
		} else {
			g.Camera.Speed /= 1.25
		}
		g.ui.say(fmt.Sprintf("speed %.1f", g.Camera.Speed))
	}
}

func (p *pointerState) setCapture(on bool) {
	p.captured = on
	if on {
		ebiten.SetCursorMode(ebiten.CursorModeCaptured)
	} else {
		ebiten.SetCursorMode(ebiten.CursorModeVisible)
	}
}

// Draw renders the sky, the terrain, the minimap, the HUD and the UI. The
// 3D view fills viewRect: beside the panels, not under them.
func (g *Game) Draw(screen *ebiten.Image) {
	w, h := screen.Bounds().Dx(), screen.Bounds().Dy()
	g.ui.w, g.ui.h = w, h // as Layout said, and for a screen drawn without it (the render command, tests)
	vr := g.viewRect(w, h)
	now := time.Now()
	scale := g.viewScale(now)
	g.render.pollLight(g.World, &g.View)
	key := g.viewKeyOf(vr.Size(), scale)
	if g.scene.view.needsRedraw(key, now, g.redrawCost()) {
		view, vw, vh := g.scene.viewTarget(vr.Size(), scale)
		g.scene.frame.water, g.scene.frame.wet = waterLevel(&g.View, g.World.Map)
		g.scene.frame.waterKnown = true
		g.scene.frame.build(g.Camera, vw, vh, g.World.Map, g.World.LOD, g.World.Normals, g.FullMesh, g.View.DetailDist)
		g.render.draw(view, g.Camera, &g.View, g.World, &g.scene.frame)
		g.scene.view.drawn(key, g.finishView(vr.Size(), view))
		g.scene.res.redrew(now)
		if g.DrawDelay > 0 {
			time.Sleep(g.DrawDelay)
		}
	}
	g.presentView(screen, vr, g.scene.view.shown)
	if g.scene.shotPending {
		g.scene.shotPending = false
		path, err := g.saveScreenshot(screen, vr)
		if err != nil {
			g.ui.fail(fmt.Errorf("screenshot: %w", err))
		} else {
			g.ui.say("saved " + path)
		}
	}
	if g.ShowMinimap {
		g.World.Minimap.SetWater(g.View.Water)
		g.World.Minimap.ShowBeyond(g.View.Continue)
		g.World.Minimap.Draw(screen, g.Camera, vr)
		if g.World.Route != nil {
			g.World.Route.drawOnMinimap(screen, g.World.Minimap, vr)
		}
	}
	g.drawTeach(screen)
	g.drawPlot(screen)
	g.drawProgress(screen)
	if g.HUD {
		g.drawScaleBars(screen, w, h)
		g.drawHUD(screen)
	}
	if g.ShowUI {
		g.ui.debug.Draw(screen)
		g.drawTip(screen)
	}
	if g.ShowHelp {
		g.drawHelp(screen)
	}
	if g.OnFrame != nil && g.err == nil {
		if err := g.OnFrame(screen); err != nil {
			g.err = err
		}
	}
}

// drawProgress shows a bar along the bottom while a map is being made.
func (g *Game) drawProgress(screen *ebiten.Image) {
	busy, f := g.gen.regen.Status()
	if !busy {
		return
	}
	w, h := screen.Bounds().Dx(), screen.Bounds().Dy()
	var minimap image.Rectangle
	if g.ShowMinimap {
		minimap = g.World.Minimap.Rect(g.viewRect(w, h))
	}
	r := progressRect(g.viewLeft(), w, h, minimap)
	x, y, bw, bh := float32(r.Min.X), float32(r.Max.Y-progressBarH), float32(r.Dx()), float32(progressBarH)
	vector.FillRect(screen, x-2, y-2, bw+4, bh+4, color.RGBA{0, 0, 0, 160}, false)
	vector.FillRect(screen, x, y, bw*float32(f), bh, color.RGBA{90, 170, 250, 255}, false)
	ebitenutil.DebugPrintAt(screen, fmt.Sprintf("generating %.0f %%", 100*f), int(x+bw/2)-50, r.Min.Y)
}

func (g *Game) drawHUD(screen *ebiten.Image) {
	c := g.Camera
	mode := c.Mode.String()
	if g.Follow {
		mode = fmt.Sprintf("follow route %.2f of %.2f km", g.FollowAt/1000, g.World.Route.Length()/1000)
	}
	above := float64(c.Pos[1]) - c.GroundBelow(g.World.Map)
	text := fmt.Sprintf("FPS %.1f  %s  triangles %d  chunks %d\n%s  x %.0f m  z %.0f m  height %.0f m, %.0f m above the ground  yaw %.0f°  pitch %.0f°\nH help  U panels  M minimap  Tab fly/walk  Home overview  Ctrl+Z undo",
		ebiten.ActualFPS(), g.resolutionText(), g.scene.frame.triangles, len(g.scene.frame.chunks), mode,
		c.Pos[0], c.Pos[2], c.Pos[1], above, mgl32.RadToDeg(c.Yaw), mgl32.RadToDeg(c.Pitch))
	if g.ui.status != "" && time.Since(g.ui.statusAt) < 4*time.Second {
		text += "\n" + g.ui.status
	}
	textBackdrop(screen, text, g.viewLeft(), 0)
	ebitenutil.DebugPrintAt(screen, text, g.viewLeft(), 0)
}

// viewLeft is where the 3D view starts: right of the panels' strip.
func (g *Game) viewLeft() int { return g.viewRect(g.ui.w, g.ui.h).Min.X }

// panelStrip is the width of the window's left strip that holds the
// panels: their window and a margin either side, at scale 1 (uiState.strip).
const panelStrip = 10 + uiWidth + 10

// minViewWidth is the narrowest 3D view laid out beside the panels: on a
// window narrower than the strip and this, the view takes the whole
// window and the panels cover its left part.
const minViewWidth = 320

// viewRect is where the 3D view is drawn on a w×h window: right of the
// panels' strip while the panels are shown, the whole window when U hides
// them. Its projection, offscreen image, minimap and HUD all follow it, so
// the frame's centre is the view's centre.
func (g *Game) viewRect(w, h int) image.Rectangle {
	if strip := g.ui.strip(); g.ShowUI && w-strip >= minViewWidth {
		return image.Rect(strip, 0, w, h)
	}
	return image.Rect(0, 0, w, h)
}

// Glyph size of ebitenutil's debug font.
const debugCharW, debugLineH = 6, 16

func (g *Game) drawHelp(screen *ebiten.Image) {
	lines := strings.Split(helpText, "\n")
	longest := 0
	for _, l := range lines {
		longest = max(longest, utf8.RuneCountInString(l))
	}
	w, h := screen.Bounds().Dx(), screen.Bounds().Dy()
	bw, bh := longest*debugCharW+24, len(lines)*debugLineH+20
	left := g.viewLeft()
	x, y := max(left+(w-left-bw)/2, 0), max((h-bh)/2, 0)
	vector.FillRect(screen, float32(x), float32(y), float32(bw), float32(bh), color.RGBA{0, 0, 0, 210}, false)
	ebitenutil.DebugPrintAt(screen, helpText, x+12, y+10)
}

// Layout uses the window's size as the screen size.
func (g *Game) Layout(outsideWidth, outsideHeight int) (int, int) {
	g.ui.w, g.ui.h = outsideWidth, outsideHeight
	return outsideWidth, outsideHeight
}

// saveScreenshot writes the 3D view, vr on the screen, at its full size
// with the lesson's overlays (shotImage) to a new numbered PNG.
func (g *Game) saveScreenshot(screen *ebiten.Image, vr image.Rectangle) (string, error) {
	img := g.shotImage(screen, vr)
	for i := 0; ; i++ {
		path := filepath.Join(g.ScreenshotDir, fmt.Sprintf("cordillera-%s-%d.png", time.Now().Format("20060102-150405"), i))
		if _, err := os.Stat(path); err == nil {
			continue
		}
		return path, SavePNG(path, img)
	}
}

// ScreenPixels copies the screen into an opaque RGBA image.
func ScreenPixels(screen *ebiten.Image) *image.RGBA {
	b := screen.Bounds()
	img := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	screen.ReadPixels(img.Pix)
	return img
}

// SavePNG writes an image atomically.
func SavePNG(path string, img image.Image) error {
	return atomicfile.Write(path, func(w io.Writer) error { return png.Encode(w, img) })
}
