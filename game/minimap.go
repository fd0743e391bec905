package game

import (
	"image"
	"image/color"
	"math"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"cordillera/terrain"
	"cordillera/terrain/analysis"
)

// The navigation map (thesis 4.3.6, Terrain.DrawMinimap and
// GetPositionMinimap): the heightmap seen from above in a screen corner,
// the camera on it as a dot, the top view of its view frustum as a wedge,
// and a click on it carries the camera there.
//
// Orientation: the minimap shows the map as the relief image does, north
// (row 0, z = 0) at the top and west (column 0, x = 0) at the left, so world
// x grows to the right and world z grows downward on it, like screen y.
//
// Where the noise goes on beyond the map (outside.go) and the viewer shows
// it, the minimap shows the map's square with a margin of that land around
// it (terrain.NewOverview, beyondMargin of the map's side on each side),
// the square marked by a frame: issue 11, "the map's square stays the part
// that is edited and exported, marked on the minimap". Everything on it —
// the relief, the water, the dot and the wedge, the route, the scale bar
// and the click — maps through the shown extent (bounds).

// Minimap layout and look.
const (
	DefaultMinimapSize = 200 // side of the minimap in pixels for a square map
	minimapMargin      = 10  // pixels between the minimap and the screen's edges
	minimapDotRadius   = 3.5 // the camera's dot, in pixels

	// minTeleportClearance is the least height above the ground a flying
	// camera lands at, as a share of the map's larger side.
	minTeleportClearance = 0.02

	// beyondMargin is how much of the land beyond the map the minimap
	// shows on each side, as a share of the map's side: the square keeps
	// 2/3 of the minimap, and the minimap grows by half (within a third of
	// the screen) so that the square shrinks little.
	beyondMargin = 0.25
)

var (
	minimapFrame   = color.RGBA{230, 230, 230, 255}
	minimapDot     = color.RGBA{230, 30, 30, 255}
	minimapFrustum = color.RGBA{255, 225, 60, 255}
	minimapShadow  = color.RGBA{0, 0, 0, 160}       // under the lines and the dot, for contrast on snow
	minimapSquare  = color.RGBA{250, 250, 250, 255} // the frame of the map's square amid the land beyond
)

// Minimap is the navigation map of one heightmap.
type Minimap struct {
	m      *terrain.Heightmap
	size   int           // the map's square's side in pixels before the screen limits it
	relief *image.RGBA   // the shaded relief, at the size last drawn (at first the nominal size)
	img    *ebiten.Image // relief (and overlay) on the GPU, made on the first Draw

	// beyond is the map with the land around it, shown while showBeyond,
	// with its own relief; nil where the map has no land beyond it.
	beyond       *terrain.Overview
	beyondRelief *image.RGBA
	showBeyond   bool

	overlay     *terrain.Heightmap // a mask in [0, 1] tinting the relief, or nil
	overlayTint color.RGBA
	OverlayName string // what the overlay shows, for the UI

	water float32 // the water level as a share of the height range (0: none)
}

// minimapWater is the colour of the ground under water on the minimap.
var minimapWater = color.RGBA{40, 90, 150, 255}

// SetWater shows the ground below the water level (a share of the height
// range, 0 for none) as water.
func (mm *Minimap) SetWater(level float32) {
	if level != mm.water {
		mm.Deallocate()
		mm.water = level
	}
}

// SetOverlay tints the minimap with a mask of values in [0, 1] (the
// erosion masks: flow, eroded, deposited) over the relief, fully tint
// where the mask is 1; nil shows the relief alone.
func (mm *Minimap) SetOverlay(name string, mask *terrain.Heightmap, tint color.RGBA) {
	mm.Deallocate()
	mm.overlay, mm.overlayTint, mm.OverlayName = mask, tint, name
}

// SetBeyond gives the minimap the map with the land around it (nil:
// none) and shows it. Its relief is shaded now, at the nominal size, so
// that AddOutside does that work off the frame loop.
func (mm *Minimap) SetBeyond(o *terrain.Overview) {
	mm.Deallocate()
	mm.beyond, mm.showBeyond, mm.beyondRelief = o, o != nil, nil
	if o != nil {
		w, h := mm.fit(float64(mm.nominal()))
		mm.beyondRelief = analysis.ShadedRelief(o.Map, w, h, analysis.ReliefOptions{})
	}
}

// withBeyond is a copy of mm (sharing its relief) that has the land
// beyond the map o, so that a world given that land does not change the
// minimap of another world that shares it.
func (mm *Minimap) withBeyond(o *terrain.Overview) *Minimap {
	c := *mm
	c.img = nil
	c.SetBeyond(o)
	return &c
}

