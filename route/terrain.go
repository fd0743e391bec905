package route

import (
	"context"
	"cordillera/internal/parallel"
	"cordillera/route/internal/corridor"
	"cordillera/route/road"
	"cordillera/route/track"
	"cordillera/terrain"
	"fmt"
	"math"
	"sync"
)

// SolvedPoint is one constraint point of a route terrain: X (column) and Y
// (row) in map samples, and its Target and actual Height in the map's
// normalised units (0 = black, 1 = white; Height is the bilinear
// interpolation of the four samples around the point).
type SolvedPoint struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Target float64 `json:"target"`
	Height float64 `json:"height"`
}

// Result is a route terrain and how well it meets its route.
type Result struct {
	Map *terrain.Heightmap

	// Path is the prepared track, resampled every half sample: the line to
	// draw on the terrain. Its elevations are metres; Base +
	// h·Map.VerticalScale turns a map height h into metres.
	Path *track.Path
	Base float64 // elevation in metres of map height 0

	// RoadWidth is the width in metres of the level road made along Path,
	// 0 for none: the explorer draws the route as that road.
	RoadWidth float64

	// Points are the points the terrain was solved to pass through, every
	// Spacing samples along the track (Merged points of different passes
	// closer than Spacing went into one, with the mean of their targets).
	Points              []SolvedPoint
	Spacing             float64
	Merged              int
	MaxError, MeanError float64 // |Height − Target| over Points

	// TrackMaxError and TrackMeanError compare the map with the track's own
	// elevation all along Path, between the points as well: detail finer
	// than the finest lattice cannot be followed.
	TrackMaxError, TrackMeanError float64

	Ridge float64 // Tikhonov term the solve needed; 0 when it is exact

	// LapShift is the largest change, in metres, that reconciling passes
	// of the track made to its elevations (harmoniseLaps).
	LapShift float64
	// Bounds is the relief rule the map keeps. Amplitude is the metres per
	// unit of the turbulence the map was made with, FittedAmplitude the
	// one fitted to the track's roughness before the rule lowered it.
	Bounds                     reliefBounds
	Amplitude, FittedAmplitude float64
	// Falloff is β of the random parts' weights Amplitude·β^level
	// (spectrum; 1 when the fine levels were not damped).
	Falloff float64

	// creaseReach is the corridor, in samples either side of the track,
	// that the route's work changed (the road and its shoulders, or
	// followTrack's kernel): where CreaseRatio looks for a crease.
	creaseReach float64
	// prepared is the track as Prepare left it, track the track as read,
	// and params the map's
	// parameters: what CheckTrack's advice is worked out from.
	prepared   *track.Path
	track      *track.Track
	params     terrain.Params
	creaseMu   sync.Mutex
	crease     float64 // CreaseRatio's measurement, once made
	creaseDone bool
}

// CreaseRatio is the 99th-percentile curvature within the route's
// corridor over that of the ground outside it (corridor.CreaseRatio). It is
// measured on the first call, on all cores, and kept; a call whose ctx is
// done returns ctx.Err() and leaves the measurement to the next.
func (r *Result) CreaseRatio(ctx context.Context) (float64, error) {
	r.creaseMu.Lock()
	defer r.creaseMu.Unlock()
	if !r.creaseDone {
		ratio, err := corridor.CreaseRatio(ctx, r.Map, r.Path, r.creaseReach)
		if err != nil {
			return 0, err
		}
		r.crease, r.creaseDone = ratio, true
	}
	return r.crease, nil
}

// minFollowReach is the least distance, in samples, over which
// followTrack's correction fades. Otherwise it fades over half the
// solve's spacing (half a finest lattice cell): a wider kernel would blend
// the track's climbs between the points away (munich-edge800-bike.gpx
// misses its track by 2.8 m at a full cell, 1.2 m at half), a narrower
// one bends the ground along the route more sharply than anywhere else on
// the map.
const minFollowReach = 4.0

// minRelief is the smallest amplitude, in metres, of the route terrain: a
// perfectly flat route still lies in a gently rolling plain.
const minRelief = 1.0

