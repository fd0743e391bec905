package terrain

import (
	"context"
	"cordillera/internal/parallel"
	"math"
)

// parallelNormalsFrom is the sample count from which Normals splits its rows
// across all cores; below it the goroutines cost more than they save.
const parallelNormalsFrom = 64 * 64

// normalsBand is how many vertex rows Normals hands a worker at a time. A
// band recomputes the triangles of the cell row above it, so longer bands
// waste less; 32 rows still give every core work on a 257² map.
const normalsBand = 32

// FaceNormal returns the unit normal of the triangle (a, b, c),
// normalize((b−a)×(c−a)) (thesis listing 5.1, line 61). It points to the
// side from which a, b, c are seen counter-clockwise; a degenerate triangle
// gives the zero vector.
func FaceNormal(a, b, c [3]float64) [3]float64 {
	u := [3]float64{b[0] - a[0], b[1] - a[1], b[2] - a[2]}
	v := [3]float64{c[0] - a[0], c[1] - a[1], c[2] - a[2]}
	n := [3]float64{
		u[1]*v[2] - u[2]*v[1],
		u[2]*v[0] - u[0]*v[2],
		u[0]*v[1] - u[1]*v[0],
	}
	l := math.Sqrt(n[0]*n[0] + n[1]*n[1] + n[2]*n[2])
	if l == 0 {
		return n
	}
	return [3]float64{n[0] / l, n[1] / l, n[2] / l}
}

// Normals returns the vertex normals of the terrain mesh, three float32 per
// sample (x, y, z; y up; sample order), in the world frame where sample
// (col, row, h) sits at (col·CellSize, h·VerticalScale, row·CellSize).
//
// It follows thesis listing 5.1 (method ComputeData): every cell with
// corners a = (col, row), b = a+1, c = a+Width, d = c+1 is split into the
// upper triangle (a, c, b) and the lower triangle (b, c, d), both
// counter-clockwise seen from above; each triangle's unit normal is added to
// its three vertices, and each vertex's sum is normalised. So a vertex normal
// is the normalised sum of the unit normals of the up to six triangles
// around it, unweighted by area (the smooth shading of paper 001 as well).
//
// Instead of scattering each triangle to its vertices as the listing does,
// every vertex gathers its triangles, so that bands of rows can be computed
// on several cores; the sum is the same up to rounding. A map one sample
// wide or high has no triangles, and its normals are (0, 1, 0).
func Normals(m *Heightmap) []float32 {
	// context.Background is never done, so NormalsContext cannot fail here.
	out, _ := NormalsContext(context.Background(), m)
	return out
}

// NormalsContext is Normals as cancellable background work: it returns
// ctx.Err() soon after ctx is done, and in the browser it gives the page
// its frames while it runs (parallel.Rows).
func NormalsContext(ctx context.Context, m *Heightmap) ([]float32, error) {
	out := make([]float32, 3*m.Width*m.Height)
	if m.Width < 2 || m.Height < 2 {
		for i := 0; i < len(out); i += 3 {
			out[i+1] = 1
		}
		return out, nil
	}
	bands := (m.Height + normalsBand - 1) / normalsBand
	band := func(b int) {
		vertexNormalsRows(m, b*normalsBand, min((b+1)*normalsBand, m.Height), out[3*b*normalsBand*m.Width:])
	}
	if m.Width*m.Height < parallelNormalsFrom {
		for b := range bands {
			band(b)
		}
		return out, nil
	}
	if err := parallel.Rows(ctx, bands, nil, 0, 0, band); err != nil {
		return nil, err
	}
	return out, nil
}

