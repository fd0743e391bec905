package game

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"cordillera/assets"
	"cordillera/terrain"
)

// Tests of the texture filtering that keeps distant ground from
// shimmering and the repeat of the textures from showing: the mip level
// the terrain shader picks, the mip chain's effect on a moving camera,
// and the second, turned sampling that hides the tiles.

// levelGround is a size² map at height 0, cell size 1.
func levelGround(size int) *terrain.Heightmap {
	m := terrain.NewHeightmap(size, size)
	m.VerticalScale = 50
	return m
}

// levelGrey is the grey of mip level k in the level-coded atlas: base at
// level 0, step more per level, so that a trilinear blend of two levels
// reads back as the fractional level.
func levelGrey(k float64, detail bool) float64 {
	if detail {
		return 60 + 15*k
	}
	return 20 + 25*k
}

// levelAtlas is an atlas whose every mip level is flat: the colour
// textures' (detail false) or the detail maps' (detail true) in the grey
// levelGrey(k), the others neutral (grey 128, which the detail adds as
// nothing).
func levelAtlas(detail bool) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, assets.AtlasWidth, assets.AtlasHeight))
	for _, m := range assets.Materials {
		for k := 0; k < assets.MipLevels; k++ {
			c := uint8(levelGrey(float64(k), detail))
			fill(img, assets.MipRect(m, detail, k), color.RGBA{c, c, c, 255})
			fill(img, assets.MipRect(m, !detail, k), color.RGBA{128, 128, 128, 255})
		}
	}
	return img
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

// plainView strips g's look to the material's texture alone: one band,
// unlit, no detail maps, shadows, anti-aliasing, tile breaking or aerial
// perspective (restored at the test's end), so that a pixel is the
// texture's filtered colour.
func plainView(t *testing.T, g *Game) {
	v := &g.View
	v.Texturing, v.MaterialCount, v.BandMaterials = ByHeight, 1, [4]int{1, 1, 1, 1}
	v.DetailMaps, v.Shadows, v.Occlusion, v.Lighting = false, false, false, false
	v.Antialias, v.BreakTiling, v.Triplanar = false, false, false
	v.FogDensity = 0
	saved := airDensity
	airDensity = 0
	t.Cleanup(func() { airDensity = saved })
}

// groundUV is where the ray of pixel centre (px, py) meets the ground
// y = 0, in texture repeats (world over map width, times the tiling);
// ok is false where the ray misses the ground ahead.
func groundUV(g *Game, px, py float64, extent float64) (uv mgl32.Vec2, ok bool) {
	inv := viewProjection(g.Camera, testW, testH).Inv()
	x := float32(2*px/testW - 1)
	y := float32(1 - 2*py/testH)
	near := inv.Mul4x1(mgl32.Vec4{x, y, -1, 1})
	far := inv.Mul4x1(mgl32.Vec4{x, y, 1, 1})
	a := near.Vec3().Mul(1 / near[3])
	d := far.Vec3().Mul(1 / far[3]).Sub(a)
	if d[1] >= 0 {
		return uv, false
	}
	p := a.Add(d.Mul(-a[1] / d[1]))
	s := g.View.Tiling / float32(extent)
	return mgl32.Vec2{p[0] * s, p[2] * s}, true
}

// expectedLevel is the mip level of the OpenGL rule at pixel (px, py):
// log2 of the texels of level 0 that one pixel step spans along the
// screen axis where it spans most, worked out from the rays of the
// pixel and its neighbours.
func expectedLevel(g *Game, px, py int, extent float64) (float64, bool) {
	c, ok0 := groundUV(g, float64(px)+0.5, float64(py)+0.5, extent)
	r, ok1 := groundUV(g, float64(px)+1.5, float64(py)+0.5, extent)
	d, ok2 := groundUV(g, float64(px)+0.5, float64(py)+1.5, extent)
	if !ok0 || !ok1 || !ok2 {
		return 0, false
	}
	dx := r.Sub(c).Len() * assets.TextureSize
	dy := d.Sub(c).Len() * assets.TextureSize
	return math.Log2(float64(max(dx, dy))), true
}

// The terrain shader picks the mip level the pixel's footprint asks for,
// for the colour textures and the detail maps alike: on flat ground seen
// at a grazing angle the level read back from a level-coded atlas grows
// from the near rows to the far ones and agrees with the OpenGL rule
// worked out on the CPU, blending smoothly between levels (the nearest
// level alone would be off by up to half a level, and its steps show as
// contour rings).
func TestMipLevelGrowsWithDistance(t *testing.T) {
	for _, detail := range []bool{false, true} {
		name := "texture"
		if detail {
			name = "detail map"
		}
		t.Run(name, func(t *testing.T) { testMipLevel(t, detail) })
	}
}

