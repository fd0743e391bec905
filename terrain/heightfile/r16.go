package heightfile

import (
	"cordillera/terrain"
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// EncodeR16 writes m as a RAW 16-bit heightmap, the .r16/.raw format Unity
// and Unreal import: one little-endian uint16 per sample, round(h·65535)
// with h clamped to [0, 1], row-major from row 0, no header. The format has
// no room for a size, so readers infer the side from the file length and
// the map must be square.
func EncodeR16(w io.Writer, m *terrain.Heightmap) error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("r16: %w", err)
	}
	if m.Width != m.Height {
		return fmt.Errorf("r16: map is %d×%d; a RAW heightmap must be square, since readers infer its side from its length", m.Width, m.Height)
	}
	row := make([]byte, 0, 2*m.Width)
	for y := range m.Height {
		row = row[:0]
		for _, h := range m.Samples[y*m.Width : (y+1)*m.Width] {
			row = binary.LittleEndian.AppendUint16(row, quantize16(h))
		}
		if _, err := w.Write(row); err != nil {
			return fmt.Errorf("r16: %w", err)
		}
	}
	return nil
}

// DecodeR16 reads a RAW 16-bit heightmap of size bytes (see EncodeR16) as a
// square map with heights v/65535 in [0, 1], cell size 1 and vertical scale
// 1. The side n comes from the length, which must be 2·n² with n from 2 to
// terrain.MaxSize (MaxFileSamples); other lengths are errors that name the
// nearest valid ones.
func DecodeR16(r io.Reader, size int64) (*terrain.Heightmap, error) {
	n, err := r16Side(size)
	if err != nil {
		return nil, err
	}
	m := terrain.NewHeightmap(n, n)
	row := make([]byte, 2*n)
	for y := range n {
		if _, err := io.ReadFull(r, row); err != nil {
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				return nil, fmt.Errorf("r16: truncated: %d-byte heightmap ends in row %d of %d", size, y, n)
			}
			return nil, fmt.Errorf("r16: %w", err)
		}
		for x := range n {
			m.Samples[y*n+x] = float32(binary.LittleEndian.Uint16(row[2*x:])) / 65535
		}
	}
	return m, nil
}

// r16Side returns the side n of a square RAW heightmap of size bytes.
func r16Side(size int64) (int, error) {
	const maxSize = 2 * MaxFileSamples
	switch {
	case size < 8:
		return 0, fmt.Errorf("r16: length %d bytes; a RAW heightmap holds 2·n² bytes, at least 8 (2×2)", size)
	case size > maxSize:
		return 0, fmt.Errorf("r16: length %d bytes exceeds %d (%d×%d, the largest map accepted)", size, int64(maxSize), terrain.MaxSize, terrain.MaxSize)
	}
	n := int64(math.Sqrt(float64(size / 2)))
	for n*n > size/2 { // guard the square root against rounding
		n--
	}
	for (n+1)*(n+1) <= size/2 {
		n++
	}
	if 2*n*n == size {
		return int(n), nil
	}
	lower := ""
	if n > 0 {
		lower = fmt.Sprintf("%d bytes (%d×%d) or ", 2*n*n, n, n)
	}
	return 0, fmt.Errorf("r16: length %d bytes is not 2·n² for a square map of n×n samples; nearest valid lengths: %s%d bytes (%d×%d)",
		size, lower, 2*(n+1)*(n+1), n+1, n+1)
}
