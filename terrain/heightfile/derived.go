package heightfile

import (
	"cordillera/terrain"
	"cordillera/terrain/materials"
	"fmt"
	"image"
	"io"
	"math"
)

// NormalConvention is how a normal map stores the north-south component.
type NormalConvention int

const (
	// NormalsOpenGL stores +Y as green up (towards row 0, the north):
	// Unity, Godot, Blender.
	NormalsOpenGL NormalConvention = iota
	// NormalsDirectX stores green down (towards the south): Unreal.
	NormalsDirectX
)

// EncodeNormalMap writes m's vertex normals (terrain.Normals, the
// explorer's and the OBJ's) as an 8-bit RGB PNG, one pixel per sample: a
// unit normal (east, north, up) becomes R = (east+1)/2, G = (±north+1)/2,
// B = (up+1)/2, each ·255 rounded, so a flat map is (128, 128, 255). The
// map is a world-space normal map of the terrain seen from above, which is
// also its tangent-space normal map for a flat plane UV-mapped like the
// heightmap. The normals are computed a band of rows at a time as the
// rows are compressed: the whole map's (12 bytes a sample) and an image of
// it are never held. progress, if set, receives the fraction of the rows
// written, 1 once the file is whole.
func EncodeNormalMap(w io.Writer, m *terrain.Heightmap, conv NormalConvention, progress terrain.Progress) error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("normal map: %w", err)
	}
	enc := func(v float32) uint8 { return uint8(math.Round(float64(min(max(v, -1), 1)+1) / 2 * 255)) }
	fill := func(r0, r1 int, dst []byte) {
		n := make([]float32, 3*m.Width*(r1-r0))
		terrain.NormalsRows(m, r0, r1, n)
		for i := range m.Width * (r1 - r0) {
			east, up, south := n[3*i], n[3*i+1], n[3*i+2]
			north := -south
			if conv == NormalsDirectX {
				north = south
			}
			dst[3*i], dst[3*i+1], dst[3*i+2] = enc(east), enc(north), enc(up)
		}
	}
	if err := writePNG(w, pngRows{width: m.Width, height: m.Height, depth: 8, colour: 2, bpp: 3, fill: fill, progress: progress}, nil); err != nil {
		return fmt.Errorf("normal map: %w", err)
	}
	return nil
}

// EncodeSplatMap writes the weights of the explorer's four materials
// (materials.Splat with rule: sand, grass, rock, snow) as an 8-bit RGBA
// PNG, one pixel per sample: R sand, G grass, B rock, A snow, rounded so
// that the four add up to 255 (the largest weight absorbs the rounding) — the layer order of a Unity alphamap or an
// Unreal weight-blended layer set. The weights are computed row by row
// as the rows are compressed, never held for the whole map (16 bytes a
// sample). progress, if set, receives the fraction of the rows written,
// 1 once the file is whole.
func EncodeSplatMap(w io.Writer, m *terrain.Heightmap, rule materials.Rule, progress terrain.Progress) error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("splat map: %w", err)
	}
	sp := materials.NewSplatter(m, rule)
	fill := func(r0, r1 int, dst []byte) {
		for i, h := range m.Samples[r0*m.Width : r1*m.Width] {
			wt := sp.At(h)
			p := dst[4*i : 4*i+4]
			sum, top := 0, 0
			for k := range materials.Count {
				p[k] = uint8(math.Round(float64(wt[k]) * 255))
				sum += int(p[k])
				if wt[k] > wt[top] {
					top = k
				}
			}
			p[top] = uint8(int(p[top]) + 255 - sum) // rounding: the largest weight takes the difference
		}
	}
	if err := writePNG(w, pngRows{width: m.Width, height: m.Height, depth: 8, colour: 6, bpp: 4, fill: fill, progress: progress}, nil); err != nil {
		return fmt.Errorf("splat map: %w", err)
	}
	return nil
}

// EncodeTexture writes an opaque img as an 8-bit RGB PNG (as image/png
// writes an opaque image, alpha left out) with writePNG's compression on
// all cores: Paeth rows at deflate's fastest level, where image/png's
// default level on one core took longer than the whole mesh a baked
// texture goes in. progress, if set, receives the fraction of the rows
// written, 1 once the file is whole. An image with a pixel that is not
// opaque is refused: its colours would need un-premultiplying.
func EncodeTexture(w io.Writer, img *image.RGBA, progress terrain.Progress) error {
	b := img.Rect
	if b.Dx() <= 0 || b.Dy() <= 0 {
		return fmt.Errorf("texture: size %d×%d must be positive", b.Dx(), b.Dy())
	}
	if !img.Opaque() {
		return fmt.Errorf("texture: not opaque")
	}
	width := b.Dx()
	fill := func(r0, r1 int, dst []byte) {
		for r := r0; r < r1; r++ {
			src := img.Pix[img.PixOffset(b.Min.X, b.Min.Y+r):]
			row := dst[3*width*(r-r0):]
			for x := range width {
				copy(row[3*x:3*x+3], src[4*x:4*x+3])
			}
		}
	}
	if err := writePNG(w, pngRows{width: width, height: b.Dy(), depth: 8, colour: 2, bpp: 3, fill: fill, progress: progress}, nil); err != nil {
		return fmt.Errorf("texture: %w", err)
	}
	return nil
}
