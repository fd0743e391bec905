package heightfile

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"cordillera/terrain/heightfile/internal/exrcodec"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// OpenEXR compression codes (ImfCompression.h); exrZIP is defined with
// the writer. PIZ and PXR24 chunks are decoded by package exrcodec.
const (
	exrNone  = 0
	exrRLE   = 1
	exrZIPS  = 2
	exrPIZ   = 4
	exrPXR24 = 5
)

// exrCompressionName is the name OpenEXR gives a compression code.
func exrCompressionName(code int) string {
	names := []string{"no", "RLE", "ZIPS", "ZIP", "PIZ", "PXR24", "B44", "B44A", "DWAA", "DWAB", "HTJ2K256", "HTJ2K32"}
	if code >= 0 && code < len(names) {
		return names[code]
	}
	return fmt.Sprintf("unknown (code %d)", code)
}

// exrChunkLines is how many scanlines one chunk of a scanline file holds
// for each compression DecodeEXR reads, 0 for the others.
func exrChunkLines(compression int) int {
	switch compression {
	case exrNone, exrRLE, exrZIPS:
		return 1
	case exrZIP, exrPXR24:
		return 16
	case exrPIZ:
		return 32
	}
	return 0
}

// exrMaxRatio bounds how many times larger than its stored bytes a chunk
// of each compression can decode to: zlib's deflate at most about 1032
// (PXR24 widens 3 stored bytes to 4), RLE 64 (two bytes make a run of
// 128), PIZ about 460 (a 1-bit Huffman code and an 8-bit count repeat a
// 16-bit value 255 times). The slack covers the fixed headers of small
// chunks.
func exrMaxRatio(compression int) (ratio, slack int64) {
	switch compression {
	case exrNone:
		return 1, 0
	case exrRLE:
		return 64, 4096
	}
	return 1400, 4096
}

// Bounds on what a header may ask for before a byte of pixels is read.
const (
	// maxEXRChannels bounds the channel list; a render's AOVs run to a few
	// dozen.
	maxEXRChannels = 1024
	// maxEXRChunkBytes bounds one chunk decoded: 32 lines of 16385
	// samples of 32 float channels, or a tile of 4096² samples of 2. A
	// chunk is decoded whole, into two buffers of this size at most.
	maxEXRChunkBytes = 64 << 20
)

// exrChannel is one entry of an OpenEXR channel list.
type exrChannel struct {
	name       string
	pixelType  int // 0 UINT, 1 HALF, 2 FLOAT
	xs, ys     int32
	bytesPerPx int
}

// exrImage is what DecodeEXR learnt from the header.
type exrImage struct {
	r             io.ReaderAt
	size          int64
	compression   int
	x0, y0        int64 // the data window's first sample
	width         int
	height        int
	channels      []exrChannel
	codecChannels []exrcodec.Channel // the channels as exrcodec needs them
	pixelBytes    int                // one pixel's bytes, all channels
	pick          int                // the channel read
	pickOffset    int                // the picked channel's offset in a line of width 1
	tiled         bool
	tileW         int // the chunk's width and height: a tile's, or the
	tileH         int // image width and a block of scanlines
	across        int // chunks across and down
	down          int
	piz           exrcodec.PIZ
}

// DecodeEXR reads a single-part OpenEXR image of size bytes, scanline or
// tiled (its full-resolution level), as a heightmap in world units: the
// channel Y, or R, or the only channel, of any pixel type (UINT, HALF,
// FLOAT). The heights are normalised onto [0, 1] with Base the lowest and
// VerticalScale the span; the cell size is the file's cordilleraCellSize
// attribute when present (HasCellSize), else 1.
//
// Uncompressed, RLE, ZIPS, ZIP, PIZ and PXR24 chunks are decoded here, in
// pure Go, to the values OpenEXR's own library decodes (the tests compare
// against files its tools write); B44, B44A, DWAA, DWAB and HTJ2K are
// refused with a way out, since a decoder that returns wrong heights
// quietly is worse than none. Deep and multi-part files, subsampled
// channels and NaN or infinite heights are errors. Every size the header
// gives is checked against the file's length and the bounds above before
// anything is allocated for it.
func DecodeEXR(r io.ReaderAt, size int64) (*Source, error) {
	img, data, cellSize, err := decodeEXRSamples(r, size)
	if err != nil {
		return nil, err
	}
	return exrSource(data, img.width, img.height, cellSize)
}

