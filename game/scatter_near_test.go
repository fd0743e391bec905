package game

import (
	"testing"

	"cordillera/terrain"
	"cordillera/terrain/scatter"
	"github.com/go-gl/mathgl/mgl32"
)

// oneTreeSet is a set of the single plant pl on map m.
func oneTreeSet(m *terrain.Heightmap, pl scatter.Plant) *scatter.Set {
	w, _ := m.Extent()
	return &scatter.Set{Plants: []scatter.Plant{pl}, Tile: w, Cols: 1, Rows: 1, Start: []int32{0, 1}}
}

// No plant is drawn whose crown lies within eyeClearance of the eye, so
// that none cuts through the camera or fills the view with a few blown-up
// texels; beyond eyeClearance+eyeFade a plant is drawn whole; a walker
// well above a tree still sees it below. Straight ahead of a walker on flat
// ground, a conifer 8 m wide: its crown 2 m from the eye (6 m from its
// axis), 5 m away and its axis 3 m away are left out; 6.5 m away it is
// fading in; 20 m away it is drawn opaque.
// (Seen failing before the clearance: the old rule dropped a plant only
// with the eye inside 0.45 of its width, so the crown 2 m off was drawn,
// filling the frame's top.)
func TestScatterTreeClearsTheEye(t *testing.T) {
	m := terrain.NewHeightmap(65, 65)
	m.CellSize = 4
	cam := NewCamera()
	cam.Pos = mgl32.Vec3{50, 0, 128}
	for _, c := range []struct {
		name   string
		dx, up float32 // the tree's foot ahead of the eye; the eye above the ground
		drawn  bool
		opaque bool
	}{
		{"axis 3 m ahead", 3, EyeHeight, false, false},
		{"crown 2 m ahead", 6, EyeHeight, false, false},
		{"crown 5 m ahead", 9, EyeHeight, false, false},
		{"crown 6.5 m ahead", 10.5, EyeHeight, true, false},
		{"20 m ahead", 20, EyeHeight, true, true},
		{"25 m ahead, the eye 40 m up", 25, 40, true, true},
		// Straight below, an upright billboard would be seen edge-on.
		{"4 m ahead, the eye 40 m up", 4, 40, false, false},
	} {
		cam.Pos[1], cam.Pitch = c.up, 0
		if c.up > 20 {
			cam.Pitch = mgl32.DegToRad(-70)
		}
		pl := scatter.Plant{X: cam.Pos[0] + c.dx, Y: 0, Z: cam.Pos[2], Height: 20, Width: 8, Kind: scatter.Conifer, Rank: 0.01}
		s := &scatterView{set: oneTreeSet(m, pl)}
		s.build(cam, 640, 480, m, [3]float32{0, 1, 0})
		drawn := len(s.sprites.indices) > 0
		if drawn != c.drawn {
			t.Errorf("%s: drawn %v, want %v", c.name, drawn, c.drawn)
			continue
		}
		if drawn {
			a := s.sprites.vertices[0].ColorA
			a -= 4 * float32(int(a/4+1e-3)) // the opacity, less 4 × the mip level
			if opaque := a > 0.99; opaque != c.opaque {
				t.Errorf("%s: opacity %.2f, want opaque %v", c.name, a, c.opaque)
			}
		}
	}
}
