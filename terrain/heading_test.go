package terrain

import (
	"math"
	"testing"
)

// valley is a map of a V-shaped valley whose floor runs through (cx, cz)
// along the direction axis (radians from +x towards +z), falling that way
// by fall per metre; its sides rise by side per metre away from the floor.
func valley(size int, cell, axis, side, fall float64) *Heightmap {
	m := NewHeightmap(size, size)
	m.CellSize = cell
	c := float64(size-1) * cell / 2
	ca, sa := math.Cos(axis), math.Sin(axis)
	for r := range size {
		for col := range size {
			x, z := float64(col)*cell-c, float64(r)*cell-c
			along, across := x*ca+z*sa, -x*sa+z*ca
			m.Set(col, r, float32(1000+side*math.Abs(across)-fall*along))
		}
	}
	return m
}

// In a valley the walker faces along it, down the valley, whichever way
// the valley runs; on a map too small to read there is no heading.
func TestViewHeadingAlongTheValley(t *testing.T) {
	for _, axisDeg := range []float64{0, 30, 90, 135, 250} {
		axis := axisDeg * math.Pi / 180
		m := valley(257, 4, axis, 0.4, 0.05)
		w, d := m.Extent()
		yaw, ok := m.ViewHeading(w/2, d/2)
		if !ok {
			t.Fatalf("valley along %v°: no heading", axisDeg)
		}
		if off := math.Abs(math.Remainder(yaw-axis, 2*math.Pi)) * 180 / math.Pi; off > 2.5 {
			t.Errorf("valley along %v°: the heading is %.0f°, %.0f° off its axis; want within 2.5°", axisDeg, yaw*180/math.Pi, off)
		}
		// Up on the valley's wall, 150 m from the floor, the walker does
		// not face the wall: the ground 200 m ahead is not above the eye.
		x, z := w/2-150*math.Sin(axis), d/2+150*math.Cos(axis)
		yaw, ok = m.ViewHeading(x, z)
		ahead := m.GroundHeight(x+200*math.Cos(yaw), z+200*math.Sin(yaw))
		if eye := m.GroundHeight(x, z) + 1.7; !ok || ahead > eye {
			t.Errorf("valley along %v°, on its wall: heading %.0f° looks at ground %.0f m high from an eye at %.0f m", axisDeg, yaw*180/math.Pi, ahead, eye)
		}
	}
	if _, ok := NewHeightmap(2, 2).ViewHeading(0.5, 0.5); ok {
		t.Error("a 2×2 map of unit cells gave a heading")
	}
}
