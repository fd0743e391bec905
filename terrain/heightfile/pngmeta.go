package heightfile

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"cordillera/terrain"
)

// The tEXt keys a Cordillera PNG records its units in (docs/formats.md).
// PNG gives a gray sample no unit, so without them a reader has to be told
// what white means; with them a PNG converted to EXR or TIFF, or opened in
// the explorer, keeps its metres. Values are decimal numbers as Go's
// strconv writes them (the shortest that reads back exactly).
const (
	// A heightmap: the height in metres of black (sample 0) and of white
	// (65535, or 255 at 8 bits), linear between, and the distance between
	// neighbouring samples.
	pngKeyHeightMin = "cordillera:height-min-m"
	pngKeyHeightMax = "cordillera:height-max-m"
	pngKeyCellSize  = "cordillera:cell-size-m"
	// An erosion mask: its name, the unit of its values (UCUM: "m", "m2"),
	// the value at black and at white, and the scale between them
	// ("linear", or "log": value = min·(max/min)^(sample/65535)).
	pngKeyMask      = "cordillera:mask"
	pngKeyMaskUnit  = "cordillera:mask-unit"
	pngKeyMaskMin   = "cordillera:mask-min"
	pngKeyMaskMax   = "cordillera:mask-max"
	pngKeyMaskScale = "cordillera:mask-scale"
)

// pngKeyPrefix starts every key of ours; other tEXt chunks are passed over.
const pngKeyPrefix = "cordillera:"

// Bounds on what DecodePNG reads of the chunks before the image data. A
// PNG from any tool has a handful; a file of millions of empty chunks is
// refused rather than walked. Values of ours are short numbers and names.
const (
	maxPNGChunksBeforeData = 1024
	maxPNGTextBytes        = 256 // keyword, NUL and value of one of our tEXt chunks
)

// maxAbsHeight bounds the heights a PNG may record, in metres: as far from
// sea level as the largest cell size (maxCellSize), well beyond any
// planet's relief, and small enough that the float32 samples a map is
// drawn and meshed with keep their resolution.
const maxAbsHeight = 1e7

// heightText returns the tEXt chunks that record m's metres: black at
// base, white at base + VerticalScale, and the cell size.
func heightText(m *terrain.Heightmap, base float64) map[string]string {
	return map[string]string{
		pngKeyHeightMin: formatMetres(base),
		pngKeyHeightMax: formatMetres(base + m.VerticalScale),
		pngKeyCellSize:  formatMetres(m.CellSize),
	}
}

func formatMetres(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// MaskScale says what the samples of a normalised erosion mask stand for,
// for EncodeMaskPNG16 to record.
type MaskScale struct {
	Name string // which mask: flow, eroded, deposited
	Unit string // the unit of its values, in UCUM's ASCII form ("m", "m2")
	// Min and Max are the values at 0 and at 1 (at 1, also every value
	// above, which the mask clamps).
	Min, Max float64
	// Log: the samples lie on a log scale between Min and Max, value =
	// Min·(Max/Min)^h; otherwise linear, value = Min + h·(Max − Min).
	Log bool
}

// EncodeMaskPNG16 writes a normalised erosion mask as a 16-bit grayscale
// PNG (as EncodePNG16 writes heights) recording what its samples stand
// for (scale) and its cell size. Name and Unit must be printable ASCII.
func EncodeMaskPNG16(w io.Writer, m *terrain.Heightmap, scale MaskScale) error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("png: %w", err)
	}
	for _, s := range []string{scale.Name, scale.Unit} {
		if !printableASCII(s) {
			return fmt.Errorf("png: mask name or unit %q: want printable ASCII", s)
		}
	}
	kind := "linear"
	if scale.Log {
		kind = "log"
	}
	text := map[string]string{
		pngKeyMask:      scale.Name,
		pngKeyMaskUnit:  scale.Unit,
		pngKeyMaskMin:   formatMetres(scale.Min),
		pngKeyMaskMax:   formatMetres(scale.Max),
		pngKeyMaskScale: kind,
		pngKeyCellSize:  formatMetres(m.CellSize),
	}
	if err := writePNG16(w, m, text, false, nil); err != nil {
		return fmt.Errorf("png: %w", err)
	}
	return nil
}

