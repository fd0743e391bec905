package terrain

import (
	"context"
	"math"
	"strings"
	"testing"

	"cordillera/noise"
)

// -tileable maps wrap: the left column equals the right and the top row
// the bottom, and the slopes run on across the seam as they do inside.
func TestTileableWraps(t *testing.T) {
	for _, tt := range []struct {
		alg        Algorithm
		basis      string
		lacunarity float64
		distortion float64
	}{
		{FBm, "perlin", 2, 0}, {Ridged, "perlin", 2, 0}, {Quilez, "value", 2, 0},
		{Swiss, "perlin", 3, 0}, {Hybrid, "value", 2, 40}, {Billow, "perlin", 2, 0},
	} {
		p := DefaultParams()
		p.Algorithm, p.Basis, p.Lacunarity, p.Distortion = tt.alg, noise.Kind(tt.basis), tt.lacunarity, tt.distortion
		p.Size, p.FeatureSize, p.Tileable = 129, 80, true
		m, err := Generate(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		n := m.Width
		name := string(tt.alg) + "/" + tt.basis
		maxStep, maxCurve := 0.0, 0.0 // largest first and second differences inside the map
		for y := range n {
			for x := 1; x < n-1; x++ {
				maxStep = max(maxStep, math.Abs(float64(m.At(x+1, y)-m.At(x, y))), math.Abs(float64(m.At(y, x+1)-m.At(y, x))))
				maxCurve = max(maxCurve, math.Abs(float64(m.At(x+1, y)-2*m.At(x, y)+m.At(x-1, y))),
					math.Abs(float64(m.At(y, x+1)-2*m.At(y, x)+m.At(y, x-1))))
			}
		}
		for k := range n {
			if d := math.Abs(float64(m.At(0, k) - m.At(n-1, k))); d > 1e-5 {
				t.Fatalf("%s: row %d: left %v, right %v", name, k, m.At(0, k), m.At(n-1, k))
			}
			if d := math.Abs(float64(m.At(k, 0) - m.At(k, n-1))); d > 1e-5 {
				t.Fatalf("%s: column %d: top %v, bottom %v", name, k, m.At(k, 0), m.At(k, n-1))
			}
			// Across the seam the neighbours of column 0 are columns 1 and n−2.
			for _, pair := range [][3]float32{{m.At(n-2, k), m.At(0, k), m.At(1, k)}, {m.At(k, n-2), m.At(k, 0), m.At(k, 1)}} {
				step := max(math.Abs(float64(pair[1]-pair[0])), math.Abs(float64(pair[2]-pair[1])))
				curve := math.Abs(float64(pair[2] - 2*pair[1] + pair[0]))
				if step > 1.01*maxStep+1e-6 || curve > 1.01*maxCurve+1e-6 {
					t.Fatalf("%s: seam at %d: step %.3g (inside ≤ %.3g), curvature %.3g (inside ≤ %.3g)", name, k, step, maxStep, curve, maxCurve)
				}
			}
		}
	}
}

// Without -tileable the edges do not match (so the test above means
// something), and the plain map is the one made before the flag existed.
func TestTileableOffChangesNothing(t *testing.T) {
	p := DefaultParams()
	p.Size = 65
	a, err := Generate(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := GenerateReference(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	same := 0
	for k := range a.Width {
		if a.At(0, k) == a.At(a.Width-1, k) {
			same++
		}
	}
	if same > 2 {
		t.Errorf("a plain map has %d equal edge samples", same)
	}
	for i := range a.Samples {
		if a.Samples[i] != ref.Samples[i] {
			t.Fatalf("sample %d: fast %v, reference %v", i, a.Samples[i], ref.Samples[i])
		}
	}
}

func TestTileableRefusals(t *testing.T) {
	for _, tt := range []struct {
		edit func(p *Params)
		want string
	}{
		{func(p *Params) { p.Algorithm = DiamondSquareAlg }, "does not wrap"},
		{func(p *Params) { p.Basis = "simplex" }, "cannot be made periodic"},
		{func(p *Params) { p.Lacunarity = 2.5 }, "whole number"},
		{func(p *Params) { p.Lacunarity, p.Octaves = 16, 24 }, "fewer octaves"},
	} {
		p := DefaultParams()
		p.Size, p.Tileable = 65, true
		tt.edit(&p)
		if _, err := Generate(context.Background(), p, nil); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v; want %q", err, tt.want)
		}
	}
}

// The fast path of a tileable map is the point-evaluated reference, bit
// for bit, as for every other map.
func TestTileableFastMatchesReference(t *testing.T) {
	for _, alg := range []Algorithm{FBm, Quilez, Hybrid} {
		p := DefaultParams()
		p.Algorithm, p.Size, p.Tileable, p.Basis = alg, 65, true, "value"
		if alg == FBm {
			p.Basis, p.Distortion = "perlin", 20
		}
		fast, err := Generate(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := GenerateReference(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		for i := range fast.Samples {
			if fast.Samples[i] != ref.Samples[i] {
				t.Fatalf("%s: sample %d: fast %v, reference %v", alg, i, fast.Samples[i], ref.Samples[i])
			}
		}
	}
}
