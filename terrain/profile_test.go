package terrain

import (
	"context"
	"math"
	"testing"
)

// The 1-D midpoint algorithm on 5 points with R chosen by hand: A = 1,
// H = 1, so z = R at n = 0, R/2 at n = 1, R/4 at n = 2 (notes eq. 2).
func TestMidpointProfileHandValues(t *testing.T) {
	R := map[int]float64{0: 0.5, 4: -0.5, 2: 0.25, 1: 1, 3: -1}
	amp := []float64{1, 0.5, 0.25}
	pr := midpointProfile(2, amp, nil, func(mean float32, n, x int) float32 {
		return float32(float64(mean) + amp[n]*R[x])
	})
	// h0 = 0.5, h4 = −0.5; h2 = (0.5 − 0.5)/2 + 0.5·0.25 = 0.125;
	// h1 = (0.5 + 0.125)/2 + 0.25·1 = 0.5625; h3 = (0.125 − 0.5)/2 − 0.25 = −0.4375.
	want := []float32{0.5, 0.5625, 0.125, -0.4375, -0.5}
	wantIt := []int{0, 2, 1, 2, 0}
	for x := range want {
		if pr.Heights[x] != want[x] || pr.Iteration[x] != wantIt[x] {
			t.Errorf("h(%d) = %g set at n = %d; want %g at n = %d", x, pr.Heights[x], pr.Iteration[x], want[x], wantIt[x])
		}
	}
	if got := pr.At(1); len(got) != 3 || got[1] != [2]float64{2, 0.125} {
		t.Errorf("after iteration 1 the profile is %v; want the ends and (2, 0.125)", got)
	}
}

// The 1-D profile is the bottom edge of the 2-D midpoint map the same
// parameters make, bit for bit: the boundary's points have only their two
// boundary neighbours for parents (notes eq. 7) and draw the same R.
// An inner row is not a 1-D profile: its points average across rows.
func TestMidpointProfileIsTheMapsEdge(t *testing.T) {
	for _, corners := range []string{CornersRandom, CornersFixed} {
		p := DefaultParams()
		p.Algorithm, p.Size, p.Seed, p.Hurst, p.Corners = Midpoint, 33, 7, 0.6, corners
		st, err := SubdivisionSteps(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		m, _ := st.State(len(st.Steps()))
		pr, err := MidpointProfile(p, 33)
		if err != nil {
			t.Fatal(err)
		}
		for x := range 33 {
			if pr.Heights[x] != m.At(x, 0) {
				t.Fatalf("corners %s: h(%d) = %g, the map's (%d, 0) = %g", corners, x, pr.Heights[x], x, m.At(x, 0))
			}
		}
		same := true
		for x := range 33 {
			same = same && pr.Heights[x] == m.At(x, 16)
		}
		if same {
			t.Errorf("corners %s: the map's middle row equals the profile", corners)
		}
	}
	if _, err := MidpointProfile(DefaultParams(), 30); err == nil {
		t.Error("a 30-point profile was made; want an error (2^N + 1 points)")
	}
}

// 1-D gradient noise by hand: 0 at lattice points, and midway between
// two of them (g_i − g_{i+1})/2, from the fade's value 1/2 there.
func TestGradient1DHandValues(t *testing.T) {
	n := gradient1D{key: 12345}
	for i := -3; i < 4; i++ {
		if v := n.Value(float64(i)); v != 0 {
			t.Errorf("N(%d) = %g, want 0 at a lattice point", i, v)
		}
		want := (n.slope(i) - n.slope(i+1)) / 2
		if v := n.Value(float64(i) + 0.5); math.Abs(v-want) > 1e-15 {
			t.Errorf("N(%g) = %g, want (g_i − g_i+1)/2 = %g", float64(i)+0.5, v, want)
		}
		if g := n.slope(i); g < -1 || g >= 1 {
			t.Errorf("slope %d = %g outside [−1, 1)", i, g)
		}
	}
}

// Each 1-D partial sum adds octave i as listing 6.1 does, N_i(λ^i x) times
// λ^(−iH), with the weights the 2-D generator uses.
func TestProfileOctavesAreListing61(t *testing.T) {
	p := DefaultParams()
	p.Octaves, p.Lacunarity, p.Hurst, p.Seed, p.FeatureSize = 5, 2, 0.8, 3, 50
	parts, err := ProfileOctaves(p, 65)
	if err != nil {
		t.Fatal(err)
	}
	p.Algorithm, p.Size = FBm, 65
	s, err := newSynthesis(p)
	if err != nil {
		t.Fatal(err)
	}
	freq := 1 / featurePeriod(65, p.FeatureSize)
	for i := range p.Octaves {
		if a := ProfileAmplitude(p, i); a != s.amps[i] || math.Abs(a-math.Pow(2, -0.8*float64(i))) > 1e-15 {
			t.Errorf("octave %d: weight %g; the 2-D generator's %g, 2^(−0.8·%d) = %g", i, a, s.amps[i], i, math.Pow(2, -0.8*float64(i)))
		}
		n := gradient1D{key: seedKey(octaveSeed(p.Seed, i))}
		for _, col := range []int{0, 17, 64} {
			before := 0.0
			if i > 0 {
				before = parts[i-1][col]
			}
			x := float64(col)*freq + gridOffset
			want := math.Pow(2, -0.8*float64(i)) * n.Value(math.Pow(2, float64(i))*x)
			if got := parts[i][col] - before; math.Abs(got-want) > 1e-12 {
				t.Errorf("octave %d at %d adds %g, want λ^(−iH)·N(λ^i x) = %g", i, col, got, want)
			}
		}
	}
}
