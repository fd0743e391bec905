package heightfile

import (
	"bufio"
	"compress/zlib"
	"cordillera/terrain"
	"cordillera/terrain/inpaint"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/image/tiff/lzw"
)

// DecodeTIFF reads the first image of a classic TIFF of size bytes as a
// heightmap: the first sample of every pixel, unsigned (SampleFormat 1) or
// signed (2) integers of 8, 16 or 32 bits, or floats (3) of 32 or 64 bits;
// strips or tiles, chunky or planar; uncompressed, LZW, Deflate or
// PackBits, with or without a predictor (2, 3). golang.org/x/image/tiff
// reads neither signed nor float samples, hence this reader.
//
// Samples are heights in world units (Metric) when the file says how:
// signed or float samples, GeoTIFF georeferencing (a DEM), or a GDAL
// scale and offset; GDAL's nodata value and NaN samples are filled in from
// their neighbours. Otherwise unsigned samples are fractions of their
// range like a PNG's (v/65535 for 16 bits). GeoTIFF pixel scale and tie
// point give the cell size in metres, degrees converted at the map's
// middle latitude and a projected CRS's feet (or other unit) by its
// ProjLinearUnitsGeoKey; a map beyond a pole, or a cell size outside
// minCellSize..maxCellSize, is an error. Only the tags read here are
// read, each within a bound, and every strip or tile is decoded a row at
// a time after its claimed size is checked against the bytes stored.
func DecodeTIFF(r io.ReaderAt, size int64) (*Source, error) {
	d := &tiffDecoder{r: r, size: size}
	if err := d.readIFD(); err != nil {
		return nil, err
	}
	img, err := d.image()
	if err != nil {
		return nil, err
	}
	return d.source(img)
}

type tiffDecoder struct {
	r     io.ReaderAt
	size  int64
	order binary.ByteOrder
	tags  map[uint16]tiffField

	width, height       int
	bits, spp, format   int
	compression, planar int
	predictor           int
}

// tiffField is one IFD entry's values: integers, doubles or text.
type tiffField struct {
	ints    []uint64
	doubles []float64
	text    string
}

func (d *tiffDecoder) readAt(n int64, off int64) ([]byte, error) {
	if off < 0 || n < 0 || off > d.size || n > d.size-off {
		return nil, fmt.Errorf("tiff: %d bytes at offset %d lie beyond the end of the %d-byte file", n, off, d.size)
	}
	b := make([]byte, n)
	if _, err := d.r.ReadAt(b, off); err != nil && !(errors.Is(err, io.EOF) && off+n == d.size) {
		return nil, fmt.Errorf("tiff: %w", err)
	}
	return b, nil
}

// maxTIFFEntries bounds an IFD; real files have a few dozen entries.
const maxTIFFEntries = 1000

func (d *tiffDecoder) readIFD() error {
	head, err := d.readAt(8, 0)
	if err != nil {
		return errors.New("tiff: file too short for a TIFF header")
	}
	switch string(head[:2]) {
	case "II":
		d.order = binary.LittleEndian
	case "MM":
		d.order = binary.BigEndian
	default:
		return errors.New("tiff: not a TIFF file (no II or MM byte order mark)")
	}
	switch d.order.Uint16(head[2:]) {
	case 42:
	case 43:
		return errors.New("tiff: BigTIFF is not supported; convert with gdal_translate -co BIGTIFF=NO")
	default:
		return errors.New("tiff: not a TIFF file (bad magic number)")
	}
	off := int64(d.order.Uint32(head[4:]))
	nb, err := d.readAt(2, off)
	if err != nil {
		return err
	}
	n := int(d.order.Uint16(nb))
	if n == 0 || n > maxTIFFEntries {
		return fmt.Errorf("tiff: image directory has %d entries", n)
	}
	entries, err := d.readAt(int64(12*n), off+2)
	if err != nil {
		return err
	}
	// TIFF lists each tag once; a tag this reader uses, repeated, would be
	// read again each time (990 copies of a 4 MB GDALMetadata in a sparse
	// file took seconds), so repeats are refused before any is read.
	seen := map[uint16]bool{}
	for i := range n {
		tag := d.order.Uint16(entries[12*i:])
		if _, known := tiffTagCounts[tag]; known && seen[tag] {
			return fmt.Errorf("tiff: tag %d appears twice in the image directory", tag)
		}
		seen[tag] = true
	}
	d.tags = map[uint16]tiffField{}
	for i := range n {
		e := entries[12*i:]
		tag, typ, count := d.order.Uint16(e), d.order.Uint16(e[2:]), int64(d.order.Uint32(e[4:]))
		most, known := tiffTagCounts[tag]
		if !known {
			continue // tags this reader does not use are never read
		}
		if count > most {
			return fmt.Errorf("tiff: tag %d has %d values; at most %d make sense", tag, count, most)
		}
		f, err := d.field(typ, count, e[8:12])
		if err != nil {
			return fmt.Errorf("tiff: tag %d: %w", tag, err)
		}
		d.tags[tag] = f
	}
	return nil
}

