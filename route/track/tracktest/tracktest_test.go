package tracktest

import (
	"math"
	"testing"

	"cordillera/route/track"
)

// Walk's points are step metres apart along the ground and carry the
// elevations asked for.
func TestWalk(t *testing.T) {
	seg := Walk(400, 5, Rolling)
	if len(seg) != 400 {
		t.Fatalf("%d points, want 400", len(seg))
	}
	kLat := track.EarthRadius * math.Pi / 180
	kLon := kLat * math.Cos(46*math.Pi/180)
	for i, p := range seg {
		if !p.HasEle || p.Ele != Rolling(i) {
			t.Fatalf("point %d: elevation %g (has %v), want %g", i, p.Ele, p.HasEle, Rolling(i))
		}
		if i == 0 {
			continue
		}
		q := seg[i-1]
		d := math.Hypot((p.Lat-q.Lat)*kLat, (p.Lon-q.Lon)*kLon)
		if math.Abs(d-5) > 1e-6 {
			t.Fatalf("points %d and %d are %.9f m apart, want 5", i-1, i, d)
		}
	}
}
