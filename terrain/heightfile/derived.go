package heightfile

import (
	"cordillera/terrain"
	"cordillera/terrain/materials"
	"fmt"
	"image"
	"image/png"
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
// heightmap.
func EncodeNormalMap(w io.Writer, m *terrain.Heightmap, conv NormalConvention) error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("normal map: %w", err)
	}
	n := terrain.Normals(m)
	img := image.NewRGBA(image.Rect(0, 0, m.Width, m.Height))
	enc := func(v float32) uint8 { return uint8(math.Round(float64(min(max(v, -1), 1)+1) / 2 * 255)) }
	for i := range m.Samples {
		east, up, south := n[3*i], n[3*i+1], n[3*i+2]
		north := -south
		if conv == NormalsDirectX {
			north = south
		}
		p := img.Pix[4*i:]
		p[0], p[1], p[2], p[3] = enc(east), enc(north), enc(up), 255
	}
	if err := png.Encode(w, img); err != nil {
		return fmt.Errorf("normal map: %w", err)
	}
	return nil
}

// EncodeSplatMap writes the weights of the explorer's four materials
// (materials.Splat with rule: sand, grass, rock, snow) as an 8-bit RGBA
// PNG, one pixel per sample: R sand, G grass, B rock, A snow, rounded so
// that the four add up to 255 (the largest weight absorbs the rounding) — the layer order of a Unity alphamap or an
// Unreal weight-blended layer set.
func EncodeSplatMap(w io.Writer, m *terrain.Heightmap, rule materials.Rule) error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("splat map: %w", err)
	}
	img := image.NewNRGBA(image.Rect(0, 0, m.Width, m.Height))
	for i, wt := range materials.Splat(m, rule) {
		p := img.Pix[4*i:]
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
	if err := png.Encode(w, img); err != nil {
		return fmt.Errorf("splat map: %w", err)
	}
	return nil
}