// maxTIFFChunks bounds the strips or tiles of an image: a strip a line
// of 16385 lines in 16 planes, or tiles of 64² over MaxFileSamples.
const maxTIFFChunks = 1 << 18

// tiffTagCounts lists the tags DecodeTIFF reads, each with the most values
// it may hold; every other tag is skipped unread, whatever it claims, so
// that a small (or sparse) file cannot make the reader allocate for tags
// it does not use.
var tiffTagCounts = map[uint16]int64{
	tagImageWidth: 1, tagImageLength: 1, tagCompression: 1, tagSamplesPerPixel: 1,
	tagRowsPerStrip: 1, tagPlanarConfig: 1, tagPredictor: 1, tagTileWidth: 1, tagTileLength: 1,
	tagBitsPerSample: 16, tagSampleFormat: 16, // one per sample
	tagStripOffsets: maxTIFFChunks, tagStripByteCounts: maxTIFFChunks,
	tagTileOffsets: maxTIFFChunks, tagTileByteCounts: maxTIFFChunks,
	tagModelPixelScale: 3, tagModelTiepoint: 6 * 1024, tagModelTransform: 16,
	tagGeoKeyDirectory: 4 * 1024, tagGeoAsciiParams: 1 << 16,
	tagGDALMetadata: 1 << 22, // XML text; statistics of many bands stay far below
	tagGDALNoData:   256,
}

// typeSizes is the size in bytes of each TIFF field type, 0 if unknown.
var typeSizes = [...]int64{0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8}

func (d *tiffDecoder) field(typ uint16, count int64, inline []byte) (tiffField, error) {
	if int(typ) >= len(typeSizes) || typeSizes[typ] == 0 {
		return tiffField{}, nil // unknown types are skipped, as TIFF 6.0 asks
	}
	n := count * typeSizes[typ]
	if count < 0 || n > d.size {
		return tiffField{}, fmt.Errorf("%d values of %d bytes do not fit in the %d-byte file", count, typeSizes[typ], d.size)
	}
	data := inline
	if n > 4 {
		var err error
		if data, err = d.readAt(n, int64(d.order.Uint32(inline))); err != nil {
			return tiffField{}, err
		}
	}
	data = data[:n]
	var f tiffField
	switch typ {
	case typeASCII:
		f.text = strings.TrimRight(string(data), "\x00")
	case typeByte, 7:
		for _, b := range data {
			f.ints = append(f.ints, uint64(b))
		}
	case typeShort, 8:
		for i := int64(0); i < count; i++ {
			f.ints = append(f.ints, uint64(d.order.Uint16(data[2*i:])))
		}
	case typeLong, 9:
		for i := int64(0); i < count; i++ {
			f.ints = append(f.ints, uint64(d.order.Uint32(data[4*i:])))
		}
	case typeDouble:
		for i := int64(0); i < count; i++ {
			f.doubles = append(f.doubles, math.Float64frombits(d.order.Uint64(data[8*i:])))
		}
	case 11: // FLOAT
		for i := int64(0); i < count; i++ {
			f.doubles = append(f.doubles, float64(math.Float32frombits(d.order.Uint32(data[4*i:]))))
		}
	}
	return f, nil
}

// uint returns the first integer of a tag, or def when the tag is absent.
func (d *tiffDecoder) uint(tag uint16, def int) int {
	f, ok := d.tags[tag]
	if !ok || len(f.ints) == 0 {
		return def
	}
	return int(min(f.ints[0], math.MaxInt32))
}

// image checks the layout and decodes the first sample of every pixel.
func (d *tiffDecoder) image() ([]float64, error) {
	if err := d.sampleLayout(); err != nil {
		return nil, err
	}
	c, err := d.chunkLayout()
	if err != nil {
		return nil, err
	}
	return d.decodeChunks(c)
}

