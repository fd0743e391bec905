package commands

import (
	"bytes"
	"encoding/binary"
	"flag"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cordillera/terrain"
	"cordillera/terrain/heightfile"
)

// pngText returns the tEXt chunks of a PNG file, keyword to text.
func pngText(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := map[string]string{}
	for at := 8; at+12 <= len(data); {
		n := int(binary.BigEndian.Uint32(data[at:]))
		kind, body := string(data[at+4:at+8]), data[at+8:at+8+n]
		if kind == "tEXt" {
			k, v, _ := strings.Cut(string(body), "\x00")
			text[k] = v
		}
		at += 12 + n
	}
	return text
}

// writePlainPNG16 writes m's samples as image/png writes a 16-bit gray
// image: a PNG from another tool, which records no metres.
func writePlainPNG16(t *testing.T, path string, m *terrain.Heightmap) {
	t.Helper()
	img := image.NewGray16(image.Rect(0, 0, m.Width, m.Height))
	for i, h := range m.Samples {
		img.SetGray16(i%m.Width, i/m.Width, color.Gray16{Y: uint16(math.Round(float64(h) * 65535))})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A generated PNG converted to EXR keeps its metres, from the PNG's own
// tEXt chunks, with no -map-height: the EXR's heights are the generated
// heights within the PNG's 16-bit steps. (White was taken as a fifth of
// the width, 13 m here, instead of the map's real height.)
func TestConvertedPNGKeepsMetres(t *testing.T) {
	dir := t.TempDir()
	ref, pngPath, conv := filepath.Join(dir, "ref.exr"), filepath.Join(dir, "g.png"), filepath.Join(dir, "c.exr")
	for _, out := range []string{ref, pngPath} {
		if _, _, err := runCLI(t, "-size", "65", "-seed", "7", "-cell-size", "3", "-o", out); err != nil {
			t.Fatal(err)
		}
	}
	stdout, _, err := runCLI(t, "-heightmap", pngPath, "-o", conv)
	if err != nil {
		t.Fatal(err)
	}
	want, err := heightfile.Load(ref)
	if err != nil {
		t.Fatal(err)
	}
	got, err := heightfile.Load(conv)
	if err != nil {
		t.Fatal(err)
	}
	vs := want.Map.VerticalScale
	if !(vs > 50) {
		t.Fatalf("the generated map spans %v m; want a real relief to tell the scales apart", vs)
	}
	if !strings.Contains(stdout, "3 m per cell, white at "+strconv.FormatFloat(vs, 'g', 6, 64)) {
		t.Errorf("output %q does not give the PNG's own cell size and height", stdout)
	}
	if got.Map.CellSize != 3 {
		t.Errorf("converted cell size %v m, want 3", got.Map.CellSize)
	}
	tol := vs*0.5/65535 + 1e-4*vs
	worst := 0.0
	for i, h := range want.Map.Samples {
		a := want.Base + float64(h)*vs
		b := got.Base + float64(got.Map.Samples[i])*got.Map.VerticalScale
		worst = max(worst, math.Abs(a-b))
	}
	if worst > tol {
		t.Errorf("converted heights differ by up to %.4g m from the generated ones; want within %.4g m (half a 16-bit step)", worst, tol)
	}
}

// -map-height and -cell-size given by the user win over a PNG's own
// metres, with a note saying what they replaced; the explorer's loader
// reads the same metres and lets the same flags win.
func TestFlagsWinOverPNGMetres(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.png")
	m := terrain.NewHeightmap(33, 33)
	for i := range m.Samples {
		m.Samples[i] = float32(i%33) / 32
	}
	m.CellSize, m.VerticalScale = 2, 173.8
	if err := heightfile.Save(in, m, heightfile.SaveOptions{Base: 100}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "o.exr")
	stdout, _, err := runCLI(t, "-heightmap", in, "-map-height", "300", "-cell-size", "5", "-o", out)
	if err != nil {
		t.Fatal(err)
	}
	for _, note := range []string{"-map-height 300 m replaces the file's own height range of 173.8 m (100 to 273.8 m)",
		"-cell-size 5 m replaces the file's own cell size of 2 m"} {
		if !strings.Contains(stdout, note) {
			t.Errorf("output %q lacks the note %q", stdout, note)
		}
	}
	src, err := heightfile.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if src.Map.CellSize != 5 || math.Abs(src.Map.VerticalScale-300) > 1e-3 || math.Abs(src.Base-100) > 1e-3 {
		t.Errorf("written with cell %v, heights %v + %v; want 5, 100 + 300", src.Map.CellSize, src.Base, src.Map.VerticalScale)
	}

	for _, tc := range []struct {
		args       []string
		cell, vert float64
	}{
		{nil, 2, 173.8},
		{[]string{"-map-height", "300", "-cell-size", "5"}, 5, 300},
	} {
		fs := flag.NewFlagSet("render", flag.ContinueOnError)
		wf := addWorldFlags(fs)
		wf.mapOnly = true
		if err := fs.Parse(append([]string{"-heightmap", in}, tc.args...)); err != nil {
			t.Fatal(err)
		}
		var notes bytes.Buffer
		w, _, _, err := wf.load("render", &notes)
		if err != nil {
			t.Fatal(err)
		}
		if w.Map.CellSize != tc.cell || w.Map.VerticalScale != tc.vert {
			t.Errorf("explorer %v: cell %v, vertical %v; want %v, %v", tc.args, w.Map.CellSize, w.Map.VerticalScale, tc.cell, tc.vert)
		}
		if noted := strings.Contains(notes.String(), "replaces the file's own"); noted != (tc.args != nil) {
			t.Errorf("explorer %v: notes %q", tc.args, notes.String())
		}
	}
}

// A PNG from another tool, with no metres recorded, is scaled as before: a
// fifth of its width in metres at white, the -cell-size default, no note.
func TestPlainPNGKeepsDefaultScale(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.png")
	m := terrain.NewHeightmap(65, 65)
	for i := range m.Samples {
		m.Samples[i] = float32(i%65) / 64
	}
	writePlainPNG16(t, in, m)
	out := filepath.Join(dir, "o.exr")
	stdout, _, err := runCLI(t, "-heightmap", in, "-cell-size", "4", "-o", out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stdout, "replaces") || !strings.Contains(stdout, "4 m per cell, white at 13 m") {
		t.Errorf("output %q; want 4 m cells, white at 13 m, no note", stdout)
	}
	src, err := heightfile.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if src.Map.CellSize != 4 || math.Abs(src.Map.VerticalScale-13) > 1e-4 {
		t.Errorf("written with cell %v, vertical %v; want 4, 13", src.Map.CellSize, src.Map.VerticalScale)
	}
}

// checkMaskText checks that an erosion mask PNG records what it holds: the
// name, its unit, the values at black and white on the stated scale, and
// the cell size; an eroded or deposited depth at white is at most the
// map's relief, vertical.
func checkMaskText(t *testing.T, path, name string, cell, relief float64) {
	t.Helper()
	text := pngText(t, path)
	num := func(k string) float64 {
		v, err := strconv.ParseFloat(text[k], 64)
		if err != nil {
			t.Fatalf("%s: %s = %q: %v", path, k, text[k], err)
		}
		return v
	}
	if text["cordillera:mask"] != name || num("cordillera:cell-size-m") != cell {
		t.Errorf("%s: mask %q, cell size %q; want %s, %g", path, text["cordillera:mask"], text["cordillera:cell-size-m"], name, cell)
	}
	lo, hi := num("cordillera:mask-min"), num("cordillera:mask-max")
	if name == "flow" {
		// From one cell's area to the largest basin, at most the map's.
		if text["cordillera:mask-unit"] != "m2" || text["cordillera:mask-scale"] != "log" || lo != cell*cell ||
			!(hi > lo && hi <= 129*129*cell*cell) {
			t.Errorf("%s: %v", path, text)
		}
		return
	}
	if text["cordillera:mask-unit"] != "m" || text["cordillera:mask-scale"] != "linear" || lo != 0 || !(hi > 0 && hi <= relief) {
		t.Errorf("%s: %v; want metres from 0 to at most the relief %g m", path, text, relief)
	}
}
