package heightfile

import (
	"bytes"
	"cordillera/terrain"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"strings"
)

// MaxFileSide is the largest width or height a heightmap file may declare:
// 2^14+1, the largest subdivision grid, so that a long strip of a DEM
// still opens.
const MaxFileSide = 16385

// MaxFileSamples bounds width × height of a heightmap file: 8193², the
// largest map generate makes (terrain.MaxSize). Decoders check it from the
// header, before they allocate, so that a small file of a huge size (a
// 500 KB PNG of 16385² zeros) cannot ask for gigabytes: every command
// holds a few float32 copies of a map (268 MB each at this size) besides
// what it builds from it.
const MaxFileSamples = terrain.MaxSize * terrain.MaxSize

// MaxFileBytes bounds the bytes of a heightmap file read whole (the
// explorer's dropped files): MaxFileSamples samples of up to 8 bytes (a
// float64 TIFF), with room for headers. Decoders that stream from a file
// need no such cap; they stop at the declared size.
const MaxFileBytes = 8*MaxFileSamples + 16<<20

// EncodePNG16 writes m as a 16-bit grayscale PNG: sample h becomes
// round(h·65535), with h clamped to [0, 1] first. The file records m's
// metres in tEXt chunks (pngmeta.go): black is 0 m, white VerticalScale,
// and the cell size; EncodePNG16Base sets the height of black. The map
// must pass Validate.
func EncodePNG16(w io.Writer, m *terrain.Heightmap) error {
	return EncodePNG16Base(w, m, 0)
}

// EncodePNG16Base writes m as EncodePNG16 does, black recorded at base
// metres and white at base + VerticalScale.
func EncodePNG16Base(w io.Writer, m *terrain.Heightmap, base float64) error {
	return encodePNG16(w, m, base, nil)
}

// encodePNG16 is EncodePNG16Base reporting the fraction written to
// progress (nil allowed).
func encodePNG16(w io.Writer, m *terrain.Heightmap, base float64, progress terrain.Progress) error {
	if math.IsNaN(base) || math.IsInf(base, 0) {
		return fmt.Errorf("png: base height %v must be finite", base)
	}
	if err := writePNG16(w, m, heightText(m, base), true, progress); err != nil {
		return fmt.Errorf("png: %w", err)
	}
	return nil
}

// DecodeHeightmapImage reads a grayscale PNG as a heightmap with heights in
// [0, 1] (8-bit samples v/255, 16-bit samples v/65535), cell size 1 and
// vertical scale 1, whatever the file records of its metres (DecodePNG
// reads them). It accepts gray images of any bit depth and gray stored
// as RGB or RGBA (R = G = B in every pixel, alpha fully opaque); colour,
// paletted and translucent images are errors that say what was found.
// Images over MaxFileSide on a side or MaxFileSamples in all are refused
// from the header alone.
func DecodeHeightmapImage(r io.Reader) (*terrain.Heightmap, error) {
	m, _, err := decodePNG(r)
	return m, err
}

// DecodePNG reads a grayscale PNG as DecodeHeightmapImage does, with the
// scale a Cordillera PNG records in its tEXt chunks before the image data:
// the heights of black and white make the Source Metric (Base the height
// of black, VerticalScale white's above it) and the cell size sets
// HasCellSize. A PNG without them has cell size 1 and vertical scale 1,
// and a Note when its values are most likely metres stored as numbers. A
// malformed value of ours is an error naming its key.
func DecodePNG(r io.Reader) (*Source, error) {
	m, text, err := decodePNG(r)
	if err != nil {
		return nil, err
	}
	src := &Source{Map: m}
	if err := applyPNGText(src, text); err != nil {
		return nil, err
	}
	if !src.Metric {
		src.Note = narrowRangeNote(m)
	}
	return src, nil
}

// decodePNG decodes a grayscale PNG with its tEXt chunks of ours from
// before the image data.
func decodePNG(r io.Reader) (*terrain.Heightmap, map[string]string, error) {
	// Keep the bytes DecodeConfig consumes so that Decode can read them again.
	var header bytes.Buffer
	cfg, err := png.DecodeConfig(io.TeeReader(r, &header))
	if err != nil {
		return nil, nil, pngError(err)
	}
	if err := checkFileSize("png", cfg.Width, cfg.Height); err != nil {
		return nil, nil, err
	}
	if _, ok := cfg.ColorModel.(color.Palette); ok {
		return nil, nil, errors.New("png: paletted image; want grayscale")
	}
	scan := newPNGTextScanner(io.MultiReader(&header, r))
	img, err := png.Decode(scan)
	if err != nil {
		if scan.err != nil {
			return nil, nil, scan.err
		}
		return nil, nil, pngError(err)
	}
	m, err := heightmapFromImage(img)
	if err != nil {
		return nil, nil, err
	}
	return m, scan.text, nil
}

