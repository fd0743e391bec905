package game

import (
	"context"
	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"cordillera/pipeline"
	"cordillera/route"
	"cordillera/route/track"
	"cordillera/terrain"
)

// RouteView is a GPS route laid on its world: the trail (or road) it is
// drawn as on the terrain, the highlight line over it (a field the terrain
// shader samples, so hills hide both where they should), the line on the
// minimap, and the path the follow camera walks.
//
// The field holds, at each texel, the vector from the texel's centre to the
// nearest point of the drawn line, 12 bits a component over ±reach texels
// (R and G the high 8 bits of x and y, B their low 4 bits). Near a straight
// stretch that vector is affine in position, so bilinear sampling recovers
// the exact distance to the line between texels: the trail is drawn with
// its width in metres, however many texels that is, and the passes of a
// lapped run that lie within it are one trail.
type RouteView struct {
	Path  *track.Path
	Field *image.RGBA // nearest-point vectors over the map, scale texels per sample
	Stats *route.Result

	// SnowLine is where the climate puts the snow on this map, as the
	// Viewer's snow line (a share of the map's height range; above 1 none):
	// a route map has real elevations and a latitude (climateSnowLine).
	SnowLine float32

	// HalfWidth is half the width, in world units (metres on route maps),
	// of what the route is drawn as: a footpath (trailHalfWidth), or the
	// level road the map was made with (Road).
	HalfWidth float64
	Road      bool

	scale   float64        // field texels per map sample
	reach   float64        // field texels the vectors reach
	drawn   [][][2]float64 // the line drawn, map samples: the path smoothed (smoothLine)
	points  [][2]float64   // world x, z of the path, segments joined (gaps jumped)
	cum     []float64      // distance along points, world units
	maskImg *ebiten.Image
}

// maxMaskSide bounds the field's resolution.
const maxMaskSide = 2048

// maxMaskScale bounds the field's texels per map sample.
const maxMaskScale = 4.0

// The field's reach: fieldReachMetres, which holds the highlight line's
// few pixels out to kilometres from the eye, or enough for a wide road's
// edge, in texels at least minFieldReach and at most maxFieldReach (the
// field's making costs the reach squared). Its 12 bits then place the
// line to reach/2047: 2–3 cm.
const (
	fieldReachMetres = 48.0
	minFieldReach    = 6.0
	maxFieldReach    = 48.0
)

// fieldSteps is the field's code for a vector of +reach (12 bits, 2048
// the zero vector).
const fieldSteps = 2047.0

// trailHalfWidth is half a footpath's width in metres: a mountain trail
// is 1–1.5 m wide.
const trailHalfWidth = 0.6

// lineSmoothing is σ, in metres, of the Gaussian along the way that
// smooths the drawn line: GPS fixes a few metres apart, each off by a few
// metres, turned a trail into a polygon with corners at every fix. On a
// coarse map the line is smoothed over lineSmoothingTexels of the field
// at least: the field's bilinear vectors follow a bend of radius ρ to
// about texel²/8ρ, and a corner at every resampled point put the line
// off its centre by a good share of a texel.
const (
	lineSmoothing       = 2.0
	lineSmoothingTexels = 0.75
)

// climateSnowLine is the elevation, in metres, of the permanent snow line
// at latitude lat (degrees): about 4800 m at the equator, highest in the
// dry subtropics (5300 m near 20°), 2900 m at 45° (the Alps), 1300 m at
// 60° and sea level from 80°, linear between these.
func climateSnowLine(lat float64) float64 {
	pts := [][2]float64{{0, 4800}, {20, 5300}, {30, 5000}, {45, 2900}, {60, 1300}, {70, 500}, {80, 0}}
	a := math.Min(math.Abs(lat), 90)
	for i := 1; i < len(pts); i++ {
		if a <= pts[i][0] {
			p, q := pts[i-1], pts[i]
			return p[1] + (a-p[0])/(q[0]-p[0])*(q[1]-p[1])
		}
	}
	return 0
}

// maxSnowLine is the Viewer's highest snow line: no snow at all, even
// where the line dips on slopes facing away from the sun.
const maxSnowLine = 1.2

