package game

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"strings"

	"github.com/ebitengine/debugui"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"cordillera/internal/lesson"
	"cordillera/terrain"
)

// Teaching mode: the Teach panel steps through the subdivision algorithms
// stage by stage (course notes 000, papers 001 and 003), or adds the fractal
// octaves one by one (thesis ch. 3 and 6), showing the result in the 3D
// view with the formula and its current numbers. The terrain side is
// terrain.SubdivisionSteps and terrain.Octaves.

// The teaching modes.
const (
	teachOff = iota
	teachSubdivision
	teachOctaves
	teachErosion
	teachThermal
	teachFluvial
	teachCompare
	teachProfile
)

// teachModes names the teaching modes, in the order of their constants.
var teachModes = []string{"off", "subdivision", "octaves", "erosion", "thermal", "fluvial", "compare", "profile"}

// teachSizes are the map sizes offered for stepping through subdivision:
// small enough to see every point.
var teachSizes = lesson.Sizes

// teachOctaveSide caps the map side of the octave view so the partial
// sums take a moment, not seconds.
const teachOctaveSide = 257

// teachState is what the Teach panel shows.
type teachState struct {
	mode    int
	alg     int // 0 midpoint, 1 diamond-square
	sizeIdx int
	stepper *terrain.Stepper
	k       int // stages shown (0: only the corners)
	lo, hi  float32
	playing bool
	tick    int

	partials []*terrain.Heightmap
	thumbs   []*ebiten.Image
	thumbRGB []*image.RGBA
	octK     int // octaves shown, 1…len(partials)

	saved *World // the world before teaching, shown again when it ends
	// savedScheme is the Viewer's colour scheme before teaching: a lesson
	// shows its map in solid colours by height share, as the sources'
	// figures do, so that each stage's new heights read as colour.
	savedScheme bool
	diagram     *ebiten.Image
	// picked is the diagram point clicked and point how the generator
	// computed it; picked is nil when none is.
	picked *[2]int
	point  terrain.PointValues
	params terrain.Params // what the current lesson was built from

	erosion erosionLesson
	thermal thermalLesson
	fluvial fluvialLesson
	compare compareLesson
	profile profileLesson
}

// teachPanel draws the Teach panel's widgets.
func (g *Game) teachPanel(ctx *debugui.Context) {
	t := &g.teach
	ctx.SetGridLayout([]int{specLabelW, -1}, nil)
	ctx.Text("Lesson")
	mode := t.mode
	ctx.Dropdown(&mode, teachModes).On(func() { g.setTeachMode(mode) })
	ctx.Text("Plot")
	pk := g.plots.kind
	ctx.Dropdown(&pk, plotKinds).On(func() { g.plots.setPlot(pk) })
	switch t.mode {
	case teachSubdivision:
		ctx.Text("Algorithm")
		alg := t.alg
		ctx.Dropdown(&alg, []string{"midpoint", "diamond-square"}).On(func() { t.alg = alg; g.buildLesson() })
		g.sizeRow(ctx)
		g.stepButtons(ctx)
		ctx.SetGridLayout([]int{-1}, nil)
		ctx.Text(g.stageText())
	case teachCompare:
		g.sizeRow(ctx)
		g.stepButtons(ctx)
		ctx.SetGridLayout([]int{-1}, nil)
		ctx.Text(g.compareText())
	case teachProfile:
		g.profilePanel(ctx)
	case teachOctaves:
		if len(t.partials) == 0 {
			break
		}
		ctx.SetGridLayout([]int{specLabelW, -1}, nil)
		ctx.Text("Octaves summed")
		k := t.octK
		ctx.Slider(&k, 1, len(t.partials), 1).On(func() { t.octK = k; g.showOctaves() })
		ctx.SetGridLayout([]int{-1}, nil)
		ctx.Text(g.octaveText())
	case teachErosion:
		if t.erosion.m != nil {
			g.erosionPanel(ctx)
		}
	case teachThermal:
		if t.thermal.st != nil {
			g.thermalPanel(ctx)
		}
	case teachFluvial:
		if t.fluvial.st != nil {
			g.fluvialPanel(ctx)
		}
	}
	if g.plots.summary != "" && g.plots.kind != 0 {
		ctx.SetGridLayout([]int{-1}, nil)
		ctx.Text(g.plots.summary)
	}
}

