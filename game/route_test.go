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

// straightRoute is a route view over a flat 129² map along the row z = 64
// from column 20 to 110, for the tests.
func straightRoute(t testing.TB, m *terrain.Heightmap, z float64) *RouteView {
	t.Helper()
	var seg []track.Sample
	for x := 20.0; x <= 110; x += 0.5 {
		seg = append(seg, track.Sample{X: x, Y: z + 0.3*math.Sin(x/9), Ele: 100})
	}
	return NewRouteView(&route.Result{Map: m, Path: &track.Path{Segments: [][]track.Sample{seg}, CellSize: m.CellSize}})
}

func flatMap(n int) *terrain.Heightmap {
	m := terrain.NewHeightmap(n, n)
	m.CellSize, m.VerticalScale = 2, 100
	return m
}

// fieldDistance is shaders/terrain.kage's routeDistance on the CPU: the
// distance in texels from field position (qx, qy) to the route, from the
// four texels around it. Where the four texels' nearest points of the
// route lie within routeSpread texels of one another (one stretch of
// the track), their vectors' bilinear blend is the position's own vector,
// exact to a fraction of a texel between texels; where they lie further
// apart (between two passes, inside a hairpin), the blend of vectors
// pointing opposite ways is near zero, and the distance is the least of
// the four texels' own: to the line through each nearest point across its
// vector.
func fieldDistance(rv *RouteView, qx, qy float64) float64 {
	bx, by := math.Floor(qx), math.Floor(qy)
	fx, fy := qx-bx, qy-by
	var v, foot [4][2]float64
	for k, c := range [4][2]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
		p := rv.Field.Pix[rv.Field.PixOffset(int(bx+c[0]), int(by+c[1])):]
		ux, uy := int(p[0])<<4|int(p[2])>>4, int(p[1])<<4|int(p[2])&15
		v[k] = [2]float64{float64(ux-2048) / fieldSteps * rv.reach, float64(uy-2048) / fieldSteps * rv.reach}
		foot[k] = [2]float64{c[0] + v[k][0], c[1] + v[k][1]}
	}
	spread, nearest := 0.0, math.Inf(1)
	for k := range foot {
		// The distance to the line through the foot across the vector,
		// or to the foot where the texel lies on the track.
		d := math.Hypot(foot[k][0]-fx, foot[k][1]-fy)
		if l := math.Hypot(v[k][0], v[k][1]); l >= 0.5 {
			d = math.Abs((fx-foot[k][0])*v[k][0]+(fy-foot[k][1])*v[k][1]) / l
		}
		nearest = math.Min(nearest, d)
		for j := k + 1; j < len(foot); j++ {
			spread = math.Max(spread, math.Hypot(foot[k][0]-foot[j][0], foot[k][1]-foot[j][1]))
		}
	}
	if spread > routeSpread {
		return nearest
	}
	w := [4]float64{(1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy}
	var vx, vy float64
	for k := range v {
		vx += w[k] * v[k][0]
		vy += w[k] * v[k][1]
	}
	return math.Hypot(vx, vy)
}

// routeSpread must match shaders/terrain.kage's routeSpread.
const routeSpread = 2.0

// trueFieldDistance is the distance in texels from (qx, qy) to the
// drawn line's segments, by brute force: the oracle.
func trueFieldDistance(rv *RouteView, qx, qy float64) float64 {
	want := math.Inf(1)
	for _, seg := range rv.drawn {
		for k := 1; k < len(seg); k++ {
			ax, ay := seg[k-1][0]*rv.scale, seg[k-1][1]*rv.scale
			dx, dy := seg[k][0]*rv.scale-ax, seg[k][1]*rv.scale-ay
			u := math.Min(math.Max(((qx-ax)*dx+(qy-ay)*dy)/(dx*dx+dy*dy), 0), 1)
			want = math.Min(want, math.Hypot(ax+u*dx-qx, ay+u*dy-qy))
		}
	}
	return want
}

