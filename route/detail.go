package route

import (
	"fmt"
	"math"
	"strings"

	"cordillera/route/track"
	"cordillera/terrain"
)

// unheldDetail returns the largest departure, in metres, of the track's
// elevations from their own profile smoothed along the track by a
// triangle kernel of half-width reach metres: the detail along the track
// that ground sampled every reach metres or so cannot hold (a bridge, an
// embankment, an overpass on a long flat road). Each segment's profile is
// resampled evenly at an eighth of reach (coarser where that would pass
// MaxLinePoints) and smoothed by two box means of reach, from prefix sums.
func unheldDetail(p *track.Path, reach float64) float64 {
	metres := p.CellSize
	if metres <= 0 {
		metres = 1
	}
	h := max(reach/8, p.Length/track.MaxLinePoints)
	worst := 0.0
	for _, seg := range p.Segments {
		if len(seg) < 2 {
			continue
		}
		cum := track.Cumulative(seg)
		total := cum[len(cum)-1] * metres
		n := int(math.Ceil(total/h)) + 1
		if n < 3 {
			continue
		}
		step := total / float64(n-1)
		ele := make([]float64, n)
		j := 0
		for k := range ele {
			s := float64(k) * step / metres
			for j < len(seg)-2 && cum[j+1] < s {
				j++
			}
			f := 0.0
			if l := cum[j+1] - cum[j]; l > 0 {
				f = min(max((s-cum[j])/l, 0), 1)
			}
			ele[k] = seg[j].Ele + f*(seg[j+1].Ele-seg[j].Ele)
		}
		half := max(int(math.Round(reach/step/2)), 1) // a box of reach is 2·half+1 samples
		smooth := boxMean(boxMean(ele, half), half)
		for k := range ele {
			worst = max(worst, math.Abs(ele[k]-smooth[k]))
		}
	}
	return worst
}

// boxMean returns the mean of v over 2·half+1 samples centred on each,
// the window shrunk at the ends to stay centred.
func boxMean(v []float64, half int) []float64 {
	sum := make([]float64, len(v)+1)
	for i, x := range v {
		sum[i+1] = sum[i] + x
	}
	out := make([]float64, len(v))
	for i := range v {
		h := min(half, i, len(v)-1-i)
		out[i] = (sum[i+h+1] - sum[i-h]) / float64(2*h+1)
	}
	return out
}

// Fine detail: the map cannot hold detail along the track finer than its
// samples. Over every real and synthetic track measured, the map missed
// the track by at least 1.1 times unheldDetail over two samples
// (unheldReach), so a track whose detail over two samples departs from it
// by more than the tolerance cannot be followed at that scale, and is
// refused before the terrain is built (Precheck). A change is advised
// where it brings that departure within half the tolerance
// (adviseShare), the miss having been up to 2.6 times it.
const (
	unheldReach = 2.0
	adviseShare = 0.5
)

// Precheck prepares t for a map of p and refuses it, before any terrain
// is built, when the track's detail finer than the map's samples departs
// from what the map can hold by more than the track tolerance: the map
// would miss it by more (see unheldReach). The error names the cell size,
// the departure and what would hold it (followAdvice). A long flat road
// at hundreds of metres per sample, its bridges and embankments a few
// samples' tenth wide, took seconds to be refused for missing by 6 m
// against 5.
func Precheck(p terrain.Params, t *track.Track) error {
	if err := CheckParams(p); err != nil {
		return err
	}
	opt := prepareOptions(p)
	path, err := track.Prepare(t, opt)
	if err != nil {
		return err
	}
	t.KeepPrepared(opt, path)
	tol := trackTolerance(path)
	if d := unheldDetail(path, unheldReach*path.CellSize); d > tol {
		return fmt.Errorf("the track's detail is finer than the map's %.1f m per sample: it departs by up to %.1f m from its own profile smoothed over %g samples, more than the tolerance of %.1f m, so the map would miss it by more (not built); %s",
			path.CellSize, d, unheldReach, tol, followAdvice(path, t, p, "would"))
	}
	return nil
}

