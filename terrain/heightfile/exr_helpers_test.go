package heightfile

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// testChannel is a channel of a test EXR: its name, pixel type (0 UINT,
// 1 HALF, 2 FLOAT) and samples, row by row, already of that type's
// values (whole numbers for UINT, halves' values for HALF).
type testChannel struct {
	name      string
	pixelType int
	samples   []float32
}

// writeTestEXR writes a scanline OpenEXR file of the channels, which must
// come in OpenEXR's order (sorted by name), with no compression or with
// ZIPS (our zipBlock for each line), for the tests to feed OpenEXR's tools.
func writeTestEXR(t *testing.T, w, h int, chans []testChannel, compression int) []byte {
	t.Helper()
	var list []byte
	for _, c := range chans {
		list = append(list, c.name...)
		list = append(list, 0)
		list = append(list, le32(uint32(c.pixelType))...)
		list = append(list, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0)
	}
	var hd exrHeader
	hd.attr("channels", "chlist", append(list, 0))
	hd.attr("compression", "compression", []byte{byte(compression)})
	box := append(append(le32(0), le32(0)...), append(le32(uint32(w-1)), le32(uint32(h-1))...)...)
	hd.attr("dataWindow", "box2i", box)
	hd.attr("displayWindow", "box2i", box)
	hd.attr("lineOrder", "lineOrder", []byte{0})
	hd.attr("pixelAspectRatio", "float", le32(math.Float32bits(1)))
	hd.attr("screenWindowCenter", "v2f", make([]byte, 8))
	hd.attr("screenWindowWidth", "float", le32(math.Float32bits(1)))
	head := append([]byte{0x76, 0x2f, 0x31, 0x01, 2, 0, 0, 0}, hd.b...)
	head = append(head, 0)
	var chunks [][]byte
	for y := range h {
		var line []byte
		for _, c := range chans {
			for _, v := range c.samples[y*w : (y+1)*w] {
				switch c.pixelType {
				case 0:
					line = binary.LittleEndian.AppendUint32(line, uint32(v))
				case 1:
					line = binary.LittleEndian.AppendUint16(line, toHalf(t, v))
				default:
					line = binary.LittleEndian.AppendUint32(line, math.Float32bits(v))
				}
			}
		}
		if compression == exrZIPS {
			var err error
			if line, err = zipBlock(line); err != nil {
				t.Fatal(err)
			}
		}
		chunks = append(chunks, append(append(le32(uint32(y)), le32(uint32(len(line)))...), line...))
	}
	out := bytes.NewBuffer(head)
	off := uint64(len(head) + 8*h)
	for _, c := range chunks {
		binary.Write(out, binary.LittleEndian, off)
		off += uint64(len(c))
	}
	for _, c := range chunks {
		out.Write(c)
	}
	return out.Bytes()
}

// toHalf converts a float32 that a half holds exactly.
func toHalf(t *testing.T, f float32) uint16 {
	t.Helper()
	if f == 0 {
		return 0
	}
	b := math.Float32bits(f)
	exp := int(b>>23&0xff) - 127 + 15
	if exp <= 0 || exp >= 31 || b&0x1fff != 0 {
		t.Fatalf("%v is not a normal half", f)
	}
	return uint16(b>>16)&0x8000 | uint16(exp)<<10 | uint16(b>>13&0x3ff)
}

// testHeights returns w×h samples of a pixel type: the first 32 rows
// smooth (few distinct values, so PIZ's 14-bit wavelet), the others noise
// over the type's useful range (PIZ's 16-bit wavelet, every bit of a
// FLOAT's or UINT's two words).
func testHeights(w, h, pixelType int, seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, 7))
	out := make([]float32, w*h)
	for i := range out {
		x, y := i%w, i/w
		smooth := y < 32
		switch pixelType {
		case 0:
			if smooth {
				out[i] = float32(1000 + 3*x + y)
			} else {
				out[i] = float32(rng.IntN(5_000_000))
			}
		case 1:
			if smooth {
				out[i] = float32(100+x) + float32(y%4)*0.25
			} else {
				// Whole metres within ±2048, which halves hold exactly.
				out[i] = float32(rng.IntN(4095) - 2047)
			}
		default:
			if smooth {
				out[i] = 250.5 + float32(x)*0.75 - float32(y)
			} else {
				out[i] = -400 + 4000*rng.Float32()
			}
		}
	}
	return out
}
