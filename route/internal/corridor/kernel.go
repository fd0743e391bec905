package corridor

import (
	"context"
	"cordillera/internal/parallel"
	"math"
	"sync"
)

// Kernel is a cubic B-spline smoothing kernel made of four box
// filters of width w (odd, in samples): the four-fold convolution of a
// box is the cubic B-spline, C² with compact support 4(w−1)+1 samples
// wide, and each box costs a running sum, whatever its width.
type Kernel struct{ half int } // w = 2·half + 1

// NewKernel returns the kernel whose support reaches radius samples
// from its centre.
func NewKernel(radius float64) Kernel {
	return Kernel{half: max(int(math.Ceil(radius/4)), 1)}
}

// Radius is the kernel's reach: samples further than this from a
// splatted point get nothing from it.
func (k Kernel) Radius() int { return 4 * k.half }

// Weights returns the 1-D kernel, 2·radius+1 values summing to 1: four
// boxes convolved directly (the oracle for Smooth).
func (k Kernel) Weights() []float64 {
	w := 2*k.half + 1
	out := []float64{1}
	for range 4 {
		next := make([]float64, len(out)+w-1)
		for i, v := range out {
			for j := range w {
				next[i+j] += v / float64(w)
			}
		}
		out = next
	}
	return out
}

// LineDensity is what Smooth makes, on the line itself, of a straight
// line splatted with its length (one unit per sample of length): the
// kernel's centre weight across the line.
func (k Kernel) LineDensity() float64 { return k.Weights()[k.Radius()] }

// Smooth convolves the w×h field f with the kernel along rows, then
// along columns, in place, as zero beyond the border. Lines that are zero
// throughout are skipped.
func (k Kernel) Smooth(ctx context.Context, f []float64, w, h int) error {
	err := parallel.Rows(ctx, h, nil, 0, 0, func(row int) {
		sc := scratch(2 * (w + 2*k.Radius()))
		k.smoothLine(f[row*w:(row+1)*w], sc)
		smoothScratch.Put(sc)
	})
	if err != nil {
		return err
	}
	strips := (w + smoothStrip - 1) / smoothStrip
	return parallel.Rows(ctx, strips, nil, 0, 0, func(strip int) {
		c0 := strip * smoothStrip
		k.smoothColumns(f, w, h, c0, min(c0+smoothStrip, w))
	})
}

// smoothStrip is how many columns smoothColumns takes at a time: their
// samples in one row lie together, so the strip is read and written
// row by row, whole cache lines at a time.
const smoothStrip = 64

// smoothColumns applies the four boxes down columns c0 … c1−1 of the
// w×h field f, as smoothLine does along a row: the strip is copied, row
// by row, into a buffer padded with radius zero rows above and below,
// smoothed there with one running sum per column, and copied back.
func (k Kernel) smoothColumns(f []float64, w, h, c0, c1 int) {
	n, r, hw := c1-c0, k.Radius(), k.half
	zero := true
	for row := 0; row < h && zero; row++ {
		for _, v := range f[row*w+c0 : row*w+c1] {
			if v != 0 {
				zero = false
				break
			}
		}
	}
	if zero {
		return
	}
	rows := h + 2*r
	sc := scratch(2*rows*n + n)
	defer smoothScratch.Put(sc)
	ext, box, sum := (*sc)[:rows*n], (*sc)[rows*n:2*rows*n], (*sc)[2*rows*n:]
	clear(ext[:r*n])
	clear(ext[(h+r)*n:])
	for row := range h {
		copy(ext[(row+r)*n:(row+r+1)*n], f[row*w+c0:row*w+c1])
	}
	inv := 1 / float64(2*hw+1)
	for range 4 {
		clear(sum)
		for i := 0; i < min(hw, rows); i++ {
			for c, v := range ext[i*n : (i+1)*n] {
				sum[c] += v
			}
		}
		for i := range rows {
			if j := i + hw; j < rows {
				for c, v := range ext[j*n : (j+1)*n] {
					sum[c] += v
				}
			}
			out := box[i*n : (i+1)*n]
			for c, v := range sum {
				out[c] = v * inv
			}
			if j := i - hw; j >= 0 {
				for c, v := range ext[j*n : (j+1)*n] {
					sum[c] -= v
				}
			}
		}
		ext, box = box, ext
	}
	for row := range h {
		copy(f[row*w+c0:row*w+c1], ext[(row+r)*n:(row+r+1)*n])
	}
}

// smoothScratch keeps the scratch of smoothLine and smoothColumns
// between calls: a fresh buffer per line or strip cost as much as the
// smoothing itself.
var smoothScratch sync.Pool

// scratch returns a buffer of need samples from smoothScratch, its
// contents undefined.
func scratch(need int) *[]float64 {
	if p, ok := smoothScratch.Get().(*[]float64); ok && cap(*p) >= need {
		*p = (*p)[:need]
		return p
	}
	b := make([]float64, need)
	return &b
}

// smoothLine applies the four boxes to line, with sc as scratch of
// twice len(line) + 2·radius: the line is smoothed as if padded with
// radius zeros either side, so what one box spreads past an end comes
// back in the next, as in the direct convolution.
func (k Kernel) smoothLine(line []float64, sc *[]float64) {
	zero := true
	for _, v := range line {
		if v != 0 {
			zero = false
			break
		}
	}
	if zero {
		return
	}
	r, hw := k.Radius(), k.half
	n := len(line) + 2*r
	ext, box := (*sc)[:n], (*sc)[n:2*n]
	clear(ext)
	copy(ext[r:], line)
	inv := 1 / float64(2*hw+1)
	for range 4 {
		// A centred box: box[i] = mean of ext[i−hw … i+hw], zero outside.
		sum := 0.0
		for i := 0; i < min(hw, n); i++ {
			sum += ext[i]
		}
		for i := range n {
			if j := i + hw; j < n {
				sum += ext[j]
			}
			box[i] = sum * inv
			if j := i - hw; j >= 0 {
				sum -= ext[j]
			}
		}
		copy(ext, box)
	}
	copy(line, ext[r:])
}

// Splat adds v to the w×h field f at the fractional sample (x, y),
// shared among its four samples by their bilinear weights.
func Splat(f []float64, w, h int, x, y, v float64) {
	c0 := min(max(int(math.Floor(x)), 0), w-2)
	r0 := min(max(int(math.Floor(y)), 0), h-2)
	fx := min(max(x-float64(c0), 0), 1)
	fy := min(max(y-float64(r0), 0), 1)
	i := r0*w + c0
	f[i] += v * (1 - fx) * (1 - fy)
	f[i+1] += v * fx * (1 - fy)
	f[i+w] += v * (1 - fx) * fy
	f[i+w+1] += v * fx * fy
}