// sizeRow is the stepping lessons' map size row.
func (g *Game) sizeRow(ctx *debugui.Context) {
	t := &g.teach
	ctx.SetGridLayout([]int{specLabelW, -1}, nil)
	ctx.Text("Samples per side")
	opts := make([]string, len(teachSizes))
	for i, n := range teachSizes {
		opts[i] = fmt.Sprint(n)
	}
	si := t.sizeIdx
	ctx.Dropdown(&si, opts).On(func() { t.sizeIdx = si; g.buildLesson() })
}

// stepButtons are the stepping lessons' back, forward, play and reset.
func (g *Game) stepButtons(ctx *debugui.Context) {
	t := &g.teach
	ctx.SetGridLayout([]int{-1, -1, -1, -1}, nil)
	ctx.Button("<").On(func() { g.teachStep(-1) })
	ctx.Button(">").On(func() { g.teachStep(1) })
	play := "Play"
	if t.playing {
		play = "Pause"
	}
	ctx.Button(play).On(func() { t.playing = !t.playing })
	ctx.Button("Reset").On(func() { t.k = 0; g.showStage() })
}

// setTeachMode enters or leaves a lesson, showing the Teach panel.
func (g *Game) setTeachMode(mode int) { g.switchLesson(mode, true) }

// switchLesson enters or leaves a lesson; with panels, entering one shows
// the Teach panel.
func (g *Game) switchLesson(mode int, panels bool) {
	t := &g.teach
	if t.mode == teachOff && mode != teachOff {
		t.saved, t.savedScheme = g.World, g.View.ColourScheme
		g.View.ColourScheme = true
	}
	entering := t.mode == teachOff && mode != teachOff
	t.mode = mode
	if mode == teachOff {
		if t.saved != nil {
			g.World, g.View.ColourScheme = t.saved, t.savedScheme
		}
		t.saved, t.playing = nil, false
		return
	}
	g.buildLesson()
	if entering {
		// The Teach section's controls step the lesson: show it, open,
		// whether the panels were hidden or another section was open.
		if panels {
			g.ui.openPanel("Teach")
			g.ShowUI = true
		}
		g.frameLesson() // the whole lesson map in view, wherever the camera was
	}
}

// The lesson's framing: looking down at the map's centre from beyond its
// last row (yaw lessonYaw, toward row 0), lessonPitch below the horizon,
// with every corner of the map's box inside the view's [-lessonMargin,
// lessonMargin] (its top below the HUD's lines). From that side row 0 is
// the far edge, at the top of the view, and column 0 is at the left: the
// mesh lies as the step-through diagram, the octave thumbnails and the
// difference maps draw the map, row 0 at the top as the sources write
// their height matrices. From the other side the view would be the
// diagram turned by a half turn.
const (
	lessonYaw       = -math.Pi / 2
	lessonPitch     = 40 * math.Pi / 180
	lessonMargin    = 0.9
	lessonMarginTop = 0.8
)

// frameMargins bound where a framed box may project in the view, in
// normalised device coordinates: |x| <= side, -bottom <= y <= top.
type frameMargins struct{ side, bottom, top float64 }

// lessonFrame is a lesson map's framing: the whole view but the HUD's lines.
var lessonFrame = frameMargins{lessonMargin, lessonMargin, lessonMarginTop}

// frameLesson places the camera so that the whole lesson map shows in the
// 3D view as it is laid out now (beside the panels or not): as near as it
// can be with the eight corners of the map's box (its four corners at its
// lowest and its highest height, or 0 and 1 in samples) inside the view.
func (g *Game) frameLesson() {
	m := g.World.Map
	vr := g.viewRect(g.ui.w, g.ui.h)
	if vr.Empty() { // not drawn yet: the default window
		vr = g.viewRect(ScreenWidth, ScreenHeight)
	}
	// The lessons' maps are normalised to [0, 1] over their last stage, so
	// the box holds that range whatever the stage shown now.
	lo, hi := 0.0, 1.0
	for _, s := range m.Samples {
		lo, hi = math.Min(lo, float64(s)), math.Max(hi, float64(s))
	}
	lo, hi = lo*m.VerticalScale, hi*m.VerticalScale
	w, d := m.Extent()
	var box []mgl32.Vec3
	for _, x := range []float64{0, w} {
		for _, z := range []float64{0, d} {
			for _, y := range []float64{lo, hi} {
				box = append(box, mgl32.Vec3{float32(x), float32(y), float32(z)})
			}
		}
	}
	centre := mgl32.Vec3{float32(w / 2), float32((lo + hi) / 2), float32(d / 2)}
	g.frameBox(vr, box, centre, math.Max(w, d), lessonFrame)
}

