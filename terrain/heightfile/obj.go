package heightfile

import (
	"bufio"
	"cordillera/terrain"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// EncodeOBJ writes the terrain mesh of thesis listing 5.1 as a Wavefront OBJ
// file, one vertex per sample:
//
//   - v x y z: x = col·CellSize, y = h·VerticalScale, z = row·CellSize
//     (y up, like the thesis's (x, h, y)).
//   - vt u v: u = col/(Width−1), v = 1 − row/(Height−1). OBJ puts v = 0 at
//     the bottom of a texture, so the map's top row (row 0, the top of its
//     PNG) is v = 1 and an image of the map drapes the right way up. The
//     thesis's listing 5.1 (line 21) has v = row/(Height−1), OpenGL's
//     reading with the image loaded top row first; in OBJ viewers that
//     draped every texture flipped north to south.
//   - vn: the vertex normals of terrain.Normals.
//   - f a/a/a c/c/c b/b/b and f b/b/b c/c/c d/d/d: the two triangles of each
//     cell, a = (col, row), b = a+1, c = a+Width, d = c+1, 1-based and
//     counter-clockwise seen from above (+y), as in the listing.
//
// The map must pass Validate and be at least 2×2, or there is no mesh.
func EncodeOBJ(w io.Writer, m *terrain.Heightmap) error {
	return writeOBJ(w, m, nil)
}

// objShares are the shares of writing an OBJ that its four passes take
// (vertices, texture coordinates, normals, faces), as measured in CPU
// time on generated maps: a height and a normal's three components are
// formatted as shortest floats, the slow part, where a texture coordinate
// copies text formatted once. Each pass reports its rows evenly within
// its share.
var objShares = [4]float64{0.15, 0.04, 0.46, 0.35}

// objNormalsBand is how many rows of normals writeOBJ computes at a time.
const objNormalsBand = 32

// writeOBJ is EncodeOBJ reporting to progress (nil: nowhere) the share
// of the file's rows written, weighted by objShares.
func writeOBJ(w io.Writer, m *terrain.Heightmap, progress terrain.Progress) error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("obj: %w", err)
	}
	if m.Width < 2 || m.Height < 2 {
		return fmt.Errorf("obj: map is %d×%d; a mesh needs at least 2×2 samples", m.Width, m.Height)
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "# Cordillera terrain mesh: %dx%d samples, cell size %v, vertical scale %v\n",
		m.Width, m.Height, m.CellSize, m.VerticalScale)
	fmt.Fprintf(bw, "# %d vertices, %d triangles; y up; faces counter-clockwise seen from above\n",
		m.Width*m.Height, 2*(m.Width-1)*(m.Height-1))

	// Every x, z, u and v repeats along a row or a column: format each once.
	xText := formatEach(m.Width, func(col int) float64 { return float64(col) * m.CellSize })
	zText := formatEach(m.Height, func(row int) float64 { return float64(row) * m.CellSize })
	uText := formatEach(m.Width, func(col int) float64 { return float64(col) / float64(m.Width-1) })
	vText := formatEach(m.Height, func(row int) float64 { return 1 - float64(row)/float64(m.Height-1) })

	// rowDone reports that done of the rows of pass are written.
	rowDone := func(pass, done, rows int) {
		if progress == nil {
			return
		}
		f := 0.0
		for _, s := range objShares[:pass] {
			f += s
		}
		progress(min(f+objShares[pass]*float64(done)/float64(rows), 1))
	}
	// Each line is built in bufio's free space (AvailableBuffer), so Write
	// need not copy it.
	for row := range m.Height {
		for col := range m.Width {
			line := append(bw.AvailableBuffer(), "v "...)
			line = append(line, xText[col]...)
			line = append(line, ' ')
			line = appendFloat(line, float64(m.Samples[row*m.Width+col])*m.VerticalScale)
			line = append(line, ' ')
			line = append(line, zText[row]...)
			line = append(line, '\n')
			bw.Write(line)
		}
		if err := writeErr(bw); err != nil {
			return err
		}
		rowDone(0, row+1, m.Height)
	}
	for row := range m.Height {
		for col := range m.Width {
			line := append(bw.AvailableBuffer(), "vt "...)
			line = append(line, uText[col]...)
			line = append(line, ' ')
			line = append(line, vText[row]...)
			line = append(line, '\n')
			bw.Write(line)
		}
		if err := writeErr(bw); err != nil {
			return err
		}
		rowDone(1, row+1, m.Height)
	}
	// The normals are computed a band of rows at a time as they are
	// written, so that their time is spread over the pass's rows and the
	// map's normals are never held whole (12 bytes a sample).
	normals := make([]float32, 3*m.Width*objNormalsBand)
	for row := range m.Height {
		if row%objNormalsBand == 0 {
			terrain.NormalsRows(m, row, min(row+objNormalsBand, m.Height), normals)
		}
		k := 3 * (row % objNormalsBand) * m.Width
		for n := range slices.Chunk(normals[k:k+3*m.Width], 3) {
			line := append(bw.AvailableBuffer(), "vn "...)
			line = appendFloat(line, float64(n[0]))
			line = append(line, ' ')
			line = appendFloat(line, float64(n[1]))
			line = append(line, ' ')
			line = appendFloat(line, float64(n[2]))
			line = append(line, '\n')
			bw.Write(line)
		}
		if err := writeErr(bw); err != nil {
			return err
		}
		rowDone(2, row+1, m.Height)
	}
	for row := range m.Height - 1 {
		for col := range m.Width - 1 {
			a := row*m.Width + col + 1 // OBJ indices are 1-based
			b, c := a+1, a+m.Width
			d := c + 1
			line := appendFace(bw.AvailableBuffer(), a, c, b)
			line = appendFace(line, b, c, d)
			bw.Write(line)
		}
		if err := writeErr(bw); err != nil {
			return err
		}
		rowDone(3, row+1, m.Height) // the flush below is the last row
	}
	// bufio.Writer keeps the first write error and returns it from Flush.
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("obj: %w", err)
	}
	rowDone(3, 1, 1)
	return nil
}

// writeErr returns the first error bw met writing, checked once a row: a
// full disk or a cancelled write (atomicfile.WriteContext) stops the
// encoding instead of formatting gigabytes of lines nobody will read.
func writeErr(bw *bufio.Writer) error {
	if _, err := bw.Write(nil); err != nil {
		return fmt.Errorf("obj: %w", err)
	}
	return nil
}

// formatEach formats f(i) for i in [0, n).
func formatEach(n int, f func(i int) float64) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = appendFloat(nil, f(i))
	}
	return out
}

// appendFloat appends v in the shortest decimal that reads back as the same
// float32, without an exponent, which every OBJ reader parses.
func appendFloat(dst []byte, v float64) []byte {
	return strconv.AppendFloat(dst, float64(float32(v)), 'f', -1, 32)
}

// appendFace appends "f i/i/i j/j/j k/k/k\n": one index shared by the
// position, texture coordinate and normal of each corner.
func appendFace(dst []byte, i, j, k int) []byte {
	dst = append(dst, 'f')
	for _, n := range [3]int{i, j, k} {
		dst = append(dst, ' ')
		// Format the index once and copy it twice: indices are most of
		// the file, and formatting them most of the time.
		start := len(dst)
		dst = strconv.AppendInt(dst, int64(n), 10)
		end := len(dst)
		dst = append(dst, '/')
		dst = append(dst, dst[start:end]...)
		dst = append(dst, '/')
		dst = append(dst, dst[start:end]...)
	}
	return append(dst, '\n')
}
