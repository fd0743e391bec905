// SPDX-License-Identifier: Apache-2.0

package debugui

import (
	"image"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// wideGreek is bitmapfont's face with the Greek and Cyrillic letters taken
// from its East Asian variant. Cordillera: the font draws those letters
// only full-width, so the narrow face showed the left half of λ (an "ā").
type wideGreek struct {
	narrow, wide font.Face
}

func (f wideGreek) face(r rune) font.Face {
	if r >= 0x0370 && r <= 0x04ff {
		return f.wide
	}
	return f.narrow
}

func (f wideGreek) Close() error { return nil }

func (f wideGreek) Glyph(dot fixed.Point26_6, r rune) (image.Rectangle, image.Image, image.Point, fixed.Int26_6, bool) {
	return f.face(r).Glyph(dot, r)
}

func (f wideGreek) GlyphBounds(r rune) (fixed.Rectangle26_6, fixed.Int26_6, bool) {
	return f.face(r).GlyphBounds(r)
}

func (f wideGreek) GlyphAdvance(r rune) (fixed.Int26_6, bool) { return f.face(r).GlyphAdvance(r) }

func (f wideGreek) Kern(r0, r1 rune) fixed.Int26_6 { return 0 }

func (f wideGreek) Metrics() font.Metrics { return f.narrow.Metrics() }
