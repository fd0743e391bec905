package assets

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"testing"
)

// The fast conversions of the atlas build against their straightforward
// versions: toRGBA against a loop over At and color.RGBAModel, encode
// against its formula, and the whole atlas built both ways.

// toRGBASlow is toRGBA as it was first written: one pixel at a time.
func toRGBASlow(img image.Image) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := range b.Dy() {
		for x := range b.Dx() {
			c := color.RGBAModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.RGBA)
			c.A = 255
			out.SetRGBA(x, y, c)
		}
	}
	return out
}

// toRGBA gives what the per-pixel loop gives for every image type the PNG
// decoder makes, translucent ones and bounds away from the origin included.
func TestToRGBAMatchesPerPixel(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	r := image.Rect(3, -2, 40, 31)
	pal := color.Palette{}
	for range 17 {
		pal = append(pal, color.NRGBA{uint8(rng.Uint32()), uint8(rng.Uint32()), uint8(rng.Uint32()), uint8(rng.Uint32())})
	}
	imgs := map[string]image.Image{
		"NRGBA": image.NewNRGBA(r), "RGBA": image.NewRGBA(r), "NRGBA64": image.NewNRGBA64(r), "RGBA64": image.NewRGBA64(r),
		"Gray": image.NewGray(r), "Gray16": image.NewGray16(r), "Paletted": image.NewPaletted(r, pal),
	}
	for name, img := range imgs {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				c := color.NRGBA64{uint16(rng.Uint32()), uint16(rng.Uint32()), uint16(rng.Uint32()), uint16(rng.Uint32())}
				if name == "RGBA" || name == "RGBA64" { // premultiplied: no channel above alpha
					c.R, c.G, c.B = min(c.R, c.A), min(c.G, c.A), min(c.B, c.A)
					img.(interface{ Set(int, int, color.Color) }).Set(x, y, color.RGBA64(c))
					continue
				}
				img.(interface{ Set(int, int, color.Color) }).Set(x, y, c)
			}
		}
		if n := countDiff(toRGBA(img), toRGBASlow(img)); n > 0 {
			t.Errorf("%s: %d pixels differ from the per-pixel conversion", name, n)
		}
	}
	for _, m := range Materials {
		for _, file := range []string{m.TextureFile(), m.DetailFile()} {
			b, _ := files.ReadFile("materials/" + file)
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if n := countDiff(toRGBA(img), toRGBASlow(img)); n > 0 {
				t.Errorf("%s: %d pixels differ from the per-pixel conversion", file, n)
			}
		}
	}
}

// encode is its formula, on both sides of every threshold, at 0 and 1, on
// the averages the mip chain forms and on random values.
func TestEncodeMatchesFormula(t *testing.T) {
	check := func(l float64) {
		if got, want := encode(l), encodeFormula(l); got != want {
			t.Fatalf("encode(%v) = %d; the formula gives %d", l, got, want)
		}
	}
	check(0)
	check(1)
	for _, th := range encodeFrom {
		check(th)
		check(math.Nextafter(th, 0))
		check(math.Nextafter(th, 1))
	}
	for a := range 256 {
		for b := range 256 {
			check((decode[a] + decode[b] + decode[a] + decode[b]) / 4)
			check((decode[a] + decode[b] + decode[b] + decode[b]) / 4)
		}
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 200000 {
		check((decode[rng.IntN(256)] + decode[rng.IntN(256)] + decode[rng.IntN(256)] + decode[rng.IntN(256)]) / 4)
		check(rng.Float64())
	}
}

// The colour mip chains of every material are those the formula gives.
func TestMipChainMatchesFormula(t *testing.T) {
	for _, m := range Materials {
		tex, err := Texture(m)
		if err != nil {
			t.Fatal(err)
		}
		fast := MipChain(tex, true)
		cur := tex
		for k := 1; k < len(fast); k++ {
			s := cur.Bounds().Dx() / 2
			next := image.NewRGBA(image.Rect(0, 0, s, s))
			for y := range s {
				for x := range s {
					for c := range 3 {
						sum := decode[cur.Pix[cur.PixOffset(2*x, 2*y)+c]] + decode[cur.Pix[cur.PixOffset(2*x+1, 2*y)+c]] +
							decode[cur.Pix[cur.PixOffset(2*x, 2*y+1)+c]] + decode[cur.Pix[cur.PixOffset(2*x+1, 2*y+1)+c]]
						next.Pix[next.PixOffset(x, y)+c] = encodeFormula(sum / 4)
					}
					next.Pix[next.PixOffset(x, y)+3] = 255
				}
			}
			if n := countDiff(fast[k], next); n > 0 {
				t.Errorf("%v level %d: %d pixels differ from the formula's", m, k, n)
			}
			cur = next
		}
	}
}
