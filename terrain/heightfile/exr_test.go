package heightfile

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mrjoshuak/go-openexr/exr"
)

func TestEXRRoundTrip(t *testing.T) {
	m := randomHeightmap(33, 21, 3)
	m.CellSize, m.VerticalScale = 12.5, 2044
	var buf bytes.Buffer
	if err := EncodeEXR(&buf, m, -44); err != nil {
		t.Fatal(err)
	}
	src, err := DecodeEXR(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	got := src.Map
	if got.Width != 33 || got.Height != 21 || got.CellSize != 12.5 || !src.Metric || !src.HasCellSize {
		t.Fatalf("decoded %d×%d cell %v metric %v", got.Width, got.Height, got.CellSize, src.Metric)
	}
	// float32 metres: relative precision 2^-24 of the largest height.
	tol := 2044 * 2e-7 * 4
	for i, h := range m.Samples {
		want := -44 + float64(h)*2044
		if d := src.Base + float64(got.Samples[i])*got.VerticalScale - want; math.Abs(d) > tol {
			t.Fatalf("sample %d: %v m, want %v", i, want+d, want)
		}
	}
}

// exrheader (OpenEXR's own tool) reads the file and sees one float channel.
func TestEXRReadByOpenEXR(t *testing.T) {
	tool := needTool(t, "exrheader", "openexr")
	path := filepath.Join(t.TempDir(), "map.exr")
	m := randomHeightmap(65, 40, 5)
	m.VerticalScale = 300
	if err := Save(path, m, SaveOptions{Base: 10}); err != nil {
		t.Fatal(err)
	}
	out := runTool(t, tool, path)
	for _, want := range []string{"Y, 32-bit floating-point", "dataWindow (type box2i): (0 0) - (64 39)",
		"zip, ", "cordilleraCellSize (type double): 1", "cordilleraBase (type double): 10"} {
		if !strings.Contains(out, want) {
			t.Errorf("exrheader output lacks %q:\n%s", want, out)
		}
	}
}

func TestEXRRefusals(t *testing.T) {
	var good bytes.Buffer
	if err := EncodeEXR(&good, randomHeightmap(8, 8, 1), 0); err != nil {
		t.Fatal(err)
	}
	nan := randomHeightmap(4, 4, 1)
	nan.Samples[5] = float32(math.NaN())
	if err := EncodeEXR(&bytes.Buffer{}, nan, 0); err == nil || !strings.HasPrefix(err.Error(), "exr: ") {
		t.Errorf("NaN map encoded: %v", err)
	}
	for name, data := range map[string][]byte{
		"empty":     nil,
		"not exr":   []byte("GIF89a and more bytes here"),
		"truncated": good.Bytes()[:good.Len()/2],
		"header":    good.Bytes()[:40],
	} {
		src, err := DecodeEXR(bytes.NewReader(data), int64(len(data)))
		if err == nil || src != nil || !strings.HasPrefix(err.Error(), "exr: ") {
			t.Errorf("%s: source %v, error %v; want an exr: error", name, src != nil, err)
		}
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.exr")
	os.WriteFile(bad, []byte("v/1\x01 not an exr"), 0o644)
	if _, err := Load(bad); err == nil || !strings.HasPrefix(err.Error(), bad+": exr: ") {
		t.Errorf("Load: %v; want the path then exr:", err)
	}
}

func FuzzDecodeEXR(f *testing.F) {
	var buf bytes.Buffer
	if err := EncodeEXR(&buf, randomHeightmap(5, 3, 1), 2); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte("v/1\x01\x02\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		src, err := DecodeEXR(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			if src != nil {
				t.Fatal("source returned with an error")
			}
			return
		}
		if err := src.Map.Validate(); err != nil {
			t.Fatal(err)
		}
	})
}

// Files written by OpenEXR's own library read back: exrstdattr rewrites our
// file through it; exrmaketiled makes a tiled one, which is refused by name.
func TestEXRWrittenByOpenEXR(t *testing.T) {
	stdattr := needTool(t, "exrstdattr", "openexr")
	maketiled := needTool(t, "exrmaketiled", "openexr")
	dir := t.TempDir()
	ours, theirs, tiled := filepath.Join(dir, "a.exr"), filepath.Join(dir, "b.exr"), filepath.Join(dir, "t.exr")
	m := randomHeightmap(70, 50, 8)
	m.VerticalScale = 3000
	if err := Save(ours, m, SaveOptions{Base: -20}); err != nil {
		t.Fatal(err)
	}
	runTool(t, stdattr, "-owner", "cordillera test", ours, theirs)
	src, err := Load(theirs)
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range m.Samples {
		want := -20 + float64(h)*3000
		if got := src.Base + float64(src.Map.Samples[i])*src.Map.VerticalScale; math.Abs(got-want) > 1e-3 {
			t.Fatalf("sample %d: %v m, want %v", i, got, want)
		}
	}
	runTool(t, maketiled, ours, tiled)
	if _, err := Load(tiled); err == nil || !strings.Contains(err.Error(), "tiled") || !strings.HasPrefix(err.Error(), tiled) {
		t.Errorf("tiled EXR: %v; want a refusal naming the file and the tiling", err)
	}
}

