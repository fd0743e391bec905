package game

import (
	"math"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// T, with the panels hidden and the camera anywhere, shows the panels with
// the Teach section open and frames the lesson's map: every corner of its
// box projects inside the 3D view beside the panels, and the map fills a
// good part of the view (not a speck far away).
func TestTFramesTheLesson(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 129))
	g.Layout(ScreenWidth, ScreenHeight)
	g.Camera.Pos = mgl32.Vec3{900, 400, 900}
	g.Camera.Yaw, g.Camera.Pitch = 3, -0.2
	var err error
	onLoop(func() {
		for _, k := range keyBindings {
			if k.name == "T" {
				k.act(g)
			}
		}
		err = g.Update()
	})
	t.Cleanup(func() { onLoop(func() { g.setTeachMode(teachOff) }) })
	if err != nil {
		t.Fatal(err)
	}
	if g.teach.mode == teachOff {
		t.Fatal("T did not start a lesson")
	}
	if !g.ShowUI || !slices.Contains(g.ui.unfolded, "Teach") {
		t.Errorf("after T the panels are shown %v with %q unfolded; want the Teach section open", g.ShowUI, g.ui.unfolded)
	}
	if vr := g.viewRect(g.ui.w, g.ui.h); vr.Min.X == 0 {
		t.Fatalf("the view %v is not beside the panels", vr)
	}
	lessonMapInView(t, g)
}

// lessonMapInView checks that every corner of the lesson map's box (0 to
// 1 in samples) projects inside the 3D view, and that the map reaches at
// least 0.6 of the view's half-size.
func lessonMapInView(t *testing.T, g *Game) {
	t.Helper()
	vr := g.viewRect(g.ui.w, g.ui.h)
	if vr.Empty() {
		vr = g.viewRect(ScreenWidth, ScreenHeight)
	}
	m := g.World.Map
	w, d := m.Extent()
	vp := viewProjection(g.Camera, vr.Dx(), vr.Dy())
	reach := 0.0
	for _, x := range []float64{0, w} {
		for _, z := range []float64{0, d} {
			for _, y := range []float64{0, m.VerticalScale} {
				clip := vp.Mul4x1(mgl32.Vec4{float32(x), float32(y), float32(z), 1})
				nx, ny := float64(clip[0]/clip[3]), float64(clip[1]/clip[3])
				if clip[3] <= 0 || math.Abs(nx) > 1 || math.Abs(ny) > 1 {
					t.Errorf("the lesson map's corner (%.0f, %.0f, %.0f) is outside the view (NDC %.2f, %.2f, w %.1f)", x, y, z, nx, ny, clip[3])
				}
				reach = math.Max(reach, math.Max(math.Abs(nx), math.Abs(ny)))
			}
		}
	}
	if reach < 0.6 {
		t.Errorf("the lesson map reaches %.2f of the view's half-size; want it framed, not small", reach)
	}
}
