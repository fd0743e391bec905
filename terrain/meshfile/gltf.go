// Package meshfile writes a heightmap as a glTF 2.0 mesh (.glb or .gltf)
// with positions, normals and texture coordinates, optionally decimated by
// the explorer's own level-of-detail error (package mesh) and optionally
// with a baked colour texture. It sits above heightfile and mesh because it
// uses the explorer's level of detail.
package meshfile

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"path/filepath"
	"strings"

	"cordillera/internal/atomicfile"
	"cordillera/terrain"
	"cordillera/terrain/heightfile"
	"cordillera/terrain/mesh"

	"github.com/qmuntal/gltf"
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
	// NormalsFrom, when not nil, is the larger map the map is a tile of,
	// the tile's first sample being its sample NormalsAt: the vertex
	// normals are the larger map's (terrain.Normals) there, so a tile's
	// border normals are its neighbours' too and the join shades without a
	// seam. nil takes them from the map itself.
	NormalsFrom *terrain.Heightmap
	NormalsAt   image.Point
	// Progress, if set, receives the share of the writing's time done,
	// row by row in every pass over the map (meshShares); nil reports
	// nothing.
	Progress terrain.Progress
}

// chunkCells is the chunk size the decimation chooses steps for: the
// explorer's own.
const chunkCells = 32

// MaxBytes is the largest binary buffer (vertices, indices and texture)
// a mesh may have, in bytes. The GLB container's lengths are 32-bit, so no
// GLB holds more than 4 GiB, and consumers read the buffer whole into
// memory, often several times over while importing: a 4097² map's full
// mesh (0.94 GB) is written, an 8193² one (3.8 GB) is refused with the
// advice to cut it into tiles or decimate it.
const MaxBytes = 2_000_000_000

// maxBytes is MaxBytes; tests lower it to reach the refusal with small maps.
var maxBytes int64 = MaxBytes

// TooLargeError is the refusal of a mesh whose buffer would exceed
// MaxBytes.
type TooLargeError struct {
	Width, Height       int   // the map's samples
	Vertices, Triangles int64 // the mesh's
	Bytes, Limit        int64 // its buffer's size and MaxBytes
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("gltf: the mesh of the %d×%d map (%d vertices, %d triangles) would be %.2f GB, over the limit of %.2f GB for one glTF file; write it as tiles or decimate it",
		e.Width, e.Height, e.Vertices, e.Triangles, float64(e.Bytes)/1e9, float64(e.Limit)/1e9)
}

// vertexStride is the bytes of one vertex in the buffer: position,
// normal and UV interleaved (3 + 3 + 2 float32).
const vertexStride = 32

// FullMeshBytes returns the size of the binary buffer of a w×h map's full
// mesh (MaxError 0) without a texture, to be compared with MaxBytes
// before the map is made.
func FullMeshBytes(w, h int) int64 {
	return meshBytes(int64(w)*int64(h), 2*int64(w-1)*int64(h-1))
}

// meshBytes is the buffer size of nv vertices and nt triangles: meshes of
// fewer than 65 536 vertices take 16-bit indices (half the index buffer,
// and what every glTF consumer reads fastest).
func meshBytes(nv, nt int64) int64 {
	return vertexStride*nv + pad4(indexBytes(nv)*3*nt)
}

func indexBytes(nv int64) int64 {
	if nv <= math.MaxUint16+1 {
		return 2
	}
	return 4
}

func pad4(n int64) int64 { return (n + 3) / 4 * 4 }

// Save writes m to path as .glb or .gltf (by extension), atomically.
func Save(path string, m *terrain.Heightmap, opt Options) error {
	return SaveContext(context.Background(), path, m, opt)
}

// SaveContext is Save that stops, leaving no file behind, soon after ctx
// is cancelled.
func SaveContext(ctx context.Context, path string, m *terrain.Heightmap, opt Options) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".glb":
		opt.Binary = true
	case ".gltf":
		opt.Binary = false
	default:
		return fmt.Errorf("%s: a glTF mesh is saved as .glb or .gltf", path)
	}
	return atomicfile.WriteContext(ctx, path, func(w io.Writer) error { return EncodeContext(ctx, w, m, opt) })
}

