package assets

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"cordillera/noise"
)

// Material is one of the terrain materials, in the order the terrain shader
// expects them: with the height attribute sand lies lowest and snow highest
// (thesis section 5.2.1, paper 001's colour bands).
type Material int

// The materials, in shader order.
const (
	Sand Material = iota
	Grass
	Rock
	Snow
)

// MaterialCount is the number of materials in the atlas.
const MaterialCount = 4

// Materials lists every material in shader order.
var Materials = [MaterialCount]Material{Sand, Grass, Rock, Snow}

var materialNames = [MaterialCount]string{"sand", "grass", "rock", "snow"}

// String returns the material's lower-case name, which is also its file name
// stem.
func (m Material) String() string {
	if m < 0 || m >= MaterialCount {
		return fmt.Sprintf("Material(%d)", int(m))
	}
	return materialNames[m]
}

// TextureFile is the name of the material's colour texture in materials/.
func (m Material) TextureFile() string { return m.String() + ".png" }

// DetailFile is the name of the material's detail map in materials/.
func (m Material) DetailFile() string { return m.String() + "_detail.png" }

// Synthesize makes material m's colour texture (sRGB, opaque) and its detail
// map (grey, mean 0.5, to be added as col = tex + det − 0.5, thesis
// eq. 5.1), both TextureSize² and seamless: every field below is periodic
// over the texture, so the textures repeat without a visible seam. The
// result depends on nothing but m.
func Synthesize(m Material) (tex *image.RGBA, det *image.Gray) {
	s := newSynth(int64(m) + 1)
	switch m {
	case Sand:
		return s.sand(), s.detail(sandDetail)
	case Grass:
		return s.grass(), s.detail(grassDetail)
	case Rock:
		return s.rock(), s.detail(rockDetail)
	case Snow:
		return s.snow(), s.detail(snowDetail)
	}
	panic(fmt.Sprintf("assets: no material %d", int(m)))
}

// synth holds the seeded noise of one material.
type synth struct {
	seed   int64
	perlin noise.Basis
}

func newSynth(seed int64) synth {
	return synth{seed: seed, perlin: noise.NewPerlin(seed)}
}

// fbm is fractional Brownian motion over Perlin noise at (u, v) ∈ [0, 1)²:
// Σₒ gainᵒ·N(lacunarityᵒ·f·(u, v)) with lacunarity 2, normalised by the sum
// of the amplitudes. off shifts the sample so that several fields taken
// from the same basis are unrelated. Every octave is also shifted off the
// lattice: Perlin noise is 0 at lattice points, so the tile's edge u = 0,
// where tile uses one copy of the field alone, must not run along a
// lattice line, or it would show as a flat stripe.
func (s synth) fbm(u, v, f float64, octaves int, gain, off float64) float64 {
	var sum, amp, norm float64 = 0, 1, 0
	for o := range octaves {
		shift := off + 0.318 + 0.618*float64(o)
		sum += amp * s.perlin.Value(u*f+shift, v*f+0.7*shift+0.245)
		norm += amp
		amp *= gain
		f *= 2
	}
	return sum / norm
}

// tile makes any field periodic over the unit square. It blends the four
// copies g(u−i, v−j), i, j ∈ {0, 1}, with the weights wᵢ(u)·wⱼ(v),
// w₀ = 1 − S, w₁ = S, S the smoothstep: at u = 0 the blend is g(0, ·)
// alone and at u → 1 it is g(1 − 1, ·), the same values, and because S' = 0
// at both ends the slopes agree too. Dividing by √(Σw²) keeps the contrast
// of a zero-mean field the same in the middle of the tile, where two
// unrelated copies are averaged, as at its edges.
func tile(u, v float64, g func(u, v float64) float64) float64 {
	su, sv := smooth(u), smooth(v)
	a := g(u, v)*(1-su)*(1-sv) + g(u-1, v)*su*(1-sv) +
		g(u, v-1)*(1-su)*sv + g(u-1, v-1)*su*sv
	norm := math.Sqrt(((1-su)*(1-su) + su*su) * ((1-sv)*(1-sv) + sv*sv))
	return a / norm
}

// smooth is the smoothstep 3t² − 2t³.
func smooth(t float64) float64 { return t * t * (3 - 2*t) }

