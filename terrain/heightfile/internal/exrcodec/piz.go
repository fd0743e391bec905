package exrcodec

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// OpenEXR's PIZ compression (code 4, blocks of 32 scanlines), decoded as
// OpenEXR's library does (ImfPizCompressor, ImfHuf and ImfWav; their
// OpenEXRCore ports internal_piz.c and internal_huf.c): the 16-bit words
// of every channel (a HALF sample is one word, a FLOAT or UINT two, low
// word first) went through a lookup table that packs the values used into
// a dense range, a 2D Haar wavelet per channel and word, and a Huffman
// code with run lengths. Undone here in reverse: Huffman, wavelet, table.
//
// A chunk is:
//
//	minNonZero, maxNonZero uint16    bytes of the value bitmap sent
//	bitmap[minNonZero..maxNonZero]   bit v: value v occurs
//	length int32, then length bytes of Huffman data:
//	  im, iM, tableLength, nBits, 0  uint32 each
//	  code lengths of symbols im..iM, 6 bits each, with zero runs
//	  nBits bits of codes, most significant bit first
//
// Every read is bounds-checked: a malformed chunk is an error, never an
// index out of range.

const (
	pizBitmapSize = 8192    // 65536 values, one bit each
	pizRange      = 1 << 16 // values of a 16-bit word
)

// PIZ are the tables one PIZ chunk needs, kept from chunk to chunk
// of an image: 1.3 MB that would otherwise be allocated for each.
type PIZ struct {
	lut   []uint16
	hcode []uint64
	dec   []hufDec
}

// Decode decodes a PIZ chunk of rows lines of cw samples of the channels
// into the layout of an uncompressed chunk.
func (t *PIZ) Decode(packed []byte, channels []Channel, cw, rows int) ([]byte, error) {
	words := 0
	for _, c := range channels {
		words += cw * rows * c.Bytes / 2
	}
	if len(packed) < 4 {
		return nil, errors.New("PIZ data too short for its value range")
	}
	le := binary.LittleEndian
	minNonZero, maxNonZero := int(le.Uint16(packed)), int(le.Uint16(packed[2:]))
	pos := 4
	if maxNonZero >= pizBitmapSize {
		return nil, fmt.Errorf("PIZ value bitmap ends at byte %d of %d", maxNonZero, pizBitmapSize)
	}
	var bitmap [pizBitmapSize]byte
	if minNonZero <= maxNonZero {
		n := maxNonZero - minNonZero + 1
		if pos+n > len(packed) {
			return nil, errors.New("PIZ value bitmap runs past the chunk")
		}
		copy(bitmap[minNonZero:], packed[pos:pos+n])
		pos += n
	}
	// The reverse table: the k-th value that occurs (0 always does).
	if t.lut == nil {
		t.lut = make([]uint16, pizRange)
		t.hcode = make([]uint64, hufEncSize)
		t.dec = make([]hufDec, hufDecSize)
	}
	lut := t.lut
	clear(lut)
	k := 0
	for v := range pizRange {
		if v == 0 || bitmap[v>>3]&(1<<(v&7)) != 0 {
			lut[k] = uint16(v)
			k++
		}
	}
	maxValue := uint16(k - 1)
	if pos+4 > len(packed) {
		return nil, errors.New("PIZ data lacks its Huffman length")
	}
	length := int64(le.Uint32(packed[pos:]))
	pos += 4
	if length > int64(len(packed)-pos) {
		return nil, fmt.Errorf("PIZ Huffman data claims %d bytes; the chunk holds %d", length, len(packed)-pos)
	}
	buf := make([]uint16, words)
	if err := t.hufUncompress(packed[pos:pos+int(length)], buf); err != nil {
		return nil, err
	}
	// The wavelet, per channel and per word of a sample.
	start := 0
	for _, c := range channels {
		size := c.Bytes / 2
		for j := range size {
			wav2Decode(buf[start:], j, cw, size, rows, cw*size, maxValue)
		}
		start += cw * rows * size
	}
	for i, v := range buf {
		buf[i] = lut[v]
	}
	// The words hold each channel's lines in turn; the chunk interleaves
	// the channels line by line.
	out := make([]byte, 2*words)
	o := 0
	for y := range rows {
		start := 0
		for _, c := range channels {
			n := cw * c.Bytes / 2
			for _, v := range buf[start+y*n : start+(y+1)*n] {
				le.PutUint16(out[o:], v)
				o += 2
			}
			start += n * rows
		}
	}
	return out, nil
}

