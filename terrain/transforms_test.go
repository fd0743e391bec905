package terrain

import (
	"context"
	"math"
	"testing"
)

func TestBiasGainFixedPointsAndMonotonic(t *testing.T) {
	type curve struct {
		name string
		f    func(float64) float64
		half float64 // value at ½
	}
	var curves []curve
	for _, b := range []float64{0.05, 0.2, 0.35, 0.5} {
		curves = append(curves, curve{"bias", func(t float64) float64 { return Bias(b, t) }, b})
	}
	for _, g := range []float64{0.5, 0.6, 0.8, 0.95} {
		curves = append(curves, curve{"gain", func(t float64) float64 { return Gain(g, t) }, 0.5})
		curves = append(curves, curve{"plateau", func(t float64) float64 { return PlateauGain(g, t) }, 0.5})
	}
	for _, c := range curves {
		if c.f(0) != 0 || math.Abs(c.f(1)-1) > 1e-15 || math.Abs(c.f(0.5)-c.half) > 1e-12 {
			t.Errorf("%s: f(0)=%v f(½)=%v f(1)=%v, want 0, %v, 1", c.name, c.f(0), c.f(0.5), c.f(1), c.half)
		}
		prev := c.f(0)
		for i := 1; i <= 1000; i++ {
			v := c.f(float64(i) / 1000)
			if v < prev {
				t.Fatalf("%s not monotonic at t=%v: %v < %v", c.name, float64(i)/1000, v, prev)
			}
			prev = v
		}
	}
}

func TestEffectCurves(t *testing.T) {
	for _, e := range Effects {
		id := EffectCurve(e, 0)
		for _, x := range []float64{0, 0.1, 0.37, 0.5, 0.8, 1} {
			if math.Abs(id(x)-x) > 1e-12 {
				t.Errorf("%s at intensity 0 changes %v to %v", e, x, id(x))
			}
		}
	}
	// Glacier: low ground lower and flatter, so heights drop everywhere.
	g := EffectCurve(Glacier, 0.75)
	if !(g(0.25) < 0.25/2 && g(0.5) < 0.5) {
		t.Errorf("glacier 75%%: g(¼)=%v g(½)=%v, want both well below the identity", g(0.25), g(0.5))
	}
	// Canyon: flat lowlands and highlands, steep middle.
	c := EffectCurve(Canyon, 0.75)
	if slope := (c(0.55) - c(0.45)) / 0.1; slope < 2 {
		t.Errorf("canyon 75%%: middle slope %v, want > 2", slope)
	}
	if c(0.1) > 0.05 || c(0.9) < 0.95 {
		t.Errorf("canyon 75%%: c(0.1)=%v c(0.9)=%v, want flattened ends", c(0.1), c(0.9))
	}
	// Plateau: the upper half is pulled towards ½.
	p := EffectCurve(Plateau, 0.75)
	if !(p(0.75) < 0.6 && p(0.95) < 0.75) {
		t.Errorf("plateau 75%%: p(¾)=%v p(0.95)=%v, want a plateau near ½", p(0.75), p(0.95))
	}
}

func TestEffectsApplyToEveryAlgorithm(t *testing.T) {
	for _, alg := range Algorithms {
		p := smallParams(alg)
		base, err := Generate(context.Background(), p, nil)
		if err != nil {
			t.Fatal(alg, err)
		}
		for _, e := range []Effect{Glacier, Canyon, Plateau} {
			q := p
			q.Effect, q.Intensity = e, 75
			m, err := Generate(context.Background(), q, nil)
			if err != nil {
				t.Fatal(alg, e, err)
			}
			curve := EffectCurve(e, 0.75)
			for i, v := range base.Samples {
				if want := float32(curve(float64(v))); m.Samples[i] != want {
					t.Fatalf("%s+%s: sample %d = %v, want curve(%v) = %v", alg, e, i, m.Samples[i], v, want)
				}
			}
		}
		q := p
		q.Distortion = 60
		m, err := Generate(context.Background(), q, nil)
		if err != nil {
			t.Fatal(alg, "distortion", err)
		}
		if diff := meanAbsDiff(m, base); diff < 0.01 {
			t.Errorf("%s: distortion 60%% changed the map by only %v on average", alg, diff)
		}
	}
}

func TestBilinear(t *testing.T) {
	m := NewHeightmap(3, 2)
	copy(m.Samples, []float32{0, 1, 2, 10, 11, 12})
	for _, c := range []struct{ x, y, want float64 }{
		{0, 0, 0}, {2, 1, 12}, {0.5, 0, 0.5}, {1, 0.5, 6}, {1.5, 0.5, 6.5}, {-3, -3, 0}, {9, 9, 12},
	} {
		if got := m.Bilinear(c.x, c.y); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Bilinear(%v,%v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}

func meanAbsDiff(a, b *Heightmap) float64 {
	var s float64
	for i := range a.Samples {
		s += math.Abs(float64(a.Samples[i] - b.Samples[i]))
	}
	return s / float64(len(a.Samples))
}

// smallParams returns quick parameters for alg: a 65² map with 6 octaves.
func smallParams(alg Algorithm) Params {
	p := DefaultParams()
	p.Algorithm, p.Size, p.Octaves, p.FeatureSize = alg, 65, 6, 85
	return p
}