// Encode writes m as a glTF 2.0 asset: one mesh of one indexed triangle
// primitive, vertex (col, row, h) at (col·CellSize, h·VerticalScale,
// row·CellSize) — +Y up, rows growing along +Z — with the vertex normals
// of terrain.Normals, UVs (col/(W−1), row/(H−1)) and triangles
// counter-clockwise from above (glTF's front faces). The vertices are the
// used samples in row order.
//
// With opt.MaxError > 0 every chunk of 32×32 cells takes the coarsest
// sampling step (1 to 16) whose geometric error ε (mesh.LOD.Error: the
// largest height difference between the full surface and the coarse one)
// is at most MaxError; samples on the border with a coarser neighbour are
// moved onto the neighbour's edge, so the surface has no cracks and stays
// within MaxError of the map everywhere.
//
// A mesh whose buffer would exceed MaxBytes is refused (*TooLargeError).
func Encode(w io.Writer, m *terrain.Heightmap, opt Options) error {
	return EncodeContext(context.Background(), w, m, opt)
}

// EncodeContext is Encode that returns ctx.Err() soon after ctx is
// cancelled: every pass over the map looks at ctx once a row.
//
// The mesh is streamed: a first pass counts the vertices and finds their
// bounds (which the file's header names before the data), a second writes
// them row by row, their normals computed a band of rows at a time, and a
// third writes the triangles chunk by chunk. Beside the map it holds only
// a vertex number per sample, and only when decimating, where the whole
// mesh and a copy of it as one buffer would be about 170 bytes a sample.
func EncodeContext(ctx context.Context, w io.Writer, m *terrain.Heightmap, opt Options) error {
	src, at, err := checkEncode(m, opt)
	if err != nil {
		return err
	}
	g, err := newGrid(ctx, m, opt.MaxError, newMeter(opt.Progress, opt.MaxError > 0, opt.Texture != nil))
	if err != nil {
		return fmt.Errorf("gltf: %w", err)
	}
	vs, err := g.vertices(ctx)
	if err != nil {
		return fmt.Errorf("gltf: %w", err)
	}
	nt := g.triangles()
	tex, total, err := bufferContents(ctx, m, opt, vs, nt, g.meter)
	if err != nil {
		return err
	}
	head, tail, err := document(m, opt, vs, nt, tex, total)
	if err != nil {
		return fmt.Errorf("gltf: %w", err)
	}
	if _, err := w.Write(head); err != nil {
		return fmt.Errorf("gltf: %w", err)
	}
	if err := g.writeBuffer(ctx, w, opt.Binary, vs, src, at, tex); err != nil {
		return fmt.Errorf("gltf: %w", err)
	}
	if _, err := w.Write(tail); err != nil {
		return fmt.Errorf("gltf: %w", err)
	}
	g.meter.report("", 1) // only once the file is whole
	return nil
}

// checkEncode rejects a map or options no mesh can be made of, and
// returns the map the normals come from and m's first sample's place in
// it (m itself at the origin without opt.NormalsFrom).
func checkEncode(m *terrain.Heightmap, opt Options) (*terrain.Heightmap, image.Point, error) {
	if err := m.Validate(); err != nil {
		return nil, image.Point{}, fmt.Errorf("gltf: %w", err)
	}
	if m.Width < 2 || m.Height < 2 {
		return nil, image.Point{}, fmt.Errorf("gltf: map is %d×%d; a mesh needs at least 2×2 samples", m.Width, m.Height)
	}
	if math.IsNaN(opt.MaxError) || opt.MaxError < 0 || math.IsInf(opt.MaxError, 0) {
		return nil, image.Point{}, fmt.Errorf("gltf: mesh error %v must be a non-negative number of world units", opt.MaxError)
	}
	// Guards the vertex numbers' uint32. Mutation testing's > as >= and
	// * as / here survive as equivalent: a map near 2³² samples (17 GB of
	// heights) cannot be made in a test, and its mesh is refused as over
	// MaxBytes all the same.
	if int64(m.Width)*int64(m.Height) > math.MaxUint32 {
		return nil, image.Point{}, fmt.Errorf("gltf: %d×%d samples exceed 32-bit indices", m.Width, m.Height)
	}
	src, at := opt.NormalsFrom, opt.NormalsAt
	if src == nil {
		src, at = m, image.Point{}
	}
	if at.X < 0 || at.Y < 0 || at.X+m.Width > src.Width || at.Y+m.Height > src.Height {
		return nil, image.Point{}, fmt.Errorf("gltf: a %d×%d tile at (%d, %d) lies outside the %d×%d map its normals come from",
			m.Width, m.Height, at.X, at.Y, src.Width, src.Height)
	}
	return src, at, nil
}

