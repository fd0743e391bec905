package analysis

import (
	"bytes"
	"cordillera/terrain"
	"image"
	"image/color"
	"math"
	"testing"
)

// reliefMap returns a w×h map with unit cell size and vertical scale vs,
// its samples f(col, row).
func reliefMap(w, h int, vs float64, f func(col, row int) float64) *terrain.Heightmap {
	m := terrain.NewHeightmap(w, h)
	m.VerticalScale = vs
	for row := range h {
		for col := range w {
			m.Set(col, row, float32(f(col, row)))
		}
	}
	return m
}

// luminance is the Rec. 601 luma of a pixel.
func luminance(c color.RGBA) float64 {
	return 0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B)
}

// flatShade is the shading factor of a horizontal surface.
var flatShade = reliefAmbient + (1-reliefAmbient)*math.Sin(reliefAltitude*math.Pi/180)

// shaded is tint(h) times a shading factor, rounded as ShadedRelief does.
func shaded(h, shade float64, grey bool) color.RGBA {
	t := reliefTint(h, grey)
	scale := func(v uint8) uint8 { return uint8(math.Round(float64(v) * shade)) }
	return color.RGBA{scale(t.R), scale(t.G), scale(t.B), 255}
}

func TestShadedReliefSize(t *testing.T) {
	for _, tc := range []struct {
		mw, mh, w, h int
	}{
		{5, 5, 64, 32},       // enlarging, wide
		{65, 33, 16, 16},     // shrinking to another aspect
		{129, 129, 128, 128}, // almost 1:1
		{1, 1, 3, 2},         // a single sample
		{17, 17, 1, 1},       // a single pixel
		{17, 17, 0, 5},       // nothing to draw
	} {
		m := reliefMap(tc.mw, tc.mh, 50, func(c, r int) float64 { return float64((c*7+r*3)%11) / 10 })
		img := ShadedRelief(m, tc.w, tc.h, ReliefOptions{})
		if got, want := img.Bounds(), image.Rect(0, 0, max(tc.w, 0), max(tc.h, 0)); got != want {
			t.Errorf("%d×%d map → %d×%d: bounds %v, want %v", tc.mw, tc.mh, tc.w, tc.h, got, want)
			continue
		}
		for i := 3; i < len(img.Pix); i += 4 {
			if img.Pix[i] != 255 {
				t.Errorf("%d×%d map → %d×%d: pixel %d has alpha %d, want opaque", tc.mw, tc.mh, tc.w, tc.h, i/4, img.Pix[i])
				break
			}
		}
	}
}

func TestShadedReliefFlatIsUniform(t *testing.T) {
	m := reliefMap(33, 17, 500, func(int, int) float64 { return 0.3 })
	img := ShadedRelief(m, 40, 25, ReliefOptions{Exaggeration: 10})
	want := shaded(0.3, flatShade, false)
	for y := range 25 {
		for x := range 40 {
			if got := img.RGBAAt(x, y); got != want {
				t.Fatalf("flat map: pixel (%d,%d) = %v, want %v everywhere", x, y, got, want)
			}
		}
	}
}

// A plane rising towards the south-east faces the north-west light and is
// brighter than flat ground, which is brighter than the opposite plane;
// likewise for the four cardinal slopes taken in pairs.
func TestShadedReliefSlopeFacingLight(t *testing.T) {
	const n = 65
	centre := func(dx, dz float64) float64 { // centre luminance of the plane h = 0.5 + (dx·col + dz·row)
		m := reliefMap(n, n, 100, func(c, r int) float64 {
			return 0.5 + (dx*float64(c-n/2) + dz*float64(r-n/2))
		})
		return luminance(ShadedRelief(m, 32, 32, ReliefOptions{Grey: true}).RGBAAt(16, 16))
	}
	const s = 0.004 // 0.4 world units per cell with VerticalScale 100: a 22° slope
	for _, tc := range []struct {
		name                     string
		litX, litZ, awayX, awayZ float64
	}{
		{"north-west vs south-east", s, s, -s, -s},
		{"west vs east", s, 0, -s, 0},   // rising eastwards faces west
		{"north vs south", 0, s, 0, -s}, // rising southwards faces north
	} {
		lit, flat, away := centre(tc.litX, tc.litZ), centre(0, 0), centre(tc.awayX, tc.awayZ)
		if !(lit > flat && flat > away) {
			t.Errorf("%s: luminance facing the light %.1f, flat %.1f, facing away %.1f; want decreasing", tc.name, lit, flat, away)
		}
	}
}

func TestShadedReliefHighGetsTopOfRamp(t *testing.T) {
	stops := hypsometricStops
	rgb := func(s [3]float64) color.RGBA { return color.RGBA{uint8(s[0]), uint8(s[1]), uint8(s[2]), 255} }
	if got, want := reliefTint(0, false), rgb(stops[0].rgb); got != want {
		t.Errorf("tint(0) = %v, want the lowest stop %v", got, want)
	}
	if got, want := reliefTint(1, false), rgb(stops[len(stops)-1].rgb); got != want {
		t.Errorf("tint(1) = %v, want the highest stop %v", got, want)
	}
	if got, want := reliefTint(7, false), reliefTint(1, false); got != want {
		t.Errorf("tint(7) = %v, want tint(1) = %v", got, want)
	}
	prev := -1.0
	for h := 0.0; h <= 1; h += 1.0 / 64 {
		if l := luminance(reliefTint(h, true)); l <= prev {
			t.Errorf("grey tint: luminance %v at h = %v does not exceed %v below it", l, h, prev)
		} else {
			prev = l
		}
	}

	// A map high on its north-west third and low elsewhere: the relief's
	// top-left pixels get the top of the ramp (north at the top, west at
	// the left), its bottom-right ones the bottom.
	m := reliefMap(97, 61, 100, func(c, r int) float64 {
		if c < 32 && r < 20 {
			return 1
		}
		return 0
	})
	for _, grey := range []bool{false, true} {
		img := ShadedRelief(m, 96, 60, ReliefOptions{Grey: grey})
		if got, want := img.RGBAAt(2, 2), shaded(1, flatShade, grey); got != want {
			t.Errorf("grey %v: north-west pixel %v, want the top of the ramp %v", grey, got, want)
		}
		if got, want := img.RGBAAt(93, 57), shaded(0, flatShade, grey); got != want {
			t.Errorf("grey %v: south-east pixel %v, want the bottom of the ramp %v", grey, got, want)
		}
	}
}