// sampleLayout reads and checks the image's size and how its samples are
// stored: their size, format and count per pixel, the planar
// configuration, the compression and the predictor.
func (d *tiffDecoder) sampleLayout() error {
	d.width, d.height = d.uint(tagImageWidth, 0), d.uint(tagImageLength, 0)
	if err := checkFileSize("tiff", d.width, d.height); err != nil {
		return err
	}
	d.bits = d.uint(tagBitsPerSample, 1)
	if f := d.tags[tagBitsPerSample]; len(f.ints) > 1 {
		for _, b := range f.ints {
			if int(b) != d.bits {
				return fmt.Errorf("tiff: samples of different sizes %v", f.ints)
			}
		}
	}
	d.spp = d.uint(tagSamplesPerPixel, 1)
	d.format = d.uint(tagSampleFormat, 1)
	d.compression = d.uint(tagCompression, compressNone)
	d.planar = d.uint(tagPlanarConfig, 1)
	d.predictor = d.uint(tagPredictor, predictNone)
	if err := d.checkSamples(); err != nil {
		return err
	}
	if d.planar != 1 && d.planar != 2 {
		return fmt.Errorf("tiff: PlanarConfiguration %d", d.planar)
	}
	switch d.compression {
	case compressNone, compressLZW, compressDeflate, compressDeflate2, compressPackBits:
	default:
		return fmt.Errorf("tiff: compression %d is not supported; want none, LZW, Deflate or PackBits", d.compression)
	}
	switch {
	case d.predictor == predictNone:
	case d.predictor == predictHorizonal && d.format != 3:
	case d.predictor == predictFloat && d.format == 3:
	default:
		return fmt.Errorf("tiff: predictor %d for SampleFormat %d", d.predictor, d.format)
	}
	return nil
}

// checkSamples checks the samples per pixel and the sample format and
// size: 8-, 16- or 32-bit integers, 32- or 64-bit floats.
func (d *tiffDecoder) checkSamples() error {
	switch {
	case d.spp < 1 || d.spp > 16:
		return fmt.Errorf("tiff: %d samples per pixel", d.spp)
	case d.format == 1 || d.format == 2:
		if d.bits != 8 && d.bits != 16 && d.bits != 32 {
			return fmt.Errorf("tiff: %d-bit integer samples; want 8, 16 or 32", d.bits)
		}
	case d.format == 3:
		if d.bits != 32 && d.bits != 64 {
			return fmt.Errorf("tiff: %d-bit float samples; want 32 or 64", d.bits)
		}
	default:
		return fmt.Errorf("tiff: SampleFormat %d; want 1 (unsigned), 2 (signed) or 3 (float)", d.format)
	}
	return nil
}

// tiffChunks is how an image's samples lie in its strips or tiles.
type tiffChunks struct {
	w, h            int // a chunk's size in pixels (h at most the image's height)
	across, down    int // chunks across and down the image
	need            int // chunks of the first plane: across·down
	perPixel        int // samples per pixel in a chunk: 1 with planar samples
	rowBytes        int // bytes of one row of a chunk
	offsets, counts []uint64
}

