package heightfile

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// OpenEXR compression codes (OpenEXR file layout, "compression").
const (
	exrNone = 0
	exrRLE  = 1
	exrZIPS = 2 // exrZIP (3) is defined with the writer
)

// exrChannel is one entry of an OpenEXR channel list.
type exrChannel struct {
	name       string
	pixelType  int // 0 UINT, 1 HALF, 2 FLOAT
	xs, ys     int32
	bytesPerPx int
}

// DecodeEXR reads a single-part scanline OpenEXR image of size bytes as a
// heightmap in world units: the channel Y, or R, or the only channel, of
// any pixel type (UINT, HALF, FLOAT). The heights are normalised onto
// [0, 1] with Base the lowest and VerticalScale the span; the cell size is
// the file's cordilleraCellSize attribute when present (HasCellSize), else
// 1. Uncompressed, RLE, ZIPS, ZIP and PXR24 blocks are decoded here, including
// blocks stored raw because compression did not pay, which
// github.com/mrjoshuak/go-openexr mistakes for corrupt; the other
// compressions (PIZ, B44, B44A, DWAA, DWAB) go through that library, which
// the browser build lacks (exr_library_js.go). Tiled, deep and multi-part files,
// subsampled channels and NaN or infinite heights are errors.
func DecodeEXR(r io.ReaderAt, size int64) (*Source, error) {
	br := bufio.NewReader(io.NewSectionReader(r, 0, size))
	var head [8]byte
	if _, err := io.ReadFull(br, head[:]); err != nil {
		return nil, errors.New("exr: file too short for an OpenEXR header")
	}
	if !bytes.Equal(head[:4], []byte{0x76, 0x2f, 0x31, 0x01}) {
		return nil, errors.New("exr: not an OpenEXR file (bad magic number)")
	}
	flags := binary.LittleEndian.Uint32(head[4:])
	if flags&0xff != 2 {
		return nil, fmt.Errorf("exr: file format version %d; want 2", flags&0xff)
	}
	if flags&(0x200|0x800|0x1000) != 0 {
		return nil, errors.New("exr: tiled, deep or multi-part file; want a single-part scanline image")
	}
	attrs, read, err := readEXRHeader(br, size)
	if err != nil {
		return nil, err
	}
	compression := -1
	if v := attrs["compression"]; len(v) == 1 {
		compression = int(v[0])
	}
	if compression < 0 {
		return nil, errors.New("exr: header lacks the compression attribute")
	}
	dw := attrs["dataWindow"]
	if len(dw) != 16 {
		return nil, errors.New("exr: header lacks the dataWindow attribute")
	}
	x0, y0 := int32(binary.LittleEndian.Uint32(dw)), int32(binary.LittleEndian.Uint32(dw[4:]))
	x1, y1 := int32(binary.LittleEndian.Uint32(dw[8:])), int32(binary.LittleEndian.Uint32(dw[12:]))
	if x0 != 0 || y0 != 0 {
		return nil, fmt.Errorf("exr: data window starts at (%d,%d); want (0,0)", x0, y0)
	}
	w, h := int64(x1)+1, int64(y1)+1
	if err := checkFileSize("exr", int(min(max(w, 0), MaxFileSide+1)), int(min(max(h, 0), MaxFileSide+1))); err != nil {
		return nil, err
	}
	width, height := int(w), int(h)
	channels, err := parseEXRChannels(attrs["channels"])
	if err != nil {
		return nil, err
	}
	// Refuse before allocating what the file cannot hold: no OpenEXR
	// compression shrinks pixels more than about 1000-fold (zlib's limit).
	pixelBytes := 0
	for _, c := range channels {
		pixelBytes += c.bytesPerPx
	}
	ratio := int64(1100)
	if compression == exrNone {
		ratio = 1
	}
	if need := int64(width) * int64(height) * int64(pixelBytes); need > (size-read)*ratio {
		return nil, fmt.Errorf("exr: %d bytes of pixel data cannot hold a %d×%d image", size-read, width, height)
	}
	if compression > exrZIP && compression != exrPXR24 {
		return decodeEXRLibrary(r, size, compression)
	}
	pick, err := pickEXRChannel(channels)
	if err != nil {
		return nil, err
	}
	lines := 1
	switch compression {
	case exrZIP:
		lines = exrZIPLines
	case exrPXR24:
		lines = exrPXR24Lines
	}
	blocks := (height + lines - 1) / lines
	if int64(blocks)*8 > size-read {
		return nil, fmt.Errorf("exr: the %d-byte file cannot hold the offsets of %d blocks", size, blocks)
	}
	table := make([]byte, 8*blocks)
	if _, err := io.ReadFull(br, table); err != nil {
		return nil, errors.New("exr: truncated offset table")
	}
	// Each line holds every channel's samples, channel after channel.
	lineBytes, offsetInLine := 0, 0
	for i, c := range channels {
		if i == pick {
			offsetInLine = lineBytes
		}
		lineBytes += width * c.bytesPerPx
	}
	data := make([]float32, width*height)
	done := make([]bool, blocks)
	chunkHead := make([]byte, 8)
	for b := range blocks {
		off := int64(binary.LittleEndian.Uint64(table[8*b:]))
		if off < 0 || off > size-8 {
			return nil, fmt.Errorf("exr: block %d at offset %d lies outside the %d-byte file", b, off, size)
		}
		if _, err := r.ReadAt(chunkHead, off); err != nil {
			return nil, errors.New("exr: truncated block header")
		}
		y := int64(int32(binary.LittleEndian.Uint32(chunkHead)))
		n := int64(binary.LittleEndian.Uint32(chunkHead[4:]))
		if y < 0 || y >= h || y%int64(lines) != 0 || done[y/int64(lines)] {
			return nil, fmt.Errorf("exr: block %d starts at line %d, not the start of a missing block of %d lines", b, y, lines)
		}
		if n > size-off-8 {
			return nil, fmt.Errorf("exr: block %d claims %d bytes; only %d remain in the file", b, n, size-off-8)
		}
		k := int(y) / lines
		done[k] = true
		rows := min(lines, height-int(y))
		packed := make([]byte, n)
		if _, err := r.ReadAt(packed, off+8); err != nil && !(errors.Is(err, io.EOF) && off+8+n == size) {
			return nil, fmt.Errorf("exr: %w", err)
		}
		var pix []byte
		if compression == exrPXR24 && len(packed) != rows*lineBytes { // a block that would not shrink is stored raw
			pix, err = unPXR24(packed, channels, width, rows)
		} else {
			pix, err = exrUnpack(packed, rows*lineBytes, compression)
		}
		if err != nil {
			return nil, fmt.Errorf("exr: block %d: %w", b, err)
		}
		c := channels[pick]
		for row := range rows {
			line := pix[row*lineBytes+offsetInLine:]
			out := data[(int(y)+row)*width:]
			for x := range width {
				out[x] = exrSample(line[x*c.bytesPerPx:], c.pixelType)
			}
		}
	}
	cellSize := math.NaN()
	if v := attrs[exrCellSize]; len(v) == 8 {
		cellSize = math.Float64frombits(binary.LittleEndian.Uint64(v))
	}
	return exrSource(data, width, height, cellSize)
}

