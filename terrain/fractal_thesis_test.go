package terrain

import (
	"context"
	"fmt"
	"testing"

	"cordillera/internal/parallel"
	"cordillera/internal/testenv"
	"cordillera/noise"
)

// The thesis's timing tables (seed 004, section 7.2), cell for cell: the
// same algorithms, map sizes, band counts and bases, with the thesis's
// defaults (feature size 90 %, H = 1, λ = 2, seed 17), on one goroutine as
// the thesis pinned one core. Each cell reports its time and how many times
// faster it is than the thesis's figure in environment 1 (Intel i7-2600K,
// Tables 7.2 and 7.4) and environment 2 (Core 2 Quad Q9550, Tables 7.3 and
// 7.5). Run them with -cpu 1:
//
//	go test ./terrain/ -run '^$' -bench 'Thesis' -cpu 1

// thesisSizes holds Tables 7.2 and 7.3: milliseconds per map with 10 bands
// of Perlin noise at 256², 512², 1024² and 2048², environment 1 then 2.
var thesisSizes = []struct {
	alg        Algorithm
	env1, env2 [4]float64
}{
	{FBm, [4]float64{20.85, 80.96, 324.60, 1285.32}, [4]float64{54.31, 218.15, 871.79, 3483.53}},
	{Hetero, [4]float64{20.82, 80.75, 323.21, 1280.84}, [4]float64{101.28, 407.09, 1622.79, 6489.91}},
	{Hybrid, [4]float64{43.24, 170.03, 674.67, 2693.74}, [4]float64{102.64, 412.55, 1642.50, 6567.99}},
	{Quilez, [4]float64{25.91, 101.34, 404.40, 1605.22}, [4]float64{117.38, 470.95, 1879.03, 7519.86}},
}

// thesisBands holds Tables 7.4 and 7.5: milliseconds per 1024² map with
// 1 to 5 bands, environment 1 then 2.
var thesisBands = []struct {
	alg        Algorithm
	basis      noise.Kind
	env1, env2 [5]float64
}{
	{FBm, noise.Value, [5]float64{30.52, 58.60, 87.65, 115.93, 143.69}, [5]float64{73.48, 144.56, 216.53, 287.97, 356.46}},
	{FBm, noise.Perlin, [5]float64{34.27, 68.15, 99.89, 134.57, 165.31}, [5]float64{89.77, 176.41, 263.13, 349.98, 438.36}},
	{Quilez, noise.Value, [5]float64{34.81, 68.22, 101.38, 136.51, 166.83}, [5]float64{148.77, 313.26, 477.30, 642.08, 805.30}},
	{Quilez, noise.Perlin, [5]float64{43.45, 84.98, 125.58, 166.24, 205.17}, [5]float64{173.30, 364.57, 553.69, 744.83, 933.09}},
}

var thesisMapSizes = [4]int{256, 512, 1024, 2048}

// thesisParams is the thesis's generator configuration for one cell.
func thesisParams(alg Algorithm, basis noise.Kind, size, bands int) Params {
	p := DefaultParams()
	p.Algorithm, p.Basis, p.Size, p.Octaves = alg, basis, size, bands
	p.FeatureSize, p.Hurst, p.Lacunarity, p.Seed = 90, 1, 2, 17
	return p
}

// benchThesisCell times Generate on one goroutine and reports the speed-up
// over the thesis's two environments. It also reports the CPU time the
// process spent per map (cpu-ms/op, all its threads: the garbage
// collector's too): on a machine shared with other work the wall time
// swings with the load, the CPU time much less.
func benchThesisCell(b *testing.B, p Params, env1, env2 float64) {
	ctx := parallel.WithWorkers(context.Background(), 1)
	cpu0, haveCPU := testenv.ProcessCPU()
	for range b.N { // not b.Loop: see BenchmarkFBmPerlin1025
		if _, err := Generate(ctx, p, nil); err != nil {
			b.Fatal(err)
		}
	}
	ms := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / 1e6
	b.ReportMetric(env1/ms, "x-env1")
	b.ReportMetric(env2/ms, "x-env2")
	if cpu1, ok := testenv.ProcessCPU(); ok && haveCPU {
		b.ReportMetric((cpu1-cpu0).Seconds()*1e3/float64(b.N), "cpu-ms/op")
	}
}

// BenchmarkThesisSizes is Tables 7.2 and 7.3.
func BenchmarkThesisSizes(b *testing.B) {
	for _, row := range thesisSizes {
		for k, size := range thesisMapSizes {
			b.Run(fmt.Sprintf("%s/%d", row.alg, size), func(b *testing.B) {
				benchThesisCell(b, thesisParams(row.alg, noise.Perlin, size, 10), row.env1[k], row.env2[k])
			})
		}
	}
}

// BenchmarkThesisBands is Tables 7.4 and 7.5.
func BenchmarkThesisBands(b *testing.B) {
	for _, row := range thesisBands {
		for k := range row.env1 {
			b.Run(fmt.Sprintf("%s-%s/%d", row.alg, row.basis, k+1), func(b *testing.B) {
				benchThesisCell(b, thesisParams(row.alg, row.basis, 1024, k+1), row.env1[k], row.env2[k])
			})
		}
	}
}

// The thesis cells must be valid parameter sets that the fast path
// generates: a benchmark that fails to start measures nothing.
func TestThesisCellsGenerate(t *testing.T) {
	for _, row := range thesisSizes {
		p := thesisParams(row.alg, noise.Perlin, 64, 10)
		if err := p.Validate(); err != nil {
			t.Errorf("%s: %v", row.alg, err)
		}
	}
	for _, row := range thesisBands {
		p := thesisParams(row.alg, row.basis, 64, 5)
		if _, err := Generate(context.Background(), p, nil); err != nil {
			t.Errorf("%s-%s: %v", row.alg, row.basis, err)
		}
	}
}
