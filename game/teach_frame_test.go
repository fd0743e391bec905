package game

import (
	"math"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"cordillera/internal/lesson"
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

// The 3D view of a lesson lies as its diagram: a lattice point marked near
// a corner of the step-through diagram projects, in the framed 3D view, on
// the same side of the map's centre point, left or right and up or down
// (the framing from beyond row 0 showed the diagram turned by a half turn).
func TestLessonViewOrientedAsDiagram(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 65))
	g.Layout(ScreenWidth, ScreenHeight)
	t.Cleanup(func() { onLoop(func() { g.OpenLesson(lesson.State{}, true) }) })
	openLink(t, g, "algorithm=diamond-square&size=17&seed=3&lesson=subdivision&stage=4b")
	vr := g.viewRect(g.ui.w, g.ui.h)
	p := newProjector(viewProjection(g.Camera, vr.Dx(), vr.Dy()), vr.Dx(), vr.Dy(), g.Camera.Near)
	m := g.World.Map
	cell := lessonCell(17)
	screen := func(col, row int) (x, y float64) {
		wx, wz := float64(col)*cell, float64(row)*cell
		v := p.vertex(surfaceVertex{pos: mgl32.Vec3{float32(wx), float32(m.GroundHeight(wx, wz)), float32(wz)}})
		return float64(v.DstX), float64(v.DstY)
	}
	sign := func(v float64) int {
		if v < 0 {
			return -1
		}
		return 1
	}
	dcx, dcy, _ := diagramPoint(17, 8, 8)
	vcx, vcy := screen(8, 8)
	for _, pt := range [][2]int{{2, 2}, {14, 2}, {2, 14}, {14, 14}} {
		dx, dy, _ := diagramPoint(17, pt[0], pt[1])
		vx, vy := screen(pt[0], pt[1])
		if sign(dx-dcx) != sign(vx-vcx) || sign(dy-dcy) != sign(vy-vcy) {
			t.Errorf("point %v: in the diagram %+.0f, %+.0f px from the centre point, in the 3D view %+.0f, %+.0f px; want the same side",
				pt, dx-dcx, dy-dcy, vx-vcx, vy-vcy)
		}
	}
}

// The droplet lesson frames the droplet shown: its path projects across a
// good part of the view (at the map's framing it was a short stroke of
// some 50 pixels in 1280, 0.04 of the width), and in the view's middle, clear of the step
// table on the left and the diagrams on the right.
func TestDropletLessonFramesThePath(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 257))
	g.Layout(ScreenWidth, ScreenHeight)
	t.Cleanup(func() { onLoop(func() { g.OpenLesson(lesson.State{}, true) }) })
	for _, link := range []string{"size=257&lesson=erosion&droplet=1", "size=257&lesson=erosion&droplet=40"} {
		openLink(t, g, link)
		e := &g.teach.erosion
		if len(e.drop.Steps) < 10 {
			t.Fatalf("%s: the droplet has %d steps; the test wants a path", link, len(e.drop.Steps))
		}
		vr := g.viewRect(g.ui.w, g.ui.h)
		vp := viewProjection(g.Camera, vr.Dx(), vr.Dy())
		cell := e.m.CellSize
		lox, loy, hix, hiy := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, s := range e.drop.Steps {
			clip := vp.Mul4x1(mgl32.Vec4{float32(s.X * cell), float32(s.Height + cell), float32(s.Y * cell), 1})
			x, y := float64(clip[0]/clip[3]), float64(clip[1]/clip[3])
			if clip[3] <= 0 || math.Abs(x) > dropletFrame.side+1e-3 || y < -1 || y > 1 {
				t.Errorf("%s: step at (%.1f, %.1f) projects to NDC (%.2f, %.2f), w %.1f: not in the view's middle", link, s.X, s.Y, x, y, clip[3])
			}
			lox, loy, hix, hiy = min(lox, x), min(loy, y), max(hix, x), max(hiy, y)
		}
		// NDC spans 2 across the view: half of it is the view's share.
		share := max(hix-lox, (hiy-loy)*float64(vr.Dy())/float64(vr.Dx())) / 2
		t.Logf("%s: the path spans %.2f of the view's width", link, share)
		if share < 0.1 {
			t.Errorf("%s: the droplet's path spans %.2f of the view's width; want it framed (0.1 or more)", link, share)
		}
	}
}
