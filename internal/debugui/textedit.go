// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2024 The Ebitengine Authors

package debugui

import "unicode/utf8"

// Cordillera: a text field's content while it is edited, with a caret
// that Left, Right, Home and End move and where typing inserts and
// BackSpace and Delete remove. Upstream only appended at the end.

// textEdit is the text of a focused text field and its caret, a byte
// offset into text that always lies on a rune boundary.
type textEdit struct {
	text  string
	caret int
}

// set replaces the text and puts the caret at its end.
func (t *textEdit) set(s string) { t.text, t.caret = s, len(s) }

// fix puts a caret that no longer fits the text (the text was replaced
// behind its back) at the end.
func (t *textEdit) fix() {
	if t.caret < 0 || t.caret > len(t.text) || t.caret < len(t.text) && !utf8.RuneStart(t.text[t.caret]) {
		t.caret = len(t.text)
	}
}

// insert types s at the caret and moves the caret past it.
func (t *textEdit) insert(s string) {
	t.text = t.text[:t.caret] + s + t.text[t.caret:]
	t.caret += len(s)
}

// backspace removes the rune before the caret.
func (t *textEdit) backspace() {
	if t.caret == 0 {
		return
	}
	_, size := utf8.DecodeLastRuneInString(t.text[:t.caret])
	t.text = t.text[:t.caret-size] + t.text[t.caret:]
	t.caret -= size
}

// del removes the rune after the caret.
func (t *textEdit) del() {
	if t.caret == len(t.text) {
		return
	}
	_, size := utf8.DecodeRuneInString(t.text[t.caret:])
	t.text = t.text[:t.caret] + t.text[t.caret+size:]
}

// left and right move the caret by one rune; home and end to the ends.
func (t *textEdit) left() {
	if t.caret > 0 {
		_, size := utf8.DecodeLastRuneInString(t.text[:t.caret])
		t.caret -= size
	}
}

func (t *textEdit) right() {
	if t.caret < len(t.text) {
		_, size := utf8.DecodeRuneInString(t.text[t.caret:])
		t.caret += size
	}
}

func (t *textEdit) home() { t.caret = 0 }
func (t *textEdit) end()  { t.caret = len(t.text) }
