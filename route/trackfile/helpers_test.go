package trackfile

import (
	"math"

	"cordillera/route/track"
)

// walk is a phone track of n points step metres apart on a gentle curve
// near 46° N, with elevation ele(i).
func walk(n int, step float64, ele func(i int) float64) []track.Point {
	kLat := track.EarthRadius * math.Pi / 180
	kLon := kLat * math.Cos(46*math.Pi/180)
	seg := make([]track.Point, n)
	x, y, a := 0.0, 0.0, 0.0
	for i := range seg {
		seg[i] = track.Point{Lat: 46 + y/kLat, Lon: 14 + x/kLon, Ele: ele(i), HasEle: true}
		a += 0.02 * math.Sin(float64(i)/40)
		x, y = x+step*math.Cos(a), y+step*math.Sin(a)
	}
	return seg
}

func rolling(i int) float64 { return 200 + 15*math.Sin(float64(i)/150) }
