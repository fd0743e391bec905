package heightfile

import (
	"bytes"
	"cordillera/terrain"
	"cordillera/terrain/materials"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
)

// A plane rising to the east and to the south shows in the right channels
// for each convention.
func TestNormalMap(t *testing.T) {
	m := terrain.NewHeightmap(5, 5)
	for y := range 5 {
		for x := range 5 {
			m.Set(x, y, float32(x+y)/8) // up to the east (+x) and the south (+row)
		}
	}
	for _, tt := range []struct {
		conv  NormalConvention
		green func(g uint8) bool
	}{
		{NormalsOpenGL, func(g uint8) bool { return g > 128 }},  // faces north: green up
		{NormalsDirectX, func(g uint8) bool { return g < 128 }}, // green flipped
	} {
		var buf bytes.Buffer
		if err := EncodeNormalMap(&buf, m, tt.conv, nil); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&buf)
		if err != nil {
			t.Fatal(err)
		}
		c := img.(*image.RGBA).RGBAAt(2, 2)
		if !(c.R < 128) || !tt.green(c.G) || !(c.B > 200) {
			t.Errorf("convention %d: normal pixel %v; want R < 128 (faces west), G per convention, B high", tt.conv, c)
		}
	}
	flat := terrain.NewHeightmap(3, 3)
	var buf bytes.Buffer
	if err := EncodeNormalMap(&buf, flat, NormalsOpenGL, nil); err != nil {
		t.Fatal(err)
	}
	img, _ := png.Decode(&buf)
	if c := img.(*image.RGBA).RGBAAt(1, 1); c.R != 128 || c.G != 128 || c.B != 255 {
		t.Errorf("flat map normal %v, want (128, 128, 255)", c)
	}
}

func TestSplatMap(t *testing.T) {
	m := terrain.NewHeightmap(101, 1)
	for x := range 101 {
		m.Set(x, 0, float32(x)/100)
	}
	var buf bytes.Buffer
	if err := EncodeSplatMap(&buf, m, materials.DefaultRule, nil); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	n := img.(*image.NRGBA)
	for x := range 101 {
		p := n.Pix[4*x : 4*x+4]
		if sum := int(p[0]) + int(p[1]) + int(p[2]) + int(p[3]); sum != 255 {
			t.Fatalf("pixel %d weights %v sum to %d", x, p, sum)
		}
	}
	for x, want := range map[int][4]uint8{0: {255, 0, 0, 0}, 30: {0, 255, 0, 0}, 60: {0, 0, 255, 0}, 100: {0, 0, 0, 255}} {
		if got := [4]uint8(n.Pix[4*x : 4*x+4]); got != want {
			t.Errorf("height %d %%: weights %v, want %v", x, got, want)
		}
	}
}

// A baked texture is written as the RGB PNG image/png writes of an opaque
// image: the same pixels, from a sub-image too; an image that is not
// opaque, whose colours would need un-premultiplying, is refused.
func TestEncodeTexture(t *testing.T) {
	whole := image.NewRGBA(image.Rect(0, 0, 300, 290))
	for i := range whole.Pix {
		whole.Pix[i] = byte(i*i>>5 + i)
		if i%4 == 3 {
			whole.Pix[i] = 255
		}
	}
	img := whole.SubImage(image.Rect(7, 3, 290, 285)).(*image.RGBA)
	var buf bytes.Buffer
	if err := EncodeTexture(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	got, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if got.ColorModel() != color.RGBAModel || got.Bounds().Size() != img.Bounds().Size() {
		t.Fatalf("decoded %T of %v, want RGB of %v", got, got.Bounds(), img.Bounds().Size())
	}
	b := img.Bounds()
	for y := range b.Dy() {
		for x := range b.Dx() {
			if g, w := color.RGBAModel.Convert(got.At(x, y)), img.At(b.Min.X+x, b.Min.Y+y); g != w {
				t.Fatalf("pixel (%d, %d) is %v, want %v", x, y, g, w)
			}
		}
	}
	img.Pix[3] = 128
	if err := EncodeTexture(&buf, img, nil); err == nil || !strings.Contains(err.Error(), "opaque") {
		t.Errorf("a translucent texture: error %v, want one saying it is not opaque", err)
	}
}
