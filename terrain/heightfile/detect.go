package heightfile

import (
	"bytes"
	"errors"
)

// Format is a heightmap file format, as Detect tells it from content.
type Format int

// The formats Detect tells apart.
const (
	NotHeightmap Format = iota
	PNG                 // PNG, 8- or 16-bit grey (DecodePNG)
	R16                 // raw little-endian 16-bit samples of a square map (DecodeR16)
	EXR                 // OpenEXR float heights (DecodeEXR)
	TIFF                // TIFF or GeoTIFF DEM (DecodeTIFF)
)

// String names the format as messages and the file pickers do.
func (f Format) String() string {
	switch f {
	case PNG:
		return "PNG"
	case R16:
		return "r16"
	case EXR:
		return "EXR"
	case TIFF:
		return "TIFF"
	}
	return "not a heightmap"
}

// Detect tells a heightmap file's format from its first bytes, head, and
// its whole length, size, not from its name: PNG, EXR and TIFF by their
// signatures; R16 by the length alone (an even number of bytes, at least
// 8, whose half is a square), which a file of any other kind may happen
// to have: a caller that reads other kinds too should try them before it
// takes R16. Anything else is NotHeightmap.
func Detect(head []byte, size int64) Format {
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return PNG
	case bytes.HasPrefix(head, []byte("\x76\x2f\x31\x01")):
		return EXR
	case bytes.HasPrefix(head, []byte("II*\x00")), bytes.HasPrefix(head, []byte("MM\x00*")):
		return TIFF
	case size >= 8 && size%2 == 0 && isSquare(size/2):
		return R16
	}
	return NotHeightmap
}

// errNotHeightmap is what Decode says of a format it cannot read.
var errNotHeightmap = errors.New("not a heightmap (PNG, r16, EXR or TIFF)")

// isSquare reports whether n is the square of an integer.
func isSquare(n int64) bool {
	for s := int64(1); s*s <= n; s++ {
		if s*s == n {
			return true
		}
	}
	return false
}

// Decode reads the content of a heightmap file of format f (Detect), with
// what the file says about its scale.
func Decode(f Format, data []byte) (*Source, error) {
	r := bytes.NewReader(data)
	switch f {
	case PNG:
		return DecodePNG(r)
	case R16:
		m, err := DecodeR16(r, int64(len(data)))
		if err != nil {
			return nil, err
		}
		return &Source{Map: m}, nil
	case EXR:
		return DecodeEXR(r, int64(len(data)))
	case TIFF:
		return DecodeTIFF(r, int64(len(data)))
	}
	return nil, errNotHeightmap
}
