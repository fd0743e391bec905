package erosion

import (
	"context"
	"testing"

	"cordillera/terrain"
)

// benchmark runs one process on a copy of the default world at size² per
// iteration; the world is generated once, outside the timer.
func benchmark(b *testing.B, size int, stage string, run func(context.Context, *terrain.Heightmap, terrain.Params, Options) (Budget, error)) {
	m, p := testMap(b, size, stage)
	work := clone(m)
	b.ResetTimer()
	// A plain loop over b.N rather than b.Loop: with -cpu 1,2 b.Loop's
	// first entry ran at full GOMAXPROCS.
	for range b.N {
		b.StopTimer()
		copy(work.Samples, m.Samples)
		b.StartTimer()
		if _, err := run(context.Background(), work, p, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHydraulic1025(b *testing.B) { benchmark(b, 1025, "hydraulic", Hydraulic) }
func BenchmarkHydraulic1025Reference(b *testing.B) {
	benchmark(b, 1025, "hydraulic", HydraulicReference)
}
func BenchmarkHydraulic257(b *testing.B) { benchmark(b, 257, "hydraulic", Hydraulic) }
func BenchmarkThermal1025(b *testing.B)  { benchmark(b, 1025, "thermal", Thermal) }
func BenchmarkThermalReference1025(b *testing.B) {
	benchmark(b, 1025, "thermal", ThermalReference)
}
func BenchmarkFluvial1025(b *testing.B) { benchmark(b, 1025, "fluvial", Fluvial) }
func BenchmarkFluvialReference1025(b *testing.B) {
	benchmark(b, 1025, "fluvial", FluvialReference)
}
