package route

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cordillera/route/track"
	"cordillera/route/track/tracktest"
	"cordillera/route/trackfile"
	"cordillera/terrain"
)

// longFlatRoad is a 250 km road over a plain at 10–85 m, a fix every
// 25 m, with an overpass 7 m high and 200 m long every 5 km and 0.4 m of
// altitude noise: at hundreds of metres per sample the overpasses are
// detail no map can hold.
func longFlatRoad() *track.Track {
	rng := rand.New(rand.NewPCG(1, 2))
	kLat := track.EarthRadius * math.Pi / 180
	kLon := kLat * math.Cos(52*math.Pi/180)
	var seg []track.Point
	x, y := 0.0, 0.0
	const step = 25.0
	for i := 0; i < 10000; i++ {
		s := float64(i) * step
		e := 46 + 36*math.Sin(s/9000)*math.Cos(s/23000)
		if b := math.Mod(s, 5000); b < 200 {
			e += 7 * (1 - math.Abs(b-100)/100)
		}
		e += 0.4 * rng.NormFloat64()
		seg = append(seg, track.Point{Lat: 52 + y/kLat, Lon: 5 + x/kLon, Ele: e, HasEle: true})
		a := 0.8*math.Sin(s/7000) + 0.3*math.Sin(s/1300) + 0.05*rng.NormFloat64()
		x, y = x+step*math.Cos(a), y+step*math.Sin(a)
	}
	return &track.Track{Format: "synthetic", Segments: [][]track.Point{seg}}
}

