//go:build !js

// The CPU time comes from getrusage, which js/wasm lacks.

package game

import (
	"context"
	"math"
	"sync"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"cordillera/internal/testenv"
	"cordillera/terrain"
)

// Benchmarks of the CPU's share of a frame (frame.build: level of detail,
// occlusion culling, projection) while the camera moves a little every
// frame, so that nothing of the previous frame can be kept as it is
// (issue 12: "a moving camera rebuilds everything").

var (
	alpsOnce  sync.Once
	alpsWorld *World
)

// ridgedAlps1025 is the ridged-alps preset at 1025², one metre a cell:
// sharp crests, a rough map for the level of detail.
func ridgedAlps1025(tb testing.TB) *World {
	tb.Helper()
	alpsOnce.Do(func() {
		p, err := terrain.PresetParams("ridged-alps")
		if err != nil {
			tb.Fatal(err)
		}
		p.Size = 1025
		m, err := terrain.Generate(context.Background(), p, nil)
		if err != nil {
			tb.Fatal(err)
		}
		m.CellSize, m.VerticalScale = 1, p.Amplitude
		alpsWorld = NewWorld(m)
	})
	if alpsWorld == nil {
		tb.Fatal("the ridged-alps world could not be made")
	}
	return alpsWorld
}

// cameraPath places c on frame i of a straight path that starts as
// lowView does and advances step world units per frame along the yaw,
// above the ground by above; after frames frames it starts again, so
// that any number of iterations stays over the map.
func cameraPath(c *Camera, m *terrain.Heightmap, i, frames int, step, above float64, pitchDeg float32) {
	w, d := m.Extent()
	yaw := math.Pi / 4
	s := float64(i%frames) * step
	x, z := w*0.1+s*math.Cos(yaw), d*0.1+s*math.Sin(yaw)
	c.Pos = mgl32.Vec3{float32(x), float32(m.GroundHeight(x, z) + above), float32(z)}
	c.Yaw, c.Pitch = float32(yaw), mgl32.DegToRad(pitchDeg)
}

// benchmarkFrameMoving builds frames at 1280×720 with the camera moving
// step per frame at height above over the ground, on the default world
// and the ridged-alps map.
func benchmarkFrameMoving(b *testing.B, step, above float64, pitchDeg float32) {
	for _, world := range []struct {
		name string
		w    func(testing.TB) *World
	}{
		{"default", func(tb testing.TB) *World { return testWorld(tb, 1025) }},
		{"ridged-alps", ridgedAlps1025},
	} {
		b.Run(world.name, func(b *testing.B) {
			w := world.w(b)
			c := NewCamera()
			var f frame
			start, haveCPU := testenv.ProcessCPU()
			for i := 0; b.Loop(); i++ {
				cameraPath(c, w.Map, i, 600, step, above, pitchDeg)
				f.build(c, 1280, 720, w.Map, w.LOD, w.Normals, false, 120)
			}
			b.ReportMetric(float64(f.triangles), "triangles")
			// On a machine shared with other work the wall time swings
			// with the load; the CPU time the process spent per frame
			// (all its threads) swings less.
			if end, ok := testenv.ProcessCPU(); ok && haveCPU {
				b.ReportMetric((end-start).Seconds()*1e3/float64(b.N), "cpu-ms/op")
			}
		})
	}
}

// BenchmarkFrameWalk1025 walks at WalkSpeed, a frame every 1/30 s, with
// the eye EyeHeight over the ground looking nearly level.
func BenchmarkFrameWalk1025(b *testing.B) {
	benchmarkFrameMoving(b, WalkSpeed/30, EyeHeight, -3)
}

// BenchmarkFrameFly1025 flies at the default fly speed over a 1 km map
// (its extent / 20 per second), a frame every 1/30 s, 40 m over the
// ground looking slightly down, as lowView does.
func BenchmarkFrameFly1025(b *testing.B) {
	benchmarkFrameMoving(b, 1024.0/20/30, 40, -8)
}
