// Package scalebar sizes and draws scale bars in metres (a world unit is a
// metre): a bar 1, 2 or 5 × 10ⁿ metres long, the longest that fits, and
// its length written as a person reads it. The explorer puts one on the 3D
// view, for the ground under the view's centre, and one on the minimap.
package scalebar

import (
	"fmt"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
)

// MaxPx is the longest a scale bar is drawn.
const MaxPx = 160

// niceLength is the largest 1, 2 or 5 × 10ⁿ not above x (x > 0).
func niceLength(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{5, 2, 1} {
		if m*p <= x {
			return m * p
		}
	}
	return p
}

// Metres writes a length as a person reads it: "50 m", "2 km", "1.5 km".
func Metres(v float64) string {
	if v >= 1000 {
		return fmt.Sprintf("%g km", math.Round(v/100)/10)
	}
	if v >= 10 {
		return fmt.Sprintf("%.0f m", v)
	}
	return fmt.Sprintf("%.2g m", v)
}

// Fit is the bar for a view of pixelsPerMetre at most maxPx long: its
// length in metres and in pixels.
func Fit(pixelsPerMetre, maxPx float64) (length, px float64) {
	length = niceLength(maxPx / pixelsPerMetre)
	return length, length * pixelsPerMetre
}

// Draw draws a bar px long from (x, y), white with a dark outline so that
// it reads on any ground; its label goes just above it, above y-9.
func Draw(dst *ebiten.Image, x, y, px float32) {
	dark := color.RGBA{0, 0, 0, 200}
	vector.FillRect(dst, x-1, y-7, px+2, 9, dark, false)
	vector.FillRect(dst, x, y-2, px, 3, color.White, false)
	vector.FillRect(dst, x, y-6, 2, 8, color.White, false)
	vector.FillRect(dst, x+px-2, y-6, 2, 8, color.White, false)
}