// frameBox places the camera at the lesson's yaw and pitch looking at
// centre, as near as it can be with every point of box inside the margins
// of the view vr; size is the box's horizontal extent, which sets the
// search's range and the flying speed.
func (g *Game) frameBox(vr image.Rectangle, box []mgl32.Vec3, centre mgl32.Vec3, size float64, mg frameMargins) {
	c := g.Camera
	c.Mode, c.Yaw, c.Pitch = Fly, lessonYaw, -lessonPitch
	for dist := size / 4; dist < 50*size; dist *= 1.03 {
		c.Pos = centre.Sub(c.Forward().Mul(float32(dist)))
		if boxInView(c, vr.Dx(), vr.Dy(), box, mg) {
			break
		}
	}
	c.Speed = float32(size / 20)
}

// boxInView reports whether every point lies in front of the camera and
// inside the margins mg of a w×h view.
func boxInView(c *Camera, w, h int, points []mgl32.Vec3, mg frameMargins) bool {
	vp := viewProjection(c, w, h)
	for _, p := range points {
		clip := vp.Mul4x1(p.Vec4(1))
		if clip[3] <= c.Near {
			return false
		}
		x, y := float64(clip[0]/clip[3]), float64(clip[1]/clip[3])
		if math.Abs(x) > mg.side || y < -mg.bottom || y > mg.top {
			return false
		}
	}
	return true
}

// buildLesson makes the stages or partial sums from the current parameters.
func (g *Game) buildLesson() {
	t := &g.teach
	t.params = g.Params
	p := g.Params
	switch t.mode {
	case teachSubdivision:
		p.Algorithm = terrain.Midpoint
		if t.alg == 1 {
			p.Algorithm = terrain.DiamondSquareAlg
		}
		p.Size = teachSizes[t.sizeIdx]
		st, err := terrain.SubdivisionSteps(context.Background(), p)
		if err != nil {
			g.ui.fail(err)
			return
		}
		t.stepper, t.k, t.picked = st, 0, nil
		raw, _ := st.State(len(st.Steps()))
		t.lo, t.hi = raw.Range()
		g.showStage()
	case teachOctaves:
		if p.Algorithm.IsSubdivision() {
			p.Algorithm = terrain.FBm
		}
		p.Size = min(p.Size, teachOctaveSide)
		parts, err := terrain.Octaves(context.Background(), p)
		if err != nil {
			g.ui.fail(err)
			return
		}
		t.partials, t.octK = parts, len(parts)
		for _, im := range t.thumbs {
			im.Deallocate()
		}
		t.thumbs, t.thumbRGB = nil, nil
		// Every thumbnail is drawn on the first octave's scale, so that
		// each octave's share of the height shows as its contrast.
		var scale float64
		for i := range parts {
			c, err := terrain.OctaveContribution(context.Background(), p, i)
			if err != nil {
				g.ui.fail(err)
				return
			}
			if i == 0 {
				lo, hi := c.Range()
				scale = max(math.Abs(float64(lo)), math.Abs(float64(hi)))
			}
			t.thumbRGB = append(t.thumbRGB, octaveThumb(c, scale))
		}
		g.showOctaves()
	case teachErosion:
		g.buildErosionLesson()
	case teachThermal:
		g.buildThermalLesson()
	case teachFluvial:
		g.buildFluvialLesson()
	case teachCompare:
		g.buildCompare(p)
	case teachProfile:
		g.buildProfile(p)
	}
}

// teachStep moves d stages forward or back.
func (g *Game) teachStep(d int) {
	t := &g.teach
	if t.stepper == nil {
		return
	}
	t.k = min(max(t.k+d, 0), len(t.stepper.Steps()))
	g.showStage()
}

// showStage shows the map after the first k stages at the resolution of
// the last one, normalised by the final map's range so heights stay put,
// and frames it: each stage's map is a mesh of another resolution, which
// the camera shows whole wherever the student had moved it.
func (g *Game) showStage() {
	t := &g.teach
	if t.mode == teachCompare {
		g.showCompare()
		return
	}
	m := stageGrid(t.stepper, t.k, t.lo, t.hi)
	g.showLessonWorld(m)
	g.frameLesson()
	g.teach.redrawDiagram()
}

