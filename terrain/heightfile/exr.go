package heightfile

import (
	"bytes"
	"compress/zlib"
	"cordillera/terrain"
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// EXR attribute names Cordillera adds to its files, so that a map read back
// keeps its cell size and the world height of 0.
const (
	exrCellSize = "cordilleraCellSize" // double, metres between samples
	exrBase     = "cordilleraBase"     // double, world height of map height 0
)

// EncodeEXR writes m as a single-channel ("Y", the OpenEXR luminance
// convention) 32-bit float OpenEXR scanline image holding world heights
// base + h·VerticalScale in metres: what Gaea, World Machine and Houdini
// call a float heightmap, free of 16-bit stair steps. The cell size and
// base go into two double attributes (cordilleraCellSize, cordilleraBase).
//
// The writer is our own, checked against OpenEXR's library (exrheader,
// exrmultiview in the tests). Each block of 16 scanlines is
// ZIP-compressed (OpenEXR's byte split and delta predictor, then zlib)
// and stored raw where that does not make it smaller, as the format asks:
// OpenEXR rejects a block stored larger than its pixels ("Unexpected data
// block length"), which noisy float heights often make.
func EncodeEXR(w io.Writer, m *terrain.Heightmap, base float64) error {
	return encodeEXR(w, m, base, "Y", nil)
}

// encodeEXR is EncodeEXR with the channel named channel, reporting to
// progress (nil: nowhere) the share of the writing's time done: the
// heights converted to metres, then each block compressed, then the bytes
// written out (exrShares).
func encodeEXR(w io.Writer, m *terrain.Heightmap, base float64, channel string, progress terrain.Progress) error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("exr: %w", err)
	}
	if math.IsNaN(base) || math.IsInf(base, 0) {
		return fmt.Errorf("exr: base height %v must be finite", base)
	}
	world := make([]float32, len(m.Samples))
	for i, v := range m.Samples {
		world[i] = float32(base + float64(v)*m.VerticalScale)
		if math.IsInf(float64(world[i]), 0) {
			return fmt.Errorf("exr: height %g m at sample %d overflows a 32-bit float", base+float64(v)*m.VerticalScale, i)
		}
	}
	report(progress, exrShares[0])
	var h exrHeader
	h.attr("channels", "chlist", append(append([]byte(channel+"\x00"), le32(2)...), // FLOAT
		0, 0, 0, 0, // pLinear, reserved
		1, 0, 0, 0, 1, 0, 0, 0, // x and y sampling
		0)) // end of the list
	h.attr("compression", "compression", []byte{exrZIP})
	box := append(append(le32(0), le32(0)...), append(le32(uint32(m.Width-1)), le32(uint32(m.Height-1))...)...)
	h.attr("dataWindow", "box2i", box)
	h.attr("displayWindow", "box2i", box)
	h.attr("lineOrder", "lineOrder", []byte{0}) // increasing y
	h.attr("pixelAspectRatio", "float", le32(math.Float32bits(1)))
	h.attr("screenWindowCenter", "v2f", make([]byte, 8))
	h.attr("screenWindowWidth", "float", le32(math.Float32bits(1)))
	h.attr(exrBase, "double", binary.LittleEndian.AppendUint64(nil, math.Float64bits(base)))
	h.attr(exrCellSize, "double", binary.LittleEndian.AppendUint64(nil, math.Float64bits(m.CellSize)))
	head := append([]byte{0x76, 0x2f, 0x31, 0x01, 2, 0, 0, 0}, h.b...)
	head = append(head, 0) // end of the header

	blocks := (m.Height + exrZIPLines - 1) / exrZIPLines
	var chunks [][]byte
	raw := make([]byte, 0, 4*m.Width*exrZIPLines)
	for b := range blocks {
		y0, y1 := b*exrZIPLines, min((b+1)*exrZIPLines, m.Height)
		raw = raw[:0]
		for _, v := range world[y0*m.Width : y1*m.Width] {
			raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(v))
		}
		data, err := zipBlock(raw)
		if err != nil {
			return fmt.Errorf("exr: %w", err)
		}
		chunk := append(le32(uint32(y0)), le32(uint32(len(data)))...)
		chunks = append(chunks, append(chunk, data...))
		report(progress, exrShares[0]+exrShares[1]*float64(b+1)/float64(blocks))
	}
	offset := uint64(len(head) + 8*blocks)
	table := make([]byte, 0, 8*blocks)
	for _, c := range chunks {
		table = binary.LittleEndian.AppendUint64(table, offset)
		offset += uint64(len(c))
	}
	if err := writeParts(w, append([][]byte{head, table}, chunks...), progress, 1-exrShares[2]); err != nil {
		return fmt.Errorf("exr: %w", err)
	}
	return nil
}