// routeSnowLine is the climate's snow line on a route map, as a share of
// its height range (res.Base + h·VerticalScale metres): a 1000 m hill in
// Slovenia gets no snow, where a share of its range put snow on its top.
func routeSnowLine(res *route.Result) float32 {
	m := res.Map
	mid := float64(m.Width-1) / 2
	lat, _ := res.Path.LatLon(mid, mid)
	share := (climateSnowLine(lat) - res.Base) / m.VerticalScale
	if math.IsNaN(share) || !(m.VerticalScale > 0) {
		return maxSnowLine
	}
	return float32(math.Min(math.Max(share, 0), maxSnowLine))
}

// NewRouteView prepares a route result for drawing; it does CPU work only.
func NewRouteView(res *route.Result) *RouteView {
	m := res.Map
	rv := &RouteView{Path: res.Path, Stats: res, SnowLine: routeSnowLine(res), HalfWidth: trailHalfWidth}
	if res.RoadWidth > 0 {
		rv.HalfWidth, rv.Road = res.RoadWidth/2, true
	}
	rv.scale = math.Min(maxMaskScale, float64(maxMaskSide)/float64(max(m.Width, m.Height)))
	texel := m.CellSize / rv.scale
	rv.reach = maxFieldReach
	if texel > 0 {
		rv.reach = math.Min(math.Max(math.Ceil(max(fieldReachMetres, 1.5*rv.HalfWidth)/texel)+2, minFieldReach), maxFieldReach)
	}
	w := int(math.Ceil(float64(m.Width-1)*rv.scale)) + 1
	h := int(math.Ceil(float64(m.Height-1)*rv.scale)) + 1
	rv.Field = image.NewRGBA(image.Rect(0, 0, w, h))
	best := make([]float64, w*h)
	for i := range best {
		best[i] = rv.reach * rv.reach
	}
	sigma := lineSmoothingTexels / rv.scale
	if m.CellSize > 0 {
		sigma = max(sigma, lineSmoothing/m.CellSize)
	}
	for _, seg := range res.Path.Segments {
		rv.drawn = append(rv.drawn, smoothLine(seg, sigma))
	}
	// A road is levelled along each pass (route/road): drawn where
	// the ground was made for it, not merged.
	if m.CellSize > 0 && !rv.Road {
		rv.drawn = mergePasses(rv.drawn, mergeMetres/m.CellSize, sigma)
	}
	for _, line := range rv.drawn {
		for i, s := range line {
			if i > 0 {
				a := line[i-1]
				rv.nearest(best, a[0]*rv.scale, a[1]*rv.scale, s[0]*rv.scale, s[1]*rv.scale)
			} else if len(line) == 1 {
				rv.nearest(best, s[0]*rv.scale, s[1]*rv.scale, s[0]*rv.scale, s[1]*rv.scale)
			}
		}
	}
	// The follow camera walks the line drawn, so that it walks on the
	// trail where passes were merged.
	for _, seg := range rv.drawn {
		for i, s := range seg {
			wx, wz := s[0]*m.CellSize, s[1]*m.CellSize
			d := 0.0
			if n := len(rv.points); n > 0 && i > 0 {
				p := rv.points[n-1]
				d = rv.cum[n-1] + math.Hypot(wx-p[0], wz-p[1])
			} else if n > 0 {
				d = rv.cum[n-1] // a gap: the follow camera jumps it
			}
			rv.points = append(rv.points, [2]float64{wx, wz})
			rv.cum = append(rv.cum, d)
		}
	}
	// One track length everywhere: the route's own (metres along the
	// prepared track, as generate prints it), not the resampled line's,
	// which cuts every corner by a little.
	if l := rv.Length(); res.Path.Length > 0 && l > 0 && m.CellSize > 0 {
		k := res.Path.Length / l
		for i := range rv.cum {
			rv.cum[i] *= k
		}
	}
	for i, d2 := range best {
		px := rv.Field.Pix[4*i : 4*i+4]
		if d2 >= rv.reach*rv.reach { // no route within reach: point far away
			px[0], px[1], px[2] = 255, 255, 255
		}
		px[3] = 255
	}
	return rv
}

