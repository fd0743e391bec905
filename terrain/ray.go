package terrain

import "math"

// RayGround is where a ray first meets the ground (GroundHeight) over the
// map: the distance t along the unit direction dir from origin, marching a
// cell at a time and then bisecting to a hundredth of a cell. ok is false
// when the ray leaves the map or passes maxDist without meeting it.
func (m *Heightmap) RayGround(origin, dir [3]float64, maxDist float64) (t float64, ok bool) {
	w, d := m.Extent()
	above := func(t float64) (bool, bool) {
		x, y, z := origin[0]+t*dir[0], origin[1]+t*dir[1], origin[2]+t*dir[2]
		if x < 0 || z < 0 || x > w || z > d {
			return false, false
		}
		return y > m.GroundHeight(x, z), true
	}
	if a, in := above(0); in && !a {
		return 0, true // starts under the ground
	}
	step := m.CellSize
	prev := 0.0
	for t := step; t <= maxDist; t += step {
		a, in := above(t)
		if !in {
			// Outside the map: it may still come in further along.
			if math.Abs(dir[0]) < 1e-12 && math.Abs(dir[2]) < 1e-12 {
				return 0, false
			}
			prev = t
			continue
		}
		if a {
			prev = t
			continue
		}
		lo, hi := prev, t
		for hi-lo > step/100 {
			mid := (lo + hi) / 2
			if a, in := above(mid); a || !in { // off the map is above it
				lo = mid
			} else {
				hi = mid
			}
		}
		return hi, true
	}
	return 0, false
}