// bufferContents encodes the texture's PNG, if any, and returns it with
// the buffer's length: vertices, indices and the PNG. A buffer over the
// limit is a *TooLargeError, found before the texture is encoded where
// the mesh alone is too large.
func bufferContents(ctx context.Context, m *terrain.Heightmap, opt Options, vs *vertexSet, nt int64, mt *meter) (tex []byte, total int64, err error) {
	size := meshBytes(vs.count, nt)
	tooLarge := func(size int64) error {
		return &TooLargeError{Width: m.Width, Height: m.Height, Vertices: vs.count, Triangles: nt, Bytes: size, Limit: maxBytes}
	}
	if size > maxBytes {
		return nil, 0, tooLarge(size)
	}
	if opt.Texture != nil {
		var buf bytes.Buffer
		if err := encodeTexture(atomicfile.ContextWriter(ctx, &buf), opt.Texture, mt); err != nil {
			return nil, 0, fmt.Errorf("gltf: texture: %w", err)
		}
		tex = buf.Bytes()
	}
	total = size + pad4(int64(len(tex)))
	if total > maxBytes {
		return nil, 0, tooLarge(total)
	}
	return tex, total, nil
}

// encodeTexture writes img as a PNG: an opaque RGBA image (a baked
// texture) on all cores, its rows reported as the texture pass, any other
// with image/png.
func encodeTexture(w io.Writer, img image.Image, mt *meter) error {
	if rgba, ok := img.(*image.RGBA); ok && rgba.Opaque() {
		var progress terrain.Progress
		if mt.progress != nil {
			progress = func(f float64) { mt.report("texture", f) }
		}
		return heightfile.EncodeTexture(w, rgba, progress)
	}
	return png.Encode(w, img)
}

// writeBuffer streams the buffer to w, raw in a GLB or as base64 in a
// glTF's data URI: the vertices with their normals (from src, m's place
// in it at), the triangles, then the texture's PNG, each padded to 4
// bytes.
func (g *grid) writeBuffer(ctx context.Context, w io.Writer, glb bool, vs *vertexSet, src *terrain.Heightmap, at image.Point, tex []byte) error {
	var body io.Writer = w
	var b64 io.WriteCloser
	if !glb {
		b64 = base64.NewEncoder(base64.StdEncoding, w)
		body = b64
	}
	out := &binOut{w: body, short: indexBytes(vs.count) == 2}
	if err := g.writeVertices(ctx, out, vs, src, at); err != nil {
		return err
	}
	if err := g.writeTriangles(ctx, out, vs); err != nil {
		return err
	}
	out.pad()
	out.flush()
	if out.err == nil && tex != nil {
		_, out.err = body.Write(tex)
		out.n += int64(len(tex))
	}
	out.pad()
	if out.flush(); out.err != nil {
		return out.err
	}
	if b64 != nil {
		return b64.Close()
	}
	return nil
}

// bufferPlaceholder stands in the glTF JSON for the base64 of the buffer,
// which is streamed in its place.
const bufferPlaceholder = "CORDILLERA-BUFFER"