// stageGrid is st's map after the first k stages at the resolution of
// the last one, normalised by [lo, hi] (the final map's range, so heights
// stay put); a point the grid holds that no stage has set yet is the mean
// of its set neighbours.
func stageGrid(st *terrain.Stepper, k int, lo, hi float32) *terrain.Heightmap {
	raw, set := st.State(k)
	spacing := raw.Width - 1
	if k > 0 {
		spacing = st.Steps()[k-1].Spacing
	}
	n := (raw.Width-1)/spacing + 1
	m := terrain.NewHeightmap(n, n)
	span := float64(hi) - float64(lo) // as terrain's normalisation computes it
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			x, y := i*spacing, j*spacing
			v, ok := raw.At(x, y), set[y*raw.Width+x]
			if !ok { // not computed yet in this stage: the mean of its set neighbours
				var sum float32
				var cnt int
				for _, d := range [8][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
					xx, yy := x+d[0]*spacing, y+d[1]*spacing
					if xx >= 0 && yy >= 0 && xx < raw.Width && yy < raw.Height && set[yy*raw.Width+xx] {
						sum += raw.At(xx, yy)
						cnt++
					}
				}
				if cnt > 0 {
					v = sum / float32(cnt)
				}
			}
			if span > 0 {
				v = float32((float64(v) - float64(lo)) / span)
			}
			m.Set(i, j, v)
		}
	}
	m.CellSize = lessonCell(raw.Width) * float64(spacing)
	m.VerticalScale = lessonCell(raw.Width) * float64(raw.Width-1) / 4
	return m
}

// redrawDiagram has the step-through diagram drawn anew.
func (t *teachState) redrawDiagram() {
	if t.diagram != nil {
		t.diagram.Deallocate()
	}
	t.diagram = nil
}

// lessonCell is the cell size that gives a lesson's map the default
// world's extent, so the camera's overview frames it.
func lessonCell(size int) float64 { return 1024 / float64(size-1) }

// showOctaves shows the partial sum of the first octK octaves, normalised
// by the full sum's range.
func (g *Game) showOctaves() {
	t := &g.teach
	full := t.partials[len(t.partials)-1]
	lo, hi := full.Range()
	src := t.partials[t.octK-1]
	m := terrain.NewHeightmap(src.Width, src.Height)
	span := float64(hi) - float64(lo)
	for i, v := range src.Samples {
		if span > 0 {
			m.Samples[i] = float32((float64(v) - float64(lo)) / span)
		}
	}
	m.CellSize = lessonCell(src.Width)
	m.VerticalScale = g.Params.Amplitude * 1024 / float64(g.Params.CellSize*float64(g.Params.Size-1))
	g.showLessonWorld(m)
}

// showLessonWorld puts a lesson's map in the 3D view; the camera stays.
func (g *Game) showLessonWorld(m *terrain.Heightmap) {
	g.World = NewWorld(m)
	g.World.lesson = true
	g.gen.worldID = worldSerial.Add(1)
}

// updateTeach advances playback and rebuilds a lesson whose parameters
// changed in the Generator panel.
func (g *Game) updateTeach() {
	t := &g.teach
	if t.mode == teachOff {
		return
	}
	if g.Params != t.params {
		g.buildLesson()
	}
	switch t.mode {
	case teachErosion:
		g.updateErosionLesson()
		return
	case teachThermal, teachFluvial:
		g.updateWearLesson()
		return
	}
	if t.playing && t.stepper != nil {
		t.tick++
		if t.tick%30 == 0 {
			if t.k == len(t.stepper.Steps()) {
				t.playing = false
			} else {
				g.teachStep(1)
			}
		}
	}
}

// stageText is the formula of the current stage with its numbers.
func (g *Game) stageText() string {
	t := &g.teach
	if t.stepper == nil {
		return ""
	}
	steps := t.stepper.Steps()
	N := len(steps) / 2
	if t.k == 0 {
		return fmt.Sprintf("n = 0: the four corners (%s)\nstage 0 (0 of %d)", g.Params.Corners, len(steps)) + g.teach.pointText()
	}
	s := steps[t.k-1]
	what := map[string]string{
		terrain.StageEdges:   "edge midpoints = mean of the edge's ends + z",
		terrain.StageCentres: "centres = mean of the 4 edge midpoints + z",
		terrain.StageDiamond: "centres = mean of the square's corners + z",
		terrain.StageSquare:  "edge points = mean of the diamond's corners + z",
	}[s.Stage]
	points := "points"
	if len(s.Added) == 1 {
		points = "point"
	}
	// Lines of at most 50 characters: the panel's width.
	return fmt.Sprintf("Iteration n = %d of N = %d, %s stage\n(stage %s, %d of %d)\n%s\nd_n = 2^(N-n) = %d samples\nz = A·R·2^(-nH), R in [-1, 1]\n|z| <= %.4g m (A = %g m, H = %g)\n%d %s added (red); click one in the diagram",
		s.Iteration, N, s.Stage, lesson.StageLabel(t.k), t.k, len(steps), what, s.Spacing, s.Amplitude, g.Params.Amplitude, g.Params.Hurst, len(s.Added), points) + g.teach.pointText()
}

