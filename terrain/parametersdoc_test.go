package terrain

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

//go:generate go test . -run TestParametersDoc -update

var update = flag.Bool("update", false, "rewrite the generated docs (docs/parameters.md) from the code")

// parametersDocPath is the generated reference of every parameter.
const parametersDocPath = "../docs/parameters.md"

// parametersDoc writes docs/parameters.md from Specs: one table per group,
// in Specs' order, so a parameter added to Specs is in the docs as soon as
// the file is regenerated, and TestParametersDoc fails until it is.
func parametersDoc() []byte {
	var b bytes.Buffer
	b.WriteString(`# Generation parameters

[Back to the README](../README.md)

<!-- Generated from terrain.Specs by: go test ./terrain -run TestParametersDoc -update
     Do not edit by hand; TestParametersDoc fails when this file differs from the code. -->

Every parameter below is a flag of ` + "`generate`, `explore`, `render` and `sweep`" + `
(` + "`-name value`" + `), a key of a parameter file (` + "`-params-out`, `-preset FILE.json`" + `)
and a widget of the explorer's panels. A value outside its range is refused
with a message naming the parameter.

`)
	groups := []struct{ group, title, intro string }{
		{"", "Generator", "The generators and post-effects ([generate.md](generate.md))."},
		{"erosion", "Erosion", "The erosion stages, run after the generator or on a loaded map ([erosion.md](erosion.md))."},
		{"route", "Route", "Terrain through a GPS track, used only with `-route` ([routes.md](routes.md))."},
	}
	kinds := map[SpecKind]string{IntParam: "integer", FloatParam: "number", ChoiceParam: "choice", ListParam: "list", BoolParam: "boolean"}
	for _, g := range groups {
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", g.title, g.intro)
		b.WriteString("| name | kind | default | range | meaning |\n| --- | --- | --- | --- | --- |\n")
		for _, s := range Specs {
			if s.Group != g.group {
				continue
			}
			rng := s.RangeText()
			if s.Kind == ChoiceParam || s.Kind == BoolParam {
				rng = strings.Join(s.Choices, ", ")
			}
			meaning := s.Usage
			if s.Why != "" {
				meaning += ". The range stops there: " + s.Why
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", s.Name, kinds[s.Kind], cell(s.Default), cell(rng), cell(meaning))
		}
		b.WriteString("\n")
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// cell escapes the text of a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// TestParametersDoc: docs/parameters.md is what parametersDoc makes of
// Specs, so a parameter added, renamed or given a new default or range
// fails here until the file is regenerated.
func TestParametersDoc(t *testing.T) {
	want := parametersDoc()
	if *update {
		if err := os.WriteFile(parametersDocPath, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(parametersDocPath)
	if err != nil {
		t.Fatalf("%v; make it with: go test ./terrain -run TestParametersDoc -update", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from terrain.Specs (%s); regenerate it with: go test ./terrain -run TestParametersDoc -update",
			filepath.Base(parametersDocPath), firstDiff(got, want))
	}
}

// firstDiff names the first line where got and want differ.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d is %q, the code makes %q", i+1, gl, wl)
		}
	}
	return "same lines"
}
