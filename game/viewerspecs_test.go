package game

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

//go:generate go test . -run TestViewerDoc -update

const (
	viewerDocPath  = "../docs/viewer.md"
	terrainKage    = "../shaders/terrain.kage"
	shadersDocPath = "../shaders/shaders.go"
)

// TestViewerSpecsCoverViewer: every field of Viewer has exactly one row
// of ViewerSpecs, each row names a field, flags are not given twice, and
// each setting with a flag reads back the default it was set to and
// refuses a value outside its range.
func TestViewerSpecsCoverViewer(t *testing.T) {
	fields := reflect.TypeFor[Viewer]()
	names := map[string]int{}
	flags := map[string]string{}
	for _, s := range ViewerSpecs {
		names[s.Name]++
		if _, ok := fields.FieldByName(s.Name); !ok {
			t.Errorf("ViewerSpecs has %q, which is no field of Viewer", s.Name)
			continue
		}
		if s.Doc == "" {
			t.Errorf("%s has no doc line", s.Name)
		}
		if s.Fold != "" && !slices.Contains(viewerFolds, s.Fold) {
			t.Errorf("%s is under the fold %q, which the Viewer panel does not have", s.Name, s.Fold)
		}
		if s.Flag == "" {
			continue
		}
		if other, dup := flags[s.Flag]; dup {
			t.Errorf("-%s sets both %s and %s", s.Flag, other, s.Name)
		}
		flags[s.Flag] = s.Name
		def := DefaultViewer()
		text := s.Get(&def)
		var v Viewer
		if err := s.Set(&v, text); err != nil {
			t.Errorf("-%s refuses its own default %q: %v", s.Flag, text, err)
		} else if got := s.Get(&v); got != text {
			t.Errorf("-%s %s reads back as %s", s.Flag, text, got)
		}
		if s.Kind == ViewerNumber || s.Kind == ViewerInt {
			for _, bad := range []string{fmt.Sprint(s.Max + 1), fmt.Sprint(s.Min - 1), "NaN", "many"} {
				if err := s.Set(&v, bad); err == nil {
					t.Errorf("-%s %s is taken; want an error (range %g to %g)", s.Flag, bad, s.Min, s.Max)
				}
			}
		}
	}
	for i := range fields.NumField() {
		if n := fields.Field(i).Name; names[n] != 1 {
			t.Errorf("Viewer.%s has %d rows in ViewerSpecs; want 1", n, names[n])
		}
	}
}

// TestViewerDefaultsInRange: the default look lies in every setting's
// range, so the panel's sliders can show it.
func TestViewerDefaultsInRange(t *testing.T) {
	def := DefaultViewer()
	for _, s := range ViewerSpecs {
		if s.Kind != ViewerNumber && s.Kind != ViewerInt {
			continue
		}
		var f float64
		switch p := s.field(&def).(type) {
		case *float32:
			f = float64(*p)
		case *int:
			f = float64(*p)
		}
		if !(f >= s.Min && f <= s.Max) {
			t.Errorf("%s's default %g is outside its range %g to %g", s.Name, f, s.Min, s.Max)
		}
	}
}

// kageUniforms are the uniforms a Kage source declares (`var Name type`).
func kageUniforms(t *testing.T, path string) map[string]bool {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^var\s+([A-Z]\w*)\s+\w+`).FindAllStringSubmatch(string(src), -1) {
		out[m[1]] = true
	}
	return out
}

// uniformDocs are the terrain shader's uniforms as package shaders
// documents them: the name, and the text that follows it up to the next
// one.
func uniformDocs(t *testing.T) map[string]string {
	t.Helper()
	src, err := os.ReadFile(shadersDocPath)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(src)
	start, end := strings.Index(doc, "// # Terrain"), strings.Index(doc, "// # Sky")
	if start < 0 || end < start {
		t.Fatalf("%s has no # Terrain section before # Sky", shadersDocPath)
	}
	out := map[string]string{}
	name := ""
	entry := regexp.MustCompile(`^//\t([A-Z]\w*) (float|vec[234]|mat4)\b(.*)`)
	for _, l := range strings.Split(doc[start:end], "\n") {
		if m := entry.FindStringSubmatch(l); m != nil {
			name = m[1]
			out[name] = m[3]
		} else if rest, ok := strings.CutPrefix(l, "//\t"); ok && name != "" {
			out[name] += " " + strings.TrimSpace(rest)
		} else {
			name = ""
		}
	}
	return out
}

