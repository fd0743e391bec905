package game

import (
	"image"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"cordillera/route"
	"cordillera/route/track"
	"cordillera/terrain"
)

// lineView is a route view over m through the given lines of samples
// (x, z pairs, map samples), one segment each, resampled every half
// sample as track.Prepare does.
func lineView(m *terrain.Heightmap, lines ...[][2]float64) *RouteView {
	var segs [][]track.Sample
	for _, l := range lines {
		var seg []track.Sample
		for i := 1; i < len(l); i++ {
			a, b := l[i-1], l[i]
			n := max(int(math.Ceil(2*math.Hypot(b[0]-a[0], b[1]-a[1]))), 1)
			for k := 0; k < n; k++ {
				t := float64(k) / float64(n)
				seg = append(seg, track.Sample{X: a[0] + t*(b[0]-a[0]), Y: a[1] + t*(b[1]-a[1])})
			}
		}
		last := l[len(l)-1]
		segs = append(segs, append(seg, track.Sample{X: last[0], Y: last[1]}))
	}
	return NewRouteView(&route.Result{Map: m, Path: &track.Path{Segments: segs, CellSize: m.CellSize}})
}

// magentaish is the test for the route's old colour and the highlight's:
// red and blue both well above green.
func magentaish(r, g, b uint8) bool { return int(r) > int(g)+60 && int(b) > int(g)+60 }

// countMagenta counts img's magenta-ish pixels.
func countMagenta(img *image.RGBA) int {
	n := 0
	for i := 0; i < len(img.Pix); i += 4 {
		if magentaish(img.Pix[i], img.Pix[i+1], img.Pix[i+2]) {
			n++
		}
	}
	return n
}

// The highlight line is a few pixels wide at any distance: 2–6 pixels
// across at 20 m, 200 m and 2 km, whether the route runs away from a
// walker's eye or crosses the view of a camera looking down on it (the
// route drawn 3 m wide on the ground covered 90 pixels of a row at 20 m
// and vanished to a pixel's fraction far away).
func TestRouteLineWidthAtAnyDistance(t *testing.T) {
	needLoop(t)
	const size = 513
	m := terrain.NewHeightmap(size, size)
	m.CellSize, m.VerticalScale = 8, 100 // 4 km across
	g := newTestGame(t, NewWorld(m))
	g.Camera.Mode = Fly
	const mid = 256.0                                             // samples
	along := lineView(m, [][2]float64{{0, mid}, {size - 1, mid}}) // along x
	project := func(p mgl32.Vec3) (float32, float32) {
		pr := newProjector(viewProjection(g.Camera, testW, testH), testW, testH, g.Camera.Near)
		v := pr.vertex(surfaceVertex{pos: p})
		return v.DstX, v.DstY
	}
	// width renders the view with and without the line and counts the
	// pixels that differ along the row or column through screen point
	// (x, y), within 20 pixels of it.
	width := func(x, y float32, column bool) int {
		g.View.RouteLine = true
		on := renderFrame(g, false)
		g.View.RouteLine = false
		off := renderFrame(g, false)
		r := image.Rect(int(x)-20, int(y), int(x)+21, int(y)+1)
		if column {
			r = image.Rect(int(x), int(y)-20, int(x)+1, int(y)+21)
		}
		n, _ := differing(on, off, r.Intersect(image.Rect(0, 0, testW, testH)), 12)
		return n
	}
	for _, d := range []float32{20, 200, 2000} {
		// A walker's eye 2 m above the route, looking along it.
		g.World.Route = along
		g.Camera.Pos, g.Camera.Yaw, g.Camera.Pitch = mgl32.Vec3{64, 2, mid * 8}, 0, mgl32.DegToRad(-2)
		sx, sy := project(mgl32.Vec3{64 + d, 0, mid * 8})
		n := width(sx, sy, false)
		t.Logf("%4.0f m along the view: the line is %d pixels wide", d, n)
		if n < 2 || n > 6 {
			t.Errorf("%4.0f m away along the view: the highlight line is %d pixels wide, want 2–6", d, n)
		}
		// A camera looking down 30° on a route crossing its view.
		x := 64 + d*float32(math.Cos(math.Pi/6))
		g.World.Route = lineView(m, [][2]float64{{float64(x) / 8, 0}, {float64(x) / 8, size - 1}})
		g.Camera.Pos, g.Camera.Yaw, g.Camera.Pitch = mgl32.Vec3{64, d / 2, mid * 8}, 0, mgl32.DegToRad(-30)
		sx, sy = project(mgl32.Vec3{x, 0, mid * 8})
		n = width(sx, sy, true)
		t.Logf("%4.0f m across the view from above: the line is %d pixels wide", d, n)
		if n < 2 || n > 6 {
			t.Errorf("%4.0f m away across the view: the highlight line is %d pixels wide, want 2–6", d, n)
		}
	}
}

