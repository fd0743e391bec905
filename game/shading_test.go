package game

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"cordillera/assets"
	"cordillera/terrain"
)

// Pixel tests of the terrain shader against what it should compute: the
// frame is drawn with flat-coloured materials (so texture filtering
// cannot hide anything) over ground of known shape, and chosen pixels are
// compared with colours worked out here, on the CPU, from the shader's
// contract (shaders.go): material choice and blending, lighting, the
// light map, the rules, the sky's haze and the water. A change to any of
// these in shaders/terrain.kage moves the frame away from this reference;
// the test of the shader variants cannot see it, as it compares the
// shader with itself.

// flatColours are the test materials: sand, grass, rock, snow, far apart.
var flatColours = [4]color.RGBA{{210, 60, 40, 255}, {40, 190, 60, 255}, {50, 70, 210, 255}, {235, 235, 235, 255}}

// flatAtlas is an atlas whose textures are the flat colours and whose
// detail maps are neutral.
func flatAtlas() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, assets.AtlasWidth, assets.AtlasHeight))
	for y := 0; y < assets.AtlasHeight; y++ {
		m := y / assets.MaterialStride
		c := flatColours[m]
		if y%assets.MaterialStride >= assets.DetailOffset {
			c = color.RGBA{128, 128, 128, 255}
		}
		for x := 0; x < assets.AtlasWidth; x++ {
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

// shadingGame is a game on map m drawn with the flat atlas, no detail
// maps, no anti-aliasing and the camera straight above (cx, height, cz).
func shadingGame(t *testing.T, m *terrain.Heightmap, height float32) *Game {
	t.Helper()
	g := newTestGame(t, NewWorld(m))
	onLoop(func() { g.render.setAtlas(flatAtlas()) })
	g.View.DetailMaps = false
	g.View.Antialias = false // the reference shades each pixel alone
	g.View.Scatter = false   // the reference shades the ground alone
	w, d := m.Extent()
	topDown(g, float32(w/2), height, float32(d/2))
	return g
}

// ramp is a size² map rising linearly along x from 0 to 1 (world height
// 0 to vs), cell size 1.
func ramp(size int, vs float64) *terrain.Heightmap {
	m := terrain.NewHeightmap(size, size)
	m.VerticalScale = vs
	for r := 0; r < size; r++ {
		for c := 0; c < size; c++ {
			m.Set(c, r, float32(c)/float32(size-1))
		}
	}
	return m
}

// ray is the world ray through the centre of pixel (px, py).
func ray(g *Game, px, py int) (origin, dir mgl32.Vec3) {
	inv := viewProjection(g.Camera, testW, testH).Inv()
	x := 2*(float32(px)+0.5)/testW - 1
	y := 1 - 2*(float32(py)+0.5)/testH
	near := inv.Mul4x1(mgl32.Vec4{x, y, -1, 1})
	far := inv.Mul4x1(mgl32.Vec4{x, y, 1, 1})
	a := near.Vec3().Mul(1 / near[3])
	b := far.Vec3().Mul(1 / far[3])
	return a, b.Sub(a).Normalize()
}

// onRamp is where the ray of pixel (px, py) meets the plane y = slope·x.
func onRamp(g *Game, px, py int, slope float32) mgl32.Vec3 {
	o, d := ray(g, px, py)
	t := (slope*o[0] - o[1]) / (d[1] - slope*d[0])
	return o.Add(d.Mul(t))
}

// ref is the CPU reference of the terrain shader for one view.
type ref struct {
	v     *Viewer
	m     *terrain.Heightmap
	cam   mgl32.Vec3
	sun   mgl32.Vec3
	sl    skyLight
	gamma float64
}

func newRef(g *Game) ref {
	m := g.World.Map
	return ref{v: &g.View, m: m, cam: g.Camera.Pos, sun: g.View.SunDir(), sl: lightOf(&g.View),
		gamma: float64(g.View.Gamma)}
}

type rgbf [3]float64

func (a rgbf) mix(b rgbf, t float64) rgbf {
	return rgbf{a[0] + (b[0]-a[0])*t, a[1] + (b[1]-a[1])*t, a[2] + (b[2]-a[2])*t}
}
func (a rgbf) mul(b rgbf) rgbf      { return rgbf{a[0] * b[0], a[1] * b[1], a[2] * b[2]} }
func (a rgbf) scale(s float64) rgbf { return rgbf{a[0] * s, a[1] * s, a[2] * s} }
func (a rgbf) add(b rgbf) rgbf      { return rgbf{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func f3(c [3]float32) rgbf          { return rgbf{float64(c[0]), float64(c[1]), float64(c[2])} }
func texColour(m int) rgbf {
	c := flatColours[m]
	return rgbf{float64(c.R) / 255, float64(c.G) / 255, float64(c.B) / 255}
}

// thesisBlend is the thesis's blend width (listing 5.3), the explorer's
// default.
const thesisBlend = 0.05

// bandWeights is thesis listing 5.3's choice: material i is the first whose
// boundary is ≥ val, mixed with i − 1 by smoothstep over blend above their
// boundary.
func bandWeights(val float64, b [4]float32, blend float64) [4]float64 {
	i := 3
	for k := 0; k < 3; k++ {
		if val <= float64(b[k]) {
			i = k
			break
		}
	}
	var w [4]float64
	if i == 0 {
		w[0] = 1
		return w
	}
	prev := float64(b[i-1])
	up := 1.0
	if val-prev < blend {
		up = smoothstep64(prev, prev+blend, val)
	}
	w[i-1], w[i] = 1-up, up
	return w
}

// light is the shader's eq. 5.3 light with the light map's sun and sky
// visibility.
func (r ref) light(n mgl32.Vec3, sunVis, skyVis float64) rgbf {
	nl := math.Max(float64(n.Dot(r.sun)), 0)
	return f3(r.sl.zenith).scale(float64(r.v.Ambient) * skyVis).add(f3(r.sl.sun).scale(nl * sunVis))
}

// air, skyRadiance and finish are the shader's atmosphere (game/sky.go).
func (r ref) air(dir mgl32.Vec3, t [3]float64) (tr, in rgbf) {
	mu := float64(dir.Dot(r.sun))
	pR := 0.75 * (1 + mu*mu)
	g2 := mieG * mieG
	pM := (1 - g2) / math.Pow(math.Max(1+g2-2*mieG*mu, 1e-4), 1.5)
	fogBeta := math.Sqrt(-math.Log(fogContrastLeft)) * float64(r.v.FogDensity)
	for c := range 3 {
		sR := airDensity * rayleighBeta[c] * t[0]
		sM := airDensity * mieBeta * t[1]
		sF := fogBeta * t[2]
		ext := sR + mieExtinction*sM + sF
		tr[c] = math.Exp(-ext)
		sun, sky := float64(r.sl.airSun[c]), float64(r.sl.airSky[c])
		src := sR*float64(r.sl.tint[c])*(sun*pR+sky) + sM*(sun*pM+sky) + sF*float64(r.v.FogColor[c])*(sun*(0.5+0.5*pM)+sky)
		in[c] = src * (1 - tr[c]) / math.Max(ext, 1e-12)
	}
	return tr, in
}

// multipleScattering is the shader's share of the air's light laid over
// the ground through optical depths t.
func (r ref) multipleScattering(t [3]float64) float64 {
	fogBeta := math.Sqrt(-math.Log(fogContrastLeft)) * float64(r.v.FogDensity)
	tg := airDensity*rayleighBeta[1]*t[0] + mieExtinction*airDensity*mieBeta*t[1] + fogBeta*t[2]
	const thinAir, thickAir = 0.3, 0.3
	return thinAir + (1-thinAir)*(1-math.Exp(-tg/thickAir))
}

// opticalDepth is the shader's depth.
func opticalDepth(h0, h1, d, scale float64) float64 {
	dh := h1 - h0
	if math.Abs(dh) < 1e-3*scale {
		return d * math.Exp(-0.5*(h0+h1)/scale)
	}
	return d * scale * (math.Exp(-h0/scale) - math.Exp(-h1/scale)) / dh
}

func (r ref) fog() (base, height float64) {
	return float64(horizonLevel(r.v, r.m)), math.Max(0.5*r.m.VerticalScale, 1e-3)
}

func (r ref) skyRadiance(dir mgl32.Vec3) rgbf {
	h, mu := float64(r.cam[1]), float64(dir[1])
	base, fh := r.fog()
	_, in := r.air(dir, [3]float64{math.Exp(-h/rayleighScale) * rayleighScale * airMass(mu, rayleighScale),
		math.Exp(-h/mieScale) * mieScale * airMass(mu, mieScale),
		math.Exp(-(h-base)/fh) * fh * airMass(mu, fh)})
	return in
}

// finish hazes the linear colour of the point seen by the pixel and
// encodes it for the display.
func (r ref) finish(col rgbf, seen mgl32.Vec3) rgbf {
	d := float64(seen.Sub(r.cam).Len())
	dx, dz := float64(seen[0]-r.cam[0]), float64(seen[2]-r.cam[2])
	h0, h1 := float64(r.cam[1]), float64(seen[1])-(dx*dx+dz*dz)/(2*earthRadius)
	base, fh := r.fog()
	t := [3]float64{opticalDepth(h0, h1, d, rayleighScale), opticalDepth(h0, h1, d, mieScale), opticalDepth(h0-base, h1-base, d, fh)}
	tr, in := r.air(seen.Sub(r.cam).Add(mgl32.Vec3{0, 1e-6, 0}).Normalize(), t)
	ms := r.multipleScattering(t)
	for i := range col {
		col[i] = col[i]*tr[i] + in[i]*ms
	}
	col = shoulder(col)
	for i := range col {
		col[i] = 255 * math.Pow(math.Min(math.Max(col[i], 0), 1), 1/r.gamma)
	}
	return col
}

// shoulder is the shaders' highlight roll-off: above a linear 0.7 the
// brightest channel rolls off towards 1, the others scaled with it, and
// far past 1.5 the colour bleaches towards white.
func shoulder(c rgbf) rgbf {
	const k = 0.7
	m := max(c[0], c[1], c[2])
	if m <= k {
		return c
	}
	r := c.scale((k + (1-k)*(1-math.Exp(-(m-k)/(1-k)))) / m)
	w := 1 - math.Exp(-math.Max(m-1.5, 0))
	for i := range r {
		r[i] += (1 - r[i]) * w
	}
	return r
}

// shaded is the lit colour (linear) of materials mixed by weights w in
// texture space, each tinted.
func (r ref) shaded(w [4]float64, tints [4]rgbf, light rgbf) rgbf {
	// The shader mixes the two strongest; the tests use at most two.
	var c rgbf
	for k := range w {
		c = c.add(texColour(k).mul(tints[k]).scale(w[k]))
	}
	for i := range c {
		c[i] = math.Pow(c[i], r.gamma)
	}
	return c.mul(light)
}

var noTint = [4]rgbf{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}}

// check compares the frame's pixel (px, py) with want, within tol levels.
func check(t *testing.T, img *image.RGBA, px, py int, want rgbf, tol float64, what string) bool {
	t.Helper()
	c := img.RGBAAt(px, py)
	got := [3]float64{float64(c.R), float64(c.G), float64(c.B)}
	for i := range got {
		if math.Abs(got[i]-want[i]) > tol {
			t.Errorf("%s: pixel (%d, %d) is %v, want (%.1f, %.1f, %.1f) ±%g", what, px, py, got, want[0], want[1], want[2], tol)
			return false
		}
	}
	return true
}

// shadeTol is the tolerance, in 8-bit levels, between the frame and the
// reference: float rounding on the GPU and the 8-bit frame.
const shadeTol = 2.5

// The thesis's height bands: across a ramp the materials change at the
// boundaries and blend over the thesis's width above each, lit by
// eq. 5.3 with the ramp's normal; a wider or missing blend, a shifted
// boundary or wrong light fails.
func TestShaderHeightBandsMatchReference(t *testing.T) {
	needLoop(t)
	const size, vs = 129, 40.0
	g := shadingGame(t, ramp(size, vs), 150)
	g.View.Texturing, g.View.Shadows, g.View.Occlusion = ByHeight, false, false
	g.View.Boundaries = [4]float32{0.25, 0.5, 0.75, 1}
	img := renderFrame(g, false)
	r := newRef(g)
	slope := float32(vs / (size - 1))
	n := mgl32.Vec3{-slope, 1, 0}.Normalize()
	light := r.light(n, 1, 1)
	checked, blended := 0, 0
	for px := testW/2 - 150; px <= testW/2+150; px += 50 { // the ramp rises up the screen
		for py := 0; py < testH; py++ {
			p := onRamp(g, px, py, slope)
			val := float64(p[1]) / vs
			if p[0] < 2 || p[0] > size-3 || p[2] < 2 || p[2] > size-3 {
				continue
			}
			w := bandWeights(val, g.View.Boundaries, thesisBlend)
			if w != bandWeights(val, g.View.Boundaries, 0) {
				blended++
			}
			want := r.finish(r.shaded(w, noTint, light), p)
			if !check(t, img, px, py, want, shadeTol, fmt.Sprintf("height %.3f", val)) {
				return
			}
			checked++
		}
	}
	t.Logf("%d pixels checked, %d in a blend", checked, blended)
	if checked < 1000 || blended < 50 {
		t.Fatalf("checked %d pixels, %d of them in a blend: the view misses the ramp", checked, blended)
	}
}

// The light map: on flat ground beside a wall, the sun's term is scaled
// by the shadow (R) and the sky's by the occlusion (G), both sampled
// bilinearly at one texel per sample.
func TestShaderLightMapMatchesReference(t *testing.T) {
	needLoop(t)
	const size, wallCol, h = 129, 90, 12.0
	m := terrain.NewHeightmap(size, size)
	for r := 0; r < size; r++ {
		m.Set(wallCol, r, h)
	}
	g := shadingGame(t, m, 140)
	g.View.ColourScheme = false
	g.View.Texturing, g.View.MaterialCount = ByHeight, 1
	g.View.SunElevation, g.View.SunAzimuth = 25, 0 // shadows towards −x
	waitLight(t, g)
	img := renderFrame(g, false)
	var pix []byte
	stride := 0 // the light image's width: the map's, or that of the land beyond's light below it
	onLoop(func() {
		b := g.render.lightImg.Bounds()
		pix = make([]byte, 4*b.Dx()*b.Dy())
		stride = b.Dx()
		g.render.lightImg.ReadPixels(pix)
	})
	at := func(x, z float64, c int) float64 {
		x0, z0 := math.Floor(x), math.Floor(z)
		fx, fz := x-x0, z-z0
		v := func(i, j int) float64 { return float64(pix[4*((int(z0)+j)*stride+int(x0)+i)+c]) / 255 }
		return (v(0, 0)*(1-fx)+v(1, 0)*fx)*(1-fz) + (v(0, 1)*(1-fx)+v(1, 1)*fx)*fz
	}
	r := newRef(g)
	up := mgl32.Vec3{0, 1, 0}
	shadowed, occluded := 0, 0
	for py := 20; py < testH-20; py += 23 {
		for px := 3; px < testW; px += 7 {
			p := onRamp(g, px, py, 0)
			if p[0] < 1 || p[0] > wallCol-2 || p[2] < 1 || p[2] > size-2 {
				continue // off the map, or where the wall tilts the normals
			}
			if p[0] < edgeBandTest || p[2] < edgeBandTest || p[2] > size-1-edgeBandTest {
				// Along the map's edges the shader reads the light at the
				// land beyond's coarser level, so that the two meet.
				continue
			}
			// Where a pixel spans more than half a sample the shader reads
			// the light map's coarser levels, filtered to the footprint
			// (the shader's fwidth: the steps to the next pixels summed).
			dx, dy := onRamp(g, px+1, py, 0).Sub(p), onRamp(g, px, py+1, 0).Sub(p)
			fx := math.Abs(float64(dx[0])) + math.Abs(float64(dy[0]))
			fz := math.Abs(float64(dx[2])) + math.Abs(float64(dy[2]))
			if math.Hypot(fx, fz)/m.CellSize*lightFootprintTest > 1 {
				continue
			}
			sun, sky := at(float64(p[0]), float64(p[2]), 0), at(float64(p[0]), float64(p[2]), 1)
			if sun < 0.5 {
				shadowed++
			}
			if sky < 0.9 {
				occluded++
			}
			want := r.finish(r.shaded([4]float64{1, 0, 0, 0}, noTint, r.light(up, sun, sky)), p)
			if !check(t, img, px, py, want, shadeTol, fmt.Sprintf("sun %.2f sky %.2f", sun, sky)) {
				return
			}
		}
	}
	t.Logf("%d pixels in shadow, %d occluded", shadowed, occluded)
	if shadowed < 20 || occluded < 20 {
		t.Fatalf("%d pixels in shadow, %d occluded: the view misses the wall's shade", shadowed, occluded)
	}
}

// fract32 and hash21 are the shader's hash in float32. The GPU may round
// (or fuse) its steps differently, which matters only where a fract's
// argument lies next to an integer and the result may wrap: hash21
// reports those lattice points as not sure.
func fract32(x float32, sure *bool) float32 {
	f := x - float32(math.Floor(float64(x)))
	if f < 2e-3 || f > 1-2e-3 {
		*sure = false
	}
	return f
}

func hash21(px, py float32, sure *bool) float32 {
	exact := true // a single product rounds the same everywhere
	x, y, z := fract32(px*0.1031, &exact), fract32(py*0.1031, &exact), fract32(px*0.1031, &exact)
	d := x*(y+33.33) + y*(z+33.33) + z*(x+33.33)
	x, y, z = x+d, y+d, z+d
	return fract32((x+y)*z, sure)
}

// valueNoise is the shader's value noise at (qx, qy); sure turns false
// where a lattice hash may differ on the GPU.
func valueNoise(qx, qy float32, sure *bool) float64 {
	ix, iy := float32(math.Floor(float64(qx))), float32(math.Floor(float64(qy)))
	fx, fy := float64(qx-ix), float64(qy-iy)
	ux, uy := fx*fx*(3-2*fx), fy*fy*(3-2*fy)
	a, b := float64(hash21(ix, iy, sure)), float64(hash21(ix+1, iy, sure))
	c, d := float64(hash21(ix, iy+1, sure)), float64(hash21(ix+1, iy+1, sure))
	return (a+(b-a)*ux)*(1-uy) + (c+(d-c)*ux)*uy
}

// ruleWeights is the shader's materials by rules (no water, no masks):
// the weights of sand, grass, rock and snow and their tints, and whether
// the noise is sure to be the GPU's.
func (r ref) ruleWeights(p, n mgl32.Vec3, height float64) ([4]float64, [4]rgbf, bool) {
	ext, _ := r.m.Extent()
	qx, qy := p[0]/float32(ext), p[2]/float32(ext)
	sure := true
	n1 := valueNoise(qx*6, qy*6, &sure)
	n2 := valueNoise(qx*15+17.3, qy*15+17.3, &sure)
	noise := 0.65*n1 + 0.35*n2
	ny := float64(n[1])
	metre := 1 / r.m.VerticalScale
	snowLine := float64(r.v.SnowLine)
	above, score := ruleScore(ny, 0, height, snowLine, metre, noise)
	rock := smoothstep64(0.19, 0.31, score)
	// Scree lies only at the foot of rock, in hollows (convexity below
	// about −0.035): none on the reference's plane, convexity 0.
	scree := smoothstep64(0.10, 0.19, score) * (1 - rock) * (0.35 + 0.45*above) * (1 - smoothstep64(-0.08, -0.035, 0))
	s := mgl32.Vec2{r.sun[0] + 1e-6, r.sun[2]}.Normalize()
	away := -float64(s.Dot(mgl32.Vec2{n[0], n[2]}))
	sm := math.Min(metre, 1.0/3000) // terrain.kage's snowRelief
	n3 := valueNoise(qx*60+3.7, qy*60+3.7, &sure)
	line := snowLine - 250*sm*away*math.Min(4*(1-ny), 1) + 250*sm*(noise-0.5) + 150*sm*(n3-0.5)
	snow := smoothstep64(line-250*sm, line+250*sm, height)
	cosHi := math.Cos(float64(r.v.SnowSlope-8) * math.Pi / 180)
	cosLo := math.Cos(float64(r.v.SnowSlope) * math.Pi / 180)
	snow *= smoothstep64(cosLo, cosHi, ny)
	if snowLine > 1.19 {
		snow = 0
	}
	forest := (1 - above) * (0.45 + 0.55*smoothstep64(0.3, 0.7, n1))
	vary := 1 + 0.16*(n2-0.5)
	grass := shaderAlbedo(0).mix(shaderAlbedo(2), above).mix(shaderAlbedo(1), forest).scale(vary)
	rockAlbedo := shaderAlbedo(4).mix(shaderAlbedo(3), scree/math.Max(rock+scree, 1e-6)).mul(rgbf{0.97, 0.98, 1.0}.mix(rgbf{1.03, 1.0, 0.96}, n1)).scale(vary)
	wSnow, wRock := snow, math.Min(rock+scree, 1)*(1-snow)
	w := [4]float64{0, math.Max(1-wSnow-wRock, 0), wRock, wSnow}
	tint := func(a rgbf, m int) rgbf {
		mean := texColour(m)
		var t rgbf
		for c := range t {
			t[c] = math.Pow(a[c], 1/r.gamma) / math.Max(mean[c], 1.0/255)
		}
		return t
	}
	return w, [4]rgbf{tint(shaderAlbedo(6), 0), tint(grass, 1), tint(rockAlbedo, 2), tint(shaderAlbedo(5), 3)}, sure
}

// ruleScore is the shader's share of ground above the tree line and its
// rock score, for the normal's y ny, convexity convex, height (a share of
// the range), snow line (a share), metre (a metre as a share) and the
// coarse noise (0–1).
func ruleScore(ny, convex, height, snowLine, metre, noise float64) (above, score float64) {
	treeLine := snowLine - 650*metre
	if snowLine > 1.19 {
		treeLine = math.Max(treeLine, 1+250*metre)
	}
	above = smoothstep64(treeLine-250*metre, treeLine, height)
	return above, (1 - ny) + 0.5*convex + 0.05*above + 0.04*(noise-0.5)
}

// shaderAlbedo is the shader's albedo(k).
func shaderAlbedo(k int) rgbf {
	return [8]rgbf{{0.058, 0.090, 0.042}, {0.026, 0.040, 0.022}, {0.098, 0.104, 0.056}, {0.200, 0.188, 0.166},
		{0.165, 0.155, 0.138}, {0.780, 0.810, 0.860}, {0.300, 0.270, 0.220}, {0.210, 0.205, 0.195}}[k]
}

// strongestTwo keeps the two largest weights, renormalised, as the shader
// mixes only those; clear reports whether the second is clearly ahead of
// the third (else rounding picks either).
func strongestTwo(w [4]float64) ([4]float64, bool) {
	a := 0
	for k := range w {
		if w[k] > w[a] {
			a = k
		}
	}
	b := -1
	for k := range w {
		if k != a && (b < 0 || w[k] > w[b]) {
			b = k
		}
	}
	clear := true
	for k := range w {
		if k != a && k != b && w[b]-w[k] < 0.02 && w[b] > 0.001 {
			clear = false
		}
	}
	var out [4]float64
	if w[b] <= 0.001 {
		out[a] = 1
		return out, clear
	}
	out[a], out[b] = w[a]/(w[a]+w[b]), w[b]/(w[a]+w[b])
	return out, clear
}

// Materials by rules: on a gentle ramp grass (forest patches, meadow)
// gives way to snow above the snow line, which wanders with noise; on a
// steeper one rock takes over and the snow thins out with the slope; on
// one steeper than the snow's limit there is bare rock to the top.
func TestShaderRulesMatchReference(t *testing.T) {
	needLoop(t)
	const size = 129
	for _, vs := range []float64{40, 120, 200} {
		t.Run(fmt.Sprint("height ", vs), func(t *testing.T) {
			g := shadingGame(t, ramp(size, vs), 150)
			g.View.Shadows, g.View.Occlusion = false, false
			img := renderFrame(g, false)
			r := newRef(g)
			slope := float32(vs / (size - 1))
			n := mgl32.Vec3{-slope, 1, 0}.Normalize()
			light := r.light(n, 1, 1)
			var seen [4]int
			skipped := 0
			for px := 20; px < testW; px += 31 {
				for py := 0; py < testH; py += 3 {
					p := onRamp(g, px, py, slope)
					if p[0] < 2 || p[0] > size-3 || p[2] < 2 || p[2] > size-3 {
						continue
					}
					w, tints, sure := r.ruleWeights(p, n, float64(p[1])/vs)
					w, clear := strongestTwo(w)
					if !sure || !clear {
						skipped++
						continue
					}
					for k := range w {
						if w[k] > 0.5 {
							seen[k]++
						}
					}
					if !check(t, img, px, py, r.finish(r.shaded(w, tints, light), p), shadeTol, fmt.Sprintf("height %.3f weights %.2f", float64(p[1])/vs, w)) {
						return
					}
				}
			}
			t.Logf("pixels mostly sand, grass, rock, snow: %v; %d left out where rounding decides", seen, skipped)
			if seen[1]+seen[2]+seen[3] < 1000 || (vs < 150 && seen[3] < 30) {
				t.Fatalf("pixels mostly sand, grass, rock, snow: %v: the view misses the ramp", seen)
			}
		})
	}
}

// water is the shader's water over ground point p of lit colour bed
// (flat surface: the ripples have faded at the test's distance), and the
// surface point seen.
func (r ref) water(p mgl32.Vec3, bed rgbf, level, depthScale float64) (rgbf, mgl32.Vec3) {
	ray := p.Sub(r.cam)
	t := (float32(level) - r.cam[1]) / ray[1]
	surface := r.cam.Add(ray.Mul(t))
	under := float64(ray.Len()) * float64(1-t)
	dir := ray.Normalize()
	fresnel := 0.02 + 0.98*math.Pow(1-math.Max(float64(-dir[1]), 0), 5)
	refl := mgl32.Vec3{dir[0], float32(math.Abs(float64(dir[1]))), dir[2]}
	sky := r.skyRadiance(refl)
	glint := f3(r.sl.sun).scale(math.Pow(math.Max(float64(refl.Dot(r.sun)), 0), 600) * 6)
	lit := f3(r.sl.zenith).scale(float64(r.v.Ambient)).add(f3(r.sl.sun).scale(math.Max(float64(r.sun[1]), 0)))
	deep := rgbf{0.010, 0.045, 0.060}.mul(lit)
	body := deep.mix(bed, math.Exp(-under/depthScale))
	col := body.mix(sky, fresnel).add(glint)
	foam := (1 - smoothstep64(0, 0.06*depthScale, level-float64(p[1]))) * 0.6
	return col.mix(lit.scale(0.85), foam), surface
}

// Water: exactly the ground below the water level shows the water
// surface — the bed fading into deep water with the path under water,
// the sky's reflection, foam at the shore — and the ground above it is
// untouched.
func TestShaderWaterMatchesReference(t *testing.T) {
	needLoop(t)
	const size, vs, share = 129, 40.0, 0.4
	g := shadingGame(t, ramp(size, vs), 150)
	g.View.Texturing, g.View.MaterialCount = ByHeight, 1
	g.View.Shadows, g.View.Occlusion = false, false
	g.View.Water = share
	img := renderFrame(g, false)
	r := newRef(g)
	slope := float32(vs / (size - 1))
	n := mgl32.Vec3{-slope, 1, 0}.Normalize()
	light := r.light(n, 1, 1)
	level := share * vs
	wet, dry := 0, 0
	for px := 20; px < testW; px += 37 {
		for py := 0; py < testH; py++ {
			p := onRamp(g, px, py, slope)
			if p[0] < 2 || p[0] > size-3 || p[2] < 2 || p[2] > size-3 || math.Abs(float64(p[1])-level) < 0.02 {
				continue
			}
			col, seen := r.shaded([4]float64{1, 0, 0, 0}, noTint, light), p
			if float64(p[1]) < level {
				col, seen = r.water(p, col, level, waterDepthShare*vs)
				wet++
			} else {
				dry++
			}
			if !check(t, img, px, py, r.finish(col, seen), shadeTol, fmt.Sprintf("ground %.2f, water at %.2f", p[1], level)) {
				return
			}
		}
	}
	t.Logf("%d pixels under water, %d above", wet, dry)
	if wet < 300 || dry < 300 {
		t.Fatalf("%d pixels under water, %d above: the view misses the shore", wet, dry)
	}
}

// Beyond the map the ground goes on: looking out past an edge from over
// the map, every pixel below the horizon shows ground (or sea), none the
// sky, and the ground far out fades into the sky's colour at the horizon.
func TestGroundReachesTheHorizon(t *testing.T) {
	needLoop(t)
	for _, water := range []float32{0, 0.3} {
		g := newTestGame(t, testWorld(t, 257))
		g.View.Water = water
		g.Camera.Mode = Fly
		g.Camera.Pos = mgl32.Vec3{900, 300, 512}
		g.Camera.Yaw, g.Camera.Pitch = 0, mgl32.DegToRad(-10) // towards +x, the east edge at x = 1025
		full := renderFrame(g, false)
		sky := renderFrame(g, true)
		// Rows whose rays dip below level by more than 0.03 (ground within
		// ten map widths) must all differ from the sky; those that dip by
		// less than 0.004 (beyond 75 km, where the plane fades out) match it.
		ground, far := -1, image.Rectangle{}
		for py := 0; py < testH; py++ {
			_, d := ray(g, testW/2, py)
			if d[1] < 0 && d[1] > -0.004 {
				far = far.Union(image.Rect(0, py, testW, py+1))
			}
			if d[1] < -0.03 && ground < 0 {
				ground = py
			}
		}
		if ground < 0 || ground > testH-50 || far.Empty() {
			t.Fatalf("water %v: the view shows too little ground (from row %d)", water, ground)
		}
		// (A pixel of sea that mirrors the sky may match it: one in
		// fifty thousand is let through.)
		if n, total := differing(full, sky, image.Rect(0, ground, testW, testH), 2); total-n > total/50000 {
			t.Errorf("water %v: %d of %d pixels below the horizon show the sky", water, total-n, total)
		}
		if n, total := differing(full, sky, far, 6); n > 0 {
			t.Errorf("water %v: at the horizon %d of %d pixels stand out from the sky", water, n, total)
		}
	}
}

// At dusk the light reddens: the sun's light on the ground and the sky
// near the horizon on the sun's side turn warm, the side away from it
// less; with the sun high nothing changes.
func TestDuskWarmsTheSkyAndTheLight(t *testing.T) {
	v := DefaultViewer()
	v.SunElevation = 90
	if l := lightOf(&v); l.sun != v.SunColor {
		t.Errorf("sun at %v°: light %+v, want the view's own colours", v.SunElevation, l)
	}
	v.SunElevation = 4
	low := lightOf(&v)
	if !(low.sun[1]/low.sun[0] < 0.6*v.SunColor[1]/v.SunColor[0]) || !(low.airSun[2] < 0.3*low.airSun[0]) {
		t.Errorf("sun at 4°: sun light %v (high sun %v), on the air %v: want redder light", low.sun, v.SunColor, low.airSun)
	}

	needLoop(t)
	g := newTestGame(t, testWorld(t, 257))
	g.Camera.Mode = Fly
	g.Camera.Pos = mgl32.Vec3{512, 600, 512}
	warmth := func(az float32) float64 {
		g.View.SunAzimuth = az
		g.Camera.Yaw, g.Camera.Pitch = 0, mgl32.DegToRad(2) // towards +x, just above the horizon
		img := renderFrame(g, true)
		c := img.RGBAAt(testW/2+150, testH/2) // beside the sun, not on its disc
		return float64(c.R) - float64(c.B)
	}
	g.View.SunElevation = 4
	towards, away := warmth(0), warmth(180)
	g.View.SunElevation = 50
	noon := warmth(0)
	if !(towards > away+20 && towards > noon+20) {
		t.Errorf("red minus blue at the horizon: %.0f towards a low sun, %.0f away from it, %.0f towards a high one", towards, away, noon)
	}
}

// lightFootprintTest is the shader's lightFootprint: how many pixels a
// texel of the light map's level read spans.
const lightFootprintTest = 2.0

// edgeBandTest is the width in samples of the band along a 129² map's
// edges where the shader reads the light at the land beyond's level:
// the shader's edge band, a 32nd of the map's side.
const edgeBandTest = 129.0 / 32
