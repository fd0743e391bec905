package game

import (
	"math"
	"testing"

	"cordillera/terrain"
)

// Every generation parameter has a panel name, unlike its flag's, that
// fits its label cell on one line.
func TestEverySpecHasAPanelName(t *testing.T) {
	for _, s := range terrain.Specs {
		l, ok := specLabels[s.Name]
		switch {
		case !ok:
			t.Errorf("%s has no panel name in specLabels", s.Name)
		case l == s.Name:
			t.Errorf("%s's panel name is its flag's", s.Name)
		case !fitsLabel(l):
			t.Errorf("%s's panel name %q is %d characters wide, more than the %d its cell holds", s.Name, l, labelWidth(l), labelChars)
		}
	}
}

// The feature size in metres is the first octave's period: one cell at
// 0 %, the map's size in samples at 100 %, and back again.
func TestFeatureSizeInMetres(t *testing.T) {
	p := terrain.DefaultParams()
	p.Size, p.CellSize = 257, 4
	for _, c := range []struct{ share, metres float64 }{{0, 4}, {100, 4 * 257}, {50, 4 * math.Sqrt(257)}} {
		p.FeatureSize = c.share
		if got := featureMetres(&p); math.Abs(got-c.metres) > 1e-9 {
			t.Errorf("feature size %g %% on 257 samples of 4 m = %g m; want %g", c.share, got, c.metres)
		}
		if got := featureShare(&p, c.metres); math.Abs(got-c.share) > 1e-9 {
			t.Errorf("%g m = feature size %g %%; want %g", c.metres, got, c.share)
		}
	}
}
