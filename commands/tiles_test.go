package commands

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"cordillera/terrain/heightfile"
)

// metresAt returns a loaded map's height in metres at (x, y), and how
// far its 16-bit steps let it be from the true height.
func metresAt(src *heightfile.Source, x, y int) float64 {
	return src.Base + float64(src.Map.At(x, y))*src.Map.VerticalScale
}

func quantum(src *heightfile.Source) float64 { return src.Map.VerticalScale / 65535 }

// checkTiles loads the n×n tiles of out (NAME_x{i}_y{j}.EXT) and checks
// they are the whole map cut with shared borders: each tile has its share
// of the samples, and each sample in metres is the whole map's at the same
// place. It returns the tiles by [j][i].
func checkTiles(t *testing.T, out string, whole *heightfile.Source, n int) [][]*heightfile.Source {
	t.Helper()
	tw, th := (whole.Map.Width-1)/n+1, (whole.Map.Height-1)/n+1
	tiles := make([][]*heightfile.Source, n)
	for j := range n {
		tiles[j] = make([]*heightfile.Source, n)
		for i := range n {
			path := tilePath(out, i, j)
			tile, err := heightfile.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if tile.Map.Width != tw || tile.Map.Height != th {
				t.Fatalf("%s is %d×%d; want %d×%d", filepath.Base(path), tile.Map.Width, tile.Map.Height, tw, th)
			}
			tol := quantum(tile) + quantum(whole) + 1e-6
			for y := range th {
				for x := range tw {
					wx, wy := i*(tw-1)+x, j*(th-1)+y
					if got, want := metresAt(tile, x, y), metresAt(whole, wx, wy); math.Abs(got-want) > tol {
						t.Fatalf("%s: sample (%d,%d) is %.3f m; the whole map has %.3f m at (%d,%d)",
							filepath.Base(path), x, y, got, want, wx, wy)
					}
				}
			}
			tiles[j][i] = tile
		}
	}
	if _, err := os.Stat(tilePath(out, n, 0)); err == nil {
		t.Errorf("a tile beyond %d×%d was written", n, n)
	}
	return tiles
}

// -tiles on a DEM that is not square (41×33 samples, 25 m cells) cuts it
// into tiles that put together are the whole map, and each GeoTIFF tile
// carries its own origin: its north-west corner's place in the DEM's
// coordinates, so GIS tools lay the tiles side by side.
func TestTilesOfNonSquareMap(t *testing.T) {
	dir := t.TempDir()
	dem := filepath.Join(dir, "dem.tif")
	geo := &heightfile.GeoRef{OriginX: 500000, OriginY: 5200000, PixelX: 25, PixelY: 25, EPSG: 32633}
	if err := heightfile.Save(dem, testDEM(), heightfile.SaveOptions{Base: 1200, Geo: geo}); err != nil {
		t.Fatal(err)
	}
	wholePath := filepath.Join(dir, "whole.tif")
	if _, _, err := runCLI(t, "-heightmap", dem, "-o", wholePath); err != nil {
		t.Fatal(err)
	}
	whole, err := heightfile.Load(wholePath)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{2, 4} {
		out := filepath.Join(dir, fmt.Sprintf("t%d.tif", n))
		if _, _, err := runCLI(t, "-heightmap", dem, "-tiles", itoa(n), "-o", out); err != nil {
			t.Fatalf("-tiles %d: %v", n, err)
		}
		tiles := checkTiles(t, out, whole, n)
		tw, th := (41-1)/n+1, (33-1)/n+1
		for j, row := range tiles {
			for i, tile := range row {
				want := *geo
				want.OriginX += float64(i*(tw-1)) * 25
				want.OriginY -= float64(j*(th-1)) * 25
				if tile.Geo == nil || *tile.Geo != want {
					t.Errorf("-tiles %d: tile (%d,%d) is placed at %+v; want %+v", n, i, j, tile.Geo, want)
				}
			}
		}
	}
}
