//go:build !js

package heightfile

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/mrjoshuak/go-openexr/exr"
)

// PXR24 files written by OpenEXR's own library (exrmultiview: two float
// channels, Y and right.Y; 70 lines, so the last block holds 6) decode in
// pure Go to exactly what go-openexr decodes, and within PXR24's 24-bit
// precision of the heights saved.
func TestPXR24AgainstOpenEXR(t *testing.T) {
	tool := needTool(t, "exrmultiview", "openexr")
	dir := t.TempDir()
	ours := filepath.Join(dir, "a.exr")
	m := randomHeightmap(300, 70, 5)
	m.VerticalScale = 3000
	if err := Save(ours, m, SaveOptions{Base: -200}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "pxr24.exr")
	runTool(t, tool, "-z", "pxr24", "left", ours, "right", ours, path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pure, err := DecodeEXR(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	lib, err := decodeEXRLibrary(bytes.NewReader(data), int64(len(data)), exrPXR24)
	if err != nil {
		t.Fatal(err)
	}
	samePXR24(t, "exrmultiview float", pure, lib)
	for i, h := range m.Samples {
		want := -200 + float64(h)*3000
		if got := pure.Base + float64(pure.Map.Samples[i])*pure.Map.VerticalScale; math.Abs(got-want) > 3200.0/(1<<15) {
			t.Fatalf("sample %d = %v m, want %v", i, got, want)
		}
	}
}

// PXR24 in every pixel type, written by go-openexr: UINT keeps all 32
// bits, HALF all 16, FLOAT 24. The pure-Go decoder and the library agree
// on every sample.
func TestPXR24PixelTypes(t *testing.T) {
	w, h := 53, 35
	heights := make([]float32, w*h)
	for i := range heights {
		heights[i] = 100 + float32(i%w)*2.5 + float32(i/w)*float32(1+i%3)
	}
	for _, pixel := range []exr.PixelType{exr.PixelTypeUint, exr.PixelTypeHalf, exr.PixelTypeFloat} {
		hd := exr.NewScanlineHeader(w, h)
		cl := exr.NewChannelList()
		cl.Add(exr.NewChannel("Y", pixel))
		hd.SetChannels(cl)
		hd.SetCompression(exr.CompressionPXR24)
		fb := exr.NewFrameBuffer()
		fb.Set("Y", exr.NewSliceFromFloat32(heights, w, h))
		var buf seekBuffer
		sw, err := exr.NewScanlineWriter(&buf, hd)
		if err != nil {
			t.Fatal(err)
		}
		sw.SetFrameBuffer(fb)
		if err := sw.WritePixels(0, h-1); err != nil {
			t.Fatal(err)
		}
		if err := sw.Close(); err != nil {
			t.Fatal(err)
		}
		pure, err := DecodeEXR(bytes.NewReader(buf.data), int64(len(buf.data)))
		if err != nil {
			t.Fatalf("%v: %v", pixel, err)
		}
		lib, err := decodeEXRLibrary(bytes.NewReader(buf.data), int64(len(buf.data)), exrPXR24)
		if err != nil {
			t.Fatalf("%v: %v", pixel, err)
		}
		samePXR24(t, pixel.String(), pure, lib)
		if pixel == exr.PixelTypeUint { // PXR24 is lossless for UINT
			for i, want := range heights {
				if got := pure.Base + float64(pure.Map.Samples[i])*pure.Map.VerticalScale; math.Abs(got-math.Trunc(float64(want))) > 1e-3 {
					t.Fatalf("UINT sample %d = %v, want %v", i, got, math.Trunc(float64(want)))
				}
			}
		}
	}
}

// samePXR24 fails unless two decodings of one file are the same map.
func samePXR24(t *testing.T, what string, pure, lib *Source) {
	t.Helper()
	if pure.Base != lib.Base || pure.Map.VerticalScale != lib.Map.VerticalScale || pure.Map.Width != lib.Map.Width || pure.Map.Height != lib.Map.Height {
		t.Fatalf("%s: pure Go %d×%d base %v span %v; library %d×%d base %v span %v", what,
			pure.Map.Width, pure.Map.Height, pure.Base, pure.Map.VerticalScale, lib.Map.Width, lib.Map.Height, lib.Base, lib.Map.VerticalScale)
	}
	for i := range pure.Map.Samples {
		if pure.Map.Samples[i] != lib.Map.Samples[i] {
			t.Fatalf("%s: sample %d: pure Go %v, library %v", what, i, pure.Map.Samples[i], lib.Map.Samples[i])
		}
	}
}
