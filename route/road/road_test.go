package road

import (
	"context"
	"cordillera/route/internal/corridor"
	"cordillera/route/track"
	"cordillera/terrain"
	"math"
	"testing"
)

// leastSecondDifference is the 1-D oracle for a straight road's shoulder:
// v with its free values set to minimise the sum of squared second
// differences (leastSquaresOracle).
func leastSecondDifference(v []float64, free []bool) []float64 {
	var terms []map[int]float64
	for i := 1; i+1 < len(v); i++ {
		terms = append(terms, map[int]float64{i - 1: 1, i: -2, i + 1: 1})
	}
	return leastSquaresOracle(v, free, terms)
}

// A level road across a tilted plane bends the ground over its shoulder
// by the change of least curvature: across a straight road its cross
// section is the 1-D least-curvature profile (a cubic from the level
// road's edge, meeting the plane's value and slope where the shoulder
// ends), to 1e-3 of the road's depth; the blend it replaced (a
// smootherstep weight from the level road to the plane) bent 1.42 times
// as sharply (3.80e-3 against 2.68e-3 here).
func TestRoadShoulderIsTheLeastCurvatureCubic(t *testing.T) {
	const size, slope, hw = 257, 1.0 / 128, 4.0 // a plane exact in float32: no curvature of its own
	m := terrain.NewHeightmap(size, size)
	for r := range size {
		for c := range size {
			m.Set(c, r, float32(slope*float64(r)))
		}
	}
	var seg []track.Sample
	for x := 0.0; x <= size-1; x += 0.5 {
		seg = append(seg, track.Sample{X: x, Y: 128})
	}
	track := &track.Path{Segments: [][]track.Sample{seg}, CellSize: 1, Length: size - 1}
	reach, err := Road{HalfWidth: hw}.Apply(context.Background(), m, track)
	if err != nil {
		t.Fatal(err)
	}
	// The plane has no curvature of its own: the shoulder is the least one.
	w := max(roadShoulder*hw, roadMinShoulder)
	if reach != hw+w+1 {
		t.Fatalf("the road changed the ground within %v samples, want %v", reach, hw+w+1)
	}
	// The 1-D oracle over the column: the road (distance under hw) held
	// level at the centre's height, the plane from hw + w on.
	v := make([]float64, size)
	free := make([]bool, size)
	for r := range size {
		d := math.Abs(float64(r) - 128)
		switch {
		case d < hw:
			v[r] = slope * 128
		case d < hw+w:
			free[r] = true
		default:
			v[r] = slope * float64(r)
		}
	}
	want := leastSecondDifference(v, free)
	worst, sharpest, sharpestWant := 0.0, 0.0, 0.0
	for _, col := range []int{64, 100, 128, 160, 192} { // away from the track's ends
		for r := 1; r < size-1; r++ {
			worst = max(worst, math.Abs(float64(m.At(col, r))-want[r]))
			sharpest = max(sharpest, corridor.Curvature(m, col, r))
			sharpestWant = max(sharpestWant, math.Abs(want[r-1]+want[r+1]-2*want[r]))
		}
	}
	// The blend it replaced: the plane's rise s·d from the road's edge
	// eased in by a smootherstep of the distance over the shoulder.
	blend := 0.0
	for d := 1.0; d < hw+w+2; d++ {
		b := func(d float64) float64 { return slope * d * smootherstep((d-hw)/w) }
		blend = max(blend, math.Abs(b(d-1)+b(d+1)-2*b(d)))
	}
	t.Logf("largest difference from the 1-D least-curvature profile %.2e (road depth %.2e); sharpest bend %.2e, the profile's %.2e, the old blend's %.2e",
		worst, slope*hw, sharpest, sharpestWant, blend)
	if worst > 1e-3*slope*hw {
		t.Errorf("cross section differs from the least-curvature profile by %.2e", worst)
	}
	if sharpest > 1.02*sharpestWant {
		t.Errorf("sharpest bend %.2e, the least-curvature profile's %.2e", sharpest, sharpestWant)
	}
}

// smoothLine keeps a segment's ends and a straight line where they are,
// and takes out GPS-scale jogs: a ±0.5-sample zigzag every sample along a
// straight line shrinks to under a hundredth of that at σ = 4 samples.
func TestSmoothLine(t *testing.T) {
	var straight, zigzag []track.Sample
	for i := range 200 {
		x := float64(i) * 0.5
		straight = append(straight, track.Sample{X: x, Y: 10 + 0.3*x})
		zigzag = append(zigzag, track.Sample{X: x, Y: 50 + 0.5*float64(2*(i%2)-1)})
	}
	got := smoothLine(&track.Path{Segments: [][]track.Sample{straight, zigzag}}, 4)
	for i, q := range got.Segments[0] {
		if math.Abs(q.X-straight[i].X) > 1e-9 || math.Abs(q.Y-straight[i].Y) > 1e-9 {
			t.Fatalf("straight line moved at %d: %v → %v", i, straight[i], q)
		}
	}
	z := got.Segments[1]
	if z[0] != zigzag[0] || z[len(z)-1] != zigzag[len(z)-1] {
		t.Errorf("ends moved: %v, %v", z[0], z[len(z)-1])
	}
	worst := 0.0
	for _, q := range z[40 : len(z)-40] { // beyond 3σ from the ends
		worst = max(worst, math.Abs(q.Y-50))
	}
	if worst > 0.005 {
		t.Errorf("zigzag of ±0.5 left at ±%.4f", worst)
	}
}
