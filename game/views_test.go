package game

import (
	"image"
	"sync"
	"testing"

	"cordillera/terrain"
)

// viewCheck is what the pinhole and the wireframe tests measure in one of
// forTestViews' views, drawn at pinholeW×pinholeH with fog off and
// without the land beyond the map: the sky alone, the terrain, and the
// terrain with its wireframe, all three for the same built frame. Both
// tests read the same frames, so the frames are drawn once per view for
// both (the first of the two tests to run draws them) and only the
// measurements are kept.
type viewCheck struct {
	preset string
	pose   testPose
	// covered is the pixels of terrain a z-buffer of the frame's
	// triangles sees; holes those well inside it drawn in the colour of
	// the sky frame (skyPinholes).
	covered int
	holes   []image.Point
	// lines are the wireframe's lines per chunk (countLines, triangles 10
	// pixels high), chunks the chunks they belong to.
	lines  []chunkLines
	chunks []chunkRef
}

// chunkRef names a chunk in an error message.
type chunkRef struct{ col, row, step int }

var (
	viewChecksOnce sync.Once
	viewChecks     []viewCheck
)

// testViewChecks draws forTestViews' views, once per test binary, and
// returns what each shows.
func testViewChecks(t *testing.T) []viewCheck {
	t.Helper()
	needLoop(t)
	viewChecksOnce.Do(func() {
		const w, h = pinholeW, pinholeH
		games := map[*World]*Game{}
		forTestViews(t, func(preset string, ps testPose, c *Camera, m *terrain.Heightmap, world *World) {
			g := games[world]
			if g == nil {
				g = newTestGame(t, world)
				games[world] = g
			}
			g.View.FogDensity = 0   // distant ground must not fade into the sky's colour
			g.View.Continue = false // the land beyond may hide an edge chunk, or a hole, seen from out there
			g.View.Wireframe = false
			g.View.Scatter = false // the z-buffer reference is the terrain alone; trees stand in front of it
			var f frame
			plain, sky := renderView(g, c, &f, w, h)
			var wire *image.RGBA
			onLoop(func() {
				g.View.Wireframe = true
				wire = drawFrame(g, c, &f, w, h)
				g.View.Wireframe = false
			})
			z := depthImage(collect(&f), w, h)
			vc := viewCheck{preset: preset, pose: ps, covered: z.Covered(), holes: skyPinholes(plain, sky, z)}
			tris, chunkOf := chunkTriangles(&f, c, w, h, world)
			vc.lines = countLines(plain, wire, tris, chunkOf, len(f.chunks), w, h, 10)
			for i := range f.chunks {
				ch := &f.chunks[i]
				vc.chunks = append(vc.chunks, chunkRef{ch.Col0, ch.Row0, ch.Step})
			}
			viewChecks = append(viewChecks, vc)
		})
	})
	if len(viewChecks) == 0 {
		t.Fatal("the views were not drawn (see the first test that drew them)")
	}
	return viewChecks
}
