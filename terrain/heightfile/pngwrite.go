package heightfile

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"hash/crc32"
	"io"
	"maps"
	"math"
	"runtime"
	"slices"
	"sync/atomic"

	"cordillera/terrain"
)

// pngSegmentRows is how many rows one worker filters and compresses at a
// time: about 2 MB of samples at 8193², enough for deflate to find its
// matches, small enough that every core has segments to work on.
const pngSegmentRows = 128

// writePNG16 writes m as a 16-bit grayscale PNG (writePNG), the samples
// quantised as EncodePNG16 documents, every row with the Up filter. A
// heightmap (huffmanOnly) is deflated with Huffman codes alone: string
// matches at deflate's fastest level make a smooth world's file a seventh
// to a quarter smaller but double the CPU, and Paeth's prediction a
// fourteenth smaller at half again the CPU, where the cheapest filter and
// coding keep writing a large map within about the time of generating it
// (docs/formats.md). Masks, mostly zero over wide areas, keep string
// matches.
//
// The samples are checked for NaN and infinities as they are quantised,
// on the workers, rather than in a pass of their own before (a quarter of
// the writing's CPU, on one core): a map with one is refused, naming the
// first, after the bytes were written, which the caller then discards.
func writePNG16(w io.Writer, m *terrain.Heightmap, text map[string]string, huffmanOnly bool, progress terrain.Progress) error {
	if err := checkHeader(m); err != nil {
		return err
	}
	var bad atomic.Int64 // the first sample that is not finite, or -1
	bad.Store(-1)
	err := writePNG(w, pngRows{width: m.Width, height: m.Height, depth: 16, colour: 0, bpp: 2, filter: up, huffmanOnly: huffmanOnly, progress: progress,
		fill: func(r0, r1 int, dst []byte) {
			for i, h := range m.Samples[r0*m.Width : r1*m.Width] {
				if h-h != 0 { // NaN or ±Inf
					firstBad(&bad, int64(r0*m.Width+i))
				}
				v := quantize16(h)
				dst[2*i], dst[2*i+1] = byte(v>>8), byte(v)
			}
		}}, text)
	if i := bad.Load(); i >= 0 {
		return fmt.Errorf("heightmap: sample %d (col %d, row %d) is %v", i, i%int64(m.Width), i/int64(m.Width), m.Samples[i])
	}
	return err
}

// firstBad lowers *bad to i where i is smaller or *bad is unset (-1).
func firstBad(bad *atomic.Int64, i int64) {
	for {
		old := bad.Load()
		if old >= 0 && old <= i || bad.CompareAndSwap(old, i) {
			return
		}
	}
}

// checkHeader is terrain.Heightmap.Validate less its pass over the
// samples, which writePNG16 makes as it writes them.
func checkHeader(m *terrain.Heightmap) error {
	switch {
	case m.Width <= 0 || m.Height <= 0:
		return fmt.Errorf("heightmap: size %d×%d must be positive", m.Width, m.Height)
	case len(m.Samples) != m.Width*m.Height:
		return fmt.Errorf("heightmap: %d samples for a %d×%d map", len(m.Samples), m.Width, m.Height)
	case !(m.CellSize > 0) || math.IsInf(m.CellSize, 0):
		return fmt.Errorf("heightmap: cell size %v must be positive and finite", m.CellSize)
	case !(m.VerticalScale > 0) || math.IsInf(m.VerticalScale, 0):
		return fmt.Errorf("heightmap: vertical scale %v must be positive and finite", m.VerticalScale)
	}
	return nil
}

// pngRows is an image for writePNG: its size, bit depth, PNG colour type
// and bytes a pixel, and fill, which writes the pixel bytes of rows
// [r0, r1) into dst one row after another. fill is called from several
// goroutines at once, for different rows, and must work from rows alone:
// writers of derived maps compute each band of rows from the heights, so
// that no image of the whole map is ever held. filter writes a filtered
// row (paeth when nil); huffmanOnly deflates without string matches
// (else at the fastest level); progress, if set, receives the fraction of
// rows written.
type pngRows struct {
	width, height int
	depth, colour byte
	bpp           int
	fill          func(r0, r1 int, dst []byte)
	filter        func(dst, cur, prev []byte, bpp int)
	huffmanOnly   bool
	progress      terrain.Progress
}

