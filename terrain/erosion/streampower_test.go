package erosion

import (
	"context"
	"math"
	"runtime"
	"slices"
	"testing"

	"cordillera/noise"
)

// The parallel step's drainage areas equal the stack walk's whatever
// areas the step before left, which only steer how the trees are split:
// none (the first step), the true ones, another network's, noise around
// the trunk's threshold, and all above it (the whole map one trunk); on
// 1, 2 and 4 cores. The donor masks name exactly the neighbours that
// drain to each sample.
func TestFluvialAreasWhateverTheLastStep(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	m, p := testMap(t, 257, "fluvial")
	m.Width, m.Height = 251, 257 // not square, and rows not a multiple of anything
	m.Samples = m.Samples[:m.Width*m.Height]
	g := newGrid(m)
	net := newFluvialNetwork(g, p)
	if _, err := net.breach(context.Background(), g.z); err != nil {
		t.Fatal(err)
	}
	if _, err := net.route(context.Background(), g.z); err != nil {
		t.Fatal(err)
	}
	net.accumulate()
	want := slices.Clone(net.area)
	wantMasks := make([]uint8, len(want))
	w, h := g.w, g.h
	for i := range wantMasks {
		x, y := i%w, i/w
		for k, nb := range neighbours8 {
			nx, ny := x+nb.dx, y+nb.dy
			if d := ny*w + nx; nx >= 0 && ny >= 0 && nx < w && ny < h && d != i && net.rec[d] == int32(i) {
				wantMasks[i] |= 1 << k
			}
		}
	}
	sp := newStreamPower(g, net, p, upliftField{}, 0)
	if largest := slices.Max(want); largest < 8*sp.trunkArea {
		t.Fatalf("largest area %d cells: too small for a trunk of samples over %d", largest, sp.trunkArea)
	}
	n := len(want)
	lasts := []struct {
		name string
		area func(i int) int32
	}{
		{"none", func(int) int32 { return 0 }},
		{"true", func(i int) int32 { return want[i] }},
		{"another network's", func(i int) int32 { return want[n-1-i] }},
		{"noise", func(i int) int32 { return int32(noise.SplitMix64(uint64(i)) % uint64(2*sp.trunkArea)) }},
		{"all trunk", func(int) int32 { return math.MaxInt32 }},
	}
	for _, last := range lasts {
		for _, procs := range []int{1, 2, 4} {
			runtime.GOMAXPROCS(procs)
			for i := range net.area {
				net.area[i] = last.area(i)
			}
			clear(net.marks)
			if err := sp.accumulate(context.Background()); err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if net.area[i] != want[i] || net.marks[i] != wantMasks[i] {
					t.Errorf("last step's areas %s, GOMAXPROCS %d: sample (%d, %d) area %d, donors %08b; want %d, %08b",
						last.name, procs, i%w, i/w, net.area[i], net.marks[i], want[i], wantMasks[i])
					break
				}
			}
		}
	}
}

// The fluvial stage gives the same map and the same budget, bit for bit,
// on 1, 2 and 4 cores, and the map is the one-goroutine reference's: on a
// non-square map with pits that later steps must fill, for n = 1 and
// n ≠ 1, over enough steps that the network moves under the split the
// areas follow.
func TestFluvialSameOnAnyCores(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, over := range [][]string{
		{"fluvial-steps", "12"},
		{"fluvial-steps", "8", "fluvial-m", "0.4", "fluvial-n", "2", "fluvial-wander", "0"},
		{"fluvial-steps", "8", "fluvial-deposition", "0.7"},
	} {
		m, p := testMap(t, 257, "fluvial", over...)
		m.Width, m.Height = 241, 257
		m.Samples = m.Samples[:m.Width*m.Height]
		for i := range m.Samples { // pits everywhere
			x, y := float64(i%m.Width), float64(i/m.Width)
			m.Samples[i] += 0.05 * float32(math.Sin(x/2)*math.Sin(y/2))
		}
		ref := clone(m)
		if _, err := FluvialReference(context.Background(), ref, p, Options{}); err != nil {
			t.Fatal(err)
		}
		var first Budget
		for _, procs := range []int{1, 2, 4} {
			runtime.GOMAXPROCS(procs)
			c := clone(m)
			b, err := Fluvial(context.Background(), c, p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if i := sameBits(c.Samples, ref.Samples); i >= 0 {
				t.Errorf("%v, GOMAXPROCS %d: sample %d is %v, the reference's %v", over, procs, i, c.Samples[i], ref.Samples[i])
			}
			if procs == 1 {
				first = b
			} else if b != first {
				t.Errorf("%v, GOMAXPROCS %d: budget %+v, on one core %+v", over, procs, b, first)
			}
		}
	}
}