// maxEXRAttribute bounds one header attribute's value; real headers hold
// at most a few kilobytes (a preview image is the largest).
const maxEXRAttribute = 1 << 24

// readEXRHeader reads the attributes up to the empty name that ends the
// header, and returns them with the number of bytes read so far.
func readEXRHeader(br *bufio.Reader, size int64) (map[string][]byte, int64, error) {
	attrs := map[string][]byte{}
	read := int64(8)
	readString := func() (string, error) {
		s, err := br.ReadString(0)
		read += int64(len(s))
		if err != nil || len(s) > 256 {
			return "", errors.New("exr: truncated or malformed header")
		}
		return s[:len(s)-1], nil
	}
	for {
		name, err := readString()
		if err != nil {
			return nil, 0, err
		}
		if name == "" {
			return attrs, read, nil
		}
		if _, err := readString(); err != nil { // the type name
			return nil, 0, err
		}
		var n [4]byte
		if _, err := io.ReadFull(br, n[:]); err != nil {
			return nil, 0, errors.New("exr: truncated header")
		}
		read += 4
		sz := int64(int32(binary.LittleEndian.Uint32(n[:])))
		if sz < 0 || sz > maxEXRAttribute || sz > size-read {
			return nil, 0, fmt.Errorf("exr: attribute %q claims %d bytes", name, sz)
		}
		v := make([]byte, sz)
		if _, err := io.ReadFull(br, v); err != nil {
			return nil, 0, errors.New("exr: truncated header")
		}
		read += sz
		attrs[name] = v
	}
}

