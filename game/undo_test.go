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
	g := &Game{Options: Options{Params: q}}
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

// Redo shows the world the redone change made, kept from before: at once,
// with no generation started, and the very same heights.
func TestRedoRestoresTheStoredWorld(t *testing.T) {
	g := undoGame(t)
	g.trackChanges(false)
	made := func() {
		t.Helper()
		waitIdle(t, g.gen.regen)
		g.takeGenerated()
	}
	p := g.Params
	p.Octaves, p.Seed = 3, p.Seed+1
	g.applyParams(p)
	g.trackChanges(false)
	made()
	changed := g.World
	heights := append([]float32(nil), changed.Map.Samples...)

	if !g.Undo() {
		t.Fatal("nothing to undo")
	}
	g.trackChanges(false)
	made()
	if g.World == changed {
		t.Fatal("undo left the changed world shown")
	}

	if !g.Redo() {
		t.Fatal("nothing to redo")
	}
	if busy, _ := g.gen.regen.Status(); busy {
		t.Error("redo started making the world again")
	}
	if g.World != changed {
		t.Fatal("redo did not show the kept world at once")
	}
	for i, h := range g.World.Map.Samples {
		if h != heights[i] {
			t.Fatalf("the redone world's height %d is %v; it was %v", i, h, heights[i])
		}
	}
	// Undo again finds the first world kept too.
	if !g.Undo() {
		t.Fatal("nothing to undo the second time")
	}
	if busy, _ := g.gen.regen.Status(); busy || g.World == changed {
		t.Errorf("the second undo: busy %v, the changed world still shown %v; want the kept first world at once", busy, g.World == changed)
	}
}

// The kept worlds stay within their byte budget, the least recently shown
// dropped first; a world over the budget alone is not kept.
func TestWorldCacheBudget(t *testing.T) {
	world := func(side int, seed int64) *Generated {
		m := terrain.NewHeightmap(side, side)
		p := terrain.DefaultParams()
		p.Seed = seed
		return &Generated{Params: p, World: NewWorld(m)}
	}
	one := world(65, 1).World.approxBytes()
	c := worldCache{budget: 3*one + one/2}
	for seed := int64(1); seed <= 5; seed++ {
		c.put(world(65, seed))
	}
	if c.bytes > c.budget || len(c.entries) != 3 {
		t.Fatalf("%d worlds of %d bytes kept, %d bytes; want 3 within %d", len(c.entries), one, c.bytes, c.budget)
	}
	p := terrain.DefaultParams()
	for seed, want := range []bool{false, false, true, true, true} { // in order: 3, 4, 5 the most recent last
		p.Seed = int64(seed + 1)
		if got := c.get(p, nil) != nil; got != want {
			t.Errorf("world of seed %d kept: %v; want %v", p.Seed, got, want)
		}
	}
	p.Seed = 3
	c.get(p, nil) // shown again: now the most recent
	c.put(world(65, 6))
	p.Seed = 4
	if c.get(p, nil) != nil {
		t.Error("seed 4's world, the least recently shown, was kept over seed 3's")
	}
	c.put(world(257, 7))
	if p.Seed = 7; c.get(p, nil) != nil {
		t.Error("a world larger than the whole budget was kept")
	}
}