// pointText is how the generator computed the diagram point clicked, or
// "" when none is: its parents, their mean, R, z and the new height.
func (t *teachState) pointText() string {
	if t.picked == nil {
		return ""
	}
	v := t.point
	var b strings.Builder
	fmt.Fprintf(&b, "\n\nPoint (%d, %d), set at stage %s", v.X, v.Y, lesson.StageLabel(v.Stage))
	if v.Stage > t.k {
		b.WriteString(":\nnot computed yet at this stage")
		return b.String()
	}
	if len(v.Parents) == 0 {
		if v.R == 0 && v.Z == 0 {
			fmt.Fprintf(&b, ":\na corner, fixed: h = %.4g m", v.Height)
			return b.String()
		}
		fmt.Fprintf(&b, ":\na corner: h = A·R, R = %.4f\nh = %.4g m", v.R, v.Height)
		return b.String()
	}
	b.WriteString("\nparents:")
	for i, q := range v.Parents {
		fmt.Fprintf(&b, "\n  (%d, %d)  h = %.4g m", q[0], q[1], v.Heights[i])
	}
	fmt.Fprintf(&b, "\nmean = %.4g m\nR = %.4f, in [-1, 1]: z in [-%.4g, %.4g] m\nz = A·R·2^(-nH) = %.4g m\nh = mean + z = %.4g m",
		v.Mean, v.R, v.Amp, v.Amp, v.Z, v.Height)
	return b.String()
}

// octaveText is the fractal sum's formula, as its source writes it, with
// the numbers of the octave shown last.
func (g *Game) octaveText() string {
	t := &g.teach
	p := g.Params
	var b strings.Builder
	if f, ok := terrain.OctaveFormulas[p.Algorithm]; ok {
		b.WriteString(f.Source + ":\n" + strings.Join(f.Lines, "\n"))
		if f.Note != "" {
			b.WriteString("\n" + f.Note)
		}
	} else {
		b.WriteString(string(p.Algorithm) + ", octave by octave")
	}
	if tin := map[terrain.BasisTransform]string{
		terrain.RidgedBasis: "1 - |N|", terrain.BillowBasis: "|N|",
	}[p.BasisTransform]; tin != "" {
		b.WriteString("\nwith N replaced by T_in(N) = " + tin + "\n(thesis eq. 3.4, fig. 3.3)")
	}
	// The listing's bands is the octave count of the whole sum; the
	// lesson sums the first k of them.
	fmt.Fprintf(&b, "\nsummed: the first k = %d of bands = %d octaves\n(i = 0 … k−1), λ = %g, H = %g", t.octK, len(t.partials), p.Lacunarity, p.Hurst)
	if p.Algorithm == terrain.Hetero || p.Algorithm == terrain.Hybrid {
		fmt.Fprintf(&b, ", offset = %g", p.Offset)
	}
	if n := t.partials[0].Width; n != p.Size {
		// The lesson's map is made at its own size, not cut from the
		// world's: feature size is a share of the side.
		fmt.Fprintf(&b, "\nthe map made at %d², not the world's %d²", n, p.Size)
	}
	i := t.octK - 1
	o := g.octaveInfo(i)
	fmt.Fprintf(&b, "\noctave %d (i = %d): frequency λ^i = %.4g,\nwavelength %s = %.3g samples", t.octK, i, math.Pow(p.Lacunarity, float64(i)), o.formula, o.wavelength)
	if o.aliased {
		b.WriteString(": below 2 samples: aliased")
	}
	if p.Algorithm == terrain.Swiss {
		fmt.Fprintf(&b, "\namp <= λ^(-i·H) = %.4g", o.amp)
	} else {
		fmt.Fprintf(&b, "\nλ^(-i·H) = %.4g", o.amp)
	}
	return b.String()
}