// parseEXRChannels reads a chlist attribute.
func parseEXRChannels(v []byte) ([]exrChannel, error) {
	var out []exrChannel
	for len(v) > 0 && v[0] != 0 {
		i := bytes.IndexByte(v, 0)
		if i < 0 || len(v) < i+1+16 {
			return nil, errors.New("exr: malformed channel list")
		}
		c := exrChannel{name: string(v[:i])}
		e := v[i+1:]
		c.pixelType = int(int32(binary.LittleEndian.Uint32(e)))
		c.xs, c.ys = int32(binary.LittleEndian.Uint32(e[8:])), int32(binary.LittleEndian.Uint32(e[12:]))
		switch c.pixelType {
		case 0, 2:
			c.bytesPerPx = 4
		case 1:
			c.bytesPerPx = 2
		default:
			return nil, fmt.Errorf("exr: channel %s has pixel type %d", c.name, c.pixelType)
		}
		if c.xs != 1 || c.ys != 1 {
			return nil, fmt.Errorf("exr: channel %s is subsampled %d×%d; want full resolution", c.name, c.xs, c.ys)
		}
		out = append(out, c)
		v = e[16:]
	}
	if len(out) == 0 {
		return nil, errors.New("exr: no channels")
	}
	return out, nil
}

// pickEXRChannel returns the index of the channel that holds the heights:
// Y, else R, else the only one.
func pickEXRChannel(cs []exrChannel) (int, error) {
	for _, want := range []string{"Y", "R"} {
		for i, c := range cs {
			if c.name == want {
				return i, nil
			}
		}
	}
	if len(cs) == 1 {
		return 0, nil
	}
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.name
	}
	return 0, fmt.Errorf("exr: channels %v; want Y, R or a single channel", names)
}

// exrUnpack returns a block's n pixel bytes. A block of exactly n bytes is
// stored raw, whatever the compression (OpenEXR stores blocks that would
// not shrink as they are); a larger one is decompressed all the same,
// since go-openexr writes such blocks, though OpenEXR itself refuses them.
func exrUnpack(packed []byte, n int, compression int) ([]byte, error) {
	if len(packed) == n || compression == exrNone {
		if len(packed) != n {
			return nil, fmt.Errorf("%d bytes, want %d", len(packed), n)
		}
		return packed, nil
	}
	tmp := make([]byte, n)
	switch compression {
	case exrRLE:
		if err := unRLE(tmp, packed); err != nil {
			return nil, err
		}
	default: // ZIPS, ZIP
		zr, err := zlib.NewReader(bytes.NewReader(packed))
		if err != nil {
			return nil, fmt.Errorf("bad ZIP data: %w", err)
		}
		if _, err := io.ReadFull(zr, tmp); err != nil {
			return nil, fmt.Errorf("ZIP data holds fewer than the %d bytes of its lines", n)
		}
	}
	// Undo the predictor, then interleave the two halves again.
	for i := 1; i < n; i++ {
		tmp[i] = tmp[i-1] + tmp[i] - 128
	}
	out := make([]byte, n)
	half := (n + 1) / 2
	for i := range out {
		if i%2 == 0 {
			out[i] = tmp[i/2]
		} else {
			out[i] = tmp[half+i/2]
		}
	}
	return out, nil
}

// unRLE decodes OpenEXR's run-length encoding into dst, which it must fill:
// a negative count −k is followed by k literal bytes, a count k ≥ 0 by one
// byte repeated k+1 times.
func unRLE(dst, src []byte) error {
	o := 0
	for len(src) > 0 {
		k := int(int8(src[0]))
		src = src[1:]
		if k < 0 {
			if -k > len(src) || o-k > len(dst) {
				return errors.New("bad RLE data")
			}
			o += copy(dst[o:], src[:-k])
			src = src[-k:]
			continue
		}
		if len(src) == 0 || o+k+1 > len(dst) {
			return errors.New("bad RLE data")
		}
		for range k + 1 {
			dst[o] = src[0]
			o++
		}
		src = src[1:]
	}
	if o != len(dst) {
		return fmt.Errorf("RLE data holds %d of the %d bytes of its lines", o, len(dst))
	}
	return nil
}

// exrSample decodes one little-endian sample of the given pixel type.
func exrSample(p []byte, pixelType int) float32 {
	switch pixelType {
	case 0:
		return float32(binary.LittleEndian.Uint32(p))
	case 1:
		return halfToFloat(binary.LittleEndian.Uint16(p))
	}
	return math.Float32frombits(binary.LittleEndian.Uint32(p))
}

// halfToFloat converts an IEEE 754 half-precision float.
func halfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // infinity or NaN
		return math.Float32frombits(sign | 0x7f800000 | frac<<13)
	case exp == 0 && frac == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: frac·2^−24
		v := float32(frac) * (1.0 / (1 << 24))
		if sign != 0 {
			v = -v
		}
		return v
	}
	return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
}
