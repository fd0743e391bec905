package exrcodec

import (
	"encoding/binary"
	"slices"
	"testing"
)

// Hand-made Huffman data the decoder must refuse: a run-length code
// before any value, more values than the chunk holds, codes past the
// data, and a table that claims more symbols than it lists.
func TestHufMalformed(t *testing.T) {
	// Two symbols, 5 (a literal) and 6 (the run-length code, iM), each
	// with a 1-bit code.
	table := func(nBits uint32, data ...byte) []byte {
		b := append(le32(5), le32(6)...)
		b = append(b, le32(0)...)
		b = append(b, le32(nBits)...)
		b = append(b, le32(0)...)
		b = append(b, 1<<2, 1<<4) // lengths 1 and 1 in 6 bits each
		return append(b, data...)
	}
	for name, tt := range map[string]struct {
		data []byte
		n    int
	}{
		"run first":      {table(9, 0x80, 0x80), 4},
		"too many":       {table(8, 0x00), 4},
		"bits past data": {table(64, 0x00), 2},
		"short header":   {[]byte{1, 2, 3}, 1},
		"symbols beyond": {append(append(le32(0), le32(70000)...), make([]byte, 12)...), 1},
	} {
		out := make([]uint16, tt.n)
		if err := new(PIZ).hufUncompress(tt.data, out); err == nil {
			t.Errorf("%s: no error (out %v)", name, out)
		}
	}
	// And the same table decodes a well-formed stream: 5 5, then a run of
	// two more.
	out := make([]uint16, 4)
	if err := new(PIZ).hufUncompress(table(11, 0b0010_0000, 0b0100_0000), out); err != nil || !slices.Equal(out, []uint16{5, 5, 5, 5}) {
		t.Errorf("well-formed: %v %v", out, err)
	}
}

func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