// octave is what the lesson tells of one octave.
type octave struct {
	amp        float64 // λ^(−iH), the octave's scale factor in the listings
	wavelength float64 // in samples of the lesson's map
	formula    string  // how the wavelength comes about, with the lesson's numbers
	aliased    bool    // under 2 samples: past the Nyquist limit
}

// octaveInfo returns octave i's (0-based) scale factor and wavelength in
// the lesson's map.
func (g *Game) octaveInfo(i int) octave {
	p := g.Params
	p.Size = g.teach.partials[0].Width
	if p.Algorithm.IsSubdivision() {
		p.Algorithm = terrain.FBm
	}
	o := octave{amp: math.Pow(p.Lacunarity, -float64(i)*p.Hurst)}
	o.wavelength, _ = terrain.OctaveWavelength(p, i) // p made the lesson: it is valid
	// The first octave's period is size^(fs/100) samples, so the same
	// feature size gives different wavelengths at different sizes.
	o.formula = fmt.Sprintf("%d^(%g/100)/λ^%d", p.Size, p.FeatureSize, i)
	if p.Tileable {
		o.formula = fmt.Sprintf("(side/cells)/λ^%d", i) // whole lattice cells across the map
	}
	o.aliased = o.wavelength < 2
	return o
}

// octaveLabel is the caption under octave i's thumbnail: its number and
// scale factor, and a warning where the map's samples cannot hold it.
func (g *Game) octaveLabel(i int) string {
	o := g.octaveInfo(i)
	s := fmt.Sprintf("%d x%.3g", i+1, o.amp) // 0.125 in full, not 0.12
	if o.aliased {
		s += "\naliased"
	}
	return s
}

// octaveThumb draws an octave's contribution c as a thumbSide² grey image
// on the scale ±scale: mid-grey where the octave adds nothing, white where
// it adds scale or more, black where it takes scale or more away. The
// multifractals' later octaves add little beside their first, which
// carries the offset, so a scale from 0 keeps them readable where one
// from the first octave's lowest value would draw them black. One sample
// per pixel, the nearest: averaging would blur the fine octaves'
// amplitude away.
func octaveThumb(c *terrain.Heightmap, scale float64) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, thumbSide, thumbSide))
	for y := range thumbSide {
		row := (y*(c.Height-1) + (thumbSide-1)/2) / (thumbSide - 1)
		for x := range thumbSide {
			col := (x*(c.Width-1) + (thumbSide-1)/2) / (thumbSide - 1)
			v := 0.5
			if scale > 0 {
				v += 0.5 * float64(c.At(col, row)) / scale
			}
			grey := uint8(math.Round(255 * min(max(v, 0), 1)))
			o := img.PixOffset(x, y)
			img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = grey, grey, grey, 255
		}
	}
	return img
}

// Sizes and place of the teaching overlays, in pixels: below the HUD's
// three lines.
const (
	diagramSide = 200
	thumbSide   = 56
	teachTop    = 4*debugLineH + 4
)

// drawTeach draws the lesson's overlays: the added points in the 3D view
// and the grid diagram, or the octave thumbnails.
func (g *Game) drawTeach(screen *ebiten.Image) {
	t := &g.teach
	w, h := screen.Bounds().Dx(), screen.Bounds().Dy()
	switch {
	case t.mode == teachSubdivision && t.stepper != nil:
		if t.k > 0 {
			g.drawAddedPoints(screen, t.stepper.Steps()[t.k-1].Added)
		}
		if t.diagram == nil {
			t.diagram = g.teach.teachDiagram()
		}
		r := diagramRect(w)
		op := &ebiten.DrawImageOptions{}
		op.GeoM.Translate(float64(r.Min.X), float64(r.Min.Y))
		screen.DrawImage(t.diagram, op)
		label := "stage " + lesson.StageLabel(t.k)
		textBackdrop(screen, label, r.Min.X, r.Max.Y+2)
		ebitenutil.DebugPrintAt(screen, label, r.Min.X+3, r.Max.Y+2)
	case t.mode == teachErosion && t.erosion.m != nil:
		g.drawDropletPaths(screen)
		g.drawDroplet(screen)
	case t.mode == teachThermal && t.thermal.st != nil:
		g.drawThermal(screen)
	case t.mode == teachFluvial && t.fluvial.st != nil:
		g.drawFluvial(screen)
	case t.mode == teachCompare:
		g.drawCompare(screen)
	case t.mode == teachProfile:
		g.drawProfile(screen)
	case t.mode == teachOctaves:
		for i, rgb := range t.thumbRGB {
			if i >= len(t.thumbs) {
				t.thumbs = append(t.thumbs, ebiten.NewImageFromImage(rgb))
			}
			x := float32(w - (len(t.thumbRGB)-i)*(thumbSide+6) - 4)
			y := float32(teachTop)
			op := &ebiten.DrawImageOptions{}
			op.GeoM.Translate(float64(x), float64(y))
			if i >= t.octK {
				op.ColorScale.ScaleAlpha(0.35) // octaves not in the sum yet
			}
			screen.DrawImage(t.thumbs[i], op)
			if i == t.octK-1 {
				vector.StrokeRect(screen, x-1, y-1, thumbSide+2, thumbSide+2, 2, color.RGBA{255, 60, 60, 255}, false)
			}
			label := g.octaveLabel(i)
			textBackdrop(screen, label, int(x)-1, int(y)+thumbSide+2)
			ebitenutil.DebugPrintAt(screen, label, int(x)+2, int(y)+thumbSide+2)
		}
	}
	_ = h
}