// decodeEXRSamples decodes the height channel of an EXR as DecodeEXR does,
// and returns its samples as the file holds them, with the cell size (NaN
// for none).
func decodeEXRSamples(r io.ReaderAt, size int64) (img *exrImage, data []float32, cellSize float64, err error) {
	br := bufio.NewReader(io.NewSectionReader(r, 0, size))
	flags, err := readEXRVersion(br)
	if err != nil {
		return nil, nil, 0, err
	}
	attrs, read, err := readEXRHeader(br, size)
	if err != nil {
		return nil, nil, 0, err
	}
	img = &exrImage{r: r, size: size, compression: -1, tiled: flags&0x200 != 0}
	if err := img.readHeader(attrs); err != nil {
		return nil, nil, 0, err
	}
	if err := img.checkFits(read); err != nil {
		return nil, nil, 0, err
	}
	// The offset table is read an entry at a time as the chunks are: a
	// table of 1×1 tiles is twice the size of the map it describes.
	chunks := img.across * img.down
	data = make([]float32, img.width*img.height)
	done := make([]bool, chunks)
	var entry [8]byte
	for i := range chunks {
		if _, err := io.ReadFull(br, entry[:]); err != nil {
			return nil, nil, 0, errors.New("exr: truncated offset table")
		}
		if err := img.readChunk(i, int64(binary.LittleEndian.Uint64(entry[:])), data, done); err != nil {
			return nil, nil, 0, err
		}
	}
	cellSize = math.NaN()
	if v := attrs[exrCellSize]; len(v) == 8 {
		cellSize = math.Float64frombits(binary.LittleEndian.Uint64(v))
		if err := checkCellSize("exr", exrCellSize, cellSize); err != nil {
			return nil, nil, 0, err
		}
	}
	return img, data, cellSize, nil
}

// readEXRVersion reads the magic number and the version field, and returns
// the version's flags: a single-part flat image, scanline or tiled.
func readEXRVersion(br *bufio.Reader) (uint32, error) {
	var head [8]byte
	if _, err := io.ReadFull(br, head[:]); err != nil {
		return 0, errors.New("exr: file too short for an OpenEXR header")
	}
	if !bytes.Equal(head[:4], []byte{0x76, 0x2f, 0x31, 0x01}) {
		return 0, errors.New("exr: not an OpenEXR file (bad magic number)")
	}
	flags := binary.LittleEndian.Uint32(head[4:])
	if flags&0xff != 2 {
		return 0, fmt.Errorf("exr: file format version %d; want 2", flags&0xff)
	}
	switch {
	case flags&0x1000 != 0:
		return 0, errors.New("exr: multi-part file; want a single-part image (exrmultipart -separate splits it)")
	case flags&0x800 != 0:
		return 0, errors.New("exr: deep data; want a flat image")
	case flags&^uint32(0xff|0x200|0x400) != 0:
		return 0, fmt.Errorf("exr: unknown version flags %#x", flags&^0xff)
	}
	return flags, nil
}

