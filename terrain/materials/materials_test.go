package materials

import (
	"bytes"
	"context"
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

// Baking a texture for a large mesh moves a bar row by row: one report a
// row, never going back, 1 only with the last row, and the texture the
// same as Bake's.
func TestBakeReportsItsRows(t *testing.T) {
	m := terrain.NewHeightmap(37, 50)
	for i := range m.Samples {
		m.Samples[i] = float32(i%41) / 40
	}
	var reports []float64
	img, err := BakeProgress(context.Background(), m, DefaultRule, func(f float64) { reports = append(reports, f) })
	if err != nil {
		t.Fatal(err)
	}
	if len(reports) != m.Height {
		t.Fatalf("%d reports for %d rows", len(reports), m.Height)
	}
	prev := 0.0
	for i, f := range reports {
		if f <= prev && i > 0 || f > 1 {
			t.Errorf("report %d is %v after %v", i, f, prev)
		}
		if f == 1 && i != len(reports)-1 {
			t.Errorf("100 %% at row %d of %d", i+1, m.Height)
		}
		prev = f
	}
	if reports[len(reports)-1] != 1 {
		t.Errorf("the last report is %v, want 1", reports[len(reports)-1])
	}
	want, err := Bake(m, DefaultRule)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(img.Pix, want.Pix) {
		t.Error("BakeProgress's texture differs from Bake's")
	}
}
