package track

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Several recordings in one file (a GPS's whole memory exported at once,
// tracks of several trips collected into one GPX) lie in clusters far
// apart; one map of them all is mostly empty ground between them, at a
// scale too coarse for any of them. Points belong to one part when a chain
// of gaps no longer than the part link joins them:
//
//   - consecutive points of one recorded segment are joined when their
//     step is at most partFactor times that segment's own median step, or
//     at most partMinGap: the segment's own spacing, so that a sparse route
//     (camps kilometres apart) stays whole beside a dense one, where the
//     jump splitter, which goes by the whole file's median step, breaks it
//     into single points;
//   - the pieces so made (recorded segments, split at longer steps) join
//     where their bounding boxes come within partMinGap, within
//     partFactor times the larger of their segments' median steps, or
//     within the larger piece's own extent (a 250 km ride is one outing
//     across a 25 km tunnel or train ride without a fix).
//
// partMinGap is well beyond what the fragment rule and the jump splitter
// handle (a lost signal, a stale fix: a few kilometres at most): a gap of
// tens of kilometres with nothing recorded, wider than the recordings
// either side, is another outing. A cluster holding less than
// fragmentShare of the file's points and of its length (a stale fix, a
// few points after the receiver was moved) is not a recording: it goes
// with the nearest part, where the fragment rule drops it and
// -route-keep-all keeps it.
const (
	partFactor = 50
	partMinGap = 20000.0
)

// Part is one of the recordings far apart in a track (Track.Parts).
type Part struct {
	Points   int
	Length   float64 // metres along its segments
	Extent   float64 // metres across: the longer side of its bounding box
	Lat, Lon float64 // the middle of its bounding box, degrees

	segs   []int // indexes into Track.Segments, with the point ranges in ranges
	ranges [][2]int
}

// Parts returns the track's recordings far apart (see partFactor), in the
// order they start in the file. A track of one recording is one part.
func (t *Track) Parts() []Part {
	if len(t.Segments) == 0 {
		return nil
	}
	c := trackCentre(t)
	type piece struct {
		seg, lo, hi        int // t.Segments[seg][lo:hi]
		spacing            float64
		xLo, xHi, yLo, yHi float64
		length             float64
	}
	var pieces []piece
	// Two passes over each segment, projecting its points in each: the
	// steps are kept (as float32, for their median) but not the positions,
	// so a 2-million-point track costs 8 bytes a point here, not 40.
	var steps, sorted []float32
	for s, seg := range t.Segments {
		steps = steps[:0]
		var px, py float64
		for i, q := range seg {
			x, y := c.forward(q.Lat, q.Lon)
			if i > 0 {
				steps = append(steps, float32(math.Hypot(x-px, y-py)))
			}
			px, py = x, y
		}
		spacing := 0.0
		if len(steps) > 0 {
			sorted = append(sorted[:0], steps...)
			slices.Sort(sorted)
			spacing = float64(sorted[len(sorted)/2])
		}
		link := max(partMinGap, partFactor*spacing)
		p := piece{seg: s, spacing: spacing}
		for i, q := range seg {
			if i > 0 && float64(steps[i-1]) > link {
				pieces = append(pieces, p)
				p = piece{seg: s, lo: i, spacing: spacing}
			}
			x, y := c.forward(q.Lat, q.Lon)
			if i == p.lo {
				p.xLo, p.xHi, p.yLo, p.yHi = x, x, y, y
			} else {
				p.xLo, p.xHi, p.yLo, p.yHi = min(p.xLo, x), max(p.xHi, x), min(p.yLo, y), max(p.yHi, y)
				p.length += float64(steps[i-1])
			}
			p.hi = i + 1
		}
		if len(seg) > 0 {
			pieces = append(pieces, p)
		}
	}
	sets := newDisjointSets(len(pieces))
	find := sets.find
	for i, a := range pieces {
		for j := i + 1; j < len(pieces); j++ {
			b := pieces[j]
			gap := math.Hypot(max(a.xLo-b.xHi, b.xLo-a.xHi, 0), max(a.yLo-b.yHi, b.yLo-a.yHi, 0))
			extent := max(a.xHi-a.xLo, a.yHi-a.yLo, b.xHi-b.xLo, b.yHi-b.yLo)
			if gap <= max(partMinGap, partFactor*max(a.spacing, b.spacing), extent) {
				sets.join(i, j) // the root is the later piece; order is restored below
			}
		}
	}
	// Fragments join the nearest cluster that is a recording.
	points, length := 0, 0.0
	sizes := map[int][2]float64{} // root → points, length
	for i, p := range pieces {
		r := find(i)
		sizes[r] = [2]float64{sizes[r][0] + float64(p.hi-p.lo), sizes[r][1] + p.length}
		points += p.hi - p.lo
		length += p.length
	}
	recording := func(r int) bool {
		return sizes[r][0] >= fragmentShare*float64(points) || sizes[r][1] >= fragmentShare*length
	}
	home := make([]int, len(pieces)) // the root each piece's part is named by
	for i := range pieces {
		home[i] = find(i)
		if recording(home[i]) {
			continue
		}
		best := math.Inf(1)
		for j, b := range pieces {
			if r := find(j); recording(r) {
				a := pieces[i]
				if gap := math.Hypot(max(a.xLo-b.xHi, b.xLo-a.xHi, 0), max(a.yLo-b.yHi, b.yLo-a.yHi, 0)); gap < best {
					best, home[i] = gap, r
				}
			}
		}
	}
	index := map[int]int{} // root → part, in the order of each part's first piece
	type box struct{ xLo, xHi, yLo, yHi float64 }
	var boxes []box
	var parts []Part
	for i, p := range pieces {
		r := home[i]
		k, ok := index[r]
		if !ok {
			k = len(parts)
			index[r] = k
			parts = append(parts, Part{})
			boxes = append(boxes, box{math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)})
		}
		part, b := &parts[k], &boxes[k]
		part.Points += p.hi - p.lo
		part.Length += p.length
		part.segs = append(part.segs, p.seg)
		part.ranges = append(part.ranges, [2]int{p.lo, p.hi})
		if find(i) == r { // a fragment's stray fix is not where the part lies
			b.xLo, b.xHi, b.yLo, b.yHi = min(b.xLo, p.xLo), max(b.xHi, p.xHi), min(b.yLo, p.yLo), max(b.yHi, p.yHi)
		}
	}
	for k := range parts {
		b := boxes[k]
		parts[k].Extent = max(b.xHi-b.xLo, b.yHi-b.yLo)
		parts[k].Lat, parts[k].Lon = c.inverse((b.xLo+b.xHi)/2, (b.yLo+b.yHi)/2)
	}
	return parts
}

