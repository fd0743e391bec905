// Package meshfile writes a heightmap as a glTF 2.0 mesh (.glb or .gltf)
// with positions, normals and texture coordinates, optionally decimated by
// the explorer's own level-of-detail error (package mesh) and optionally
// with a baked colour texture. It sits above heightfile and mesh because it
// uses the explorer's level of detail.
package meshfile

import (
	"bytes"
	"cordillera/internal/atomicfile"
	"cordillera/terrain"
	"cordillera/terrain/mesh"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// Options shape the mesh.
type Options struct {
	// MaxError is the largest height error, in world units, the decimated
	// mesh may have anywhere; 0 keeps every sample (two triangles per cell).
	MaxError float64
	// Texture, if set, is embedded as a PNG and used as the base colour,
	// mapped by the UVs (u across the columns, v down the rows).
	Texture image.Image
	// Binary writes GLB (one file, binary buffer); otherwise glTF JSON with
	// its buffers and image embedded as data URIs.
	Binary bool
	// Origin is where the map's first sample lies in the world (x east, y
	// up, z south, in world units): the node's translation. A tile of a
	// larger map puts its own corner here, so tiles imported together
	// join.
	Origin [3]float64
	// Normals, when not nil, are the vertex normals to write (three per
	// sample, row by row, as terrain.Normals gives them); nil computes
	// them from m. A tile takes them from the whole map, so its border
	// normals are its neighbours' and the join shades without a seam.
	Normals []float32
}

// chunkCells is the chunk size the decimation chooses steps for: the
// explorer's own.
const chunkCells = 32

// Save writes m to path as .glb or .gltf (by extension), atomically.
func Save(path string, m *terrain.Heightmap, opt Options) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".glb":
		opt.Binary = true
	case ".gltf":
		opt.Binary = false
	default:
		return fmt.Errorf("%s: a glTF mesh is saved as .glb or .gltf", path)
	}
	return atomicfile.Write(path, func(w io.Writer) error { return Encode(w, m, opt) })
}

