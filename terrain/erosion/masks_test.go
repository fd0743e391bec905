package erosion

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The percentile found by counting bits is the one a sort of the positive
// values gives, on values with repeats, zeros, negatives and values that
// share their top 16 bits.
func TestPositiveQuantileMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := 1 + r.IntN(3000)
		src := make([]float32, n)
		for i := range src {
			switch r.IntN(5) {
			case 0: // zero
			case 1:
				src[i] = -r.Float32()
			case 2:
				src[i] = 1 + float32(r.IntN(4))*1e-7 // one top-16 bucket
			default:
				src[i] = float32(math.Exp(r.NormFloat64() * 5))
			}
		}
		var pos []float32
		for _, v := range src {
			if v > 0 {
				pos = append(pos, v)
			}
		}
		got, ok := positiveQuantile(src, 0.995)
		if len(pos) == 0 {
			if ok {
				t.Fatalf("trial %d: %v for no positive values", trial, got)
			}
			continue
		}
		slices.Sort(pos)
		want := pos[min(len(pos)-1, int(0.995*float64(len(pos))))]
		if !ok || got != want {
			t.Fatalf("trial %d (%d positive): %v, %v; sorting gives %v", trial, len(pos), got, ok, want)
		}
	}
}

// TakeNormalised gives the samples and scale NormalisedScale does, and
// leaves the masks without that mask; stages with a Pass callback (which
// overwrites the map between passes) record the masks they do without one.
// Before, the hydraulic and thermal stages then recorded the change since
// their last pass, not since their input: Eroded and Deposited differed.
func TestTakeNormalisedAndPassMasks(t *testing.T) {
	m, p := testMap(t, 129, "fluvial,hydraulic,thermal")
	mk := &Masks{}
	if _, err := Run(context.Background(), m, p, Options{Masks: mk}); err != nil {
		t.Fatal(err)
	}
	m2, _ := testMap(t, 129, "fluvial,hydraulic,thermal")
	mk2 := &Masks{}
	passes := 0
	if _, err := Run(context.Background(), m2, p, Options{Masks: mk2, Pass: func(string, int, int) { passes++ }}); err != nil {
		t.Fatal(err)
	}

	if passes == 0 || !slices.Equal(m.Samples, m2.Samples) || !slices.Equal(mk.Eroded, mk2.Eroded) || !slices.Equal(mk.Deposited, mk2.Deposited) || !slices.Equal(mk.Flow, mk2.Flow) {
		t.Errorf("with %d passes the map or masks differ from a run without", passes)
	}
	for _, name := range MaskNames {
		want, wantScale, err := mk.NormalisedScale(name)
		if err != nil {
			t.Fatal(err)
		}
		got, gotScale, err := mk.TakeNormalised(name)
		if err != nil {
			t.Fatal(err)
		}
		if gotScale != wantScale || !slices.Equal(got.Samples, want.Samples) || got.Width != want.Width || got.CellSize != want.CellSize {
			t.Errorf("%s: TakeNormalised differs from NormalisedScale (%+v, %+v)", name, gotScale, wantScale)
		}
		if _, _, err := mk.NormalisedScale(name); err == nil {
			t.Errorf("%s: still held after TakeNormalised", name)
		}
	}
}