// maxConstraints bounds the solved points: A Aᵀ has one row and column per
// point, so 6000 points take 288 MB and a few seconds to factorise. Longer
// routes are solved at a coarser spacing.
const maxConstraints = 6000

// CheckParams reports whether p can shape a route terrain: the route
// terrain is paper 002's turbulence (fBm with λ 2 and H 1 over a value
// lattice), so another generator or a post-effect that would move the
// route off its heights is an error.
func CheckParams(p terrain.Params) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if p.Algorithm != terrain.FBm {
		return fmt.Errorf("algorithm %s cannot follow a route: the route terrain is paper 002's turbulence (set with -levels and -interpolation)", p.Algorithm)
	}
	if p.Effect != terrain.NoEffect {
		return fmt.Errorf("effect %s cannot be used with a route: it would move the terrain off the route's heights", p.Effect)
	}
	if levels := p.RouteLevels(); 1<<(levels-1) > p.Size-1 {
		return fmt.Errorf("levels %d needs a map of at least %d samples per side (the finest lattice must not be finer than the map); lower -levels or raise -size",
			levels, 1<<(levels-1)+1)
	}
	return nil
}

// Generate makes a terrain that passes through a GPS track (Gasch et
// al., paper 002): the track is prepared (Prepare: projected, fitted
// into the map with p.RouteMargin, median-filtered over p.RouteMedian
// points), points are taken every finest-lattice cell along it, and the
// turbulence of p.RouteLevels() lattice levels (p.Interpolation), drawn from
// p.Seed, is corrected to meet every point's elevation exactly
// (turbulence.constrain). Its amplitude is fitted so that the terrain is
// as rough as the track (times p.RouteRelief, fitAmplitude).
// A road of p.RoadWidth metres is then levelled along the track.
//
// The map is normalised to [0, 1] like every map, with CellSize and
// VerticalScale in metres: the track's elevations are kept, as
// Result.Base + h·VerticalScale. It uses all cores and returns
// ctx.Err() soon after ctx is done.
func Generate(ctx context.Context, p terrain.Params, t *track.Track, progress terrain.Progress) (*Result, error) {
	return GenerateWith(ctx, p, t, nil, progress)
}

// prepareOptions are the options Prepare fits a track into a map of p with.
func prepareOptions(p terrain.Params) track.Options {
	return track.Options{Size: p.Size, Margin: p.RouteMargin / 100, MinCellSize: p.CellSize,
		MedianWindow: p.RouteMedian, KeepAll: p.RouteKeepAll}
}

// Stage is work done on the route terrain between the solve and the road:
// the pipeline's erosion. m holds heights in units of the route turbulence
// with CellSize and VerticalScale in metres, as any map; the stage may
// change its samples but not its size.
type Stage func(ctx context.Context, m *terrain.Heightmap) error

// How far along the route terrain's work is, as a share of its time, when
// each of its steps ends: measured in CPU time on the real tracks of
// ../shared/data at the default 1025², whose shares vary by about a tenth
// either way (a long track's solve takes more, a short one's follow
// step). The follow step is a third of the time, so it is not left out of
// the bar: it ends at StageAt, where a stage runs.
const (
	routePrepared = 0.01 // the track prepared and its laps reconciled
	routeSolved   = 0.35 // the points' system factorised and solved
	routeShaped   = 0.39 // the interpolant rendered
	routeWeighed  = 0.60 // the random parts weighed against the relief rule
	routeRendered = 0.62 // the random lattice rendered and added
	routeAdded    = 0.63
	// StageAt is the share of GenerateWith's progress done when its stage
	// begins (the map solved and brought onto the track); what follows
	// the stage (the points met again, the road) is the rest.
	StageAt = 0.97
	// routeReconstrained is where meeting the points again after a stage
	// ends: three quarters of the work after it.
	routeReconstrained = StageAt + 0.75*(1-StageAt)
)