// SelectPart chooses the part (1-based, in the order of Track.Parts) that
// Prepare builds the map of; 0, the default, is the longest. It refuses a
// number beyond the parts there are.
func (t *Track) SelectPart(n int) error {
	if n == 0 {
		t.Part = 0
		return nil
	}
	parts := t.Parts()
	switch {
	case n < 0:
		return fmt.Errorf("part %d: parts are numbered from 1", n)
	case len(parts) == 1 && n > 1:
		return fmt.Errorf("part %d: the file holds one recording (no two parts lie over %.0f km apart); part 1 is the whole track", n, partMinGap/1000)
	case n > len(parts):
		return fmt.Errorf("part %d: the file holds %d recordings far apart, parts 1 to %d", n, len(parts), len(parts))
	}
	t.Part = n
	return nil
}

// chosenPart returns the track of the part Prepare builds the map of
// (Track.Part, or the longest), with a warning naming the others and how
// to pick one; a track of one part is returned as it is.
func (t *Track) chosenPart() *Track {
	parts := t.Parts()
	if len(parts) < 2 {
		return t
	}
	pick, why := t.Part-1, "chosen with -route-part"
	if t.Part == 0 || t.Part > len(parts) {
		pick, why = 0, "the longest"
		for k, p := range parts {
			if p.Length > parts[pick].Length || (p.Length == parts[pick].Length && p.Points > parts[pick].Points) {
				pick = k
			}
		}
	}
	chosen := parts[pick]
	out := *t
	out.Segments, out.Labels = nil, nil
	for i, s := range chosen.segs {
		r := chosen.ranges[i]
		out.Segments = append(out.Segments, t.Segments[s][r[0]:r[1]])
		if len(t.Labels) == len(t.Segments) {
			out.Labels = append(out.Labels, t.Labels[s])
		}
	}
	describe := func(k int) string {
		p := parts[k]
		return fmt.Sprintf("part %d: %d points, %.1f km long, %.1f km across, around %s", k+1, p.Points, p.Length/1000, p.Extent/1000, latLon(p.Lat, p.Lon))
	}
	var others []string
	for k, p := range parts {
		if k != pick {
			d := greatCircle(chosen.Lat, chosen.Lon, p.Lat, p.Lon)
			others = append(others, fmt.Sprintf("%s, %.0f km away", describe(k), d/1000))
		}
	}
	out.Warnings = append(slices.Clone(t.Warnings), fmt.Sprintf(
		"the file holds %d recordings far apart; the map is of %s (%s); left out: %s; -route-part N (1 to %d) picks another",
		len(parts), describe(pick), why, strings.Join(others, "; "), len(parts)))
	return &out
}

// latLon writes a position as 46.0512° N 14.5061° E.
func latLon(lat, lon float64) string {
	ns, ew := "N", "E"
	if lat < 0 {
		ns, lat = "S", -lat
	}
	if lon < 0 {
		ew, lon = "W", -lon
	}
	return fmt.Sprintf("%.4f° %s %.4f° %s", lat, ns, lon, ew)
}

// greatCircle returns the distance in metres between two positions
// (haversine, on a sphere of EarthRadius).
func greatCircle(lat1, lon1, lat2, lon2 float64) float64 {
	const rad = math.Pi / 180
	s1 := math.Sin((lat2 - lat1) * rad / 2)
	s2 := math.Sin((lon2 - lon1) * rad / 2)
	h := s1*s1 + math.Cos(lat1*rad)*math.Cos(lat2*rad)*s2*s2
	return 2 * EarthRadius * math.Asin(math.Min(1, math.Sqrt(h)))
}