// routeScene is a hilly world with a route that winds over it and comes
// back along itself a sample or so off (an out-and-back's two passes).
func routeScene(t *testing.T) *Game {
	t.Helper()
	w := *testWorld(t, 257) // 1025 m across, 4 m samples
	m := w.Map
	var out, back [][2]float64
	for x := 20.0; x <= 236; x += 2 {
		z := 128 + 40*math.Sin(x/30)
		out = append(out, [2]float64{x, z})
		back = append([][2]float64{{x, z + 0.6 + 0.3*math.Sin(x/7)}}, back...)
	}
	w.Route = lineView(m, out, back)
	g := newTestGame(t, &w)
	return g
}

// With the highlight line off no pixel is magenta, from above, from a
// walker's eye and across the map: the route is a trail of the ground's
// kind (it was a magenta band over it).
func TestNoMagentaWithoutRouteLine(t *testing.T) {
	needLoop(t)
	g := routeScene(t)
	m := g.World.Map
	type pose struct {
		pos        mgl32.Vec3
		yaw, pitch float32
	}
	x, z := 4*100.0, 4*(128+40*math.Sin(100.0/30))
	ground := float32(m.GroundHeight(x, z))
	for _, p := range []pose{
		{mgl32.Vec3{float32(x), ground + 500, float32(z)}, 0, -89},           // 500 m above
		{mgl32.Vec3{float32(x) - 30, ground + 2, float32(z) + 4}, 10, -8},    // a walker's eye
		{mgl32.Vec3{40, float32(m.VerticalScale) + 100, 40}, 45, -20},        // across the map
		{mgl32.Vec3{float32(x) - 10, ground + 20, float32(z) - 10}, 45, -40}, // 20 m up, close
	} {
		g.Camera.Mode = Fly
		g.Camera.Pos, g.Camera.Yaw, g.Camera.Pitch = p.pos, mgl32.DegToRad(p.yaw), mgl32.DegToRad(p.pitch)
		g.View.RouteLine = false
		off := renderFrame(g, false)
		route := g.World.Route
		g.World.Route = nil
		none := renderFrame(g, false)
		g.World.Route = route
		g.View.RouteLine = true
		on := renderFrame(g, false)
		changed, _ := differing(off, none, image.Rect(0, 0, testW, testH), 8)
		t.Logf("pose %+v: the trail changes %d pixels; magenta pixels: line off %d, on %d", p, changed, countMagenta(off), countMagenta(on))
		if n := countMagenta(off); n > 0 {
			t.Errorf("pose %+v: %d magenta pixels with the highlight line off", p, n)
		}
		if countMagenta(on) == 0 {
			t.Errorf("pose %+v: the highlight line shows no magenta", p)
		}
	}
}