// writePNG writes img as a PNG with the rows compressed in parallel, as
// pigz does for gzip: the rows are cut into segments, each is filtered and
// deflated on its own (its dictionary starts empty) and ends on a byte
// boundary with a sync flush, so the segments' streams joined are one
// valid deflate stream; the zlib checksum is the segments' Adler-32 sums
// combined. Rows are filtered and deflated as img says: writing a large
// map costs about what generating it does, where image/png's default level
// on one core took ten times as long. The bytes
// written depend on the image alone, not on the number of cores: segments
// are cut at fixed rows and joined in order. No copy of the whole image is
// held, only the segments in flight.
func writePNG(w io.Writer, img pngRows, text map[string]string) error {
	width, height := img.width, img.height
	var hdr [13]byte
	binary.BigEndian.PutUint32(hdr[0:], uint32(width))
	binary.BigEndian.PutUint32(hdr[4:], uint32(height))
	hdr[8], hdr[9] = img.depth, img.colour // compression, filter, interlace 0
	cw := &chunkWriter{w: w}
	cw.raw([]byte("\x89PNG\r\n\x1a\n"))
	cw.chunk("IHDR", hdr[:])
	for _, k := range slices.Sorted(maps.Keys(text)) {
		cw.chunk("tEXt", append(append([]byte(k), 0), text[k]...))
	}
	// zlib header: deflate, 32 KB window, no preset dictionary, the
	// fastest level; FCHECK makes the 16-bit value a multiple of 31.
	stream := []byte{0x78, 0x01}

	segments := (height + pngSegmentRows - 1) / pngSegmentRows
	workers := min(runtime.GOMAXPROCS(0), segments)
	results := make([]chan pngSegment, segments)
	for i := range results {
		results[i] = make(chan pngSegment, 1)
	}
	// Workers take segments in order; the window of tokens bounds how many
	// compressed segments wait to be written.
	next := make(chan int)
	window := make(chan struct{}, 2*workers)
	done := make(chan struct{})
	defer close(done)
	// Buffers of segments written, for workers to fill again: growing a
	// new one for every segment cost a tenth of the writing.
	free := make(chan []byte, 3*workers)
	// Workers still running when this returns stop at done; nothing they
	// hold is written.
	for range workers {
		go img.deflateSegments(next, results, free, done)
	}
	go func() {
		defer close(next)
		for s := range segments {
			select {
			case window <- struct{}{}:
			case <-done:
				return
			}
			select {
			case next <- s:
			case <-done:
				return
			}
		}
	}()
	var sum uint32 = 1
	for s := range segments {
		r := <-results[s]
		<-window
		if s == 0 {
			r.data = append(stream, r.data...)
		}
		sum = adler32Combine(sum, r.sum, r.bytes)
		if s == segments-1 {
			r.data = binary.BigEndian.AppendUint32(r.data, sum)
		}
		cw.chunk("IDAT", r.data)
		if cw.err != nil {
			break
		}
		select {
		case free <- r.data:
		default:
		}
		if img.progress != nil && s+1 < segments {
			img.progress(float64(s+1) / float64(segments))
		}
	}
	cw.chunk("IEND", nil)
	if img.progress != nil && cw.err == nil {
		img.progress(1) // once the file is whole
	}
	return cw.err
}

// pngSegment is one segment of rows filtered and deflated: its stream, the
// Adler-32 sum of its filtered bytes and their count.
type pngSegment struct {
	data  []byte
	sum   uint32
	bytes int64
}