// NormalsRows writes the vertex normals of rows [z0, z1) of m into out,
// three float32 per sample from row z0's first, exactly as Normals gives
// them for those rows. Writers that stream a large map use it a band of
// rows at a time, so that the normals of the whole map (12 bytes a
// sample) are never held at once.
func NormalsRows(m *Heightmap, z0, z1 int, out []float32) {
	if m.Width < 2 || m.Height < 2 {
		for i := 0; i < 3*m.Width*(z1-z0); i += 3 {
			out[i], out[i+1], out[i+2] = 0, 1, 0
		}
		return
	}
	vertexNormalsRows(m, z0, z1, out)
}

// vertexNormalsRows writes the normals of vertex rows [z0, z1) into out,
// row z0 first.
func vertexNormalsRows(m *Heightmap, z0, z1 int, out []float32) {
	// The triangle normals of the cell rows above and below a vertex row,
	// laid out as cellRowNormals writes them.
	above := make([]float64, 6*(m.Width-1))
	below := make([]float64, 6*(m.Width-1))
	if z0 > 0 {
		cellRowNormals(m, z0-1, above)
	}
	for z := z0; z < z1; z++ {
		if z < m.Height-1 {
			cellRowNormals(m, z, below)
		}
		for x := range m.Width {
			// Vertex (x, z) is corner a of the cell below-right of it (in
			// its upper triangle only), b of the cell below-left (both
			// triangles), c of the cell above-right (both) and d of the
			// cell above-left (lower triangle only).
			var nx, ny, nz float64
			if z < m.Height-1 {
				if x < m.Width-1 {
					f := below[6*x : 6*x+3]
					nx, ny, nz = nx+f[0], ny+f[1], nz+f[2]
				}
				if x > 0 {
					f := below[6*x-6 : 6*x]
					nx, ny, nz = nx+f[0]+f[3], ny+f[1]+f[4], nz+f[2]+f[5]
				}
			}
			if z > 0 {
				if x < m.Width-1 {
					f := above[6*x : 6*x+6]
					nx, ny, nz = nx+f[0]+f[3], ny+f[1]+f[4], nz+f[2]+f[5]
				}
				if x > 0 {
					f := above[6*x-3 : 6*x]
					nx, ny, nz = nx+f[0], ny+f[1], nz+f[2]
				}
			}
			l := math.Sqrt(nx*nx + ny*ny + nz*nz)
			i := 3 * ((z-z0)*m.Width + x)
			out[i] = float32(nx / l)
			out[i+1] = float32(ny / l)
			out[i+2] = float32(nz / l)
		}
		above, below = below, above
	}
}

// cellRowNormals writes the unit normals of both triangles of every cell in
// cell row z into faces: the upper triangle (a, c, b) of cell x at 6x, the
// lower triangle (b, c, d) at 6x+3. They are FaceNormal of the listing's
// triangles worked out by hand: with world heights y and cell size s,
// (c−a)×(b−a) = s·(ya−yb, s, ya−yc) and (c−b)×(d−b) = s·(yc−yd, s, yb−yd),
// and the common factor s goes away in the normalisation. The y component
// s is positive, so no triangle is degenerate and no vertex sum is zero.
func cellRowNormals(m *Heightmap, z int, faces []float64) {
	s := m.CellSize
	top := m.Samples[z*m.Width : (z+1)*m.Width]
	bottom := m.Samples[(z+1)*m.Width : (z+2)*m.Width]
	for x := range m.Width - 1 {
		ya := float64(top[x]) * m.VerticalScale
		yb := float64(top[x+1]) * m.VerticalScale
		yc := float64(bottom[x]) * m.VerticalScale
		yd := float64(bottom[x+1]) * m.VerticalScale
		setUnit(faces[6*x:6*x+3], ya-yb, s, ya-yc)
		setUnit(faces[6*x+3:6*x+6], yc-yd, s, yb-yd)
	}
}

// setUnit stores (x, y, z) scaled to unit length in dst.
func setUnit(dst []float64, x, y, z float64) {
	l := math.Sqrt(x*x + y*y + z*z)
	dst[0], dst[1], dst[2] = x/l, y/l, z/l
}