// A long flat road whose overpasses are finer than the map's samples is
// refused before the terrain is built (Precheck), naming what would hold
// it; the advised -route-median does, and the refusal after a build (at
// 1025², where the departure is within the tolerance and the build runs)
// gives the same advice. Seen failing on the old code: the only advice
// was "a larger -size holds finer detail", after seconds of building.
func TestLongFlatTrackAdvice(t *testing.T) {
	p := terrain.DefaultParams()
	p.Size = 257
	err := Precheck(p, longFlatRoad())
	if err == nil || !strings.Contains(err.Error(), "not built") || !strings.Contains(err.Error(), "-route-median 15") ||
		!strings.Contains(err.Error(), "-size 4097") {
		t.Fatalf("Precheck at 257²: %v; want a refusal before building naming -route-median 15 and -size 4097", err)
	}
	res, err := Generate(context.Background(), p, longFlatRoad(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.CheckTrack() == nil {
		t.Errorf("the map at 257² meets the track within the tolerance: Precheck refused a track that could be followed")
	}
	p.RouteMedian = 15
	if err := Precheck(p, longFlatRoad()); err != nil {
		t.Errorf("-route-median 15: %v", err)
	}
	res, err = Generate(context.Background(), p, longFlatRoad(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.CheckTrack(); err != nil {
		t.Errorf("-route-median 15: %v", err)
	}
	if testing.Short() {
		return
	}
	p.Size, p.RouteMedian = 1025, 5
	if err := Precheck(p, longFlatRoad()); err != nil {
		t.Errorf("Precheck at 1025²: %v; the departure is within the tolerance", err)
	}
	res, err = Generate(context.Background(), p, longFlatRoad(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.CheckTrack(); err == nil || !strings.Contains(err.Error(), "-route-median 11") {
		t.Errorf("1025²: %v; want the miss refused naming -route-median 11", err)
	}
	p.RouteMedian = 11
	res, err = Generate(context.Background(), p, longFlatRoad(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.CheckTrack(); err != nil {
		t.Errorf("1025², -route-median 11: %v", err)
	}
}

// Precheck never refuses a real track whose map would have been made:
// wherever it refuses, the built map misses the track too.
func TestPrecheckOnlyRefusesMisses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 18 maps")
	}
	files, _ := filepath.Glob(filepath.Join("..", "..", "shared", "data", "*", "*"))
	if len(files) == 0 {
		t.Skip("../shared/data is absent")
	}
	for _, f := range files {
		if _, err := os.Stat(f); err != nil || strings.HasSuffix(f, ".md") || strings.Contains(f, "heightmaps") {
			continue
		}
		tr, err := trackfile.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []int{129, 257, 1025} {
			p := terrain.DefaultParams()
			p.Size = size
			pre := Precheck(p, tr)
			res, err := Generate(context.Background(), p, tr, nil)
			if err != nil {
				t.Fatal(err)
			}
			if pre != nil {
				t.Logf("%s at %d²: refused before building: %v; built: %v", filepath.Base(f), size, pre, res.CheckTrack())
			}
			if pre != nil && res.CheckTrack() == nil {
				t.Errorf("%s at %d²: refused before building (%v), but the map follows the track", filepath.Base(f), size, pre)
			}
		}
	}
}

// Generate takes the path Precheck prepared, and makes the same map from
// it, twice over (nothing changes it), as from the track prepared anew.
func TestPrecheckedTrackMakesTheSameMap(t *testing.T) {
	p := terrain.DefaultParams()
	p.Size = 129
	seg := tracktest.Walk(1500, 2, func(i int) float64 { return tracktest.Rolling(i) + 60*math.Exp(-float64(i)/20) })
	fresh, err := Generate(context.Background(), p, &track.Track{Format: "synthetic", Segments: [][]track.Point{seg}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	checked := &track.Track{Format: "synthetic", Segments: [][]track.Point{seg}}
	if err := Precheck(p, checked); err != nil {
		t.Fatal(err)
	}
	kept := checked.Prepared(prepareOptions(p))
	if kept == nil {
		t.Fatal("Precheck kept no prepared path")
	}
	for run := range 2 {
		res, err := Generate(context.Background(), p, checked, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.prepared != kept {
			t.Errorf("run %d: the track was prepared again", run)
		}
		for i, v := range res.Map.Samples {
			if v != fresh.Map.Samples[i] {
				t.Fatalf("run %d: sample %d is %v, %v from the track prepared anew", run, i, v, fresh.Map.Samples[i])
			}
		}
	}
	p.RouteMedian = 7 // other options: prepared anew
	res, err := Generate(context.Background(), p, checked, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.prepared == kept {
		t.Errorf("-route-median 7 took the path prepared with 5")
	}
}

// roughAltitudeTrack is 68 km of fixes 3–15 m apart whose GPS altitude
// jumps by up to ±15 m from fix to fix around a gentle profile, as some
// loggers record it: changes no map finer than the fixes could follow and
// no median window removes (the filter keeps points on their neighbours'
// grades).
func roughAltitudeTrack() *track.Track {
	rng := rand.New(rand.NewPCG(3, 4))
	kLat := track.EarthRadius * math.Pi / 180
	kLon := kLat * math.Cos(45*math.Pi/180)
	var seg []track.Point
	x, y, s, n := 0.0, 0.0, 0.0, 0.0
	for s < 68000 {
		e := 170 + 40*math.Sin(s/11000)
		n = 0.6*n + 8*rng.NormFloat64()
		seg = append(seg, track.Point{Lat: 45 + y/kLat, Lon: 7 + x/kLon, Ele: e + n, HasEle: true})
		step := 3 + 12*rng.Float64()
		a := 0.6*math.Sin(s/5000) + 0.2*rng.NormFloat64()
		x, y, s = x+step*math.Cos(a), y+step*math.Sin(a), s+step
	}
	return &track.Track{Format: "synthetic", Segments: [][]track.Point{seg}}
}

// Where no -size and no -route-median would hold a track, the refusal says
// what was tried instead of offering -route-warn alone, which read as if
// the advice had been forgotten.
func TestPrecheckSaysWhatWasTried(t *testing.T) {
	p := terrain.DefaultParams()
	p.Size = 1025
	err := Precheck(p, roughAltitudeTrack())
	if err == nil {
		t.Fatal("Precheck accepted a track whose altitude jumps ±15 m between fixes metres apart")
	}
	msg := err.Error()
	for _, want := range []string{"not built", "no -size up to 8193 or -route-median up to 51 would hold it", "-route-warn"} {
		if !strings.Contains(msg, want) {
			t.Errorf("Precheck: %v\nwant it to contain %q", err, want)
		}
	}
}
