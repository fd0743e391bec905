package noise

import (
	"math"
	"strings"
	"testing"
)

// allBases returns every basis for a seed, in Kinds order.
func allBases(t testing.TB, seed int64) []Basis {
	t.Helper()
	var bs []Basis
	for _, k := range Kinds {
		b, err := New(k, seed)
		if err != nil {
			t.Fatalf("New(%q): %v", k, err)
		}
		bs = append(bs, b)
	}
	return bs
}

func TestNewUnknownKind(t *testing.T) {
	_, err := New("fractal", 1)
	if err == nil || !strings.Contains(err.Error(), `"fractal"`) {
		t.Fatalf("New(\"fractal\") error = %v, want one naming the kind", err)
	}
}

func TestNewKinds(t *testing.T) {
	tests := []struct {
		kind Kind
		want Basis
	}{
		{Value, NewValue(5)},
		{Perlin, NewPerlin(5)},
		{Simplex, NewSimplex(5)},
		{Worley, NewWorley(5, F1)},
		{WorleyEdge, NewWorley(5, F2MinusF1)},
	}
	if len(tests) != len(Kinds) {
		t.Fatalf("test covers %d kinds, Kinds has %d", len(tests), len(Kinds))
	}
	for _, tt := range tests {
		got, err := New(tt.kind, 5)
		if err != nil {
			t.Fatalf("New(%q): %v", tt.kind, err)
		}
		if got != tt.want {
			t.Errorf("New(%q) = %#v, want %#v", tt.kind, got, tt.want)
		}
	}
}

func TestGradientTable(t *testing.T) {
	const ulp = 0x1p-52
	for k, g := range gradients {
		// θ_k = q·π/2 + θ_m: take cos and sin of the small angle θ_m, where
		// they are accurate, and turn the result q quarter turns exactly.
		q, m := k/64, k%64
		s, c := math.Sincos(2 * math.Pi * (float64(m) + 0.5) / 256)
		for range q {
			c, s = -s, c
		}
		if d := max(math.Abs(g.x-c), math.Abs(g.y-s)); d > ulp {
			t.Errorf("gradients[%d] = %v, want (cos θ, sin θ) = (%v, %v) (off by %g)", k, g, c, s, d)
		}
		if d := math.Abs(g.x*g.x + g.y*g.y - 1); d > 2*ulp {
			t.Errorf("|gradients[%d]|² − 1 = %g", k, d)
		}
		if o := gradients[(k+128)%256]; o.x != -g.x || o.y != -g.y {
			t.Errorf("gradients[%d] = %v is not exactly −gradients[%d] = %v", (k+128)%256, o, k, g)
		}
	}
}

func TestFloorFrac(t *testing.T) {
	tests := []struct {
		x     float64
		i     int
		u     float64
		exact bool
	}{
		{0, 0, 0, true},
		{math.Copysign(0, -1), 0, 0, true},
		{2.25, 2, 0.25, true},
		{-2.25, -3, 0.75, true},
		{-3, -3, 0, true},
		{1e6 + 0.5, 1000000, 0.5, true},
		{-1e6 - 0.5, -1000001, 0.5, true},
		{-1e-300, -1, 1, true}, // 1 − 1e-300 rounds to 1
	}
	for _, tt := range tests {
		i, u := floorFrac(tt.x)
		if i != tt.i || u != tt.u {
			t.Errorf("floorFrac(%v) = %d, %v, want %d, %v", tt.x, i, u, tt.i, tt.u)
		}
	}
}
