package terrain

import (
	"context"
	"testing"
)

// Midpoint displacement and diamond-square with one seed draw the same R
// and the same A·2^(−nH) at every vertex: the compare lesson's claim that
// their maps differ only by the averaging rule. The vertices' iterations
// agree too (a vertex is new at the same n in both), though not their
// passes (edges first in one, centres first in the other).
func TestMidpointAndDiamondSquareShareOffsets(t *testing.T) {
	p := DefaultParams()
	p.Size, p.Seed, p.Hurst = 17, 99, 0.7
	var st [2]*Stepper
	for i, alg := range []Algorithm{Midpoint, DiamondSquareAlg} {
		q := p
		q.Algorithm = alg
		var err error
		if st[i], err = SubdivisionSteps(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	differ := 0
	for y := range 17 {
		for x := range 17 {
			a, err := st[0].Point(x, y)
			if err != nil {
				t.Fatal(err)
			}
			b, err := st[1].Point(x, y)
			if err != nil {
				t.Fatal(err)
			}
			if a.R != b.R || a.Amp != b.Amp || a.Z != b.Z {
				t.Fatalf("(%d, %d): midpoint R %g, amp %g; diamond-square R %g, amp %g", x, y, a.R, a.Amp, b.R, b.Amp)
			}
			if (a.Stage+1)/2 != (b.Stage+1)/2 {
				t.Errorf("(%d, %d): set at iteration %d by midpoint, %d by diamond-square", x, y, (a.Stage+1)/2, (b.Stage+1)/2)
			}
			if a.Height != b.Height {
				differ++
			}
		}
	}
	if differ == 0 {
		t.Error("the two maps are equal: the averaging rules should make them differ")
	}
}
