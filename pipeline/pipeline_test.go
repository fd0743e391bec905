package pipeline

import (
	"context"
	"math"
	"slices"
	"sync"
	"testing"

	"cordillera/route/track"
	"cordillera/terrain"
	"cordillera/terrain/erosion"
)

// Generate is the generator's map worn by the listed stages and mapped back
// onto [0, 1] with the metres kept: the same as running the stages by hand.
func TestGenerateChainsTheStages(t *testing.T) {
	ctx := context.Background()
	p := terrain.DefaultParams()
	p.Size, p.Erosion = 129, "fluvial,hydraulic,thermal"
	w, err := Generate(ctx, p, Options{Masks: true})
	if err != nil {
		t.Fatal(err)
	}
	m, err := terrain.Generate(ctx, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := erosion.Run(ctx, m, p, erosion.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := m.Range()
	span := float64(hi) - float64(lo)
	for i, v := range m.Samples {
		want := float32((float64(v) - float64(lo)) / span)
		if w.Map.Samples[i] != want {
			t.Fatalf("sample %d is %v, the stages by hand give %v", i, w.Map.Samples[i], want)
		}
	}
	if got, want := w.Map.VerticalScale, p.Amplitude*span; math.Abs(got-want) > 1e-9*want {
		t.Errorf("vertical scale %v, want %v: heights in metres must be kept", got, want)
	}
	if w.Budget != b || w.Masks == nil || len(w.Masks.Flow) != 129*129 {
		t.Errorf("budget %v (by hand %v), masks %v", w.Budget, b, w.Masks != nil)
	}
	// Without erosion the pipeline is the generator, bit for bit.
	p.Erosion = "none"
	w, err = Generate(ctx, p, Options{Masks: true})
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := terrain.Generate(ctx, p, nil)
	for i, v := range plain.Samples {
		if w.Map.Samples[i] != v {
			t.Fatalf("without erosion sample %d is %v, the generator makes %v", i, w.Map.Samples[i], v)
		}
	}
	if w.Masks != nil {
		t.Error("masks without an erosion stage")
	}
}

// Erode works on a copy: the loaded map stays as it was, the result keeps
// its cell size and vertical scale and is not renormalised.
func TestErodeKeepsTheSource(t *testing.T) {
	src := terrain.NewHeightmap(64, 64)
	for i := range src.Samples {
		x, y := float64(i%64)-31.5, float64(i/64)-31.5
		src.Samples[i] = float32(0.8 * math.Exp(-(x*x+y*y)/200))
	}
	src.CellSize, src.VerticalScale = 3, 90
	before := append([]float32(nil), src.Samples...)
	p := terrain.DefaultParams()
	p.Erosion = "thermal"
	w, err := Erode(context.Background(), src, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range src.Samples {
		if v != before[i] {
			t.Fatalf("source sample %d changed", i)
		}
	}
	if w.Map.CellSize != 3 || w.Map.VerticalScale != 90 {
		t.Errorf("cell %v, scale %v, want the source's 3 and 90", w.Map.CellSize, w.Map.VerticalScale)
	}
	if _, hi := w.Map.Range(); !(hi < 0.8) {
		t.Errorf("peak %v: thermal erosion did not lower it", hi)
	}
}

// The eroded presets erode: every stage they list moves material, and
// the map differs from the same preset without erosion.
func TestErodedPresets(t *testing.T) {
	for _, name := range []string{"eroded-alps", "eroded-hills"} {
		p, err := terrain.PresetParams(name)
		if err != nil {
			t.Fatal(err)
		}
		if len(erosion.Stages(p)) < 2 {
			t.Errorf("%s runs %q: want more than one stage", name, p.Erosion)
		}
		p.Size = 129
		w, err := Generate(context.Background(), p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if w.Budget.Eroded <= 0 {
			t.Errorf("%s: nothing eroded", name)
		}
	}
}

// testTrack is a 60-point track of about 460 m across a valley side.
func testTrack() *track.Track {
	tr := &track.Track{Format: track.CSV}
	seg := make([]track.Point, 60)
	for i := range seg {
		a := float64(i) / 59 * math.Pi
		seg[i] = track.Point{Lat: 46 + 0.004*math.Cos(a), Lon: 7 + 0.006*float64(i)/59, Ele: 500 + 40*math.Sin(3*a), HasEle: true}
	}
	tr.Segments = [][]track.Point{seg}
	return tr
}

// With a route, erosion runs before the route's points are met, so the
// map still passes through them.
func TestRouteErodedStillMeetsTheTrack(t *testing.T) {
	tr := testTrack()
	p := terrain.DefaultParams()
	p.Size, p.Erosion = 257, "hydraulic,thermal"
	w, err := Route(context.Background(), p, tr, Options{Masks: true})
	if err != nil {
		t.Fatal(err)
	}
	if w.Budget.Eroded <= 0 || w.Masks == nil {
		t.Fatalf("budget %v, masks %v: erosion did not run", w.Budget, w.Masks != nil)
	}
	if w.Route.MaxError > 1e-3 {
		t.Errorf("max error at the solved points %g after erosion, want ≤ 1e-3", w.Route.MaxError)
	}
}

// A route's bar runs each of its phases to the end, erosion or not: the
// route terrain (solve and follow step) up to 100 % before the erosion
// stages, the route constraint (points met again, road) after them with
// a fraction of its own; and the whole never goes back. The route's bar
// stopped at 60 % and the constraint phase showed its time alone.
func TestRoutePhasesReachTheirEnd(t *testing.T) {
	for _, ero := range []string{"", "thermal"} {
		p := terrain.DefaultParams()
		p.Size, p.Erosion = 129, ero
		var mu sync.Mutex
		var names []string
		last := map[string]float64{}
		var whole []float64
		opt := Options{
			Phase: func(name string) terrain.Progress {
				mu.Lock()
				names = append(names, name)
				mu.Unlock()
				return func(f float64) {
					mu.Lock()
					defer mu.Unlock()
					if f < last[name] || f > 1 {
						t.Errorf("erosion %q: phase %s at %v after %v", ero, name, f, last[name])
					}
					last[name] = f
				}
			},
			Progress: func(f float64) {
				mu.Lock()
				whole = append(whole, f)
				mu.Unlock()
			},
		}
		if _, err := Route(context.Background(), p, testTrack(), opt); err != nil {
			t.Fatal(err)
		}
		want := []string{"route terrain"}
		if ero != "" {
			want = []string{"route terrain", ero + " erosion", "route constraint"}
		}
		if !slices.Equal(names, want) {
			t.Errorf("erosion %q: phases %q, want %q", ero, names, want)
		}
		for _, name := range names {
			if f := last[name]; math.Abs(f-1) > 1e-9 {
				t.Errorf("erosion %q: phase %s ends at %.0f %%", ero, name, 100*f)
			}
		}
		for i := 1; i < len(whole); i++ {
			if whole[i] < whole[i-1]-1e-12 {
				t.Errorf("erosion %q: the whole goes back from %v to %v", ero, whole[i-1], whole[i])
				break
			}
		}
		if n := len(whole); n == 0 || math.Abs(whole[n-1]-1) > 1e-9 {
			t.Errorf("erosion %q: the whole ends at %v", ero, whole)
		}
	}
}
