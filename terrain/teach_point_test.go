package terrain

import (
	"math"
	"slices"
	"testing"
)

// Every point of a subdivision map, as Stepper.Point explains it, agrees
// with a reference written from the notes in float64: its parents are the
// neighbours at distance d_n that its stage reads (the square's corners
// for a diamond, the points beside it for a square step, an edge's ends,
// a centre's four edge midpoints), their mean plus A·2^(−nH)·R is its
// height, and that height is the generator's sample bit for bit.
func TestStepperPointMatchesReference(t *testing.T) {
	for _, alg := range []Algorithm{Midpoint, DiamondSquareAlg} {
		for _, corners := range []string{CornersRandom, CornersFixed} {
			p := DefaultParams()
			p.Algorithm, p.Size, p.Seed, p.Corners, p.CornerValue = alg, 17, 7, corners, 0.25
			st, err := SubdivisionSteps(t.Context(), p)
			if err != nil {
				t.Fatal(err)
			}
			final, _ := st.State(len(st.Steps()))
			last := p.Size - 1
			for k, step := range st.Steps() {
				d, n := step.Spacing, step.Iteration
				for _, a := range step.Added {
					x, y := a[0], a[1]
					got, err := st.Point(x, y)
					if err != nil {
						t.Fatalf("%s: %v", alg, err)
					}
					var want [][2]int
					switch {
					case step.Stage == StageDiamond:
						want = [][2]int{{x - d, y - d}, {x + d, y - d}, {x - d, y + d}, {x + d, y + d}}
					case step.Stage == StageEdges && y%(2*d) == 0:
						want = [][2]int{{x - d, y}, {x + d, y}}
					case step.Stage == StageEdges:
						want = [][2]int{{x, y - d}, {x, y + d}}
					default: // centres and square steps: the neighbours inside the map
						for _, q := range [][2]int{{x, y - d}, {x, y + d}, {x - d, y}, {x + d, y}} {
							if q[0] >= 0 && q[1] >= 0 && q[0] <= last && q[1] <= last {
								want = append(want, q)
							}
						}
					}
					sortPts := func(s [][2]int) [][2]int {
						s = slices.Clone(s)
						slices.SortFunc(s, func(a, b [2]int) int { return (a[1]-b[1])*1000 + a[0] - b[0] })
						return s
					}
					if !slices.Equal(sortPts(got.Parents), sortPts(want)) {
						t.Fatalf("%s stage %d point (%d, %d): parents %v; want %v", alg, k+1, x, y, got.Parents, want)
					}
					var mean float64
					for _, q := range want {
						mean += float64(final.At(q[0], q[1]))
					}
					mean /= float64(len(want))
					amp := p.Amplitude * math.Exp2(-float64(n)*p.Hurst)
					r := vertexRandom(seedKey(p.Seed), x, y)
					tol := 1e-5 * p.Amplitude
					if got.Stage != k+1 || math.Abs(float64(got.Mean)-mean) > tol || math.Abs(got.Amp-amp) > 1e-12*amp ||
						got.R != r || math.Abs(got.Z-amp*r) > 1e-9*amp || math.Abs(float64(got.Height)-(mean+amp*r)) > tol {
						t.Fatalf("%s point (%d, %d): stage %d mean %g amp %g R %g z %g h %g; want stage %d mean %g amp %g R %g z %g h %g",
							alg, x, y, got.Stage, got.Mean, got.Amp, got.R, got.Z, got.Height, k+1, mean, amp, r, amp*r, mean+amp*r)
					}
					if got.Height != final.At(x, y) {
						t.Fatalf("%s point (%d, %d): height %g; the map holds %g", alg, x, y, got.Height, final.At(x, y))
					}
				}
			}
			c, err := st.Point(0, 0)
			if err != nil || c.Stage != 0 || len(c.Parents) != 0 || c.Height != final.At(0, 0) {
				t.Errorf("%s corner: %+v, %v", alg, c, err)
			}
			if corners == CornersFixed && c.Height != float32(0.25*p.Amplitude) {
				t.Errorf("%s fixed corner height %g; want %g", alg, c.Height, 0.25*p.Amplitude)
			}
		}
	}
	st, _ := SubdivisionSteps(t.Context(), Params{Algorithm: Midpoint, Size: 5, Hurst: 1, Amplitude: 1, Corners: CornersRandom, CellSize: 1})
	if st != nil {
		if _, err := st.Point(5, 0); err == nil {
			t.Error("a point outside the map was explained")
		}
	}
}
