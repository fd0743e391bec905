package game

import (
	"fmt"
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl32"

	"cordillera/internal/lesson"
	"cordillera/terrain"
)

// A lesson as a lecturer hands it on: OpenLesson shows the state a link
// or the command line names (package lesson reads both), LessonState gives
// back what is shown, for Copy link. The lesson's algorithm and map size
// travel as the generator's own parameters.

// OpenLesson shows the lesson s names for the Generator's parameters
// g.Params, which the caller has set (and checked with s.Check): the
// subdivision lesson at g.Params' algorithm and size (lesson.
// SubdivisionAlgorithm, lesson.SubdivisionSize), at s.Stage; the octaves
// lesson with s.Octave octaves summed; the erosion lesson after s.Batch
// batches; then s's plot and camera. A state without a lesson ends the
// one shown. With panels, entering a lesson shows the Teach panel, as the
// T key does; without, the panels stay as they are (render).
func (g *Game) OpenLesson(s lesson.State, panels bool) {
	t := &g.teach
	mode := max(slices.Index(teachModes, s.Lesson), teachOff) // "" is not a mode: -1 → off
	if mode == teachSubdivision {
		t.alg = 0
		if lesson.SubdivisionAlgorithm(g.Params) == terrain.DiamondSquareAlg {
			t.alg = 1
		}
		t.sizeIdx = slices.Index(teachSizes, lesson.SubdivisionSize(g.Params))
	}
	if mode == teachCompare || mode == teachProfile {
		t.sizeIdx = slices.Index(teachSizes, lesson.SubdivisionSize(g.Params))
	}
	if mode != t.mode {
		g.switchLesson(mode, panels)
	} else if mode != teachOff {
		g.buildLesson()
		g.frameLesson()
	}
	g.moveLessonTo(mode, s)
	g.plots.setPlot(max(slices.Index(plotKinds, s.Plot), 0))
	if s.Camera != nil {
		c := s.Camera
		g.SetPose(CameraPose{X: c.X, Y: c.Y, Z: c.Z, Yaw: c.Yaw, Pitch: c.Pitch})
	}
}

// moveLessonTo brings the lesson just opened to s's place in it: the
// stage, octave, batch, droplet or step, and the picked point.
func (g *Game) moveLessonTo(mode int, s lesson.State) {
	t := &g.teach
	switch mode {
	case teachSubdivision, teachCompare:
		if t.stepper != nil {
			t.k = min(s.Stage, len(t.stepper.Steps()))
			g.showStage()
		}
		if s.Point != nil && t.stepper != nil && mode == teachSubdivision {
			g.pickPoint(s.Point[0], s.Point[1])
		}
	case teachProfile:
		if pl := &t.profile; pl.pr != nil {
			pl.n = min(s.Stage, pl.pr.N)
			if s.Octave > 0 {
				pl.octK = min(s.Octave, len(pl.parts))
			}
		}
	case teachOctaves:
		if s.Octave > 0 && len(t.partials) > 0 {
			t.octK = min(s.Octave, len(t.partials))
			g.showOctaves()
		}
	case teachErosion:
		for range s.Batch {
			g.erosionStep()
		}
		if s.Droplet > 0 {
			g.openDroplet(s.Droplet)
		}
	case teachThermal:
		g.thermalTo(s.Step)
		if s.Point != nil {
			t.thermal.pick(s.Point[0], s.Point[1])
		}
	case teachFluvial:
		g.fluvialTo(s.Step)
		if s.Point != nil {
			t.fluvial.pick(s.Point[0], s.Point[1])
		}
	}
}

// LessonState returns the lesson shown and the parameters that make it:
// g.Params, with the subdivision lesson's algorithm and size in them. In
// a lesson the camera is part of it (rounded to a tenth of a unit and of
// a degree, which a link keeps short); outside one it is left out.
func (g *Game) LessonState() (terrain.Params, lesson.State) {
	t := &g.teach
	p := g.Params
	var s lesson.State
	if k := g.plots.kind; k > 0 && k < len(plotKinds) {
		s.Plot = plotKinds[k]
	}
	if t.mode == teachOff {
		return p, s
	}
	s.Lesson = teachModes[t.mode]
	switch t.mode {
	case teachSubdivision:
		if alg := g.teach.lessonAlgorithm(); alg != lesson.SubdivisionAlgorithm(p) && !(alg == terrain.Midpoint && p.Algorithm == terrain.MidpointRecursive) {
			p.Algorithm = alg
		}
		p.Size = teachSizes[t.sizeIdx]
		s.Stage = t.k
		if t.picked != nil {
			s.Point = &[2]int{t.picked[0], t.picked[1]}
		}
	case teachCompare:
		p.Size = teachSizes[t.sizeIdx]
		s.Stage = t.k
	case teachProfile:
		p.Size = teachSizes[t.sizeIdx]
		if pl := &t.profile; pl.pr != nil {
			s.Stage = pl.n
			if pl.octK < len(pl.parts) {
				s.Octave = pl.octK
			}
		}
	case teachOctaves:
		if t.octK < len(t.partials) {
			s.Octave = t.octK
		}
	case teachErosion:
		s.Batch = t.erosion.pass
		if d := t.erosion.drops; d != nil {
			s.Droplet = d.Done()
		}
	case teachThermal:
		s.Step = t.thermal.sweep
		if t.thermal.picked {
			s.Point = &[2]int{t.thermal.x, t.thermal.y}
		}
	case teachFluvial:
		s.Step = t.fluvial.step
		if t.fluvial.picked {
			s.Point = &[2]int{t.fluvial.x, t.fluvial.y}
		}
	}
	round := func(v float32) float32 { return float32(math.Round(float64(v)*10) / 10) }
	c := g.Camera
	s.Camera = &lesson.Pose{X: round(c.Pos[0]), Y: round(c.Pos[1]), Z: round(c.Pos[2]),
		Yaw: round(mgl32.RadToDeg(c.Yaw)), Pitch: round(mgl32.RadToDeg(c.Pitch))}
	return p, s
}

