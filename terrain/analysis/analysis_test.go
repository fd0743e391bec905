package analysis

import (
	"context"
	"cordillera/terrain"
	"math"
	"slices"
	"testing"
)

// A map whose heights are a linear function of the sample coordinates is
// reproduced exactly by bilinear interpolation, so every profile point is
// known in closed form.
func TestProfileOnARamp(t *testing.T) {
	m := reliefMap(33, 17, 1, func(col, row int) float64 { return 0.01*float64(col) + 0.02*float64(row) })
	ramp := func(x, y float64) float64 { return 0.01*x + 0.02*y }
	for _, tc := range []struct {
		name           string
		x0, y0, x1, y1 float64
		n              int
	}{
		{"diagonal", 0, 0, 32, 16, 5},
		{"between samples", 0.5, 3.25, 20.75, 9.5, 7},
		{"backwards", 30, 15, 1, 2, 4},
		{"vertical", 7.5, 0, 7.5, 16, 3},
	} {
		got := Profile(m, tc.x0, tc.y0, tc.x1, tc.y1, tc.n)
		if len(got) != tc.n {
			t.Fatalf("%s: %d heights, want %d", tc.name, len(got), tc.n)
		}
		for i, h := range got {
			f := float64(i) / float64(tc.n-1)
			want := ramp(tc.x0+f*(tc.x1-tc.x0), tc.y0+f*(tc.y1-tc.y0))
			if math.Abs(h-want) > 1e-6 {
				t.Errorf("%s: point %d = %.7f, want %.7f", tc.name, i, h, want)
			}
		}
	}
}

func TestProfileBilinearAndEdges(t *testing.T) {
	m := reliefMap(2, 2, 1, func(col, row int) float64 { return float64(col + 2*row) }) // 0 1 / 2 3
	for _, tc := range []struct {
		x0, y0, x1, y1 float64
		n              int
		want           []float64
	}{
		{0.5, 0.5, 0.5, 0.5, 1, []float64{1.5}},
		{0.25, 0.75, 0.25, 0.75, 1, []float64{1.75}}, // top 0.25, bottom 2.25, blended ¾ down
		{-5, 0, 1, 0, 3, []float64{0, 0, 1}},         // points west of the map take the edge
		{0, 0, 1, 1, 2, []float64{0, 3}},
		{0, 0, 1, 1, 0, nil},
	} {
		got := Profile(m, tc.x0, tc.y0, tc.x1, tc.y1, tc.n)
		if !slices.EqualFunc(got, tc.want, func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }) {
			t.Errorf("Profile(%g,%g → %g,%g, %d) = %v, want %v", tc.x0, tc.y0, tc.x1, tc.y1, tc.n, got, tc.want)
		}
	}
	for _, h := range Profile(m, math.NaN(), 0, 1, 1, 3) {
		if !math.IsNaN(h) {
			t.Errorf("a NaN coordinate gave the height %g, want NaN", h)
		}
	}
}

func TestHistogram(t *testing.T) {
	values := []float32{0, 0.1, 0.25, 0.5, 0.99, 1, -0.5, 1.5, float32(math.NaN())}
	m := terrain.NewHeightmap(len(values), 1)
	copy(m.Samples, values)
	// Bins of [0, 1] by quarters: below 0 joins the first, 1 and above the last; NaN is not counted.
	if got, want := Histogram(m, 4), []int{3, 1, 1, 3}; !slices.Equal(got, want) {
		t.Errorf("Histogram(4) = %v, want %v", got, want)
	}
	if got, want := Histogram(m, 1), []int{8}; !slices.Equal(got, want) {
		t.Errorf("Histogram(1) = %v, want %v", got, want)
	}
	if got := Histogram(m, 0); got != nil {
		t.Errorf("Histogram(0) = %v, want nil", got)
	}
}

// A generated map's histogram counts every sample; the glacier effect
// (bias, thesis eq. 6.3) pushes mass into the lowest bins.
func TestHistogramOfGeneratedMaps(t *testing.T) {
	p := terrain.DefaultParams()
	p.Size = 129
	plain := analysisMap(t, p)
	p.Effect, p.Intensity = terrain.Glacier, 75
	glacier := analysisMap(t, p)
	low := func(h []int) int { return h[0] + h[1] }
	hp, hg := Histogram(plain, 10), Histogram(glacier, 10)
	total := 0
	for _, c := range hp {
		total += c
	}
	if total != 129*129 {
		t.Errorf("histogram counts %d samples, want %d", total, 129*129)
	}
	if low(hg) <= 2*low(hp) {
		t.Errorf("glacier put %d samples below 0.2, plain fBm %d: want the glacier to flatten the lowlands", low(hg), low(hp))
	}
}

func TestMapLine(t *testing.T) {
	m := terrain.NewHeightmap(101, 51)
	x0, y0, x1, y1, err := MapLine(m, 0, 0.5, 1, 1)
	if err != nil || x0 != 0 || y0 != 25 || x1 != 100 || y1 != 50 {
		t.Errorf("MapLine(0, .5, 1, 1) = %g,%g,%g,%g, %v; want 0,25,100,50", x0, y0, x1, y1, err)
	}
	for _, bad := range [][4]float64{{-0.1, 0, 1, 1}, {0, 0, 1.5, 1}, {0, math.NaN(), 1, 1}, {0, 0, math.Inf(1), 1}} {
		if _, _, _, _, err := MapLine(m, bad[0], bad[1], bad[2], bad[3]); err == nil {
			t.Errorf("MapLine(%v) accepted a coordinate outside [0, 1]", bad)
		}
	}
}

// analysisMap generates the map p describes or stops the test.
func analysisMap(t *testing.T, p terrain.Params) *terrain.Heightmap {
	t.Helper()
	m, err := terrain.Generate(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
