package route

import (
	"fmt"
	"math"

	"cordillera/route/track"
)

// The synthetic routes of paper 002's tables: a route with several slopes
// ("pendiente"), a serpentine and a circle. Routes longer than the map
// holds are lengthened as the paper did: rows back and forth, or a spiral.
var synthShapes = []string{"slope", "serpentine", "circle"}

// synthPath lays n points, spacing samples apart, along a route of the
// given shape on a size² map, with elevations in metres.
func synthPath(shape string, n int, spacing float64, size int) *track.Path {
	lo, hi := 0.1*float64(size-1), 0.9*float64(size-1)
	width, mid := hi-lo, float64(size-1)/2
	length := float64(n-1) * spacing
	var line []track.Sample // dense, 0.25 samples apart
	add := func(x, y float64) { line = append(line, track.Sample{X: x, Y: y}) }
	switch shape {
	case "slope", "serpentine":
		rows := int(math.Ceil(length / width * 1.1))
		pitch := width / float64(rows)
		amp := 0.0
		if shape == "serpentine" {
			amp = min(pitch/4, 40)
		}
		for r := range rows {
			y := lo + pitch*(float64(r)+0.5)
			if rows == 1 {
				y = mid // along the lattice lines of every level: the hardest case
			}
			for k := 0; k <= int(width*4); k++ {
				x := lo + float64(k)/4
				if r%2 == 1 {
					x = hi - float64(k)/4
				}
				taper := min(1, (x-lo)/80, (hi-x)/80) // straight into the turns
				add(x, y+taper*amp*math.Sin(2*math.Pi*(x-lo)/160))
			}
			if r+1 < rows { // the turn to the next row
				x := line[len(line)-1].X
				for k := 1; k < int(pitch*4); k++ {
					add(x, y+float64(k)/4)
				}
			}
		}
	case "circle":
		// A circle all but closed: its ends a gap of two points apart.
		if radius := float64(n+1) * spacing / (2 * math.Pi); radius <= 0.4*float64(size-1) {
			for k := 0; k < n*40; k++ {
				a := 2 * math.Pi * float64(k) / float64((n+1)*40)
				add(mid+radius*math.Cos(a), mid+radius*math.Sin(a))
			}
			break
		}
		r0, r1 := 60.0, 0.47*float64(size-1)
		gap := math.Pi * (r1*r1 - r0*r0) / length * 0.9 // a spiral of rings gap apart
		for a := 0.0; ; a += 0.25 / (r0 + gap*a/(2*math.Pi)) {
			r := r0 + gap*a/(2*math.Pi)
			if r > r1 {
				break
			}
			add(mid+r*math.Cos(a), mid+r*math.Sin(a))
		}
	default:
		panic("unknown shape " + shape)
	}
	// Walk the line, a point every spacing samples.
	pts := []track.Sample{line[0]}
	s, next := 0.0, spacing
	for i := 1; i < len(line) && len(pts) < n; i++ {
		a, b := line[i-1], line[i]
		d := math.Hypot(b.X-a.X, b.Y-a.Y)
		for s+d >= next && len(pts) < n {
			f := (next - s) / d
			pts = append(pts, track.Sample{X: a.X + f*(b.X-a.X), Y: a.Y + f*(b.Y-a.Y)})
			next += spacing
		}
		s += d
	}
	if len(pts) < n {
		panic(fmt.Sprintf("%s: only %d of %d points fit", shape, len(pts), n))
	}
	for i := range pts {
		pts[i].Ele = synthElevation(shape, float64(i)*spacing, pts[i])
	}
	return &track.Path{Segments: [][]track.Sample{pts}, CellSize: 1, Length: length}
}

// synthElevation is the synthetic route's elevation in metres at arc
// length s (samples, one sample being a metre).
func synthElevation(shape string, s float64, p track.Sample) float64 {
	switch shape {
	case "slope": // climbs, flats and descents with sharp changes of grade
		phase := math.Mod(s, 600)
		switch {
		case phase < 200:
			return 500 + 0.15*phase
		case phase < 300:
			return 530
		case phase < 500:
			return 530 - 0.15*(phase-300)
		}
		return 500
	case "serpentine":
		return 500 + 25*math.Sin(2*math.Pi*s/700)
	}
	return 500 + 0.05*(p.X-p.Y) // a circle on a tilted plane
}

// synthTrack is a shape as a GPS track in latitude and longitude: n points
// around (46° N, 14° E), the shape being a few kilometres across.
func synthTrack(shape string, n int) *track.Track {
	const lat0, lon0 = 46.0, 14.0
	kLat := track.EarthRadius * math.Pi / 180
	kLon := kLat * math.Cos(lat0*math.Pi/180)
	seg := make([]track.Point, n)
	for i := range seg {
		f := float64(i) / float64(n-1)
		var x, y float64 // metres east and north
		switch shape {
		case "slope":
			x, y = 3000*f, 0
		case "serpentine":
			x, y = 3000*f, 250*math.Sin(2*math.Pi*3*f)
		case "circle":
			a := 2 * math.Pi * float64(i) / float64(n)
			x, y = 1500*math.Cos(a), 1500*math.Sin(a)
		}
		ele := synthElevation(shape, 3000*f, track.Sample{X: x / 4, Y: -y / 4})
		seg[i] = track.Point{Lat: lat0 + y/kLat, Lon: lon0 + x/kLon, Ele: ele, HasEle: true}
	}
	return &track.Track{Format: "synthetic", Segments: [][]track.Point{seg}}
}