// ShowBeyond shows the land beyond the map around it, if the minimap has
// it (the viewer's *land beyond the map*), or the map's square alone.
func (mm *Minimap) ShowBeyond(on bool) {
	if on != mm.showBeyond {
		mm.Deallocate()
		mm.showBeyond = on
	}
}

// beyondShown reports whether the minimap shows the land beyond the map.
func (mm *Minimap) beyondShown() bool { return mm.beyond != nil && mm.showBeyond }

// source is the heightmap the minimap shows: the map, or the overview
// of it and the land around it.
func (mm *Minimap) source() *terrain.Heightmap {
	if mm.beyondShown() {
		return mm.beyond.Map
	}
	return mm.m
}

// shownRelief is the relief image of what the minimap shows.
func (mm *Minimap) shownRelief() **image.RGBA {
	if mm.beyondShown() {
		return &mm.beyondRelief
	}
	return &mm.relief
}

// bounds is the world rectangle [x0, x1]×[z0, z1] the minimap shows: the
// map's extent, or with the land beyond it the overview's, which holds it.
func (mm *Minimap) bounds() (x0, z0, x1, z1 float64) {
	if mm.beyondShown() {
		c := mm.beyond.Corner(mm.m)
		w, d := mm.beyond.Map.Extent()
		return c, c, c + w, c + d
	}
	w, d := mm.m.Extent()
	return 0, 0, w, d
}

// nominal is the minimap's longer side in pixels before the screen limits
// it: size for the map alone, more with the land beyond so that the
// map's square keeps size pixels.
func (mm *Minimap) nominal() int {
	if !mm.beyondShown() {
		return mm.size
	}
	x0, z0, x1, z1 := mm.bounds()
	w, d := mm.m.Extent()
	if max(w, d) <= 0 {
		return mm.size
	}
	return int(math.Round(float64(mm.size) * max(x1-x0, z1-z0) / max(w, d)))
}

// shown is the relief with the overlay blended in and the water over it.
// The overlay covers the map's square only; the water, every pixel whose
// ground lies below the water level, beyond the map too.
func (mm *Minimap) shown() *image.RGBA {
	relief := *mm.shownRelief()
	if mm.overlay == nil && mm.water <= 0 {
		return relief
	}
	b := relief.Bounds()
	out := image.NewRGBA(b)
	ow, oh := mm.m.Width, mm.m.Height
	if mm.overlay != nil {
		ow, oh = mm.overlay.Width, mm.overlay.Height
	}
	src := mm.source()
	// With the land beyond shown, where a pixel's centre lies on the map's
	// square, as a share of its side (outside [0, 1]: off the square).
	x0, z0, x1, z1 := mm.bounds()
	ew, ed := mm.m.Extent()
	onSquare := func(x, n int, lo, hi, side float64) float64 {
		return (lo + (float64(x)+0.5)/float64(n)*(hi-lo)) / side
	}
	t := [3]float64{float64(mm.overlayTint.R), float64(mm.overlayTint.G), float64(mm.overlayTint.B)}
	for y := 0; y < b.Dy(); y++ {
		row := min((2*y+1)*oh/(2*b.Dy()), oh-1)
		v := 0.0
		if mm.beyondShown() {
			v = onSquare(y, b.Dy(), z0, z1, ed)
			row = min(int(math.Floor(v*float64(oh))), oh-1)
		}
		for x := 0; x < b.Dx(); x++ {
			col := min((2*x+1)*ow/(2*b.Dx()), ow-1)
			in := true
			if mm.beyondShown() {
				u := onSquare(x, b.Dx(), x0, x1, ew)
				col = min(int(math.Floor(u*float64(ow))), ow-1)
				in = u >= 0 && u <= 1 && v >= 0 && v <= 1
			}
			a := 0.0
			if mm.overlay != nil && in {
				a = 0.85 * float64(mm.overlay.At(col, row)) // the relief still shows through
			}
			i := y*relief.Stride + x*4
			for c := 0; c < 3; c++ {
				out.Pix[i+c] = uint8(float64(relief.Pix[i+c])*(1-a) + t[c]*a + 0.5)
			}
			if mm.water > 0 && src.At(min((2*x+1)*src.Width/(2*b.Dx()), src.Width-1), min((2*y+1)*src.Height/(2*b.Dy()), src.Height-1)) < mm.water {
				// Water: its colour, the relief's shading faintly through it.
				wc := [3]uint8{minimapWater.R, minimapWater.G, minimapWater.B}
				for c := 0; c < 3; c++ {
					out.Pix[i+c] = uint8(0.75*float64(wc[c]) + 0.25*float64(out.Pix[i+c]) + 0.5)
				}
			}
			out.Pix[i+3] = 255
		}
	}
	return out
}