// The field gives the distance to the track between texels to a small
// fraction of a texel (the line can be thinner than one), on one stretch
// and between two passes a few texels apart, where the bilinear blend of
// the vectors alone put a line halfway between them (a lapped run, a
// trail network, the inside of a hairpin filled with the route's colour).
func TestRouteFieldDistance(t *testing.T) {
	m := flatMap(129)
	for _, tc := range []struct {
		name  string
		rv    *RouteView
		y, dy float64 // where to look, texels: y ± dy
	}{
		{"one stretch", straightRoute(t, m, 64), 64 * 4, 6 * 0.21},
		{"two passes 1.75 samples apart", hairpinRoute(m, 1.75/2), 63 * 4, 4},
	} {
		// Within the reach less 1.5 texels of the track the distance must be
		// right; further out, where the shader draws neither the line nor
		// its outline (at most half the reach wide), it must
		// not fall within that.
		worst, at, spurious := 0.0, [2]float64{}, 0
		for i := 0; i < 2000; i++ {
			qx := 40*tc.rv.scale + float64(i%97)*0.45*tc.rv.scale
			qy := tc.y + (float64(i%13)-6)/6*tc.dy
			want, got := trueFieldDistance(tc.rv, qx, qy), fieldDistance(tc.rv, qx, qy)
			if want > tc.rv.reach-1.5 {
				if got < 0.5*(tc.rv.reach-1) {
					spurious++
				}
				continue
			}
			if e := math.Abs(got - want); e > worst {
				worst, at = e, [2]float64{qx, qy}
			}
		}
		if worst > 0.2 || spurious > 0 {
			t.Errorf("%s: field distance off by up to %.3f texels at %.1f, want < 0.2; %d positions beyond the line drawn on it",
				tc.name, worst, at, spurious)
		}
	}
}

func TestRouteAtAndFollow(t *testing.T) {
	m := flatMap(129)
	rv := straightRoute(t, m, 64)
	x, z, yaw := rv.At(0, 4)
	if math.Abs(x-40) > 1e-9 || math.Abs(yaw) > 0.2 {
		t.Errorf("start at x %v z %v yaw %v; want x 40 heading along +x", x, z, yaw)
	}
	if l := rv.Length(); math.Abs(l-180) > 3 {
		t.Errorf("length %v, want about 180 world units (90 samples × 2)", l)
	}
	if ex, _, _ := rv.At(1e9, 4); math.Abs(ex-220) > 1e-9 {
		t.Errorf("beyond the end the route clamps to x %v, want 220", ex)
	}
	g := &Game{World: &World{Map: m, Route: rv}, Camera: NewCamera(), Options: Options{FollowSpeed: 10}}
	g.Follow = true
	for i := 0; i < 60; i++ {
		g.followRoute(float64(g.FollowSpeed) / 60)
	}
	if math.Abs(g.FollowAt-10) > 1e-9 || math.Abs(float64(g.Camera.Pos[0])-50) > 0.5 || g.Camera.Pos[1] != EyeHeight {
		t.Errorf("after 1 s at 10/s: at %v, camera %v; want 10 along, x≈50, eye height %v", g.FollowAt, g.Camera.Pos, EyeHeight)
	}
}

// The route is painted on the terrain where the terrain is seen and hidden
// where nearer ground is in front of it: a wall across the map hides a
// route behind it from a camera low in front of it.
func TestRouteDrawnAndHiddenBehindHills(t *testing.T) {
	needLoop(t)
	m := flatMap(129)
	for r := 0; r < 129; r++ { // a wall along row 70..74, height 60 units
		for c := 0; c < 129; c++ {
			if r >= 70 && r <= 74 {
				m.Set(c, r, 0.6)
			}
		}
	}
	g := newTestGame(t, NewWorld(m))
	render := func(rv *RouteView) *image.RGBA {
		g.World.Route = rv
		return renderFrame(g, false)
	}
	all := image.Rect(0, 0, testW, testH)
	// From above: the route shows, in magenta.
	g.Camera.Pos, g.Camera.Yaw, g.Camera.Pitch = mgl32.Vec3{130, 200, 120}, 0, mgl32.DegToRad(-89)
	near := straightRoute(t, m, 50)
	with, without := render(near), render(nil)
	n, _ := differing(with, without, all, 8)
	magenta, outline := 0, 0
	for i := 0; i < len(with.Pix); i += 4 {
		// Magenta, lit or in the wall's shadow.
		if cr, cg, cb := int(with.Pix[i]), int(with.Pix[i+1]), int(with.Pix[i+2]); cr > cg+60 && cb > cg+60 {
			magenta++
		} else if max(with.Pix[i], with.Pix[i+1], with.Pix[i+2]) < 60 && with.Pix[i+1] != without.Pix[i+1] {
			outline++
		}
	}
	if n < 200 || magenta < n/5 || magenta+outline < n/2 {
		t.Errorf("seen from above the route changed %d pixels, %d of them magenta, %d dark outline", n, magenta, outline)
	}
	// Low in front of the wall, looking across it: a route behind the wall
	// is hidden, the same route in front of it is not.
	g.Camera.Pos, g.Camera.Yaw, g.Camera.Pitch = mgl32.Vec3{130, 8, 40}, float32(math.Pi/2), mgl32.DegToRad(-3)
	without = render(nil)
	if n, _ := differing(render(straightRoute(t, m, 100)), without, all, 8); n != 0 {
		t.Errorf("a route behind the wall changed %d pixels", n)
	}
	if n, _ := differing(render(straightRoute(t, m, 60)), without, all, 8); n < 50 {
		t.Errorf("a route in front of the wall changed only %d pixels", n)
	}
}

