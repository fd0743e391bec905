package heightfile

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"cordillera/internal/testenv"
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
	tool := testenv.NeedTool(t, "exrheader", "openexr")
	path := filepath.Join(t.TempDir(), "map.exr")
	m := randomHeightmap(65, 40, 5)
	m.VerticalScale = 300
	if err := Save(path, m, SaveOptions{Base: 10}); err != nil {
		t.Fatal(err)
	}
	out := testenv.RunTool(t, tool, path)
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
	// A cell size that would make infinite vertices further on.
	huge := randomHeightmap(4, 4, 1)
	huge.CellSize = 1e300
	var hb bytes.Buffer
	if err := EncodeEXR(&hb, huge, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeEXR(bytes.NewReader(hb.Bytes()), int64(hb.Len())); err == nil || !strings.Contains(err.Error(), "exr: cell size 1e+300 m (cordilleraCellSize)") {
		t.Errorf("cell size 1e300: %v", err)
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
// file through it, exrmaketiled makes a tiled one (64×64 tiles, ZIP).
func TestEXRWrittenByOpenEXR(t *testing.T) {
	stdattr := testenv.NeedTool(t, "exrstdattr", "openexr")
	maketiled := testenv.NeedTool(t, "exrmaketiled", "openexr")
	dir := t.TempDir()
	ours, theirs, tiled := filepath.Join(dir, "a.exr"), filepath.Join(dir, "b.exr"), filepath.Join(dir, "t.exr")
	m := randomHeightmap(70, 150, 8)
	m.VerticalScale = 3000
	if err := Save(ours, m, SaveOptions{Base: -20}); err != nil {
		t.Fatal(err)
	}
	testenv.RunTool(t, stdattr, "-owner", "cordillera test", ours, theirs)
	testenv.RunTool(t, maketiled, ours, tiled)
	for _, path := range []string{theirs, tiled} {
		src, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, h := range m.Samples {
			want := -20 + float64(h)*3000
			if got := src.Base + float64(src.Map.Samples[i])*src.Map.VerticalScale; math.Abs(got-want) > 1e-3 {
				t.Fatalf("%s: sample %d: %v m, want %v", filepath.Base(path), i, got, want)
			}
		}
	}
}

// decodeEXRFile decodes an EXR's height channel and returns its samples
// as the file holds them, before they are normalised.
func decodeEXRFile(t *testing.T, path string) ([]float32, error) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, samples, _, err := decodeEXRSamples(bytes.NewReader(data), int64(len(data)))
	return samples, err
}

// Every compression DecodeEXR reads, in every pixel type, scanline and
// tiled, written by OpenEXR's own library (exrmultiview: two views, so
// the height channel Y sits among channels of the other types;
// exrmaketiled: tiles of 16×8, and 32×32 with mipmap levels), decodes to
// what OpenEXR's library itself decodes (exrmaketiled -z none rewrites
// each file uncompressed) and, for the lossless ones, to the samples
// written. 70 lines of 45 samples: partial blocks of 16 and 32 lines and
// partial tiles; rows 0–31 smooth, the rest noise. go-openexr v1.0.3,
// which read PIZ before, returned noise for HALF and UINT PIZ.
func TestEXRCompressionsByOpenEXR(t *testing.T) {
	multiview := testenv.NeedTool(t, "exrmultiview", "openexr")
	maketiled := testenv.NeedTool(t, "exrmaketiled", "openexr")
	dir := t.TempDir()
	w, h := 45, 70
	for _, pixel := range []struct {
		name string
		typ  int
	}{{"uint", 0}, {"half", 1}, {"float", 2}} {
		heights := testHeights(w, h, pixel.typ, uint64(pixel.typ))
		chans := []testChannel{
			{"A", (pixel.typ + 1) % 3, testHeights(w, h, (pixel.typ+1)%3, 9)},
			{"B", (pixel.typ + 2) % 3, testHeights(w, h, (pixel.typ+2)%3, 10)},
			{"Y", pixel.typ, heights},
		}
		ref := filepath.Join(dir, pixel.name+".exr")
		if err := os.WriteFile(ref, writeTestEXR(t, w, h, chans, exrNone), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, z := range []string{"none", "rle", "zip", "piz", "pxr24"} {
			scan := filepath.Join(dir, pixel.name+"-"+z+".exr")
			tiles := filepath.Join(dir, pixel.name+"-"+z+"-tiled.exr")
			mip := filepath.Join(dir, pixel.name+"-"+z+"-mip.exr")
			testenv.RunTool(t, multiview, "-z", z, "left", ref, "right", ref, scan)
			testenv.RunTool(t, maketiled, "-z", z, "-t", "16", "8", ref, tiles)
			testenv.RunTool(t, maketiled, "-z", z, "-m", "-t", "32", "32", ref, mip)
			for _, path := range []string{scan, tiles, mip} {
				name := filepath.Base(path)
				got, err := decodeEXRFile(t, path)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				plain := path + ".none.exr"
				testenv.RunTool(t, maketiled, "-z", "none", path, plain)
				theirs, err := decodeEXRFile(t, plain)
				if err != nil {
					t.Fatalf("%s rewritten uncompressed: %v", name, err)
				}
				for i := range got {
					if got[i] != theirs[i] {
						t.Fatalf("%s: sample (%d,%d) = %v m; OpenEXR reads %v", name, i%w, i/w, got[i], theirs[i])
					}
					want := heights[i]
					tol := 0.0
					if z == "pxr24" && pixel.typ == 2 {
						tol = math.Abs(float64(want)) / (1 << 15) // 24-bit floats
					}
					if d := float64(got[i] - want); math.Abs(d) > tol {
						t.Fatalf("%s: sample (%d,%d) = %v m, want %v", name, i%w, i/w, got[i], want)
					}
				}
			}
		}
	}
}

// ZIPS (one line a block) is not among the compressions OpenEXR's tools
// write, so our file is the ZIPS one: OpenEXR reads it (exrmaketiled -z
// none) to the samples written, and so does DecodeEXR.
func TestEXRZIPSReadLikeOpenEXR(t *testing.T) {
	maketiled := testenv.NeedTool(t, "exrmaketiled", "openexr")
	dir := t.TempDir()
	w, h := 33, 20
	heights := testHeights(w, h, 2, 4)
	chans := []testChannel{{"G", 1, testHeights(w, h, 1, 5)}, {"R", 2, heights}}
	path, plain := filepath.Join(dir, "zips.exr"), filepath.Join(dir, "plain.exr")
	if err := os.WriteFile(path, writeTestEXR(t, w, h, chans, exrZIPS), 0o644); err != nil {
		t.Fatal(err)
	}
	testenv.RunTool(t, maketiled, "-z", "none", path, plain)
	for _, p := range []string{path, plain} {
		got, err := decodeEXRFile(t, p)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range heights {
			if got[i] != v {
				t.Fatalf("%s: sample %d = %v, want %v", filepath.Base(p), i, got[i], v)
			}
		}
	}
}

// The compressions not read are refused, naming the file, the
// compression and a way out; go-openexr v1.0.3 read B44 as a flat map.
func TestEXRRefusedCompressions(t *testing.T) {
	multiview := testenv.NeedTool(t, "exrmultiview", "openexr")
	dir := t.TempDir()
	ours := filepath.Join(dir, "a.exr")
	m := randomHeightmap(40, 40, 2)
	m.VerticalScale = 900
	if err := Save(ours, m, SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	for z, name := range map[string]string{"b44": "B44", "b44a": "B44A", "dwaa": "DWAA", "dwab": "DWAB"} {
		path := filepath.Join(dir, z+".exr")
		testenv.RunTool(t, multiview, "-z", z, "left", ours, "right", ours, path)
		_, err := Load(path)
		if err == nil || !strings.HasPrefix(err.Error(), path+": exr: "+name+" compression is not read") ||
			!strings.Contains(err.Error(), "re-save the map with ZIP compression") {
			t.Errorf("%s: %v; want a refusal naming the file, %s and ZIP", z, err, name)
		}
	}
}

// A small file cannot make the decoder allocate what its header claims:
// a 16385×16 ZIP image of 256 FLOAT channels (268 MB a block) in a file of
// 300 KB, and the same with a data window of 16385² is refused at once.
// The old decoder allocated each block whole (4.1 GB for a 2.1 MB file of
// more channels).
func TestEXRChannelBomb(t *testing.T) {
	var list []byte
	for i := range 256 {
		list = append(list, fmt.Sprintf("c%03d", i)...)
		list = append(list, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0)
	}
	list = append(list, []byte("Y\x00\x02\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00\x00")...)
	var hd exrHeader
	hd.attr("channels", "chlist", list)
	hd.attr("compression", "compression", []byte{exrZIP})
	hd.attr("dataWindow", "box2i", append(append(le32(0), le32(0)...), append(le32(16384), le32(15)...)...))
	file := append([]byte{0x76, 0x2f, 0x31, 0x01, 2, 0, 0, 0}, hd.b...)
	file = append(file, 0)
	file = binary.LittleEndian.AppendUint64(file, uint64(len(file)+8))
	body := make([]byte, 300<<10)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range body {
		body[i] = byte(rng.Uint32())
	}
	file = append(append(file, le32(0)...), le32(uint32(len(body)))...)
	file = append(file, body...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	src, err := DecodeEXR(bytes.NewReader(file), int64(len(file)))
	runtime.ReadMemStats(&after)
	if err == nil || src != nil || !strings.Contains(err.Error(), "257 channels") {
		t.Errorf("channel bomb: %v; want a refusal naming the channels", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
		t.Errorf("channel bomb: allocated %d MB before refusing", got>>20)
	}
}

// A sparse file of 1×1 tiles holds an offset table twice the size of its
// map: the table is read as the chunks are, never held whole, so what is
// allocated before the first bad chunk is refused is the map and a flag a
// chunk. The old decoder read the table whole first (a 537 MB sparse file
// of an 8193² map: 567 MB resident before its first chunk failed).
func TestEXROffsetTableNotHeldWhole(t *testing.T) {
	const side = 2049
	var hd exrHeader
	hd.attr("channels", "chlist", []byte("Y\x00\x01\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00\x00"))
	hd.attr("compression", "compression", []byte{exrZIP})
	hd.attr("dataWindow", "box2i", append(append(le32(0), le32(0)...), append(le32(side-1), le32(side-1)...)...))
	hd.attr("tiles", "tiledesc", append(append(le32(1), le32(1)...), 0))
	file := append([]byte{0x76, 0x2f, 0x31, 0x01, 2, 2, 0, 0}, hd.b...)
	file = append(file, 0)
	r := sparseReader{file, int64(len(file)) + 8*side*side + 4096}
	n, err := allocated(func() error {
		src, err := DecodeEXR(r, r.size)
		if src != nil {
			t.Error("decoded")
		}
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "chunk 0 is tile") {
		t.Errorf("%v; want the first chunk refused", err)
	}
	if mapBytes := uint64(5 * side * side); n > mapBytes+4<<20 {
		t.Errorf("allocated %d MB; the map and its chunk flags are %d MB", n>>20, mapBytes>>20)
	}
}

// Header attributes the decoder does not use are skipped unread, and a
// name given twice is refused: eight unknown attributes of 16 MB each in
// a sparse file, or "channels" listed eight times at 16 MB, allocate
// little before the file is refused. The old decoder kept every attribute
// (32 of them in a 537 MB sparse file: 561 MB resident).
func TestEXRUnusedAttributesNotHeld(t *testing.T) {
	chlist := []byte("Y\x00\x01\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00\x00")
	for _, repeat := range []string{"", "channels"} {
		var hd exrHeader
		if repeat == "" {
			hd.attr("channels", "chlist", chlist)
		}
		hd.attr("compression", "compression", []byte{exrZIP})
		hd.attr("dataWindow", "box2i", append(append(le32(0), le32(0)...), append(le32(15), le32(15)...)...))
		file := zeroRuns{{data: append([]byte{0x76, 0x2f, 0x31, 0x01, 2, 0, 0, 0}, hd.b...)}}
		for i := range 8 {
			name, typ, value := fmt.Sprintf("junk%d", i), "opaque", maxEXRAttribute
			if repeat != "" {
				name, typ = repeat, "chlist"
			}
			head := append([]byte(name+"\x00"+typ+"\x00"), le32(uint32(value))...)
			if repeat != "" { // a channel list padded with zeros after its end
				file = append(file, zeroRun{data: append(head, chlist...), zeros: int64(value - len(chlist))})
				continue
			}
			file = append(file, zeroRun{data: head, zeros: int64(value)})
		}
		// The header ends; the offsets of the one chunk are zero.
		file = append(file, zeroRun{data: []byte{0}, zeros: 8 + 4096})
		n, err := allocated(func() error {
			src, err := DecodeEXR(file, file.size())
			if src != nil {
				t.Error("decoded")
			}
			return err
		})
		want := "chunk 0"
		if repeat != "" {
			want = `attribute "channels" appears twice`
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("attributes named %q: %v; want %q", repeat, err, want)
		}
		if n > 24<<20 {
			t.Errorf("attributes named %q: allocated %d MB before refusing", repeat, n>>20)
		}
	}
}

// zeroRuns is a sparse file: each run's data followed by its zeros.
type zeroRuns []zeroRun

type zeroRun struct {
	data  []byte
	zeros int64
}

func (z zeroRuns) size() int64 {
	var n int64
	for _, r := range z {
		n += int64(len(r.data)) + r.zeros
	}
	return n
}

func (z zeroRuns) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for _, r := range z {
		runLen := int64(len(r.data)) + r.zeros
		if off >= runLen {
			off -= runLen
			continue
		}
		for n < len(p) && off < runLen {
			if off < int64(len(r.data)) {
				c := copy(p[n:], r.data[off:])
				n += c
				off += int64(c)
				continue
			}
			c := int(min(int64(len(p)-n), runLen-off))
			clear(p[n : n+c])
			n += c
			off += int64(c)
		}
		if n == len(p) {
			return n, nil
		}
		off = 0
	}
	return n, io.EOF
}

// Malformed PIZ chunks are errors, never a panic: the bytes of a real
// PIZ file's chunks (each of the first 400, then every fifth) set to 0,
// 255 and their complement in turn, and the file cut short.
// go-openexr's PIZ decoder panicked in its own goroutines, where no
// recover could catch it.
func TestEXRPIZCorruption(t *testing.T) {
	multiview := testenv.NeedTool(t, "exrmultiview", "openexr")
	dir := t.TempDir()
	ref := filepath.Join(dir, "ref.exr")
	w, h := 13, 34 // two chunks, the second of 2 lines
	chans := []testChannel{{"A", 1, testHeights(w, h, 1, 1)}, {"Y", 0, testHeights(w, h, 0, 2)}}
	if err := os.WriteFile(ref, writeTestEXR(t, w, h, chans, exrNone), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "piz.exr")
	testenv.RunTool(t, multiview, "-z", "piz", "left", ref, "right", ref, path)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, headEnd, err := readEXRHeader(bufio.NewReader(bytes.NewReader(good[8:])), int64(len(good)))
	if err != nil {
		t.Fatal(err)
	}
	for i := int(headEnd); i < len(good); i++ {
		if i > int(headEnd)+400 && i%5 != 0 {
			continue // past the offsets, the first chunk's tables and codes, a sample
		}
		for _, v := range []byte{0, 0xff, ^good[i]} {
			bad := append([]byte(nil), good...)
			bad[i] = v
			if src, err := DecodeEXR(bytes.NewReader(bad), int64(len(bad))); err == nil {
				if err := src.Map.Validate(); err != nil {
					t.Fatalf("byte %d = %#x: %v", i, v, err)
				}
			}
		}
	}
	for n := len(good) - 1; n > len(good)-100; n-- {
		if _, err := DecodeEXR(bytes.NewReader(good[:n]), int64(n)); err == nil {
			t.Fatalf("cut to %d of %d bytes: no error", n, len(good))
		}
	}
}