// drawAddedPoints marks the points the current stage added, as red dots at
// their place in the 3D view, all in one path.
func (g *Game) drawAddedPoints(screen *ebiten.Image, added [][2]int) {
	vr := g.viewRect(screen.Bounds().Dx(), screen.Bounds().Dy())
	ox, oy := float32(vr.Min.X), float32(vr.Min.Y)
	cell := lessonCell(teachSizes[g.teach.sizeIdx])
	m := g.World.Map
	p := newProjector(viewProjection(g.Camera, vr.Dx(), vr.Dy()), vr.Dx(), vr.Dy(), g.Camera.Near)
	var path vector.Path
	for _, a := range added {
		x, z := float64(a[0])*cell, float64(a[1])*cell
		pos := mgl32.Vec3{float32(x), float32(m.GroundHeight(x, z)), float32(z)}
		if p.clipW(pos) < p.near {
			continue
		}
		v := p.vertex(surfaceVertex{pos: pos})
		sx, sy := ox+v.DstX, oy+v.DstY
		path.MoveTo(sx+4, sy)
		path.Arc(sx, sy, 4, 0, 2*math.Pi, vector.Clockwise)
		path.Close()
	}
	op := &vector.DrawPathOptions{AntiAlias: true}
	op.ColorScale.ScaleWithColor(color.RGBA{230, 30, 30, 255})
	vector.FillPath(screen.SubImage(vr).(*ebiten.Image), &path, nil, op) // clipped to the view
}

// diagramRect is where the step-through diagram is on a screen w wide.
func diagramRect(w int) image.Rectangle {
	return image.Rect(w-diagramSide-10, teachTop, w-10, teachTop+diagramSide)
}

// diagramPoint returns the centre of lattice point (x, y) of a size²
// map in the diagram, relative to its top-left corner, and the points'
// spacing.
func diagramPoint(size, x, y int) (cx, cy, step float64) {
	step = float64(diagramSide-20) / float64(size-1)
	return 10 + float64(x)*step, 10 + float64(y)*step, step
}

// pickDiagramPoint shows how the lattice point under the screen position
// (x, y) was computed, if the step-through diagram is there and a point
// is within half a spacing of it; it reports whether the diagram took the
// click.
func (g *Game) pickDiagramPoint(x, y int) bool {
	t := &g.teach
	if g.pickWearSample(x, y) {
		return true
	}
	r := diagramRect(g.ui.w)
	if t.mode != teachSubdivision || t.stepper == nil || !image.Pt(x, y).In(r) {
		return false
	}
	size := teachSizes[t.sizeIdx]
	_, _, step := diagramPoint(size, 0, 0)
	i := int(math.Round((float64(x-r.Min.X) - 10) / step))
	j := int(math.Round((float64(y-r.Min.Y) - 10) / step))
	if i < 0 || j < 0 || i >= size || j >= size {
		return true // on the diagram's margin: nothing to pick, but not a drag either
	}
	g.pickPoint(i, j)
	return true
}