// Seen from 20 m above, the trail is earth on the ground: its width true
// to its 1.2 m (±30 %: its edge wanders), its colour an earth tone near
// the ground's (showing, yet no channel off by more than 80, its saturation low, its
// luminance 0.5–1.3 times the ground's), and textured (not one flat
// colour). The route was a 3 m magenta band of one colour.
func TestTrailIsEarthOnTheGround(t *testing.T) {
	needLoop(t)
	m := flatMap(129)
	m.CellSize = 1
	g := newTestGame(t, NewWorld(m))
	g.View.RouteLine = false
	const z = 64
	g.World.Route = lineView(m, [][2]float64{{10, z}, {118, z}})
	topDown(g, 64, 20, z)
	img := renderFrame(g, false)
	route := g.World.Route
	g.World.Route = nil
	ground := renderFrame(g, false)
	g.World.Route = route
	pr := newProjector(viewProjection(g.Camera, testW, testH), testW, testH, g.Camera.Near)
	at := func(x, z float32) (float32, float32) {
		v := pr.vertex(surfaceVertex{pos: mgl32.Vec3{x, 0, z}})
		return v.DstX, v.DstY
	}
	lum := func(c []uint8) float64 { return 0.3*float64(c[0]) + 0.59*float64(c[1]) + 0.11*float64(c[2]) }
	var trail, beside []float64
	var widths []float64
	for x := float32(56); x <= 72; x += 0.5 {
		// The trail's centre and the ground 3 m beside it, and the screen's
		// direction across the trail.
		cx, cy := at(x, z)
		ex, ey := at(x, z+3)
		pxPerMetre := math.Hypot(float64(ex-cx), float64(ey-cy)) / 3
		ux, uy := float64(ex-cx)/(3*pxPerMetre), float64(ey-cy)/(3*pxPerMetre)
		p := img.Pix[img.PixOffset(int(cx), int(cy)):]
		q := img.Pix[img.PixOffset(int(ex), int(ey)):]
		trail = append(trail, float64(p[0]), float64(p[1]), float64(p[2]))
		beside = append(beside, float64(q[0]), float64(q[1]), float64(q[2]))
		if magentaish(p[0], p[1], p[2]) {
			t.Errorf("x %.1f: the trail's pixel (%d, %d, %d) is magenta", x, p[0], p[1], p[2])
		}
		// The width: the pixels across the trail whose luminance moved by
		// more than half of what it moved at the centre.
		centre := lum(ground.Pix[ground.PixOffset(int(cx), int(cy)):]) - lum(p)
		n := 0
		for k := -60; k <= 60; k++ {
			px, py := int(float64(cx)+float64(k)*ux), int(float64(cy)+float64(k)*uy)
			a, b := ground.Pix[ground.PixOffset(px, py):], img.Pix[img.PixOffset(px, py):]
			if d := lum(a) - lum(b); math.Abs(d) > 0.5*math.Abs(centre) {
				n++
			}
		}
		widths = append(widths, float64(n)/pxPerMetre)
	}
	mean := func(v []float64, k int) float64 {
		s := 0.0
		for i := k; i < len(v); i += 3 {
			s += v[i]
		}
		return s / float64(len(v)/3)
	}
	var tr, gr [3]float64
	for k := range 3 {
		tr[k], gr[k] = mean(trail, k), mean(beside, k)
	}
	tl, gl := 0.3*tr[0]+0.59*tr[1]+0.11*tr[2], 0.3*gr[0]+0.59*gr[1]+0.11*gr[2]
	sat := (max(tr[0], tr[1], tr[2]) - min(tr[0], tr[1], tr[2])) / max(tr[0], tr[1], tr[2])
	spread := 0.0
	for i := 0; i < len(trail); i += 3 {
		l := 0.3*trail[i] + 0.59*trail[i+1] + 0.11*trail[i+2]
		spread += (l - tl) * (l - tl)
	}
	spread = math.Sqrt(spread / float64(len(trail)/3))
	w := 0.0
	for _, v := range widths {
		w += v
	}
	w /= float64(len(widths))
	t.Logf("trail %.0f, %.0f, %.0f (luminance %.1f ± %.1f, saturation %.2f); ground beside %.0f, %.0f, %.0f (%.1f); width %.2f m",
		tr[0], tr[1], tr[2], tl, spread, sat, gr[0], gr[1], gr[2], gl, w)
	for k := range 3 {
		if math.Abs(tr[k]-gr[k]) > 80 {
			t.Errorf("channel %d: the trail's %.0f is more than 80 off the ground's %.0f", k, tr[k], gr[k])
		}
	}
	if d := math.Sqrt((tr[0]-gr[0])*(tr[0]-gr[0]) + (tr[1]-gr[1])*(tr[1]-gr[1]) + (tr[2]-gr[2])*(tr[2]-gr[2])); d < 12 {
		t.Errorf("the trail's colour is %.1f from the ground's: it does not show", d)
	}
	if tl < 0.5*gl || tl > 1.3*gl {
		t.Errorf("the trail's luminance %.1f is not within 0.5–1.3 times the ground's %.1f", tl, gl)
	}
	if sat > 0.45 {
		t.Errorf("the trail's colour is saturated (%.2f): not an earth tone", sat)
	}
	if spread < 1.5 {
		t.Errorf("the trail's luminance varies by %.2f along it: one flat colour", spread)
	}
	if w < 0.84 || w > 1.56 {
		t.Errorf("the trail is %.2f m wide; want its 1.2 m ± 30 %%", w)
	}
}