// lessonAlgorithm is the algorithm the subdivision lesson steps through.
func (t *teachState) lessonAlgorithm() terrain.Algorithm {
	if t.alg == 1 {
		return terrain.DiamondSquareAlg
	}
	return terrain.Midpoint
}

// lessonCaption is the line under a lesson's screenshot: the lesson and
// where it stands, the algorithm with its parameters, and the seed.
func (g *Game) lessonCaption() string {
	t := &g.teach
	p, _ := g.LessonState()
	switch t.mode {
	case teachSubdivision:
		if t.stepper == nil {
			return ""
		}
		return fmt.Sprintf("Subdivision, stage %s (%d of %d): %s %d x %d, H %g, A %g m, corners %s, seed %d",
			lesson.StageLabel(t.k), t.k, len(t.stepper.Steps()), p.Algorithm, p.Size, p.Size, p.Hurst, p.Amplitude, p.Corners, p.Seed)
	case teachOctaves:
		if len(t.partials) == 0 {
			return ""
		}
		alg := p.Algorithm
		if alg.IsSubdivision() {
			alg = terrain.FBm
		}
		n := t.partials[0].Width
		return fmt.Sprintf("Octaves %d of %d: %s/%s %d x %d, feature %g%%, lacunarity %g, H %g, seed %d",
			t.octK, len(t.partials), alg, p.Basis, n, n, p.FeatureSize, p.Lacunarity, p.Hurst, p.Seed)
	case teachCompare:
		if t.stepper == nil {
			return ""
		}
		return fmt.Sprintf("Midpoint vs diamond-square, stage %s (%d of %d), one seed: %d x %d, H %g, A %g m, corners %s, seed %d; 3D view: midpoint",
			lesson.StageLabel(t.k), t.k, len(t.stepper.Steps()), p.Size, p.Size, p.Hurst, p.Amplitude, p.Corners, p.Seed)
	case teachProfile:
		pl := &t.profile
		if pl.pr == nil {
			return ""
		}
		return fmt.Sprintf("1-D profiles: midpoint n %d of %d (%d points, H %g, A %g m), fBm %d of %d octaves (lacunarity %g), seed %d",
			pl.n, pl.pr.N, len(pl.pr.Heights), p.Hurst, p.Amplitude, pl.octK, len(pl.parts), p.Lacunarity, p.Seed)
	case teachErosion:
		e := &t.erosion
		if e.m == nil {
			return ""
		}
		if e.drops != nil {
			return fmt.Sprintf("Erosion, droplet %d of %d (Beyer 2015, the hydraulic stage's own droplets in turn): %s %d x %d, seed %d",
				e.drops.Done(), e.drops.Total(), p.Algorithm, e.m.Width, e.m.Height, p.Seed)
		}
		return fmt.Sprintf("Erosion, batch %d of %d (%d droplets each): %s %d x %d, seed %d",
			e.pass, erosionLessonPasses, e.batch, p.Algorithm, e.m.Width, e.m.Height, p.Seed)
	case teachThermal:
		return g.thermalCaption()
	case teachFluvial:
		return g.fluvialCaption()
	}
	return ""
}

// lessonText is the lesson's formula with its numbers, as the Teach
// panel shows it.
func (g *Game) lessonText() string {
	t := &g.teach
	switch {
	case t.mode == teachSubdivision && t.stepper != nil:
		return g.stageText()
	case t.mode == teachOctaves && len(t.partials) > 0:
		return g.octaveText()
	case t.mode == teachErosion && t.erosion.m != nil:
		return g.erosionText()
	case t.mode == teachThermal && t.thermal.st != nil:
		return g.thermalText()
	case t.mode == teachFluvial && t.fluvial.st != nil:
		return g.fluvialText()
	case t.mode == teachCompare:
		return g.compareText()
	case t.mode == teachProfile && t.profile.pr != nil:
		return g.profileText()
	}
	return ""
}

// plotPending reports whether the plot chosen is still being made for the
// world shown: render waits for it, as a slide wants it.
func (g *Game) plotPending() bool {
	ps := &g.plots
	return ps.kind != 0 && (ps.ready != nil || ps.world != g.World)
}