// pickWearSample shows the thermal or fluvial lesson's numbers for the
// sample under the screen position (x, y), if one of the lesson's maps is
// there (or, in the thermal lesson, the neighbour clicked in the 3×3
// diagram); it reports whether a diagram took the click.
func (g *Game) pickWearSample(x, y int) bool {
	t := &g.teach
	var m *terrain.Heightmap
	var pick func(x, y int)
	maps := []image.Rectangle{thirdDiagramRect(g.ui.w), secondDiagramRect(g.ui.w)}
	switch {
	case t.mode == teachThermal && t.thermal.st != nil:
		th := &t.thermal
		m, pick = th.m, th.pick
		if c := diagramRect(g.ui.w); image.Pt(x, y).In(c) { // a neighbour in the 3×3 cells
			pick(th.x+(x-c.Min.X)*3/diagramSide-1, th.y+(y-c.Min.Y)*3/diagramSide-1)
			return true
		}
	case t.mode == teachFluvial && t.fluvial.st != nil:
		m, pick = t.fluvial.m, t.fluvial.pick
		maps = append(maps, diagramRect(g.ui.w))
	default:
		return false
	}
	for _, r := range maps {
		if image.Pt(x, y).In(r) {
			// fieldImage's nearest cell for the pixel clicked.
			pick((x-r.Min.X)*m.Width/diagramSide, (y-r.Min.Y)*m.Width/diagramSide)
			return true
		}
	}
	return false
}

// pickPoint shows how lattice point (i, j) was computed, as a click on it
// in the diagram does.
func (g *Game) pickPoint(i, j int) {
	t := &g.teach
	v, err := t.stepper.Point(i, j)
	if err != nil {
		g.ui.fail(err)
		return
	}
	t.picked, t.point = &[2]int{i, j}, v
	g.teach.redrawDiagram()
}

// teachDiagram draws the (2^N+1)² lattice like paper 003's 5×5 figure, on
// the CPU: set points grey, the current stage's points red, points still to
// come as faint dots; a point clicked is ringed in yellow, joined to its
// parents.
func (t *teachState) teachDiagram() *ebiten.Image {
	img := image.NewRGBA(image.Rect(0, 0, diagramSide, diagramSide))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = 20, 20, 24, 230
	}
	_, set := t.stepper.State(t.k)
	size := teachSizes[t.sizeIdx]
	added := map[[2]int]bool{}
	if t.k > 0 {
		for _, a := range t.stepper.Steps()[t.k-1].Added {
			added[a] = true
		}
	}
	_, _, step := diagramPoint(size, 0, 0)
	r := math.Max(math.Min(step/3, 5), 1)
	disc := func(cx, cy, r float64, c color.RGBA) {
		for y := int(cy - r - 1); y <= int(cy+r+1); y++ {
			for x := int(cx - r - 1); x <= int(cx+r+1); x++ {
				if a := math.Min(1, math.Max(0, r+0.5-math.Hypot(float64(x)-cx, float64(y)-cy))); a > 0 && image.Pt(x, y).In(img.Rect) {
					o := img.PixOffset(x, y)
					for k, v := range [3]uint8{c.R, c.G, c.B} {
						img.Pix[o+k] = uint8(float64(img.Pix[o+k])*(1-a) + float64(v)*a)
					}
				}
			}
		}
	}
	yellow := color.RGBA{255, 215, 0, 255}
	if p := t.picked; p != nil && t.point.Stage <= t.k {
		px, py, _ := diagramPoint(size, p[0], p[1])
		for _, q := range t.point.Parents { // a line of discs: the image has no line drawing
			qx, qy, _ := diagramPoint(size, q[0], q[1])
			for s := 0.0; s <= 1; s += 1 / math.Max(math.Hypot(qx-px, qy-py), 1) {
				disc(px+(qx-px)*s, py+(qy-py)*s, 0.8, yellow)
			}
		}
	}
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			cx, cy, _ := diagramPoint(size, x, y)
			switch {
			case added[[2]int{x, y}]:
				disc(cx, cy, r+1, color.RGBA{235, 40, 40, 255})
			case set[y*size+x]:
				disc(cx, cy, r, color.RGBA{200, 200, 200, 255})
			default:
				disc(cx, cy, math.Max(r/2, 1), color.RGBA{80, 80, 90, 255})
			}
		}
	}
	if p := t.picked; p != nil {
		cx, cy, _ := diagramPoint(size, p[0], p[1])
		for a := 0.0; a < 2*math.Pi; a += 0.05 { // a ring around it
			disc(cx+(r+3)*math.Cos(a), cy+(r+3)*math.Sin(a), 0.8, yellow)
		}
	}
	return ebiten.NewImageFromImage(img)
}
