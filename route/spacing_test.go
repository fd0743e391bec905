package route

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"cordillera/route/track"
)

// The lines made of a track follow the points kept, not its length over
// the cell size: a noisy 20,000-point track 16 million samples long (a
// 1-million-point GPX took 1.4 GB, a 2.5-million-point noisy CSV 7 GB)
// is resampled, densified and solved within a measured 100 MB.
func TestLinesAllocateByPointsKept(t *testing.T) {
	const n = 20000
	rng := rand.New(rand.NewPCG(1, 0))
	seg := make([]track.Sample, n)
	for i := range seg {
		seg[i] = track.Sample{X: 100 + 800*rng.Float64(), Y: 100 + 800*rng.Float64(), Ele: 500 + rng.Float64()}
	}
	p := &track.Path{Segments: [][]track.Sample{seg}, CellSize: 1}
	for i := 1; i < n; i++ {
		p.Length += track.Dist(seg[i-1], seg[i])
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	line := p.Resample(p.LineSpacing(0.5))
	dense := p.Densify(0.5)
	spacing := solveSpacing(p, 16)
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%.0f samples long: line %d points, densified %d, spacing %.3g; %.1f MB allocated",
		p.Length, line.Points(), dense.Points(), spacing, float64(alloc)/1e6)
	if line.Points() > track.MaxLinePoints+1 || dense.Points() > track.MaxLinePoints+n || alloc > 100<<20 {
		t.Errorf("line %d points, densified %d, %.0f MB allocated; want at most %d, %d and 100 MB",
			line.Points(), dense.Points(), float64(alloc)/1e6, track.MaxLinePoints+1, track.MaxLinePoints+n)
	}
	if spacing > 64 {
		t.Errorf("spacing %.3g samples for points that merge within 64", spacing)
	}
}
