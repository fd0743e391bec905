package game

import (
	"image"
	"testing"
)

// A left drag that starts on the 3D view looks around as a right drag
// does; a left click without motion, a left drag that starts on a panel
// and a click on the minimap (a teleport) leave the camera's heading.
func TestLeftDragLooksAround(t *testing.T) {
	g := undoGame(t)
	g.ui.w, g.ui.h = ScreenWidth, ScreenHeight
	mini := g.World.Minimap.Rect(image.Rect(0, 0, g.ui.w, g.ui.h))
	type step struct {
		x, y      int
		left      bool
		overPanel bool
	}
	for _, c := range []struct {
		name  string
		steps []step
		turns bool
	}{
		{"left drag on the view", []step{{700, 400, true, false}, {740, 380, true, false}, {780, 360, true, false}, {780, 360, false, false}}, true},
		{"left click without motion", []step{{700, 400, false, false}, {700, 400, true, false}, {700, 400, false, false}}, false},
		{"left drag from a panel", []step{{100, 200, true, true}, {200, 220, true, true}, {700, 400, true, false}, {760, 380, true, false}, {760, 380, false, false}}, false},
		{"left click on the minimap", []step{{mini.Min.X + 10, mini.Min.Y + 10, true, false}, {mini.Min.X + 10, mini.Min.Y + 10, false, false}}, false},
		{"hover without a button", []step{{700, 400, false, false}, {760, 380, false, false}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			g.Camera.Overview(g.World.Map)
			yaw, pitch := g.Camera.Yaw, g.Camera.Pitch
			held := false
			g.input.cursor = [2]int{640, 360}
			for _, s := range c.steps {
				g.pointer(pointerInput{x: s.x, y: s.y, left: s.left, leftJust: s.left && !held}, s.overPanel)
				held = s.left
			}
			turned := g.Camera.Yaw != yaw || g.Camera.Pitch != pitch
			if turned != c.turns {
				t.Errorf("the camera turned: %v (yaw %.3f → %.3f, pitch %.3f → %.3f); want %v",
					turned, yaw, g.Camera.Yaw, pitch, g.Camera.Pitch, c.turns)
			}
			if c.turns {
				if want := float32(80 * mouseSensitivity); !near32(g.Camera.Yaw-yaw, want, 1e-4) {
					t.Errorf("an 80 px drag turned the camera %.4f rad; want %.4f", g.Camera.Yaw-yaw, want)
				}
			}
		})
	}
}

func near32(a, b, tol float32) bool { return a-b <= tol && b-a <= tol }

// With the panels shown, a left drag that starts on their strip outside
// their window (below it, in the margin) does not look around, and a
// click on the minimap, drawn in the view right of the strip, teleports.
func TestPointerUsesTheViewRect(t *testing.T) {
	g := undoGame(t)
	g.ui.w, g.ui.h, g.ShowUI, g.ShowMinimap = ScreenWidth, ScreenHeight, true, true
	g.Camera.Overview(g.World.Map)
	yaw := g.Camera.Yaw
	g.input.cursor = [2]int{300, 600}
	for _, s := range []pointerInput{{x: 300, y: 600, left: true, leftJust: true}, {x: 700, y: 500, left: true}, {x: 760, y: 480, left: true}} {
		g.pointer(s, false)
	}
	if g.Camera.Yaw != yaw {
		t.Errorf("a drag from the panels' strip turned the camera (yaw %.3f → %.3f)", yaw, g.Camera.Yaw)
	}
	g.pointer(pointerInput{x: 760, y: 480}, false)
	mini := g.World.Minimap.Rect(g.viewRect(g.ui.w, g.ui.h))
	pos := g.Camera.Pos
	g.pointer(pointerInput{x: mini.Min.X + 5, y: mini.Max.Y - 5, left: true, leftJust: true}, false)
	if g.Camera.Pos == pos {
		t.Errorf("a click on the minimap at %v did not teleport", mini)
	}
}