// NewMinimap prepares the navigation map of m, size pixels along the map's
// longer side before the screen limits it (≤ 0: DefaultMinimapSize). The
// shaded relief is computed now, on the CPU, at that size (again by Draw
// if the screen makes the minimap smaller); the GPU image on the first Draw.
func NewMinimap(m *terrain.Heightmap, size int) *Minimap {
	if size <= 0 {
		size = DefaultMinimapSize
	}
	mm := &Minimap{m: m, size: size}
	w, h := mm.fit(float64(size))
	mm.relief = analysis.ShadedRelief(m, w, h, analysis.ReliefOptions{})
	return mm
}

// Deallocate frees the GPU image; a later Draw makes it again.
func (mm *Minimap) Deallocate() {
	if mm.img != nil {
		mm.img.Deallocate()
		mm.img = nil
	}
}

// fit is the size in pixels of the shown extent with its longer side long.
func (mm *Minimap) fit(long float64) (w, h int) {
	x0, z0, x1, z1 := mm.bounds()
	ew, ed := x1-x0, z1-z0
	fw, fh := long, long
	switch {
	case ew > ed:
		fh = long * ed / ew
	case ed > ew:
		fw = long * ew / ed
	}
	return max(int(math.Round(fw)), 1), max(int(math.Round(fh)), 1)
}

// Rect is where the minimap is drawn over view, the 3D view's rectangle
// on the screen: its bottom-right corner, minimapMargin pixels in, its
// longer side the minimap's nominal size but never more than a third of
// the view's smaller side. It holds the land beyond the map when that is
// shown. It is empty on a view too small to hold it.
func (mm *Minimap) Rect(view image.Rectangle) image.Rectangle {
	long := min(mm.nominal(), min(view.Dx(), view.Dy())/3)
	if long < 1 {
		return image.Rectangle{}
	}
	w, h := mm.fit(float64(long))
	x1, y1 := view.Max.X-minimapMargin, view.Max.Y-minimapMargin
	return image.Rect(x1-w, y1-h, x1, y1)
}

// MapToScreen returns the screen point of world (x, z): the shown extent
// (bounds: the map's [0, w]×[0, d], or with the land beyond the
// overview's) spans Rect exactly, z growing downward. Points off it land
// outside Rect.
func (mm *Minimap) MapToScreen(x, z float64, view image.Rectangle) (px, py float64) {
	r := mm.Rect(view)
	x0, z0, x1, z1 := mm.bounds()
	px, py = float64(r.Min.X)+float64(r.Dx())/2, float64(r.Min.Y)+float64(r.Dy())/2
	if x1 > x0 {
		px = float64(r.Min.X) + (x-x0)/(x1-x0)*float64(r.Dx())
	}
	if z1 > z0 {
		py = float64(r.Min.Y) + (z-z0)/(z1-z0)*float64(r.Dy())
	}
	return px, py
}

// PixelsPerMetre is the minimap's scale over the 3D view's rectangle (0
// for a map of no extent), for its scale bar.
func (mm *Minimap) PixelsPerMetre(view image.Rectangle) float64 {
	x0, _, x1, _ := mm.bounds()
	if x1 <= x0 {
		return 0
	}
	return float64(mm.Rect(view).Dx()) / (x1 - x0)
}

// WorldAt returns the world (x, z) under the centre of screen pixel
// (px, py), and whether that pixel is on the minimap: the inverse of
// MapToScreen, MapToScreen(WorldAt(px, py)) = (px+½, py+½).
func (mm *Minimap) WorldAt(px, py int, view image.Rectangle) (x, z float64, ok bool) {
	r := mm.Rect(view)
	if !image.Pt(px, py).In(r) {
		return 0, 0, false
	}
	x0, z0, x1, z1 := mm.bounds()
	x = x0 + (float64(px-r.Min.X)+0.5)/float64(r.Dx())*(x1-x0)
	z = z0 + (float64(py-r.Min.Y)+0.5)/float64(r.Dy())*(z1-z0)
	return x, z, true
}

