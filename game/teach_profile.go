package game

import (
	"context"
	"fmt"
	"image/color"
	"math"

	"github.com/ebitengine/debugui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"cordillera/terrain"
)

// The profile lesson, for a first lecture: 1-D midpoint displacement
// subdivided iteration by iteration, and 1-D fBm summed octave by octave
// (terrain.MidpointProfile, terrain.ProfileOctaves), drawn as two plots
// over the 3D view, which shows the 2-D midpoint map whose near edge the
// profile is.

// profileSamples is the number of points of the 1-D fBm profile: enough
// for the finest of the default 8 octaves to be more than 2 samples long.
const profileSamples = 1025

// profileLesson is what the profile lesson shows.
type profileLesson struct {
	pr    *terrain.Profile
	parts [][]float64 // fBm partial sums, 1 … octaves
	n     int         // the midpoint iterations shown, 0 … N
	octK  int         // the octaves summed, 1 … len(parts)
}

// buildProfile makes both profiles from p at the lesson's size, and the
// 2-D midpoint map whose edge the midpoint profile is.
func (g *Game) buildProfile(p terrain.Params) {
	t := &g.teach
	pl := &t.profile
	size := teachSizes[t.sizeIdx]
	pr, err := terrain.MidpointProfile(p, size)
	if err != nil {
		g.ui.fail(err)
		return
	}
	q := p
	if q.Algorithm.IsSubdivision() {
		q.Algorithm = terrain.FBm
	}
	parts, err := terrain.ProfileOctaves(q, profileSamples)
	if err != nil {
		g.ui.fail(err)
		return
	}
	pl.pr, pl.parts, pl.n, pl.octK = pr, parts, pr.N, len(parts)
	q = p
	q.Algorithm, q.Size = terrain.Midpoint, size
	st, err := terrain.SubdivisionSteps(context.Background(), q)
	if err != nil {
		g.ui.fail(err)
		return
	}
	raw, _ := st.State(len(st.Steps()))
	lo, hi := raw.Range()
	g.showLessonWorld(stageGrid(st, len(st.Steps()), lo, hi))
	g.frameLesson()
}

// profilePanel is the profile lesson's part of the Teach panel.
func (g *Game) profilePanel(ctx *debugui.Context) {
	pl := &g.teach.profile
	if pl.pr == nil {
		return
	}
	g.sizeRow(ctx)
	ctx.SetGridLayout([]int{specLabelW, -1}, nil)
	ctx.Text("Iteration n")
	n := pl.n
	ctx.Slider(&n, 0, pl.pr.N, 1).On(func() { pl.n = n })
	ctx.Text("Octaves summed")
	k := pl.octK
	ctx.Slider(&k, 1, len(pl.parts), 1).On(func() { pl.octK = k })
	ctx.SetGridLayout([]int{-1}, nil)
	ctx.Text(g.profileText())
}

// profileText is the two formulas with the numbers of the state shown.
func (g *Game) profileText() string {
	pl := &g.teach.profile
	p := g.Params
	d := (len(pl.pr.Heights) - 1) >> max(pl.n, 0)
	s := fmt.Sprintf("1-D midpoint displacement (notes eq. 1-2):\nh(x) = (h(x-d_n) + h(x+d_n))/2 + z\nz = A·R·2^(-nH), R in [-1, 1]\nn = %d of N = %d: d_n = 2^(N-n) = %d\n|z| <= %.4g m (A = %g m, H = %g)",
		pl.n, pl.pr.N, d, pl.pr.Amplitude[pl.n], p.Amplitude, p.Hurst)
	i := pl.octK - 1
	s += fmt.Sprintf("\n\n1-D fBm (thesis listing 6.1, eq. 6.1):\nf(x) = sum over i < k of N(λ^i x)·λ^(-iH)\nk = %d of %d, λ = %g, H = %g\noctave i = %d: λ^i = %.4g, λ^(-iH) = %.4g",
		pl.octK, len(pl.parts), p.Lacunarity, p.Hurst, i, math.Pow(p.Lacunarity, float64(i)), terrain.ProfileAmplitude(p, i))
	return s
}

// The profile plots' colours.
var (
	profileBack    = color.RGBA{16, 18, 22, 225}
	profileOld     = color.RGBA{110, 110, 120, 255}
	profileNow     = color.RGBA{240, 240, 240, 255}
	profileNew     = color.RGBA{235, 40, 40, 255}
	profileOctave  = color.RGBA{255, 170, 40, 255}
	profilePlotH   = 190
	profileMaxW    = 760
	profileTextW   = 290 // the lesson text's width, right of the plots
	profileCaption = 2 * debugLineH
)

