// Package tracktest makes the tracks the route packages' tests and
// examples run on: a phone's walk with an elevation profile of the test's
// choosing, and a small GPX file.
package tracktest

import (
	"math"

	"cordillera/route/track"
)

// Walk is a phone track of n points step metres apart on a gentle curve
// near 46° N, 14° E, with elevation ele(i) at point i.
func Walk(n int, step float64, ele func(i int) float64) []track.Point {
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

// Rolling is an elevation profile for Walk: 200 m, rising and falling
// 15 m over about a thousand points.
func Rolling(i int) float64 { return 200 + 15*math.Sin(float64(i)/150) }

// HillGPX is a GPX track of five fixes climbing 40 m over about 1.1 km,
// from 46.000° N 14.000° E (300 m) to 46.008° N 14.012° E (340 m).
const HillGPX = `<?xml version="1.0"?>
<gpx version="1.1" creator="example" xmlns="http://www.topografix.com/GPX/1/1">
<trk><trkseg>
<trkpt lat="46.000" lon="14.000"><ele>300</ele></trkpt>
<trkpt lat="46.002" lon="14.003"><ele>310</ele></trkpt>
<trkpt lat="46.004" lon="14.006"><ele>322</ele></trkpt>
<trkpt lat="46.006" lon="14.009"><ele>331</ele></trkpt>
<trkpt lat="46.008" lon="14.012"><ele>340</ele></trkpt>
</trkseg></trk>
</gpx>`