// Draw draws the minimap onto dst over view, the 3D view's rectangle: the relief
// pixel for pixel in Rect inside a 1-pixel frame, the map's square framed
// when the land beyond it shows, and unless cam is nil the top view of
// cam's frustum and cam's position as a dot, both clipped to what the
// minimap shows.
func (mm *Minimap) Draw(dst *ebiten.Image, cam *Camera, view image.Rectangle) {
	r := mm.Rect(view)
	if r.Empty() {
		return
	}
	if relief := mm.shownRelief(); *relief == nil || (*relief).Bounds().Dx() != r.Dx() || (*relief).Bounds().Dy() != r.Dy() {
		// A small screen shrinks the minimap: redraw the relief at that
		// size (a few milliseconds, once per resize) rather than blur it.
		mm.Deallocate()
		*relief = analysis.ShadedRelief(mm.source(), r.Dx(), r.Dy(), analysis.ReliefOptions{})
	}
	if mm.img == nil {
		mm.img = ebiten.NewImageFromImage(mm.shown())
	}
	vector.FillRect(dst, float32(r.Min.X-1), float32(r.Min.Y-1), float32(r.Dx()+2), float32(r.Dy()+2), minimapFrame, false)
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Translate(float64(r.Min.X), float64(r.Min.Y))
	dst.DrawImage(mm.img, op)
	on := dst.SubImage(r).(*ebiten.Image) // clips the lines and the dot to the minimap
	if mm.beyondShown() {
		mm.drawSquare(on, view)
	}
	if cam == nil {
		return
	}

	segments := mm.frustumTop(cam, float64(view.Dx())/float64(view.Dy()))
	for _, style := range []struct {
		width float32
		clr   color.Color
	}{{3, minimapShadow}, {1.5, minimapFrustum}} {
		for _, s := range segments {
			x0, y0 := mm.MapToScreen(s[0], s[1], view)
			x1, y1 := mm.MapToScreen(s[2], s[3], view)
			vector.StrokeLine(on, float32(x0), float32(y0), float32(x1), float32(y1), style.width, style.clr, true)
		}
	}
	cx, cy := mm.MapToScreen(float64(cam.Pos[0]), float64(cam.Pos[2]), view)
	vector.FillCircle(on, float32(cx), float32(cy), minimapDotRadius+1, minimapShadow, true)
	vector.FillCircle(on, float32(cx), float32(cy), minimapDotRadius, minimapDot, true)
}

// drawSquare frames the map's square on the minimap: a light line on the
// pixels just outside it over a dark band a pixel wider on each side, so
// that it reads on snow and on dark ground alike, as the wedge's lines do.
func (mm *Minimap) drawSquare(on *ebiten.Image, view image.Rectangle) {
	ew, ed := mm.m.Extent()
	ax, ay := mm.MapToScreen(0, 0, view)
	bx, by := mm.MapToScreen(ew, ed, view)
	// The square covers pixels [x0, x1)×[y0, y1); the lines' centres lie
	// half a pixel outside it.
	x0, y0 := float32(math.Round(ax))-0.5, float32(math.Round(ay))-0.5
	x1, y1 := float32(math.Round(bx))+0.5, float32(math.Round(by))+0.5
	for _, style := range []struct {
		width float32
		clr   color.RGBA
	}{{3, minimapShadow}, {1, minimapSquare}} {
		w, h := style.width, style.width/2
		vector.FillRect(on, x0-h, y0-h, x1-x0+w, w, style.clr, false) // north
		vector.FillRect(on, x0-h, y1-h, x1-x0+w, w, style.clr, false) // south
		vector.FillRect(on, x0-h, y0+h, w, y1-y0-w, style.clr, false) // west
		vector.FillRect(on, x1-h, y0+h, w, y1-y0-w, style.clr, false) // east
	}
}

// frustumTop returns the top view of cam's view frustum on a screen of the
// given aspect (width/height) as world segments (x0, z0, x1, z1), clipped to
// what the minimap shows (bounds): the two side edges from the camera
// along yaw ± half the horizontal field of view, tan(hfov/2) =
// aspect·tan(FovY/2), and the far edge joining their ends. The far edge
// lies at depth min(Far, distance to the shown extent's farthest corner),
// so it shows on the minimap only when the far plane cuts it. Pitch is
// ignored: it is the horizontal wedge the camera faces.
func (mm *Minimap) frustumTop(cam *Camera, aspect float64) [][4]float64 {
	bx0, bz0, bx1, bz1 := mm.bounds()
	cx, cz := float64(cam.Pos[0]), float64(cam.Pos[2])
	half := math.Atan(aspect * math.Tan(float64(cam.FovY)/2))
	reach := 0.0 // distance to the farthest corner of the shown extent
	for _, c := range [][2]float64{{bx0, bz0}, {bx1, bz0}, {bx0, bz1}, {bx1, bz1}} {
		reach = max(reach, math.Hypot(c[0]-cx, c[1]-cz))
	}
	length := min(float64(cam.Far), reach) / math.Cos(half) // along the side edges
	yaw := float64(cam.Yaw)
	lx, lz := cx+length*math.Cos(yaw-half), cz+length*math.Sin(yaw-half)
	rx, rz := cx+length*math.Cos(yaw+half), cz+length*math.Sin(yaw+half)
	var out [][4]float64
	for _, s := range [][4]float64{{cx, cz, lx, lz}, {cx, cz, rx, rz}, {lx, lz, rx, rz}} {
		if c, ok := clipSegment(s, bx0, bz0, bx1, bz1); ok {
			out = append(out, c)
		}
	}
	return out
}