func testMipLevel(t *testing.T, detail bool) {
	needLoop(t)
	const size = 257
	g := newTestGame(t, NewWorld(levelGround(size)))
	onLoop(func() { g.render.setAtlas(levelAtlas(detail)) })
	plainView(t, g)
	g.View.Tiling = 64
	if detail {
		// The detail map at the same tiling, never fading: a pixel is
		// 128 + its grey − 127.5.
		g.View.DetailMaps, g.View.DetailTiling, g.View.DetailDist = true, 64, 1e7
	}
	g.Camera.Mode = Fly
	g.Camera.Pos = mgl32.Vec3{128, 4, 10}
	g.Camera.Yaw, g.Camera.Pitch = mgl32.DegToRad(90), mgl32.DegToRad(-12)
	img := renderFrame(g, false)
	extent, _ := g.World.Map.Extent()

	px := testW / 2
	prev, checked, spread := -1.0, 0, [2]float64{math.Inf(1), math.Inf(-1)}
	for py := testH - 1; py >= 0; py-- {
		want, ok := expectedLevel(g, px, py, extent)
		if !ok || want < 0.3 || want > float64(assets.MipLevels)-1.3 {
			continue // the level is clamped there
		}
		if uv, _ := groundUV(g, float64(px)+0.5, float64(py)+0.5, extent); uv[1]*float32(extent)/g.View.Tiling > float32(extent)-2 {
			break // the far edge of the map
		}
		grey := float64(img.RGBAAt(px, py).R)
		if detail {
			grey -= 0.5
		}
		got := (grey - levelGrey(0, detail)) / (levelGrey(1, detail) - levelGrey(0, detail))
		if math.Abs(got-want) > 0.35 {
			t.Errorf("row %d: the shader chose mip level %.2f, the footprint asks for %.2f", py, got, want)
		}
		if got < prev-0.1 {
			t.Errorf("row %d: mip level %.2f, lower than %.2f in the nearer row below", py, got, prev)
		}
		prev = max(prev, got)
		spread[0], spread[1] = min(spread[0], got), max(spread[1], got)
		checked++
	}
	t.Logf("%d rows checked, levels %.2f to %.2f", checked, spread[0], spread[1])
	if checked < 50 || spread[1]-spread[0] < 3 {
		t.Fatalf("%d rows checked over levels %.2f to %.2f: the view misses the ground", checked, spread[0], spread[1])
	}
}

// decimatedAtlas is atlas with every mip level taken by point sampling
// from level 0 instead of box filtering: what the shader would show
// without a prefiltered mip chain.
func decimatedAtlas(atlas *image.RGBA) *image.RGBA {
	out := image.NewRGBA(atlas.Bounds())
	copy(out.Pix, atlas.Pix)
	for _, m := range assets.Materials {
		for _, detail := range []bool{false, true} {
			base := assets.MipRect(m, detail, 0)
			for k := 1; k < assets.MipLevels; k++ {
				r := assets.MipRect(m, detail, k)
				for y := 0; y < r.Dy(); y++ {
					for x := 0; x < r.Dx(); x++ {
						out.SetRGBA(r.Min.X+x, r.Min.Y+y, atlas.RGBAAt(base.Min.X+x<<k, base.Min.Y+y<<k))
					}
				}
			}
		}
	}
	return out
}

