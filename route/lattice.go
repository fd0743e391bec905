package route

import (
	"context"
	"cordillera/internal/parallel"
	"cordillera/noise"
	"cordillera/terrain"
	"fmt"
	"math"
	"sync"
)

// turbulence is the route terrain of paper 002 (eq. 3):
//
//	T(P) = Σ_{n=0}^{N−1} Noise_n(P·2ⁿ) / 2ⁿ
//
// where Noise_n interpolates level n's lattice, 2ⁿ+1 values per side spread
// evenly over the map (level 0 is the four corners). The levels have
// independent values; the paper's constrained generation solves for the
// values near the route and leaves the rest random.
type turbulence struct {
	size   int // samples per side of the map
	levels int
	interp terrain.Interpolation
	values [][]float64 // values[n][j·(2ⁿ+1)+i], i the column and j the row
	offset []int       // index of level n's first value among all levels' values
}

// newTurbulence fills every lattice value with a uniform random number in
// [−1, 1] drawn from a hash (noise.SplitMix64, as the subdivision generators use) of
// the seed, the level and the lattice point, so the same seed gives the
// same lattice whatever the route.
func newTurbulence(size, levels int, interp terrain.Interpolation, seed int64) (*turbulence, error) {
	if levels < 1 || levels > terrain.MaxLevels {
		return nil, fmt.Errorf("levels %d is out of range [1, %d]", levels, terrain.MaxLevels)
	}
	if 1<<(levels-1) > size-1 {
		return nil, fmt.Errorf("levels %d needs a map of at least %d samples per side (the finest lattice must not be finer than the map); lower -levels or raise -size",
			levels, 1<<(levels-1)+1)
	}
	if interp != terrain.Bilinear && interp != terrain.Quintic {
		return nil, fmt.Errorf("interpolation %q is not one of bilinear, quintic", interp)
	}
	t := &turbulence{size: size, levels: levels, interp: interp}
	total := 0
	for n := range levels {
		side := 1<<n + 1
		vals := make([]float64, side*side)
		key := noise.SplitMix64(uint64(seed) ^ uint64(n+1)*0xD6E8FEB86659FD93)
		for k := range vals {
			vals[k] = uniform(noise.SplitMix64(key ^ uint64(k)*0x9E3779B97F4A7C15))
		}
		t.values = append(t.values, vals)
		t.offset = append(t.offset, total)
		total += side * side
	}
	return t, nil
}

// zeroed returns a turbulence of t's geometry with every lattice value 0.
func (t *turbulence) zeroed() *turbulence {
	z := *t
	z.values = make([][]float64, len(t.values))
	for n, v := range t.values {
		z.values[n] = make([]float64, len(v))
	}
	return &z
}

// uniform maps the top 53 bits of a hash onto [−1, 1].
func uniform(h uint64) float64 {
	return float64(h>>11)/(1<<52) - 1
}

// amplitude is level n's weight 1/2ⁿ in the sum.
func amplitude(n int) float64 { return math.Ldexp(1, -n) }

// cells is the number of lattice cells per side at level n.
func cells(n int) int { return 1 << n }

// locate finds the lattice cell i of level n that holds map coordinate x
// (in samples) and the interpolation weights of its two ends.
func (t *turbulence) locate(n int, x float64) (i int, w0, w1 float64) {
	u := x * float64(cells(n)) / float64(t.size-1)
	fi := math.Floor(u)
	i = min(max(int(fi), 0), cells(n)-1)
	f := min(max(u-float64(i), 0), 1)
	if t.interp == terrain.Quintic {
		f = fade(f)
	}
	return i, 1 - f, f
}

// fade is Perlin's quintic 6t⁵ − 15t⁴ + 10t³: its first and second
// derivatives vanish at 0 and 1, so levels join smoothly at lattice lines.
func fade(t float64) float64 {
	return t * t * t * (t*(t*6-15) + 10)
}

// at evaluates T at map position (x, y) (column, row, in samples).
func (t *turbulence) at(x, y float64) float64 {
	sum := 0.0
	for n := range t.levels {
		i, wx0, wx1 := t.locate(n, x)
		j, wy0, wy1 := t.locate(n, y)
		side := cells(n) + 1
		v := t.values[n]
		k := j*side + i
		level := wy0*(wx0*v[k]+wx1*v[k+1]) + wy1*(wx0*v[k+side]+wx1*v[k+side+1])
		sum += amplitude(n) * level
	}
	return sum
}

// columnTable holds, for every level, the lattice cell and the weights of
// every map column (and, the map being square, of every row).
type columnTable struct {
	cell   [][]int32
	w0, w1 [][]float64
}

func (t *turbulence) columns() columnTable {
	var c columnTable
	for n := range t.levels {
		cell := make([]int32, t.size)
		w0 := make([]float64, t.size)
		w1 := make([]float64, t.size)
		for x := range t.size {
			i, a, b := t.locate(n, float64(x))
			cell[x], w0[x], w1[x] = int32(i), a, b
		}
		c.cell = append(c.cell, cell)
		c.w0 = append(c.w0, w0)
		c.w1 = append(c.w1, w1)
	}
	return c
}