// readHeader takes the image's compression, data window, channels and
// chunk layout from the header's attributes.
func (img *exrImage) readHeader(attrs map[string][]byte) error {
	if v := attrs["compression"]; len(v) == 1 {
		img.compression = int(v[0])
	}
	if img.compression < 0 {
		return errors.New("exr: header lacks the compression attribute")
	}
	if exrChunkLines(img.compression) == 0 {
		return fmt.Errorf("exr: %s compression is not read (it would not decode to the heights OpenEXR reads); "+
			"re-save the map with ZIP compression, for example exrmultiview -z zip left in.exr right in.exr out.exr, or from the program that made it",
			exrCompressionName(img.compression))
	}
	dw := attrs["dataWindow"]
	if len(dw) != 16 {
		return errors.New("exr: header lacks the dataWindow attribute")
	}
	x0, y0 := int64(int32(binary.LittleEndian.Uint32(dw))), int64(int32(binary.LittleEndian.Uint32(dw[4:])))
	x1, y1 := int64(int32(binary.LittleEndian.Uint32(dw[8:]))), int64(int32(binary.LittleEndian.Uint32(dw[12:])))
	w, h := x1-x0+1, y1-y0+1
	if err := checkFileSize("exr", int(min(max(w, 0), MaxFileSide+1)), int(min(max(h, 0), MaxFileSide+1))); err != nil {
		return err
	}
	img.x0, img.y0, img.width, img.height = x0, y0, int(w), int(h)
	var err error
	if img.channels, err = parseEXRChannels(attrs["channels"]); err != nil {
		return err
	}
	if img.pick, err = pickEXRChannel(img.channels); err != nil {
		return err
	}
	for i, c := range img.channels {
		if i == img.pick {
			img.pickOffset = img.pixelBytes
		}
		img.pixelBytes += c.bytesPerPx
		img.codecChannels = append(img.codecChannels, exrcodec.Channel{PixelType: c.pixelType, Bytes: c.bytesPerPx})
	}
	return img.layout(attrs["tiles"])
}

// checkFits refuses, before anything is allocated for them, an offset
// table, pixels or a chunk that the file's size - read bytes after the
// header cannot hold or that is larger than maxEXRChunkBytes.
func (img *exrImage) checkFits(read int64) error {
	size := img.size
	chunks := img.across * img.down
	if int64(chunks)*8 > size-read {
		return fmt.Errorf("exr: the %d-byte file cannot hold the offsets of %d chunks", size, chunks)
	}
	ratio, slack := exrMaxRatio(img.compression)
	if need := int64(img.width) * int64(img.height) * int64(img.pixelBytes); need > (size-read)*ratio+slack {
		return fmt.Errorf("exr: %d bytes of %s-compressed pixel data cannot hold a %d×%d image of %d channels",
			size-read, exrCompressionName(img.compression), img.width, img.height, len(img.channels))
	}
	if chunk := int64(img.tileW) * int64(img.tileH) * int64(img.pixelBytes); chunk > maxEXRChunkBytes {
		what := fmt.Sprintf("a block of %d scanlines", img.tileH)
		if img.tiled {
			what = fmt.Sprintf("a %d×%d tile", img.tileW, img.tileH)
		}
		return fmt.Errorf("exr: %s of %d channels holds %d MB, more than the %d MB read at once; "+
			"re-save the map with fewer channels or smaller tiles", what, len(img.channels), chunk>>20, maxEXRChunkBytes>>20)
	}
	return nil
}

// layout sets the chunks' size and count: tiles of the tiledesc attribute
// tiles (only the full-resolution level is read, whose tiles come first in
// the offset table at every level mode), or blocks of scanlines.
func (img *exrImage) layout(tiles []byte) error {
	if !img.tiled {
		img.tileW, img.tileH = img.width, min(exrChunkLines(img.compression), img.height)
		img.across, img.down = 1, (img.height+img.tileH-1)/img.tileH
		return nil
	}
	if len(tiles) != 9 {
		return errors.New("exr: tiled file lacks the tiles attribute")
	}
	tw, th := int64(binary.LittleEndian.Uint32(tiles)), int64(binary.LittleEndian.Uint32(tiles[4:]))
	if mode := tiles[8] & 0xf; mode > 2 {
		return fmt.Errorf("exr: tile level mode %d; want one level, mipmap or ripmap", mode)
	}
	if tw < 1 || th < 1 || tw > math.MaxInt32 || th > math.MaxInt32 {
		return fmt.Errorf("exr: tiles of %d×%d", tw, th)
	}
	// A tile larger than the image holds only the image's samples.
	img.tileW, img.tileH = int(min(tw, int64(img.width))), int(min(th, int64(img.height)))
	img.across = int((int64(img.width) + tw - 1) / tw)
	img.down = int((int64(img.height) + th - 1) / th)
	return nil
}

