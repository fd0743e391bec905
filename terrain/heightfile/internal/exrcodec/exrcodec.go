// Package exrcodec decodes the chunks of OpenEXR's PIZ and PXR24
// compressions into the layout of an uncompressed chunk (line after line,
// within a line each channel's samples in turn, little-endian), to the
// values OpenEXR's own library decodes. Package heightfile's EXR reader
// reads the file around them: its header, chunk table and the other
// compressions.
//
// They are decoded here, in pure Go, rather than by go-openexr so that the
// browser, where that library does not build, reads them too. Every read
// is bounds-checked: a malformed chunk is an error, never an index out of
// range.
package exrcodec

// Channel is what the decoders need of an image's channel: its pixel type
// (0 UINT, 1 HALF, 2 FLOAT, as the header gives it) and the bytes of one
// of its samples (4, 2, 4).
type Channel struct {
	PixelType int
	Bytes     int
}
