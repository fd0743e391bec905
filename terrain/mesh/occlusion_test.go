package mesh

import (
	"context"
	"runtime"
	"slices"
	"testing"
	"time"

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

// occlusionPath is the occlusion cameras, a turn on the spot, a walk at eye height and a
// flight 40 units up across the map, a little farther every frame: the
// views the culling must agree on.
func occlusionPath(m *terrain.Heightmap, l *LOD) []pinhole {
	var cams []pinhole
	for _, c := range occlusionCameras {
		eye := [3]float64{c.x * m.CellSize, 0, c.z * m.CellSize}
		eye[1] = l.meshHeight(eye[0], eye[2]) + c.above
		cams = append(cams, newPinhole(eye, c.yaw, c.pitch, 320, 240, 60))
	}
	// Turning on the spot and tilting, so that the views hold more and
	// fewer chunks, frame after frame.
	for i := range 48 {
		eye := groundEye(m, 128, 128, 20)
		cams = append(cams, newPinhole(eye, float64(i)*15, -5-float64(i%7)*5, 320, 240, 30+float64(i%5)*15))
	}
	for i := range 24 {
		s := 10 + 9*float64(i)
		cams = append(cams, newPinhole(groundEye(m, s, s, 1.7), 45, -3, 320, 240, 60))
		cams = append(cams, newPinhole(groundEye(m, s, 20+s/2, 40), 60, -8, 320, 240, 60))
	}
	return cams
}

// occlusionView is cam's view with the screen, so that Select culls.
func occlusionView(cam pinhole) View {
	v := cam.view(2)
	v.ViewProj, v.Width, v.Height, v.NearW = cam.viewProj(1e5), cam.w, cam.h, pinholeNear
	return v
}

// Culling with the chunks' plans made on all cores hides the same chunks
// and parts as the serial culling, and Select emits the same triangles, on
// 1, 2 and 8 cores, over views that cull many chunks.
func TestOcclusionPlansMatchSerial(t *testing.T) {
	m := roughHillsMap(257, 257, 3, 60, 0.05)
	serial, planned := NewLOD(m, 16), NewLOD(m, 16)
	serial.serialOcclusion = true
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var a, b []ChunkDraw
	culled, parted := 0, 0
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		for i, cam := range occlusionPath(m, serial) {
			v := occlusionView(cam)
			a = serial.Select(v, a)
			b = planned.Select(v, b)
			if !slices.Equal(serial.hidden, planned.hidden) || !slices.Equal(serial.partsHidden, planned.partsHidden) ||
				!slices.Equal(serial.partHidden, planned.partHidden) {
				t.Fatalf("%d cores, view %d: the hidden chunks or parts differ from the serial culling", procs, i)
			}
			if len(a) != len(b) {
				t.Fatalf("%d cores, view %d: %d chunks drawn, the serial culling draws %d", procs, i, len(b), len(a))
			}
			for k := range a {
				if !slices.Equal(a[k].Tris, b[k].Tris) || !slices.Equal(a[k].Heights, b[k].Heights) {
					t.Fatalf("%d cores, view %d: chunk %d's triangles differ from the serial culling's", procs, i, k)
				}
			}
			for k := range serial.hidden {
				if serial.hidden[k] {
					culled++
				}
				if serial.partsHidden[k] {
					parted++
				}
			}
		}
	}
	if culled < 1000 || parted < 100 {
		t.Errorf("the views culled only %d chunks and %d chunks in part: the comparison shows little", culled, parted)
	}
	if planned.plannedFrames == 0 || serial.plannedFrames != 0 {
		t.Errorf("%d frames culled with plans made on all cores (the serial reference: %d): the comparison did not compare the two paths",
			planned.plannedFrames, serial.plannedFrames)
	}
	t.Logf("%d chunks culled, %d culled in part", culled, parted)
}

// benchmarkOcclusionMoving selects the frames of a walk or a flight over
// the default 1025² map at 1280×720 twice each, with the serial culling
// and the planned one, timed apart: interleaved frame by frame, their
// ratio holds on a machine whose load changes during the run.
func benchmarkOcclusionMoving(b *testing.B, step, above, pitch float64) {
	p := terrain.DefaultParams()
	p.Size = 1025
	m, err := terrain.Generate(context.Background(), p, nil)
	if err != nil {
		b.Fatal(err)
	}
	serial, planned := NewLOD(m, 32), NewLOD(m, 32)
	serial.serialOcclusion = true
	var a, c []ChunkDraw
	var ts, tp time.Duration
	for i := 0; b.Loop(); i++ {
		s := 40 + float64(i%600)*step
		v := occlusionView(newPinhole(groundEye(m, s, s, above), 45, pitch, 1280, 720, 60))
		// Which goes first alternates, so that neither always finds the
		// caches warmed or cooled by the other.
		for turn := range 2 {
			t0 := time.Now()
			if (i+turn)%2 == 0 {
				a = serial.Select(v, a)
				ts += time.Since(t0)
			} else {
				c = planned.Select(v, c)
				tp += time.Since(t0)
			}
		}
	}
	b.ReportMetric(ts.Seconds()*1e3/float64(b.N), "serial-ms/frame")
	b.ReportMetric(tp.Seconds()*1e3/float64(b.N), "planned-ms/frame")
	b.ReportMetric(ts.Seconds()/tp.Seconds(), "speedup")
}

// BenchmarkOcclusionWalk1025 walks at 4 units a second, 30 frames a
// second, the eye 1.7 over the ground.
func BenchmarkOcclusionWalk1025(b *testing.B) { benchmarkOcclusionMoving(b, 4.0/30, 1.7, -3) }

// BenchmarkOcclusionFly1025 flies at 51 units a second 40 over the ground.
func BenchmarkOcclusionFly1025(b *testing.B) { benchmarkOcclusionMoving(b, 1024.0/20/30, 40, -8) }