// wav2Decode undoes OpenEXR's 2D Haar wavelet in place on the nx×ny words
// at in[start + x·ox + y·oy], level by level from the coarsest: with
// 14-bit arithmetic when every value is below 2^14 (mx), else modulo 2^16.
func wav2Decode(in []uint16, start, nx, ox, ny, oy int, mx uint16) {
	dec := wdec16
	if mx < 1<<14 {
		dec = wdec14
	}
	n := min(nx, ny)
	p := 1
	for p <= n {
		p <<= 1
	}
	p >>= 1
	p2 := p
	p >>= 1
	for p >= 1 {
		py := start
		ey := start + oy*(ny-p2)
		oy1, oy2, ox1, ox2 := oy*p, oy*p2, ox*p, ox*p2
		for ; py <= ey; py += oy2 {
			px := py
			ex := py + ox*(nx-p2)
			for ; px <= ex; px += ox2 {
				p01, p10 := px+ox1, px+oy1
				p11 := p10 + ox1
				i00, i10 := dec(in[px], in[p10])
				i01, i11 := dec(in[p01], in[p11])
				in[px], in[p01] = dec(i00, i01)
				in[p10], in[p11] = dec(i10, i11)
			}
			if nx&p != 0 { // an odd column left over
				p10 := px + oy1
				in[px], in[p10] = dec(in[px], in[p10])
			}
		}
		if ny&p != 0 { // an odd line left over
			px := py
			ex := py + ox*(nx-p2)
			for ; px <= ex; px += ox2 {
				p01 := px + ox1
				in[px], in[p01] = dec(in[px], in[p01])
			}
		}
		p2 = p
		p >>= 1
	}
}

// wdec14 splits a mean l and a difference h, as 16-bit signed numbers.
func wdec14(l, h uint16) (a, b uint16) {
	ls, hs := int(int16(l)), int(int16(h))
	ai := ls + (hs & 1) + (hs >> 1)
	return uint16(int16(ai)), uint16(int16(ai - hs))
}

// wdec16 splits a mean l and a difference h, modulo 2^16.
func wdec16(l, h uint16) (a, b uint16) {
	m, d := int(l), int(h)
	bb := (m - (d >> 1)) & 0xffff
	aa := (d + bb - 0x8000) & 0xffff
	return uint16(aa), uint16(bb)
}

// OpenEXR's Huffman coder (ImfHuf): symbols 0..65536, codes up to 58 bits,
// decoded through a table of the first 14 bits.
const (
	hufEncSize       = 1<<16 + 1
	hufDecBits       = 14
	hufDecSize       = 1 << hufDecBits
	hufDecMask       = hufDecSize - 1
	shortZerocodeRun = 59
	longZerocodeRun  = 63
	shortestLongRun  = 2 + longZerocodeRun - shortZerocodeRun
)

// hufDec is an entry of the decoding table: a code of at most hufDecBits
// (length, symbol), or the symbols of the longer codes that start with
// these bits.
type hufDec struct {
	len  int
	lit  uint32
	long []uint32
}

// hufUncompress decodes Huffman data into out, which it must fill.
func (t *PIZ) hufUncompress(in []byte, out []uint16) error {
	if len(in) < 20 {
		if len(out) != 0 {
			return errors.New("PIZ Huffman data too short for its header")
		}
		return nil
	}
	le := binary.LittleEndian
	im, iM, nBits := le.Uint32(in), le.Uint32(in[4:]), uint64(le.Uint32(in[12:]))
	if im >= hufEncSize || iM >= hufEncSize {
		return fmt.Errorf("PIZ Huffman symbols %d–%d out of range", im, iM)
	}
	if 20+(nBits+7)/8 > uint64(len(in)) {
		return fmt.Errorf("PIZ Huffman data claims %d bits; the chunk holds %d bytes", nBits, len(in)-20)
	}
	if t.hcode == nil {
		t.hcode = make([]uint64, hufEncSize)
		t.dec = make([]hufDec, hufDecSize)
	}
	hcode, dec := t.hcode, t.dec
	clear(hcode)
	clear(dec)
	rest, err := hufUnpackEncTable(in[20:], im, iM, hcode)
	if err != nil {
		return err
	}
	if nBits > 8*uint64(len(rest)) {
		return fmt.Errorf("PIZ Huffman data claims %d bits; %d bytes follow its table", nBits, len(rest))
	}
	if err := hufBuildDecTable(hcode, im, iM, dec); err != nil {
		return err
	}
	return hufDecode(hcode, dec, rest, nBits, iM, out)
}

var errHufTable = errors.New("bad PIZ Huffman table")

// hufUnpackEncTable reads the code lengths of symbols im..iM (6 bits each;
// 59–62 stand for runs of 2–5 zeros, 63 and 8 more bits for 6–261) into
// hcode, makes them canonical codes, and returns the data after the table.
func hufUnpackEncTable(in []byte, im, iM uint32, hcode []uint64) ([]byte, error) {
	var c uint64
	lc, p := 0, 0
	getBits := func(n int) (uint64, bool) {
		for lc < n {
			if p >= len(in) {
				return 0, false
			}
			c = c<<8 | uint64(in[p])
			p++
			lc += 8
		}
		lc -= n
		return (c >> uint(lc)) & (1<<uint(n) - 1), true
	}
	for ; im <= iM; im++ {
		l, ok := getBits(6)
		if !ok {
			return nil, errHufTable
		}
		hcode[im] = l
		if l < shortZerocodeRun {
			continue
		}
		zerun := l - shortZerocodeRun + 2
		if l == longZerocodeRun {
			r, ok := getBits(8)
			if !ok {
				return nil, errHufTable
			}
			zerun = r + shortestLongRun
		}
		if uint64(im)+zerun > uint64(iM)+1 {
			return nil, errHufTable
		}
		for range zerun {
			hcode[im] = 0
			im++
		}
		im--
	}
	// Canonical codes: count the codes of each length, give each length
	// its first code (shorter codes numerically higher), then number the
	// symbols of a length in order.
	var n [59]uint64
	for _, l := range hcode {
		n[l]++
	}
	var code uint64
	for l := 58; l > 0; l-- {
		next := (code + n[l]) >> 1
		n[l] = code
		code = next
	}
	for i, l := range hcode {
		if l > 0 {
			hcode[i] = l | n[l]<<6
			n[l]++
		}
	}
	return in[p:], nil
}

