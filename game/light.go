package game

import (
	"context"
	"math"
	"runtime"
	"sync"

	"cordillera/internal/parallel"
	"cordillera/terrain"
	"cordillera/terrain/light"
)

// Lighter computes a world's light map — the sun's visibility (heightfield
// shadows) and the sky's (ambient occlusion) at every sample — on a
// background goroutine, so that moving the sun never stalls a frame. The
// latest request wins: a request for another world cancels older work; a
// request for a new sun on the same world lets the running sweep finish
// (about 150 ms at 1025²) and then starts from the newest sun, so a
// dragged sun slider shows shadows following it several times a second.
//
// The occlusion is made once per world, the horizon along the sun's
// azimuth once per azimuth; a change of elevation alone only re-reads the
// horizon.
type Lighter struct {
	mu      sync.Mutex
	want    lightKey // the newest request
	running bool
	cancel  context.CancelFunc
	ready   *LightMap // the newest finished map, until taken
	done    lightKey  // what the newest finished (or taken) map shows
	wg      sync.WaitGroup

	// The worker's state: only the one running job touches it.
	aoWorld   *World
	ao        []float32
	horWorld  *World
	horAz     float32
	horizon   []float32
	workspace light.Workspace
	outside   outsideLightState
}

// lightKey is what a light map depends on.
type lightKey struct {
	world              *World
	elevation, azimuth float32 // degrees
	penumbra           float32 // degrees
	shadows, occlusion bool
	// The land beyond the map, faded towards level, or nil (outside_light.go).
	outside *terrain.Outside
	level   float32
}

// LightMap is a world's light, one texel per sample of Map (the world's
// map or, for maps over maxLightSide, a coarser copy) in its top-left
// MapWidth × MapHeight texels: R the sun's visibility, G the sky's, both
// 0–255, B and A the normal's x and z. Where the world has land beyond
// the map, the Outside.Side² texels below them hold that land's light
// the same way (B and A the coarse field's normal, which covers the map
// too); below all of them, from row LevelsY, the
// map's texels at coarser levels (lightLevels).
type LightMap struct {
	key                 lightKey
	Width, Height       int // the image's size
	MapWidth, MapHeight int
	Outside             *OutsideLight
	// LevelsY is the row of the map's coarser levels (lightLevels).
	LevelsY int
	// SlopeSpread is the map's slopes' spread and how it falls with the
	// level (slopeSpread).
	SlopeSpread [2]float32
	Pix         []byte
}

// maxLightSide bounds the light map's side; larger maps are lit from a
// coarser copy.
const maxLightSide = 2049

// lightKeyOf is what the view asks of the world's light.
func lightKeyOf(w *World, v *Viewer) lightKey {
	k := lightKey{world: w, elevation: v.SunElevation, azimuth: v.SunAzimuth, penumbra: v.Penumbra,
		shadows: v.Shadows, occlusion: v.Occlusion}
	if w != nil && w.Map != nil {
		if k.outside = outsideOf(v, w); k.outside != nil {
			k.level = horizonLevel(v, w.Map)
		}
	}
	return k
}

// Request asks for the light of world w under the view's sun; repeating
// the newest request does nothing.
func (l *Lighter) Request(w *World, v *Viewer) {
	k := lightKeyOf(w, v)
	l.mu.Lock()
	defer l.mu.Unlock()
	if k == l.want {
		return
	}
	worldChanged := k.world != l.want.world
	l.want = k
	if l.running {
		if worldChanged && l.cancel != nil {
			l.cancel()
		}
		return // the running job starts the newest request when it ends
	}
	l.startLocked()
}

// startLocked runs the newest request on a new goroutine; l.mu is held.
func (l *Lighter) startLocked() {
	k := l.want
	ctx, cancel := context.WithCancel(parallel.WithWorkers(context.Background(), max(runtime.GOMAXPROCS(0)-1, 1)))
	l.running, l.cancel = true, cancel
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		defer cancel()
		lm := l.compute(ctx, k)
		l.mu.Lock()
		defer l.mu.Unlock()
		if lm != nil {
			l.ready, l.done = lm, k
		}
		l.running, l.cancel = false, nil
		if l.want != k && l.want != l.done {
			l.startLocked()
		}
	}()
}

// Take returns the newest finished light map once (nil if none is new).
func (l *Lighter) Take() *LightMap {
	l.mu.Lock()
	defer l.mu.Unlock()
	lm := l.ready
	l.ready = nil
	return lm
}

// Pending reports whether the newest request is still being worked on.
func (l *Lighter) Pending() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.want.world != nil && l.want != l.done
}

// Close cancels the work under way and waits for it.
func (l *Lighter) Close() {
	l.mu.Lock()
	if l.cancel != nil {
		l.cancel()
	}
	l.want = l.done
	l.mu.Unlock()
	l.wg.Wait()
}