// document returns what comes before the binary buffer (the GLB header,
// the JSON chunk and the BIN chunk's header; or the glTF JSON up to the
// buffer's data URI) and what comes after it (nothing; or the rest of the
// JSON). The buffer holds the interleaved vertices, then the indices,
// then the texture's PNG, each starting on 4 bytes.
func document(m *terrain.Heightmap, opt Options, vs *vertexSet, nt int64, tex []byte, total int64) (head, tail []byte, err error) {
	doc := gltf.NewDocument()
	doc.Asset.Generator = "Cordillera"
	buf := &gltf.Buffer{ByteLength: int(total)}
	if !opt.Binary {
		buf.URI = "data:application/octet-stream;base64," + bufferPlaceholder
	}
	doc.Buffers = []*gltf.Buffer{buf}
	vertexBytes := vertexStride * vs.count
	ib := indexBytes(vs.count)
	doc.BufferViews = []*gltf.BufferView{
		{Buffer: 0, ByteLength: int(vertexBytes), ByteStride: vertexStride, Target: gltf.TargetArrayBuffer},
		{Buffer: 0, ByteOffset: int(vertexBytes), ByteLength: int(ib * 3 * nt), Target: gltf.TargetElementArrayBuffer},
	}
	indexType := gltf.ComponentUint
	if ib == 2 {
		indexType = gltf.ComponentUshort
	}
	doc.Accessors = []*gltf.Accessor{
		{BufferView: gltf.Index(0), ComponentType: gltf.ComponentFloat, Count: int(vs.count), Type: gltf.AccessorVec3,
			Min: []float64{float64(vs.min[0]), float64(vs.min[1]), float64(vs.min[2])},
			Max: []float64{float64(vs.max[0]), float64(vs.max[1]), float64(vs.max[2])}},
		{BufferView: gltf.Index(0), ByteOffset: 12, ComponentType: gltf.ComponentFloat, Count: int(vs.count), Type: gltf.AccessorVec3},
		{BufferView: gltf.Index(0), ByteOffset: 24, ComponentType: gltf.ComponentFloat, Count: int(vs.count), Type: gltf.AccessorVec2},
		{BufferView: gltf.Index(1), ComponentType: indexType, Count: int(3 * nt), Type: gltf.AccessorScalar},
	}
	mat := &gltf.Material{Name: "terrain", PBRMetallicRoughness: &gltf.PBRMetallicRoughness{
		MetallicFactor: gltf.Float(0), RoughnessFactor: gltf.Float(1)}}
	if tex != nil {
		doc.BufferViews = append(doc.BufferViews, &gltf.BufferView{Buffer: 0,
			ByteOffset: int(meshBytes(vs.count, nt)), ByteLength: len(tex)})
		doc.Images = []*gltf.Image{{Name: "terrain.png", MimeType: "image/png", BufferView: gltf.Index(2)}}
		doc.Samplers = []*gltf.Sampler{{MagFilter: gltf.MagLinear, MinFilter: gltf.MinLinearMipMapLinear,
			WrapS: gltf.WrapClampToEdge, WrapT: gltf.WrapClampToEdge}}
		doc.Textures = []*gltf.Texture{{Sampler: gltf.Index(0), Source: gltf.Index(0)}}
		mat.PBRMetallicRoughness.BaseColorTexture = &gltf.TextureInfo{Index: 0}
	}
	doc.Materials = []*gltf.Material{mat}
	doc.Meshes = []*gltf.Mesh{{Name: "terrain", Primitives: []*gltf.Primitive{{
		Attributes: gltf.PrimitiveAttributes{gltf.POSITION: 0, gltf.NORMAL: 1, gltf.TEXCOORD_0: 2},
		Indices:    gltf.Index(3), Material: gltf.Index(0), Mode: gltf.PrimitiveTriangles}}}}
	node := &gltf.Node{Name: "terrain", Mesh: gltf.Index(0)}
	if opt.Origin != [3]float64{} {
		node.Translation = opt.Origin
	}
	doc.Nodes = []*gltf.Node{node}
	doc.Scenes[0].Nodes = []int{0}

	js, err := json.Marshal(doc)
	if err != nil {
		return nil, nil, err
	}
	if !opt.Binary {
		i := bytes.Index(js, []byte(bufferPlaceholder))
		return js[:i], js[i+len(bufferPlaceholder):], nil
	}
	// GLB: a 12-byte header, the JSON chunk padded with spaces to 4 bytes,
	// and the BIN chunk's 8-byte header; the buffer is already a multiple
	// of 4 bytes.
	jsonLen := pad4(int64(len(js)))
	for int64(len(js)) < jsonLen {
		js = append(js, ' ')
	}
	le := binary.LittleEndian
	head = make([]byte, 0, 20+len(js)+8) // a capacity only: its mutants are equivalent
	head = append(head, "glTF"...)
	head = le.AppendUint32(head, 2)
	head = le.AppendUint32(head, uint32(12+8+jsonLen+8+total))
	head = le.AppendUint32(head, uint32(jsonLen))
	head = append(head, "JSON"...)
	head = append(head, js...)
	head = le.AppendUint32(head, uint32(total))
	head = append(head, "BIN\x00"...)
	return head, nil, nil
}