// smoothLine is seg's points (map samples) smoothed along the way by a
// Gaussian of σ sigma samples over the distance along it, cut at 3σ; the
// ends keep their places.
func smoothLine(seg []track.Sample, sigma float64) [][2]float64 {
	out := make([][2]float64, len(seg))
	s := make([]float64, len(seg))
	for i := range seg {
		if i > 0 {
			s[i] = s[i-1] + math.Hypot(seg[i].X-seg[i-1].X, seg[i].Y-seg[i-1].Y)
		}
		out[i] = [2]float64{seg[i].X, seg[i].Y}
	}
	if !(sigma > 0) || len(seg) < 3 {
		return out
	}
	lo, hi := 0, 0
	for i := 1; i < len(seg)-1; i++ {
		// Near an end the window narrows to stay symmetric, so the line
		// still meets its end.
		r := math.Min(3*sigma, math.Min(s[i], s[len(s)-1]-s[i]))
		for s[lo] < s[i]-r {
			lo++
		}
		for hi+1 < len(s) && s[hi+1] <= s[i]+r {
			hi++
		}
		var x, y, sum float64
		for j := lo; j <= hi; j++ {
			d := (s[j] - s[i]) / sigma
			w := math.Exp(-0.5 * d * d)
			x, y, sum = x+w*seg[j].X, y+w*seg[j].Y, sum+w
		}
		out[i] = [2]float64{x / sum, y / sum}
	}
	return out
}

// mergeMetres is how near, in metres, two passes of a route lie where
// they are drawn as one: an out-and-back's or a lapped run's fixes of one
// path lie a few metres apart, and drew two or three strands side by side.
const mergeMetres = 15.0

// mergePasses draws passes of the route within reach samples of one
// another as one line: each point of the lines (map samples) moves
// halfway to the nearest point of another pass (another segment, or a
// point more than 3·reach further along its own), fully within 0.6·reach
// and less and less out to reach, and the lines are smoothed again over
// sigma samples, so that the two passes meet in their middle and part
// without a kink.
func mergePasses(lines [][][2]float64, reach, sigma float64) [][][2]float64 {
	if !(reach > 0) {
		return lines
	}
	type ref struct {
		seg, i int
		s      float64
	}
	cell := func(p [2]float64) [2]int { return [2]int{int(math.Floor(p[0] / reach)), int(math.Floor(p[1] / reach))} }
	grid := map[[2]int][]ref{}
	arc := make([][]float64, len(lines))
	for k, l := range lines {
		arc[k] = make([]float64, len(l))
		for i, p := range l {
			if i > 0 {
				arc[k][i] = arc[k][i-1] + math.Hypot(p[0]-l[i-1][0], p[1]-l[i-1][1])
			}
			grid[cell(p)] = append(grid[cell(p)], ref{k, i, arc[k][i]})
		}
	}
	out := make([][][2]float64, len(lines))
	for k, l := range lines {
		moved := make([]track.Sample, len(l))
		for i, p := range l {
			c := cell(p)
			best, bd := p, reach
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					for _, r := range grid[[2]int{c[0] + dx, c[1] + dy}] {
						if r.seg == k && math.Abs(r.s-arc[k][i]) < 3*reach {
							continue
						}
						q := lines[r.seg][r.i]
						if d := math.Hypot(q[0]-p[0], q[1]-p[1]); d < bd {
							best, bd = q, d
						}
					}
				}
			}
			t := min(max((bd-0.6*reach)/(0.4*reach), 0), 1)
			w := 0.5 * (1 - t*t*(3-2*t))
			moved[i] = track.Sample{X: p[0] + w*(best[0]-p[0]), Y: p[1] + w*(best[1]-p[1])}
		}
		out[k] = smoothLine(moved, sigma)
	}
	return out
}

// encodeVector is the field's 12-bit code of a component of ±reach texels.
func encodeVector(v, reach float64) uint16 {
	return uint16(math.Round(2048 + fieldSteps*math.Max(-1, math.Min(1, v/reach))))
}

// nearest records, for the texels within reach of segment a–b (texel
// coordinates, centres at integers), the vector to the segment's nearest
// point where it is nearer than what the field holds.
func (rv *RouteView) nearest(best []float64, ax, ay, bx, by float64) {
	b := rv.Field.Bounds()
	r := rv.reach
	dx, dy := bx-ax, by-ay
	l2 := dx*dx + dy*dy
	y0, y1 := max(int(math.Floor(min(ay, by)-r)), 0), min(int(math.Ceil(max(ay, by)+r)), b.Dy()-1)
	x0, x1 := max(int(math.Floor(min(ax, bx)-r)), 0), min(int(math.Ceil(max(ax, bx)+r)), b.Dx()-1)
	for py := y0; py <= y1; py++ {
		for px := x0; px <= x1; px++ {
			t := 0.0
			if l2 > 0 {
				t = math.Min(math.Max(((float64(px)-ax)*dx+(float64(py)-ay)*dy)/l2, 0), 1)
			}
			vx, vy := ax+t*dx-float64(px), ay+t*dy-float64(py)
			k := py*b.Dx() + px
			if d2 := vx*vx + vy*vy; d2 < best[k] {
				best[k] = d2
				ux, uy := encodeVector(vx, r), encodeVector(vy, r)
				p := rv.Field.Pix[4*k : 4*k+3]
				p[0], p[1], p[2] = uint8(ux>>4), uint8(uy>>4), uint8((ux&15)<<4|uy&15)
			}
		}
	}
}