// The trail follows the ground: on a steep bank seen from its foot, with
// the route along the bank's top edge, nothing of the route, the trail or
// its highlight line, shows in the sky above the bank's crest, and with
// the line off the bank's face shows no magenta. (The route was drawn in
// the terrain shader before too and kept to the ground; this guards it.)
func TestTrailFollowsTheGround(t *testing.T) {
	needLoop(t)
	const size = 129
	m := terrain.NewHeightmap(size, size)
	m.VerticalScale = 100
	// Level ground, then a 60° bank from x = 60 to 70 up to a terrace.
	rise := math.Tan(60 * math.Pi / 180)
	for r := 0; r < size; r++ {
		for c := 0; c < size; c++ {
			m.Set(c, r, float32(5+rise*min(max(float64(c)-60, 0), 10))/100)
		}
	}
	g := newTestGame(t, NewWorld(m))
	// The edge pass blends the pixels along the crest with the ground
	// below them, whatever colour that ground is: off, so that the sky
	// left unchanged means unchanged.
	g.View.Antialias = false
	g.Camera.Mode = Fly
	g.Camera.Pos, g.Camera.Yaw, g.Camera.Pitch = mgl32.Vec3{40, 7, 64}, 0, mgl32.DegToRad(12)
	sky := renderFrame(g, true)
	none := renderFrame(g, false)
	all := image.Rect(0, 0, testW, testH)
	for _, x := range []float64{70, 65} { // on the crest, halfway up the bank
		g.World.Route = lineView(m, [][2]float64{{x, 10}, {x, 118}})
		for _, line := range []bool{true, false} {
			g.View.RouteLine = line
			img := renderFrame(g, false)
			inSky, changed := 0, 0
			for y := range testH {
				for x := range testW {
					i := img.PixOffset(x, y)
					same := img.Pix[i] == none.Pix[i] && img.Pix[i+1] == none.Pix[i+1] && img.Pix[i+2] == none.Pix[i+2]
					if !same {
						changed++
						if none.Pix[i] == sky.Pix[i] && none.Pix[i+1] == sky.Pix[i+1] && none.Pix[i+2] == sky.Pix[i+2] {
							inSky++
						}
					}
				}
			}
			n, _ := differing(img, none, all, 8)
			t.Logf("route at x %.0f, line %v: %d pixels changed (%d by more than 8), %d of them sky before", x, line, changed, n, inSky)
			if n < 50 {
				t.Errorf("route at x %.0f, line %v: it changed only %d pixels: not in view", x, line, n)
			}
			if inSky > 0 {
				t.Errorf("route at x %.0f, line %v: %d pixels of the sky above the bank changed", x, line, inSky)
			}
			if !line && countMagenta(img) > 0 {
				t.Errorf("route at x %.0f, line off: %d magenta pixels on the bank", x, countMagenta(img))
			}
		}
	}
}

// BenchmarkFPS1025LookRoute is BenchmarkFPS1025Look with a route winding
// through the view: what the trail and its highlight line cost a frame.
func BenchmarkFPS1025LookRoute(b *testing.B) {
	needLoop(b)
	w := worldBeyond(b, 1025)
	var line [][2]float64
	for s := 80.0; s <= 940; s += 4 {
		line = append(line, [2]float64{s + 30*math.Sin(s/40), s - 30*math.Sin(s/40)})
	}
	w.Route = lineView(w.Map, line)
	g := newTestGame(b, w)
	g.View.Water = 0.25
	lowView(g.Camera, g.World.Map)
	benchmarkWindowFrames(b, g)
}

// Two passes of one path a few metres apart (an out-and-back's GPS fixes)
// are drawn as one line; passes further apart than mergeMetres (two legs
// of a wide hairpin, another path) stay where they are.
func TestPassesDrawnAsOne(t *testing.T) {
	m := flatMap(257)
	m.CellSize = 1
	pass := func(z float64, back bool) [][2]float64 {
		var l [][2]float64
		for x := 20.0; x <= 236; x += 2 {
			p := [2]float64{x, z + 0.8*math.Sin(x/11)}
			if back {
				l = append([][2]float64{p}, l...)
			} else {
				l = append(l, p)
			}
		}
		return l
	}
	for _, c := range []struct {
		apart, most float64 // metres between the passes; the most they may lie apart drawn
	}{{3, 0.3}, {4.5, 0.3}, {20, 20.3}} {
		rv := lineView(m, append(pass(100, false), pass(100+c.apart, true)...))
		worst, least := 0.0, math.Inf(1)
		for x := 60.0; x <= 200; x++ {
			// The drawn line's crossings of the column x: its points near it.
			var zs []float64
			for _, p := range rv.drawn[0] {
				if math.Abs(p[0]-x) < 0.26 {
					zs = append(zs, p[1])
				}
			}
			if len(zs) < 2 {
				t.Fatalf("%.1f m apart: the line crosses x %.0f %d times", c.apart, x, len(zs))
			}
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, z := range zs {
				lo, hi = min(lo, z), max(hi, z)
			}
			worst, least = max(worst, hi-lo), min(least, hi-lo)
		}
		t.Logf("passes %.1f m apart are drawn %.2f–%.2f m apart", c.apart, least, worst)
		if worst > c.most || (c.apart > mergeMetres && least < c.apart-0.3) {
			t.Errorf("passes %.1f m apart are drawn %.2f–%.2f m apart; want at most %.1f", c.apart, least, worst, c.most)
		}
	}
}
