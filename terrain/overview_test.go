package terrain

import (
	"context"
	"errors"
	"testing"
)

// The overview (half the map's side beyond each edge, so that the outside's
// first lines fall in it) copies the map where its grid meets the map's
// samples and continues beyond it with the very heights NewOutside draws there: at
// every vertex of the outside's grid that falls on the overview's grid
// beyond the map, the two agree exactly (the same height function, the
// same float32 rounding, times VerticalScale).
func TestOverviewMeetsMapAndOutside(t *testing.T) {
	ctx := context.Background()
	for _, c := range outsideCases {
		for _, stride := range []int{1, 4} {
			p := outsideParams(t, c.set, 161)
			m, err := GeneratePreview(ctx, p, stride, nil)
			if err != nil {
				t.Fatal(err)
			}
			side := 40
			ov, err := NewOverview(ctx, p, m, 0.5, side)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			last := m.Width - 1
			if wantStep := last / side; ov.Step != wantStep || ov.Margin != 20 || ov.Origin != -20*ov.Step {
				t.Fatalf("%s stride %d: step %d, margin %d, origin %d; want step %d, margin 20", c.name, stride, ov.Step, ov.Margin, ov.Origin, wantStep)
			}
			om := ov.Map
			if om.Width != side+41 || om.Height != om.Width || om.CellSize != m.CellSize*float64(ov.Step) || om.VerticalScale != m.VerticalScale {
				t.Fatalf("%s: overview %d×%d, cell %g, scale %g", c.name, om.Width, om.Height, om.CellSize, om.VerticalScale)
			}
			if got, want := ov.Corner(m), -20*float64(ov.Step)*m.CellSize; got != want {
				t.Errorf("%s: corner at %g, want %g", c.name, got, want)
			}
			// Inside: every sample is the map's.
			for j := range om.Height {
				for i := range om.Width {
					col, row := ov.Origin+i*ov.Step, ov.Origin+j*ov.Step
					if col < 0 || row < 0 || col > last || row > last {
						continue
					}
					if got, want := om.At(i, j), m.At(col, row); got != want {
						t.Fatalf("%s stride %d: overview (%d, %d) is %g, map sample (%d, %d) %g", c.name, stride, i, j, got, col, row, want)
					}
				}
			}
			// Beyond: the outside's heights where the grids meet.
			o, err := NewOutside(ctx, p, m)
			if err != nil {
				t.Fatal(err)
			}
			met := 0
			for k := range o.X {
				col, row := o.X[k], o.Z[k]
				if col >= 0 && col <= last && row >= 0 && row <= last {
					continue // on the map: checked above
				}
				oi, oj := col-ov.Origin, row-ov.Origin
				if oi < 0 || oj < 0 || oi%ov.Step != 0 || oj%ov.Step != 0 || oi/ov.Step >= om.Width || oj/ov.Step >= om.Height {
					continue
				}
				met++
				got := float32(float64(om.At(oi/ov.Step, oj/ov.Step)) * m.VerticalScale)
				if want := o.Heights[k]; got != want {
					t.Errorf("%s stride %d: at map sample (%d, %d) the overview has %g, the outside %g", c.name, stride, col, row, got, want)
				}
			}
			if met < 16 {
				t.Errorf("%s stride %d: only %d outside vertices fall on the overview's margin", c.name, stride, met)
			}
		}
	}
}

// A side that does not divide the map's cells takes the largest step that
// still gives at least that many cells across (and at most twice as many,
// or else the largest that gives that many); no margin gives the map.
func TestOverviewStepAndNoMargin(t *testing.T) {
	ctx := context.Background()
	p := outsideParams(t, nil, 161) // 160 cells: divisors 1, 2, 4, 5, 8, 10, …
	m, err := Generate(ctx, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	for side, want := range map[int]int{1: 160, 17: 8, 33: 4, 41: 2, 160: 1, 500: 1} {
		ov, err := NewOverview(ctx, p, m, 0, side)
		if err != nil {
			t.Fatal(err)
		}
		if ov.Step != want || ov.Margin != 0 || ov.Map.Width != 160/want+1 {
			t.Errorf("side %d: step %d, margin %d, width %d; want step %d, no margin", side, ov.Step, ov.Margin, ov.Map.Width, want)
		}
	}
	ov, _ := NewOverview(ctx, p, m, 0, 160)
	for k, v := range m.Samples {
		if ov.Map.Samples[k] != v {
			t.Fatalf("with no margin and step 1, sample %d is %g, the map's %g", k, ov.Map.Samples[k], v)
		}
	}

	// 127 cells, a prime: no divisor gives 40 to 80 cells, so the step is
	// 3 and the grid's last line, column 129, lies beyond the map's last.
	q := outsideParams(t, nil, 128)
	mq, err := Generate(ctx, q, nil)
	if err != nil {
		t.Fatal(err)
	}
	ov, err = NewOverview(ctx, q, mq, 0.25, 40)
	if err != nil {
		t.Fatal(err)
	}
	if ov.Step != 3 || ov.Margin != 11 || ov.Map.Width != 43+22+1 {
		t.Fatalf("127 cells, side 40: step %d, margin %d, width %d; want 3, 11, 66", ov.Step, ov.Margin, ov.Map.Width)
	}
	f, err := newHeightField(q, mq, 1)
	if err != nil {
		t.Fatal(err)
	}
	for j := range ov.Map.Height {
		for i := range ov.Map.Width {
			col, row := ov.Origin+i*3, ov.Origin+j*3
			want := float32(f.height(col, row))
			if col >= 0 && row >= 0 && col < mq.Width && row < mq.Height {
				want = mq.At(col, row)
			}
			if got := ov.Map.At(i, j); got != want {
				t.Fatalf("127 cells: overview (%d, %d) at map sample (%d, %d) is %g, want %g", i, j, col, row, got, want)
			}
		}
	}
}

// Subdivision maps, maps the parameters did not make, bad arguments and a
// cancelled context give errors.
func TestOverviewRefuses(t *testing.T) {
	ctx := context.Background()
	p := outsideParams(t, nil, 65)
	m, err := Generate(ctx, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	ds := p
	ds.Algorithm = DiamondSquareAlg
	if _, err := NewOverview(ctx, ds, m, 0.25, 16); !errors.Is(err, ErrNoOutside) {
		t.Errorf("diamond-square: %v, want ErrNoOutside", err)
	}
	other := NewHeightmap(64, 64)
	other.CellSize = m.CellSize
	if _, err := NewOverview(ctx, p, other, 0.25, 16); err == nil {
		t.Error("a map of another size: no error")
	}
	for _, bad := range [][2]float64{{-1, 16}, {0.25, 0}} {
		if _, err := NewOverview(ctx, p, m, bad[0], int(bad[1])); err == nil {
			t.Errorf("margin %g, side %g: no error", bad[0], bad[1])
		}
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := NewOverview(done, p, m, 0.25, 16); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}

// BenchmarkOverview1025 is the minimap's overview of the default 1025²
// world (192 cells across the map's square and a quarter of it beyond
// each edge, as game.AddOutside asks) beside the coarse outside the
// explorer draws, for the ratio of their costs in one run.
func BenchmarkOverview1025(b *testing.B) {
	ctx := context.Background()
	p := DefaultParams()
	m, err := Generate(ctx, p, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("overview", func(b *testing.B) {
		for b.Loop() {
			if _, err := NewOverview(ctx, p, m, 0.25, 192); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("outside", func(b *testing.B) {
		for b.Loop() {
			if _, err := NewOutside(ctx, p, m); err != nil {
				b.Fatal(err)
			}
		}
	})
}
