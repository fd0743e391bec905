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
	cpu0 := cpuTime()
	b.ResetTimer()
	// A plain loop over b.N rather than b.Loop: with -cpu 1,2 b.Loop's
	// first entry ran at full GOMAXPROCS.
	for range b.N {
		b.StopTimer()
		cpu0 -= cpuTime()
		copy(work.Samples, m.Samples)
		cpu0 += cpuTime()
		b.StartTimer()
		if _, err := run(context.Background(), work, p, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	// The CPU time of all threads per run: on a shared machine the wall
	// time counts other people's work too.
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
		if stage == terrain.HydraulicErosion { // droplets start off the last row and column
			droplets := p.HydraulicDroplets * float64((m.Width-1)*(m.Height-1))
			b.ReportMetric(float64(cpu)/float64(b.N)/droplets, "cpu-ns/droplet")
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