// Length is the route's length along the path, in world units.
func (rv *RouteView) Length() float64 {
	if len(rv.cum) == 0 {
		return 0
	}
	return rv.cum[len(rv.cum)-1]
}

// At returns the world x, z at distance s along the route (clamped) and
// the heading there, radians like Camera.Yaw, looking ahead by look units.
func (rv *RouteView) At(s, look float64) (x, z, yaw float64) {
	pos := func(s float64) (float64, float64) {
		s = math.Min(math.Max(s, 0), rv.Length())
		i := 0
		for lo, hi := 0, len(rv.cum)-1; lo <= hi; {
			mid := (lo + hi) / 2
			if rv.cum[mid] <= s {
				i, lo = mid, mid+1
			} else {
				hi = mid - 1
			}
		}
		if i+1 >= len(rv.points) || rv.cum[i+1] == rv.cum[i] {
			return rv.points[i][0], rv.points[i][1]
		}
		t := (s - rv.cum[i]) / (rv.cum[i+1] - rv.cum[i])
		a, b := rv.points[i], rv.points[i+1]
		return a[0] + t*(b[0]-a[0]), a[1] + t*(b[1]-a[1])
	}
	x, z = pos(s)
	// The heading is the mean direction of the track over the look-ahead,
	// nearer stretches weighing more: through a hairpin it turns with the
	// track instead of pointing across to the other leg.
	const steps = 8
	hx, hz := 0.0, 0.0
	px, pz := x, z
	for k := 1; k <= steps; k++ {
		qx, qz := pos(s + look*float64(k)/steps)
		if l := math.Hypot(qx-px, qz-pz); l > 0 {
			w := 1 - float64(k-1)/steps
			hx, hz = hx+w*(qx-px)/l, hz+w*(qz-pz)/l
		}
		px, pz = qx, qz
	}
	if math.Hypot(hx, hz) < 1e-9 { // at the end: look back along it
		bx, bz := pos(s - look)
		hx, hz = x-bx, z-bz
	}
	return x, z, math.Atan2(hz, hx)
}

// image returns the field as an ebiten image, made on first use.
func (rv *RouteView) image() *ebiten.Image {
	if rv.maskImg == nil {
		rv.maskImg = ebiten.NewImageFromImage(rv.Field)
	}
	return rv.maskImg
}

// routeColour is the route's highlight line, on the minimap and in the
// 3D view: magenta, which no ground shows.
var routeColour = color.RGBA{255, 0, 255, 255}

// drawOnMinimap draws the route over the minimap.
func (rv *RouteView) drawOnMinimap(dst *ebiten.Image, mm *Minimap, view image.Rectangle) {
	r := mm.Rect(view)
	sub := dst.SubImage(r).(*ebiten.Image)
	for i := 1; i < len(rv.points); i++ {
		if rv.cum[i] == rv.cum[i-1] {
			continue
		}
		ax, ay := mm.MapToScreen(rv.points[i-1][0], rv.points[i-1][1], view)
		bx, by := mm.MapToScreen(rv.points[i][0], rv.points[i][1], view)
		vector.StrokeLine(sub, float32(ax), float32(ay), float32(bx), float32(by), 1.5, routeColour, true)
	}
}

// RequestRoute makes the world of a route: terrain through the track with
// parameters p, in the background, latest wins.
func (r *Regenerator) RequestRoute(p terrain.Params, t *track.Track) uint64 {
	return r.start(func(ctx context.Context, id uint64) {
		pw, err := pipeline.Route(ctx, p, t, pipeline.Options{Progress: r.reporter(id, 0, 1-finishShare), Masks: true})
		r.publishBuilt(ctx, id, p, pw, err, func(g *Generated) { g.Loaded, g.World.Route = true, NewRouteView(pw.Route) })
	})
}