func printableASCII(s string) bool {
	for i := range len(s) {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return s != ""
}

// pngTextScanner passes a PNG through unchanged while it notes the tEXt
// chunks of ours that come before the first IDAT, for DecodePNG to read
// once image/png has decoded the file (and so checked their CRCs). It
// holds no chunk but ours, at most maxPNGTextBytes each, and refuses a file
// with more than maxPNGChunksBeforeData chunks before its image data, or
// a key of ours given twice or longer than that bound.
type pngTextScanner struct {
	r    io.Reader
	text map[string]string

	skip   int64  // bytes still to pass before the next chunk header (the signature, a chunk's data and CRC)
	head   []byte // the chunk header read so far (length and type)
	data   []byte // the start of the tEXt chunk being read
	size   int64  // its length
	want   int64  // its bytes still to come
	chunks int    // chunks seen
	done   bool   // at the image data: nothing more to note
	err    error
}

func newPNGTextScanner(r io.Reader) *pngTextScanner {
	return &pngTextScanner{r: r, skip: 8, text: map[string]string{}}
}

func (s *pngTextScanner) Read(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.r.Read(p)
	if !s.done {
		if s.err = s.scan(p[:n]); s.err != nil {
			return 0, s.err
		}
	}
	return n, err
}

// scan follows the chunk structure through the bytes b.
func (s *pngTextScanner) scan(b []byte) error {
	for len(b) > 0 && !s.done {
		switch {
		case s.want > 0:
			// Keep at most maxPNGTextBytes+1 bytes: a longer chunk is
			// known to be too long without being held.
			k := int(min(s.want, int64(len(b))))
			keep := min(k, maxPNGTextBytes+1-len(s.data))
			s.data = append(s.data, b[:keep]...)
			b, s.want = b[k:], s.want-int64(k)
			if s.want == 0 {
				if err := s.note(); err != nil {
					return err
				}
				s.skip = 4 // the CRC
			}
		case s.skip > 0:
			k := min(s.skip, int64(len(b)))
			b, s.skip = b[k:], s.skip-k
		default:
			k := min(8-len(s.head), len(b))
			s.head = append(s.head, b[:k]...)
			b = b[k:]
			if len(s.head) < 8 {
				continue
			}
			length, kind := int64(binary.BigEndian.Uint32(s.head)), string(s.head[4:8])
			s.head = s.head[:0]
			if kind == "IDAT" || kind == "IEND" {
				s.done = true
				continue
			}
			if s.chunks++; s.chunks > maxPNGChunksBeforeData {
				return fmt.Errorf("png: more than %d chunks before the image data", maxPNGChunksBeforeData)
			}
			if kind == "tEXt" && length > 0 {
				s.data, s.size, s.want = s.data[:0], length, length
			} else {
				s.skip = length + 4
			}
		}
	}
	return nil
}

// note keeps the tEXt chunk just read if its key is ours.
func (s *pngTextScanner) note() error {
	key, value, _ := strings.Cut(string(s.data), "\x00")
	if !strings.HasPrefix(key, pngKeyPrefix) {
		return nil
	}
	if s.size > maxPNGTextBytes {
		return fmt.Errorf("png: tEXt %s is %d bytes; at most %d", printable(key), s.size, maxPNGTextBytes)
	}
	if _, twice := s.text[key]; twice {
		return fmt.Errorf("png: tEXt %s appears twice", printable(key))
	}
	s.text[key] = value
	return nil
}

// applyPNGText gives src the scale the tEXt chunks of ours record: the
// heights of black and white make it metric (Base and VerticalScale), the
// cell size sets CellSize. Keys of ours not read here (an erosion mask's)
// are left alone. Malformed values are errors naming the key.
func applyPNGText(src *Source, text map[string]string) error {
	lo, hasLo := text[pngKeyHeightMin]
	hi, hasHi := text[pngKeyHeightMax]
	switch {
	case hasLo && !hasHi:
		return fmt.Errorf("png: tEXt %s without %s", pngKeyHeightMin, pngKeyHeightMax)
	case hasHi && !hasLo:
		return fmt.Errorf("png: tEXt %s without %s", pngKeyHeightMax, pngKeyHeightMin)
	case hasLo:
		black, err := parseMetres(pngKeyHeightMin, lo, -maxAbsHeight, maxAbsHeight)
		if err != nil {
			return err
		}
		white, err := parseMetres(pngKeyHeightMax, hi, -maxAbsHeight, maxAbsHeight)
		if err != nil {
			return err
		}
		if !(white > black) {
			return fmt.Errorf("png: tEXt %s = %s m is not above %s = %s m; white must be higher than black",
				pngKeyHeightMax, hi, pngKeyHeightMin, lo)
		}
		src.Metric, src.Base, src.Map.VerticalScale = true, black, white-black
	}
	if v, ok := text[pngKeyCellSize]; ok {
		cs, err := parseMetres(pngKeyCellSize, v, minCellSize, maxCellSize)
		if err != nil {
			return err
		}
		src.HasCellSize, src.Map.CellSize = true, cs
	}
	return nil
}

// parseMetres reads the value of key as a number of metres in [lo, hi].
func parseMetres(key, value string, lo, hi float64) (float64, error) {
	v, err := strconv.ParseFloat(value, 64)
	if err != nil {
		return 0, fmt.Errorf("png: tEXt %s = %q: not a number of metres", key, value)
	}
	if !(v >= lo && v <= hi) || math.IsNaN(v) {
		return 0, fmt.Errorf("png: tEXt %s = %q: want a finite number of metres from %g to %g", key, value, lo, hi)
	}
	return v, nil
}

// printable returns a key as it reads in a message: itself when it is
// printable ASCII, quoted otherwise.
func printable(key string) string {
	if printableASCII(key) {
		return key
	}
	return strconv.Quote(key)
}