// Files from github.com/mrjoshuak/go-openexr read back through DecodeEXR
// in every pixel type (our blocks for none; the library for its own PIZ).
// Its ZIP and RLE are not OpenEXR's (see below), so our files are checked
// against OpenEXR's own library instead (TestEXRCompressionsByOpenEXR).
func TestEXRAgainstGoOpenEXR(t *testing.T) {
	w, h := 40, 37
	smooth := make([]float32, w*h)
	for i := range smooth {
		smooth[i] = 100 + float32(i%w)*2.5 + float32(i/w)
	}
	for _, tt := range []struct {
		comp    exr.Compression
		pixel   exr.PixelType
		channel string
	}{
		// Not RLE: go-openexr v1.0.3 swaps RLE's run and literal counts
		// (OpenEXR's ImfRle.cpp: negative = literal bytes), so its RLE files
		// are not OpenEXR's; TestEXRCompressionsByOpenEXR reads real ones.
		// Nor ZIP: OpenEXR's own library (exrmultiview) decodes go-openexr's
		// ZIP blocks to other values than were written (NaN), as DecodeEXR
		// does, while it reads our writer's ZIP files back exactly.
		{exr.CompressionNone, exr.PixelTypeFloat, "R"}, {exr.CompressionNone, exr.PixelTypeHalf, "height"},
		{exr.CompressionNone, exr.PixelTypeUint, "Y"}, {exr.CompressionPIZ, exr.PixelTypeFloat, "Y"},
	} {
		hd := exr.NewScanlineHeader(w, h)
		cl := exr.NewChannelList()
		cl.Add(exr.NewChannel(tt.channel, tt.pixel))
		hd.SetChannels(cl)
		hd.SetCompression(tt.comp)
		fb := exr.NewFrameBuffer()
		fb.Set(tt.channel, exr.NewSliceFromFloat32(smooth, w, h))
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
		src, err := DecodeEXR(bytes.NewReader(buf.data), int64(len(buf.data)))
		if err != nil {
			t.Fatalf("%v %v: %v", tt.comp, tt.pixel, err)
		}
		for i, want := range smooth {
			got := src.Base + float64(src.Map.Samples[i])*src.Map.VerticalScale
			tol := 1e-3
			if tt.pixel == exr.PixelTypeHalf {
				tol = float64(want) / 1024 // 11 significant bits
			}
			if tt.pixel == exr.PixelTypeUint {
				want = float32(math.Trunc(float64(want)))
			}
			if math.Abs(got-float64(want)) > tol {
				t.Fatalf("%v %v sample %d: %v, want %v", tt.comp, tt.pixel, i, got, want)
			}
		}
	}
}

// OpenEXR's own library rewrites our file in every scanline compression
// (exrmultiview, two views: channels Y and right.Y) and DecodeEXR reads the
// heights back: none, RLE and ZIP by our code, PXR24 (24-bit floats,
// lossy) through go-openexr. Not PIZ: go-openexr v1.0.3 reads its own PIZ
// files but calls OpenEXR's corrupt.
func TestEXRCompressionsByOpenEXR(t *testing.T) {
	tool := needTool(t, "exrmultiview", "openexr")
	dir := t.TempDir()
	ours := filepath.Join(dir, "a.exr")
	m := randomHeightmap(45, 38, 12)
	m.VerticalScale = 1000
	if err := Save(ours, m, SaveOptions{Base: 50}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		z   string
		tol float64 // metres
	}{{"none", 1e-3}, {"rle", 1e-3}, {"zip", 1e-3}, {"pxr24", 1050.0 / (1 << 15)}} {
		out := filepath.Join(dir, tt.z+".exr")
		runTool(t, tool, "-z", tt.z, "left", ours, "right", ours, out)
		src, err := Load(out)
		if err != nil {
			t.Fatalf("%s: %v", tt.z, err)
		}
		for i, h := range m.Samples {
			want := 50 + float64(h)*1000
			if got := src.Base + float64(src.Map.Samples[i])*src.Map.VerticalScale; math.Abs(got-want) > tt.tol {
				t.Fatalf("%s: sample %d = %v m, want %v ± %v", tt.z, i, got, want, tt.tol)
			}
		}
	}
}
