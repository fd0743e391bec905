package analysis

import (
	"context"
	"cordillera/internal/parallel"
	"cordillera/terrain"
	"image"
	"image/color"
	"math"
)

// The light of the shaded relief: the cartographic convention of a sun in
// the north-west (azimuth 315°, clockwise from north) 45° above the
// horizon, which makes hills read as raised rather than sunken.
const (
	reliefAzimuth  = 315.0 // degrees clockwise from north (−z)
	reliefAltitude = 45.0  // degrees above the horizon
)

// reliefAmbient is the share of a pixel's tint kept on slopes turned away
// from the light, so that shadowed valleys keep a readable colour.
const reliefAmbient = 0.3

// ReliefOptions tunes ShadedRelief. The zero value gives the coloured
// relief at true scale.
type ReliefOptions struct {
	// Exaggeration multiplies the heights before shading; it changes the
	// shading, not the colours. Default (0) means 1, true scale; keep
	// between 0.1 and 20: flat maps need more, alpine ones less.
	Exaggeration float64

	// Grey tints by height from dark grey (0) to white (1) instead of the
	// hypsometric greens, browns and whites. Default false.
	Grey bool
}

// ShadedRelief draws the map as a w×h shaded relief: row 0 (north) at the
// top, column 0 (west) at the left, of any aspect. Pixel (i, j) covers the
// world rectangle [i, i+1)·(width/w) × [j, j+1)·(depth/h) of Extent.
//
// The heights are first resampled with a tent filter: bilinear
// interpolation when enlarging, a triangle average over about two pixels'
// footprint when shrinking, so that a large map does not alias. Each pixel
// is then
//
//	colour = tint(h) · (a + (1−a)·max(0, n·L))
//
// with tint the hypsometric ramp over the sample value h ∈ [0, 1] (values
// outside take the ends' colours), a = 0.3 an ambient share, L the unit
// vector towards a light at azimuth 315°, altitude 45°, and n the unit
// normal (−∂y/∂x, 1, −∂y/∂z) of the resampled surface in world units
// (y = h·VerticalScale·Exaggeration, x and z in CellSize units), its
// slopes taken with Horn's 3×3 kernel (Horn 1981, the kernel of GDAL's
// hillshade). So a flat map is uniform, and doubling VerticalScale shades
// exactly as Exaggeration 2. Rows are computed on all cores.
func ShadedRelief(m *terrain.Heightmap, w, h int, opts ReliefOptions) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, max(w, 0), max(h, 0)))
	if w <= 0 || h <= 0 || m.Width <= 0 || m.Height <= 0 {
		return img
	}
	heights := resampleTent(m, w, h)
	exaggeration := opts.Exaggeration
	if !(exaggeration > 0) {
		exaggeration = 1
	}
	yScale := m.VerticalScale * exaggeration
	width, depth := m.Extent()
	stepX, stepZ := width/float64(w), depth/float64(h) // world distance between pixel centres
	light := lightVector(reliefAzimuth, reliefAltitude)

	// context.Background is never done, so forRows cannot fail here.
	_ = parallel.Rows(context.Background(), h, nil, 0, 0, func(j int) {
		up, down := max(j-1, 0), min(j+1, h-1)
		rowUp, row, rowDown := heights[up*w:(up+1)*w], heights[j*w:(j+1)*w], heights[down*w:(down+1)*w]
		spanZ := float64(down-up) * stepZ
		for i := range w {
			left, right := max(i-1, 0), min(i+1, w-1)
			spanX := float64(right-left) * stepX
			// Horn's kernel: weights 1, 2, 1 across the three rows (or
			// columns), divided by 4·(distance between the outer ones).
			var dydx, dydz float64
			if spanX > 0 {
				east := rowUp[right] + 2*row[right] + rowDown[right]
				west := rowUp[left] + 2*row[left] + rowDown[left]
				dydx = yScale * (east - west) / (4 * spanX)
			}
			if spanZ > 0 {
				south := rowDown[left] + 2*rowDown[i] + rowDown[right]
				north := rowUp[left] + 2*rowUp[i] + rowUp[right]
				dydz = yScale * (south - north) / (4 * spanZ)
			}
			nLen := math.Sqrt(dydx*dydx + 1 + dydz*dydz)
			lambert := (-dydx*light[0] + light[1] - dydz*light[2]) / nLen
			shade := reliefAmbient + (1-reliefAmbient)*max(lambert, 0)
			tint := reliefTint(row[i], opts.Grey)
			o := img.PixOffset(i, j)
			img.Pix[o+0] = uint8(math.Round(float64(tint.R) * shade))
			img.Pix[o+1] = uint8(math.Round(float64(tint.G) * shade))
			img.Pix[o+2] = uint8(math.Round(float64(tint.B) * shade))
			img.Pix[o+3] = 255
		}
	})
	return img
}