// readChunk reads chunk i, at offset off, into data: checks that the chunk
// lies in the file, is one of the full-resolution level's and was not read
// before, then decodes it and keeps the picked channel's samples.
func (img *exrImage) readChunk(i int, off int64, data []float32, done []bool) error {
	headLen := int64(8)
	if img.tiled {
		headLen = 20
	}
	if off < 0 || off > img.size-headLen {
		return fmt.Errorf("exr: chunk %d at offset %d lies outside the %d-byte file", i, off, img.size)
	}
	head := make([]byte, headLen)
	if _, err := img.r.ReadAt(head, off); err != nil && !(errors.Is(err, io.EOF) && off+headLen == img.size) {
		return fmt.Errorf("exr: chunk %d: %w", i, err)
	}
	k, x, y, err := img.chunkPlace(i, head)
	if err != nil {
		return err
	}
	if done[k] {
		return fmt.Errorf("exr: chunk %d repeats an earlier chunk's pixels", i)
	}
	done[k] = true
	cw, rows := min(img.tileW, img.width-x), min(img.tileH, img.height-y)
	n := int64(binary.LittleEndian.Uint32(head[headLen-4:]))
	if n > img.size-off-headLen {
		return fmt.Errorf("exr: chunk %d claims %d bytes; only %d remain in the file", i, n, img.size-off-headLen)
	}
	want := int64(cw) * int64(rows) * int64(img.pixelBytes)
	if ratio, slack := exrMaxRatio(img.compression); want > n*ratio+slack {
		return fmt.Errorf("exr: chunk %d: %d bytes cannot hold the %d bytes of its pixels", i, n, want)
	}
	packed := make([]byte, n)
	if _, err := img.r.ReadAt(packed, off+headLen); err != nil && !(errors.Is(err, io.EOF) && off+headLen+n == img.size) {
		return fmt.Errorf("exr: chunk %d: %w", i, err)
	}
	pix, err := img.unpack(packed, int(want), cw, rows)
	if err != nil {
		return fmt.Errorf("exr: chunk %d (%s): %w", i, exrCompressionName(img.compression), err)
	}
	lineBytes := cw * img.pixelBytes
	c := img.channels[img.pick]
	for row := range rows {
		line := pix[row*lineBytes+cw*img.pickOffset:]
		out := data[(y+row)*img.width+x:]
		for j := range cw {
			out[j] = exrSample(line[j*c.bytesPerPx:], c.pixelType)
		}
	}
	return nil
}

// chunkPlace returns where chunk i, whose header is head, lies: its index
// k among the full image's chunks and its first pixel (x, y). A tile of
// another level or outside the image, or a block that does not start on
// a block's first line, is an error.
func (img *exrImage) chunkPlace(i int, head []byte) (k, x, y int, err error) {
	if img.tiled {
		tx, ty := int64(int32(binary.LittleEndian.Uint32(head))), int64(int32(binary.LittleEndian.Uint32(head[4:])))
		lx, ly := int32(binary.LittleEndian.Uint32(head[8:])), int32(binary.LittleEndian.Uint32(head[12:]))
		if lx != 0 || ly != 0 || tx < 0 || ty < 0 || tx >= int64(img.across) || ty >= int64(img.down) {
			return 0, 0, 0, fmt.Errorf("exr: chunk %d is tile (%d,%d) of level (%d,%d), not one of the %d×%d tiles of the full image",
				i, tx, ty, lx, ly, img.across, img.down)
		}
		return int(ty)*img.across + int(tx), int(tx) * img.tileW, int(ty) * img.tileH, nil
	}
	ly := int64(int32(binary.LittleEndian.Uint32(head))) - img.y0
	if ly < 0 || ly >= int64(img.height) || ly%int64(img.tileH) != 0 {
		return 0, 0, 0, fmt.Errorf("exr: chunk %d starts at line %d, not the first line of a block of %d", i, ly+img.y0, img.tileH)
	}
	return int(ly) / img.tileH, 0, int(ly), nil
}

