package terrain

import "math"

// Which way a walker standing at a point should face to see the land
// rather than a slope. Standing in a valley, the directions across it run
// into the hillsides within a few paces, while the directions along it
// keep the ground near eye level for hundreds of metres; down the valley
// the land falls away and opens the view, up it the floor rises. So each
// heading is scored by how far the ground over the stretch ahead strays
// from the ground underfoot (as a grade, the height difference over the
// distance), a rise counting headingRiseWeight times a fall of the same
// grade. The eye sees a cone, not a line, so a heading's score is the mean
// over the directions within headingCone of it; that also puts the choice
// on a valley's axis, where a single line scores best a little to one
// side, its fall cancelled by the rise of the valley's wall.

// Heading sampling: headingSteps directions around the circle, each
// sampled at headingSamples distances from headingNear to headingFar
// metres ahead (but within headingMapShare of the map's shorter side, so
// a small map is read inside itself).
const (
	headingSteps      = 72
	headingSamples    = 8
	headingNear       = 100.0
	headingFar        = 300.0
	headingMapShare   = 0.3
	headingRiseWeight = 4.0
	headingCone       = 4 // steps either side: ±20°
)

// ViewHeading returns the direction, an angle in radians from +x towards
// +z (the camera's yaw), in which the ground seen from world (x, z) stays
// nearest eye level: along a valley, down it rather than up. ok is false
// where no direction has ground ahead on the map (a map too small to
// read, or the point far outside it).
func (m *Heightmap) ViewHeading(x, z float64) (yaw float64, ok bool) {
	w, d := m.Extent()
	far := math.Min(headingFar, headingMapShare*math.Min(w, d))
	near := far * headingNear / headingFar
	if far <= 2*m.CellSize {
		return 0, false
	}
	h0 := m.GroundHeight(x, z)
	var line [headingSteps]float64 // each direction's score alone; NaN: off the map
	for i := range line {
		a := 2 * math.Pi * float64(i) / headingSteps
		ca, sa := math.Cos(a), math.Sin(a)
		sum, n := 0.0, 0
		for j := range headingSamples {
			dist := near + (far-near)*float64(j)/(headingSamples-1)
			px, pz := x+dist*ca, z+dist*sa
			if px < 0 || px > w || pz < 0 || pz > d {
				continue
			}
			grade := (m.GroundHeight(px, pz) - h0) / dist
			if grade > 0 {
				grade *= headingRiseWeight
			}
			sum += grade * grade
			n++
		}
		line[i] = math.NaN()
		// A direction whose stretch ahead mostly leaves the map is not one
		// to face: the walker would look at its edge.
		if 2*n >= headingSamples {
			line[i] = sum / float64(n)
		}
	}
	best := math.Inf(1)
	for i := range line {
		if math.IsNaN(line[i]) {
			continue
		}
		sum, n := 0.0, 0
		for k := -headingCone; k <= headingCone; k++ {
			if v := line[(i+k+headingSteps)%headingSteps]; !math.IsNaN(v) {
				sum += v
				n++
			}
		}
		if s := sum / float64(n); s < best {
			best, yaw, ok = s, 2*math.Pi*float64(i)/headingSteps, true
		}
	}
	return yaw, ok
}