// chunkLayout reads the chunk layout, tiles or strips as tiles the width
// of the image, and refuses one whose stored bytes cannot hold the image.
func (d *tiffDecoder) chunkLayout() (tiffChunks, error) {
	var c tiffChunks
	_, tiled := d.tags[tagTileWidth]
	c.w, c.h = d.width, d.uint(tagRowsPerStrip, d.height)
	c.offsets, c.counts = d.tags[tagStripOffsets].ints, d.tags[tagStripByteCounts].ints
	if tiled {
		c.w, c.h = d.uint(tagTileWidth, 0), d.uint(tagTileLength, 0)
		c.offsets, c.counts = d.tags[tagTileOffsets].ints, d.tags[tagTileByteCounts].ints
		if c.w <= 0 || c.h <= 0 || c.w > MaxFileSide || c.h > MaxFileSide {
			return c, fmt.Errorf("tiff: tiles of %d×%d; want sides from 1 to %d", c.w, c.h, MaxFileSide)
		}
	}
	declared := fmt.Sprintf("%d×%d tiles", c.w, c.h)
	if !tiled {
		declared = fmt.Sprintf("strips of %d lines", c.h)
	}
	c.h = max(1, min(c.h, d.height))
	c.across, c.down = (d.width+c.w-1)/c.w, (d.height+c.h-1)/c.h
	// With planar samples only the first plane's chunks are read.
	c.perPixel = d.spp
	if d.planar == 2 {
		c.perPixel = 1
	}
	c.need = c.across * c.down
	if len(c.offsets) < c.need || len(c.counts) < c.need {
		return c, fmt.Errorf("tiff: %d data offsets and %d byte counts for %d chunks", len(c.offsets), len(c.counts), c.need)
	}
	c.rowBytes = c.w * c.perPixel * (d.bits / 8)
	// Chunks are decoded a row at a time, and only the rows that hold
	// image lines, so a tile larger than the image costs one row of it.
	// Refuse before reading what the stored bytes cannot hold: no codec
	// here expands more than 4096-fold (LZW's longest code string; Deflate
	// 1032, PackBits 64).
	stored, ratio := uint64(0), uint64(4096)
	if d.compression == compressNone {
		ratio = 1
	}
	for _, n := range c.counts[:c.need] {
		stored += min(n, uint64(d.size))
	}
	if decoded := uint64(d.height) * uint64(c.across) * uint64(c.rowBytes); stored*ratio < decoded {
		return c, fmt.Errorf("tiff: %d bytes of image data cannot hold the %d bytes of a %d×%d image in %s",
			stored, decoded, d.width, d.height, declared)
	}
	return c, nil
}

// decodeChunks decodes the first sample of every pixel, chunk by chunk.
func (d *tiffDecoder) decodeChunks(c tiffChunks) ([]float64, error) {
	bytesPer := d.bits / 8
	out := make([]float64, d.width*d.height)
	row := make([]byte, c.rowBytes)
	scratch := make([]byte, c.rowBytes)
	for cy := range c.down {
		for cx := range c.across {
			k := cy*c.across + cx
			r, done, err := d.chunkReader(int64(c.offsets[k]), int64(c.counts[k]))
			if err != nil {
				return nil, fmt.Errorf("%w (chunk %d of %d)", err, k+1, c.need)
			}
			for y := range min(c.h, d.height-cy*c.h) {
				if _, err := io.ReadFull(r, row); err != nil {
					done()
					if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
						return nil, fmt.Errorf("tiff: chunk %d of %d holds fewer than its %d lines of %d bytes", k+1, c.need, c.h, c.rowBytes)
					}
					return nil, fmt.Errorf("tiff: bad compressed data in chunk %d of %d: %w", k+1, c.need, err)
				}
				d.unpredict(row, c.perPixel, scratch)
				py := cy*c.h + y
				for x := range min(c.w, d.width-cx*c.w) {
					out[py*d.width+cx*c.w+x] = d.sample(row[x*c.perPixel*bytesPer:])
				}
			}
			done()
		}
	}
	return out, nil
}

// chunkReader returns a reader of the decompressed bytes of the strip or
// tile of n bytes at offset off, and the function that releases it.
func (d *tiffDecoder) chunkReader(off, n int64) (io.Reader, func(), error) {
	if off < 0 || n < 0 || off > d.size || n > d.size-off {
		return nil, nil, fmt.Errorf("tiff: %d bytes at offset %d lie beyond the end of the %d-byte file", n, off, d.size)
	}
	br := bufio.NewReaderSize(io.NewSectionReader(d.r, off, n), int(min(max(n, 16), 64<<10)))
	switch d.compression {
	case compressLZW:
		lr := lzw.NewReader(br, lzw.MSB, 8)
		return lr, func() { lr.Close() }, nil
	case compressDeflate, compressDeflate2:
		zr, err := zlib.NewReader(br)
		if err != nil {
			return nil, nil, fmt.Errorf("tiff: bad Deflate data: %w", err)
		}
		return zr, func() { zr.Close() }, nil
	case compressPackBits:
		return &packBitsReader{src: br}, func() {}, nil
	}
	return br, func() {}, nil
}