// shimmer renders g twice, the camera turned by a tenth of a pixel in
// between, and returns the mean absolute difference of the channels over
// the ground in the far half of the terrain (rows from the horizon to
// halfway down the frame): how much distant ground flickers as the view
// moves. Where the texture is filtered to the pixel's footprint, a
// tenth-pixel move changes each pixel by a tenth of a neighbour
// difference; where it aliases, the texels a pixel lands on change.
func shimmer(g *Game) float64 {
	a := renderFrame(g, false)
	yaw := g.Camera.Yaw
	g.Camera.Yaw += 0.1 * g.Camera.FovY / testH
	b := renderFrame(g, false)
	g.Camera.Yaw = yaw
	sky := renderFrame(g, true)
	var sum float64
	n := 0
	for y := 0; y < testH/2; y++ {
		for x := 0; x < testW; x++ {
			if sameColour(a.RGBAAt(x, y), sky.RGBAAt(x, y), 3) {
				continue
			}
			i := a.PixOffset(x, y)
			for c := 0; c < 3; c++ {
				sum += math.Abs(float64(a.Pix[i+c]) - float64(b.Pix[i+c]))
			}
			n += 3
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

func sameColour(a, b color.RGBA, tol int) bool {
	d := func(x, y uint8) bool { return int(x)-int(y) <= tol && int(y)-int(x) <= tol }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B)
}

// The mip chain keeps distant textured ground from shimmering: looking
// across the default world from low down, a turn of a tenth of a pixel
// changes the far half of the frame far less with the box-filtered mip
// levels of the atlas than with levels point-sampled from the full-size
// textures (no prefilter), and anti-aliasing lowers it further.
func TestMipChainStopsShimmer(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 257))
	plainView(t, g)
	g.View.Tiling = 96
	lowView(g.Camera, g.World.Map)
	atlas, err := assets.Atlas()
	if err != nil {
		t.Fatal(err)
	}
	onLoop(func() { g.render.setAtlas(decimatedAtlas(atlas)) })
	aliased := shimmer(g)
	onLoop(func() { g.render.setAtlas(atlas) })
	filtered := shimmer(g)
	g.View.Antialias = true
	smoothed := shimmer(g)
	t.Logf("mean change of the far half for a tenth-pixel turn: %.2f levels without a prefilter, %.2f with the mip chain, %.2f with anti-aliasing too", aliased, filtered, smoothed)
	if !(filtered < 0.6*aliased) {
		t.Errorf("a tenth-pixel turn changes the far ground by %.2f levels with the mip chain, %.2f without: want well under that", filtered, aliased)
	}
}

// tileCorrelation is the correlation of the frame's green channel with
// itself shifted by period pixels along x, over the whole frame: 1 where
// the ground repeats every period pixels.
func tileCorrelation(img *image.RGBA, period int) float64 {
	var sa, sb, saa, sbb, sab, n float64
	for y := 0; y < testH; y++ {
		for x := 0; x+period < testW; x++ {
			a, b := float64(img.RGBAAt(x, y).G), float64(img.RGBAAt(x+period, y).G)
			sa, sb, saa, sbb, sab = sa+a, sb+b, saa+a*a, sbb+b*b, sab+a*b
			n++
		}
	}
	cov := sab/n - sa/n*sb/n
	return cov / math.Sqrt((saa/n-sa/n*sa/n)*(sbb/n-sb/n*sb/n))
}

// Breaking the tiling: seen straight down on flat ground, where the
// grass texture repeats every 64 pixels, the frame shifted by one tile
// matches itself (correlation near 1) with BreakTiling off and no longer
// does with it on; the texture keeps its contrast.
func TestBreakTilingHidesTheRepeat(t *testing.T) {
	needLoop(t)
	const size, period = 129, 64
	g := newTestGame(t, NewWorld(levelGround(size)))
	plainView(t, g)
	g.View.Tiling = 16 // a tile is 8 world units
	// The camera's height that makes a tile period pixels wide.
	h := 8 * testH / (2 * math.Tan(float64(g.Camera.FovY)/2) * period)
	topDown(g, 64, float32(h), 64)
	var corr [2]float64
	var contrast [2]float64
	for i, on := range []bool{false, true} {
		g.View.BreakTiling = on
		img := renderFrame(g, false)
		corr[i] = tileCorrelation(img, period)
		contrast[i] = stdDevGreen(img)
	}
	t.Logf("correlation over one tile: %.3f plain, %.3f with the repeat hidden; contrast (std. dev. of green) %.1f, %.1f", corr[0], corr[1], contrast[0], contrast[1])
	if corr[0] < 0.9 {
		t.Fatalf("plain tiling: correlation %.3f over one tile, want near 1: the view does not show the repeat", corr[0])
	}
	if corr[1] > 0.5 {
		t.Errorf("with the repeat hidden the frame still matches itself a tile away: correlation %.3f", corr[1])
	}
	if contrast[1] < 0.8*contrast[0] {
		t.Errorf("hiding the repeat washed the texture out: contrast %.1f against %.1f", contrast[1], contrast[0])
	}
}

func stdDevGreen(img *image.RGBA) float64 {
	var s, ss, n float64
	for y := 0; y < testH; y++ {
		for x := 0; x < testW; x++ {
			v := float64(img.RGBAAt(x, y).G)
			s, ss, n = s+v, ss+v*v, n+1
		}
	}
	return math.Sqrt(ss/n - s/n*s/n)
}
