package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxComplexity bounds a function's cyclomatic complexity: one, plus one
// for each if, for, range, case, select case, && and ||, closures counted
// in the function that holds them. A function past it reads as a list of
// steps that want names of their own.
const maxComplexity = 25

// tooComplex are the functions, by file and name, still past
// maxComplexity, left to split later (their files were being changed
// elsewhere when the rest were split). Remove one once it is split.
var tooComplex = map[string]bool{
	"terrain/erosion/fluvial.go fluvial": true,
}

// No function outside the tests and the forked debugui is more complex
// than maxComplexity, but those listed in tooComplex.
func TestFunctionsAreNotTooComplex(t *testing.T) {
	fset := token.NewFileSet()
	over := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || filepath.ToSlash(path) == "internal/debugui") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			c := complexity(fn.Body)
			if c <= maxComplexity {
				continue
			}
			key := filepath.ToSlash(path) + " " + fn.Name.Name
			over[key] = true
			if !tooComplex[key] {
				t.Errorf("%s: %s has cyclomatic complexity %d, more than %d: split it into named steps", fset.Position(fn.Pos()), fn.Name.Name, c, maxComplexity)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for key := range tooComplex {
		if !over[key] {
			t.Errorf("%s is listed in tooComplex but is no longer over %d: remove it from the list", key, maxComplexity)
		}
	}
}

// complexity counts body's decisions, plus one.
func complexity(body *ast.BlockStmt) int {
	c := 1
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if n.List != nil {
				c++
			}
		case *ast.CommClause:
			if n.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}
