package commands

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"cordillera/terrain"
	"cordillera/terrain/world"
)

// buildOptions are the parsed flags of the build command.
type buildOptions struct {
	dir  string
	desc world.Description
	sel  world.Selection
}

// parseBuildFlags reads the build command's flags: the folder, the world's
// side, the tiling, the formats, the selection of tiles and, as generate
// reads them, the generation parameters.
func parseBuildFlags(args []string, stderr io.Writer) (buildOptions, error) {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	var opt buildOptions
	var formats, only, shard, from string
	fs.StringVar(&opt.dir, "o", "", "folder to build the world into (made if missing; a folder of the same world is resumed)")
	fs.IntVar(&opt.desc.Params.Size, "world", 4097, fmt.Sprintf("samples per side of the world: n·(tile−1)+1, up to %d", terrain.MaxWorldSize))
	fs.IntVar(&opt.desc.Tile, "tile", 1025, "samples per side of a tile; neighbouring tiles share their border samples")
	fs.IntVar(&opt.desc.Halo, "halo", 0, "samples a tile is made with beyond its edges: -erosion thermal needs at least its sweeps (-thermal-iterations); 0 without erosion")
	fs.StringVar(&formats, "format", "tif", "tile files, a comma-separated list of tif (16-bit GeoTIFF, always), exr (32-bit float metres), r16")
	fs.StringVar(&only, "only", "", "build only these tiles, a comma-separated list of names such as x0_y0,x3_y1")
	fs.StringVar(&from, "from", "", "take the whole description from this manifest (a world folder or its manifest.json): the same world on another machine without repeating its flags")
	fs.StringVar(&shard, "shard", "", "build only shard K/N of the tiles (every N-th from the K-th): N machines running 1/N … N/N build every tile once")
	pf := addParamFlags(fs)
	if err := parseFlags(fs, args, stderr, "cordillera build -o DIR [-world N] [-tile N] [-format tif,exr,r16] [-only TILES | -shard K/N] [flags] | -o DIR -from MANIFEST [-only TILES | -shard K/N]"); err != nil {
		return opt, err
	}
	if opt.dir == "" {
		return opt, fmt.Errorf("build: -o DIR is missing: the folder to build the world into")
	}
	var err error
	if from != "" {
		opt.desc, err = descriptionFrom(fs, from)
	} else {
		err = opt.describe(pf, formats)
	}
	if err != nil {
		return opt, err
	}
	if only != "" {
		opt.sel.Only = strings.Split(only, ",")
	}
	if shard != "" {
		if only != "" {
			return opt, fmt.Errorf("build: -only and -shard both pick tiles; give one")
		}
		if opt.sel.K, opt.sel.N, err = parseShard(shard); err != nil {
			return opt, err
		}
	}
	if err := opt.desc.Validate(); err != nil {
		return opt, fmt.Errorf("build: %w", err)
	}
	return opt, nil
}

// describe makes the description from the flags: the parameters as
// generate resolves them, the world's side (already in opt.desc) and the
// formats.
func (opt *buildOptions) describe(pf *paramFlags, formats string) error {
	if pf.isGiven("size") {
		return fmt.Errorf("build: -size is a map's side; a world's side is -world")
	}
	side := opt.desc.Params.Size
	p, err := pf.resolve("build", nil)
	if err != nil {
		return err
	}
	p.Size = side
	opt.desc.Params = p
	opt.desc.Formats = strings.Split(formats, ",")
	return nil
}

// descriptionFrom reads -from: the description in a world's manifest
// (path is the folder or the file). Flags that describe the world would
// change it, so they are refused beside -from.
func descriptionFrom(fs *flag.FlagSet, path string) (world.Description, error) {
	var given []string
	fs.Visit(func(f *flag.Flag) {
		if !slices.Contains([]string{"o", "from", "only", "shard"}, f.Name) {
			given = append(given, "-"+f.Name)
		}
	})
	if len(given) > 0 {
		return world.Description{}, fmt.Errorf("build: -from takes the whole description from the manifest; %s would change it", strings.Join(given, ", "))
	}
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		path = filepath.Join(path, world.ManifestName)
	}
	m, err := world.ReadManifestFile(path)
	if err != nil {
		return world.Description{}, fmt.Errorf("build: -from %w", err)
	}
	return m.Description, nil
}

// parseShard reads -shard K/N.
func parseShard(s string) (k, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	k, errK := strconv.Atoi(a)
	n, errN := strconv.Atoi(b)
	if !ok || errK != nil || errN != nil || n < 1 || k < 1 || k > n {
		return 0, 0, fmt.Errorf("build: -shard %q: want K/N with 1 ≤ K ≤ N, such as 2/4", s)
	}
	return k, n, nil
}

// Build runs "cordillera build": the world's tiles into a folder, with
// its VRT mosaic and manifest (terrain/world).
func Build(args []string, stdout, stderr io.Writer) error {
	opt, err := parseBuildFlags(args, stderr)
	if err != nil {
		return err
	}
	ctx, stop := signalContext()
	defer stop()
	start := time.Now()
	d := opt.desc
	n := d.TilesPerSide()
	fmt.Fprintf(stdout, "%s\n", d.Params.Describe())
	if d.Params.Erosion != "none" {
		fmt.Fprintf(stdout, "erosion %s, %d sweeps, tiles made with a halo of %d\n", d.Params.Erosion, d.Params.ThermalIterations, d.Halo)
	}
	fmt.Fprintf(stdout, "world %d² in %d×%d tiles of %d² (%s) into %s\n", d.Params.Size, n, n, d.Tile, strings.Join(d.Formats, ", "), opt.dir)
	r, err := world.Build(ctx, opt.dir, d, opt.sel, stderr)
	if err != nil {
		return fmt.Errorf("build: %w", err)
	}
	fmt.Fprintf(stdout, "built %d tiles, kept %d finished, in %v; %d of %d tiles finished", len(r.Built), len(r.Kept), time.Since(start).Round(time.Millisecond), r.Done, r.Total)
	if r.Done == r.Total {
		fmt.Fprintf(stdout, ": the world is complete")
	}
	fmt.Fprintf(stdout, "; mosaic %s, manifest %s\n", world.VRTName, world.ManifestName)
	return nil
}