// unpredict undoes the predictor on one row: horizontal differencing of
// integers (2), or of the bytes of floats split into planes, most
// significant first (3, as libtiff writes it). scratch is as long as row.
func (d *tiffDecoder) unpredict(row []byte, perPixel int, scratch []byte) {
	bytesPer := d.bits / 8
	switch d.predictor {
	case predictHorizonal:
		stride := perPixel * bytesPer
		for i := stride; i+bytesPer <= len(row); i += bytesPer {
			switch bytesPer {
			case 1:
				row[i] += row[i-stride]
			case 2:
				d.order.PutUint16(row[i:], d.order.Uint16(row[i:])+d.order.Uint16(row[i-stride:]))
			case 4:
				d.order.PutUint32(row[i:], d.order.Uint32(row[i:])+d.order.Uint32(row[i-stride:]))
			}
		}
	case predictFloat:
		for i := perPixel; i < len(row); i++ {
			row[i] += row[i-perPixel]
		}
		tmp := scratch[:len(row)]
		copy(tmp, row)
		wc := len(row) / bytesPer
		for k := range wc {
			for b := range bytesPer {
				// Store the value in the file's byte order for sample().
				pos := b
				if d.order == binary.LittleEndian {
					pos = bytesPer - 1 - b
				}
				row[k*bytesPer+pos] = tmp[b*wc+k]
			}
		}
	}
}

// sample decodes the sample at the start of p.
func (d *tiffDecoder) sample(p []byte) float64 {
	switch d.format<<8 | d.bits {
	case 1<<8 | 8:
		return float64(p[0])
	case 1<<8 | 16:
		return float64(d.order.Uint16(p))
	case 1<<8 | 32:
		return float64(d.order.Uint32(p))
	case 2<<8 | 8:
		return float64(int8(p[0]))
	case 2<<8 | 16:
		return float64(int16(d.order.Uint16(p)))
	case 2<<8 | 32:
		return float64(int32(d.order.Uint32(p)))
	case 3<<8 | 32:
		return float64(math.Float32frombits(d.order.Uint32(p)))
	default: // 3<<8 | 64
		return math.Float64frombits(d.order.Uint64(p))
	}
}

// gdalItem matches an Item of GDAL's metadata XML.
var gdalItem = regexp.MustCompile(`<Item name="([A-Za-z_]+)"[^>]*>([^<]*)</Item>`)

// source turns the samples into a Source: world heights where the file
// says how, nodata filled, georeferencing and cell size.
func (d *tiffDecoder) source(img []float64) (*Source, error) {
	meta, err := d.gdalMetadata()
	if err != nil {
		return nil, err
	}
	keys := parseGeoKeys(d.tags[tagGeoKeyDirectory].ints)
	citation := geoCitation(d.tags[tagGeoKeyDirectory].ints, d.tags[tagGeoAsciiParams].text)
	geo, err := geoRefFromTags(d.tags[tagModelPixelScale].doubles, d.tags[tagModelTiepoint].doubles,
		d.tags[tagModelTransform].doubles, keys, citation)
	if err != nil {
		return nil, err
	}
	var notes []string
	unit, note, err := verticalUnit(keys, citation)
	if err != nil {
		return nil, err
	}
	if note != "" {
		notes = append(notes, note)
	}
	scale, hasScale := meta["SCALE"]
	offset := meta["OFFSET"]
	if !hasScale || scale == 0 {
		scale = 1
	}
	metric := d.format != 1 || geo != nil || hasScale
	// Heights in feet become metres with the GDAL scale and offset, which
	// are in the file's unit.
	scale, offset = scale*unit, offset*unit
	nodata := math.NaN()
	if s := strings.TrimSpace(d.tags[tagGDALNoData].text); s != "" {
		if v, err := strconv.ParseFloat(s, 64); err == nil {
			nodata = v
		}
	}

	m := terrain.NewHeightmap(d.width, d.height)
	valid, filled, err := d.heights(m, img, metric, scale, offset, nodata)
	if err != nil {
		return nil, err
	}
	if filled < len(img) {
		inpaint.FillNoData(m, valid)
		notes = append(notes, fmt.Sprintf("filled %d nodata samples (%.2g %%) from their neighbours", len(img)-filled, 100*float64(len(img)-filled)/float64(len(img))))
	}
	var src *Source
	if metric {
		src = newMetricSource(m)
	} else {
		src = &Source{Map: m}
		if d.bits == 16 {
			if n := narrowRangeNote(m); n != "" {
				notes = append(notes, n)
			}
		}
	}
	src.Geo = geo
	if filled < len(img) {
		src.NoData = make([]bool, len(valid))
		for i, ok := range valid {
			src.NoData[i] = !ok
		}
	}
	if notes, err = d.cellSize(src, meta, notes); err != nil {
		return nil, err
	}
	src.Note = strings.Join(notes, "; ")
	return src, nil
}