// render evaluates T at every sample of the map on all cores. Each row
// first blends, per level, the two lattice rows around it into a line of
// 2ⁿ+1 values, then interpolates along that line. When a level's cells
// are a whole number g of samples wide (maps of 2ᵏ+1 samples), every cell
// has the same g weights, so the line's two values are loaded once per
// cell: one multiply-add per sample and level; bilinear levels then need
// only one interpolation along the row in all (renderBilinearRow).
func (t *turbulence) render(ctx context.Context, progress terrain.Progress, base, span float64) (*terrain.Heightmap, error) {
	m := terrain.NewHeightmap(t.size, t.size)
	tab := t.columns()
	pattern := make([][]float64, t.levels) // per level: the weights w1 of one cell's samples, if all cells share them
	for n := range t.levels {
		if (t.size-1)%cells(n) == 0 {
			pattern[n] = tab.w1[n][:(t.size-1)/cells(n)]
		}
	}
	hierarchical := t.interp == terrain.Bilinear && pattern[t.levels-1] != nil
	scratch := sync.Pool{New: func() any { return new(renderScratch) }}
	err := parallel.Rows(ctx, t.size, progress, base, span, func(row int) {
		sc := scratch.Get().(*renderScratch)
		defer scratch.Put(sc)
		if cap(sc.sum) < t.size {
			sc.sum = make([]float64, t.size)
		}
		acc := sc.sum[:t.size]
		if hierarchical {
			t.renderBilinearRow(row, tab, acc, sc, pattern[t.levels-1])
		} else {
			t.renderLevelsRow(row, tab, acc, sc, pattern)
		}
		out := m.Samples[row*t.size : (row+1)*t.size]
		for x, v := range acc {
			out[x] = float32(v)
		}
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// renderLevelsRow evaluates a row level by level.
func (t *turbulence) renderLevelsRow(row int, tab columnTable, acc []float64, sc *renderScratch, pattern [][]float64) {
	clear(acc)
	for n := range t.levels {
		// Blend the level's two lattice rows around this row.
		side := cells(n) + 1
		j, wy0, wy1 := int(tab.cell[n][row]), tab.w0[n][row], tab.w1[n][row]
		v, a := t.values[n], amplitude(n)
		line := sc.line[:0]
		for i := range side {
			line = append(line, a*(wy0*v[j*side+i]+wy1*v[(j+1)*side+i]))
		}
		sc.line = line
		if w1 := pattern[n]; w1 != nil {
			addCells(acc, line, w1, false)
			continue
		}
		cell, w0, w1 := tab.cell[n], tab.w0[n], tab.w1[n]
		for x := range acc {
			i := cell[x]
			acc[x] += w0[x]*line[i] + w1[x]*line[i+1]
		}
	}
}

// renderBilinearRow evaluates a row of a bilinear turbulence whose finest
// cells are len(w1) samples wide. terrain.Bilinear levels nest: a coarse level's
// line, interpolated linearly at the finer level's lattice points, is the
// same piecewise linear function. So each level's line, blended between
// its two lattice rows, is refined to the finest lattice and summed there,
// and the sum is interpolated along the row once.
func (t *turbulence) renderBilinearRow(row int, tab columnTable, acc []float64, sc *renderScratch, w1 []float64) {
	sum, next := sc.line[:0], sc.next[:0]
	for n := range t.levels {
		side := cells(n) + 1
		j, wy0, wy1 := int(tab.cell[n][row]), tab.w0[n][row], tab.w1[n][row]
		v, a := t.values[n], amplitude(n)
		if n > 0 { // refine the coarser sum onto this level's lattice
			next = next[:0]
			for i := 0; i+1 < len(sum); i++ {
				next = append(next, sum[i], (sum[i]+sum[i+1])/2)
			}
			next = append(next, sum[len(sum)-1])
			sum, next = next, sum
		} else {
			sum = append(sum, 0, 0)
		}
		for i := range side {
			sum[i] += a * (wy0*v[j*side+i] + wy1*v[(j+1)*side+i])
		}
	}
	sc.line, sc.next = sum, next
	addCells(acc, sum, w1, true)
}

// addCells adds to acc (or, if first, stores in it) a level's line
// interpolated over cells of len(w1) samples each, whose samples all take
// the weights 1 − w1[k] and w1[k]: one multiply-add per sample.
func addCells(acc, line, w1 []float64, first bool) {
	g := len(w1)
	for c := range len(line) - 1 {
		l0, d := line[c], line[c+1]-line[c]
		out := acc[c*g : c*g+g]
		w1 := w1[:len(out)] // lets the compiler drop bounds checks
		if first {
			for k := range out {
				out[k] = l0 + d*w1[k]
			}
			continue
		}
		for k := range out {
			out[k] += l0 + d*w1[k]
		}
	}
	last := len(acc) - 1 // the last sample: weights 0 and 1
	if first {
		acc[last] = line[len(line)-1]
	} else {
		acc[last] += line[len(line)-1]
	}
}

// renderScratch is one worker's row buffers.
type renderScratch struct {
	sum, line, next []float64
}

// level returns the level of the lattice value with global index k.
func (t *turbulence) level(k int32) int {
	n := len(t.offset) - 1
	for int(k) < t.offset[n] {
		n--
	}
	return n
}