// clipSegment clips the segment (x0, z0)–(x1, z1) to the rectangle
// [xmin, xmax]×[zmin, zmax] (Liang–Barsky); ok is false when nothing is left.
func clipSegment(s [4]float64, xmin, zmin, xmax, zmax float64) (c [4]float64, ok bool) {
	dx, dz := s[2]-s[0], s[3]-s[1]
	t0, t1 := 0.0, 1.0
	// Each edge as p·t ≤ q: left, right, top, bottom.
	for _, e := range [][2]float64{{-dx, s[0] - xmin}, {dx, xmax - s[0]}, {-dz, s[1] - zmin}, {dz, zmax - s[1]}} {
		p, q := e[0], e[1]
		switch {
		case p == 0:
			if q < 0 {
				return c, false
			}
		case p < 0:
			t0 = max(t0, q/p)
		default:
			t1 = min(t1, q/p)
		}
	}
	if t0 > t1 {
		return c, false
	}
	return [4]float64{s[0] + t0*dx, s[1] + t0*dz, s[0] + t1*dx, s[1] + t1*dz}, true
}

// Teleport carries cam to world (x, z), clamped onto the map, keeping its
// heading and pitch (thesis 4.3.6: a click on the navigation map). A
// walking camera stands there at eye height; a flying one keeps its height
// above the ground, but at least minTeleportClearance of the map's larger
// side (and above the near plane), so that it never lands in a hill.
func Teleport(cam *Camera, m *terrain.Heightmap, x, z float64) {
	ew, ed := m.Extent()
	x, z = min(max(x, 0), ew), min(max(z, 0), ed)
	if cam.Mode == Walk {
		cam.Pos[0], cam.Pos[2] = float32(x), float32(z)
		cam.SetMode(Walk, m)
		return
	}
	flyTo(cam, m, x, z, m.GroundHeight)
}

// Teleport carries cam to world (x, z), a point clicked on the minimap:
// as the package's Teleport does, onto the map; but while the land beyond
// the map shows, a flying camera goes anywhere the minimap shows (within
// the reach flying allows, Camera.clampToMap), its height kept above that
// land.
func (mm *Minimap) Teleport(cam *Camera, x, z float64) {
	if !mm.beyondShown() || cam.Mode == Walk {
		Teleport(cam, mm.m, x, z)
		return
	}
	x0, z0, x1, z1 := mm.bounds()
	flyTo(cam, mm.m, min(max(x, x0), x1), min(max(z, z0), z1), mm.groundHeight)
}

// groundHeight is the height of the ground the minimap shows at world
// (x, z): the map's on its square, the overview's beyond it.
func (mm *Minimap) groundHeight(x, z float64) float64 {
	ew, ed := mm.m.Extent()
	if !mm.beyondShown() || (x >= 0 && x <= ew && z >= 0 && z <= ed) {
		return mm.m.GroundHeight(x, z)
	}
	c := mm.beyond.Corner(mm.m)
	return mm.beyond.Map.GroundHeight(x-c, z-c)
}

// flyTo puts a flying cam over world (x, z) at the height above ground
// (by ground) it has now, but at least minTeleportClearance of m's larger
// side and above the near plane.
func flyTo(cam *Camera, m *terrain.Heightmap, x, z float64, ground func(x, z float64) float64) {
	ew, ed := m.Extent()
	clearance := float64(cam.Pos[1]) - ground(float64(cam.Pos[0]), float64(cam.Pos[2]))
	least := max(minTeleportClearance*max(ew, ed), 4*float64(cam.Near))
	if !(clearance >= least) { // also when NaN
		clearance = least
	}
	cam.Pos = mgl32.Vec3{float32(x), float32(ground(x, z) + clearance), float32(z)}
}