// followAdvice says what would let a map of p hold the fine detail of the
// prepared path: the smallest -size (or, where the track already lies at
// -cell-size, a smaller -cell-size) and the smallest -route-median window
// that bring unheldDetail over two samples within adviseShare of the
// tolerance, and -route-warn; t is the track as read, which a window is
// tried on, and would how sure the advice is ("would" before a build,
// "may" after one that missed).
func followAdvice(path *track.Path, t *track.Track, p terrain.Params, would string) string {
	tol := trackTolerance(path)
	var ways, tried []string
	c := path.CellSize
	if c > p.CellSize*(1+1e-9) {
		for size := 2*p.Size - 1; size <= terrain.MaxSize; size = 2*size - 1 {
			cs := max(p.CellSize, c*float64(p.Size-1)/float64(size-1))
			if unheldDetail(path, unheldReach*cs) <= adviseShare*tol {
				ways = append(ways, fmt.Sprintf("-size %d (%.1f m per sample)", size, cs))
				break
			}
		}
		if len(ways) == 0 && p.Size < terrain.MaxSize {
			tried = append(tried, fmt.Sprintf("-size up to %d", terrain.MaxSize))
		}
	} else {
		for cs := c / 2; cs >= c/64; cs /= 2 {
			if unheldDetail(path, unheldReach*cs) <= adviseShare*tol {
				ways = append(ways, cellSizeAdvice(t, p, cs))
				break
			}
		}
		if len(ways) == 0 {
			tried = append(tried, fmt.Sprintf("-cell-size down to %.3g", c/64))
		}
	}
	sized := len(ways)
	// A few windows, up to the largest -route-median takes, each tried as
	// a run would take it: the track prepared again with that window (a
	// window over the already filtered path promised more than the run
	// then gave).
	for _, w := range []int{7, 11, 15, 21, 31, 51} {
		if w <= p.RouteMedian {
			continue
		}
		pw := p
		pw.RouteMedian = w
		q, err := track.Prepare(t, prepareOptions(pw))
		if err != nil {
			continue
		}
		if unheldDetail(q, unheldReach*q.CellSize) <= adviseShare*trackTolerance(q) {
			ways = append(ways, fmt.Sprintf("-route-median %d (smooths detail finer than the samples away)", w))
			break
		}
	}
	if len(ways) == sized && p.RouteMedian < 51 {
		tried = append(tried, "-route-median up to 51")
	}
	if len(ways) == 0 && len(tried) > 0 {
		// Say what was tried, so that "-route-warn" alone does not read
		// as an oversight: the altitude itself is too rough to follow.
		return fmt.Sprintf("no %s would hold it (the altitude changes too much between neighbouring fixes); -route-warn writes the map anyway",
			strings.Join(tried, " or "))
	}
	ways = append(ways, "-route-warn (writes the map anyway)")
	return "what " + would + " hold it: " + strings.Join(ways, "; ")
}

// cellSizeAdvice names -cell-size cs for a map of p holding track t, with
// the smallest -size whose map still spans the track at that cell size: a
// map of p.Size samples at a finer cell is smaller, and where the track no
// longer fits, the cell grows back to fit it.
func cellSizeAdvice(t *track.Track, p terrain.Params, cs float64) string {
	pw := p
	pw.CellSize = cs
	for ; pw.Size <= terrain.MaxSize; pw.Size = 2*pw.Size - 1 {
		q, err := track.Prepare(t, prepareOptions(pw))
		if err != nil || q.CellSize <= cs*(1+1e-9) {
			break
		}
	}
	if pw.Size == p.Size || pw.Size > terrain.MaxSize {
		return fmt.Sprintf("-cell-size %.3g", cs)
	}
	return fmt.Sprintf("-cell-size %.3g -size %d", cs, pw.Size)
}