// rowHook, when not nil, is called once a row (or a chunk row) in every
// pass over the map, just before ctx is looked at: tests count the work
// done after a cancellation with it.
var rowHook func(pass string)

// checkRow is the per-row cancellation point of every pass, called
// before row of its rows: it reports the pass's progress so far.
func (g *grid) checkRow(ctx context.Context, pass string, row, rows int) error {
	if rowHook != nil {
		rowHook(pass)
	}
	g.meter.report(pass, float64(row)/float64(rows))
	return ctx.Err()
}

// Shares of a mesh's writing time taken by each pass over the map, as
// measured in CPU time on generated maps at 2049² (a full mesh, and
// -mesh-error 0.5 and 2, which differ little): a full mesh's time is
// mostly writing its vertices, whose normals are computed as they go; a
// decimated one's is mostly finding its level of detail ("levels": the
// chunks' errors at each step, on all cores) and keeping the stitched mesh
// within the error ("refine"). "check" is the map's validation, before
// the first pass.
var meshShares = map[bool][]passShare{
	false: {{"check", 0.06}, {"count", 0.13}, {"vertices", 0.65}, {"triangles", 0.16}},
	true: {{"levels", 0.45}, {"refine", 0.17}, {"mark", 0.05}, {"count", 0.10},
		{"vertices", 0.21}, {"triangles", 0.02}},
}

// textureShare is the share of a mesh's writing time taken by encoding
// its texture (one colour a sample), the passes' shares above taking the
// rest: at 2049² the texture took about a quarter of a full mesh's time
// and a fifth of a decimated one's, in wall time on two busy cores.
const textureShare = 0.25

// passShare is a pass's name and its share of the time.
type passShare struct {
	pass  string
	share float64
}

// meter reports a mesh's progress: the shares of the passes before the
// one running, and that pass's share times its own fraction done.
type meter struct {
	progress terrain.Progress
	shares   []passShare
}

// newMeter returns the meter of a full or decimated mesh, with or without
// a texture, reporting to progress (nil: nowhere). The texture is encoded
// once the vertices are counted.
func newMeter(progress terrain.Progress, decimated, textured bool) *meter {
	shares := meshShares[decimated]
	if textured {
		var with []passShare
		for _, s := range shares {
			with = append(with, passShare{s.pass, s.share * (1 - textureShare)})
			if s.pass == "count" {
				with = append(with, passShare{"texture", textureShare})
			}
		}
		shares = with
	}
	return &meter{progress: progress, shares: shares}
}

// refine reports row j of rows of the refine pass's sweep: sweep k
// takes half of what the sweeps before it left of the pass's share.
func (mt *meter) refine(sweep, j, rows int) {
	left := math.Pow(0.5, float64(sweep))
	mt.report("refine", 1-left+left/2*float64(j)/float64(rows))
}

// report reports that the fraction f of pass is done; a pass the mesh
// does not run ("": the end) reports 1.
func (mt *meter) report(pass string, f float64) {
	if mt.progress == nil {
		return
	}
	done := 0.0
	for _, s := range mt.shares {
		if s.pass == pass {
			mt.progress(done + s.share*f)
			return
		}
		done += s.share
	}
	mt.progress(1)
}

// vertexSet is the mesh's vertices: the samples used, numbered in row
// order, and the bounds of their positions.
type vertexSet struct {
	// index holds each sample's vertex number + 1 (0: unused); nil when
	// every sample is used, vertex k being sample k.
	index    []uint32
	count    int64
	min, max [3]float32
}

// id returns the vertex number of sample k.
func (v *vertexSet) id(k int) uint32 {
	if v.index == nil {
		return uint32(k)
	}
	return v.index[k] - 1
}