// uniformValue is the value a setting's Uniform receives for v: as it is,
// a bool as 0 or 1, a choice or count as a float32, vectors as []float32.
func uniformValue(s ViewerSpec, v *Viewer) any {
	switch p := s.field(v).(type) {
	case *bool:
		return boolf(*p)
	case *float32:
		return *p
	case *int:
		return float32(*p)
	case *Texturing:
		return float32(*p)
	case *[3]float32:
		return p[:]
	case *[4]float32:
		return p[:]
	case *[4]int:
		return []float32{float32(p[0]), float32(p[1]), float32(p[2]), float32(p[3])}
	}
	return nil
}

// TestViewerUniforms: every uniform ViewerSpecs names is declared in
// shaders/terrain.kage; a drawn frame of the default look passes each
// setting's Uniform the table's default; and where package shaders'
// documentation of such a uniform states a default, it is that one.
func TestViewerUniforms(t *testing.T) {
	declared := kageUniforms(t, terrainKage)
	docs := uniformDocs(t)
	for _, s := range ViewerSpecs {
		for _, u := range append([]string{s.Uniform}, s.Feeds...) {
			if u != "" && !declared[u] {
				t.Errorf("%s feeds the uniform %s, which %s does not declare", s.Name, u, terrainKage)
			}
		}
		if s.Uniform == "" {
			continue
		}
		doc, ok := docs[s.Uniform]
		if !ok {
			t.Errorf("%s's uniform %s is not documented in %s", s.Name, s.Uniform, shadersDocPath)
		}
		if m := regexp.MustCompile(`default ([-0-9.]+)`).FindStringSubmatch(doc); m != nil {
			def := DefaultViewer()
			if want := s.Get(&def); m[1] != want {
				t.Errorf("%s documents %s's default as %s; the Viewer's default is %s", shadersDocPath, s.Uniform, m[1], want)
			}
		}
	}

	needLoop(t)
	g := newTestGame(t, testWorld(t, 65))
	renderSized(g, 320, 180)
	for _, s := range ViewerSpecs {
		if s.Uniform == "" {
			continue
		}
		got, want := g.render.uniforms[s.Uniform], uniformValue(s, &g.View)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("the default look passes %s = %v (%T); the table's default of %s is %v", s.Uniform, got, got, s.Name, want)
		}
	}
}

// viewerDoc is docs/viewer.md, made from ViewerSpecs.
func viewerDoc() []byte {
	var b bytes.Buffer
	b.WriteString(`# The Viewer's settings

[Back to the explorer](explorer.md)

<!-- Generated from game.ViewerSpecs by: go test ./game -run TestViewerDoc -update
     Do not edit by hand; TestViewerDoc fails when this file differs from the code. -->

Every setting of the look of the world, in the order of the explorer's
Viewer panel. A setting with a flag is a flag of ` + "`render`" + ` too
(` + "`-name value`, `-name=false`" + `); a flag left out keeps the preset's
look. The range and the default are the value as the flag takes it; the
panel shows some in other units, which its row's name gives: a % is the
value × 100, and a height in metres is the share of the map's height range
times that range. The shader uniform receives the value as it is (on as
1, off as 0, a choice as its place in the list, from 0); *feeds* are the
uniforms the renderer computes from it. A colour is linear RGB, given here
and in the panel as 8-bit sRGB.

`)
	def := DefaultViewer()
	for _, fold := range append([]string{""}, viewerFolds...) {
		title := "On top"
		if fold != "" {
			title = fold
		}
		rows := 0
		for _, s := range ViewerSpecs {
			if s.Fold != fold || s.Label == "" {
				continue
			}
			if rows == 0 {
				fmt.Fprintf(&b, "## %s\n\n", title)
				b.WriteString("| panel row | `render` flag | kind | default | range | shader uniform | meaning |\n| --- | --- | --- | --- | --- | --- | --- |\n")
			}
			rows++
			viewerDocRow(&b, s, &def)
		}
		if rows > 0 {
			b.WriteString("\n")
		}
	}
	b.WriteString("## Not in the panel\n\n| setting | `render` flag | kind | default | range | shader uniform | meaning |\n| --- | --- | --- | --- | --- | --- | --- |\n")
	for _, s := range ViewerSpecs {
		if s.Label == "" {
			viewerDocRow(&b, s, &def)
		}
	}
	b.WriteString("\nThe *Camera and resolution* fold holds the camera's mode and speed, the\nroute's speed and following, and the 3D view's resolution, which are\nnot settings of the look.\n")
	return b.Bytes()
}

