package mesh

import (
	"testing"

	"cordillera/internal/zbuffer"
	"cordillera/terrain"
)

// depthOf rasterizes a selection with a z-buffer (triangles reaching
// behind the near plane left out, alike for every selection compared).
func depthOf(cam pinhole, m *terrain.Heightmap, dst []ChunkDraw) *zbuffer.Raster {
	z := zbuffer.NewRaster(cam.w, cam.h)
	id := 0
	for k := range dst {
		d := &dst[k]
		for t := 0; t+2 < len(d.Tris); t += 3 {
			var p [3][3]float64
			ok := true
			for q := range 3 {
				var in bool
				p[q], in = cam.project(d.World(int(d.Tris[t+q]), m.CellSize))
				ok = ok && in
			}
			if ok {
				z.Fill(p[0], p[1], p[2], id, true)
			}
			id++
		}
	}
	return z
}

// occlusionCameras are views over a 257² hilly map: low across it, high,
// walking height, straight down, at corners and edges.
var occlusionCameras = []struct{ x, z, above, yaw, pitch float64 }{
	{20, 20, 30, 45, -8}, {128, 128, 150, 10, -45}, {240, 30, 12, 300, -4},
	{60, 200, 1.7, 120, -3}, {128, 60, 1.7, 0, -20}, {200, 200, 80, 225, -15},
	{5, 128, 6, 90, 2}, {128, 128, 3, 45, -89}, {250, 250, 40, 225, -10},
}

// compareOcclusion returns, over occlusionCameras, how many pixels differ
// between z-buffer images of Select with and without occlusion culling,
// and how many chunks culling removed.
func compareOcclusion(t *testing.T, l *LOD, m *terrain.Heightmap) (diff, culled int) {
	t.Helper()
	var with, without []ChunkDraw
	for _, c := range occlusionCameras {
		eye := [3]float64{c.x * m.CellSize, 0, c.z * m.CellSize}
		eye[1] = l.meshHeight(eye[0], eye[2]) + c.above
		cam := newPinhole(eye, c.yaw, c.pitch, 320, 240, 60)
		v := cam.view(2)
		without = l.Select(v, without)
		a := depthOf(cam, m, without)
		v.ViewProj, v.Width, v.Height, v.NearW = cam.viewProj(1e5), cam.w, cam.h, pinholeNear
		with = l.Select(v, with)
		b := depthOf(cam, m, with)
		for i := range a.Depth {
			if a.Depth[i] != b.Depth[i] {
				diff++
			}
		}
		culled += len(without) - len(with)
	}
	return diff, culled
}

// Culling removes chunks but never a visible pixel: the z-buffer image is
// the same with and without it.
func TestOcclusionCullingIsExact(t *testing.T) {
	m := roughHillsMap(257, 257, 3, 60, 0.05)
	l := NewLOD(m, 16)
	diff, culled := compareOcclusion(t, l, m)
	if diff != 0 {
		t.Errorf("culling changed %d pixels", diff)
	}
	if culled < 50 {
		t.Errorf("culling removed only %d chunks over %d views", culled, len(occlusionCameras))
	}
}

// Occluders raised by a few times the slabs' mean thickness (2.25 units on
// this map) cull visible terrain, and the comparison sees it: the test can
// fail.
func TestOcclusionComparisonCatchesTooHighOccluders(t *testing.T) {
	m := roughHillsMap(257, 257, 3, 60, 0.05)
	l := NewLOD(m, 16)
	l.occluderLift = 6
	if diff, _ := compareOcclusion(t, l, m); diff < 100 {
		t.Errorf("occluders raised by 6 units changed only %d pixels", diff)
	}
}

func TestCoverageFillsPixelCentres(t *testing.T) {
	var g coverage
	g.reset(70, 10)
	g.fillTriangle([2]float64{0, 0}, [2]float64{70, 0}, [2]float64{0, 10})
	for y := 0; y < 10; y++ {
		for x := 0; x < 70; x++ {
			// Inside when the centre is left of the hypotenuse x/70 + y/10 = 1.
			want := (float64(x)+0.5)/70+(float64(y)+0.5)/10 < 1
			if got := g.full(x, y, x, y); got != want {
				t.Fatalf("pixel (%d, %d): covered %v, want %v", x, y, got, want)
			}
		}
	}
	if g.full(0, 0, 69, 0) {
		t.Error("the whole first row is covered, but its last centres lie outside")
	}
	if !g.full(0, 0, 60, 0) {
		t.Error("the first row's inside run is not covered")
	}
}
