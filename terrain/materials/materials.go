// Package materials computes which of the explorer's four materials —
// sand, grass, rock, snow — cover each point of a heightmap, in plain Go:
// the automatic texturing by height of thesis section 5.2 (listings 5.2 and
// 5.3), ported from the terrain shader (shaders/terrain.kage,
// selectMaterial) so that files made from a map (splat maps, baked
// textures) agree with what the explorer draws in its height mode. The
// shader's other modes (slope, paper 001's colour scheme) and its lighting
// are not ported.
package materials

import (
	"context"
	"cordillera/assets"
	"cordillera/terrain"
	"fmt"
	"image"
	"image/color"
	"math"
)

// Count is the number of materials.
const Count = assets.MaterialCount

// Rule is thesis listing 5.3's material choice: material i covers
// attribute values up to Boundaries[i], blended with material i−1 over
// Blend above Boundaries[i−1]. The attribute is the height's share of the
// map's height range (thesis listing 5.2, height mode).
type Rule struct {
	Boundaries [Count]float32 // upper end of each material's range, ascending, in [0, 1]
	Blend      float32        // smoothstep width at each boundary; thesis 0.05
}

// DefaultRule is the explorer's default height texturing (game.DefaultViewer):
// sand to 12 % of the height range, grass to 50 %, rock to 78 %, snow above.
var DefaultRule = Rule{Boundaries: [Count]float32{0.12, 0.5, 0.78, 1}, Blend: 0.05}

// smoothstep is GLSL's smoothstep(e0, e1, x).
func smoothstep(e0, e1, x float32) float32 {
	t := min(max((x-e0)/(e1-e0), 0), 1)
	return t * t * (3 - 2*t)
}

// Weights returns the weight of each material at attribute value val: the
// first material whose boundary is ≥ val (the last if none), mixed with
// the one below it by smoothstep(b[i−1], b[i−1]+Blend, val) within Blend
// above their boundary — the shader's selectMaterial and mix. The weights
// sum to 1.
func (r Rule) Weights(val float32) [Count]float32 {
	i := Count - 1
	for k := range Count - 1 {
		if val <= r.Boundaries[k] {
			i = k
			break
		}
	}
	var w [Count]float32
	if i == 0 {
		w[0] = 1
		return w
	}
	prev := r.Boundaries[i-1]
	if val-prev < r.Blend {
		up := smoothstep(prev, prev+r.Blend, val)
		w[i-1], w[i] = 1-up, up
		return w
	}
	w[i] = 1
	return w
}

// Splat returns the material weights of every sample of m, row-major: the
// height attribute is (h − lo)/(hi − lo) over the map's own range, as the
// explorer's HeightMin and HeightMax make it.
func Splat(m *terrain.Heightmap, r Rule) [][Count]float32 {
	sp := NewSplatter(m, r)
	out := make([][Count]float32, len(m.Samples))
	for i, h := range m.Samples {
		out[i] = sp.At(h)
	}
	return out
}

// Splatter gives the weights Splat gives, one sample at a time: writers of
// large maps use it row by row rather than hold 16 bytes a sample.
type Splatter struct {
	rule     Rule
	lo, span float32
}

// NewSplatter returns the Splatter of m's samples under rule r.
func NewSplatter(m *terrain.Heightmap, r Rule) Splatter {
	lo, hi := m.Range()
	return Splatter{rule: r, lo: lo, span: max(hi-lo, 1e-6)}
}

// At returns the material weights of a sample of height h.
func (s Splatter) At(h float32) [Count]float32 {
	return s.rule.Weights(min(max((h-s.lo)/s.span, 0), 1))
}

// MeanColours returns each material's texture averaged in linear light and
// encoded back (assets.TextureGamma): the colour the explorer shows a
// material as from afar, where its texture is filtered to one mip texel.
func MeanColours() ([Count]color.RGBA, error) {
	var out [Count]color.RGBA
	for k, mat := range assets.Materials {
		tex, err := assets.Texture(mat)
		if err != nil {
			return out, fmt.Errorf("materials: %s texture: %w", mat, err)
		}
		var sum [3]float64
		b := tex.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				p := tex.RGBAAt(x, y)
				for c, v := range [3]uint8{p.R, p.G, p.B} {
					sum[c] += math.Pow(float64(v)/255, assets.TextureGamma)
				}
			}
		}
		n := float64(b.Dx() * b.Dy())
		enc := func(l float64) uint8 { return uint8(math.Round(255 * math.Pow(l/n, 1/assets.TextureGamma))) }
		out[k] = color.RGBA{enc(sum[0]), enc(sum[1]), enc(sum[2]), 255}
	}
	return out, nil
}

// Bake returns an RGB texture of m, one texel per sample (row 0 at the
// top, the north): the materials' mean colours mixed by their weights in
// the textures' own (display-referred) values, as the shader's mix does
// before it turns colours into linear light. No lighting is baked in:
// engines light the mesh themselves.
func Bake(m *terrain.Heightmap, r Rule) (*image.RGBA, error) {
	return BakeContext(context.Background(), m, r)
}

// BakeContext is Bake that returns ctx.Err() soon after ctx is cancelled
// (it looks once a row).
func BakeContext(ctx context.Context, m *terrain.Heightmap, r Rule) (*image.RGBA, error) {
	return BakeProgress(ctx, m, r, nil)
}

// BakeProgress is BakeContext reporting to progress, if set, the fraction
// of the rows baked, 1 with the last.
func BakeProgress(ctx context.Context, m *terrain.Heightmap, r Rule, progress terrain.Progress) (*image.RGBA, error) {
	cols, err := MeanColours()
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, m.Width, m.Height))
	sp := NewSplatter(m, r)
	for i, h := range m.Samples {
		if i%m.Width == 0 {
			if progress != nil && i > 0 {
				progress(float64(i/m.Width) / float64(m.Height))
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		w := sp.At(h)
		var c [3]float32
		for k, col := range cols {
			c[0] += w[k] * float32(col.R)
			c[1] += w[k] * float32(col.G)
			c[2] += w[k] * float32(col.B)
		}
		p := img.Pix[4*i:]
		for j := range 3 {
			p[j] = uint8(min(max(math.Round(float64(c[j])), 0), 255))
		}
		p[3] = 255
	}
	if progress != nil {
		progress(1)
	}
	return img, nil
}
