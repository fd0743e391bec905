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

// RouteView is a GPS route laid on its world: the line drawn on the
// terrain (a field the terrain shader samples, so hills hide it where they
// should), on the minimap, and the path the follow camera walks.
//
// The field holds, at each texel, the vector from the texel's centre to the
// nearest point of the route (R, G: ±fieldReach texels around 128). Near a
// straight stretch that vector is affine in position, so bilinear sampling
// recovers the exact distance to the track between texels, and the line
// is drawn thinner than a texel, at a width in world units.
type RouteView struct {
	Path  *track.Path
	Field *image.RGBA // nearest-point vectors over the map, scale texels per sample
	Stats *route.Result

	// SnowLine is where the climate puts the snow on this map, as the
	// Viewer's snow line (a share of the map's height range; above 1 none):
	// a route map has real elevations and a latitude (climateSnowLine).
	SnowLine float32

	scale   float64      // field texels per map sample
	points  [][2]float64 // world x, z of the path, segments joined (gaps jumped)
	cum     []float64    // distance along points, world units
	maskImg *ebiten.Image
}

// maxMaskSide bounds the field's resolution.
const maxMaskSide = 2048

// maxMaskScale bounds the field's texels per map sample.
const maxMaskScale = 4.0

// fieldReach is how far from the route, in texels, the field holds vectors
// (shaders/terrain.kage's routeReach).
const fieldReach = 4.0

// RouteHalfWidth is half the drawn line's width in world units (metres on
// route maps): a trail. Far away the line stays at least a pixel wide.
const RouteHalfWidth = 1.5

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
	rv := &RouteView{Path: res.Path, Stats: res, SnowLine: routeSnowLine(res)}
	rv.scale = math.Min(maxMaskScale, float64(maxMaskSide)/float64(max(m.Width, m.Height)))
	w := int(math.Ceil(float64(m.Width-1)*rv.scale)) + 1
	h := int(math.Ceil(float64(m.Height-1)*rv.scale)) + 1
	rv.Field = image.NewRGBA(image.Rect(0, 0, w, h))
	best := make([]float64, w*h)
	for i := range best {
		best[i] = fieldReach * fieldReach
	}
	for _, seg := range res.Path.Segments {
		for i, s := range seg {
			if i > 0 {
				a := seg[i-1]
				rv.nearest(best, a.X*rv.scale, a.Y*rv.scale, s.X*rv.scale, s.Y*rv.scale)
			} else if len(seg) == 1 {
				rv.nearest(best, s.X*rv.scale, s.Y*rv.scale, s.X*rv.scale, s.Y*rv.scale)
			}
			wx, wz := s.X*m.CellSize, s.Y*m.CellSize
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
		if d2 >= fieldReach*fieldReach { // no route within reach: point far away
			px[0], px[1] = 255, 255
		}
		px[3] = 255
	}
	return rv
}

// encodeVector stores a field component of ±fieldReach texels in a byte.
func encodeVector(v float64) uint8 {
	return uint8(math.Round(128 + 127*math.Max(-1, math.Min(1, v/fieldReach))))
}

// nearest records, for the texels within fieldReach of segment a–b (texel
// coordinates, centres at integers), the vector to the segment's nearest
// point where it is nearer than what the field holds.
func (rv *RouteView) nearest(best []float64, ax, ay, bx, by float64) {
	b := rv.Field.Bounds()
	dx, dy := bx-ax, by-ay
	l2 := dx*dx + dy*dy
	y0, y1 := max(int(math.Floor(min(ay, by)-fieldReach)), 0), min(int(math.Ceil(max(ay, by)+fieldReach)), b.Dy()-1)
	x0, x1 := max(int(math.Floor(min(ax, bx)-fieldReach)), 0), min(int(math.Ceil(max(ax, bx)+fieldReach)), b.Dx()-1)
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
				rv.Field.Pix[4*k], rv.Field.Pix[4*k+1] = encodeVector(vx), encodeVector(vy)
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

// routeColour is the route's magenta.
var routeColour = color.RGBA{255, 0, 255, 255}

// routeAlbedo scales the route's colour in the 3D view: on level ground
// in full sun it shows at this share of routeColour (linear), on slopes
// facing the sun up to all of it.
const routeAlbedo = 0.7

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
