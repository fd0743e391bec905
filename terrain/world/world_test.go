package world

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cordillera/pipeline"
	"cordillera/terrain"
	"cordillera/terrain/heightfile"
)

// smallWorld is a 65² world in 4×4 tiles of 17², every format.
func smallWorld(edit func(p *terrain.Params)) Description {
	p := terrain.DefaultParams()
	p.Size = 65
	if edit != nil {
		edit(&p)
	}
	return Description{Params: p, Tile: 17, Formats: []string{"tif", "exr", "r16"}}
}

// window cuts the w×w samples at (col, row) out of m.
func window(m *terrain.Heightmap, col, row, w int) *terrain.Heightmap {
	out := terrain.NewHeightmap(w, w)
	out.CellSize, out.VerticalScale = m.CellSize, m.VerticalScale
	for y := range w {
		copy(out.Samples[y*w:(y+1)*w], m.Samples[(row+y)*m.Width+col:])
	}
	return out
}

// encoded returns the bytes heightfile writes for m as a tile's file.
func encoded(t *testing.T, d Description, tile Tile, m *terrain.Heightmap, format string) []byte {
	t.Helper()
	enc, err := heightfile.Encoder("t."+format, m, heightfile.SaveOptions{Geo: tileGeo(d, tile)})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := enc(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func build(t *testing.T, dir string, d Description, sel Selection) Report {
	t.Helper()
	r, err := Build(context.Background(), dir, d, sel, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Every tile's samples, and every byte of its files, are the whole map's
// there: for plain fBm, with domain distortion, for Swiss turbulence with
// a post-effect, for a tileable Quilez world and for simplex ridges.
func TestTilesAreTheWholeMap(t *testing.T) {
	ctx := context.Background()
	for _, edit := range []func(p *terrain.Params){
		nil,
		func(p *terrain.Params) { p.Distortion = 30 },
		func(p *terrain.Params) { p.Algorithm, p.Effect = terrain.Swiss, "canyon" },
		func(p *terrain.Params) { p.Algorithm, p.Tileable = terrain.Quilez, true },
		func(p *terrain.Params) {
			p.Algorithm, p.Basis, p.Amplitude, p.CellSize = terrain.Ridged, "simplex", 1500, 30
		},
		func(p *terrain.Params) {
			p.Erosion, p.ThermalIterations, p.ThermalTalus, p.Amplitude = "thermal", 7, 20, 60
		},
	} {
		d := smallWorld(edit)
		if edit != nil { // 2×2 tiles and two formats are enough for the variants
			d.Tile, d.Formats = 33, []string{"tif", "exr"}
		}
		if d.eroding() {
			d.Tile, d.Halo = 17, d.Params.ThermalIterations
		}
		w, err := pipeline.Generate(ctx, d.Params, pipeline.Options{})
		if err != nil {
			t.Fatal(err)
		}
		whole := w.Map
		dir := t.TempDir()
		r := build(t, dir, d, Selection{})
		if n := len(d.Tiles()); len(r.Built) != n || r.Done != n || r.Total != n || !r.RangePass {
			t.Fatalf("%s: report %+v", d.Params.Describe(), r)
		}
		for _, tile := range d.Tiles() {
			want := window(whole, tile.Col, tile.Row, d.Tile)
			for _, f := range d.Formats {
				got, err := os.ReadFile(filepath.Join(dir, tileDir, tile.Name()+"."+f))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, encoded(t, d, tile, want, f)) {
					t.Fatalf("%s: tile %s.%s differs from the whole map's window", d.Params.Describe(), tile.Name(), f)
				}
			}
			src, err := heightfile.Load(filepath.Join(dir, tileDir, tile.Name()+".exr"))
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range src.Map.Samples { // float metres, decoded: the whole map's samples
				if got, w := float32(src.Base+float64(v)*src.Map.VerticalScale), float32(float64(want.Samples[k])*whole.VerticalScale); got != w && abs32(got-w) > 1e-4*w {
					t.Fatalf("tile %s sample %d: %v m, whole map %v m", tile.Name(), k, got, w)
				}
			}
		}
	}
}

func abs32(v float32) float32 { return max(v, -v) }

// MakeTile is bit for bit the whole map's window, sample by sample (the
// files above could hide a difference below 16 bits in the GeoTIFF).
func TestMakeTileIsBitForBit(t *testing.T) {
	ctx := context.Background()
	d := smallWorld(func(p *terrain.Params) { p.Algorithm, p.Distortion = terrain.Hybrid, 25 })
	whole, err := terrain.Generate(ctx, d.Params, nil)
	if err != nil {
		t.Fatal(err)
	}
	rng, _, err := worldRange(ctx, t.TempDir(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tile := range d.Tiles() {
		m, err := MakeTile(ctx, d, tile, rng)
		if err != nil {
			t.Fatal(err)
		}
		want := window(whole, tile.Col, tile.Row, d.Tile)
		for k := range m.Samples {
			if m.Samples[k] != want.Samples[k] {
				t.Fatalf("tile %s sample %d: %v, whole map %v", tile.Name(), k, m.Samples[k], want.Samples[k])
			}
		}
		if m.CellSize != whole.CellSize || m.VerticalScale != whole.VerticalScale {
			t.Fatalf("tile scale %v/%v, whole map %v/%v", m.CellSize, m.VerticalScale, whole.CellSize, whole.VerticalScale)
		}
	}
}

// A build killed part-way, resumed, makes only what is missing: a tile
// whose temporary was being written (no file, no record), a tile whose
// file was deleted and one whose file was cut short. The finished tiles
// are not written again, the raw range is not found again, and the
// result is the uninterrupted build's, byte for byte.
func TestResumeMakesOnlyWhatIsMissing(t *testing.T) {
	d := smallWorld(nil)
	dir := t.TempDir()
	build(t, dir, d, Selection{})
	before := snapshot(t, dir)

	tiles := filepath.Join(dir, tileDir)
	for _, name := range []string{"x1_y1.tif", "x1_y1.exr", "x1_y1.r16", "x1_y1.json"} {
		os.Remove(filepath.Join(tiles, name))
	}
	// A killed writer's temporary, as atomicfile names them (PID, random).
	temp := filepath.Join(tiles, ".x1_y1.tif.tmp-cordillera-999999999-1")
	if err := os.WriteFile(temp, before["tiles/x1_y1.tif"][:100], 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(tiles, "x2_y0.tif"))
	if err := os.WriteFile(filepath.Join(tiles, "x3_y3.exr"), before["tiles/x3_y3.exr"][:300], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, VRTName)); err != nil {
		t.Fatal(err)
	}
	kept, err := os.Stat(filepath.Join(tiles, "x0_y0.tif"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ReadManifest(dir)
	if err != nil || m.State != "complete" {
		t.Fatalf("manifest before the resume: state %q, %v", m.State, err)
	}

	r := build(t, dir, d, Selection{})
	if want := []string{"x2_y0", "x1_y1", "x3_y3"}; !slices.Equal(r.Built, want) || len(r.Kept) != 13 || r.RangePass {
		t.Fatalf("resumed build made %v (want %v), kept %d, range pass %v", r.Built, want, len(r.Kept), r.RangePass)
	}
	after := snapshot(t, dir)
	// The temporary is never taken for the tile; a later process's first
	// write into the folder sweeps it (atomicfile), this test's process
	// swept the folder in the first build already.
	delete(after, "tiles/.x1_y1.tif.tmp-cordillera-999999999-1")
	for name, b := range before {
		if !bytes.Equal(after[name], b) {
			t.Errorf("%s differs from the uninterrupted build's", name)
		}
	}
	if len(after) != len(before) {
		t.Errorf("%d files after the resume, %d before", len(after), len(before))
	}
	if again, _ := os.Stat(filepath.Join(tiles, "x0_y0.tif")); !again.ModTime().Equal(kept.ModTime()) {
		t.Error("a finished tile was written again")
	}
}

// snapshot maps every file under dir (by slash path) to its bytes.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// Three shards built apart (three machines) make every tile once; their
// tiles copied into one folder are recognised as finished, and the world
// is the one a single build makes, byte for byte. Tiles made one at a
// time in reverse order give the same bytes too.
func TestShardsReassemble(t *testing.T) {
	d := smallWorld(func(p *terrain.Params) { p.Algorithm = terrain.Billow })
	d.Formats = []string{"tif"}
	single := t.TempDir()
	build(t, single, d, Selection{})
	want := snapshot(t, single)

	merged := t.TempDir()
	var made []string
	for k := 1; k <= 3; k++ {
		dir := t.TempDir()
		r := build(t, dir, d, Selection{K: k, N: 3})
		made = append(made, r.Built...)
		m, err := ReadManifest(dir)
		if err != nil || m.State != "partial" || m.Done != len(r.Built) {
			t.Fatalf("shard %d/3: manifest state %q with %d done, built %d, %v", k, m.State, m.Done, len(r.Built), err)
		}
		for name, b := range snapshot(t, dir) {
			if strings.HasPrefix(name, tileDir+"/") || name == rangeName {
				writeFile(t, filepath.Join(merged, name), b)
			}
		}
	}
	slices.Sort(made)
	var all []string
	for _, tile := range d.Tiles() {
		all = append(all, tile.Name())
	}
	slices.Sort(all)
	if !slices.Equal(made, all) {
		t.Fatalf("the shards made %v, want every tile once: %v", made, all)
	}
	r := build(t, merged, d, Selection{})
	if len(r.Built) != 0 || len(r.Kept) != 16 || r.RangePass || r.Done != 16 {
		t.Fatalf("reassembly: %+v", r)
	}
	compareSnapshots(t, "reassembled", snapshot(t, merged), want)

	reverse := t.TempDir()
	tiles := d.Tiles()
	for k := len(tiles) - 1; k >= 0; k-- {
		build(t, reverse, d, Selection{Only: []string{tiles[k].Name()}})
	}
	compareSnapshots(t, "reverse order", snapshot(t, reverse), want)
}

func compareSnapshots(t *testing.T, what string, got, want map[string][]byte) {
	t.Helper()
	for name, b := range want {
		if !bytes.Equal(got[name], b) {
			t.Errorf("%s: %s differs from the single build's", what, name)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s: %d files, the single build %d", what, len(got), len(want))
	}
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// The manifest lists every tile with its files' checksums, which are the
// files' own, the raw range and the world's scale; the description
// round-trips through JSON, a world wider than a map held whole included.
func TestManifest(t *testing.T) {
	d := smallWorld(nil)
	dir := t.TempDir()
	build(t, dir, d, Selection{Only: []string{"x0_y0", "x3_y2"}})
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.State != "partial" || m.Done != 2 || len(m.Tiles) != 16 || m.RawRange == nil || m.Size != 65 || m.Mosaic != VRTName || m.Key != d.Key() {
		t.Fatalf("manifest %+v", m)
	}
	for _, e := range m.Tiles {
		if done := e.Name == "x0_y0" || e.Name == "x3_y2"; done != (len(e.Files) == 3) {
			t.Errorf("tile %s lists %d files", e.Name, len(e.Files))
		}
		for _, f := range e.Files {
			b, err := os.ReadFile(filepath.Join(dir, f.Name))
			if err != nil {
				t.Fatal(err)
			}
			if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != f.SHA256 || int64(len(b)) != f.Bytes {
				t.Errorf("%s: manifest's checksum or length is not the file's", f.Name)
			}
		}
	}
	if e := m.Tiles[6]; e.Name != "x2_y1" || e.Col != 32 || e.Row != 16 {
		t.Errorf("tile 6 is %+v, want x2_y1 at (32,16)", e)
	}
	if m.Description.Key() != d.Key() {
		t.Error("the manifest's description is not the one built")
	}

	big := smallWorld(func(p *terrain.Params) { p.Size, p.Seed = 8*2048+1, -5 })
	big.Tile = 2049
	b, err := json.Marshal(big)
	if err != nil {
		t.Fatal(err)
	}
	var back Description
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Key() != big.Key() || back.Params != big.Params || back.Validate() != nil {
		t.Errorf("description %s read back as %+v", b, back)
	}
}

// Descriptions that cannot be built are refused before anything is
// written, with an error that says why and what to change.
func TestBadDescriptions(t *testing.T) {
	tests := []struct {
		name string
		edit func(d *Description)
		sel  Selection
		want string
	}{
		{"midpoint", func(d *Description) { d.Params.Algorithm = terrain.Midpoint }, Selection{}, "coarser levels of the whole map"},
		{"diamond-square", func(d *Description) { d.Params.Algorithm = terrain.DiamondSquareAlg }, Selection{}, "cannot be built by tiles"},
		{"droplets", func(d *Description) { d.Params.Erosion = "hydraulic" }, Selection{}, "erosion hydraulic cannot be built by tiles: droplets run far"},
		{"thermal and rivers", func(d *Description) { d.Params.Erosion, d.Halo = "thermal,fluvial", 50 }, Selection{}, "only thermal erosion alone"},
		{"thermal without halo", func(d *Description) { d.Params.Erosion = "thermal" }, Selection{}, "halo 0: thermal erosion's 50 sweeps reach 50 samples"},
		{"thermal halo short", func(d *Description) { d.Params.Erosion, d.Params.ThermalIterations, d.Halo = "thermal", 8, 7 }, Selection{}, "a halo of at least 8"},
		{"halo past a map", func(d *Description) {
			d.Params.Size, d.Tile, d.Params.Erosion, d.Params.ThermalIterations, d.Halo = 8*8000+1, 8001, "thermal", 200, 200
		}, Selection{}, "tile 8001 with halo 200"},
		{"tile not dividing", func(d *Description) { d.Tile = 20 }, Selection{}, "n·19+1 (such as 58 or 77)"},
		{"tile too small", func(d *Description) { d.Tile = 1 }, Selection{}, "tile 1: a tile has 2 to"},
		{"tile past the world", func(d *Description) { d.Tile = 129 }, Selection{}, "world 65, tile 129"},
		{"halo", func(d *Description) { d.Halo = 4 }, Selection{}, "halo 4: without erosion"},
		{"format", func(d *Description) { d.Formats = []string{"tif", "png"} }, Selection{}, `format "png"`},
		{"format twice", func(d *Description) { d.Formats = []string{"tif", "exr", "exr"} }, Selection{}, "exr is listed twice"},
		{"no tif", func(d *Description) { d.Formats = []string{"exr"} }, Selection{}, "tif is needed"},
		{"too many tiles", func(d *Description) { d.Params.Size, d.Tile = 2048*16+1, 17 }, Selection{}, "2048 tiles per side, more than 1024: use larger tiles, such as 33"},
		{"world too wide", func(d *Description) { d.Params.Size = terrain.MaxWorldSize + 16 }, Selection{}, "at most"},
		{"bad parameter", func(d *Description) { d.Params.Octaves = 0 }, Selection{}, "octaves"},
		{"shard 0", nil, Selection{K: 0, N: 2}, "shard 0/2"},
		{"shard past n", nil, Selection{K: 3, N: 2}, "shard 3/2"},
		{"unknown tile", nil, Selection{Only: []string{"x4_y0"}}, `tile "x4_y0" is not in the world: tiles are x0_y0 to x3_y3`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := smallWorld(nil)
			if tt.edit != nil {
				tt.edit(&d)
			}
			dir := filepath.Join(t.TempDir(), "world")
			_, err := Build(context.Background(), dir, d, tt.sel, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want one containing %q", err, tt.want)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("a refused build made its folder (%v)", err)
			}
		})
	}

	// A folder holding another world is refused, and left as it was.
	dir := t.TempDir()
	build(t, dir, smallWorld(nil), Selection{Only: []string{"x0_y0"}})
	before := snapshot(t, dir)
	other := smallWorld(func(p *terrain.Params) { p.Seed = 18 })
	if _, err := Build(context.Background(), dir, other, Selection{}, nil); err == nil || !strings.Contains(err.Error(), "holds another world") {
		t.Fatalf("another world's folder: err %v", err)
	}
	compareSnapshots(t, "refused", snapshot(t, dir), before)
}

// Thermal erosion with a halo as wide as its sweeps gives every tile the
// whole map's eroded heights bit for bit (tiles at the world's edge, with
// no halo there, and inner ones alike); one sample less of halo does not,
// so the halo is no wider than it must be. The erosion moves material:
// the eroded tiles are not the uneroded ones.
func TestThermalHalo(t *testing.T) {
	ctx := context.Background()
	d := smallWorld(func(p *terrain.Params) {
		p.Erosion, p.ThermalIterations, p.ThermalTalus, p.Amplitude = "thermal", 6, 20, 60
	})
	d.Halo = 6
	w, err := pipeline.Generate(ctx, d.Params, pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rng, _, err := worldRange(ctx, t.TempDir(), d, nil)
	if err != nil {
		t.Fatal(err)
	}
	plain := d
	plain.Params.Erosion, plain.Halo = "none", 0
	short := d
	short.Halo = d.Params.ThermalIterations - 1
	var shortDiffers int
	for _, tile := range d.Tiles() {
		want := window(w.Map, tile.Col, tile.Row, d.Tile)
		m, err := MakeTile(ctx, d, tile, rng)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(m.Samples, want.Samples) || m.VerticalScale != w.Map.VerticalScale {
			t.Fatalf("tile %s with halo %d is not the whole map's eroded window", tile.Name(), d.Halo)
		}
		uneroded, err := MakeTile(ctx, plain, tile, Range{Low: rng.Low, High: rng.High})
		if err != nil {
			t.Fatal(err)
		}
		if slices.Equal(uneroded.Samples, m.Samples) {
			t.Errorf("tile %s: erosion changed nothing", tile.Name())
		}
		if s, err := MakeTile(ctx, short, tile, rng); err != nil {
			t.Fatal(err)
		} else if !slices.Equal(s.Samples, want.Samples) {
			shortDiffers++
		}
	}
	if shortDiffers == 0 {
		t.Errorf("with a halo of %d for %d sweeps every tile still equals the whole map", short.Halo, d.Params.ThermalIterations)
	}
	t.Logf("halo %d: %d of 16 tiles differ from the whole map", short.Halo, shortDiffers)
}

// Reading a description (a manifest's) never panics; what it accepts and
// validates writes back to the same description.
func FuzzDescriptionJSON(f *testing.F) {
	b, _ := json.Marshal(smallWorld(nil))
	f.Add(b)
	f.Add([]byte(`{"world":16385,"tile":1025,"halo":0,"formats":["tif"],"params":{"seed":4}}`))
	f.Add([]byte(`{"world":65,"tile":17,"halo":50,"formats":["tif","exr"],"params":{"erosion":"thermal"}}`))
	f.Add([]byte(`{"world":1048577,"tile":2,"params":{}}`))
	f.Add([]byte(`{"params":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var d Description
		if err := json.Unmarshal(data, &d); err != nil {
			return
		}
		if d.Validate() != nil {
			return
		}
		again, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		var back Description
		if err := json.Unmarshal(again, &back); err != nil || back.Key() != d.Key() || back.Params != d.Params {
			t.Fatalf("%q read back from %q as %+v: %v", again, data, back, err)
		}
	})
}