// lightVector is the unit vector (x, y, z) towards a light at the given
// azimuth (degrees clockwise from north, which is −z; east is +x) and
// altitude (degrees above the horizon).
func lightVector(azimuth, altitude float64) [3]float64 {
	az, alt := azimuth*math.Pi/180, altitude*math.Pi/180
	return [3]float64{math.Cos(alt) * math.Sin(az), math.Sin(alt), -math.Cos(alt) * math.Cos(az)}
}

// hypsometricStops is the colour ramp over the sample value: lowland
// greens, foothill olive, brown slopes, grey rock and snow at the top.
var hypsometricStops = []struct {
	h   float64
	rgb [3]float64
}{
	{0.00, [3]float64{46, 97, 58}},
	{0.20, [3]float64{98, 146, 74}},
	{0.40, [3]float64{178, 178, 108}},
	{0.60, [3]float64{164, 122, 78}},
	{0.80, [3]float64{140, 124, 112}},
	{0.92, [3]float64{215, 212, 208}},
	{1.00, [3]float64{252, 252, 252}},
}

// greyLow is the grey of height 0 in the grey ramp (white is height 1).
const greyLow = 64.0

// reliefTint is the unshaded colour of sample value h: the hypsometric
// ramp interpolated linearly between its stops, or the grey ramp.
func reliefTint(h float64, grey bool) color.RGBA {
	if math.IsNaN(h) {
		h = 0
	}
	h = min(max(h, 0), 1)
	if grey {
		v := uint8(math.Round(greyLow + (255-greyLow)*h))
		return color.RGBA{v, v, v, 255}
	}
	s := hypsometricStops
	k := 1
	for k < len(s)-1 && h > s[k].h {
		k++
	}
	t := (h - s[k-1].h) / (s[k].h - s[k-1].h)
	var c [3]uint8
	for ch := range c {
		c[ch] = uint8(math.Round(s[k-1].rgb[ch] + t*(s[k].rgb[ch]-s[k-1].rgb[ch])))
	}
	return color.RGBA{c[0], c[1], c[2], 255}
}

// tentTaps is one output pixel's filter along an axis: the weights of the
// source samples first, first+1, …, summing to 1.
type tentTaps struct {
	first   int
	weights []float64
}

// tentFilter returns the filters that resample src samples (sample k at
// coordinate k) onto dst pixels, pixel i centred at c = (i+½)·(src−1)/dst.
// The tent has radius r = max((src−1)/dst, 1): with r = 1 it is linear
// interpolation; wider, it averages over the pixel's footprint. Samples
// past the ends are left out and the rest renormalised.
func tentFilter(src, dst int) []tentTaps {
	scale := float64(src-1) / float64(dst)
	r := max(scale, 1)
	out := make([]tentTaps, dst)
	for i := range out {
		c := (float64(i) + 0.5) * scale
		lo := max(int(math.Floor(c-r))+1, 0)
		hi := min(int(math.Ceil(c+r))-1, src-1)
		weights := make([]float64, hi-lo+1)
		sum := 0.0
		for k := range weights {
			wk := max(1-math.Abs(float64(lo+k)-c)/r, 0)
			weights[k] = wk
			sum += wk
		}
		for k := range weights {
			weights[k] /= sum
		}
		out[i] = tentTaps{first: lo, weights: weights}
	}
	return out
}

// resampleTent resamples the map's samples onto a w×h grid, row-major, with
// the separable tent filter of tentFilter: first along rows, then down
// columns.
func resampleTent(m *terrain.Heightmap, w, h int) []float64 {
	alongX, alongZ := tentFilter(m.Width, w), tentFilter(m.Height, h)
	rows := make([]float64, m.Height*w) // every map row resampled to w columns
	// context.Background is never done, so forRows cannot fail here.
	_ = parallel.Rows(context.Background(), m.Height, nil, 0, 0, func(row int) {
		src := m.Samples[row*m.Width : (row+1)*m.Width]
		dst := rows[row*w : (row+1)*w]
		for i, f := range alongX {
			v := 0.0
			for k, wk := range f.weights {
				v += wk * float64(src[f.first+k])
			}
			dst[i] = v
		}
	})
	out := make([]float64, w*h)
	_ = parallel.Rows(context.Background(), h, nil, 0, 0, func(j int) {
		f := alongZ[j]
		dst := out[j*w : (j+1)*w]
		for k, wk := range f.weights {
			src := rows[(f.first+k)*w : (f.first+k+1)*w]
			for i := range dst {
				dst[i] += wk * src[i]
			}
		}
	})
	return out
}