// hairpinRoute runs east along z = 63 − r, turns on a half circle of
// radius r samples and comes back west along z = 63 + r.
func hairpinRoute(m *terrain.Heightmap, r float64) *RouteView {
	var seg []track.Sample
	for x := 20.0; x < 90; x += 0.5 {
		seg = append(seg, track.Sample{X: x, Y: 63 - r, Ele: 100})
	}
	for a := -math.Pi / 2; a < math.Pi/2; a += 0.1 {
		seg = append(seg, track.Sample{X: 90 + r*math.Cos(a), Y: 63 + r*math.Sin(a), Ele: 100})
	}
	for x := 90.0; x >= 20; x -= 0.5 {
		seg = append(seg, track.Sample{X: x, Y: 63 + r, Ele: 100})
	}
	return NewRouteView(&route.Result{Map: m, Path: &track.Path{Segments: [][]track.Sample{seg}, CellSize: m.CellSize, Length: 0}})
}

// Through a hairpin the follow camera turns smoothly, at most followTurn a
// tick, and always looks within 90° of the way the track goes, where the
// chord to a point a look-ahead further would point across at the other
// leg.
func TestFollowThroughHairpin(t *testing.T) {
	m := flatMap(129)
	rv := hairpinRoute(m, 3)
	g := &Game{World: &World{Map: m, Route: rv}, Camera: NewCamera(), Options: Options{FollowSpeed: 10}}
	g.Follow = true
	g.followRoute(0)
	g.Camera.Yaw = 0 // heading east already
	prev, worstTurn, worstOff := float64(g.Camera.Yaw), 0.0, 0.0
	for g.FollowAt < rv.Length()-1 {
		g.followRoute(float64(g.FollowSpeed) / 60)
		yaw := float64(g.Camera.Yaw)
		worstTurn = math.Max(worstTurn, math.Abs(math.Remainder(yaw-prev, 2*math.Pi)))
		prev = yaw
		// The way the track goes here: a short chord.
		x0, z0, _ := rv.At(g.FollowAt, 0.01)
		x1, z1, _ := rv.At(g.FollowAt+0.5, 0.01)
		track := math.Atan2(z1-z0, x1-x0)
		worstOff = math.Max(worstOff, math.Abs(math.Remainder(yaw-track, 2*math.Pi)))
	}
	t.Logf("largest turn in a tick %.2f°, largest angle to the track %.1f°", worstTurn*180/math.Pi, worstOff*180/math.Pi)
	if worstTurn > followTurn+1e-6 || worstOff > math.Pi/2 {
		t.Errorf("turn per tick up to %.2f° (want ≤ 3°), angle to the track up to %.1f° (want ≤ 90°)", worstTurn*180/math.Pi, worstOff*180/math.Pi)
	}
}

// The explorer's route length is the prepared track's, as generate prints it.
func TestRouteLengthIsTheTracks(t *testing.T) {
	m := flatMap(129)
	rv := hairpinRoute(m, 3)
	want := rv.Length() * 1.01 // as if the prepared track were 1 % longer than the resampled line
	rv = NewRouteView(&route.Result{Map: m, Path: &track.Path{Segments: rv.Path.Segments, CellSize: m.CellSize, Length: want}})
	if got := rv.Length(); math.Abs(got-want) > 1e-9 {
		t.Errorf("length %v, want the track's %v", got, want)
	}
}

