package game

import (
	"testing"

	"cordillera/terrain"
)

// A drag ends when the button is released: a click after it is a step of
// its own, so one Ctrl+Z takes back the click and leaves the drag.
func TestUndoClickAfterADragIsItsOwnStep(t *testing.T) {
	g := undoGame(t)
	g.trackChanges(false)
	for _, o := range []int{3, 4, 5} { // a drag
		g.Params.Octaves = o
		g.trackChanges(true)
	}
	g.trackChanges(false)    // released
	g.View.SunElevation = 12 // a click
	g.trackChanges(false)
	if !g.Undo() || g.Params.Octaves != 5 {
		t.Errorf("undo after a drag and a click left octaves %d; want the drag's 5 kept", g.Params.Octaves)
	}
}

// Every preset, the first included, shows as modified once its
// parameters change; an index outside the list (no preset) never does.
func TestEveryPresetShowsModified(t *testing.T) {
	for i, p := range terrain.Presets {
		q, err := terrain.PresetParams(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		g := &Game{Options: Options{Params: q}}
		g.ui.preset = i
		if g.presetModified() {
			t.Errorf("preset %d (%s) shows as modified with its own parameters", i, p.Name)
		}
		g.Params.Seed++
		if !g.presetModified() {
			t.Errorf("preset %d (%s) does not show as modified with another seed", i, p.Name)
		}
	}
	for _, i := range []int{-1, len(terrain.Presets)} {
		g := &Game{Options: Options{Params: terrain.DefaultParams()}}
		g.ui.preset = i
		if g.presetModified() {
			t.Errorf("preset index %d, outside the list, shows as modified", i)
		}
	}
}
