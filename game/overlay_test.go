package game

import (
	"image"
	"testing"

	"cordillera/terrain"
)

// The progress bar and its label never cover the minimap, at any window
// size, with the panels shown or not; and they stay on the screen.
func TestProgressBarClearsTheMinimap(t *testing.T) {
	p := terrain.DefaultParams()
	p.Size = 65
	m, err := terrain.Generate(t.Context(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	mm := NewMinimap(m, minimapSize)
	oldOverlaps := 0
	for _, size := range [][2]int{{1280, 720}, {1920, 1080}, {960, 600}, {800, 600}, {640, 480}, {480, 360}} {
		for _, left := range []int{0, panelStrip} {
			w, h := size[0], size[1]
			mini := mm.Rect(image.Rect(left, 0, w, h))
			r := progressRect(left, w, h, mini)
			if r.Overlaps(mini) {
				t.Errorf("%dx%d, view from x %d: the progress bar %v covers the minimap %v", w, h, left, r, mini)
			}
			if !r.In(image.Rect(0, 0, w, h)) || r.Dx() < min(100, (w-left)/2) {
				t.Errorf("%dx%d, view from x %d: the progress bar %v is off the screen or too short", w, h, left, r)
			}
			// Before issue 12 the bar spanned the middle three fifths
			// of the view's width, 28 px from the bottom.
			old := image.Rect(left+(w-left)/5, h-28-18, left+(w-left)*4/5, h-14)
			if old.Overlaps(mini) {
				oldOverlaps++
			}
		}
	}
	t.Logf("the old placement covered the minimap in %d of 12 layouts", oldOverlaps)
}