// vertices marks the samples the triangles use, numbers them in row
// order and finds the bounds of their positions.
func (g *grid) vertices(ctx context.Context) (*vertexSet, error) {
	m := g.m
	vs := &vertexSet{}
	if !g.full() {
		vs.index = make([]uint32, m.Width*m.Height)
		for j := range g.rows {
			if err := g.checkRow(ctx, "mark", j, g.rows); err != nil {
				return nil, err
			}
			for i := range g.cols {
				// Each vertex is a corner of every cell around it, so
				// marking one corner wrongly (mutation testing's * as /,
				// + as - in these indices) changes nothing: its cell's
				// neighbours mark it all the same. Those mutants survive
				// as equivalent.
				g.cells(i, j, func(ca, ra, cb, rb int) {
					for _, k := range [4]int{ra*m.Width + ca, ra*m.Width + cb, rb*m.Width + ca, rb*m.Width + cb} {
						vs.index[k] = 1
					}
				})
			}
		}
	}
	vs.min = [3]float32{float32(math.Inf(1)), float32(math.Inf(1)), float32(math.Inf(1))}
	vs.max = [3]float32{float32(math.Inf(-1)), float32(math.Inf(-1)), float32(math.Inf(-1))}
	for row := range m.Height {
		if err := g.checkRow(ctx, "count", row, m.Height); err != nil {
			return nil, err
		}
		for col := range m.Width {
			if k := row*m.Width + col; vs.index != nil {
				if vs.index[k] == 0 {
					continue
				}
				vs.index[k] = uint32(vs.count + 1)
			}
			vs.count++
			p := g.position(col, row)
			for c := range 3 {
				vs.min[c], vs.max[c] = min(vs.min[c], p[c]), max(vs.max[c], p[c])
			}
		}
	}
	return vs, nil
}

// triangles returns the number of triangles of the mesh.
func (g *grid) triangles() int64 {
	var n int64
	for j := range g.rows {
		for i := range g.cols {
			c0, r0, c1, r1, s := g.chunk(i, j)
			n += 2 * int64((c1-c0+s-1)/s) * int64((r1-r0+s-1)/s)
		}
	}
	return n
}

// normalsBand is how many rows of normals writeVertices computes at a
// time.
const normalsBand = 32

// writeVertices writes the used samples' position, normal and UV in row
// order, the normals taken from src at offset at.
func (g *grid) writeVertices(ctx context.Context, out *binOut, vs *vertexSet, src *terrain.Heightmap, at image.Point) error {
	m := g.m
	normals := make([]float32, 3*src.Width*normalsBand)
	for row := range m.Height {
		if err := g.checkRow(ctx, "vertices", row, m.Height); err != nil {
			return err
		}
		if row%normalsBand == 0 {
			terrain.NormalsRows(src, at.Y+row, at.Y+min(row+normalsBand, m.Height), normals)
		}
		band := normals[3*((row%normalsBand)*src.Width+at.X):]
		for col := range m.Width {
			if vs.index != nil && vs.index[row*m.Width+col] == 0 {
				continue
			}
			p := g.position(col, row)
			n := band[3*col : 3*col+3]
			out.f32(p[0], p[1], p[2], n[0], n[1], n[2], float32(col)/float32(m.Width-1), float32(row)/float32(m.Height-1))
		}
		if out.flushIfFull(); out.err != nil {
			return out.err
		}
	}
	return nil
}

// writeTriangles writes the triangles chunk by chunk, two a cell: (a, c,
// b) and (b, c, d), counter-clockwise seen from above. Samples on a
// chunk's borders finer than its step belong to its finer neighbours'
// triangles.
func (g *grid) writeTriangles(ctx context.Context, out *binOut, vs *vertexSet) error {
	w := g.m.Width
	for j := range g.rows {
		if err := g.checkRow(ctx, "triangles", j, g.rows); err != nil {
			return err
		}
		for i := range g.cols {
			g.cells(i, j, func(ca, ra, cb, rb int) {
				a, b, c, d := vs.id(ra*w+ca), vs.id(ra*w+cb), vs.id(rb*w+ca), vs.id(rb*w+cb)
				out.index(a, c, b, b, c, d)
			})
			if out.flushIfFull(); out.err != nil {
				return out.err
			}
		}
	}
	return nil
}

// binOut gathers the little-endian buffer and writes it in pieces of
// about 64 KB.
type binOut struct {
	w     io.Writer
	buf   []byte
	short bool  // 16-bit indices
	n     int64 // bytes written before buf
	err   error
}

func (o *binOut) f32(v ...float32) {
	for _, x := range v {
		o.buf = binary.LittleEndian.AppendUint32(o.buf, math.Float32bits(x))
	}
}

func (o *binOut) index(v ...uint32) {
	for _, x := range v {
		if o.short {
			o.buf = binary.LittleEndian.AppendUint16(o.buf, uint16(x))
		} else {
			o.buf = binary.LittleEndian.AppendUint32(o.buf, x)
		}
	}
}