// Encode writes m as a glTF 2.0 asset: one mesh of one indexed triangle
// primitive, vertex (col, row, h) at (col·CellSize, h·VerticalScale,
// row·CellSize) — +Y up, rows growing along +Z — with the vertex normals
// of terrain.Normals, UVs (col/(W−1), row/(H−1)) and triangles
// counter-clockwise from above (glTF's front faces).
//
// With opt.MaxError > 0 every chunk of 32×32 cells takes the coarsest
// sampling step (1 to 16) whose geometric error ε (mesh.LOD.Error: the
// largest height difference between the full surface and the coarse one)
// is at most MaxError; samples on the border with a coarser neighbour are
// moved onto the neighbour's edge, so the surface has no cracks and stays
// within MaxError of the map everywhere.
func Encode(w io.Writer, m *terrain.Heightmap, opt Options) error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("gltf: %w", err)
	}
	if m.Width < 2 || m.Height < 2 {
		return fmt.Errorf("gltf: map is %d×%d; a mesh needs at least 2×2 samples", m.Width, m.Height)
	}
	if math.IsNaN(opt.MaxError) || opt.MaxError < 0 || math.IsInf(opt.MaxError, 0) {
		return fmt.Errorf("gltf: mesh error %v must be a non-negative number of world units", opt.MaxError)
	}
	if int64(m.Width)*int64(m.Height) > math.MaxUint32 {
		return fmt.Errorf("gltf: %d×%d samples exceed 32-bit indices", m.Width, m.Height)
	}
	if opt.Normals != nil && len(opt.Normals) != 3*m.Width*m.Height {
		return fmt.Errorf("gltf: %d normal components for a %d×%d map; want %d", len(opt.Normals), m.Width, m.Height, 3*m.Width*m.Height)
	}
	g := newGrid(m, opt.MaxError)
	normals := opt.Normals
	if normals == nil {
		normals = terrain.Normals(m)
	}

	// Compact the used samples into vertices, numbered in the order the
	// triangles first use them. Every slice is allocated once at its final
	// size: growing them by append copied the mesh over and over, most of
	// the time spent writing a large map.
	nTris := 0
	for j := range g.rows {
		for i := range g.cols {
			c0, r0, c1, r1, s := g.chunk(i, j)
			nTris += 2 * ((c1 - c0 + s - 1) / s) * ((r1 - r0 + s - 1) / s)
		}
	}
	index := make([]uint32, m.Width*m.Height) // 1-based vertex numbers, 0 unused
	var nv uint32
	vertex := func(col, row int) uint32 {
		k := row*m.Width + col
		if index[k] == 0 {
			nv++
			index[k] = nv
		}
		return index[k] - 1
	}
	tris := make([]uint32, 0, 3*nTris)
	for j := range g.rows {
		for i := range g.cols {
			c0, r0, c1, r1, s := g.chunk(i, j)
			for ra := r0; ra < r1; ra += s {
				rb := min(ra+s, r1)
				for ca := c0; ca < c1; ca += s {
					cb := min(ca+s, c1)
					a, b, c, d := vertex(ca, ra), vertex(cb, ra), vertex(ca, rb), vertex(cb, rb)
					tris = append(tris, a, c, b, b, c, d)
				}
			}
			// Samples on the chunk's borders finer than this chunk's step
			// belong to its finer neighbours' triangles.
		}
	}
	pos := make([][3]float32, nv)
	nor := make([][3]float32, nv)
	uv := make([][2]float32, nv)
	for k, id := range index {
		if id == 0 {
			continue
		}
		col, row := k%m.Width, k/m.Width
		pos[id-1] = [3]float32{float32(float64(col) * m.CellSize), g.height(col, row), float32(float64(row) * m.CellSize)}
		nor[id-1] = [3]float32{normals[3*k], normals[3*k+1], normals[3*k+2]}
		uv[id-1] = [2]float32{float32(col) / float32(m.Width-1), float32(row) / float32(m.Height-1)}
	}

	doc := gltf.NewDocument()
	doc.Asset.Generator = "Cordillera"
	attrs, err := modeler.WritePrimitiveAttributes(doc,
		modeler.PrimitiveAttribute{Name: gltf.POSITION, Data: pos},
		modeler.PrimitiveAttribute{Name: gltf.NORMAL, Data: nor},
		modeler.PrimitiveAttribute{Name: gltf.TEXCOORD_0, Data: uv})
	if err != nil {
		return fmt.Errorf("gltf: %w", err)
	}
	// Meshes of fewer than 65 536 vertices take 16-bit indices: half the
	// index buffer, and what every glTF consumer reads fastest.
	var indices int
	if len(pos) <= math.MaxUint16+1 {
		short := make([]uint16, len(tris))
		for i, v := range tris {
			short[i] = uint16(v)
		}
		indices = modeler.WriteIndices(doc, short)
	} else {
		indices = modeler.WriteIndices(doc, tris)
	}
	mat := &gltf.Material{Name: "terrain", PBRMetallicRoughness: &gltf.PBRMetallicRoughness{
		MetallicFactor: gltf.Float(0), RoughnessFactor: gltf.Float(1)}}
	if opt.Texture != nil {
		var buf bytes.Buffer
		if err := png.Encode(&buf, opt.Texture); err != nil {
			return fmt.Errorf("gltf: texture: %w", err)
		}
		img, err := modeler.WriteImage(doc, "terrain.png", "image/png", &buf)
		if err != nil {
			return fmt.Errorf("gltf: texture: %w", err)
		}
		doc.Samplers = append(doc.Samplers, &gltf.Sampler{MagFilter: gltf.MagLinear, MinFilter: gltf.MinLinearMipMapLinear,
			WrapS: gltf.WrapClampToEdge, WrapT: gltf.WrapClampToEdge})
		doc.Textures = append(doc.Textures, &gltf.Texture{Sampler: gltf.Index(0), Source: gltf.Index(img)})
		mat.PBRMetallicRoughness.BaseColorTexture = &gltf.TextureInfo{Index: 0}
	}
	doc.Materials = append(doc.Materials, mat)
	doc.Meshes = append(doc.Meshes, &gltf.Mesh{Name: "terrain", Primitives: []*gltf.Primitive{{
		Attributes: attrs, Indices: gltf.Index(indices), Material: gltf.Index(0), Mode: gltf.PrimitiveTriangles}}})
	node := &gltf.Node{Name: "terrain", Mesh: gltf.Index(0)}
	if opt.Origin != [3]float64{} {
		node.Translation = opt.Origin
	}
	doc.Nodes = append(doc.Nodes, node)
	doc.Scenes[0].Nodes = append(doc.Scenes[0].Nodes, 0)

	enc := gltf.NewEncoder(w)
	enc.AsBinary = opt.Binary
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("gltf: %w", err)
	}
	return nil
}

// grid is the decimated mesh's layout: a step per chunk and the heights of
// the border samples moved onto coarser neighbours' edges.
type grid struct {
	m          *terrain.Heightmap
	cols, rows int
	steps      []int // per chunk
}

func newGrid(m *terrain.Heightmap, maxError float64) *grid {
	l := mesh.NewLOD(m, chunkCells)
	g := &grid{m: m}
	g.cols, g.rows = l.Chunks()
	g.steps = make([]int, g.cols*g.rows)
	for j := range g.rows {
		for i := range g.cols {
			s := 1
			if maxError > 0 {
				for _, step := range []int{2, 4, 8, 16} {
					if e := l.Error(i, j, step); e <= maxError { // NaN: a step the chunk cannot use
						s = step
					}
				}
			}
			g.steps[j*g.cols+i] = s
		}
	}
	if maxError > 0 {
		g.keepWithin(maxError)
	}
	return g
}

