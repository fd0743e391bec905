package commands

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"image"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"cordillera/internal/atomicfile"
	"cordillera/pipeline"
	"cordillera/route/track"
	"cordillera/terrain"
	"cordillera/terrain/heightfile"
	"cordillera/terrain/materials"
	"cordillera/terrain/meshfile"
)

// exportOptions are generate's flags for the files beside the heightmap
// and for game engines (issue 13).
type exportOptions struct {
	normalMap, splatMap string
	meshError           float64
	bakeTexture         bool
	target              string
	tiles               int
	// source is the -heightmap file as read: its base height and
	// georeferencing go into the outputs that can hold them.
	source *heightfile.Source
	// report collects lines to print after the summary (engine numbers).
	report *strings.Builder
	// requested is the -size asked for when an engine target changed it.
	requested int
	// bar is the terminal's progress bar, which shows a phase for each
	// file written; nil for none.
	bar *phaseBar
}

// Engine targets and the map sizes they accept.
var (
	targets     = []string{"unity", "unreal", "godot"}
	unitySizes  = []int{33, 65, 129, 257, 513, 1025, 2049, 4097}
	unrealSizes = []int{505, 1009, 2017, 4033, 8129}
	// targetExts are the heightmap formats each engine imports.
	targetExts = map[string][]string{
		"unity":  {".r16", ".raw"},
		"unreal": {".png", ".r16", ".raw"},
		// Terrain3D's documentation asks for EXR or r16: Godot reads a PNG
		// as 8 bits a channel, terraces of 1/255 of the relief.
		"godot": {".exr", ".r16"},
	}
)

func addExportFlags(fs *flag.FlagSet, e *exportOptions) {
	e.report = &strings.Builder{}
	fs.StringVar(&e.normalMap, "normal-map", "", "also write the normals as an RGB PNG (OpenGL convention, green = north; DirectX with -target unreal)")
	fs.StringVar(&e.splatMap, "splat-map", "", "also write the four material weights (R sand, G grass, B rock, A snow; explorer's height texturing) as an RGBA PNG")
	fs.Float64Var(&e.meshError, "mesh-error", 0, "with -o .glb/.gltf: decimate the mesh so that it strays at most this many metres from the map (0 keeps every sample)")
	fs.BoolVar(&e.bakeTexture, "bake-texture", false, "with -o .glb/.gltf: embed a colour texture of the explorer's materials")
	fs.StringVar(&e.target, "target", "", "game engine: unity (size 2^k+1 ≤ 4097; "+targetExtList("unity")+"), unreal (505, 1009, 2017, 4033 or 8129; "+targetExtList("unreal")+") or godot (Terrain3D; "+targetExtList("godot")+"); prints the import settings")
	fs.IntVar(&e.tiles, "tiles", 0, "write N×N tiles NAME_x{i}_y{j}.EXT sharing their border samples instead of one file")
}

// targetExtList lists the files an engine imports, for the flag's help.
func targetExtList(engine string) string {
	return strings.Join(targetExts[engine], "/")
}

// isMesh reports whether path names a glTF mesh.
func isMesh(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".glb" || ext == ".gltf"
}

// checkExport validates the export flags against -o and the parameters,
// and moves a generated map's size to the one the target accepts.
func checkExport(opt *generateOptions) error {
	for _, check := range []func(*generateOptions) error{checkMeshFlags, checkDerivedMaps, checkTiling, checkMeshSizes, checkTarget} {
		if err := check(opt); err != nil {
			return err
		}
	}
	return nil
}

// checkMeshFlags: -mesh-error and -bake-texture go with a glTF -o, and the
// error is a number of metres.
func checkMeshFlags(opt *generateOptions) error {
	e := &opt.export
	if (e.meshError != 0 || e.bakeTexture) && !slices.ContainsFunc(opt.outs, isMesh) {
		return fmt.Errorf("generate: -mesh-error and -bake-texture shape a mesh; use -o NAME.glb or NAME.gltf")
	}
	if math.IsNaN(e.meshError) || e.meshError < 0 || math.IsInf(e.meshError, 0) {
		return fmt.Errorf("generate: -mesh-error %v: want a non-negative number of metres", e.meshError)
	}
	return nil
}

