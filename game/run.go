package game

import (
	"errors"
	"fmt"
	"image"
	"slices"

	"cordillera/terrain"

	"github.com/hajimehoshi/ebiten/v2"
)

// Run opens the explorer window on a world that p made (the Generator
// panel starts from p) and returns when it is closed. setup, if set,
// adjusts the game first (UsePreset, for one).
func Run(w *World, p terrain.Params, title string, setup func(*Game)) error {
	g, err := NewWithParams(w, p)
	if err != nil {
		return err
	}
	defer g.Close()
	if setup != nil {
		setup(g)
	}
	ebiten.SetWindowSize(ScreenWidth, ScreenHeight)
	ebiten.SetWindowTitle(title)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	return ebiten.RunGame(g)
}

// CameraPose is a camera position and heading for scripted views.
type CameraPose struct {
	X, Y, Z    float32
	Yaw, Pitch float32 // degrees
	Walk       bool    // put the eye at walking height above the ground at (X, Z)
}

// fixedSize is an ebiten.Game with a fixed screen size: render and tests.
type fixedSize struct {
	*Game
	width, height int
}

func (f fixedSize) Layout(int, int) (int, int) { return f.Game.Layout(f.width, f.height) }

// settleFrames is how many frames Render draws before it reads one back,
// so that every GPU resource is uploaded.
const settleFrames = 3

// Render draws one frame of the world from a camera into an image of the
// given size. It needs a display (use xvfb-run on servers). pose == nil
// keeps the default overview; full draws the whole mesh without level of
// detail or culling; hud adds the HUD. view, if set, adjusts the look first.
func Render(w *World, pose *CameraPose, width, height int, full, hud bool, view func(*Viewer)) (*image.RGBA, error) {
	return RenderGame(w, pose, width, height, func(g *Game) {
		g.HUD, g.FullMesh = hud, full
		if view != nil {
			view(&g.View)
		}
	})
}

// RenderGame is Render with a hook that sets up the game (panels, minimap,
// help, view) before the frame is drawn; the panels and minimap start
// hidden.
func RenderGame(w *World, pose *CameraPose, width, height int, setup func(g *Game)) (*image.RGBA, error) {
	g, err := New(w)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	g.ShowUI, g.ShowMinimap = false, false
	g.Layout(width, height) // a lesson opened by setup frames its map for this size
	if pose != nil {
		g.SetPose(*pose)
	}
	if setup != nil {
		setup(g)
	}
	frames := 0
	var out *image.RGBA
	g.OnFrame = func(screen *ebiten.Image) error {
		frames++
		if frames < settleFrames || g.render.lightPending(g.World, &g.View) || g.plotPending() {
			return nil
		}
		// A lesson's frame carries its caption, and its formula unless
		// the Teach panel shows it: a slide as the screenshot makes it.
		vr := g.viewRect(width, height)
		g.drawLessonNotes(screen.SubImage(vr).(*ebiten.Image), !(g.ShowUI && slices.Contains(g.ui.unfolded, "Teach")))
		out = ScreenPixels(screen)
		return errQuit
	}
	ebiten.SetWindowSize(width, height)
	ebiten.SetWindowTitle("Cordillera render")
	if err := ebiten.RunGame(fixedSize{g, width, height}); err != nil && !errors.Is(err, ebiten.Termination) {
		return nil, err
	}
	if out == nil {
		return nil, fmt.Errorf("render: no frame was drawn")
	}
	return out, nil
}

// SetPose moves the camera to a pose.
func (g *Game) SetPose(p CameraPose) {
	c := g.Camera
	c.Pos[0], c.Pos[1], c.Pos[2] = p.X, p.Y, p.Z
	c.Yaw, c.Pitch = degToRad(p.Yaw), degToRad(p.Pitch)
	if p.Walk {
		c.SetMode(Walk, g.World.Map)
	} else {
		c.Mode = Fly
	}
}

func degToRad(d float32) float32 { return d * 3.14159265358979 / 180 }

// RenderWorlds draws one frame of each world, in one game loop (Ebiten
// runs one per process), from the overview camera of each, and returns
// the frames. It needs a display. setup, if set, adjusts the game first.
func RenderWorlds(worlds []*World, width, height int, setup func(*Game)) ([]*image.RGBA, error) {
	if len(worlds) == 0 {
		return nil, nil
	}
	g, err := New(worlds[0])
	if err != nil {
		return nil, err
	}
	defer g.Close()
	g.ShowUI, g.ShowMinimap, g.HUD = false, false, false
	if setup != nil {
		setup(g)
	}
	out := make([]*image.RGBA, 0, len(worlds))
	frames := 0
	g.OnFrame = func(screen *ebiten.Image) error {
		frames++
		if frames < settleFrames || g.render.lightPending(g.World, &g.View) {
			return nil
		}
		out = append(out, ScreenPixels(screen))
		frames = 0
		if len(out) == len(worlds) {
			return errQuit
		}
		g.World = worlds[len(out)]
		g.Camera.Overview(g.World.Map)
		return nil
	}
	ebiten.SetWindowSize(width, height)
	ebiten.SetWindowTitle("Cordillera render")
	if err := ebiten.RunGame(fixedSize{g, width, height}); err != nil && !errors.Is(err, ebiten.Termination) {
		return nil, err
	}
	if len(out) != len(worlds) {
		return nil, fmt.Errorf("render: %d of %d frames were drawn", len(out), len(worlds))
	}
	return out, nil
}
