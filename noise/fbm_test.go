package noise

import (
	"math"
	"testing"
)

// TestFBmMatchesPoints checks that FBm rows are bit for bit the octave by
// octave sum of the point forms, from 0 in octave order, with every kernel
// this machine runs, for every basis (the vector kernels serve Perlin and
// value noise; the others go octave by octave), periodic ones included.
func TestFBmMatchesPoints(t *testing.T) {
	for _, kernel := range Kernels() {
		t.Run(string(kernel), func(t *testing.T) {
			useKernel(t, kernel)
			for _, seed := range []int64{1, 17, -5} {
				for _, kind := range Kinds {
					testFBm(t, kind, seed, 0, 1)
				}
				testFBm(t, Perlin, seed, 3, 1)
				testFBm(t, Value, seed, 3, 1)
			}
			// Heights that are all zero, or NaN, whose range the vector
			// kernels leave to the Go loop.
			for _, scale := range []float64{0, math.NaN(), math.Inf(1)} {
				testFBm(t, Perlin, 1, 0, scale)
				testFBm(t, Value, 1, 0, scale)
			}
		})
	}
}

// TestMultifractalMatchesPoints is TestFBmMatchesPoints for the
// heterogeneous and hybrid multifractals' folds (NewMultifractal), at an
// offset where the hybrid weight stays below 1 and one where it is capped,
// with NaN and infinite amplitudes, which the cap must pass on as the
// point-by-point steps do.
func TestMultifractalMatchesPoints(t *testing.T) {
	for _, kernel := range Kernels() {
		t.Run(string(kernel), func(t *testing.T) {
			useKernel(t, kernel)
			for _, fold := range []Fold{FoldHetero, FoldHybrid} {
				for _, offset := range []float64{0.7, 1.6} {
					testFold(t, Perlin, 1, 0, 1, fold, offset)
					testFold(t, Perlin, -5, 0, 1, fold, offset)
					testFold(t, Value, 1, 0, 1, fold, offset)
					testFold(t, Perlin, 1, 3, 1, fold, offset)
					for _, scale := range []float64{math.NaN(), math.Inf(1)} {
						testFold(t, Perlin, 1, 0, scale, fold, offset)
					}
				}
			}
		})
	}
}

// foldPoint is one octave's step of fold at one sample, as terrain's
// heteroStep and hybridStep write it: octave 0 starts h (and w) at
// n + offset.
func foldPoint(fold Fold, i int, h, w, amp, n, offset float64) (float64, float64) {
	switch {
	case fold == FoldFBm:
		return h + float64(amp*n), w
	case i == 0:
		return n + offset, n + offset
	case fold == FoldHetero:
		return h + float64(h*amp*(n+offset)), w
	}
	if w > 1 {
		w = 1
	}
	aux := amp * (n + offset)
	return h + float64(w*aux), w * aux
}

// testFBm sums 8 octaves at λ = 2 of the basis kind (periodic with this
// many cells in the first octave, if not 0), their amplitudes multiplied
// by scale, over the grid cases.
func testFBm(t *testing.T, kind Kind, seed int64, period int, scale float64) {
	testFold(t, kind, seed, period, scale, FoldFBm, 0)
}

// testFold is testFBm with the octaves folded by fold.
func testFold(t *testing.T, kind Kind, seed int64, period int, scale float64, fold Fold, offset float64) {
	const octaves, lacunarity = 8, 2.0
	for name, xs0 := range gridCases() {
		var bases []Basis
		var grids []*Grid
		var amps []float64
		xs := append([]float64(nil), xs0...)
		for i := range octaves {
			if i > 0 {
				for k := range xs {
					xs[k] *= lacunarity
				}
			}
			var b Basis
			var err error
			if period > 0 {
				b, err = NewPeriodic(kind, seed+int64(i), period<<i, period<<i)
			} else {
				b, err = New(kind, seed+int64(i))
			}
			if err != nil {
				t.Fatal(err)
			}
			bases = append(bases, b)
			grids = append(grids, NewGrid(b, append([]float64(nil), xs...)))
			amps = append(amps, scale*math.Pow(lacunarity, -float64(i)))
		}
		f := NewMultifractal(grids, amps, fold, offset)
		for s, ys := range gridYs {
			for _, y0 := range ys {
				octaveYs := make([]float64, octaves)
				for i := range octaveYs {
					octaveYs[i] = y0 * math.Pow(lacunarity, float64(i))
				}
				out := make([]float32, len(xs))
				lo, hi := f.Row(octaveYs, out)
				wantLo, wantHi := float32(0), float32(0)
				for k := range out {
					var h, w float64
					for i, b := range bases {
						h, w = foldPoint(fold, i, h, w, amps[i], b.Value(grids[i].xs[k], octaveYs[i]), offset)
					}
					if math.Float32bits(out[k]) != math.Float32bits(float32(h)) {
						t.Fatalf("fold %d offset %v, %s seed %d period %d ×%g, %s, sequence %d: FBm at sample %d, row %v = %v, want %v",
							fold, offset, kind, seed, period, scale, name, s, k, y0, out[k], float32(h))
					}
					if k == 0 {
						wantLo, wantHi = out[0], out[0]
					}
					wantLo, wantHi = min(wantLo, out[k]), max(wantHi, out[k])
				}
				if math.Float32bits(lo) != math.Float32bits(wantLo) || math.Float32bits(hi) != math.Float32bits(wantHi) {
					t.Fatalf("%s seed %d period %d ×%g, %s, sequence %d: FBm row %v range [%v, %v], want [%v, %v]",
						kind, seed, period, scale, name, s, y0, lo, hi, wantLo, wantHi)
				}
			}
		}
	}
}

// BenchmarkFBmRow sums 8 octaves of Perlin noise along 1025-sample rows,
// the default map's, with each kernel this machine runs.
func BenchmarkFBmRow(b *testing.B) {
	for _, kernel := range Kernels() {
		b.Run(string(kernel), func(b *testing.B) {
			previous, _ := UseKernel(kernel)
			defer UseKernel(previous)
			xs := benchRow(512)
			var grids []*Grid
			var amps []float64
			for i := range 8 {
				grids = append(grids, NewGrid(NewPerlin(int64(i)), append([]float64(nil), xs...)))
				amps = append(amps, math.Ldexp(1, -i))
				for k := range xs {
					xs[k] *= 2
				}
			}
			f := NewFBm(grids, amps)
			out := make([]float32, len(xs))
			ys := make([]float64, 8)
			for k := 0; b.Loop(); k++ {
				for i := range ys {
					ys[i] = math.Ldexp(0.1+float64(k%1025)/512, i)
				}
				f.Row(ys, out)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(xs)*8), "ns/sample-octave")
		})
	}
}
