package materials

import (
	"cordillera/terrain"
	"math"
	"testing"
)

// The weights follow thesis listing 5.3 as the shader implements it.
func TestWeights(t *testing.T) {
	r := DefaultRule
	tests := []struct {
		val  float32
		want [Count]float32
	}{
		{0, [Count]float32{1, 0, 0, 0}},
		{0.12, [Count]float32{1, 0, 0, 0}},      // on a boundary: the lower material
		{0.145, [Count]float32{0.5, 0.5, 0, 0}}, // half-way through the blend
		{0.3, [Count]float32{0, 1, 0, 0}},
		{0.6, [Count]float32{0, 0, 1, 0}},
		{0.9, [Count]float32{0, 0, 0, 1}},
		{1, [Count]float32{0, 0, 0, 1}},
	}
	for _, tt := range tests {
		got := r.Weights(tt.val)
		sum := float32(0)
		for k := range Count {
			sum += got[k]
			if math.Abs(float64(got[k]-tt.want[k])) > 1e-6 {
				t.Errorf("Weights(%v) = %v, want %v", tt.val, got, tt.want)
				break
			}
		}
		if math.Abs(float64(sum-1)) > 1e-6 {
			t.Errorf("Weights(%v) sum to %v", tt.val, sum)
		}
	}
}

func TestBake(t *testing.T) {
	m := terrain.NewHeightmap(4, 1)
	copy(m.Samples, []float32{0, 0.3, 0.6, 1})
	img, err := Bake(m, DefaultRule)
	if err != nil {
		t.Fatal(err)
	}
	cols, err := MeanColours()
	if err != nil {
		t.Fatal(err)
	}
	for x := range 4 {
		if got := img.RGBAAt(x, 0); got != cols[x] {
			t.Errorf("texel %d = %v, want material %d's mean colour %v", x, got, x, cols[x])
		}
	}
	if cols[3].R < cols[1].R || cols[3].B < 200 {
		t.Errorf("snow %v is not lighter than grass %v", cols[3], cols[1])
	}
}