// pngError gives the errors image/png passes through from its reader and
// from zlib the "png:" prefix its own errors have.
func pngError(err error) error {
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("png: truncated file: %w", err)
	case !strings.HasPrefix(err.Error(), "png:"):
		return fmt.Errorf("png: invalid image data: %w", err)
	}
	return err
}

// heightmapFromImage converts a decoded grayscale image to heights in [0, 1].
func heightmapFromImage(img image.Image) (*terrain.Heightmap, error) {
	b := img.Bounds()
	m := terrain.NewHeightmap(b.Dx(), b.Dy())
	switch img := img.(type) {
	case *image.Gray:
		for y := range m.Height {
			row := img.Pix[img.PixOffset(b.Min.X, b.Min.Y+y):]
			for x := range m.Width {
				m.Samples[y*m.Width+x] = float32(row[x]) / 255
			}
		}
		return m, nil
	case *image.Gray16:
		for y := range m.Height {
			row := img.Pix[img.PixOffset(b.Min.X, b.Min.Y+y):]
			for x := range m.Width {
				m.Samples[y*m.Width+x] = float32(uint16(row[2*x])<<8|uint16(row[2*x+1])) / 65535
			}
		}
		return m, nil
	}
	// The PNG decoder returns these for truecolour and gray+alpha files.
	// A fully opaque pixel stores the same channels premultiplied or not.
	var err error
	switch img := img.(type) {
	case *image.RGBA:
		err = grayFromRGBA(m, img.Pix[img.PixOffset(b.Min.X, b.Min.Y):], img.Stride, 1)
	case *image.NRGBA:
		err = grayFromRGBA(m, img.Pix[img.PixOffset(b.Min.X, b.Min.Y):], img.Stride, 1)
	case *image.RGBA64:
		err = grayFromRGBA(m, img.Pix[img.PixOffset(b.Min.X, b.Min.Y):], img.Stride, 2)
	case *image.NRGBA64:
		err = grayFromRGBA(m, img.Pix[img.PixOffset(b.Min.X, b.Min.Y):], img.Stride, 2)
	default:
		return nil, fmt.Errorf("png: %s image; want grayscale", colourModelName(img.ColorModel()))
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// grayFromRGBA fills m from RGBA pixels with channelBytes bytes per channel
// (1 or 2, big-endian), checking that every pixel is gray and fully opaque.
func grayFromRGBA(m *terrain.Heightmap, pix []byte, stride, channelBytes int) error {
	channel := func(p []byte) uint16 { return uint16(p[0]) }
	full := uint16(0xff)
	if channelBytes == 2 {
		channel = func(p []byte) uint16 { return uint16(p[0])<<8 | uint16(p[1]) }
		full = 0xffff
	}
	for y := range m.Height {
		for x := range m.Width {
			p := pix[y*stride+4*channelBytes*x:]
			r, g, b, a := channel(p), channel(p[channelBytes:]), channel(p[2*channelBytes:]), channel(p[3*channelBytes:])
			if a != full {
				return fmt.Errorf("png: translucent pixel (%d,%d) has alpha %d of %d; want fully opaque grayscale", x, y, a, full)
			}
			if r != g || g != b {
				return fmt.Errorf("png: colour image (pixel (%d,%d) is R=%d G=%d B=%d); want grayscale", x, y, r, g, b)
			}
			m.Samples[y*m.Width+x] = float32(r) / float32(full)
		}
	}
	return nil
}

// colourModelName names a colour model for an error message.
func colourModelName(cm color.Model) string {
	switch cm {
	case color.CMYKModel:
		return "CMYK"
	case color.YCbCrModel, color.NYCbCrAModel:
		return "YCbCr"
	case color.AlphaModel, color.Alpha16Model:
		return "alpha-only"
	}
	if _, ok := cm.(color.Palette); ok {
		return "paletted"
	}
	return fmt.Sprintf("%T", cm)
}

// checkFileSize refuses sizes no heightmap file may declare: sides below 2
// (a map of one row or column has no surface to draw or erode), above
// MaxFileSide, or more than MaxFileSamples samples in all.
func checkFileSize(format string, w, h int) error {
	if w < 2 || h < 2 || w > MaxFileSide || h > MaxFileSide {
		return fmt.Errorf("%s: image is %d×%d; each side must be between 2 and %d", format, w, h, MaxFileSide)
	}
	if n := int64(w) * int64(h); n > MaxFileSamples {
		return fmt.Errorf("%s: image is %d×%d = %.1f M samples, over the limit of %.1f M (%d×%d, the largest map Cordillera makes; %.0f MB per float32 copy)",
			format, w, h, float64(n)/1e6, float64(MaxFileSamples)/1e6, terrain.MaxSize, terrain.MaxSize, float64(4*MaxFileSamples)/1e6)
	}
	return nil
}

// quantize16 maps a height in [0, 1] to round(h·65535), clamping outside it.
func quantize16(h float32) uint16 {
	return uint16(math.Round(min(max(float64(h), 0), 1) * 65535))
}
