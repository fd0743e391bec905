package game

import (
	"context"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"cordillera/terrain"
)

// The skirts meet the terrain's edge at the terrain's own edge vertices,
// so that both end in the same screen points: a skirt vertex in the
// middle of a coarse chunk's edge projects a rounding error off it, and
// the pale sky shows through the sliver between them (the pale specks
// along the skirt tops). Seen from far beyond the south edge, where the
// border chunks are drawn coarse, every skirt vertex above the plane is a
// vertex of the terrain.
func TestSkirtMeetsTheTerrainEdge(t *testing.T) {
	world := presetWorld(t, "diamond-square")
	m := world.Map
	ext, _ := m.Extent()
	c := NewCamera()
	c.Pos = mgl32.Vec3{float32(0.5 * ext), 0.6 * float32(ext), float32(1.9 * ext)}
	c.Yaw, c.Pitch = -mgl32.DegToRad(90), -mgl32.DegToRad(25)
	const w, h = 1280, 720
	// Every edge vertex handed over, those of triangles facing away too.
	f := frame{keepBack: true}
	f.build(c, w, h, m, world.LOD, world.Normals, false, 120)
	coarse := false
	for _, ch := range f.chunks {
		coarse = coarse || (ch.Row1 == m.Height-1 && ch.Step > 1)
	}
	if !coarse {
		t.Fatal("no border chunk drawn coarse: the test sees nothing")
	}
	terrainAt := map[[2]float32]bool{}
	for i := range f.batches {
		for _, d := range f.batches[i].calls() {
			for _, v := range d.vertices {
				terrainAt[[2]float32{v.DstX, v.DstY}] = true
			}
		}
	}
	var hz horizon
	vp := viewProjection(c, w, h)
	hz.update(horizonKey{vp, w, h, c.Near, m, 0, nil}, c, world.Normals, edgeVertices(nil, m, f.chunks))
	tops, off := 0, 0
	for _, v := range hz.skirt.vertices {
		if v.Custom1 == 0 { // the skirt's foot, on the plane
			continue
		}
		tops++
		if !terrainAt[[2]float32{v.DstX, v.DstY}] {
			off++
		}
	}
	if tops == 0 || off > 0 {
		t.Errorf("%d of %d skirt top vertices are not the terrain's edge vertices", off, tops)
	}
}

// The land beyond the map meets the terrain's edge the same way, and it
// is there only for the noise generators, left out by the viewer's
// setting.
func TestOutsideMeetsTheTerrainEdge(t *testing.T) {
	base := presetWorld(t, "default")
	world := beyondWorld(t)
	v := DefaultViewer()
	if outsideOf(&v, world) != world.Outside {
		t.Error("the default view leaves the land beyond the map out")
	}
	v.Continue = false
	if outsideOf(&v, world) != nil {
		t.Error("the land beyond the map is drawn with the setting off")
	}
	sub := *base
	q, _ := terrain.PresetParams("diamond-square")
	AddOutside(context.Background(), &sub, q)
	if sub.Outside != nil {
		t.Error("diamond-square continues beyond the map")
	}
	ero := *base
	pe, _ := terrain.PresetParams("default")
	pe.Size, pe.CellSize, pe.Erosion = base.Map.Width, base.Map.CellSize, "thermal"
	AddOutside(context.Background(), &ero, pe)
	if ero.Outside != nil {
		t.Error("an eroded world continues with the uneroded noise")
	}

	m := world.Map
	ext, _ := m.Extent()
	c := NewCamera()
	c.Pos = mgl32.Vec3{float32(0.5 * ext), 0.5 * float32(ext), float32(1.8 * ext)}
	c.Yaw, c.Pitch = -mgl32.DegToRad(90), -mgl32.DegToRad(20)
	const w, h = 1280, 720
	// Every edge vertex handed over, those of triangles facing away too.
	f := frame{keepBack: true}
	f.build(c, w, h, m, world.LOD, world.Normals, false, 120)
	terrainAt := map[[2]float32]bool{}
	for i := range f.batches {
		for _, d := range f.batches[i].calls() {
			for _, v := range d.vertices {
				terrainAt[[2]float32{v.DstX, v.DstY}] = true
			}
		}
	}
	var hz horizon
	vp := viewProjection(c, w, h)
	edges := edgeVertices(nil, m, f.chunks)
	hz.update(horizonKey{vp, w, h, c.Near, m, 0, world.Outside}, c, world.Normals, edges)
	// The south edge's vertices, projected as the terrain projects them.
	p2 := newProjector(vp, w, h, c.Near)
	p2.curveAround(c.Pos)
	onEdge, shared := 0, 0
	seen := map[[2]float32]bool{}
	for _, d := range []*drawCall{&hz.ground, &hz.skirt} {
		for _, v := range d.vertices {
			seen[[2]float32{v.DstX, v.DstY}] = true
		}
	}
	for col := 0; col < m.Width; col++ {
		if !edges[m.Width+col] {
			continue
		}
		k := (m.Height-1)*m.Width + col
		pv := p2.vertex(surfaceVertex{pos: mgl32.Vec3{float32(col) * float32(m.CellSize), float32(float64(m.Samples[k]) * m.VerticalScale), float32(m.Height-1) * float32(m.CellSize)}})
		at := [2]float32{pv.DstX, pv.DstY}
		if !terrainAt[at] {
			continue // a vertex of a chunk out of view
		}
		onEdge++
		if seen[at] {
			shared++
		}
	}
	if onEdge == 0 || shared != onEdge {
		t.Errorf("the land beyond meets %d of the %d terrain vertices on the south edge", shared, onEdge)
	}
	// And no vertex of it on that edge is anything but one of them.
	zEdge := float64(m.Height-1) * m.CellSize
	extra := 0
	for _, v := range hz.skirt.vertices {
		x, z := float64(v.Custom0/v.Custom3), float64(v.Custom2/v.Custom3)
		if v.Custom1 == 0 || x < -1e-3*m.CellSize || x > ext+1e-3*m.CellSize || z < zEdge-1e-3*m.CellSize || z > zEdge+1e-3*m.CellSize || v.DstX < 0 || v.DstX > w || v.DstY < 0 || v.DstY > h {
			continue
		}
		if !terrainAt[[2]float32{v.DstX, v.DstY}] {
			extra++
		}
	}
	if extra > 0 {
		t.Errorf("%d vertices of the land beyond on the south edge are not the terrain's", extra)
	}
}