// pad pads the buffer written so far to a multiple of 4 bytes with zeros.
func (o *binOut) pad() {
	for (o.n+int64(len(o.buf)))%4 != 0 {
		o.buf = append(o.buf, 0)
	}
}

func (o *binOut) flushIfFull() {
	if len(o.buf) >= 1<<16 {
		o.flush()
	}
}

func (o *binOut) flush() {
	if o.err == nil && len(o.buf) > 0 {
		_, o.err = o.w.Write(o.buf)
	}
	o.n += int64(len(o.buf))
	o.buf = o.buf[:0]
}

// grid is the decimated mesh's layout: a step per chunk and the heights of
// the border samples moved onto coarser neighbours' edges.
type grid struct {
	m          *terrain.Heightmap
	cols, rows int
	steps      []int  // per chunk
	meter      *meter // the passes' progress
}

func newGrid(ctx context.Context, m *terrain.Heightmap, maxError float64, mt *meter) (*grid, error) {
	// Chunks as the level of detail cuts them: the last one in a row or
	// column may be narrower.
	g := &grid{m: m, cols: (m.Width - 2 + chunkCells) / chunkCells, rows: (m.Height - 2 + chunkCells) / chunkCells, meter: mt}
	g.steps = make([]int, g.cols*g.rows)
	for k := range g.steps {
		g.steps[k] = 1
	}
	if maxError == 0 {
		// Every sample is kept: the level of detail's errors, a pass of
		// their own over the whole map, are not needed.
		return g, nil
	}
	var levels terrain.Progress
	if g.meter.progress != nil {
		levels = func(f float64) { g.meter.report("levels", f) }
	}
	l, err := mesh.NewLODProgress(ctx, m, chunkCells, levels)
	if err != nil {
		return nil, err
	}
	if c, r := l.Chunks(); c != g.cols || r != g.rows {
		panic(fmt.Sprintf("meshfile: %d×%d chunks, the level of detail has %d×%d", g.cols, g.rows, c, r))
	}
	for j := range g.rows {
		for i := range g.cols {
			for _, step := range []int{2, 4, 8, 16} {
				if e := l.Error(i, j, step); e <= maxError { // NaN: a step the chunk cannot use
					g.steps[j*g.cols+i] = step
				}
			}
		}
	}
	if err := g.keepWithin(ctx, maxError); err != nil {
		return nil, err
	}
	return g, nil
}

// full reports whether every chunk keeps every sample.
func (g *grid) full() bool {
	for _, s := range g.steps {
		if s != 1 {
			return false
		}
	}
	return true
}

// cells calls fn with the corners of each step-sized cell of chunk (i, j):
// columns ca < cb, rows ra < rb.
func (g *grid) cells(i, j int, fn func(ca, ra, cb, rb int)) {
	c0, r0, c1, r1, s := g.chunk(i, j)
	for ra := r0; ra < r1; ra += s {
		rb := min(ra+s, r1)
		for ca := c0; ca < c1; ca += s {
			fn(ca, ra, min(ca+s, c1), rb)
		}
	}
}

// position returns the world position of the vertex at (col, row).
func (g *grid) position(col, row int) [3]float32 {
	return [3]float32{float32(float64(col) * g.m.CellSize), g.height(col, row), float32(float64(row) * g.m.CellSize)}
}

// keepWithin makes the stitched mesh stay within maxError of the map.
// A chunk's own error ε_s is measured with its own border samples, but
// stitching moves the border vertices it shares with a coarser neighbour
// onto that neighbour's edge, by up to the neighbour's error: the two add
// up in the finer chunk's border cells (-mesh-error 2 gave 2.14 m). So
// every chunk's surface is measured as drawn, and where it strays too far
// the coarsest chunk among it and its neighbours is refined one step,
// until none strays; all at step 1 is the map itself, so this ends.
//
// How many sweeps that takes is not known before: each sweep's rows report
// half of the refine share still left, so the bar never goes back.
func (g *grid) keepWithin(ctx context.Context, maxError float64) error {
	for sweep := 0; ; sweep++ {
		changed := false
		for j := range g.rows {
			if rowHook != nil {
				rowHook("refine")
			}
			g.meter.refine(sweep, j, g.rows)
			if err := ctx.Err(); err != nil {
				return err
			}
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
			return nil
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