// GenerateWith is Generate with a stage run on the solved terrain before
// the road is levelled: the route's points are then met again by the
// smallest lattice correction that restores them (reconstrain), so the
// stage cannot move the terrain off the track. progress receives the
// share of the work done, the stage's own time left out: it stands at
// StageAt while the stage runs.
func GenerateWith(ctx context.Context, p terrain.Params, t *track.Track, stage Stage, progress terrain.Progress) (*Result, error) {
	if err := CheckParams(p); err != nil {
		return nil, err
	}
	report := func(f float64) {
		if progress != nil {
			progress(f)
		}
	}
	report(0)
	// Nothing below changes the prepared path (Densify and Resample copy
	// it), so Precheck's can be taken as it is.
	opt := prepareOptions(p)
	path := t.Prepared(opt)
	var err error
	if path == nil {
		if path, err = track.Prepare(t, opt); err != nil {
			return nil, err
		}
	}
	prepared := path
	// One point per finest lattice cell along the track: the lattice
	// cannot follow detail finer than that, and denser points on a
	// straight stretch would ask more of it than it has values for.
	levels := p.RouteLevels()
	spacing := solveSpacing(path, float64(p.Size-1)/float64(cells(levels-1)))
	// Passes are reconciled where they come within lapRadius of each
	// other (lapSamples), then where they come closer, at a half and a
	// quarter of it: on the track with points inserted at an eighth of the
	// solve's spacing, so that a crossing between two recorded points is
	// reconciled where it lies.
	path = path.Densify(spacing / 8)
	lapR := lapSamples(path)
	lapShift := max(harmoniseLaps(path, lapR), harmoniseLaps(path, max(lapR/2, 2)), harmoniseLaps(path, max(lapR/4, 2)))
	bounds := newReliefBounds(path, referenceSpacing(p.Size, spacing), p.RouteRelief)
	report(routePrepared)
	m, fit, err := routeTerrain(ctx, routeProblem{size: p.Size, levels: levels, interp: p.Interpolation, seed: p.Seed,
		path: path.Resample(spacing), spacing: spacing, relief: p.RouteRelief, bounds: bounds}, progress)
	if err != nil {
		return nil, err
	}
	// The map follows the track between the points before the stage: what
	// the stage does between them stays, only the points are met again.
	track := path.Resample(path.LineSpacing(0.5))
	soften := func(m *terrain.Heightmap) { bounds.soften(m, fit.z0, fit.amp) }
	maxRange := bounds.MaxRange + trackTolerance(track)
	floor := bounds.floor()
	if err := follow(ctx, m, track, fit, max(spacing/2, minFollowReach), maxRange, floor, soften); err != nil {
		return nil, err
	}
	report(StageAt)
	if stage != nil {
		m.CellSize, m.VerticalScale = path.CellSize, fit.amp
		if err := stage(ctx, m); err != nil {
			return nil, err
		}
		if err := reconstrain(ctx, m, fit); err != nil {
			return nil, err
		}
		report(routeReconstrained)
	}
	// The crease ratio looks at all the ground the follow step or the
	// road changed: the follow kernel's reach, or the road's and its
	// shoulder's.
	creaseReach := float64(corridor.NewKernel(max(spacing/2, minFollowReach)).Radius())
	if p.RoadWidth > 0 {
		hw := p.RoadWidth / path.CellSize / 2
		span := spanMetres(m, fit)
		reach, err := road.Road{HalfWidth: hw, Away: creaseReach, RawCentreline: rawRoadCentreline}.Apply(ctx, m, track)
		if err != nil {
			return nil, err
		}
		// The road moved the ground at the route's points too: the
		// lattice correction meets them again, smooth as the turbulence.
		if err := reconstrain(ctx, m, fit); err != nil {
			return nil, err
		}
		creaseReach = max(creaseReach, reach)
		// The lattice correction that meets the points again after the
		// road can swing the ground beyond the relief rule's range, as the
		// follow step's can (follow); the rule's tanh squashes it back,
		// leaving the track's heights, and so the road, alone
		// (korita-zbevnica.gpx at 513² with a 10 m road spanned 1091 m
		// against the rule's 1072 m, and was refused).
		if _, err := keepRange(ctx, m, fit, max(maxRange, span), floor, soften); err != nil {
			return nil, err
		}
	}
	// The stage and the road may dig below the floor, and the lattice
	// correction that meets the points again after a squash may dip a
	// little below it beside a track that lies on it (a coastal track at
	// 0 m): squashed once more, what is still below is raised onto it.
	// Only ground below the track's lowest point moves.
	if _, err := keepRange(ctx, m, fit, math.Inf(1), floor, soften); err != nil {
		return nil, err
	}
	floorT := float32((floor - fit.z0) / fit.amp)
	for i, v := range m.Samples {
		m.Samples[i] = max(v, floorT)
	}

	// Normalise T onto [0, 1]; the targets follow.
	lo, hi := m.Range()
	tLo, span := float64(lo), float64(hi)-float64(lo)
	err = parallel.Rows(ctx, m.Height, nil, 0, 0, func(row int) {
		line := m.Samples[row*m.Width : (row+1)*m.Width]
		for i, v := range line {
			line[i] = float32((float64(v) - tLo) / span)
		}
	})
	if err != nil {
		return nil, err
	}
	m.CellSize = path.CellSize
	m.VerticalScale = fit.amp * span
	res := &Result{Map: m, Path: track, Base: fit.z0 + fit.amp*tLo, Spacing: spacing, Merged: fit.merged,
		Ridge: fit.sys.Ridge, LapShift: lapShift, Bounds: *bounds, Amplitude: fit.amp, FittedAmplitude: fit.fitted, Falloff: fit.beta, creaseReach: creaseReach, RoadWidth: p.RoadWidth,
		prepared: prepared, track: t, params: p}
	for _, c := range fit.cons {
		rp := SolvedPoint{X: c.X, Y: c.Y, Target: (c.T - tLo) / span, Height: corridor.Bilinear(m, c.X, c.Y)}
		res.Points = append(res.Points, rp)
		e := math.Abs(rp.Height - rp.Target)
		res.MaxError = max(res.MaxError, e)
		res.MeanError += e / float64(len(fit.cons))
	}
	n := track.Points()
	for _, seg := range track.Segments {
		for _, q := range seg {
			e := math.Abs(corridor.Bilinear(m, q.X, q.Y) - (q.Ele-res.Base)/m.VerticalScale)
			res.TrackMaxError = max(res.TrackMaxError, e)
			res.TrackMeanError += e / float64(n)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	report(1)
	return res, nil
}

// routeFit is how routeTerrain met its points.
type routeFit struct {
	cons    []Constraint // the points, with their targets in units of T
	merged  int          // points merged into a point of another pass
	z0, amp float64      // elevation = z0 + amp·T, in metres
	beta    float64      // the random parts' falloff: part p weighs amp·β^p
	fitted  float64      // the amplitude fitAmplitude asked for, metres
	sys     *constraintSystem
	turb    *turbulence // the solved lattice
}

// routeProblem is what routeTerrain solves: the turbulence of a size² map
// of levels lattice levels, interpolated by interp and drawn from seed,
// through the points of path (map samples, elevations in metres, evenly
// spaced every spacing samples along each segment), as rough as the route
// times relief, and within the relief rule's bounds where they are given.
type routeProblem struct {
	size, levels int
	interp       terrain.Interpolation
	seed         int64
	path         *track.Path
	spacing      float64
	relief       float64
	bounds       *reliefBounds // nil: paper 002's turbulence, unbounded
}

// routeTerrain is the core of Generate: the turbulence T over a
// size² map, drawn from seed and corrected to pass through the points of
// path, merged where passes meet (mergePasses). The amplitude is
// fitted so that the route is as rough as the terrain (fitAmplitude),
// times relief, and, with bounds, the random levels are weighed so that
// the map keeps the relief rule (reliefBounds.weights). The map holds T
// itself, not normalised.
//
// The solved map is linear in the random lattice r: in metres it is
//
//	z0 + K(e − z0) + Σ_p A·β^p·(r_p − Aᵀ(AAᵀ)⁻¹A r_p)
//
// the minimum-norm interpolant K of the elevations, plus each level's
// random values r_p with their values at the points removed, weighted by
// the amplitude A and the falloff β (spectrum). One factorisation solves
// for all of them; the interpolant is rendered once, the parts are read
// at the points the rule is judged on while A and β are chosen, and the
// random lattice is rendered once at its weights. Without bounds β is 1
// and A the fitted amplitude: paper 002's turbulence.
func routeTerrain(ctx context.Context, rp routeProblem, progress terrain.Progress) (*terrain.Heightmap, routeFit, error) {
	var fit routeFit
	turb, err := newTurbulence(rp.size, rp.levels, rp.interp, rp.seed)
	if err != nil {
		return nil, fit, err
	}
	elev, err := fit.fitPoints(ctx, turb, rp)
	if err != nil {
		return nil, fit, err
	}
	shape, parts := fit.solveParts(turb, elev, min(rp.levels, maxSpectrumParts))
	if progress != nil {
		progress(routeSolved)
	}
	mI, err := shape.render(ctx, progress, routeSolved, routeShaped-routeSolved)
	if err != nil {
		return nil, fit, err
	}
	bounds := rp.bounds
	// The interpolant of a track far smaller than its map runs on past the
	// track's ends (korita-zbevnica.gpx: 2996 m of range on a 16 km map
	// about a 324 m track); it is softened before the random parts are
	// added, so that they are not flattened in soften's tails with it.
	if bounds != nil {
		for i, v := range mI.Samples {
			mI.Samples[i] = float32(bounds.squash(fit.z0+float64(v)) - fit.z0)
		}
	}
	fit.amp, fit.beta = fit.fitted, 1
	if bounds != nil {
		s, err := newSpectrum(ctx, rp.size, shape, parts, func(h float64) float64 { return bounds.squash(fit.z0+h) - fit.z0 })
		if err != nil {
			return nil, fit, err
		}
		fit.amp, fit.beta = bounds.weights(s, fit.z0, fit.fitted)
	}
	// The random lattice, in units of T (metres = z0 + amp·T): every part
	// at its weight β^p.
	w := 1.0
	for n := range turb.values {
		clear(turb.values[n])
	}
	for _, part := range parts {
		for n, v := range part.values {
			for k, x := range v {
				turb.values[n][k] += w * x
			}
		}
		w *= fit.beta
	}
	if progress != nil {
		progress(routeWeighed)
	}
	m, err := turb.render(ctx, progress, routeWeighed, routeRendered-routeWeighed)
	if err != nil {
		return nil, fit, err
	}
	for i, v := range mI.Samples {
		m.Samples[i] = float32(float64(v)/fit.amp + float64(m.Samples[i]))
	}
	// The weights keep the range on their grid of points; soften again
	// only where the full map exceeds it or its floor, as softening the softened
	// interpolant's tails again would flatten the random parts there.
	if lo, hi := m.Range(); bounds != nil && bounds.breaks(fit.z0+fit.amp*float64(lo), fit.z0+fit.amp*float64(hi)) {
		bounds.soften(m, fit.z0, fit.amp)
	}
	for n := range turb.values {
		for k, v := range shape.values[n] {
			turb.values[n][k] += v / fit.amp
		}
	}
	for i := range elev {
		fit.cons[i].T = (elev[i] - fit.z0) / fit.amp
	}
	fit.turb = turb
	if progress != nil {
		progress(routeAdded)
	}
	return m, fit, nil
}

// fitPoints sets the route's points, merged where passes meet, as fit's
// constraints on turb, solves for their system, and fits the mean
// elevation z0 and the amplitude the route asks for. It returns the
// points' elevations, metres.
func (fit *routeFit) fitPoints(ctx context.Context, turb *turbulence, rp routeProblem) ([]float64, error) {
	path, spacing := rp.path, rp.spacing
	var points []track.Sample
	points, fit.merged, _ = mergePasses(path, mergeRadius(path, spacing))
	fit.cons = make([]Constraint, len(points))
	elev := make([]float64, len(points))
	for i, q := range points {
		fit.cons[i] = Constraint{X: q.X, Y: q.Y}
		elev[i] = q.Ele
	}
	var err error
	if fit.sys, err = turb.system(ctx, fit.cons); err != nil {
		return nil, err
	}
	var ml float64
	fit.z0, ml = fit.sys.fitElevation(elev)
	// The variogram is read at a level-7 spacing at the finest: finer
	// points see GPS noise, and the amplitude would grow with -levels. A
	// track too short for one pair of points there (under a level-7 cell)
	// is fitted at the solve's spacing instead (fitAmplitude), not left
	// at the floor.
	fitted := false
	if refSpacing := referenceSpacing(rp.size, spacing); spacing < refSpacing {
		if first, largest := turb.variogramAmplitudes(path.Resample(refSpacing)); largest > 0 {
			fit.fitted, fitted = math.Sqrt(first*largest), true
		}
	}
	if !fitted {
		fit.fitted = turb.fitAmplitude(path, ml)
	}
	fit.fitted = max(fit.fitted*rp.relief, minRelief)
	return elev, nil
}

// solveParts solves, with one factorisation of fit's system, for the
// interpolant of the elevations elev (metres) and for the correction of
// each of nParts random parts of turb (units of T) that removes its values
// at the points (spectrum). It returns the interpolant's lattice, shape,
// and each part's corrected lattice.
func (fit *routeFit) solveParts(turb *turbulence, elev []float64, nParts int) (shape *turbulence, parts []*turbulence) {
	rhs := make([][]float64, 1+nParts)
	for j := range rhs {
		rhs[j] = make([]float64, len(elev))
	}
	for i, r := range fit.sys.rows {
		for e, k := range r.idx {
			p := spectrumPart(turb.level(k), nParts)
			rhs[1+p][i] -= r.coef[e] * *turb.value(k)
		}
		rhs[0][i] = elev[i] - fit.z0
	}
	lambda := fit.sys.solve(rhs...)
	shape = turb.zeroed()
	parts = make([]*turbulence, nParts)
	for p := range parts {
		parts[p] = turb.zeroed()
	}
	for n, v := range turb.values {
		copy(parts[spectrumPart(n, nParts)].values[n], v)
	}
	for i, r := range fit.sys.rows {
		for e, k := range r.idx {
			*shape.value(k) += r.coef[e] * lambda[0][i]
			for p, part := range parts {
				*part.value(k) += r.coef[e] * lambda[1+p][i]
			}
		}
	}
	return shape, parts
}

// solveSpacing returns the spacing, in samples, of the solved points: the
// finest lattice cell, unless the track's points, merged where passes
// meet (mergePasses), would still be more than maxConstraints; then the
// spacing grows until they are not. A long track over little ground (a
// day of laps, a noisy logger standing still) thus keeps the finest
// spacing its ground allows, not one set by its length.
func solveSpacing(path *track.Path, finest float64) float64 {
	spacing := max(finest, path.Length/path.CellSize/track.MaxLinePoints)
	for {
		out, _, _ := mergePasses(path.Resample(spacing), mergeRadius(path, spacing))
		if len(out) <= maxConstraints {
			return spacing
		}
		spacing *= max(math.Sqrt(float64(len(out))/maxConstraints), 1.1)
	}
}

// referenceLevels is the finest level whose spacing the amplitude fit
// and the relief rule read the track at (its cells are 16 samples wide on
// a 1025² map).
const referenceLevels = 7

// referenceSpacing is the spacing, in samples, the amplitude fit and the
// relief rule read the track at on a size² map solved every spacing
// samples: a level-7 lattice cell, or the solve's spacing where that is
// coarser, so that neither depends on -levels. Finer points see GPS
// noise: read at the 2-sample spacing of the default levels, the grades
// of gpsbabel's vitovtt-sample.gpx, a 4 km ride, reached 747 % (202 % at
// a level-7 cell), and the noise a median filter leaves on a flat city run
// raised its slope bound from 5 % to 6 % (TestFlatCityRunRelief).
func referenceSpacing(size int, spacing float64) float64 {
	return max(spacing, float64(size-1)/float64(cells(referenceLevels-1)))
}

// rawRoadCentreline levels a road across its nearest point on the raw
// track rather than the smoothed one (road.Road's RawCentreline): tests
// compare the two.
var rawRoadCentreline = false

// reconstrain brings the map back onto the route's points after a stage
// moved it: the residuals at the points are met by the minimum-norm
// correction of the lattice values (the same solve as the route's own, so
// the correction is as smooth as the turbulence and fades away from the
// track), rendered and added; fixConstraints then removes what float32
// rounding left. Without a lattice (tests on plain maps), fixConstraints
// alone meets the points.
func reconstrain(ctx context.Context, m *terrain.Heightmap, fit routeFit) error {
	if fit.turb == nil {
		fixConstraints(m, fit.cons)
		return nil
	}
	residual := make([]float64, len(fit.cons))
	for i, c := range fit.cons {
		residual[i] = c.T - corridor.Bilinear(m, c.X, c.Y)
	}
	delta := fit.turb.zeroed()
	delta.constrain(fit.sys, residual)
	d, err := delta.render(ctx, nil, 0, 0)
	if err != nil {
		return err
	}
	for i, v := range d.Samples {
		m.Samples[i] += v
	}
	fixConstraints(m, fit.cons)
	return nil
}

// fixConstraints moves the samples around each constraint point by the
// least that makes the map's bilinear height there equal the target: for
// one point the minimum-norm change of its four samples is the residual
// times each sample's bilinear weight over the sum of the squared weights.
// Points that share samples are swept in turn (Gauss–Seidel on the
// normal equations) until the largest residual is at float32 rounding.
func fixConstraints(m *terrain.Heightmap, cons []Constraint) {
	for sweep := 0; sweep < 100; sweep++ {
		worst := 0.0
		for _, c := range cons {
			e := c.T - corridor.Bilinear(m, c.X, c.Y)
			worst = max(worst, math.Abs(e))
			c0 := min(max(int(math.Floor(c.X)), 0), m.Width-2)
			r0 := min(max(int(math.Floor(c.Y)), 0), m.Height-2)
			fx := min(max(c.X-float64(c0), 0), 1)
			fy := min(max(c.Y-float64(r0), 0), 1)
			b := [4]float64{(1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy}
			norm := b[0]*b[0] + b[1]*b[1] + b[2]*b[2] + b[3]*b[3]
			for k, idx := range [4]int{r0*m.Width + c0, r0*m.Width + c0 + 1, (r0+1)*m.Width + c0, (r0+1)*m.Width + c0 + 1} {
				m.Samples[idx] = float32(float64(m.Samples[idx]) + e*b[k]/norm)
			}
		}
		if worst < 1e-6 {
			return
		}
	}
}

// fitAmplitude returns the amplitude A, in metres, of e = z0 + A·T(P)
// that makes the route look like a typical path through the turbulence,
// so that the correction stays small: no trench or ridge along the route,
// and terrain away from it as rough as without the route.
//
// Real tracks are not drawn from the lattice's spectrum, and no single
// estimate fits every scale. Two are combined:
//
//   - the maximum-likelihood scale A_ML of the points' elevations under
//     the lattice covariance (constraintSystem.fitElevation), which weighs
//     all points jointly (mostly the fine scale,
//     where most of A Aᵀ's directions lie); it is at least the fit at the
//     smallest lag below, since a perfectly smooth track would drive it to
//     nothing;
//   - variogram fits along each pass at lags k = 1, 2, 4, … points,
//     A_k² = Σ (e_{i+k} − e_i)² / Σ Var(T(P_{i+k}) − T(P_i)), of which the
//     largest is the scale the route's biggest climbs need;
//
// and A = √(max(A_ML, A_1) · max_k A_k). Averaged over seeds, this keeps
// the roughness far from the route within 3–12 % of the unconstrained
// terrain's on every test track and every real one in ../shared/data.
func (t *turbulence) fitAmplitude(path *track.Path, ml float64) float64 {
	first, largest := t.variogramAmplitudes(path)
	return math.Sqrt(max(ml, first) * largest)
}

// variogramAmplitudes returns the variogram fits of fitAmplitude at the
// smallest lag and the largest over all lags with enough pairs.
func (t *turbulence) variogramAmplitudes(path *track.Path) (first, largest float64) {
	if path.Points() > maxVariogramPoints { // a track far longer than the map is wide
		path = path.Resample(path.Length / path.CellSize / maxVariogramPoints)
	}
	rows := make([][]sparseRow, len(path.Segments))
	longest := 0
	for s, seg := range path.Segments {
		rows[s] = make([]sparseRow, len(seg))
		for i, q := range seg {
			rows[s][i] = t.row(q.X, q.Y)
		}
		longest = max(longest, len(seg))
	}
	for lag := 1; lag < longest; lag *= 2 {
		num, den, pairs := 0.0, 0.0, 0
		for s, seg := range path.Segments {
			for i := lag; i < len(seg); i++ {
				d := seg[i].Ele - seg[i-lag].Ele
				num += d * d
				den += incrementVariance(rows[s][i-lag], rows[s][i])
				pairs++
			}
		}
		if pairs < minPairs && lag > 1 {
			break
		}
		if den > 0 {
			a := math.Sqrt(num / den)
			if lag == 1 {
				first = a
			}
			largest = max(largest, a)
		}
	}
	return first, largest
}

// maxVariogramPoints bounds the points variogramAmplitudes reads (each
// keeps a constraint row of up to 16 values per level): a longer track is
// read at a coarser spacing.
const maxVariogramPoints = 1 << 14

// minPairs is the fewest pairs of points a lag of variogramAmplitudes
// needs for its estimate to mean something.
const minPairs = 16

// mergePasses flattens a path's segments into one list of points and
// merges every point that comes within radius of a point of another pass
// (a point more than 1.5 radii further along the track: the other leg of
// a hairpin or of an out-and-back, another lap; or a neighbour on the
// same pass closer than half the radius: a track that turned back on
// itself within a step, as GPS noise does) into that point: the merged
// point moves to the mean position and takes the mean elevation. Two
// passes along one trail, or a loop closing on its start, would otherwise
// ask one spot of the map for two heights a GPS's error apart (paper 002,
// 3.1: "se eliminan aquellos puntos que están repetidos"), and two points
// of one pass on one spot would make A Aᵀ nearly singular.
//
// Distance along the track runs on across the gaps between segments, the
// gap counted as a straight line: a recording paused and resumed a few
// fixes further on (korita-zbevnica.gpx has gaps of 20 m) is one pass, and
// the points either side of its gap are neighbours, not two passes over
// the same spot. Counting them as two passes averaged the last 250 m of a
// segment on a 10 % climb with the first 250 m of the next, raising the
// segment's end 12 m above its recorded elevation.
//
// owner gives, for every point of p in order, the index in out of the
// point it became or went into.
func mergePasses(p *track.Path, radius float64) (out []track.Sample, merged int, owner []int) {
	type key struct{ i, j int }
	type kept struct {
		arc   float64 // samples along the track, gaps included
		count int
	}
	grid := map[key][]int{}
	var info []kept
	cell := func(x, y float64) key { return key{int(math.Floor(x / radius)), int(math.Floor(y / radius))} }
	arc := 0.0
	var prev *track.Sample
	for _, seg := range p.Segments {
		for i, q := range seg {
			if prev != nil {
				arc += math.Hypot(q.X-prev.X, q.Y-prev.Y)
			}
			prev = &seg[i]
			k := cell(q.X, q.Y)
			near, best := -1, radius
			for di := -1; di <= 1; di++ {
				for dj := -1; dj <= 1; dj++ {
					for _, o := range grid[key{k.i + di, k.j + dj}] {
						d := math.Hypot(out[o].X-q.X, out[o].Y-q.Y)
						if math.Abs(info[o].arc-arc) < 1.5*radius && d >= radius/2 {
							continue // a neighbour on the same pass
						}
						if d < best {
							near, best = o, d
						}
					}
				}
			}
			if near >= 0 {
				info[near].count++
				f := 1 / float64(info[near].count)
				o := &out[near]
				o.X += f * (q.X - o.X)
				o.Y += f * (q.Y - o.Y)
				o.Ele += f * (q.Ele - o.Ele)
				merged++
				owner = append(owner, near)
				continue
			}
			owner = append(owner, len(out))
			grid[k] = append(grid[k], len(out))
			out = append(out, q)
			info = append(info, kept{arc: arc, count: 1})
		}
	}
	return out, merged, owner
}
