package exrcodec

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"io"
)

// OpenEXR's PXR24 compression (Pixar's, OpenEXR's ImfPxr24Compressor.cpp):
// code 5, blocks of 16 scanlines.

// DecodePXR24 decodes a PXR24 block of rows scanlines into the layout of an
// uncompressed block (line after line, channel after channel within a
// line, little-endian samples). After zlib, each channel of each line is
// stored as byte planes, most significant first, of the differences
// between neighbouring samples: 4 planes for UINT, 2 for HALF and 3 for
// FLOAT, whose lowest 8 mantissa bits the compressor dropped (rounded). The
// running sum wraps as OpenEXR's unsigned int does.
func DecodePXR24(packed []byte, channels []Channel, width, rows int) ([]byte, error) {
	planes := 0
	lineBytes := 0
	for _, c := range channels {
		planes += width * pxr24Bytes(c.PixelType)
		lineBytes += width * c.Bytes
	}
	zr, err := zlib.NewReader(bytes.NewReader(packed))
	if err != nil {
		return nil, fmt.Errorf("bad PXR24 data: %w", err)
	}
	tmp := make([]byte, planes*rows)
	if _, err := io.ReadFull(zr, tmp); err != nil {
		return nil, fmt.Errorf("PXR24 data holds fewer than the %d bytes of its lines", len(tmp))
	}
	out := make([]byte, lineBytes*rows)
	o := 0
	for range rows {
		for _, c := range channels {
			n := width
			var pixel uint32
			switch c.PixelType {
			case 0: // UINT
				p0, p1, p2, p3 := tmp[:n], tmp[n:2*n], tmp[2*n:3*n], tmp[3*n:4*n]
				for j := range n {
					pixel += uint32(p0[j])<<24 | uint32(p1[j])<<16 | uint32(p2[j])<<8 | uint32(p3[j])
					binary.LittleEndian.PutUint32(out[o:], pixel)
					o += 4
				}
				tmp = tmp[4*n:]
			case 1: // HALF
				p0, p1 := tmp[:n], tmp[n:2*n]
				for j := range n {
					pixel += uint32(p0[j])<<8 | uint32(p1[j])
					binary.LittleEndian.PutUint16(out[o:], uint16(pixel))
					o += 2
				}
				tmp = tmp[2*n:]
			default: // FLOAT
				p0, p1, p2 := tmp[:n], tmp[n:2*n], tmp[2*n:3*n]
				for j := range n {
					pixel += uint32(p0[j])<<24 | uint32(p1[j])<<16 | uint32(p2[j])<<8
					binary.LittleEndian.PutUint32(out[o:], pixel)
					o += 4
				}
				tmp = tmp[3*n:]
			}
		}
	}
	return out, nil
}

// pxr24Bytes is how many bytes PXR24 keeps of a sample of a pixel type.
func pxr24Bytes(pixelType int) int {
	switch pixelType {
	case 0:
		return 4
	case 1:
		return 2
	}
	return 3
}
