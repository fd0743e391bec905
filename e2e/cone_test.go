package e2e

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// The test heightmap: a cone on a plain, 16-bit grey, wider than deep and
// off-centre, so that a transposed or mirrored load shows. The tests make
// it themselves: `go generate ./e2e` (or `go test ./e2e -run
// TestConeHeightmapUpToDate -update`) rewrites testdata/cone.png, and
// TestConeHeightmapUpToDate checks that the committed file holds exactly
// the samples coneHeightmap makes.

//go:generate go test -run TestConeHeightmapUpToDate -update .

var update = flag.Bool("update", false, "rewrite the generated test data under testdata/")

const conePNG = "testdata/cone.png"

// The cone's geometry, in samples.
const (
	coneW, coneH   = 161, 121 // the map's size: columns, rows
	coneX, coneY   = 56, 54   // the apex: column, row (west and north of the centre)
	coneRadius     = 40       // the foot's radius
	conePlain      = 0.1      // the plain's height, of 1
	coneApexHeight = 1.0
)

// coneHeight is the height in [0, 1] at column x, row y.
func coneHeight(x, y int) float64 {
	r := math.Hypot(float64(x-coneX), float64(y-coneY))
	return conePlain + (coneApexHeight-conePlain)*max(0, 1-r/coneRadius)
}

// coneHeightmap makes the test heightmap.
func coneHeightmap() *image.Gray16 {
	img := image.NewGray16(image.Rect(0, 0, coneW, coneH))
	for y := range coneH {
		for x := range coneW {
			img.SetGray16(x, y, color.Gray16{Y: uint16(math.Round(coneHeight(x, y) * 65535))})
		}
	}
	return img
}

// TestConeHeightmapUpToDate checks that testdata/cone.png holds what
// coneHeightmap makes (the samples, not the bytes: a PNG encoder may
// compress differently); with -update it writes the file.
func TestConeHeightmapUpToDate(t *testing.T) {
	want := coneHeightmap()
	if *update {
		if err := os.MkdirAll(filepath.Dir(conePNG), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := savePNG(conePNG, want); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", conePNG)
	}
	got, err := readGray16(conePNG)
	if err != nil {
		t.Fatalf("%v (run `go generate ./e2e` to make it)", err)
	}
	if got.Rect != want.Rect {
		t.Fatalf("%s is %v; the generator makes %v (run `go generate ./e2e`)", conePNG, got.Rect, want.Rect)
	}
	for y := range coneH {
		for x := range coneW {
			if g, w := got.Gray16At(x, y).Y, want.Gray16At(x, y).Y; g != w {
				t.Fatalf("%s: sample (%d,%d) is %d; the generator makes %d (run `go generate ./e2e`)", conePNG, x, y, g, w)
			}
		}
	}
}

// readGray16 reads a 16-bit grey PNG.
func readGray16(path string) (*image.Gray16, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil, err
	}
	g, ok := img.(*image.Gray16)
	if !ok {
		return nil, fmt.Errorf("%s: a %T, not a 16-bit grey image", path, img)
	}
	return g, nil
}

// samplesChecksum is what the explorer reports as map_checksum for a
// 16-bit grey heightmap: the sum, in float64 and row by row, of its samples
// as float32 values v/65535 (terrain.DecodeHeightmapImage).
func samplesChecksum(img *image.Gray16) float64 {
	var sum float64
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			sum += float64(float32(img.Gray16At(x, y).Y) / 65535)
		}
	}
	return sum
}
