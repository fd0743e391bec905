package main

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// layers is the pipeline the tree reads as, lowest first: a package may
// import only packages of a lower layer, never one of its own layer or a
// higher one (issue 9). A new package must be given a layer here.
var layers = [][]string{
	{"internal/testenv"}, // what tests may assume of their machine: any package's tests may ask
	{"internal/inputfile"},
	{"noise", "noise/internal/asmgen", "internal/parallel", "internal/atomicfile", "internal/zbuffer", "internal/debugui", "terrain/heightfile/internal/exrcodec", "terrain/beyond"},
	{"terrain", "assets", "noise/internal/fn2bench"},
	{"terrain/erosion", "terrain/scatter", "terrain/inpaint", "shaders", "assets/gen", "terrain/materials", "internal/lesson"},
	{"route/track"},             // a GPS track and its preparation for the map: knows no file format or lattice
	{"route/track/tracktest"},   // the tracks the route packages' tests and examples run on
	{"route/trackfile"},         // the route file parsers, into a track.Track
	{"route/internal/corridor"}, // the ground along a track: its edges, creases, smoothing kernel
	{"route/road"},              // a level road along a track and its least-curvature shoulder
	{"route"},                   // the terrain through a track (the paper's lattice solve, the follow step), the road levelled by route/road
	{"pipeline", "terrain/heightfile", "terrain/mesh", "terrain/light", "terrain/analysis"},
	{"plot", "terrain/meshfile", "web", "terrain/world"},
	{"game/fileopen", "game/scalebar", "game/swatch"}, // the explorer's rooms, each with a small API of its own
	{"game"},
	{"commands", "e2e", "web/explorer"},
	{"."},
}

// Imports point down the pipeline only, in code and tests alike.
func TestImportsPointDownThePipeline(t *testing.T) {
	layer := map[string]int{}
	for i, pkgs := range layers {
		for _, p := range pkgs {
			layer[p] = i
		}
	}
	seen := map[string]bool{}
	for _, path := range goFiles(t) {
		dir := filepath.ToSlash(filepath.Dir(path))
		from, ok := layer[dir]
		if !ok {
			t.Errorf("%s: package %s has no layer in layout_test.go", path, dir)
			continue
		}
		seen[dir] = true
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			target, _ := strconv.Unquote(imp.Path.Value)
			rest, ok := strings.CutPrefix(target, "cordillera/")
			if !ok {
				continue
			}
			to, known := layer[rest]
			switch {
			case rest == dir && strings.HasSuffix(f.Name.Name, "_test"):
				// An external test package (the runnable examples) uses
				// its own package as a caller would.
			case !known:
				t.Errorf("%s imports %s, which has no layer", path, target)
			case to >= from:
				t.Errorf("%s (layer %d) imports %s (layer %d): imports must point down the pipeline", path, from, target, to)
			}
		}
	}
	for p := range layer {
		if !seen[p] {
			t.Errorf("layout_test.go lists %s, which holds no Go file", p)
		}
	}
}

// The root holds main.go as its only Go file besides tests: the commands
// live in package commands.
func TestRootHoldsOnlyMain(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f != "main.go" && !strings.HasSuffix(f, "_test.go") {
			t.Errorf("%s: the root holds only main.go; put commands in package commands", f)
		}
	}
}

// maxPackageLines bounds a package's lines (its .go files but the tests
// and the generated ones, counted as wc -l counts them): a package past it
// holds rooms that want packages of their own.
const maxPackageLines = 4000

// tooLarge are the packages still past maxPackageLines, left to split,
// each with the most lines it may hold meanwhile: it may shrink, never
// grow. Lower a cap as rooms move out; remove the entry once the package
// is under maxPackageLines. game's rooms still inside are tied to files
// that name its unexported types (the minimap's withBeyond, the frame the
// renderer draws, the World the regenerator builds).
var tooLarge = map[string]int{
	"game": 12589,
}

// generated is the line Go's convention puts in a generated file.
var generated = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

// No package is larger than maxPackageLines, but those listed in tooLarge.
func TestPackagesAreNotTooLarge(t *testing.T) {
	lines := map[string]int{}
	for _, path := range goFiles(t) {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !generated.Match(data) {
			lines[filepath.ToSlash(filepath.Dir(path))] += bytes.Count(data, []byte("\n"))
		}
	}
	for dir, n := range lines {
		if most, listed := tooLarge[dir]; listed && n > most {
			t.Errorf("package %s has %d lines, more than the %d it may hold until it is split: move a room of it into a package of its own", dir, n, most)
		} else if !listed && n > maxPackageLines {
			t.Errorf("package %s has %d lines, more than %d: move a room of it into a package of its own", dir, n, maxPackageLines)
		}
	}
	for dir := range tooLarge {
		if lines[dir] <= maxPackageLines {
			t.Errorf("%s is listed in tooLarge but has %d lines, no more than %d: remove it from the list", dir, lines[dir], maxPackageLines)
		}
	}
}

// goFiles are the tree's Go files, tests included, but those in hidden
// folders and testdata.
func goFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
