package track

import (
	"math"
	"strings"
	"testing"
)

// shifted returns seg moved dLat degrees north and dLon east.
func shifted(seg []Point, dLat, dLon float64) []Point {
	out := make([]Point, len(seg))
	for i, p := range seg {
		p.Lat += dLat
		p.Lon += dLon
		out[i] = p
	}
	return out
}

// threeRecordings is a file holding three recordings, as a GPS's memory
// exported at once: a 9 km walk, a 3 km walk 124 km north and a 1.5 km
// walk 510 km south, each of 3 m steps (their boxes' middles 122 and
// 512 km from the first's).
func threeRecordings() *Track {
	const km = 1000 / (EarthRadius * math.Pi / 180) // degrees of latitude per km
	return &Track{Format: "synthetic", Segments: [][]Point{
		walk(3000, 3, rolling),
		shifted(walk(1000, 3, rolling), 124*km, 0),
		shifted(walk(500, 3, rolling), -510*km, 0),
	}}
}

// The longest recording is mapped by default, and the warning names the
// other two (points, extent, where, how far) and -route-part; a part can
// be picked, and a part beyond the three is refused naming how many there
// are. Seen failing without the split: one 636 km map at 3.1 km per
// sample.
func TestFarApartRecordingsSplit(t *testing.T) {
	tr := threeRecordings()
	parts := tr.Parts()
	if len(parts) != 3 || parts[0].Points != 3000 || parts[1].Points != 1000 || parts[2].Points != 500 {
		t.Fatalf("parts %+v, want 3 of 3000, 1000 and 500 points", parts)
	}
	opt := Options{Size: 257, Margin: 0.1, MinCellSize: 1, MedianWindow: 5}
	path, err := Prepare(tr, opt)
	if err != nil {
		t.Fatal(err)
	}
	if path.CellSize > 50 || math.Abs(path.Length-3*2999) > 30 {
		t.Errorf("%.1f m per sample, %.0f m of track; want the 9 km walk alone, under 50 m per sample", path.CellSize, path.Length)
	}
	w := strings.Join(path.Warnings, "\n")
	for _, want := range []string{"3 recordings", "part 1: 3000 points", "the longest", "part 2: 1000 points", "122 km away",
		"part 3: 500 points", "512 km away", "-route-part N (1 to 3)"} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings %q do not say %q", w, want)
		}
	}
	if err := tr.SelectPart(2); err != nil {
		t.Fatal(err)
	}
	path, err = Prepare(tr, opt)
	if err != nil {
		t.Fatal(err)
	}
	// Its steps east are shorter 124 km north, where walk's degrees of
	// longitude are.
	if math.Abs(path.Length-3*999) > 60 || !strings.Contains(strings.Join(path.Warnings, "\n"), "part 2: 1000 points, 3.0 km long") {
		t.Errorf("part 2: %.0f m of track, warnings %q; want the 3 km walk", path.Length, path.Warnings)
	}
	for _, n := range []int{4, -1} {
		err := tr.SelectPart(n)
		if err == nil || (n == 4 && !strings.Contains(err.Error(), "3 recordings far apart, parts 1 to 3")) {
			t.Errorf("SelectPart(%d): %v, want refused naming the 3 parts", n, err)
		}
	}
	one := &Track{Format: "synthetic", Segments: [][]Point{walk(500, 3, rolling)}}
	if err := one.SelectPart(2); err == nil || !strings.Contains(err.Error(), "one recording") {
		t.Errorf("SelectPart(2) of one recording: %v", err)
	}
	if err := one.SelectPart(1); err != nil {
		t.Errorf("SelectPart(1) of one recording: %v", err)
	}
}

// A sparse route (named camps 2 km apart) in the same file as a dense
// track over the same ground is one recording with it: the parts go by
// each segment's own spacing, where the jump splitter, by the file's
// median step, broke the sparse route into single points (seen failing
// without the segment's own spacing: 7 splits, the route's 14 km lost).
// Pieces of one
// recording cut by a lost signal of a few kilometres, or of 25 km in a
// 100 km ride, stay one part too.
func TestSparseRouteBesideADenseOneIsOnePart(t *testing.T) {
	const km = 1000 / (EarthRadius * math.Pi / 180)
	dense := walk(5000, 2, rolling)
	var sparse []Point
	for i := 0; i < 8; i++ {
		sparse = append(sparse, Point{Lat: 46 + float64(i)*2*km, Lon: 14.05, Ele: 300 + 100*float64(i), HasEle: true})
	}
	far := shifted(walk(1500, 2, rolling), 500*km, 0)
	tr := &Track{Format: "synthetic", Segments: [][]Point{dense, sparse, far}}
	parts := tr.Parts()
	if len(parts) != 2 || parts[0].Points != 5008 || parts[1].Points != 1500 {
		t.Errorf("parts %+v, want the dense and sparse routes as one part of 5008 points and the far walk as another", parts)
	}
	opt := Options{Size: 257, Margin: 0.1, MinCellSize: 1, MedianWindow: 5}
	path, err := Prepare(tr, opt)
	if err != nil {
		t.Fatal(err)
	}
	if path.Splits != 0 || len(path.Segments) != 2 || path.Length < 2*4999+14000-50 || path.MaxEle < 1000 {
		t.Errorf("%d splits, %d segments, %.0f m of track, top %.0f m; want the dense track and the 14 km sparse route whole, up to 1000 m",
			path.Splits, len(path.Segments), path.Length, path.MaxEle)
	}
	cut := walk(3000, 3, rolling)
	cut = append(shifted(cut[:1500], 0, 0), shifted(cut[1500:], 5*km, 0)...) // a 5 km jump
	if n := len((&Track{Segments: [][]Point{cut}}).Parts()); n != 1 {
		t.Errorf("a walk with a 5 km jump is %d parts, want 1", n)
	}
	// A 100 km ride with 25 km missing (a tunnel, a train) is one outing.
	ride := walk(20000, 5, rolling)
	ride = append(ride[:10000], shifted(ride[10000:], 25*km, 0)...)
	if n := len((&Track{Segments: [][]Point{ride}}).Parts()); n != 1 {
		t.Errorf("a 100 km ride with a 25 km gap is %d parts, want 1", n)
	}
	// Two stale fixes 60 km away are not a recording (the fragment rule
	// drops them).
	stale := walk(1400, 1, rolling)
	stale[0].Lat, stale[len(stale)-1].Lat = 46.54, 46.54
	if n := len((&Track{Segments: [][]Point{stale}}).Parts()); n != 1 {
		t.Errorf("a walk with two stale fixes 60 km away is %d parts, want 1", n)
	}
}