// Leaving out whole blocks of the land beyond that lie out of view leaves
// out nothing in view: from over the map, beyond it, high above looking
// down and low towards the horizon, the projected land is the one
// looking at every cell makes, and some views leave blocks out.
func TestOutsideBlockCullingKeepsTheView(t *testing.T) {
	world := beyondWorld(t)
	m := world.Map
	ext, _ := m.Extent()
	e := float32(ext)
	const w, h = 640, 360
	fewer := 0
	for i, v := range []struct{ x, y, z, yaw, pitch float32 }{
		{0.5, 0.3, 0.5, 30, -20}, {0.9, 0.05, 0.5, 0, -2}, {0.5, 5, 0.5, 90, -89}, {-1.5, 0.2, 0.5, 180, -10}, {2.5, 1.5, -2, 135, -30}, {0.1, 0.02, 0.1, 225, 3}, {1.1, 0.01, 0.5, 0, 12}, {-0.3, 0.03, -0.3, 225, 8}, {1.05, 0.005, 0.5, 0, 33},
	} {
		c := NewCamera()
		c.Pos = mgl32.Vec3{v.x * e, v.y * e, v.z * e}
		c.Yaw, c.Pitch = mgl32.DegToRad(v.yaw), mgl32.DegToRad(v.pitch)
		vp := viewProjection(c, w, h)
		var culled, all horizon
		all.noBlockCulling = true
		culled.update(horizonKey{vp, w, h, c.Near, m, 0, world.Outside}, c, world.Normals, nil)
		all.update(horizonKey{vp, w, h, c.Near, m, 0, world.Outside}, c, world.Normals, nil)
		if !slices.Equal(culled.ground.vertices, all.ground.vertices) || !slices.Equal(culled.skirt.vertices, all.skirt.vertices) ||
			!slices.Equal(culled.ground.indices, all.ground.indices) || !slices.Equal(culled.skirt.indices, all.skirt.indices) {
			t.Errorf("view %d: %d ground and %d skirt vertices with blocks left out, %d and %d looking at every cell",
				i, len(culled.ground.vertices), len(culled.skirt.vertices), len(all.ground.vertices), len(all.skirt.vertices))
		}
		if len(all.ground.indices) == 0 {
			t.Errorf("view %d: no land in view", i)
		}
		n, na := 0, 0
		for k := range culled.outcodes {
			if culled.outcodes[k] != 0xff {
				n++
			}
			if all.outcodes[k] != 0xff {
				na++
			}
		}
		if n < na {
			fewer++
		}
	}
	if fewer == 0 {
		t.Error("no view leaves a block out: the test checks nothing")
	}
}

// benchmarkHorizon projects the ground beyond the default 1025² map from
// walking height near its edge, with or without the land beyond, as a
// moving camera does every frame.
func benchmarkHorizon(b *testing.B, beyond bool) {
	p, err := terrain.PresetParams("default")
	if err != nil {
		b.Fatal(err)
	}
	m, err := terrain.Generate(context.Background(), p, nil)
	if err != nil {
		b.Fatal(err)
	}
	world := NewWorld(m)
	if beyond {
		AddOutside(context.Background(), world, p)
	}
	c := NewCamera()
	c.Pos = mgl32.Vec3{900, float32(m.GroundHeight(900, 500)) + EyeHeight, 500}
	c.Yaw = 0.3
	var f frame
	f.build(c, 1280, 720, m, world.LOD, world.Normals, false, 120)
	edges := edgeVertices(nil, m, f.chunks)
	var hz horizon
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Yaw = 0.3 + 0.01*float32(i%2) // a camera turning: projected anew every frame
		vp := viewProjection(c, 1280, 720)
		hz.update(horizonKey{vp, 1280, 720, c.Near, m, 0, world.Outside}, c, world.Normals, edges)
	}
	b.ReportMetric(float64(len(hz.ground.indices)+len(hz.skirt.indices))/3, "triangles")
}

func BenchmarkHorizonPlane(b *testing.B)  { benchmarkHorizon(b, false) }
func BenchmarkHorizonBeyond(b *testing.B) { benchmarkHorizon(b, true) }