// hufBuildDecTable fills the decoding table from the canonical codes.
func hufBuildDecTable(hcode []uint64, im, iM uint32, dec []hufDec) error {
	for ; im <= iM; im++ {
		c, l := hcode[im]>>6, int(hcode[im]&63)
		if c>>uint(l) != 0 {
			return errHufTable
		}
		switch {
		case l > hufDecBits:
			d := &dec[c>>uint(l-hufDecBits)]
			if d.len != 0 {
				return errHufTable
			}
			d.long = append(d.long, im)
		case l > 0:
			base := int(c << uint(hufDecBits-l))
			for i := range 1 << uint(hufDecBits-l) {
				d := &dec[base+i]
				if d.len != 0 || len(d.long) != 0 {
					return errHufTable
				}
				d.len, d.lit = l, im
			}
		}
	}
	return nil
}

var errHufData = errors.New("bad PIZ Huffman data")

// hufDecode decodes nBits bits of in into out, which it must fill. The
// symbol rlc repeats the last word as many more times as the next 8 bits
// say.
func hufDecode(hcode []uint64, dec []hufDec, in []byte, nBits uint64, rlc uint32, out []uint16) error {
	h := &hufState{in: in, end: int((nBits + 7) / 8), out: out, rlc: rlc}
	for h.p < h.end {
		h.c = h.c<<8 | uint64(in[h.p])
		h.p++
		h.lc += 8
		for h.lc >= hufDecBits {
			d := &dec[(h.c>>uint(h.lc-hufDecBits))&hufDecMask]
			if d.len == 0 {
				if err := h.putLong(hcode, d); err != nil {
					return err
				}
				continue
			}
			if d.len > h.lc {
				return errHufData
			}
			h.lc -= d.len
			if err := h.put(d.lit); err != nil {
				return err
			}
		}
	}
	// The codes left in fewer than hufDecBits bits, less the padding of
	// the last byte.
	i := int((8 - nBits) & 7)
	h.c >>= uint(i)
	h.lc -= i
	for h.lc > 0 {
		d := &dec[(h.c<<uint(hufDecBits-h.lc))&hufDecMask]
		if d.len == 0 || d.len > h.lc {
			return errHufData
		}
		h.lc -= d.len
		if err := h.put(d.lit); err != nil {
			return err
		}
	}
	if h.o != len(out) {
		return fmt.Errorf("PIZ Huffman data holds %d of the %d words of its pixels", h.o, len(out))
	}
	return nil
}

// hufState is where hufDecode is: lc bits of c not yet decoded, the next
// byte p of in (of end), the next word o of out.
type hufState struct {
	in     []byte
	end, p int
	c      uint64
	lc     int
	out    []uint16
	o      int
	rlc    uint32
}

// put writes the decoded symbol sym, or for rlc the run the next 8 bits
// give the length of.
func (h *hufState) put(sym uint32) error {
	if sym != h.rlc {
		if h.o >= len(h.out) {
			return errHufData
		}
		h.out[h.o] = uint16(sym)
		h.o++
		return nil
	}
	if h.lc < 8 {
		if h.p >= h.end {
			return errHufData
		}
		h.c = h.c<<8 | uint64(h.in[h.p])
		h.p++
		h.lc += 8
	}
	h.lc -= 8
	cs := int(uint8(h.c >> uint(h.lc)))
	if h.o+cs > len(h.out) || h.o == 0 {
		return errHufData
	}
	s := h.out[h.o-1]
	for range cs {
		h.out[h.o] = s
		h.o++
	}
	return nil
}

// putLong decodes and puts the symbol of a code longer than hufDecBits,
// one of d's candidates, reading more bits as the candidates need them.
func (h *hufState) putLong(hcode []uint64, d *hufDec) error {
	for _, sym := range d.long {
		l := int(hcode[sym] & 63)
		for h.lc < l && h.p < h.end {
			h.c = h.c<<8 | uint64(h.in[h.p])
			h.p++
			h.lc += 8
		}
		if h.lc >= l && hcode[sym]>>6 == (h.c>>uint(h.lc-l))&(1<<uint(l)-1) {
			h.lc -= l
			return h.put(sym)
		}
	}
	return errHufData
}
