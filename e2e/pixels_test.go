package e2e

import (
	"image"
	"math"

	"cordillera/game"
)

// Pixel checks on frames, in logical coordinates.

// changeThreshold is how far (in any channel, 0–255) a pixel must move to
// count as changed: above dithering and blending noise.
const changeThreshold = 24

// changed counts the pixels of area that differ between two frames of the
// same size, skipping those in any of skip, and returns the count and the
// number of pixels compared.
func changed(a, b frameView, area image.Rectangle, skip ...image.Rectangle) (n, total int) {
	for y := area.Min.Y; y < area.Max.Y; y++ {
	pixels:
		for x := area.Min.X; x < area.Max.X; x++ {
			p := image.Pt(x, y)
			for _, s := range skip {
				if p.In(s) {
					continue pixels
				}
			}
			total++
			ca, cb := a.rgb(x, y), b.rgb(x, y)
			for i := range ca {
				if absDiff(ca[i], cb[i]) > changeThreshold {
					n++
					break
				}
			}
		}
	}
	return n, total
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// hudHeight covers the HUD's three or four lines of text at the top.
const hudHeight = 64

// sceneArea is the part of the screen that shows only the 3D view, and
// what to leave out of it: the UI window (when shown), the HUD, the
// minimap and the progress bar at the bottom.
func sceneArea(s game.State) (area image.Rectangle, skip []image.Rectangle) {
	w, h := s.Screen[0], s.Screen[1]
	x0 := 0
	if s.ShowUI {
		x0 = 10 + 330 + 6
	}
	mm := image.Rect(s.Minimap[0], s.Minimap[1], s.Minimap[2], s.Minimap[3]).Inset(-4)
	return image.Rect(x0, hudHeight, w, h-40), []image.Rectangle{mm}
}

// sceneChange is the share of the 3D view that differs between two frames
// (taken with the same layout, that of s).
func sceneChange(a, b frameView, s game.State) float64 {
	area, skip := sceneArea(s)
	n, total := changed(a, b, area, skip...)
	if total == 0 {
		return 0
	}
	return float64(n) / float64(total)
}

// colourCentroid returns the mean position (pixel centres) of the pixels
// of area within tol of c in every channel, and how many there are.
func colourCentroid(f frameView, area image.Rectangle, c [3]uint8, tol int) (x, y float64, n int) {
	for py := area.Min.Y; py < area.Max.Y; py++ {
		for px := area.Min.X; px < area.Max.X; px++ {
			p := f.rgb(px, py)
			if absDiff(p[0], c[0]) <= tol && absDiff(p[1], c[1]) <= tol && absDiff(p[2], c[2]) <= tol {
				x += float64(px) + 0.5
				y += float64(py) + 0.5
				n++
			}
		}
	}
	if n > 0 {
		x, y = x/float64(n), y/float64(n)
	}
	return x, y, n
}

// colourDistance is the largest channel difference.
func colourDistance(a, b [3]uint8) int {
	return max(absDiff(a[0], b[0]), absDiff(a[1], b[1]), absDiff(a[2], b[2]))
}

func hypot(x, y float64) float64 { return math.Hypot(x, y) }
