package game

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// benchmarkCPULook is benchmarkFPSLook that also reports the process's
// CPU time per frame (llvmpipe's rasterizer threads included). On a
// machine shared with other work the wall-clock frame rate swings with
// their load; the CPU time a frame costs swings much less, so the look's
// cost is compared by it.
func benchmarkCPULook(b *testing.B, set func(v *Viewer)) {
	needLoop(b)
	g := newTestGame(b, testWorld(b, 1025))
	set(&g.View)
	lowView(g.Camera, g.World.Map)
	waitLight(b, g)
	onLoop(func() { loop.w, loop.h = ScreenWidth, ScreenHeight })
	defer onLoop(func() { loop.w, loop.h = testW, testH })
	setDraw(g.Draw)
	defer setDraw(nil)
	waitFrames(2)
	cpu0 := cpuTime()
	b.ResetTimer()
	waitFrames(int64(b.N))
	b.StopTimer()
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "fps")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/frame")
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCPU1025Look and BenchmarkCPU1025Thesis are BenchmarkFPS1025Look
// and BenchmarkFPS1025Thesis with the CPU time per frame reported too.
// LOOKOFF, a comma-separated list of aa, tile, water, light, rules and
// detail, switches those features of the look off, to find what it costs.
func BenchmarkCPU1025Look(b *testing.B) {
	benchmarkCPULook(b, func(v *Viewer) {
		v.Water = 0.25
		for _, f := range strings.Split(os.Getenv("LOOKOFF"), ",") {
			switch f {
			case "aa":
				v.Antialias = false
			case "tile":
				v.BreakTiling = false
			case "water":
				v.Water = 0
			case "light":
				v.Shadows, v.Occlusion = false, false
			case "rules":
				v.Texturing = ByHeight
			case "detail":
				v.DetailMaps = false
			}
		}
	})
}

func BenchmarkCPU1025Thesis(b *testing.B) {
	benchmarkCPULook(b, func(v *Viewer) {
		v.Texturing, v.Shadows, v.Occlusion = ByHeight, false, false
		v.Antialias, v.BreakTiling = false, false
	})
}