// On a steep climb the follow camera looks up the track: the track's
// ground a look-ahead further on lies near the middle of the view as soon
// as the camera is put on the route (facing away and down before), and
// still after two seconds of climbing. A camera that kept its pitch looked
// into the slope and turned only 3° towards the track in the first frame.
func TestFollowLooksUpASteepClimb(t *testing.T) {
	const n = 129
	m := flatMap(n)
	m.VerticalScale = 256 // one unit up per unit east: 45°
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			m.Samples[r*n+c] = float32(c) / (n - 1)
		}
	}
	var seg []track.Sample
	for x := 10.0; x < 120; x += 0.5 {
		seg = append(seg, track.Sample{X: x, Y: 64, Ele: x * m.CellSize})
	}
	rv := NewRouteView(&route.Result{Map: m, Path: &track.Path{Segments: [][]track.Sample{seg}, CellSize: m.CellSize}})
	cam := NewCamera()
	cam.Pos, cam.Yaw, cam.Pitch = mgl32.Vec3{-500, 400, -500}, math.Pi, -0.5
	g := &Game{World: &World{Map: m, Route: rv}, Camera: cam, Options: Options{FollowSpeed: 10}}
	g.Follow = true
	check := func(when string) {
		t.Helper()
		look := 8 * m.CellSize
		ax, az, _ := rv.At(g.FollowAt+look, look)
		ahead := mgl32.Vec3{float32(ax), float32(m.GroundHeight(ax, az)), float32(az)}
		dir := ahead.Sub(cam.Pos).Normalize()
		off := math.Acos(math.Min(float64(dir.Dot(cam.Forward())), 1))
		t.Logf("%s: the track ahead %.1f° off the view's centre (yaw %.1f°, pitch %.1f°)", when, off*180/math.Pi, cam.Yaw*180/math.Pi, cam.Pitch*180/math.Pi)
		if off > float64(cam.FovY)/4 {
			t.Errorf("%s: the track ahead is %.1f° off the view's centre, want within %.1f°", when, off*180/math.Pi, cam.FovY/4*180/math.Pi)
		}
	}
	g.followRoute(0)
	check("put on the route")
	for range 120 {
		g.followRoute(float64(g.FollowSpeed) / 60)
	}
	check("after two seconds")
}

// The route is lit like the ground it lies on: on a slope facing the sun
// it is brighter than on level ground, and on one facing away darker,
// keeping its hue (it once showed the same full magenta on every sunlit
// slope, a flat band).
func TestRouteLitLikeTheGround(t *testing.T) {
	needLoop(t)
	const size = 129
	m := terrain.NewHeightmap(size, size)
	m.VerticalScale = 100
	// Level for x < 44, then a 30° slope rising with x (facing the sun
	// at −x) up to x = 64, then a 30° slope falling (facing away).
	rise := math.Tan(30 * math.Pi / 180)
	for r := 0; r < size; r++ {
		for c := 0; c < size; c++ {
			x := float64(c)
			y := 20 + rise*max(min(x, 64)-44, 0) - rise*max(min(x, 84)-64, 0)
			m.Set(c, r, float32(y/100))
		}
	}
	g := newTestGame(t, NewWorld(m))
	g.View.Shadows, g.View.Occlusion, g.View.DetailMaps = false, false, false
	g.View.SunElevation, g.View.SunAzimuth = 30, 180 // towards −x
	g.View.RouteLine = false                         // the line over it is drawn alike everywhere
	g.World.Route = straightRoute(t, m, 64)
	topDown(g, 64, 95, 64)
	img := renderFrame(g, false)
	// The route's mean luminance from x0 to x1 along it.
	mean := func(x0, x1 float32) float64 {
		sum, n := 0.0, 0.0
		for x := x0; x <= x1; x++ {
			z := 64 + 0.3*math.Sin(float64(x)/9) // straightRoute's line
			pos := mgl32.Vec3{x, float32(m.GroundHeight(float64(x), z)), float32(z)}
			cr, cg, cb := pixelAt(g, img, pos)
			sum, n = sum+0.3*cr+0.59*cg+0.11*cb, n+1
		}
		return sum / n
	}
	level, sun, away := mean(32, 40), mean(48, 60), mean(68, 80)
	t.Logf("the route's luminance: level %.1f, facing the sun %.1f, facing away %.1f", level, sun, away)
	if sun < level+5 {
		t.Errorf("on the slope facing the sun the route (%.1f) is not brighter than on level ground (%.1f)", sun, level)
	}
	if away > level-10 {
		t.Errorf("on the slope facing away the route (%.1f) is not darker than on level ground (%.1f)", away, level)
	}
}