// compute makes the light map of k, or nil if ctx was cancelled.
func (l *Lighter) compute(ctx context.Context, k lightKey) *LightMap {
	m := lightSource(k.world.Map)
	n := len(m.Samples)
	if k.occlusion && l.aoWorld != k.world {
		l.ao = grow(l.ao, n)
		if light.Occlusion(ctx, m, light.DefaultDirections, l.ao, &l.workspace) != nil {
			l.aoWorld = nil
			return nil
		}
		l.aoWorld = k.world
	}
	if k.shadows && (l.horWorld != k.world || l.horAz != k.azimuth) {
		l.horizon = grow(l.horizon, n)
		if light.Horizon(ctx, m, float64(k.azimuth)*math.Pi/180, l.horizon, &l.workspace) != nil {
			l.horWorld = nil
			return nil
		}
		l.horWorld, l.horAz = k.world, k.azimuth
	}
	lm := &LightMap{key: k, Width: m.Width, Height: m.Height, MapWidth: m.Width, MapHeight: m.Height}
	var vis []float32
	if k.shadows {
		vis = make([]float32, n)
		light.SunVisibility(l.horizon, float64(k.elevation), float64(max(k.penumbra, 0.1)), vis)
	}
	var ao []float32
	if k.occlusion {
		ao = l.ao
	}
	var outSun, outSky, outNormals []float32
	if k.outside != nil {
		g, sun, sky, ok := l.outside.compute(ctx, k, &l.workspace)
		if !ok {
			return nil
		}
		lm.Outside, outSun, outSky = &g, sun, sky
		outNormals = l.outside.normals
		lm.Width, lm.Height = max(lm.Width, g.Side), lm.Height+g.Side
	}
	// The map's normals for its coarser levels (the map's own where the
	// light has every sample).
	normals := k.world.Normals
	if len(normals) != 3*n {
		var err error
		if normals, err = terrain.NormalsContext(ctx, m); err != nil {
			return nil
		}
	}
	lm.LevelsY = lm.Height
	lm.Height += lightLevelsHeight(m.Height)
	lm.Width = max(lm.Width, lightLevelsWidth(m.Width))
	lm.Pix = make([]byte, 4*lm.Width*lm.Height)
	put := func(x, y int, sun, sky []float32, i int) {
		p := lm.Pix[4*(y*lm.Width+x) : 4*(y*lm.Width+x)+4]
		p[0], p[1], p[3] = 255, 255, 255
		if sun != nil {
			p[0] = uint8(sun[i]*255 + 0.5)
		}
		if sky != nil {
			p[1] = uint8(sky[i]*255 + 0.5)
		}
	}
	for i := 0; i < n; i++ {
		put(i%m.Width, i/m.Width, vis, ao, i)
		p := lm.Pix[4*((i/m.Width)*lm.Width+i%m.Width):]
		p[2], p[3] = unitByte(normals[3*i]), unitByte(normals[3*i+2])
	}
	lightLevels(lm.Pix, lm.Width, m.Width, m.Height, lm.LevelsY)
	lm.SlopeSpread = slopeSpread(lm.Pix, lm.Width, m.Width, m.Height, lm.LevelsY)
	if g := lm.Outside; g != nil {
		for i := 0; i < g.Side*g.Side; i++ {
			put(i%g.Side, m.Height+i/g.Side, outSun, outSky, i)
			p := lm.Pix[4*((m.Height+i/g.Side)*lm.Width+i%g.Side):]
			p[2], p[3] = unitByte(outNormals[3*i]), unitByte(outNormals[3*i+2])
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	return lm
}

// lightSource is the map the light is computed on: m itself, or every
// k-th sample of it where m is larger than maxLightSide.
func lightSource(m *terrain.Heightmap) *terrain.Heightmap {
	k := 1
	for (max(m.Width, m.Height)-1)/k+1 > maxLightSide {
		k *= 2
	}
	return m.Every(k)
}

// defaultSnowLatitude is the latitude, in degrees, whose climate snow
// line worlds without one of their own get: the Alps' (Mont Blanc lies at
// 45.8° N), about 2800 m.
const defaultSnowLatitude = 46

// metricSnowLine is the snow line, as a share of m's height range, of a
// world whose heights are metres above the sea (a generated world's, a
// loaded heightmap's): the climate's snow line at defaultSnowLatitude. A
// few hundred metres of hills get none; a 4 km range is white above
// 2800 m.
func metricSnowLine(m *terrain.Heightmap) float32 {
	share := climateSnowLine(defaultSnowLatitude) / m.VerticalScale
	if math.IsNaN(share) || !(m.VerticalScale > 0) {
		return maxSnowLine
	}
	return float32(math.Min(math.Max(share, 0), maxSnowLine))
}

// The map's light and normals at coarser scales. Seen from afar a pixel
// spans many of the map's samples; sampled at one point, the light map's
// shadows and occlusion and the map's one-sample normals alias into a fine
// speckle that the land beyond the map, whose cells are 16 samples and
// more wide, does not have, and the map's square stands out as a denser
// patch. So the light image carries box-filtered levels of the map's
// texels (a mip chain: level k is ⌈W/2^k⌉ × ⌈H/2^k⌉ texels, each the mean
// of a 2×2 block of level k−1's), side by side in one row of height
// ⌈H/2⌉ below the map's texels and the land beyond's, level 1 at x 0 and
// each next level to the right of the one before; the shader filters the
// light and the normal to the pixel's footprint on the ground from them.
// Each texel holds the sun's visibility (R), the sky's (G) and the mean
// normal's x and z (B, A; (n+1)/2), whose length below 1 flattens the
// mean normal, as the relief it averages looks flatter from afar.
//
// lightMaxLevel is the coarsest level: 2^7 samples a texel, past the
// land beyond's coarse light and cells.
const lightMaxLevel = 7

// lightLevelsHeight is the height of the row of coarser levels of a map
// h texels high.
func lightLevelsHeight(h int) int { return (h + 1) / 2 }

// lightLevelsWidth is the width of the row of coarser levels of a map w
// texels wide.
func lightLevelsWidth(w int) int {
	sum := 0
	for range lightMaxLevel {
		w = (w + 1) / 2
		sum += w
	}
	return sum
}

// slopeSpread is the spread of the map's slopes, σ0, the root-mean-square
// tangent of its one-sample slopes, and the exponent β with which it falls
// as the slopes are averaged over coarser boxes: the mean normals of level
// k (lightLevels) have a spread of about σ0·2^−βk, β fitted by least
// squares over the levels with at least 16 texels. The materials by
// rules choose rock by a slope: read from a normal averaged over 2^k
// samples (the land beyond's cells, whose slopes are boxes of 8 and more
// samples) it lacks the spread of the finer slopes, and the shader adds
// it back as noise (terrain.kage's SlopeSpread). Zeros for a map too
// small or too flat to tell.
func slopeSpread(pix []byte, stride, w, h, y int) [2]float32 {
	rms := func(x0, y0, lw, lh int) float64 {
		var sum float64
		for j := range lh {
			for i := range lw {
				o := 4 * ((y0+j)*stride + x0 + i)
				nx, nz := float64(pix[o+2])/127.5-1, float64(pix[o+3])/127.5-1
				ny := math.Sqrt(max(1-nx*nx-nz*nz, 1e-4))
				sum += (nx*nx + nz*nz) / (ny * ny)
			}
		}
		return math.Sqrt(sum / float64(lw*lh))
	}
	base := rms(0, 0, w, h)
	if !(base > 1e-3) {
		return [2]float32{}
	}
	var sxy, sxx float64
	x, lw, lh := 0, w, h
	for k := 1; k <= lightMaxLevel; k++ {
		lw, lh = (lw+1)/2, (lh+1)/2
		if lw*lh < 16 {
			break
		}
		r := rms(x, y, lw, lh)
		x += lw
		if !(r > 1e-4) {
			break
		}
		l := math.Log2(base / r)
		sxy += float64(k) * l
		sxx += float64(k * k)
	}
	if sxx == 0 {
		return [2]float32{}
	}
	return [2]float32{float32(base), float32(min(max(sxy/sxx, 0), 1))}
}

// unitByte encodes x in −1 … 1 as a byte.
func unitByte(x float32) uint8 { return uint8(min(max(x*0.5+0.5, 0), 1)*255 + 0.5) }

// lightLevels fills the coarser levels of the w×h map texels at the top
// left of pix (an image stride texels wide) into the row at y.
func lightLevels(pix []byte, stride, w, h, y int) {
	// Level k−1 lies at (px, py), pw×ph texels.
	px, py, pw, ph := 0, 0, w, h
	x := 0
	for range lightMaxLevel {
		if pw < 2 && ph < 2 {
			return
		}
		nw, nh := (pw+1)/2, (ph+1)/2
		for j := range nh {
			for i := range nw {
				var sum [4]int
				for dj := range 2 {
					for di := range 2 {
						si, sj := min(2*i+di, pw-1), min(2*j+dj, ph-1)
						o := 4 * ((py+sj)*stride + px + si)
						for c := range 4 {
							sum[c] += int(pix[o+c])
						}
					}
				}
				o := 4 * ((y+j)*stride + x + i)
				for c := range 4 {
					pix[o+c] = uint8((sum[c] + 2) / 4)
				}
			}
		}
		px, py, pw, ph = x, y, nw, nh
		x += nw
	}
}
