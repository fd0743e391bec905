package game

import (
	"encoding/json"
	"testing"

	"cordillera/internal/lesson"
)

// The state file tells where the erosion lesson's single droplets and the
// thermal and fluvial lessons' steps stand, as their links give them: the
// droplets run, the last one's path length and fate, and the sweeps or
// time steps run, in the JSON the end-to-end tests read.
func TestStateRecordsWearLessons(t *testing.T) {
	needLoop(t)
	g := newTestGame(t, testWorld(t, 65))
	g.Layout(ScreenWidth, ScreenHeight)
	t.Cleanup(func() { onLoop(func() { g.OpenLesson(lesson.State{}, true) }) })
	read := func() TeachState {
		t.Helper()
		data, err := json.Marshal(g.state(5))
		if err != nil {
			t.Fatal(err)
		}
		var s State
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatal(err)
		}
		return s.Teach
	}

	openLink(t, g, "size=65&lesson=erosion&droplet=7")
	d := g.teach.erosion.drop
	if s := read(); s.Mode != "erosion" || s.Droplet != 7 || s.DropletSteps != len(d.Steps) || s.DropletSteps == 0 || s.DropletFate != d.Fate || s.DropletFate == "" {
		t.Errorf("at droplet 7 (%d steps, %q) the state gives droplet %d, %d steps, %q", len(d.Steps), d.Fate, s.Droplet, s.DropletSteps, s.DropletFate)
	}
	onLoop(g.dropletStep)
	if s := read(); s.Droplet != 8 || s.DropletSteps != len(g.teach.erosion.drop.Steps) {
		t.Errorf("one droplet more: the state gives droplet %d with %d steps; want 8 with %d", s.Droplet, s.DropletSteps, len(g.teach.erosion.drop.Steps))
	}

	openLink(t, g, "size=65&lesson=thermal&step=4")
	if s := read(); s.Mode != "thermal" || s.Step != 4 || s.Droplet != 0 {
		t.Errorf("thermal lesson at sweep 4: the state gives mode %q step %d droplet %d", s.Mode, s.Step, s.Droplet)
	}
	openLink(t, g, "size=65&lesson=fluvial&step=2")
	if s := read(); s.Mode != "fluvial" || s.Step != 2 {
		t.Errorf("fluvial lesson at step 2: the state gives mode %q step %d", s.Mode, s.Step)
	}
}