// shadeContrast is the standard deviation of the luminance over the image.
func shadeContrast(img *image.RGBA) float64 {
	var sum, sum2 float64
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			l := luminance(img.RGBAAt(x, y))
			sum += l
			sum2 += l * l
		}
	}
	n := float64(b.Dx() * b.Dy())
	return math.Sqrt(sum2/n - (sum/n)*(sum/n))
}

func TestShadedReliefExaggeration(t *testing.T) {
	// Gentle hills in a narrow band of heights, so that the tint hardly
	// changes and the contrast is the shading's.
	m := reliefMap(129, 129, 100, func(c, r int) float64 {
		return 0.5 + 0.02*math.Sin(float64(c)/9)*math.Cos(float64(r)/7)
	})
	var prev float64
	for i, ex := range []float64{0.5, 1, 2, 4} {
		contrast := shadeContrast(ShadedRelief(m, 64, 64, ReliefOptions{Exaggeration: ex, Grey: true}))
		if i > 0 && contrast <= prev {
			t.Errorf("exaggeration %v: contrast %.2f, want more than %.2f at half of it", ex, contrast, prev)
		}
		prev = contrast
	}
	if !bytes.Equal(ShadedRelief(m, 64, 64, ReliefOptions{}).Pix, ShadedRelief(m, 64, 64, ReliefOptions{Exaggeration: 1}).Pix) {
		t.Error("exaggeration 0 differs from 1: the zero value should mean true scale")
	}
}

// The shading is of the surface in world units: twice the vertical scale
// shades like exaggeration 2, twice the cell size like exaggeration ½.
func TestShadedReliefWorldUnits(t *testing.T) {
	base := reliefMap(65, 65, 100, func(c, r int) float64 {
		return 0.5 + 0.1*math.Sin(float64(c)/5+float64(r)/11)
	})
	taller, wider := *base, *base
	taller.VerticalScale *= 2
	wider.CellSize *= 2
	for _, tc := range []struct {
		name string
		m    *terrain.Heightmap
		ex   float64
	}{
		{"vertical scale ×2", &taller, 2},
		{"cell size ×2", &wider, 0.5},
	} {
		got := ShadedRelief(tc.m, 48, 48, ReliefOptions{})
		want := ShadedRelief(base, 48, 48, ReliefOptions{Exaggeration: tc.ex})
		for i := range got.Pix {
			if d := int(got.Pix[i]) - int(want.Pix[i]); d < -1 || d > 1 {
				t.Errorf("%s: byte %d is %d, exaggeration %v gives %d", tc.name, i, got.Pix[i], tc.ex, want.Pix[i])
				break
			}
		}
	}
}

// The tent filter interpolates linearly when enlarging and keeps a linear
// ramp linear when shrinking (away from the ends, where it is cut), to
// within 1 % of a pixel: sampled at whole samples, a tent whose radius is
// not a whole number is not quite centred.
func TestTentFilterResamples(t *testing.T) {
	for _, tc := range []struct{ src, dst int }{{2, 4}, {5, 64}, {1025, 256}, {513, 100}, {9, 9}} {
		m := reliefMap(tc.src, 1, 1, func(c, _ int) float64 { return float64(c) })
		got := resampleTent(m, tc.dst, 1)
		scale := float64(tc.src-1) / float64(tc.dst)
		radius := max(scale, 1)
		for i, v := range got {
			c := (float64(i) + 0.5) * scale
			if c-radius < 0 || c+radius > float64(tc.src-1) {
				continue // the filter is cut at the ends
			}
			if math.Abs(v-c) > 0.01*radius {
				t.Errorf("%d → %d: pixel %d = %v, want %v", tc.src, tc.dst, i, v, c)
			}
		}
		for i, f := range tentFilter(tc.src, tc.dst) {
			sum := 0.0
			for _, w := range f.weights {
				sum += w
			}
			if math.Abs(sum-1) > 1e-12 || f.first < 0 || f.first+len(f.weights) > tc.src {
				t.Errorf("%d → %d: pixel %d's filter %+v sums to %v or leaves the map", tc.src, tc.dst, i, f, sum)
			}
		}
	}
}

func BenchmarkShadedRelief1025To256(b *testing.B) {
	m := reliefMap(1025, 1025, 200, func(c, r int) float64 {
		return 0.5 + 0.25*math.Sin(float64(c)/37)*math.Cos(float64(r)/23) + 0.1*math.Sin(float64(c+r)/5)
	})
	for b.Loop() {
		ShadedRelief(m, 256, 256, ReliefOptions{})
	}
}
