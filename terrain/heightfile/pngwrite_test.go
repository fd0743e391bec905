package heightfile

import (
	"bytes"
	"encoding/binary"
	"hash/adler32"
	"image"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"cordillera/internal/testenv"
	"cordillera/terrain"
)

// roughMap is a map of smooth ramps and noise, with samples out of [0, 1]
// for the clamp.
func roughMap(w, h int, seed uint64) *terrain.Heightmap {
	r := rand.New(rand.NewPCG(seed, 1))
	m := terrain.NewHeightmap(w, h)
	for y := range h {
		for x := range w {
			m.Set(x, y, float32(x+y)/float32(w+h)+0.05*r.Float32()-0.01)
		}
	}
	return m
}

// referencePNG16 is the straightforward encoder: image/png over a Gray16
// image of the quantised samples, the oracle the parallel writer must
// agree with pixel for pixel.
func referencePNG16(m *terrain.Heightmap) []byte {
	img := image.NewGray16(image.Rect(0, 0, m.Width, m.Height))
	for i, h := range m.Samples {
		v := quantize16(h)
		img.Pix[2*i], img.Pix[2*i+1] = byte(v>>8), byte(v)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// The parallel writer's files decode (with Go's image/png, which checks
// every chunk's CRC and the zlib checksum) to the same pixels as the
// reference encoder's, for maps of one segment, many segments and a last
// partial one, at any number of cores, and are the same bytes whatever the
// number of cores.
func TestParallelPNGAgreesWithReference(t *testing.T) {
	for _, size := range [][2]int{{2, 2}, {5, 3}, {300, 129}, {257, 700}, {1025, 257}} {
		m := roughMap(size[0], size[1], uint64(size[0]))
		want, err := png.Decode(bytes.NewReader(referencePNG16(m)))
		if err != nil {
			t.Fatal(err)
		}
		var first []byte
		for _, procs := range []int{1, 2, 4, 5} {
			old := runtime.GOMAXPROCS(procs)
			var buf bytes.Buffer
			err := EncodePNG16(&buf, m)
			runtime.GOMAXPROCS(old)
			if err != nil {
				t.Fatal(err)
			}
			got, err := png.Decode(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatalf("%v on %d cores: %v", size, procs, err)
			}
			if !bytes.Equal(got.(*image.Gray16).Pix, want.(*image.Gray16).Pix) {
				t.Fatalf("%v on %d cores: the pixels differ from image/png's", size, procs)
			}
			if first == nil {
				first = buf.Bytes()
			} else if !bytes.Equal(first, buf.Bytes()) {
				t.Errorf("%v: %d cores wrote other bytes than 1", size, procs)
			}
		}
	}
}

// GDAL and ImageMagick, decoding with zlib, read the parallel writer's
// file of several segments (the last partial) to the samples written.
func TestParallelPNGReadByGDALAndImageMagick(t *testing.T) {
	translate := testenv.NeedTool(t, "gdal_translate", "gdal-bin")
	convert := testenv.NeedTool(t, "convert", "imagemagick")
	m := roughMap(1000, 300, 7)
	dir := t.TempDir()
	path := filepath.Join(dir, "m.png")
	var buf bytes.Buffer
	if err := EncodePNG16(&buf, m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	want := make([]uint16, len(m.Samples))
	for i, h := range m.Samples {
		want[i] = quantize16(h)
	}
	for _, c := range []struct {
		tool  string
		args  []string
		order binary.ByteOrder
	}{
		{"gdal", []string{translate, "-q", "-of", "ENVI", path, filepath.Join(dir, "gdal.raw")}, binary.LittleEndian},
		{"imagemagick", []string{convert, path, "-depth", "16", "-endian", "MSB", "gray:" + filepath.Join(dir, "imagemagick.raw")}, binary.BigEndian},
	} {
		testenv.RunTool(t, c.args[0], c.args[1:]...)
		raw, err := os.ReadFile(filepath.Join(dir, c.tool+".raw"))
		if err != nil {
			t.Fatal(err)
		}
		if len(raw) != 2*len(want) {
			t.Fatalf("%s: %d bytes, want %d", c.tool, len(raw), 2*len(want))
		}
		for i, v := range want {
			if got := c.order.Uint16(raw[2*i:]); got != v {
				t.Fatalf("%s: sample %d (%d, %d) is %d, want %d", c.tool, i, i%m.Width, i/m.Width, got, v)
			}
		}
	}
}

// Samples that are not finite are found as they are written, on any core
// and in any segment: the error names the first.
func TestParallelPNGRefusesNonFinite(t *testing.T) {
	m := roughMap(300, 400, 9)
	m.Set(7, 390, float32(math.NaN()))
	m.Set(5, 260, float32(math.Inf(1)))
	m.Set(9, 261, float32(math.Inf(-1)))
	for _, procs := range []int{1, 4} {
		old := runtime.GOMAXPROCS(procs)
		err := EncodePNG16(io.Discard, m)
		runtime.GOMAXPROCS(old)
		if want := "sample 78005 (col 5, row 260) is +Inf"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%d cores: error %v, want %q", procs, err, want)
		}
	}
}

// Segments' Adler-32 sums combine to the sum of the whole.
func TestAdler32Combine(t *testing.T) {
	data := make([]byte, 200000)
	for i := range data {
		data[i] = byte(i * 7 >> 3)
	}
	for _, cut := range []int{0, 1, 65521, 100000, 200000} {
		if got, want := adler32Combine(adlerOf(data[:cut]), adlerOf(data[cut:]), int64(len(data)-cut)), adlerOf(data); got != want {
			t.Errorf("cut at %d: combined %08x, want %08x", cut, got, want)
		}
	}
}

// A failing writer's error comes back, with no panic and no goroutine
// left writing.
func TestParallelPNGWriteError(t *testing.T) {
	m := roughMap(513, 513, 3)
	if err := EncodePNG16(failAfter{n: 5000}, m); err == nil {
		t.Error("no error from a writer that fails")
	}
}

type failAfter struct{ n int }

func (f failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		return 0, bytes.ErrTooLarge
	}
	return len(p), nil
}

// BenchmarkEncodePNG16 compares writing a 2049² map with the parallel
// writer against image/png (the reference); run with -cpu 1,2.
func BenchmarkEncodePNG16(b *testing.B) {
	p := terrain.DefaultParams()
	p.Size = 2049
	m, err := terrain.Generate(b.Context(), p, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("parallel", func(b *testing.B) {
		var n int
		for i := 0; i < b.N; i++ {
			var buf bytes.Buffer
			if err := EncodePNG16(&buf, m); err != nil {
				b.Fatal(err)
			}
			n = buf.Len()
		}
		b.ReportMetric(float64(n)/1e6, "MB")
	})
	b.Run("image-png", func(b *testing.B) {
		var n int
		for i := 0; i < b.N; i++ {
			n = len(referencePNG16(m))
		}
		b.ReportMetric(float64(n)/1e6, "MB")
	})
}

func adlerOf(b []byte) uint32 { return adler32.Checksum(b) }
