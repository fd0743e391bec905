package game

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxGameFields is how many fields Game may have. Game dispatches, as
// Ebitengine's examples keep theirs: each concern's state lives in a type
// of its own (uiState, undoHistory, teachState, genState...), and a new
// concern gets one rather than more fields on Game.
const maxGameFields = 15

// TestGameIsADispatcher counts Game's fields in the source, an embedded
// type counting as one, and fails naming them when there are too many.
func TestGameIsADispatcher(t *testing.T) {
	names, err := structFields(".", "Game")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatal("type Game not found in the package's source")
	}
	if len(names) >= maxGameFields {
		t.Errorf("Game has %d fields, want under %d; give a concern its own type: %s",
			len(names), maxGameFields, strings.Join(names, ", "))
	}
}

// structFields returns the names of the fields of the struct type called
// name declared in the non-test Go files in dir (an embedded field is
// named by its type).
func structFields(dir, name string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var names []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, 0)
		if err != nil {
			return nil, err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || ts.Name.Name != name {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return false
			}
			for _, fl := range st.Fields.List {
				if len(fl.Names) == 0 { // embedded: named by its type
					typ := fl.Type
					if s, ok := typ.(*ast.StarExpr); ok {
						typ = s.X
					}
					if sel, ok := typ.(*ast.SelectorExpr); ok {
						typ = sel.Sel
					}
					if id, ok := typ.(*ast.Ident); ok {
						names = append(names, id.Name)
					}
					continue
				}
				for _, id := range fl.Names {
					names = append(names, id.Name)
				}
			}
			return false
		})
	}
	return names, nil
}
