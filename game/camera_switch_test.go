package game

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// Switching to walk levels the view (the flight looked down on the map);
// a walker's own pitch is kept when the world is regrounded, and flying
// again keeps it too.
func TestSwitchToWalkLevelsThePitch(t *testing.T) {
	m := slopeMap(33, 0)
	c := NewCamera()
	c.Overview(m)
	if c.Pitch == 0 {
		t.Fatal("the overview looks level; want it looking down")
	}
	c.SwitchMode(Walk, m)
	if c.Pitch != 0 || c.Mode != Walk {
		t.Fatalf("after switching to walk: mode %v, pitch %v°; want walk, 0°", c.Mode, mgl32.RadToDeg(c.Pitch))
	}
	c.Look(0, 0.2)
	c.SwitchMode(Walk, m) // a new world while walking
	c.SwitchMode(Fly, m)
	if c.Pitch != 0.2 {
		t.Errorf("pitch %v after regrounding and flying; want the walker's 0.2", c.Pitch)
	}
}
