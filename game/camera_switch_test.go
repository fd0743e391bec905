package game

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"cordillera/terrain"
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

// Tab to walk in a valley faces along it, down the valley, not into the
// hillside the flight was facing.
func TestSwitchToWalkFacesAlongTheValley(t *testing.T) {
	// A valley along +z falling 5 m in 100, walls rising 40 m in 100.
	const size, cell = 257, 4.0
	m := terrain.NewHeightmap(size, size)
	m.CellSize = cell
	mid := float64(size-1) * cell / 2
	for r := range size {
		for col := range size {
			x, z := float64(col)*cell, float64(r)*cell
			m.Set(col, r, float32(500+0.4*math.Abs(x-mid)-0.05*z))
		}
	}
	c := NewCamera()
	c.Pos = mgl32.Vec3{float32(mid), 900, float32(mid)}
	c.Yaw, c.Pitch = 0, -0.5 // facing +x, the valley's eastern wall
	c.SwitchMode(Walk, m)
	if off := math.Abs(math.Remainder(float64(c.Yaw)-math.Pi/2, 2*math.Pi)); off > 2.5*math.Pi/180 {
		t.Errorf("walking starts with yaw %.0f°; want 90° (down the valley, +z)", mgl32.RadToDeg(c.Yaw))
	}
}
