package assets

import (
	"image"
	"math"
	"testing"
)

// TestCommittedMatchGenerator checks that the committed PNGs are what
// `go run ./assets/gen` makes now: rerun it after changing Synthesize.
func TestCommittedMatchGenerator(t *testing.T) {
	for _, m := range Materials {
		tex, det := Synthesize(m)
		gotTex, err := Texture(m)
		if err != nil {
			t.Fatal(err)
		}
		gotDet, err := Detail(m)
		if err != nil {
			t.Fatal(err)
		}
		if n := countDiff(gotTex, toRGBA(tex)); n > 0 {
			t.Errorf("%s differs from Synthesize in %d pixels; run go run ./assets/gen", m.TextureFile(), n)
		}
		if n := countDiff(gotDet, toRGBA(det)); n > 0 {
			t.Errorf("%s differs from Synthesize in %d pixels; run go run ./assets/gen", m.DetailFile(), n)
		}
	}
}

func countDiff(a, b *image.RGBA) int {
	n := 0
	for i := 0; i < len(a.Pix); i += 4 {
		if a.Pix[i] != b.Pix[i] || a.Pix[i+1] != b.Pix[i+1] || a.Pix[i+2] != b.Pix[i+2] || a.Pix[i+3] != b.Pix[i+3] {
			n++
		}
	}
	return n
}

// TestSynthesizeDeterministic checks that two runs give the same pixels.
func TestSynthesizeDeterministic(t *testing.T) {
	a, ad := Synthesize(Rock)
	b, bd := Synthesize(Rock)
	if countDiff(a, b) != 0 || countDiff(toRGBA(ad), toRGBA(bd)) != 0 {
		t.Error("Synthesize(Rock) differs between two runs")
	}
}

// TestSeamless checks that every texture wraps without a seam: the step
// from the last column to the first (and last row to first) is no larger
// than a typical step between neighbouring columns (rows) inside.
func TestSeamless(t *testing.T) {
	for _, m := range Materials {
		for _, detail := range []bool{false, true} {
			img, err := Texture(m)
			name := m.TextureFile()
			if detail {
				img, err = Detail(m)
				name = m.DetailFile()
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, vertical := range []bool{false, true} {
				var inside float64
				for i := range TextureSize - 1 {
					inside += lineStep(img, i, i+1, vertical)
				}
				inside /= TextureSize - 1
				seam := lineStep(img, TextureSize-1, 0, vertical)
				if seam > 1.25*inside+0.5 {
					t.Errorf("%s: step across the wrap seam (vertical %v) %.2f, inside %.2f on average", name, vertical, seam, inside)
				}
			}
		}
	}
}

// lineStep is the mean absolute difference between columns (or rows, when
// vertical) i and j over all channels.
func lineStep(img *image.RGBA, i, j int, vertical bool) float64 {
	var sum float64
	for k := range TextureSize {
		p, q := img.PixOffset(i, k), img.PixOffset(j, k)
		if vertical {
			p, q = img.PixOffset(k, i), img.PixOffset(k, j)
		}
		for c := range 3 {
			sum += math.Abs(float64(img.Pix[p+c]) - float64(img.Pix[q+c]))
		}
	}
	return sum / (3 * TextureSize)
}

// TestDetailMean checks that every detail map averages 0.5 (thesis section
// 5.2.2), so that it leaves its material's brightness alone.
func TestDetailMean(t *testing.T) {
	for _, m := range Materials {
		d, err := Detail(m)
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		for i := 0; i < len(d.Pix); i += 4 {
			sum += float64(d.Pix[i])
		}
		if mean := sum / (TextureSize * TextureSize) / 255; math.Abs(mean-0.5) > 0.005 {
			t.Errorf("%s: mean %.4f, want 0.5", m.DetailFile(), mean)
		}
	}
}

// TestAtlasMips checks the atlas against the layout of the package comment,
// with the positions written out independently of MipRect: level 0 of
// every block is the embedded PNG, and every texel of level k+1 is the
// exact 2×2 box average of level k, rounded to nearest — in linear light,
// c^2.2, for the colour textures, in the stored values for the detail maps.
func TestAtlasMips(t *testing.T) {
	atlas, err := Atlas()
	if err != nil {
		t.Fatal(err)
	}
	if b := atlas.Bounds(); b != image.Rect(0, 0, 512, 2048) {
		t.Fatalf("atlas bounds %v, want 512×2048", b)
	}
	for _, m := range Materials {
		for _, detail := range []bool{false, true} {
			src, err := Texture(m)
			top := 512 * int(m)
			if detail {
				src, err = Detail(m)
				top += 256
			}
			if err != nil {
				t.Fatal(err)
			}
			origin := func(k int) (int, int) { return 512 - 512>>k, top }
			for k := range 9 {
				if x, y := origin(k); MipRect(m, detail, k) != image.Rect(x, y, x+256>>k, y+256>>k) {
					t.Errorf("MipRect(%s, %v, %d) = %v, want origin (%d, %d)", m, detail, k, MipRect(m, detail, k), x, y)
				}
			}
			for y := range 256 {
				for x := range 256 {
					if a, b := atlas.RGBAAt(x, top+y), src.RGBAAt(x, y); a != b {
						t.Fatalf("%s detail=%v level 0 (%d, %d): atlas %v, PNG %v", m, detail, x, y, a, b)
					}
				}
			}
			for k := 0; k < 8; k++ {
				px, py := origin(k)
				cx, cy := origin(k + 1)
				s := 256 >> (k + 1)
				for y := range s {
					for x := range s {
						got := atlas.RGBAAt(cx+x, cy+y)
						if got.A != 255 {
							t.Fatalf("%s detail=%v level %d (%d, %d): alpha %d", m, detail, k+1, x, y, got.A)
						}
						for c := range 3 {
							var sum float64
							for _, d := range [4][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
								v := float64(atlas.Pix[atlas.PixOffset(px+2*x+d[0], py+2*y+d[1])+c])
								if !detail {
									v = 255 * math.Pow(v/255, 2.2)
								}
								sum += v
							}
							want := sum / 4
							if !detail {
								want = 255 * math.Pow(want/255, 1/2.2)
							}
							v := float64(atlas.Pix[atlas.PixOffset(cx+x, cy+y)+c])
							if math.Abs(v-want) > 0.5+1e-9 {
								t.Fatalf("%s detail=%v level %d (%d, %d) channel %d: %v, the box average is %.3f",
									m, detail, k+1, x, y, c, v, want)
							}
						}
					}
				}
			}
		}
	}
}

// TestMipChainBoxFilter checks MipChain on a known pattern: a 2×2
// black-and-white checker averages to mid-grey in linear light (186, not
// 128) and to 128 in stored values.
func TestMipChainBoxFilter(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 2, 2))
	for i := range src.Pix {
		src.Pix[i] = 255
	}
	for _, p := range []image.Point{{0, 0}, {1, 1}} {
		o := src.PixOffset(p.X, p.Y)
		src.Pix[o], src.Pix[o+1], src.Pix[o+2] = 0, 0, 0
	}
	for _, tc := range []struct {
		linear bool
		want   uint8
	}{{true, 186}, {false, 128}} {
		chain := MipChain(src, tc.linear)
		if len(chain) != 2 {
			t.Fatalf("MipChain of 2×2 has %d levels, want 2", len(chain))
		}
		if got := chain[1].RGBAAt(0, 0); got.R != tc.want || got.G != tc.want || got.B != tc.want || got.A != 255 {
			t.Errorf("linear=%v: 1×1 level %v, want grey %d", tc.linear, got, tc.want)
		}
	}
}