// The climate's snow line: high in the tropics, lowest at the poles, and
// on a route map a share of its height range (none on a hill whose top
// lies far below it).
func TestRouteSnowLine(t *testing.T) {
	for _, c := range []struct{ lat, want float64 }{{0, 4800}, {-20, 5300}, {45, 2900}, {46, 2793.3}, {60, 1300}, {-85, 0}} {
		if got := climateSnowLine(c.lat); math.Abs(got-c.want) > 0.1 {
			t.Errorf("climateSnowLine(%v) = %.1f m, want %.1f", c.lat, got, c.want)
		}
	}
	m := flatMap(129)
	path := func(lat float64) *track.Path {
		tr := &track.Track{Segments: [][]track.Point{{{Lat: lat, Lon: 14, Ele: 100, HasEle: true}, {Lat: lat + 0.001, Lon: 14.001, Ele: 150, HasEle: true}}}}
		p, err := track.Prepare(tr, track.Options{Size: 129, Margin: 0.1, MinCellSize: 1})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		lat, base, scale float64
		want             float32
	}{
		{46, 700, 400, maxSnowLine}, // a Slovenian hill: no snow
		{0, 4000, 2000, 0.4},        // the equator's 4800 m on a 4–6 km map
		{78, 100, 1000, 0},          // the Arctic: snow down to the sea
		{45, 2000, 0, maxSnowLine},  // no height scale: none
	} {
		m.VerticalScale = c.scale
		rv := &route.Result{Map: m, Path: path(c.lat), Base: c.base}
		if got := routeSnowLine(rv); math.Abs(float64(got-c.want)) > 0.01 {
			t.Errorf("lat %v, base %v m, scale %v m: snow line %.3f, want %.3f", c.lat, c.base, c.scale, got, c.want)
		}
	}
}

// A route world brings the climate's snow line into the Viewer, and a
// world without a route the preset's again; a snow line the user has
// moved stays where they put it.
func TestSnowLineFollowsTheWorld(t *testing.T) {
	g := &Game{Options: Options{View: DefaultViewer()}, World: NewWorld(flatMap(65))}
	preset := metricSnowLine(g.World.Map) // a plain world's heights are metres
	g.fitSnowLine()
	if g.View.SnowLine != preset {
		t.Fatalf("a plain world: snow line %v, want the metric %v", g.View.SnowLine, preset)
	}
	g.World = &World{Map: g.World.Map, Route: &RouteView{SnowLine: 1.2}}
	g.fitSnowLine()
	if g.View.SnowLine != 1.2 {
		t.Errorf("a route world: snow line %v, want its 1.2", g.View.SnowLine)
	}
	g.World = NewWorld(flatMap(65))
	g.fitSnowLine()
	if g.View.SnowLine != preset {
		t.Errorf("back to a plain world: snow line %v, want the preset's %v", g.View.SnowLine, preset)
	}
	g.View.SnowLine = 0.3 // the user's
	g.World = &World{Map: g.World.Map, Route: &RouteView{SnowLine: 1.2}}
	g.fitSnowLine()
	if g.View.SnowLine != 0.3 {
		t.Errorf("the user's snow line 0.3 became %v", g.View.SnowLine)
	}
}

