package track

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Duplicate geometry: a file may hold one recording more than once (a
// glider's KML stores the flight as a gx:Track and as a LineString, each
// with the GPS altitude and again with the pressure altitude). Read as
// passes over the same ground, the copies' altitudes, tens of metres
// apart, cannot all be met. Two segments are copies of one recording when
// at least dupShare of the points of the one with fewer lie within
// dupVertex metres of a point of the other (the same fixes: a second lap
// along the same path, even within a metre of it, puts its fixes
// elsewhere along the way, and a GPS drifts metres between laps), and
// their bounding boxes agree within dupBox metres on every side (the
// sparser copy, a simplified line, spans the whole of the other).
const (
	dupShare  = 0.9
	dupVertex = 0.5
	dupBox    = 50.0
)

// dropDuplicateGeometry keeps one copy of each recording segs holds more
// than once (see dupShare): the copy whose altitude has the most
// elevations, and among those the smoothest, the least mean bend
// |e[i+1] − 2e[i] + e[i−1]| between consecutive fixes, which GPS altitude
// noise, spikes and steps all raise and a barometer's altitude keeps low.
// labels name the segments where the file does (Track.Labels). Each group
// of copies is reported in p.Warnings. Positions are in metres.
func (p *Path) dropDuplicateGeometry(segs [][]Sample, labels []string) [][]Sample {
	if len(segs) < 2 {
		return segs
	}
	boxes := make([]segmentBox, len(segs))
	for k, seg := range segs {
		boxes[k] = boxOf(seg)
	}
	sets := newDisjointSets(len(segs))
	find := sets.find
	for i := range segs {
		for j := i + 1; j < len(segs); j++ {
			if find(i) != find(j) && sameRecording(segs[i], segs[j], boxes[i], boxes[j]) {
				sets.join(j, i)
			}
		}
	}
	groups := map[int][]int{}
	for k := range segs {
		groups[find(k)] = append(groups[find(k)], k)
	}
	drop := make([]bool, len(segs))
	roots := make([]int, 0, len(groups))
	for r := range groups {
		roots = append(roots, r)
	}
	slices.Sort(roots)
	for _, r := range roots {
		if g := groups[r]; len(g) >= 2 {
			p.keepSmoothest(segs, g, labels, drop)
		}
	}
	out := segs[:0]
	for k, seg := range segs {
		if !drop[k] {
			out = append(out, seg)
		}
	}
	return out
}

// segmentBox is the bounding box of a segment's positions.
type segmentBox struct{ xLo, xHi, yLo, yHi float64 }

func boxOf(seg []Sample) segmentBox {
	b := segmentBox{math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)}
	for _, q := range seg {
		b.xLo, b.xHi, b.yLo, b.yHi = min(b.xLo, q.X), max(b.xHi, q.X), min(b.yLo, q.Y), max(b.yHi, q.Y)
	}
	return b
}

// sameRecording reports whether segments a and b, of bounding boxes ba
// and bb, are copies of one recording: boxes within dupBox of each other
// and dupShare of the sparser one's points on the denser one's.
func sameRecording(a, b []Sample, ba, bb segmentBox) bool {
	if max(math.Abs(ba.xLo-bb.xLo), math.Abs(ba.xHi-bb.xHi), math.Abs(ba.yLo-bb.yLo), math.Abs(ba.yHi-bb.yHi)) > dupBox {
		return false
	}
	sparse, dense := a, b
	if len(sparse) > len(dense) {
		sparse, dense = dense, sparse
	}
	if len(sparse) < 2 {
		return false
	}
	type cell struct{ x, y int64 }
	at := func(q Sample) cell {
		return cell{int64(math.Floor(q.X / dupVertex)), int64(math.Floor(q.Y / dupVertex))}
	}
	grid := make(map[cell][]int, len(dense))
	for k, q := range dense {
		c := at(q)
		grid[c] = append(grid[c], k)
	}
	near := func(q Sample) bool {
		c := at(q)
		for dx := int64(-1); dx <= 1; dx++ {
			for dy := int64(-1); dy <= 1; dy++ {
				for _, k := range grid[cell{c.x + dx, c.y + dy}] {
					if Dist(q, dense[k]) <= dupVertex {
						return true
					}
				}
			}
		}
		return false
	}
	need := int(math.Ceil(dupShare * float64(len(sparse))))
	hit := 0
	for n, q := range sparse {
		if near(q) {
			hit++
		}
		if hit+len(sparse)-1-n < need {
			return false
		}
	}
	return hit >= need
}

// keepSmoothest marks in drop every copy of the group g of copies but the
// one with the most elevations, and among those the smoothest, and says so
// in p.Warnings.
func (p *Path) keepSmoothest(segs [][]Sample, g []int, labels []string, drop []bool) {
	known := make([]int, len(g))
	bend := make([]float64, len(g))
	best := 0
	for n, k := range g {
		known[n], bend[n] = altitudeBend(segs[k])
		if known[n] > known[best] || (known[n] == known[best] && bend[n] < bend[best]) {
			best = n
		}
	}
	name := func(n int) string {
		s := fmt.Sprintf("line %d", g[n]+1)
		if g[n] < len(labels) && labels[g[n]] != "" {
			s += fmt.Sprintf(" %q", labels[g[n]])
		}
		return s
	}
	var others []string
	for n, k := range g {
		if n != best {
			drop[k] = true
			others = append(others, fmt.Sprintf("%s (%.2f m)", name(n), bend[n]))
		}
	}
	p.Warnings = append(p.Warnings, fmt.Sprintf(
		"the file holds one recording %d times (the same fixes, within %.1f m): read once, with the altitude of %s, the smoothest (mean bend between fixes %.2f m; %s)",
		len(g), dupVertex, name(best), bend[best], strings.Join(others, ", ")))
}

// altitudeBend returns how many of seg's points have an elevation, and
// the mean |e[i+1] − 2e[i] + e[i−1]| over consecutive fixes that all have
// one (+Inf where none do).
func altitudeBend(seg []Sample) (known int, bend float64) {
	n := 0
	for i, q := range seg {
		if math.IsNaN(q.Ele) {
			continue
		}
		known++
		if i > 0 && i+1 < len(seg) && !math.IsNaN(seg[i-1].Ele) && !math.IsNaN(seg[i+1].Ele) {
			bend += math.Abs(seg[i+1].Ele - 2*q.Ele + seg[i-1].Ele)
			n++
		}
	}
	if n == 0 {
		return known, math.Inf(1)
	}
	return known, bend / float64(n)
}
