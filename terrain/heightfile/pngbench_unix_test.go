//go:build unix

package heightfile

import (
	"syscall"
	"testing"
	"time"

	"cordillera/terrain"
)

// The side-by-side pair for writing large maps: BenchmarkWritePNG8193
// encodes the default world at 8193² as a 16-bit PNG,
// BenchmarkGenerateDefault8193 generates it. Run together
// (-bench '8193$' -cpu 2) their ratio is the cost of writing a map in
// generations of it. Both also report the CPU time they used (cpu-s/op),
// which a machine shared with other work inflates less than the wall
// time: both keep every core busy, so on an idle machine the two ratios
// agree.
func BenchmarkGenerateDefault8193(b *testing.B) {
	p := terrain.DefaultParams()
	p.Size = 8193
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		if _, err := terrain.Generate(b.Context(), p, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
}

func BenchmarkWritePNG8193(b *testing.B) {
	p := terrain.DefaultParams()
	p.Size = 8193
	m, err := terrain.Generate(b.Context(), p, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu := cpuTime()
	var n countingWriter
	for i := 0; i < b.N; i++ {
		n = 0
		if err := EncodePNG16(&n, m); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(n)/1e6, "MB")
}

// cpuTime returns the user and system time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkWritePNGPerGenerate8193 alternates the two, generating the
// default world at 8193² and writing it, so that the machine's load
// changes both alike, and reports their CPU times and the ratio.
func BenchmarkWritePNGPerGenerate8193(b *testing.B) {
	p := terrain.DefaultParams()
	p.Size = 8193
	var gen, write time.Duration
	for i := 0; i < b.N; i++ {
		c0 := cpuTime()
		m, err := terrain.Generate(b.Context(), p, nil)
		if err != nil {
			b.Fatal(err)
		}
		c1 := cpuTime()
		var n countingWriter
		if err := EncodePNG16(&n, m); err != nil {
			b.Fatal(err)
		}
		gen, write = gen+c1-c0, write+cpuTime()-c1
	}
	b.ReportMetric(gen.Seconds()/float64(b.N), "gen-cpu-s/op")
	b.ReportMetric(write.Seconds()/float64(b.N), "write-cpu-s/op")
	b.ReportMetric(write.Seconds()/gen.Seconds(), "write/gen")
}