// unpack returns a chunk's n pixel bytes as an uncompressed chunk holds
// them: line after line, within a line each channel's cw samples in turn,
// little-endian. A chunk stored in exactly n bytes is raw, whatever the
// compression, as OpenEXR stores chunks that would not shrink.
func (img *exrImage) unpack(packed []byte, n, cw, rows int) ([]byte, error) {
	if len(packed) == n {
		return packed, nil
	}
	switch img.compression {
	case exrNone:
		return nil, fmt.Errorf("%d bytes, want %d", len(packed), n)
	case exrPXR24:
		return exrcodec.DecodePXR24(packed, img.codecChannels, cw, rows)
	case exrPIZ:
		return img.piz.Decode(packed, img.codecChannels, cw, rows)
	}
	tmp := make([]byte, n)
	if img.compression == exrRLE {
		if err := unRLE(tmp, packed); err != nil {
			return nil, err
		}
	} else { // ZIPS, ZIP
		zr, err := zlib.NewReader(bytes.NewReader(packed))
		if err != nil {
			return nil, fmt.Errorf("bad ZIP data: %w", err)
		}
		if _, err := io.ReadFull(zr, tmp); err != nil {
			return nil, fmt.Errorf("ZIP data holds fewer than the %d bytes of its pixels", n)
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

// maxEXRAttribute bounds one header attribute's value; real headers hold
// at most a few kilobytes (a preview image is the largest).
const maxEXRAttribute = 1 << 24

// exrUsedAttributes are the header attributes DecodeEXR reads; every other
// is skipped unread, whatever it claims, so that a small (or sparse) file
// cannot make the reader hold attributes it does not use.
var exrUsedAttributes = map[string]bool{"channels": true, "compression": true, "dataWindow": true, "tiles": true, exrCellSize: true}

// readEXRHeader reads the attributes up to the empty name that ends the
// header, and returns those DecodeEXR uses with the number of bytes read
// so far. An attribute named twice is an error, as in OpenEXR.
func readEXRHeader(br *bufio.Reader, size int64) (map[string][]byte, int64, error) {
	seen := map[string]bool{}
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
		if seen[name] {
			return nil, 0, fmt.Errorf("exr: attribute %q appears twice in the header", name)
		}
		seen[name] = true
		read += sz
		if !exrUsedAttributes[name] {
			if _, err := br.Discard(int(sz)); err != nil {
				return nil, 0, errors.New("exr: truncated header")
			}
			continue
		}
		v := make([]byte, sz)
		if _, err := io.ReadFull(br, v); err != nil {
			return nil, 0, errors.New("exr: truncated header")
		}
		attrs[name] = v
	}
}

// parseEXRChannels reads a chlist attribute.
func parseEXRChannels(v []byte) ([]exrChannel, error) {
	var out []exrChannel
	for len(v) > 0 && v[0] != 0 {
		if len(out) == maxEXRChannels {
			return nil, fmt.Errorf("exr: more than %d channels", maxEXRChannels)
		}
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
	names := make([]string, min(len(cs), 8))
	for i := range names {
		names[i] = cs[i].name
	}
	return 0, fmt.Errorf("exr: %d channels %v; want Y, R or a single channel", len(cs), names)
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
		return fmt.Errorf("RLE data holds %d of the %d bytes of its pixels", o, len(dst))
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
