package heightfile

import (
	"bytes"
	"compress/zlib"
	"cordillera/terrain"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
)

// TIFF tags Cordillera writes or reads (TIFF 6.0, GeoTIFF 1.1, GDAL).
const (
	tagImageWidth      = 256
	tagImageLength     = 257
	tagBitsPerSample   = 258
	tagCompression     = 259
	tagPhotometric     = 262
	tagStripOffsets    = 273
	tagSamplesPerPixel = 277
	tagRowsPerStrip    = 278
	tagStripByteCounts = 279
	tagPlanarConfig    = 284
	tagSoftware        = 305
	tagPredictor       = 317
	tagTileWidth       = 322
	tagTileLength      = 323
	tagTileOffsets     = 324
	tagTileByteCounts  = 325
	tagSampleFormat    = 339
	tagModelPixelScale = 33550
	tagModelTiepoint   = 33922
	tagModelTransform  = 34264
	tagGeoKeyDirectory = 34735
	tagGDALMetadata    = 42112
	tagGDALNoData      = 42113
)

// TIFF field types.
const (
	typeByte   = 1
	typeASCII  = 2
	typeShort  = 3
	typeLong   = 4
	typeDouble = 12
)

// Compression and predictor codes.
const (
	compressNone     = 1
	compressLZW      = 5
	compressDeflate  = 8
	compressPackBits = 32773
	compressDeflate2 = 32946 // the old code for Deflate, still written by some tools
	predictNone      = 1
	predictHorizonal = 2
	predictFloat     = 3
)

// EncodeTIFF writes m as a 16-bit grayscale TIFF (little-endian, Deflate
// with horizontal differencing, strips of about 64 KiB): sample h becomes
// round(h·65535) like the PNG. GDAL metadata records the heights in metres
// (scale VerticalScale/65535 and offset base, which gdalinfo reports and
// GDAL applies with -unscale) and the cell size; with geo, GeoTIFF tags
// (ModelPixelScale, ModelTiepoint, GeoKeyDirectory) place the map on the
// Earth.
func EncodeTIFF(w io.Writer, m *terrain.Heightmap, base float64, geo *GeoRef) error {
	return encodeTIFF(w, m, base, geo, nil, nil)
}

// tiffNoData is the sample value a TIFF with nodata gives its nodata
// samples; the heights then take 0–65534.
const tiffNoData = 65535

// encodeTIFF is EncodeTIFF with a nodata mask (nil for none): the samples
// where it is true are written as tiffNoData, named in a GDAL_NODATA tag,
// and the heights are scaled onto 0–65534 so that none is taken for
// nodata. progress, if set, receives the share of the writing's time
// done: each strip compressed, then the bytes written out (tiffShares).
func encodeTIFF(w io.Writer, m *terrain.Heightmap, base float64, geo *GeoRef, nodata []bool, progress terrain.Progress) error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("tiff: %w", err)
	}
	if math.IsNaN(base) || math.IsInf(base, 0) {
		return fmt.Errorf("tiff: base height %v must be finite", base)
	}
	if nodata != nil && len(nodata) != len(m.Samples) {
		return fmt.Errorf("tiff: nodata mask of %d samples for a %d×%d map", len(nodata), m.Width, m.Height)
	}
	top := 65535.0
	sample := func(i int) uint16 { return quantize16(m.Samples[i]) }
	if nodata != nil {
		top = tiffNoData - 1
		sample = func(i int) uint16 {
			if nodata[i] {
				return tiffNoData
			}
			return uint16(math.Round(min(max(float64(m.Samples[i]), 0), 1) * top))
		}
	}
	rowsPerStrip := max(1, 32768/m.Width)
	var strips [][]byte
	row := make([]byte, 2*m.Width)
	for y0 := 0; y0 < m.Height; y0 += rowsPerStrip {
		var buf bytes.Buffer
		zw, _ := zlib.NewWriterLevel(&buf, zlib.BestSpeed) // a valid level cannot fail
		for y := y0; y < min(y0+rowsPerStrip, m.Height); y++ {
			prev := uint16(0)
			for x := range m.Width {
				v := sample(y*m.Width + x)
				binary.LittleEndian.PutUint16(row[2*x:], v-prev) // predictor 2
				prev = v
			}
			zw.Write(row) // bytes.Buffer writes cannot fail
		}
		if err := zw.Close(); err != nil {
			return fmt.Errorf("tiff: %w", err)
		}
		strips = append(strips, buf.Bytes())
		report(progress, tiffShares[0]*float64(min(y0+rowsPerStrip, m.Height))/float64(m.Height))
	}

	metadata := "<GDALMetadata>\n" +
		"  <Item name=\"CELL_SIZE\">" + ftoa(m.CellSize) + "</Item>\n" +
		"  <Item name=\"OFFSET\" sample=\"0\" role=\"offset\">" + ftoa(base) + "</Item>\n" +
		"  <Item name=\"SCALE\" sample=\"0\" role=\"scale\">" + ftoa(m.VerticalScale/top) + "</Item>\n" +
		"</GDALMetadata>"
	var t tiffWriter
	t.add(tagImageWidth, typeLong, uint32(m.Width))
	t.add(tagImageLength, typeLong, uint32(m.Height))
	t.add(tagBitsPerSample, typeShort, 16)
	t.add(tagCompression, typeShort, compressDeflate)
	t.add(tagPhotometric, typeShort, 1) // BlackIsZero
	offsets := make([]uint32, len(strips))
	counts := make([]uint32, len(strips))
	for i, s := range strips {
		counts[i] = uint32(len(s))
	}
	t.add(tagStripOffsets, typeLong, offsets...) // filled in by layout
	t.add(tagSamplesPerPixel, typeShort, 1)
	t.add(tagRowsPerStrip, typeLong, uint32(rowsPerStrip))
	t.add(tagStripByteCounts, typeLong, counts...)
	t.add(tagPlanarConfig, typeShort, 1)
	t.addASCII(tagSoftware, "Cordillera")
	t.add(tagPredictor, typeShort, predictHorizonal)
	t.add(tagSampleFormat, typeShort, 1)
	if geo != nil {
		t.addDoubles(tagModelPixelScale, geo.PixelX, geo.PixelY, 0)
		t.addDoubles(tagModelTiepoint, 0, 0, 0, geo.OriginX, geo.OriginY, 0)
		dir, doubles := geo.geoKeyDirectory()
		vals := make([]uint32, len(dir))
		for i, v := range dir {
			vals[i] = uint32(v)
		}
		t.add(tagGeoKeyDirectory, typeShort, vals...)
		if len(doubles) > 0 {
			t.addDoubles(tagGeoDoubleParams, doubles...)
		}
	}
	t.addASCII(tagGDALMetadata, metadata)
	if nodata != nil {
		t.addASCII(tagGDALNoData, strconv.Itoa(tiffNoData))
	}

	dataStart := t.layout()
	for i := range strips {
		offsets[i] = uint32(dataStart)
		dataStart += int64(len(strips[i]))
	}
	if dataStart > math.MaxUint32 {
		return fmt.Errorf("tiff: %d×%d map needs %d bytes, more than a classic TIFF's 4 GiB", m.Width, m.Height, dataStart)
	}
	t.set(tagStripOffsets, offsets...)
	if err := writeParts(w, append([][]byte{t.bytes()}, strips...), progress, tiffShares[0]); err != nil {
		return fmt.Errorf("tiff: %w", err)
	}
	return nil
}