// worley returns the distances F1 and F2 from (u, v) ∈ [0, 1)² to the
// nearest and second-nearest feature points of a periodic cellular field
// with cells×cells cells over the tile, one jittered point per cell
// (Worley 1996). Cell indices wrap modulo cells, so the field tiles exactly.
// Distances are in cell widths.
func (s synth) worley(u, v float64, cells int, salt uint64) (f1, f2 float64) {
	x, y := u*float64(cells), v*float64(cells)
	ci, cj := int(math.Floor(x)), int(math.Floor(y))
	f1, f2 = math.Inf(1), math.Inf(1)
	for dj := -2; dj <= 2; dj++ {
		for di := -2; di <= 2; di++ {
			i, j := ci+di, cj+dj
			h := hash64(uint64(s.seed)^salt, uint64(mod(i, cells)), uint64(mod(j, cells)))
			px := float64(i) + float64(h>>40)/(1<<24)
			py := float64(j) + float64((h>>16)&0xFFFFFF)/(1<<24)
			d := math.Hypot(px-x, py-y)
			if d < f1 {
				f1, f2 = d, f1
			} else if d < f2 {
				f2 = d
			}
		}
	}
	return f1, f2
}

// grain returns a per-pixel random number in [0, 1): white noise, periodic
// because it is indexed by the pixel.
func (s synth) grain(x, y int, salt uint64) float64 {
	return float64(hash64(uint64(s.seed)^salt, uint64(x), uint64(y))>>11) / (1 << 53)
}

// hash64 mixes a key and two indices (MurmurHash3's finaliser).
func hash64(key, i, j uint64) uint64 {
	return noise.Mix64(key ^ i*0x9E3779B97F4A7C15 ^ j*0xC2B2AE3D27D4EB4F)
}

func mod(i, n int) int { return ((i % n) + n) % n }

// rgb is a colour in sRGB, components in [0, 1].
type rgb struct{ r, g, b float64 }

func (c rgb) mix(d rgb, t float64) rgb {
	return rgb{c.r + (d.r-c.r)*t, c.g + (d.g-c.g)*t, c.b + (d.b-c.b)*t}
}

func (c rgb) scale(k float64) rgb { return rgb{c.r * k, c.g * k, c.b * k} }

func (c rgb) add(k float64) rgb { return rgb{c.r + k, c.g + k, c.b + k} }

func to8(v float64) uint8 {
	return uint8(math.Floor(math.Max(0, math.Min(1, v))*255 + 0.5))
}

// paint fills a TextureSize² texture with f(u, v, x, y), evaluated at pixel
// centres.
func paint(f func(u, v float64, x, y int) rgb) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, TextureSize, TextureSize))
	for y := range TextureSize {
		for x := range TextureSize {
			u, v := (float64(x)+0.5)/TextureSize, (float64(y)+0.5)/TextureSize
			c := f(u, v, x, y)
			img.SetRGBA(x, y, color.RGBA{to8(c.r), to8(c.g), to8(c.b), 255})
		}
	}
	return img
}

// sand: warm beige, wind ripples bent by low-frequency noise, patches of
// lighter and darker sand and single dark grains.
func (s synth) sand() *image.RGBA {
	light, dark := rgb{0.84, 0.75, 0.55}, rgb{0.70, 0.58, 0.40}
	return paint(func(u, v float64, x, y int) rgb {
		patch := tile(u, v, func(u, v float64) float64 { return s.fbm(u, v, 3, 4, 0.5, 0) })
		warp := tile(u, v, func(u, v float64) float64 { return s.fbm(u, v, 2, 3, 0.5, 31.7) })
		// Integer wave numbers (7, 3) keep the ripples periodic.
		ripple := math.Sin(2*math.Pi*(7*u+3*v) + 5*warp)
		c := light.mix(dark, 0.45+0.9*patch)
		c = c.add(0.035*ripple + 0.06*(s.grain(x, y, 1)-0.5))
		if s.grain(x, y, 2) < 0.02 {
			c = c.scale(0.75)
		}
		return c
	})
}

// grass: greens in patches, with dry yellowish spots and fine tufts.
func (s synth) grass() *image.RGBA {
	darkG, lightG, dry := rgb{0.20, 0.36, 0.11}, rgb{0.36, 0.54, 0.18}, rgb{0.55, 0.55, 0.26}
	return paint(func(u, v float64, x, y int) rgb {
		patch := tile(u, v, func(u, v float64) float64 { return s.fbm(u, v, 4, 5, 0.55, 0) })
		dryness := tile(u, v, func(u, v float64) float64 { return s.fbm(u, v, 3, 3, 0.5, 57.1) })
		// Tufts: fine noise, isotropic because the texture is seen from
		// above and at every angle.
		blades := tile(u, v, func(u, v float64) float64 { return s.fbm(u, v, 48, 2, 0.5, 11.3) })
		// Modest large-scale variation: a texture repeated across the map
		// must not show its repeats as a grid of spots.
		c := darkG.mix(lightG, 0.5+0.8*patch)
		c = c.mix(dry, 0.6*smoothClamp(2*dryness))
		return c.add(0.08*blades + 0.07*(s.grain(x, y, 3)-0.5))
	})
}