// deflateSegments is one of writePNG's workers: it filters and deflates
// the segments it takes from next, each into results[s], reusing the
// buffers in free, until next closes or done does.
func (img pngRows) deflateSegments(next <-chan int, results []chan pngSegment, free chan []byte, done <-chan struct{}) {
	width, height := img.width, img.height
	segments := len(results)
	level := flate.BestSpeed
	if img.huffmanOnly {
		level = flate.HuffmanOnly
	}
	fw, _ := flate.NewWriter(nil, level)
	rowBytes := img.bpp * width
	// The row above the segment (the filters' prior row), then the
	// segment's rows.
	raw := make([]byte, (pngSegmentRows+1)*rowBytes)
	filtered := make([]byte, 1+rowBytes)
	filter := img.filter
	if filter == nil {
		filter = paeth
	}
	for s := range next {
		var old []byte
		select {
		case old = <-free:
		default:
		}
		if old == nil {
			// Room for the segment stored whole: no growing.
			old = make([]byte, 0, pngSegmentRows*(1+rowBytes)+1024)
		}
		buf := bytes.NewBuffer(old[:0])
		fw.Reset(buf)
		sum := adler32.New()
		r0, r1 := s*pngSegmentRows, min((s+1)*pngSegmentRows, height)
		prev := raw[:rowBytes]
		if r0 > 0 {
			img.fill(r0-1, r0, prev)
		} else {
			clear(prev)
		}
		img.fill(r0, r1, raw[rowBytes:(1+r1-r0)*rowBytes])
		for r := r0; r < r1; r++ {
			cur := raw[(1+r-r0)*rowBytes : (2+r-r0)*rowBytes]
			filter(filtered, cur, prev, img.bpp)
			sum.Write(filtered)
			fw.Write(filtered)
			prev = cur
		}
		if s == segments-1 {
			fw.Close()
		} else {
			fw.Flush()
		}
		select {
		case results[s] <- pngSegment{buf.Bytes(), sum.Sum32(), int64(r1-r0) * int64(1+rowBytes)}:
		case <-done:
			return
		}
	}
}

// paeth filters the row cur against the row above, prev, into dst (the
// filter type byte, then the filtered bytes) with the Paeth predictor (PNG
// filter type 4), at bpp bytes a pixel.
func paeth(dst, cur, prev []byte, bpp int) {
	dst[0] = 4
	for i := range cur {
		var a, c int
		b := int(prev[i])
		if i >= bpp {
			a, c = int(cur[i-bpp]), int(prev[i-bpp])
		}
		p := a + b - c
		pa, pb, pc := absInt(p-a), absInt(p-b), absInt(p-c)
		pred := c
		if pa <= pb && pa <= pc {
			pred = a
		} else if pb <= pc {
			pred = b
		}
		dst[1+i] = cur[i] - byte(pred)
	}
}

func absInt(x int) int { return max(x, -x) }

// up filters the row cur against the row above, prev, into dst with the
// Up predictor (PNG filter type 2): each byte less the byte above.
func up(dst, cur, prev []byte, _ int) {
	dst[0] = 2
	for i, c := range cur {
		dst[1+i] = c - prev[i]
	}
}

// adler32Combine returns the Adler-32 of two byte strings joined, from
// their sums and the second's length (zlib's adler32_combine).
func adler32Combine(a1, a2 uint32, len2 int64) uint32 {
	const base = 65521
	rem := uint32(len2 % base)
	sum1 := a1 & 0xffff
	sum2 := rem * sum1 % base
	sum1 += (a2 & 0xffff) + base - 1
	sum2 += (a1 >> 16) + (a2 >> 16) + base - rem
	if sum1 >= base {
		sum1 -= base
	}
	if sum1 >= base {
		sum1 -= base
	}
	if sum2 >= base<<1 {
		sum2 -= base << 1
	}
	if sum2 >= base {
		sum2 -= base
	}
	return sum1 | sum2<<16
}

// chunkWriter writes PNG chunks and keeps the first error.
type chunkWriter struct {
	w   io.Writer
	err error
}

func (c *chunkWriter) raw(b []byte) {
	if c.err == nil {
		_, c.err = c.w.Write(b)
	}
}

func (c *chunkWriter) chunk(kind string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	c.raw(n[:])
	crc := crc32.NewIEEE()
	crc.Write([]byte(kind))
	crc.Write(data)
	c.raw([]byte(kind))
	c.raw(data)
	c.raw(binary.BigEndian.AppendUint32(nil, crc.Sum32()))
}