// gdalMetadata returns the numbers of GDAL's metadata the decoder uses:
// SCALE, OFFSET and CELL_SIZE, where the file gives them.
func (d *tiffDecoder) gdalMetadata() (map[string]float64, error) {
	meta := map[string]float64{}
	for _, m := range gdalItem.FindAllStringSubmatch(d.tags[tagGDALMetadata].text, -1) {
		v, err := strconv.ParseFloat(strings.TrimSpace(m[2]), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			continue // an item that is no number, such as a name
		}
		switch name := m[1]; {
		case name != "SCALE" && name != "OFFSET" && name != "CELL_SIZE":
		case math.IsNaN(v) || math.IsInf(v, 0):
			return nil, fmt.Errorf("tiff: GDAL metadata %s is %s; want a finite number", name, strings.TrimSpace(m[2]))
		default:
			meta[name] = v
		}
	}
	return meta, nil
}

// heights writes the samples of img into m: offset + scale·v in metres
// where metric, else v over the largest value the samples' bits hold. It
// returns which samples hold a height (not NaN, infinite or nodata) and
// how many do.
func (d *tiffDecoder) heights(m *terrain.Heightmap, img []float64, metric bool, scale, offset, nodata float64) ([]bool, int, error) {
	valid := make([]bool, len(img))
	full := math.Exp2(float64(d.bits)) - 1
	filled := 0
	for i, v := range img {
		if math.IsNaN(v) || math.IsInf(v, 0) || v == nodata {
			continue
		}
		valid[i] = true
		filled++
		if metric {
			v = offset + scale*v
		} else {
			v /= full
		}
		if f := float32(v); math.IsInf(float64(f), 0) || math.IsNaN(float64(f)) {
			return nil, 0, fmt.Errorf("tiff: sample (%d,%d) is %g, not a height a float32 can hold", i%d.width, i/d.width, v)
		}
		m.Samples[i] = float32(v)
	}
	if filled == 0 {
		return nil, 0, errors.New("tiff: every sample is nodata")
	}
	return valid, filled, nil
}

// cellSize sets src's cell size from the georeferencing, or else from
// GDAL's CELL_SIZE, and returns notes with what the georeferencing says
// of it.
func (d *tiffDecoder) cellSize(src *Source, meta map[string]float64, notes []string) ([]string, error) {
	switch geo := src.Geo; {
	case geo != nil:
		if err := geo.checkLatitudes(d.height); err != nil {
			return nil, err
		}
		cs, note := geo.cellSize(d.height)
		if err := checkCellSize("tiff", "from the georeferencing", cs); err != nil {
			return nil, err
		}
		src.Map.CellSize, src.HasCellSize = cs, true
		if note != "" {
			notes = append(notes, note)
		}
	default:
		if cs, ok := meta["CELL_SIZE"]; ok {
			if err := checkCellSize("tiff", "GDAL metadata CELL_SIZE", cs); err != nil {
				return nil, err
			}
			src.Map.CellSize, src.HasCellSize = cs, true
		}
	}
	return notes, nil
}

// packBitsReader decodes PackBits (TIFF 6.0 section 9) run-length data.
type packBitsReader struct {
	src  io.ByteReader
	lit  int  // literal bytes left to copy
	run  int  // repeats of b left
	b    byte // the byte a run repeats
	done bool
}

func (p *packBitsReader) Read(b []byte) (int, error) {
	n := 0
	for n < len(b) {
		switch {
		case p.run > 0:
			b[n] = p.b
			p.run--
			n++
			continue
		case p.lit > 0:
			c, err := p.src.ReadByte()
			if err != nil {
				p.lit = 0 // a literal cut short ends the data
				continue
			}
			b[n] = c
			p.lit--
			n++
			continue
		case p.done:
			if n == 0 {
				return 0, io.EOF
			}
			return n, nil
		}
		c, err := p.src.ReadByte()
		if err != nil {
			p.done = true
			continue
		}
		switch h := int8(c); {
		case h >= 0:
			p.lit = int(h) + 1
		case h != -128:
			v, err := p.src.ReadByte()
			if err != nil {
				return n, io.ErrUnexpectedEOF
			}
			p.b, p.run = v, 1-int(h)
		}
	}
	return n, nil
}