// A route running away from a low camera keeps its width in the distance:
// each screen row shows it no wider than its 3 m and outline project to,
// and a few pixels of edge, where sizing the line by the pixel's
// footprint along the view, long at a grazing angle, widened it and its
// dark outline into smudges where the track crossed a crest (68 pixels
// for 20 at 80 m).
func TestRouteKeepsItsWidthAtAGrazingAngle(t *testing.T) {
	needLoop(t)
	const size = 513
	m := terrain.NewHeightmap(size, size)
	// 16 m samples, as on a long track's map: the route's distance field
	// reaches 12 m, far enough for the line's full width.
	m.CellSize, m.VerticalScale = 16, 100
	const z = 256 * 16
	var seg []track.Sample
	for x := 0.0; x <= size-1; x += 0.5 {
		seg = append(seg, track.Sample{X: x, Y: 256, Ele: 0})
	}
	rv := NewRouteView(&route.Result{Map: m, Path: &track.Path{Segments: [][]track.Sample{seg}, CellSize: m.CellSize, Length: size - 1}})
	g := newTestGame(t, NewWorld(m))
	g.View.Antialias = false
	g.Camera.Mode = Fly
	g.Camera.Pos, g.Camera.Yaw, g.Camera.Pitch = mgl32.Vec3{64, 2, z}, 0, mgl32.DegToRad(-2)
	without := renderFrame(g, false)
	g.World.Route = rv
	with := renderFrame(g, false)
	pr := newProjector(viewProjection(g.Camera, testW, testH), testW, testH, g.Camera.Near)
	screenX := func(x, z float32) (float32, float32) {
		v := pr.vertex(surfaceVertex{pos: mgl32.Vec3{x, 0, z}})
		return v.DstX, v.DstY
	}
	for _, dist := range []float32{20, 40, 80, 160} {
		x := 64 + dist
		// The line's half-width and outline, at most 1.5 + 0.4 m, or a
		// pixel or two where that is less.
		l, row := screenX(x, z-1.9)
		r, _ := screenX(x, z+1.9)
		want := r - l
		y := int(row)
		n, _ := differing(with, without, image.Rect(0, y, testW, y+1), 8)
		t.Logf("%3.0f m away (row %d): the route covers %d pixels, its width projects to %.1f", dist, y, n, want)
		// Plus the outline, anti-aliasing and partly covered pixels: a
		// pixel or so on each side, where the outline is a pixel wide.
		if float32(n) > want+6 {
			t.Errorf("%3.0f m away: the route covers %d pixels of its row, its width projects to %.1f", dist, n, want)
		}
	}
}

// Two passes of a track a few texels apart (a lapped run, a trail
// network) are drawn as two lines with ground between them: seen from
// above, the route's colour covers no more than the two lines drawn one at
// a time do (it covered 22080 pixels against 10080 and 10080: the field's
// vectors, pointing at one pass on one side of the midline and at the
// other beyond it, blended to nothing on the midline and drew a third
// line there).
func TestTwoPassesDrawnApart(t *testing.T) {
	needLoop(t)
	m := flatMap(129)
	m.CellSize = 8 // the line, 3 m wide, is 1.5 texels: the passes stand apart
	pass := func(z float64) []track.Sample {
		var seg []track.Sample
		for x := 20.0; x <= 110; x += 0.5 {
			seg = append(seg, track.Sample{X: x, Y: z, Ele: 100})
		}
		return seg
	}
	view := func(segs ...[]track.Sample) *RouteView {
		return NewRouteView(&route.Result{Map: m, Path: &track.Path{Segments: segs, CellSize: m.CellSize}})
	}
	a, b := pass(64), pass(64+1.75) // 7 texels apart
	g := newTestGame(t, NewWorld(m))
	g.Camera.Pos, g.Camera.Yaw, g.Camera.Pitch = mgl32.Vec3{520, 60, 519}, 0, mgl32.DegToRad(-89.9)
	magenta := func(rv *RouteView) int {
		g.World.Route = rv
		img := renderFrame(g, false)
		n := 0
		for i := 0; i < len(img.Pix); i += 4 {
			if cr, cg, cb := int(img.Pix[i]), int(img.Pix[i+1]), int(img.Pix[i+2]); cr > cg+60 && cb > cg+60 {
				n++
			}
		}
		return n
	}
	one, other, both := magenta(view(a)), magenta(view(b)), magenta(view(a, b))
	t.Logf("magenta pixels: one pass %d, the other %d, both %d", one, other, both)
	if one < 500 || other < 500 {
		t.Fatalf("the passes alone show %d and %d magenta pixels: not in view", one, other)
	}
	if float64(both) > 1.05*float64(one+other) {
		t.Errorf("both passes cover %d pixels, %.2f times the two drawn one at a time", both, float64(both)/float64(one+other))
	}
}