// tiffShares are the shares of a TIFF's writing time spent compressing
// the strips and writing them out, as measured in CPU time on generated
// maps: the fastest deflate level makes writing a large part.
var tiffShares = [2]float64{0.86, 0.14}

// ftoa formats a float for GDAL metadata: shortest round-trip decimal.
func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// tiffWriter builds a little-endian classic TIFF header and its one IFD,
// entries in ascending tag order, followed by the values that do not fit
// in an entry; the image data goes after them.
type tiffWriter struct {
	entries []tiffEntry
}

type tiffEntry struct {
	tag, typ uint16
	count    uint32
	data     []byte // little-endian values
}

func (t *tiffWriter) add(tag, typ uint16, vals ...uint32) {
	e := tiffEntry{tag: tag, typ: typ, count: uint32(len(vals))}
	for _, v := range vals {
		if typ == typeShort {
			e.data = binary.LittleEndian.AppendUint16(e.data, uint16(v))
		} else {
			e.data = binary.LittleEndian.AppendUint32(e.data, v)
		}
	}
	t.entries = append(t.entries, e)
}

func (t *tiffWriter) set(tag uint16, vals ...uint32) {
	for i := range t.entries {
		if t.entries[i].tag == tag {
			t.entries[i].data = t.entries[i].data[:0]
			for _, v := range vals {
				t.entries[i].data = binary.LittleEndian.AppendUint32(t.entries[i].data, v)
			}
		}
	}
}

func (t *tiffWriter) addDoubles(tag uint16, vals ...float64) {
	e := tiffEntry{tag: tag, typ: typeDouble, count: uint32(len(vals))}
	for _, v := range vals {
		e.data = binary.LittleEndian.AppendUint64(e.data, math.Float64bits(v))
	}
	t.entries = append(t.entries, e)
}

func (t *tiffWriter) addASCII(tag uint16, s string) {
	data := append([]byte(s), 0)
	t.entries = append(t.entries, tiffEntry{tag: tag, typ: typeASCII, count: uint32(len(data)), data: data})
}

// layout returns where the image data starts: after the header, the IFD
// and the out-of-line values.
func (t *tiffWriter) layout() int64 {
	n := int64(8 + 2 + 12*len(t.entries) + 4)
	for _, e := range t.entries {
		if len(e.data) > 4 {
			n += int64(len(e.data) + len(e.data)%2) // values start on a word boundary
		}
	}
	return n
}

// bytes encodes the header, the IFD and the out-of-line values.
func (t *tiffWriter) bytes() []byte {
	b := []byte{'I', 'I', 42, 0, 8, 0, 0, 0}
	b = binary.LittleEndian.AppendUint16(b, uint16(len(t.entries)))
	extra := uint32(8 + 2 + 12*len(t.entries) + 4)
	var tail []byte
	for _, e := range t.entries {
		b = binary.LittleEndian.AppendUint16(b, e.tag)
		b = binary.LittleEndian.AppendUint16(b, e.typ)
		b = binary.LittleEndian.AppendUint32(b, e.count)
		if len(e.data) <= 4 {
			var v [4]byte
			copy(v[:], e.data)
			b = append(b, v[:]...)
			continue
		}
		b = binary.LittleEndian.AppendUint32(b, extra+uint32(len(tail)))
		tail = append(tail, e.data...)
		if len(e.data)%2 == 1 {
			tail = append(tail, 0)
		}
	}
	b = binary.LittleEndian.AppendUint32(b, 0) // no next IFD
	return append(b, tail...)
}
