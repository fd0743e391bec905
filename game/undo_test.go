package game

import (
	"testing"

	"cordillera/terrain"
)

// Each change of the settings is an undo step, a drag however many values
// it passes is one, and redo takes the undone steps again; the preset
// shows as modified until its parameters are back.
func TestUndoRedoSettings(t *testing.T) {
	g := undoGame(t)
	g.trackChanges(false)
	sun, octaves := g.View.SunElevation, g.Params.Octaves

	g.View.SunElevation = 10 // a click
	g.trackChanges(false)
	for _, o := range []int{3, 4, 5} { // a drag
		g.Params.Octaves = o
		g.trackChanges(true)
	}
	g.trackChanges(false) // released
	g.trackChanges(false) // a tick with nothing changed

	if !g.Undo() || g.Params.Octaves != octaves || g.View.SunElevation != 10 {
		t.Fatalf("the first undo left octaves %d, sun %v°; want %d, 10°", g.Params.Octaves, g.View.SunElevation, octaves)
	}
	g.trackChanges(false)
	if !g.Undo() || g.View.SunElevation != sun {
		t.Fatalf("the second undo left the sun at %v°; want %v°", g.View.SunElevation, sun)
	}
	if g.Undo() {
		t.Fatal("a third undo found a step; there were two")
	}
	first, second := g.Redo(), g.Redo()
	if !first || !second || g.Params.Octaves != 5 || g.View.SunElevation != 10 {
		t.Fatalf("two redos left octaves %d, sun %v°; want 5, 10°", g.Params.Octaves, g.View.SunElevation)
	}
	g.Undo()
	g.View.Ambient = 0.9 // a new change drops what was undone
	g.trackChanges(false)
	if g.Redo() {
		t.Error("redo after a new change found a step")
	}
}

// A preset shows as modified when its parameters have been changed, and
// not once they are back.
func TestPresetModified(t *testing.T) {
	name := terrain.Presets[1].Name
	q, err := terrain.PresetParams(name)
	if err != nil {
		t.Fatal(err)
	}
	g := &Game{Params: q}
	g.ui.preset = 1
	if g.presetModified() {
		t.Fatalf("preset %s shows as modified with its own parameters", name)
	}
	g.Params.Seed++
	if !g.presetModified() {
		t.Errorf("preset %s does not show as modified with another seed", name)
	}
}

// undoGame is a game on a small default world whose settings changes are
// tracked for undo; it is closed when the test ends.
func undoGame(t *testing.T) *Game {
	t.Helper()
	p := terrain.DefaultParams()
	p.Size = 65
	m, err := terrain.Generate(t.Context(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewWithParams(NewWorld(m), p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	g.ui.preset = -1 // no built-in preset: the default parameters are not one
	return g
}
