package erosion

import (
	"context"
	"math"
	"testing"

	"cordillera/terrain"
)

// rangeFront is a constructed map: a range in the middle half of the
// map's width, above frontRow, whose slopes gather into one valley that
// leaves it at column w/2, standing on a floor that falls gently (0.2 %)
// to the map's far edge. The range rises at 0.5 m/m towards its valley
// mouth's rim; the floor's cells are cell metres apart.
func rangeFront(w, h, frontRow int, cell float64) *terrain.Heightmap {
	m := terrain.NewHeightmap(w, h)
	m.CellSize, m.VerticalScale = cell, 1
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			z := 0.002 * cell * float64(h-1-y)
			if dx := math.Abs(float64(x - w/2)); y < frontRow && dx < float64(w)/4 {
				rise := math.Min(1, float64(frontRow-y)/10)
				z += 0.5 * cell * rise * math.Min(math.Hypot(dx, float64(y-frontRow)), float64(w)/4-dx)
			}
			m.Samples[y*w+x] = float32(z)
		}
	}
	return m
}

// Where the range's valley meets the floor, rivers with the deposition
// term (Yuan et al. 2019) build a fan: the floor in front of the mouth
// ends up metres higher than it began, thickest at the apex and thinning
// in every direction away from it, so that its contours are arcs bulging
// out from the range. Without deposition the same run lowers the floor a
// little everywhere. The budget balances: what the rivers eroded is what
// they laid down plus what they carried off the map.
func TestFluvialDepositsFans(t *testing.T) {
	const w, h, front = 161, 161, 60
	const apexX, apexY = w / 2, front
	rings := []float64{2, 8, 16, 24, 32}
	for _, g := range []string{"0", "1"} {
		in := rangeFront(w, h, front, 20)
		m := clone(in)
		_, p := testMap(t, 33, "fluvial", "fluvial-steps", "100", "fluvial-dt", "5e4", "fluvial-head", "16", "fluvial-deposition", g)
		b, err := Fluvial(context.Background(), m, p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if d := b.Eroded - b.Deposited - b.CarriedOff; !(math.Abs(d) <= 1e-9*b.Eroded) {
			t.Errorf("G %s: budget %v does not balance (off by %g m³)", g, b, d)
		}
		// The mean thickness (final − input height) of the floor's samples
		// in rings around the apex.
		mean := make([]float64, len(rings)-1)
		var fan float64 // m³ laid on the floor within the last ring
		for k := range mean {
			var sum float64
			n := 0
			for y := front; y < h; y++ {
				for x := 0; x < w; x++ {
					r := math.Hypot(float64(x-apexX), float64(y-apexY))
					if r >= rings[k] && r < rings[k+1] {
						d := float64(m.Samples[y*w+x] - in.Samples[y*w+x])
						sum += d
						fan += d * m.CellSize * m.CellSize
						n++
					}
				}
			}
			mean[k] = sum / float64(n)
		}
		t.Logf("G %s: %v; floor thickness by ring from the apex %v m, %.3g m³ within %g cells", g, b, mean, fan, rings[len(rings)-1])
		if g == "0" {
			if fan > 0 || b.Deposited != 0 {
				t.Errorf("G 0: %.3g m³ laid on the floor, %.3g m³ deposited; want the floor lowered and nothing deposited", fan, b.Deposited)
			}
			continue
		}
		if mean[0] < 10 {
			t.Errorf("G %s: the fan's apex is %.1f m thick, want at least 10 m", g, mean[0])
		}
		for k := 1; k < len(mean); k++ {
			if !(mean[k] < mean[k-1]) || mean[k] <= 0 {
				t.Errorf("G %s: the fan is %.1f m thick %g–%g cells from the apex and %.1f m nearer: want it thinning outwards and above the floor", g, mean[k], rings[k], rings[k+1], mean[k-1])
			}
		}
		if b.Deposited <= 0 || fan < 1e6 {
			t.Errorf("G %s: %.3g m³ laid on the floor before the range, %.3g m³ deposited over the run: want a fan of at least 1e6 m³", g, fan, b.Deposited)
		}
	}
}

// The masks show the rivers' own work: on the fan test's map the deposited
// mask is the fan, metres thick before the range's mouth, and nothing on
// the range, whose rise with its uplift is no deposit, after one step as at
// steady state; without deposition nothing is deposited anywhere; neither
// mask goes beyond the map's net change. Before, the deposited mask was the
// net rise from the input after the rescale: after one step the range
// showed 0.2 m of deposits beside a 6 m fan, and the run without
// deposition 6e5 m³ of them.
func TestFluvialDepositedMaskShowsFans(t *testing.T) {
	const w, h, front = 161, 161, 60
	const apexX, apexY = w / 2, front
	for _, c := range []struct{ g, steps string }{{"0", "100"}, {"1", "1"}, {"1", "100"}} {
		in := rangeFront(w, h, front, 20)
		m := clone(in)
		_, p := testMap(t, 33, "fluvial", "fluvial-steps", c.steps, "fluvial-dt", "5e4", "fluvial-head", "16", "fluvial-deposition", c.g)
		mk := &Masks{}
		if _, err := Fluvial(context.Background(), m, p, Options{Masks: mk}); err != nil {
			t.Fatal(err)
		}
		// The mean deposited depth on the floor 2–8 cells from the apex
		// and on the range, away from its foot; the volumes on the map.
		var fan, rng, deposited, eroded float64
		var nFan, nRange int
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				i := y*w + x
				d := float64(m.Samples[i] - in.Samples[i])
				e, dep := float64(mk.Eroded[i]), float64(mk.Deposited[i])
				if e < 0 || dep < 0 || e > max(-d, 0)+1e-3 || dep > max(d, 0)+1e-3 {
					t.Fatalf("G %s, %s steps, sample (%d, %d): masks eroded %g, deposited %g m; the map moved by %g m", c.g, c.steps, x, y, e, dep, d)
				}
				deposited += dep
				eroded += e
				r := math.Hypot(float64(x-apexX), float64(y-apexY))
				switch {
				case y >= front && r >= 2 && r < 8:
					fan += dep
					nFan++
				case y < front-10 && math.Abs(float64(x-w/2)) < float64(w)/4-2:
					rng += dep
					nRange++
				}
			}
		}
		fan, rng = fan/float64(nFan), rng/float64(nRange)
		area := m.CellSize * m.CellSize
		deposited, eroded = deposited*area, eroded*area
		t.Logf("G %s, %s steps: deposited mask %.3g m on the fan, %.3g m on the range; masks %.4g m³ eroded, %.4g m³ deposited",
			c.g, c.steps, fan, rng, eroded, deposited)
		if c.g == "0" {
			if deposited > 1e-6*eroded {
				t.Errorf("G 0: %.3g m³ marked deposited, want none", deposited)
			}
			continue
		}
		if fan < 5 || !(rng < 0.01*fan) {
			t.Errorf("G %s, %s steps: deposited mask %.3g m on the fan, %.3g m on the range: want at least 5 m on the fan and under 1 %% of that on the range", c.g, c.steps, fan, rng)
		}
	}
}
