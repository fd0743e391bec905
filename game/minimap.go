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

// Minimap layout and look.
const (
	DefaultMinimapSize = 200 // side of the minimap in pixels for a square map
	minimapMargin      = 10  // pixels between the minimap and the screen's edges
	minimapDotRadius   = 3.5 // the camera's dot, in pixels

	// minTeleportClearance is the least height above the ground a flying
	// camera lands at, as a share of the map's larger side.
	minTeleportClearance = 0.02
)

var (
	minimapFrame   = color.RGBA{230, 230, 230, 255}
	minimapDot     = color.RGBA{230, 30, 30, 255}
	minimapFrustum = color.RGBA{255, 225, 60, 255}
	minimapShadow  = color.RGBA{0, 0, 0, 160} // under the lines and the dot, for contrast on snow
)

// Minimap is the navigation map of one heightmap.
type Minimap struct {
	m      *terrain.Heightmap
	size   int
	relief *image.RGBA   // the shaded relief, at the size last drawn (at first the nominal size)
	img    *ebiten.Image // relief (and overlay) on the GPU, made on the first Draw

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

// shown is the relief with the overlay blended in and the water over it.
func (mm *Minimap) shown() *image.RGBA {
	if mm.overlay == nil && mm.water <= 0 {
		return mm.relief
	}
	b := mm.relief.Bounds()
	out := image.NewRGBA(b)
	ow, oh := mm.m.Width, mm.m.Height
	if mm.overlay != nil {
		ow, oh = mm.overlay.Width, mm.overlay.Height
	}
	t := [3]float64{float64(mm.overlayTint.R), float64(mm.overlayTint.G), float64(mm.overlayTint.B)}
	for y := 0; y < b.Dy(); y++ {
		row := min((2*y+1)*oh/(2*b.Dy()), oh-1)
		for x := 0; x < b.Dx(); x++ {
			col := min((2*x+1)*ow/(2*b.Dx()), ow-1)
			a := 0.0
			if mm.overlay != nil {
				a = 0.85 * float64(mm.overlay.At(col, row)) // the relief still shows through
			}
			i := y*mm.relief.Stride + x*4
			for c := 0; c < 3; c++ {
				out.Pix[i+c] = uint8(float64(mm.relief.Pix[i+c])*(1-a) + t[c]*a + 0.5)
			}
			if mm.water > 0 && mm.m.At(min((2*x+1)*mm.m.Width/(2*b.Dx()), mm.m.Width-1), min((2*y+1)*mm.m.Height/(2*b.Dy()), mm.m.Height-1)) < mm.water {
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

// fit is the size in pixels of the map's extent with its longer side long.
func (mm *Minimap) fit(long float64) (w, h int) {
	ew, ed := mm.m.Extent()
	fw, fh := long, long
	switch {
	case ew > ed:
		fh = long * ed / ew
	case ed > ew:
		fw = long * ew / ed
	}
	return max(int(math.Round(fw)), 1), max(int(math.Round(fh)), 1)
}

// Rect is where the minimap is drawn on a screenW×screenH screen: the
// bottom-right corner, minimapMargin pixels in, its longer side the
// minimap's size but never more than a third of the screen's smaller side.
// It is empty on a screen too small to hold it.
func (mm *Minimap) Rect(screenW, screenH int) image.Rectangle {
	long := min(mm.size, min(screenW, screenH)/3)
	if long < 1 {
		return image.Rectangle{}
	}
	w, h := mm.fit(float64(long))
	x1, y1 := screenW-minimapMargin, screenH-minimapMargin
	return image.Rect(x1-w, y1-h, x1, y1)
}

// MapToScreen returns the screen point of world (x, z): the map's extent
// [0, w]×[0, d] spans Rect exactly, z growing downward. Points off the map
// land outside Rect.
func (mm *Minimap) MapToScreen(x, z float64, screenW, screenH int) (px, py float64) {
	r := mm.Rect(screenW, screenH)
	ew, ed := mm.m.Extent()
	px, py = float64(r.Min.X)+float64(r.Dx())/2, float64(r.Min.Y)+float64(r.Dy())/2
	if ew > 0 {
		px = float64(r.Min.X) + x/ew*float64(r.Dx())
	}
	if ed > 0 {
		py = float64(r.Min.Y) + z/ed*float64(r.Dy())
	}
	return px, py
}

// WorldAt returns the world (x, z) under the centre of screen pixel
// (px, py), and whether that pixel is on the minimap: the inverse of
// MapToScreen, MapToScreen(WorldAt(px, py)) = (px+½, py+½).
func (mm *Minimap) WorldAt(px, py int, screenW, screenH int) (x, z float64, ok bool) {
	r := mm.Rect(screenW, screenH)
	if !image.Pt(px, py).In(r) {
		return 0, 0, false
	}
	ew, ed := mm.m.Extent()
	x = (float64(px-r.Min.X) + 0.5) / float64(r.Dx()) * ew
	z = (float64(py-r.Min.Y) + 0.5) / float64(r.Dy()) * ed
	return x, z, true
}

// Draw draws the minimap onto dst, a screenW×screenH screen: the relief
// pixel for pixel in Rect inside a 1-pixel frame, and unless cam is nil
// the top view of cam's frustum and cam's position as a dot, both clipped
// to the map.
func (mm *Minimap) Draw(dst *ebiten.Image, cam *Camera, screenW, screenH int) {
	r := mm.Rect(screenW, screenH)
	if r.Empty() {
		return
	}
	if rb := mm.relief.Bounds(); rb.Dx() != r.Dx() || rb.Dy() != r.Dy() {
		// A small screen shrinks the minimap: redraw the relief at that
		// size (a few milliseconds, once per resize) rather than blur it.
		mm.Deallocate()
		mm.relief = analysis.ShadedRelief(mm.m, r.Dx(), r.Dy(), analysis.ReliefOptions{})
	}
	if mm.img == nil {
		mm.img = ebiten.NewImageFromImage(mm.shown())
	}
	vector.FillRect(dst, float32(r.Min.X-1), float32(r.Min.Y-1), float32(r.Dx()+2), float32(r.Dy()+2), minimapFrame, false)
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Translate(float64(r.Min.X), float64(r.Min.Y))
	dst.DrawImage(mm.img, op)
	if cam == nil {
		return
	}

	on := dst.SubImage(r).(*ebiten.Image) // clips the lines and the dot to the map
	segments := mm.frustumTop(cam, float64(screenW)/float64(screenH))
	for _, style := range []struct {
		width float32
		clr   color.Color
	}{{3, minimapShadow}, {1.5, minimapFrustum}} {
		for _, s := range segments {
			x0, y0 := mm.MapToScreen(s[0], s[1], screenW, screenH)
			x1, y1 := mm.MapToScreen(s[2], s[3], screenW, screenH)
			vector.StrokeLine(on, float32(x0), float32(y0), float32(x1), float32(y1), style.width, style.clr, true)
		}
	}
	cx, cy := mm.MapToScreen(float64(cam.Pos[0]), float64(cam.Pos[2]), screenW, screenH)
	vector.FillCircle(on, float32(cx), float32(cy), minimapDotRadius+1, minimapShadow, true)
	vector.FillCircle(on, float32(cx), float32(cy), minimapDotRadius, minimapDot, true)
}

// frustumTop returns the top view of cam's view frustum on a screen of the
// given aspect (width/height) as world segments (x0, z0, x1, z1), clipped to
// the map: the two side edges from the camera along yaw ± half the
// horizontal field of view, tan(hfov/2) = aspect·tan(FovY/2), and the far
// edge joining their ends. The far edge lies at depth min(Far, distance to
// the map's farthest corner), so it shows on the map only when the far
// plane cuts it. Pitch is ignored: it is the horizontal wedge the camera
// faces.
func (mm *Minimap) frustumTop(cam *Camera, aspect float64) [][4]float64 {
	ew, ed := mm.m.Extent()
	cx, cz := float64(cam.Pos[0]), float64(cam.Pos[2])
	half := math.Atan(aspect * math.Tan(float64(cam.FovY)/2))
	reach := 0.0 // distance to the farthest corner of the map
	for _, c := range [][2]float64{{0, 0}, {ew, 0}, {0, ed}, {ew, ed}} {
		reach = max(reach, math.Hypot(c[0]-cx, c[1]-cz))
	}
	length := min(float64(cam.Far), reach) / math.Cos(half) // along the side edges
	yaw := float64(cam.Yaw)
	lx, lz := cx+length*math.Cos(yaw-half), cz+length*math.Sin(yaw-half)
	rx, rz := cx+length*math.Cos(yaw+half), cz+length*math.Sin(yaw+half)
	var out [][4]float64
	for _, s := range [][4]float64{{cx, cz, lx, lz}, {cx, cz, rx, rz}, {lx, lz, rx, rz}} {
		if c, ok := clipSegment(s, 0, 0, ew, ed); ok {
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
	clearance := float64(cam.Pos[1]) - m.GroundHeight(float64(cam.Pos[0]), float64(cam.Pos[2]))
	least := max(minTeleportClearance*max(ew, ed), 4*float64(cam.Near))
	if !(clearance >= least) { // also when NaN
		clearance = least
	}
	cam.Pos = mgl32.Vec3{float32(x), float32(m.GroundHeight(x, z) + clearance), float32(z)}
}