// checkDerivedMaps: the normal and splat maps are PNGs.
func checkDerivedMaps(opt *generateOptions) error {
	e := &opt.export
	for _, p := range []struct{ flag, path string }{{"normal-map", e.normalMap}, {"splat-map", e.splatMap}} {
		if p.path != "" && !strings.EqualFold(filepath.Ext(p.path), ".png") {
			return fmt.Errorf("generate: -%s %s: want a .png file", p.flag, p.path)
		}
	}
	return nil
}

// checkTiling: -tiles is 2 to 64 a side, and a generated map of the
// size asked for divides into them (a target's size is checked once it
// is fitted, a loaded map's once it is read).
func checkTiling(opt *generateOptions) error {
	e := &opt.export
	if e.tiles < 0 || e.tiles == 1 || e.tiles > 64 {
		return fmt.Errorf("generate: -tiles %d: want 2 to 64 tiles a side", e.tiles)
	}
	if e.tiles > 1 && e.target == "" && opt.heightmap == "" {
		if err := checkTileSize(opt.params.Size, opt.params.Size, e.tiles); err != nil {
			return fmt.Errorf("generate: %w", err)
		}
	}
	return nil
}

// checkMeshSizes refuses in milliseconds a full glTF mesh of a generated
// map that writing would refuse after the map (and its erosion) is made.
func checkMeshSizes(opt *generateOptions) error {
	e := &opt.export
	for _, out := range opt.outs {
		if isMesh(out) && e.meshError == 0 && opt.heightmap == "" && opt.route == "" {
			tiles := max(e.tiles, 1)
			side := (opt.params.Size-1)/tiles + 1
			if b := meshfile.FullMeshBytes(side, side); b > meshfile.MaxBytes {
				return fmt.Errorf("generate: -o %s: the mesh of a %d×%d map would be %.2f GB, over the limit of %.2f GB for one glTF file (%s)",
					out, side, side, float64(b)/1e9, float64(meshfile.MaxBytes)/1e9, meshAdvice(side, side, tiles))
			}
		}
	}
	return nil
}

// checkTarget: the engine target is one we know, every -o is a format it
// imports, and a size it moved is said in the report.
func checkTarget(opt *generateOptions) error {
	e := &opt.export
	if e.target == "" {
		return nil
	}
	if !slices.Contains(targets, e.target) {
		return fmt.Errorf("generate: -target %q: want %s", e.target, strings.Join(targets, ", "))
	}
	for _, out := range opt.outs {
		ext := strings.ToLower(filepath.Ext(out))
		if exts := targetExts[e.target]; !slices.Contains(exts, ext) {
			return fmt.Errorf("generate: -target %s imports %s heightmaps; -o %s is %q", e.target, strings.Join(exts, ", "), out, ext)
		}
	}
	if e.requested != 0 {
		n, msg := targetSize(e.target, e.requested)
		if msg != "" {
			fmt.Fprintln(e.report, msg)
		}
		if n != opt.params.Size {
			fmt.Fprintf(e.report, "-target %s: %s makes %d² maps; the map is made at %d² and its last %d rows and columns are left out\n",
				e.target, opt.params.Algorithm, opt.params.Size, opt.params.Size, opt.params.Size-n)
		}
	}
	return nil
}

// fitTargetSize moves a generated map's size to the one the engine
// target accepts, before the parameters are validated: subdivision
// generators, which need 2^k+1, are made at the next such size and
// cropped on saving (the crop is said). Terrain3D takes any size.
func (e *exportOptions) fitTargetSize(p *terrain.Params) {
	if e.target != "unity" && e.target != "unreal" {
		return
	}
	e.requested = p.Size
	n, _ := targetSize(e.target, p.Size)
	p.Size = n
	if p.Validate() != nil {
		p.Size = 2
		for p.Size-1 < n-1 {
			p.Size = 2*(p.Size-1) + 1
		}
		if p.Validate() != nil {
			p.Size = n // let validation name the problem
		}
	}
}