// rock: grey-brown stone with bent strata, a few irregular cracks and
// speckles. The cracks are cellular borders on warped coordinates, kept only
// where a mask field is high, so that they do not read as paving.
func (s synth) rock() *image.RGBA {
	grey, brown := rgb{0.47, 0.45, 0.43}, rgb{0.50, 0.40, 0.31}
	return paint(func(u, v float64, x, y int) rgb {
		tint := tile(u, v, func(u, v float64) float64 { return s.fbm(u, v, 2, 4, 0.5, 0) })
		rough := tile(u, v, func(u, v float64) float64 { return s.fbm(u, v, 8, 5, 0.6, 13.3) })
		warp := tile(u, v, func(u, v float64) float64 { return s.fbm(u, v, 3, 3, 0.5, 71.9) })
		mask := tile(u, v, func(u, v float64) float64 { return s.fbm(u, v, 2, 3, 0.5, 44.4) })
		strata := math.Sin(2*math.Pi*5*v + 6*warp)
		f1, f2 := s.worley(wrap(u+0.05*warp), wrap(v+0.05*rough), 5, 0x524F434B)
		crack := (1 - smoothClamp((f2-f1)/0.05)) * smoothClamp(4*mask+0.3)
		c := grey.mix(brown, 0.5+1.4*tint)
		c = c.scale(1 + 0.45*rough + 0.06*strata - 0.35*crack)
		return c.add(0.06 * (s.grain(x, y, 4) - 0.5))
	})
}

// wrap returns t modulo 1.
func wrap(t float64) float64 { return t - math.Floor(t) }

// snow: bluish white with soft drifts and faint sparkle.
func (s synth) snow() *image.RGBA {
	white, shade := rgb{0.95, 0.96, 0.98}, rgb{0.80, 0.85, 0.93}
	return paint(func(u, v float64, x, y int) rgb {
		drift := tile(u, v, func(u, v float64) float64 { return s.fbm(u, v, 4, 5, 0.5, 5.5) })
		c := white.mix(shade, smoothClamp(0.3-0.9*drift))
		return c.add(0.03 * (s.grain(x, y, 5) - 0.5))
	})
}

// smoothClamp is the smoothstep of t clamped to [0, 1].
func smoothClamp(t float64) float64 { return smooth(math.Max(0, math.Min(1, t))) }

// Detail map styles.
const (
	sandDetail = iota
	grassDetail
	rockDetail
	snowDetail
)

// detail makes a grey detail map: a zero-mean field scaled into a band
// around 0.5, then shifted so that its mean is 0.5 (thesis section 5.2.2: a
// detail map whose mean is not 0.5 brightens or darkens its material).
func (s synth) detail(style int) *image.Gray {
	field := make([]float64, TextureSize*TextureSize)
	var sum float64
	for y := range TextureSize {
		for x := range TextureSize {
			u, v := (float64(x)+0.5)/TextureSize, (float64(y)+0.5)/TextureSize
			var d float64
			switch style {
			case sandDetail: // pebbles and grain
				f1, _ := s.worley(u, v, 24, 0x53414E44)
				d = 0.10*(0.5-smoothClamp(f1/0.6)) + 0.10*(s.grain(x, y, 6)-0.5)
			case grassDetail: // tufts
				b := tile(u, v, func(u, v float64) float64 { return s.fbm(u, v, 64, 2, 0.6, 3.1) })
				d = 0.30*b + 0.08*(s.grain(x, y, 7)-0.5)
			case rockDetail: // rough stone with fine cracks
				r := tile(u, v, func(u, v float64) float64 { return s.fbm(u, v, 16, 4, 0.6, 91.3) })
				f1, f2 := s.worley(wrap(u+0.03*r), wrap(v-0.04*r), 10, 0x44455441)
				d = 0.30*r - 0.08*(1-smoothClamp((f2-f1)/0.06)) + 0.05*(s.grain(x, y, 8)-0.5)
			case snowDetail: // soft crust
				r := tile(u, v, func(u, v float64) float64 { return s.fbm(u, v, 12, 3, 0.5, 23.9) })
				d = 0.12*r + 0.03*(s.grain(x, y, 9)-0.5)
			}
			field[y*TextureSize+x] = d
			sum += d
		}
	}
	mean := sum / float64(len(field))
	img := image.NewGray(image.Rect(0, 0, TextureSize, TextureSize))
	for i, d := range field {
		img.Pix[i] = to8(0.5 + d - mean)
	}
	return img
}