// keepWithin makes the stitched mesh stay within maxError of the map.
// A chunk's own error ε_s is measured with its own border samples, but
// stitching moves the border vertices it shares with a coarser neighbour
// onto that neighbour's edge, by up to the neighbour's error: the two add
// up in the finer chunk's border cells (-mesh-error 2 gave 2.14 m). So
// every chunk's surface is measured as drawn, and where it strays too far
// the coarsest chunk among it and its neighbours is refined one step,
// until none strays; all at step 1 is the map itself, so this ends.
func (g *grid) keepWithin(maxError float64) {
	for {
		changed := false
		for j := range g.rows {
			for i := range g.cols {
				if g.chunkError(i, j) <= maxError {
					continue
				}
				bi, bj := i, j
				for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
					if g.step(i+d[0], j+d[1]) > g.step(bi, bj) {
						bi, bj = i+d[0], j+d[1]
					}
				}
				g.steps[bj*g.cols+bi] /= 2
				changed = true
			}
		}
		if !changed {
			return
		}
	}
}

// chunkError is the largest |map height − drawn height| over chunk (i, j)'s
// samples, the drawn surface being its triangles (a, c, b) and (b, c, d)
// of each step-sized cell through the stitched vertex heights.
func (g *grid) chunkError(i, j int) float64 {
	m := g.m
	c0, r0, c1, r1, s := g.chunk(i, j)
	worst := 0.0
	for ra := r0; ra < r1; ra += s {
		rb := min(ra+s, r1)
		for ca := c0; ca < c1; ca += s {
			cb := min(ca+s, c1)
			a, b := float64(g.height(ca, ra)), float64(g.height(cb, ra))
			c, d := float64(g.height(ca, rb)), float64(g.height(cb, rb))
			for y := ra; y <= rb; y++ {
				v := float64(y-ra) / float64(rb-ra)
				for x := ca; x <= cb; x++ {
					u := float64(x-ca) / float64(cb-ca)
					var h float64
					if u+v <= 1 {
						h = a + u*(b-a) + v*(c-a)
					} else {
						h = d + (1-u)*(c-d) + (1-v)*(b-d)
					}
					worst = max(worst, math.Abs(h-float64(m.Samples[y*m.Width+x])*m.VerticalScale))
				}
			}
		}
	}
	return worst
}

// chunk returns chunk (i, j)'s first and last sample column and row and
// its step.
func (g *grid) chunk(i, j int) (c0, r0, c1, r1, step int) {
	c0, r0 = i*chunkCells, j*chunkCells
	return c0, r0, min(c0+chunkCells, g.m.Width-1), min(r0+chunkCells, g.m.Height-1), g.steps[j*g.cols+i]
}

// step returns the step of chunk (i, j), or 0 outside the map.
func (g *grid) step(i, j int) int {
	if i < 0 || j < 0 || i >= g.cols || j >= g.rows {
		return 0
	}
	return g.steps[j*g.cols+i]
}

// height returns the world height of the vertex at (col, row): the
// sample's, or, on a border between chunks of different steps, the coarser
// chunk's edge at that point (linear between its vertices).
func (g *grid) height(col, row int) float32 {
	m := g.m
	h := func(c, r int) float64 { return float64(m.Samples[r*m.Width+c]) * m.VerticalScale }
	onCol := col%chunkCells == 0 && col > 0 && col < m.Width-1
	onRow := row%chunkCells == 0 && row > 0 && row < m.Height-1
	switch {
	case onCol && !onRow:
		// A vertical border: chunks left and right of it.
		j := min(row/chunkCells, g.rows-1)
		s := max(g.step(col/chunkCells-1, j), g.step(col/chunkCells, j))
		r0 := j * chunkCells
		r1 := min(r0+chunkCells, m.Height-1)
		a := r0 + (row-r0)/s*s
		b := min(a+s, r1)
		if a != row {
			t := float64(row-a) / float64(b-a)
			return float32(h(col, a) + t*(h(col, b)-h(col, a)))
		}
	case onRow && !onCol:
		i := min(col/chunkCells, g.cols-1)
		s := max(g.step(i, row/chunkCells-1), g.step(i, row/chunkCells))
		c0 := i * chunkCells
		c1 := min(c0+chunkCells, m.Width-1)
		a := c0 + (col-c0)/s*s
		b := min(a+s, c1)
		if a != col {
			t := float64(col-a) / float64(b-a)
			return float32(h(a, row) + t*(h(b, row)-h(a, row)))
		}
	}
	return float32(h(col, row))
}