// exrShares are the shares of an EXR's writing time spent converting the
// heights to metres, compressing the blocks and writing them out, as
// measured in CPU time on generated maps.
var exrShares = [3]float64{0.10, 0.86, 0.04}

// report passes f to progress, which may be nil.
func report(progress terrain.Progress, f float64) {
	if progress != nil {
		progress(f)
	}
}

// writeParts writes parts to w in order, reporting to progress the share
// of their bytes written mapped onto [base, 1].
func writeParts(w io.Writer, parts [][]byte, progress terrain.Progress, base float64) error {
	var total, done int
	for _, p := range parts {
		total += len(p)
	}
	for _, p := range parts {
		if _, err := w.Write(p); err != nil {
			return err
		}
		done += len(p)
		report(progress, base+(1-base)*float64(done)/float64(total))
	}
	return nil
}

// OpenEXR's ZIP compression: code 3, blocks of 16 scanlines.
const (
	exrZIP      = 3
	exrZIPLines = 16
)

// zipBlock compresses one block of pixel bytes as OpenEXR's ZIP does: the
// even bytes, then the odd, as deltas (d = b − previous + 128), through
// zlib; when that is not smaller, the raw bytes themselves.
func zipBlock(raw []byte) ([]byte, error) {
	tmp := make([]byte, len(raw))
	half := (len(raw) + 1) / 2
	for i, b := range raw {
		if i%2 == 0 {
			tmp[i/2] = b
		} else {
			tmp[half+i/2] = b
		}
	}
	prev := tmp[0]
	for i := 1; i < len(tmp); i++ {
		cur := tmp[i]
		tmp[i] = cur - prev + 128
		prev = cur
	}
	var buf bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&buf, zlib.DefaultCompression) // a valid level cannot fail
	zw.Write(tmp)                                               // bytes.Buffer writes cannot fail
	if err := zw.Close(); err != nil {
		return nil, err
	}
	if buf.Len() >= len(raw) {
		return raw, nil
	}
	return buf.Bytes(), nil
}

// exrHeader collects header attributes: name, type, size, value.
type exrHeader struct{ b []byte }

func (h *exrHeader) attr(name, typ string, value []byte) {
	h.b = append(h.b, name...)
	h.b = append(h.b, 0)
	h.b = append(h.b, typ...)
	h.b = append(h.b, 0)
	h.b = append(h.b, le32(uint32(len(value)))...)
	h.b = append(h.b, value...)
}

func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }

// exrSource turns decoded heights into a Source: finite heights in metres,
// normalised, with the cell size unless it is NaN (none given).
func exrSource(data []float32, w, h int, cellSize float64) (*Source, error) {
	m := terrain.NewHeightmap(w, h)
	for i, v := range data {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, fmt.Errorf("exr: sample (%d,%d) is %v; want finite heights", i%w, i/w, v)
		}
		m.Samples[i] = v
	}
	src := newMetricSource(m)
	if !math.IsNaN(cellSize) {
		m.CellSize, src.HasCellSize = cellSize, true
	}
	return src, nil
}