// drawProfile draws the two plots at the top left of the 3D view,
// leaving its right part to the lesson's text (a screenshot's).
func (g *Game) drawProfile(screen *ebiten.Image) {
	pl := &g.teach.profile
	if pl.pr == nil {
		return
	}
	vr := g.viewRect(screen.Bounds().Dx(), screen.Bounds().Dy())
	w := max(min(vr.Dx()-profileTextW-30, profileMaxW), 200)
	x0, y0 := float32(vr.Min.X+10), float32(teachTop)
	fw := float32(w)
	ph := float32(profilePlotH)

	// 1-D midpoint displacement: the previous iteration grey, this one
	// white, its new points red.
	vector.FillRect(screen, x0, y0, fw, ph+float32(profileCaption), profileBack, false)
	pr := pl.pr
	lo, hi := rangeOf32(pr.Heights)
	last := float64(len(pr.Heights) - 1)
	at := func(x, h float64) (float32, float32) {
		return x0 + 10 + float32(x/last)*(fw-20), y0 + ph - 10 - float32((h-lo)/math.Max(hi-lo, 1e-9))*(ph-20)
	}
	if pl.n > 0 {
		polyline(screen, pr.At(pl.n-1), at, profileOld, 1.5)
	}
	polyline(screen, pr.At(pl.n), at, profileNow, 2)
	for x, it := range pr.Iteration {
		if it == pl.n {
			sx, sy := at(float64(x), float64(pr.Heights[x]))
			vector.FillCircle(screen, sx, sy, 3.5, profileNew, true)
		}
	}
	label := fmt.Sprintf("1-D midpoint displacement, n = %d of %d: %d points set (new in red)\nh(x) = (h(x-d) + h(x+d))/2 + A·R·2^(-nH),  d = %d", pl.n, pr.N, len(pr.At(pl.n)), (len(pr.Heights)-1)>>max(pl.n, 0))
	drawPanelText(screen, label, int(x0)+6, int(y0+ph)-2, profileNow)

	// 1-D fBm: the partial sum of k octaves white, of k−1 grey, octave
	// k's term orange about its own zero line.
	y1 := y0 + ph + float32(profileCaption) + 8
	vector.FillRect(screen, x0, y1, fw, ph+float32(profileCaption), profileBack, false)
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, part := range pl.parts {
		for _, v := range part {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	n := float64(len(pl.parts[0]) - 1)
	atF := func(x, h float64) (float32, float32) {
		return x0 + 10 + float32(x/n)*(fw-20), y1 + ph - 10 - float32((h-lo)/math.Max(hi-lo, 1e-9))*(ph-20)
	}
	series := func(v []float64, shift float64) [][2]float64 {
		out := make([][2]float64, len(v))
		for i, h := range v {
			out[i] = [2]float64{float64(i), h + shift}
		}
		return out
	}
	k := pl.octK
	if k > 1 {
		polyline(screen, series(pl.parts[k-2], 0), atF, profileOld, 1.5)
	}
	polyline(screen, series(pl.parts[k-1], 0), atF, profileNow, 2)
	term := make([]float64, len(pl.parts[k-1]))
	for i := range term {
		term[i] = pl.parts[k-1][i]
		if k > 1 {
			term[i] -= pl.parts[k-2][i]
		}
	}
	// The term about the plot's middle, on the sums' scale, so that its
	// size beside the sum is the weight λ^(−iH); the first octave is the
	// sum itself.
	i := k - 1
	what := fmt.Sprintf("k-1 grey; octave i = %d orange, x%.3g", i, terrain.ProfileAmplitude(g.Params, i))
	if k > 1 {
		polyline(screen, series(term, (lo+hi)/2), atF, profileOctave, 1.5)
	} else {
		what = "octave i = 0 alone, x1"
	}
	label = fmt.Sprintf("1-D fBm, k = %d of %d octaves (white; %s)\nf(x) = sum over i < k of N(λ^i x)·λ^(-iH)", k, len(pl.parts), what)
	drawPanelText(screen, label, int(x0)+6, int(y1+ph)-2, profileNow)
}

// polyline strokes the points through at, in order.
func polyline(screen *ebiten.Image, pts [][2]float64, at func(x, h float64) (float32, float32), c color.RGBA, width float32) {
	var path vector.Path
	for i, p := range pts {
		x, y := at(p[0], p[1])
		if i == 0 {
			path.MoveTo(x, y)
		} else {
			path.LineTo(x, y)
		}
	}
	op := &vector.StrokeOptions{Width: width, LineJoin: vector.LineJoinRound}
	dop := &vector.DrawPathOptions{AntiAlias: true}
	dop.ColorScale.ScaleWithColor(c)
	vector.StrokePath(screen, &path, op, dop)
}

// rangeOf32 is the lowest and highest of v.
func rangeOf32(v []float32) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, h := range v {
		lo, hi = math.Min(lo, float64(h)), math.Max(hi, float64(h))
	}
	return lo, hi
}
