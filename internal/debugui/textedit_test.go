// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2024 The Ebitengine Authors

package debugui

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unicode/utf8"
)

func TestTextEditCaret(t *testing.T) {
	var e textEdit
	e.set("cordillera.png")
	for range 4 {
		e.left()
	}
	e.insert("-1") // before ".png"
	e.home()
	e.del()
	e.insert("C")
	e.end()
	e.backspace()
	e.insert("G")
	if want := "Cordillera-1.pnG"; e.text != want {
		t.Fatalf("got %q, want %q", e.text, want)
	}
	// Multi-byte runes move and delete whole.
	e.set("λ=ä")
	e.left()
	e.left()
	e.backspace() // the λ
	e.right()
	e.del() // the ä
	if e.text != "=" || e.caret != 1 {
		t.Fatalf("got %q caret %d, want \"=\" caret 1", e.text, e.caret)
	}
	// At the ends, moves and deletions do nothing.
	e.home()
	e.left()
	e.backspace()
	e.end()
	e.right()
	e.del()
	if e.text != "=" || e.caret != 1 {
		t.Fatalf("at the ends: got %q caret %d", e.text, e.caret)
	}
	// A text replaced behind the caret's back puts it at the end.
	e.text, e.caret = "äb", 1 // inside the ä
	e.fix()
	if e.caret != 3 {
		t.Fatalf("caret inside a rune fixed to %d, want 3", e.caret)
	}
}

// Random edits agree with the same edits on a slice of runes and an index.
func TestTextEditMatchesRuneModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("ab/.λä中 ")
	var e textEdit
	var model []rune
	at := 0
	for step := range 5000 {
		switch rng.IntN(7) {
		case 0, 1:
			r := alphabet[rng.IntN(len(alphabet))]
			e.insert(string(r))
			model = slices.Insert(model, at, r)
			at++
		case 2:
			e.backspace()
			if at > 0 {
				model = slices.Delete(model, at-1, at)
				at--
			}
		case 3:
			e.del()
			if at < len(model) {
				model = slices.Delete(model, at, at+1)
			}
		case 4:
			e.left()
			at = max(at-1, 0)
		case 5:
			e.right()
			at = min(at+1, len(model))
		case 6:
			if rng.IntN(2) == 0 {
				e.home()
				at = 0
			} else {
				e.end()
				at = len(model)
			}
		}
		if e.text != string(model) || utf8.RuneCountInString(e.text[:e.caret]) != at {
			t.Fatalf("step %d: text %q caret %d, want %q caret at rune %d", step, e.text, e.caret, string(model), at)
		}
	}
}
