// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2025 The Ebitengine Authors

package debugui

import (
	"image"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
)

// Cordillera: debugui reads the mouse and the keyboard through these, so
// that the package's tests can play a pointer and keys tick by tick.
var (
	cursorPosition            = ebiten.CursorPosition
	isMouseButtonPressed      = ebiten.IsMouseButtonPressed
	isMouseButtonJustPressed  = inpututil.IsMouseButtonJustPressed
	isMouseButtonJustReleased = inpututil.IsMouseButtonJustReleased
	isKeyJustPressed          = inpututil.IsKeyJustPressed
	keyPressDuration          = inpututil.KeyPressDuration
	appendInputChars          = ebiten.AppendInputChars
)

type pointing struct {
	justPressedTouchIDs []ebiten.TouchID
	touchIDs            []ebiten.TouchID
	hasPrimaryTouchID   bool
	primaryTouchID      ebiten.TouchID
	duration            int
}

func (p *pointing) update() {
	p.justPressedTouchIDs = inpututil.AppendJustPressedTouchIDs(p.justPressedTouchIDs[:0])
	p.touchIDs = ebiten.AppendTouchIDs(p.touchIDs[:0])

	if len(p.touchIDs) == 0 {
		p.hasPrimaryTouchID = false
		p.primaryTouchID = 0
	} else if !p.hasPrimaryTouchID {
		p.hasPrimaryTouchID = true
		p.primaryTouchID = p.touchIDs[0]
	}

	// Cordillera: a press starts the count again, even when the button was
	// never seen up: released and pressed again between two frames, it
	// was down at both, and upstream's count went on from the first press,
	// so a spin button, which acts on the count, dropped the second click.
	switch {
	case p.justPressed():
		p.duration = 1
	case p.pressed():
		p.duration++
	default:
		p.duration = 0
	}
}

func (p *pointing) isTouchActive() bool {
	if !p.hasPrimaryTouchID {
		return false
	}
	return slices.Contains(p.touchIDs, p.primaryTouchID)
}

func (p *pointing) position() image.Point {
	if p.isTouchActive() {
		return image.Pt(ebiten.TouchPosition(p.primaryTouchID))
	}
	return image.Pt(cursorPosition())
}

func (p *pointing) pressed() bool {
	if p.isTouchActive() {
		return true
	}
	return isMouseButtonPressed(ebiten.MouseButtonLeft)
}

func (p *pointing) justPressed() bool {
	if p.isTouchActive() {
		return slices.Contains(p.justPressedTouchIDs, p.primaryTouchID)
	}
	return isMouseButtonJustPressed(ebiten.MouseButtonLeft)
}

// justReleased reports whether the mouse button went up in this tick.
// Cordillera: a drag whose last move and release came between two frames
// ends where the pointer was released.
func (p *pointing) justReleased() bool {
	return isMouseButtonJustReleased(ebiten.MouseButtonLeft)
}

func (p *pointing) repeated() bool {
	return repeated(p.duration)
}

// keyRepeated reports whether a held key acts in this tick: when it went
// down, then repeatedly. Cordillera: a key pressed and released between two
// frames (its duration is 0 then) still counts once.
func keyRepeated(key ebiten.Key) bool {
	return isKeyJustPressed(key) || repeated(keyPressDuration(key))
}

func repeated(duration int) bool {
	if duration == 1 {
		return true
	}
	delay := ebiten.TPS() * 24 / 60
	if duration < delay {
		return false
	}
	return (duration-delay)%4 == 0
}