func viewerDocRow(b *bytes.Buffer, s ViewerSpec, def *Viewer) {
	label := s.Label
	if label == "" {
		label = s.Name
	}
	flag := "—"
	if s.Flag != "" {
		flag = "`-" + s.Flag + "`"
	}
	rng := ""
	switch s.Kind {
	case ViewerNumber, ViewerInt:
		rng = fmt.Sprintf("%g to %g", s.Min, s.Max)
		if s.Heights {
			rng += " of the height range"
		}
	case ViewerChoice:
		rng = strings.Join(s.Choices, ", ")
	case ViewerList:
		if s.Choices != nil {
			rng = strings.Join(s.Choices, ", ")
		} else {
			rng = fmt.Sprintf("%g to %g each", s.Min, s.Max)
		}
	case ViewerBool:
		rng = "on, off"
	case ViewerColour:
		rng = "0 to 255 each"
	}
	value := s.Get(def)
	if s.Kind == ViewerBool {
		value = map[string]string{"true": "on", "false": "off"}[value]
	}
	uniform := "—"
	if s.Uniform != "" {
		uniform = "`" + s.Uniform + "`"
	}
	if len(s.Feeds) > 0 {
		if s.Uniform == "" {
			uniform = "feeds"
		} else {
			uniform += "; feeds"
		}
		for i, f := range s.Feeds {
			sep := ", "
			if i == 0 {
				sep = " "
			}
			uniform += sep + "`" + f + "`"
		}
	}
	fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s |\n", cell(label), flag, s.Kind, cell(value), cell(rng), uniform, cell(s.Doc))
}

// cell escapes the text of a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// TestViewerDoc: docs/viewer.md is what viewerDoc makes of ViewerSpecs,
// so a setting added, moved or given a new default, range, flag or
// uniform fails here until the file is regenerated.
func TestViewerDoc(t *testing.T) {
	const regen = "go test ./game -run TestViewerDoc -update"
	want := viewerDoc()
	if *update {
		if err := os.WriteFile(viewerDocPath, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(viewerDocPath)
	if err != nil {
		t.Fatalf("%v; make it with: %s", err, regen)
	}
	if !bytes.Equal(got, want) {
		g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := range max(len(g), len(w)) {
			if i >= len(g) || i >= len(w) || g[i] != w[i] {
				t.Errorf("%s differs from ViewerSpecs from line %d; regenerate it with: %s", viewerDocPath, i+1, regen)
				break
			}
		}
	}
}

// Every Viewer checkbox's label shows whole in its third of the panel: a
// third of the window less the box leaves 14 characters of the 6-pixel
// font ("Colour by height" was drawn as "Colour by heig").
func TestViewerCheckboxLabelsFit(t *testing.T) {
	const chars = 14
	for _, s := range ViewerSpecs {
		if s.Kind == ViewerBool && s.Label != "" && labelWidth(s.Label) > chars {
			t.Errorf("checkbox %q is %d characters wide; at most %d show", s.Label, labelWidth(s.Label), chars)
		}
	}
}