// targetSize returns the size the target accepts nearest to n, and a
// message when it differs from n.
func targetSize(target string, n int) (int, string) {
	sizes := unitySizes
	if target == "unreal" {
		sizes = unrealSizes
	}
	best := sizes[0]
	for _, s := range sizes {
		if abs(s-n) < abs(best-n) {
			best = s
		}
	}
	switch {
	case best == n:
		return n, ""
	case best == n+1:
		return best, fmt.Sprintf("-target %s: size %d → %d: %s takes 2^k+1 samples (2^k cells)", target, n, best, target)
	}
	return best, fmt.Sprintf("-target %s: size %d → %d, the nearest size %s accepts (%s)", target, n, best, target, intList(sizes))
}

func abs(x int) int { return max(x, -x) }

func intList(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// fitSize makes m n×n: cropped from the top-left corner when it is at
// least that large (the cell size kept), resampled bilinearly otherwise
// (the extent kept).
func fitSize(m *terrain.Heightmap, n int) *terrain.Heightmap {
	if m.Width == n && m.Height == n {
		return m
	}
	out := terrain.NewHeightmap(n, n)
	out.CellSize, out.VerticalScale = m.CellSize, m.VerticalScale
	if m.Width >= n && m.Height >= n {
		for y := range n {
			copy(out.Samples[y*n:(y+1)*n], m.Samples[y*m.Width:])
		}
		return out
	}
	return resample(m, n)
}

// resample returns m bilinearly resampled to n×n samples over its whole
// area; the cell size grows or shrinks to keep the area's extent.
func resample(m *terrain.Heightmap, n int) *terrain.Heightmap {
	out := terrain.NewHeightmap(n, n)
	out.VerticalScale = m.VerticalScale
	sx, sy := float64(m.Width-1)/float64(n-1), float64(m.Height-1)/float64(n-1)
	out.CellSize = m.CellSize * max(sx, sy)
	for y := range n {
		fy := float64(y) * sy
		y0 := min(int(fy), m.Height-2)
		ty := fy - float64(y0)
		for x := range n {
			fx := float64(x) * sx
			x0 := min(int(fx), m.Width-2)
			tx := fx - float64(x0)
			a, b := float64(m.At(x0, y0)), float64(m.At(x0+1, y0))
			c, d := float64(m.At(x0, y0+1)), float64(m.At(x0+1, y0+1))
			out.Set(x, y, float32((a*(1-tx)+b*tx)*(1-ty)+(c*(1-tx)+d*tx)*ty))
		}
	}
	return out
}

// worldBase returns the height in metres of map height 0 and the
// georeferencing of a world: a route terrain's, a loaded DEM's, or none.
func worldBase(opt generateOptions, w *pipeline.World) (float64, *heightfile.GeoRef) {
	if w.Route != nil && w.Route.Path != nil {
		return w.Route.Base, routeGeoRef(w.Route.Path, w.Map)
	}
	if src := opt.export.source; src != nil && src.Metric {
		return src.Base, src.Geo
	}
	return 0, nil
}

// routeGeoRef places a route terrain on the Earth: the route package
// solves on the azimuthal equidistant plane around the track's centre, so
// the GeoTIFF names that projection (a user-defined CRS on the same
// sphere) and gives the map's corner in its metres, and GIS tools put every
// sample where the solve did, near the poles and across the antimeridian
// too.
func routeGeoRef(p *track.Path, m *terrain.Heightmap) *heightfile.GeoRef {
	pl := p.Plane()
	midX, midY := float64(m.Width-1)/2, float64(m.Height-1)/2
	return &heightfile.GeoRef{
		OriginX: pl.X - (midX+0.5)*m.CellSize, OriginY: pl.Y + (midY+0.5)*m.CellSize,
		PixelX: m.CellSize, PixelY: m.CellSize,
		Azimuthal: &heightfile.Azimuthal{Lat0: pl.Lat0, Lon0: pl.Lon0, Radius: track.EarthRadius},
	}
}

// saveMap writes the world's map to -o in its format (heightmap or glTF
// mesh), fitted to the engine target, as one file or as tiles, and the
// derived maps beside it, into the group g; it returns the files written,
// which are in place only once g is committed. A mesh stops soon after ctx
// is cancelled (the other formats stop at their next write).
func saveMap(ctx context.Context, g *atomicfile.Group, opt generateOptions, w *pipeline.World) (wrote []string, err error) {
	e := opt.export
	base, geo := worldBase(opt, w)
	m, geo := fitTargetMap(opt, w.Map, geo)
	s := &mapSaver{ctx: ctx, g: g, opt: opt, base: base, full: m}
	if e.tiles > 1 && geo == nil {
		geo = localGeo(m.CellSize, 0, 0)
	}
	// Each output is written from the same map as if it had been made
	// alone: save changes neither m nor geo.
	for _, out := range opt.outs {
		var err error
		if e.tiles > 1 {
			err = saveTiles(out, m, geo, e.tiles, s.save)
		} else {
			err = s.save(out, m, geo, 0, 0)
		}
		if err != nil {
			return s.wrote, fmt.Errorf("generate: %w", err)
		}
	}
	if err := s.saveDerived(m); err != nil {
		return s.wrote, err
	}
	if e.target != "" {
		for _, out := range opt.outs {
			engineReport(e.report, e.target, out, m, base, max(e.tiles, 1))
		}
	}
	return s.wrote, nil
}

// fitTargetMap returns m at the size Unity or Unreal takes (cropped, or
// resampled where it is smaller or a loaded map Unreal would crop) and
// the georeferencing that still fits it; other targets take m as it is.
func fitTargetMap(opt generateOptions, m *terrain.Heightmap, geo *heightfile.GeoRef) (*terrain.Heightmap, *heightfile.GeoRef) {
	e := opt.export
	if e.target != "unity" && e.target != "unreal" {
		return m, geo
	}
	loadedUnreal := e.target == "unreal" && opt.heightmap != ""
	n, msg := targetSize(e.target, max(m.Width, m.Height))
	if opt.heightmap != "" && msg != "" {
		fmt.Fprintln(e.report, msg)
	}
	if m.Width == n && m.Height == n {
		return m, geo
	}
	if m.Width < n || m.Height < n || loadedUnreal {
		geo = nil // resampled: the old transform no longer fits
	}
	if loadedUnreal && (m.Width > n || m.Height > n) {
		// A loaded map is the user's whole area: resample it rather
		// than crop it to the size Unreal takes.
		m = resample(m, n)
		fmt.Fprintf(e.report, "-target unreal: the %s map is resampled to %d×%d (cell size %.6g m), its whole area kept\n",
			filepath.Base(opt.heightmap), n, n, m.CellSize)
		return m, geo
	}
	return fitSize(m, n), geo
}

// mapSaver writes saveMap's files into its group and lists them.
type mapSaver struct {
	ctx   context.Context
	g     *atomicfile.Group
	opt   generateOptions
	base  float64            // the height in metres of map height 0
	full  *terrain.Heightmap // the whole map, which tiles are cut from
	wrote []string
}

// save adds the map or tile t, whose first sample is the whole map's
// (col, row), to the group as path, turned and labelled for the target.
func (s *mapSaver) save(path string, t *terrain.Heightmap, geo *heightfile.GeoRef, col, row int) error {
	e := s.opt.export
	so := heightfile.SaveOptions{Base: s.base, Geo: geo, NoData: sourceNoData(s.opt, s.full, col, row, t.Width, t.Height, e.target == "unity")}
	tile := meshTile{origin: [3]float64{float64(col) * t.CellSize, 0, float64(row) * t.CellSize}, tiles: max(e.tiles, 1)}
	if e.tiles > 1 {
		tile.whole, tile.at = s.full, image.Pt(col, row)
	}
	if e.target == "unity" {
		// Unity's Import Raw puts the file's first row at the terrain's
		// z = 0, its south edge; our rows start in the north.
		t = flipRows(t)
	}
	if e.target == "godot" {
		so.EXRChannel = "R" // Godot loads a lone R channel as a float (RF) image
	}
	if err := addMap(s.ctx, s.g, path, t, so, e, tile); err != nil {
		return err
	}
	s.wrote = append(s.wrote, path)
	return nil
}

// saveDerived adds the normal and splat maps of m that the flags ask for.
func (s *mapSaver) saveDerived(m *terrain.Heightmap) error {
	e := s.opt.export
	conv := heightfile.NormalsOpenGL
	if e.target == "unreal" {
		conv = heightfile.NormalsDirectX
	}
	derived := []struct {
		path   string
		encode func(io.Writer, terrain.Progress) error
	}{
		{e.normalMap, func(wr io.Writer, p terrain.Progress) error { return heightfile.EncodeNormalMap(wr, m, conv, p) }},
		{e.splatMap, func(wr io.Writer, p terrain.Progress) error {
			return heightfile.EncodeSplatMap(wr, m, materials.DefaultRule, p)
		}},
	}
	for _, d := range derived {
		if d.path == "" {
			continue
		}
		progress := e.bar.Phase("writing " + filepath.Base(d.path))
		encode := d.encode
		if err := s.g.Add(d.path, func(wr io.Writer) error { return encode(wr, progress) }); err != nil {
			return fmt.Errorf("generate: %w", err)
		}
		s.wrote = append(s.wrote, d.path)
	}
	return nil
}

// meshTile places a mesh tile in the world: its corner's offset, and the
// whole map it is cut from (nil: none) with its first sample's place there,
// whose normals it takes; tiles is the number of tiles a side (1: none).
type meshTile struct {
	origin [3]float64
	whole  *terrain.Heightmap
	at     image.Point
	tiles  int
}

// addMap adds m to the group g in the format path names: a glTF mesh
// (shaped by the export options, placed as tile says) or a heightmap file.
func addMap(ctx context.Context, g *atomicfile.Group, path string, m *terrain.Heightmap, so heightfile.SaveOptions, e exportOptions, tile meshTile) error {
	tex, err := bakeTexture(ctx, path, m, e)
	if err != nil {
		return err
	}
	progress := e.bar.Phase("writing " + filepath.Base(path))
	// An r16, whose size is known before it is written, reports its
	// bytes; the other writers report their share of the work themselves.
	var size int64
	if ext := strings.ToLower(filepath.Ext(path)); ext == ".r16" || ext == ".raw" {
		size = 2 * int64(m.Width) * int64(m.Height)
	} else {
		so.Progress = progress
	}
	if !isMesh(path) {
		encode, err := heightfile.Encoder(path, m, so)
		if err != nil {
			return err
		}
		return g.Add(path, countBytes(encode, size, progress))
	}
	mo := meshfile.Options{MaxError: e.meshError, Binary: strings.EqualFold(filepath.Ext(path), ".glb"),
		Origin: tile.origin, NormalsFrom: tile.whole, NormalsAt: tile.at, Progress: progress, Texture: tex}
	err = g.Add(path, func(w io.Writer) error { return meshfile.EncodeContext(ctx, w, m, mo) })
	var large *meshfile.TooLargeError
	if errors.As(err, &large) {
		return fmt.Errorf("%w (%s)", err, meshAdvice(large.Width, large.Height, tile.tiles))
	}
	return err
}

// bakeTexture returns the texture of the explorer's materials that the
// mesh at path embeds with -bake-texture, baked in a phase of its own on
// the bar; nil when there is none.
func bakeTexture(ctx context.Context, path string, m *terrain.Heightmap, e exportOptions) (image.Image, error) {
	if !e.bakeTexture || !isMesh(path) {
		return nil, nil
	}
	tex, err := materials.BakeProgress(ctx, m, materials.DefaultRule, e.bar.Phase("baking "+filepath.Base(path)+"'s texture"))
	if err != nil {
		return nil, err
	}
	return tex, nil
}

// meshAdvice says how a mesh too large for one file can be written: as
// tiles small enough (counted on the whole map, tiles a side now), or
// decimated.
func meshAdvice(w, h, tiles int) string {
	w, h = (w-1)*tiles+1, (h-1)*tiles+1
	for n := tiles + 1; n <= 64; n++ {
		if (w-1)%n != 0 || (h-1)%n != 0 {
			continue
		}
		if b := meshfile.FullMeshBytes((w-1)/n+1, (h-1)/n+1); b <= meshfile.MaxBytes {
			return fmt.Sprintf("-tiles %d writes %d meshes of at most %.2f GB each; or -mesh-error decimates the mesh", n, n*n, float64(b)/1e9)
		}
	}
	return "-mesh-error decimates the mesh"
}

// tilePath names tile (i, j) as World Machine and Unreal's World Partition
// import expect: NAME_x{i}_y{j}.EXT, i the column of tiles from the west,
// j the row from the north (the image's top).
func tilePath(out string, i, j int) string {
	ext := filepath.Ext(out)
	return fmt.Sprintf("%s_x%d_y%d%s", strings.TrimSuffix(out, ext), i, j, ext)
}

// localGeo places a tile of a map that has no place on the Earth in a
// local grid in metres: x east from the map's west edge, y north from its
// north edge (so negative southwards), the tile's corner col, row samples
// from the map's. GIS tools (gdalbuildvrt) then mosaic the tiles into the
// whole map; without it they skipped every tile for lack of a transform.
func localGeo(cell, col, row float64) *heightfile.GeoRef {
	return &heightfile.GeoRef{OriginX: col * cell, OriginY: -row * cell, PixelX: cell, PixelY: cell}
}

// checkTileSize reports whether a w×h map splits into n×n tiles with
// shared borders.
func checkTileSize(w, h, n int) error {
	if (w-1)%n != 0 || (h-1)%n != 0 {
		return fmt.Errorf("-tiles %d: a %d×%d map has %d×%d cells, which do not split into %d equal tiles; pick a size with (size−1) divisible by %d, such as %d",
			n, w, h, w-1, h-1, n, n, n*((w-1)/n)+1)
	}
	return nil
}

// saveTiles cuts m into n×n tiles that share their border samples (the
// last column of tile i is the first of tile i+1, so neighbours meet
// without a seam) and saves them one by one.
func saveTiles(out string, m *terrain.Heightmap, geo *heightfile.GeoRef, n int,
	save func(path string, tile *terrain.Heightmap, geo *heightfile.GeoRef, col, row int) error) error {
	if err := checkTileSize(m.Width, m.Height, n); err != nil {
		return err
	}
	tw, th := (m.Width-1)/n+1, (m.Height-1)/n+1
	for j := range n {
		for i := range n {
			t := terrain.NewHeightmap(tw, th)
			t.CellSize, t.VerticalScale = m.CellSize, m.VerticalScale
			for y := range th {
				src := m.Samples[(j*(th-1)+y)*m.Width+i*(tw-1):]
				copy(t.Samples[y*tw:(y+1)*tw], src)
			}
			var tg *heightfile.GeoRef
			if geo != nil {
				g := *geo
				g.OriginX += float64(i*(tw-1)) * g.PixelX
				g.OriginY -= float64(j*(th-1)) * g.PixelY
				tg = &g
			}
			if err := save(tilePath(out, i, j), t, tg, i*(tw-1), j*(th-1)); err != nil {
				return err
			}
		}
	}
	return nil
}

// flipRows returns m with its rows in the opposite order.
// sourceNoData returns the loaded map's nodata mask under the w×h tile
// at (col, row) of full, rows flipped as flipRows does: the samples a TIFF
// writes back as nodata. nil when the source had none or full is no
// longer its grid (resampled or cut to an engine's size).
func sourceNoData(opt generateOptions, full *terrain.Heightmap, col, row, w, h int, flip bool) []bool {
	src := opt.export.source
	if src == nil || src.NoData == nil || src.Map.Width != full.Width || src.Map.Height != full.Height {
		return nil
	}
	mask := make([]bool, 0, w*h)
	for y := range h {
		if flip {
			y = h - 1 - y
		}
		k := (row+y)*full.Width + col
		mask = append(mask, src.NoData[k:k+w]...)
	}
	return mask
}

func flipRows(m *terrain.Heightmap) *terrain.Heightmap {
	out := terrain.NewHeightmap(m.Width, m.Height)
	out.CellSize, out.VerticalScale = m.CellSize, m.VerticalScale
	for y := range m.Height {
		copy(out.Samples[y*m.Width:(y+1)*m.Width], m.Samples[(m.Height-1-y)*m.Width:])
	}
	return out
}

// engineReport prints the numbers to type into the engine's import, for
// the whole map m cut into tiles×tiles files (1: one file). The numbers
// follow each importer's own reading of the file:
//   - Unity's Terrain Import Raw: 16-bit samples scaled to 0..Terrain
//     Size Y, the first row at z = 0 (south; saveMap flips our north-first
//     rows so Flip Vertically stays off).
//   - Unreal's Landscape import: Z scale 100 spans 512 m over the 16-bit
//     range, centred on the actor; tiles named _x{i}_y{j} are found from
//     any one of them.
//   - Terrain3D's importer: an r16 file's samples become
//     r16_range.x + v/65535·(r16_range.y − r16_range.x) metres, and then
//     every height is multiplied by import_scale and shifted by
//     height_offset, so with r16_range in metres those stay 1 and 0 (giving
//     both scaled the heights twice); an EXR's float channel is metres.
func engineReport(w io.Writer, target, out string, m *terrain.Heightmap, base float64, tiles int) {
	tw, th := (m.Width-1)/tiles+1, (m.Height-1)/tiles+1
	file := filepath.Base(out)
	if tiles > 1 {
		file = filepath.Base(tilePath(out, 0, 0))
		fmt.Fprintf(w, "%d×%d tiles of %d×%d samples, %s to %s (x from the west, y from the north):\n",
			tiles, tiles, tw, th, file, filepath.Base(tilePath(out, tiles-1, tiles-1)))
	}
	extent := float64(tw-1) * m.CellSize
	length := float64(th-1) * m.CellSize
	vs := m.VerticalScale
	switch target {
	case "unity":
		fmt.Fprintf(w, "Unity: Terrain Settings → Import Raw %s: Depth Bit 16, Width %d, Height %d, Byte Order Windows, Flip Vertically off (rows are written south first); "+
			"Terrain Size X (width) %.6g, Z (length) %.6g, Y (height) %.6g (metres); lowest point at terrain Y %.6g\n",
			file, tw, th, extent, length, vs, base)
		if tiles > 1 {
			fmt.Fprintf(w, "Unity: one terrain per tile, tile _x{i}_y{j} at position X = i × %.6g, Z = (%d − j) × %.6g\n", extent, tiles-1, length)
		}
	case "unreal":
		what := "Import from File"
		if tiles > 1 {
			what = "Import from File, tiled (pick any one tile; Unreal reads the others by their _x{i}_y{j} names)"
		}
		fmt.Fprintf(w, "Unreal: Landscape → %s %s (%d×%d a file): Scale X %.6g, Y %.6g, Z %.6g; Location Z %.6g "+
			"(cm: X and Y are the cell size, Z = %.6g m of relief × 100 / 512, Location Z puts the lowest point at %.6g m)\n",
			what, file, tw, th, m.CellSize*100, m.CellSize*100, vs*100/512, (base+vs/2)*100, vs, base)
	case "godot":
		if strings.EqualFold(filepath.Ext(out), ".exr") {
			fmt.Fprintf(w, "Godot Terrain3D: Importer → height_file_name %s, import_scale 1, height_offset 0 (the EXR's R channel holds metres, %.6g–%.6g); "+
				"Terrain3D vertex_spacing %.6g\n", file, base, base+vs, m.CellSize)
		} else {
			fmt.Fprintf(w, "Godot Terrain3D: Importer → height_file_name %s, r16_range %.6g to %.6g (metres), r16_size %d×%d, import_scale 1, height_offset 0; "+
				"Terrain3D vertex_spacing %.6g\n", file, base, base+vs, tw, th, m.CellSize)
		}
		if tiles > 1 {
			fmt.Fprintf(w, "Godot Terrain3D: import each tile _x{i}_y{j} at import_position (i × %.6g, j × %.6g)\n", extent, length)
		}
	}
}

// buildsByTiles reports whether generate -tiles makes the map one tile at
// a time, never holding it whole: a fractal generator without erosion,
// engine target, whole-map derived maps or meshes. Otherwise the whole map
// is made and then cut: subdivision needs the whole map's coarser levels,
// erosion moves material across tile borders, and normals (of a normal
// map, or a mesh tile's border) and splat weights come from the whole map.
func buildsByTiles(opt generateOptions) bool {
	e := opt.export
	return e.tiles > 1 && opt.heightmap == "" && opt.route == "" && e.target == "" && !slices.ContainsFunc(opt.outs, isMesh) &&
		e.normalMap == "" && e.splatMap == "" && opt.masks == "" &&
		terrain.CanGenerateRegions(opt.params) && opt.params.Erosion == "none"
}

// runGenerateTiles is generate -tiles for maps built tile by tile: a first
// pass finds the raw height range over all tiles, a second generates each
// tile again, normalises it by that range and saves it — bit for bit the
// tiles of the whole map, with one tile in memory at a time.
func runGenerateTiles(ctx context.Context, opt generateOptions, stdout, stderr io.Writer) error {
	g := newOutputGroup(ctx, opt)
	defer g.Abort() // a run that fails (or is cancelled) leaves none of its tiles behind
	var wrote []string
	p, n := opt.params, opt.export.tiles
	side := (p.Size-1)/n + 1
	start := time.Now()
	progress, finish := terminalProgress(stderr, fmt.Sprintf("%d×%d tiles", n, n))
	defer finish()
	step := func(k int) {
		if progress != nil {
			progress(float64(k) / float64(2*n*n))
		}
	}
	var lo, hi float32
	for k := range n * n {
		i, j := k%n, k/n
		m, err := terrain.FractalRegionRaw(ctx, p, i*(side-1), j*(side-1), side, side)
		if err != nil {
			return fmt.Errorf("generate: %w", err)
		}
		a, b := m.Range()
		if k == 0 || a < lo {
			lo = a
		}
		if k == 0 || b > hi {
			hi = b
		}
		step(k + 1)
	}
	for k := range n * n {
		i, j := k%n, k/n
		m, err := terrain.FractalRegionRaw(ctx, p, i*(side-1), j*(side-1), side, side)
		if err == nil {
			err = terrain.FinishRegion(ctx, m, p, lo, hi)
		}
		if err != nil {
			return fmt.Errorf("generate: %w", err)
		}
		for _, out := range opt.outs {
			path := tilePath(out, i, j)
			geo := localGeo(m.CellSize, float64(i*(side-1)), float64(j*(side-1)))
			if err := addMap(ctx, g, path, m, heightfile.SaveOptions{Geo: geo}, opt.export, meshTile{tiles: n}); err != nil {
				return fmt.Errorf("generate: %w", err)
			}
			wrote = append(wrote, path)
		}
		step(n*n + k + 1)
	}
	if opt.paramsOut != "" {
		if err := g.Add(opt.paramsOut, func(w io.Writer) error { return terrain.EncodeParams(w, p) }); err != nil {
			return fmt.Errorf("generate: %w", err)
		}
		wrote = append(wrote, opt.paramsOut)
	}
	if err := g.Commit(); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	finish()
	fmt.Fprintf(stdout, "%s\n", p.Describe())
	fmt.Fprintf(stdout, "generated tile by tile in %v: %d×%d tiles of %d², sharing their borders; heights 0–%.4g; wrote %s\n",
		time.Since(start).Round(time.Millisecond), n, n, side, p.Amplitude, strings.Join(wrote, ", "))
	return nil
}
