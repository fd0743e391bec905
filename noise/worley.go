package noise

import (
	"fmt"
	"math"
)

// WorleyMode selects what cellular noise measures.
type WorleyMode int

// The cellular noise modes.
const (
	F1        WorleyMode = iota // distance to the nearest feature point: round cells, pits at the points
	F2MinusF1                   // second-nearest minus nearest distance: 0 on the cell borders, ridges between cells
)

// worleyNoise is cellular noise (Worley, "A cellular texture basis function",
// 1996) with one feature point per lattice cell, jittered uniformly inside
// it (or, with jitter J < 1, inside the centred square of side J), and
// Euclidean distance.
type worleyNoise struct {
	key  uint64
	mode WorleyMode
	// jitter is J; lo and hi bound every feature point's coordinate in its
	// cell (lo ≤ f < 1 for J = 1, lo ≤ f ≤ hi otherwise), computed so that
	// the gaps built from them never exceed a true distance (gap).
	jitter, lo, hi float64
}

// Affine maps of the distances onto [-1, 1): N = scale·F − 1.
//
// F1 < √2: the nearest point is at most the own cell's, and that lies inside
// the unit square with p. F2 − F1 ≤ F2 < √(5/2): if the own cell's point is
// the nearest, the second is at most as far as the farthest corner of the
// closest-reaching of the four edge-neighbouring cells, which is largest,
// √(1.5² + 0.5²), for p at the cell centre; otherwise the own cell's point
// is one of the two nearest, closer than √2. Both bounds are approached
// only by arbitrarily unlikely jitters.
const (
	worleyF1Scale   = math.Sqrt2                        // 2/√2
	worleyF2F1Scale = 1.2649110640673517327995574177731 // 2/√(5/2) = √(8/5)
)

// NewWorley returns cellular noise for a seed. Both modes lie in [-1, 1)
// (N = −1 on a feature point for F1, on a cell border for F2MinusF1), and
// both are skewed towards −1: the mean is about −0.39 for F1 and −0.66 for
// F2MinusF1, and a million samples reach only about 0.64 and 0.58.
// The gradient is √2·(p − f₁)/F1 for F1 and √(8/5)·((p − f₂)/F2 − (p − f₁)/F1)
// for F2MinusF1, with f₁, f₂ the nearest and second-nearest feature points;
// it is undefined on a feature point (returned as 0) and jumps across cell
// borders.
func NewWorley(seed int64, mode WorleyMode) Basis {
	return worleyNoise{key: seedKey(seed, saltWorley), mode: mode, jitter: 1, lo: 0, hi: 1}
}

// NewWorleyJitter is NewWorley with the feature points' jitter bounded to
// J ∈ [0, 1]: each cell's point lies in the centred square of side J
// (0.5 + J·(h − 0.5) per axis, h the uniform hash), as FastNoise2 bounds its
// jitter. J = 1 is NewWorley, the same values bit for bit; the smaller J, the
// more regular the cells and the fewer of the outer 5×5 ring's cells a
// sample's search has to visit (none below about 0.65 for F1 and 0.3 for
// F2MinusF1), so the faster the noise. The values stay exact for the
// bounded points, and in NewWorley's range. J outside [0, 1] (or NaN) is
// an error.
func NewWorleyJitter(seed int64, mode WorleyMode, jitter float64) (Basis, error) {
	if !(jitter >= 0 && jitter <= 1) {
		return nil, fmt.Errorf("noise: Worley jitter %v outside [0, 1]", jitter)
	}
	if jitter == 1 {
		return NewWorley(seed, mode), nil
	}
	half := float64(jitter * 0.5)
	return worleyNoise{key: seedKey(seed, saltWorley), mode: mode, jitter: jitter, lo: 0.5 - half, hi: 0.5 + half}, nil
}

// featurePoint returns the position in its cell, in [0, 1)², of the feature
// point of lattice cell (i, j), given j's row key: from the hash's high and
// low 32 bits, h ∈ [0, 1) each, 0.5 + J·(h − 0.5) with a bounded jitter.
func (n worleyNoise) featurePoint(row uint64, i int) vec2 {
	f := hashJitter(row, i)
	if n.jitter == 1 {
		return f
	}
	// |h − 0.5| ≤ 0.5 and rounding is monotone, so 0.5 − J/2 ≤ f ≤ 0.5 + J/2
	// as computed (n.lo, n.hi).
	return vec2{0.5 + float64(n.jitter*(f.x-0.5)), 0.5 + float64(n.jitter*(f.y-0.5))}
}

// innerOnly says whether the inner 3×3 cells always hold the feature
// points a sample's value needs, so that the ring need not be searched.
// With jitter J every point lies within h = (1+J)/2 of each of its cell's
// sides, and a ring cell's points at least 1 + (1−J)/2 = (3−J)/2 from the
// sample along one axis. F1 ≤ the own cell's point's distance ≤ √2·h,
// below (3−J)/2 for J < 0.657. F2 ≤ the farther of the own cell's point and
// that of the edge neighbour on the sample's nearer side, at most
// √((1+J/2)² + h²) away, below (3−J)/2 for J < 0.32. The limits used, 0.6
// and 0.3, leave a margin of 0.07 in distance, far beyond rounding.
func (n worleyNoise) innerOnly() bool {
	if n.mode == F1 {
		return n.jitter <= worleyInnerF1
	}
	return n.jitter <= worleyInnerF2F1
}

// The largest jitters that need no ring search (innerOnly).
const (
	worleyInnerF1   = 0.6
	worleyInnerF2F1 = 0.3
)

// hashJitter is the uniform jitter in [0, 1)² of lattice cell (i, j), given
// j's row key: the hash's high and low 32 bits.
func hashJitter(row uint64, i int) vec2 {
	h := hashCell(row, i)
	return vec2{float64(float64(h>>32) * 0x1p-32), float64(float64(uint32(h)) * 0x1p-32)}
}

// worleyNearest holds the squared distances to the two nearest feature
// points and their offsets from p.
type worleyNearest struct {
	d1, d2 float64
	o1, o2 vec2
}

// add records a feature point at offset o, squared distance d.
func (w *worleyNearest) add(o vec2, d float64) {
	switch {
	case d < w.d1:
		w.d2, w.o2 = w.d1, w.o1
		w.d1, w.o1 = d, o
	case d < w.d2:
		w.d2, w.o2 = d, o
	}
}

// gap is how far, along one axis, a sample at offset u ∈ [0, 1] in its cell
// lies from any feature point of the cell o cells away: from the cell
// itself with full jitter, from the band [lo, hi] of its points with less.
// It is the offset expression of addCell with the point at lo (o > 0) or hi
// (o < 0), so by monotone rounding no computed offset is nearer, and a cell
// skipped for its gap² ≥ a bound cannot hold a smaller computed distance.
func (n worleyNoise) gap(o int, u float64) float64 {
	switch {
	case o < 0:
		return u - float64(float64(o)+n.hi)
	case o > 0:
		return float64(float64(o)+n.lo) - u
	}
	return 0
}

// nearest finds the two nearest feature points, exactly: first the 3×3
// cells around p, then those of the surrounding 5×5 ring that could still
// hold a point nearer than the current F1 (mode F1) or F2. No cell beyond
// the 5×5 block can: its gap is at least 2, and by the bounds above
// F1 < √2 and F2 < √(5/2).
func (n worleyNoise) nearest(x, y float64) worleyNearest {
	i, u := floorFrac(x)
	j, v := floorFrac(y)
	w := worleyNearest{d1: math.Inf(1), d2: math.Inf(1)}
	for oj := -1; oj <= 1; oj++ {
		r := rowKey(n.key, j+oj)
		for oi := -1; oi <= 1; oi++ {
			w.add(n.cellOffset(r, i, oi, oj, u, v))
		}
	}
	for oj := -2; oj <= 2; oj++ {
		gy := n.gap(oj, v)
		gy2 := float64(gy * gy)
		r := rowKey(n.key, j+oj)
		for oi := -2; oi <= 2; oi++ {
			if oi > -2 && oi < 2 && oj > -2 && oj < 2 {
				continue // inner 3×3, done
			}
			gx := n.gap(oi, u)
			bound := w.d2
			if n.mode == F1 {
				bound = w.d1
			}
			if float64(gx*gx)+gy2 >= bound {
				continue
			}
			w.add(n.cellOffset(r, i, oi, oj, u, v))
		}
	}
	return w
}

// cellOffset returns the offset from the sample at (u, v) in cell (i, j) to
// the feature point of cell (i+oi, j+oj), given that row's key, and its
// squared length.
func (n worleyNoise) cellOffset(r uint64, i, oi, oj int, u, v float64) (vec2, float64) {
	f := n.featurePoint(r, i+oi)
	o := vec2{float64(oi) + f.x - u, float64(oj) + f.y - v}
	return o, float64(o.x*o.x) + float64(o.y*o.y)
}

// Value returns N(x, y).
func (n worleyNoise) Value(x, y float64) float64 { return n.distanceValue(n.nearest(x, y)) }

// distanceValue is N from the two nearest feature points.
func (n worleyNoise) distanceValue(w worleyNearest) float64 {
	if n.mode == F1 {
		return float64(worleyF1Scale*math.Sqrt(w.d1)) - 1
	}
	return float64(worleyF2F1Scale*(math.Sqrt(w.d2)-math.Sqrt(w.d1))) - 1
}

// Eval returns N(x, y) and its gradient. ∇F = (p − f)/F = −o/F for the
// distance F to a feature point at offset o; it is taken as 0 where F = 0.
func (n worleyNoise) Eval(x, y float64) (v, dx, dy float64) { return n.distanceEval(n.nearest(x, y)) }

// distanceEval is N and its gradient from the two nearest feature points.
func (n worleyNoise) distanceEval(w worleyNearest) (v, dx, dy float64) {
	f1 := math.Sqrt(w.d1)
	g1 := unitAway(w.o1, f1)
	if n.mode == F1 {
		return float64(worleyF1Scale*f1) - 1, worleyF1Scale * g1.x, worleyF1Scale * g1.y
	}
	f2 := math.Sqrt(w.d2)
	g2 := unitAway(w.o2, f2)
	return float64(worleyF2F1Scale*(f2-f1)) - 1, worleyF2F1Scale * (g2.x - g1.x), worleyF2F1Scale * (g2.y - g1.y)
}

// unitAway is the unit vector from a feature point at offset o, distance f,
// towards p: −o/f, or 0 where f = 0.
func unitAway(o vec2, f float64) vec2 {
	if f == 0 {
		return vec2{}
	}
	return vec2{-o.x / f, -o.y / f}
}

// ValueRow fills v[k] = N(xs[k], y).
func (n worleyNoise) ValueRow(xs []float64, y float64, v []float64) {
	v = v[:len(xs)]
	for k, x := range xs {
		v[k] = n.Value(x, y)
	}
}

// EvalRow fills v[k], dx[k], dy[k] with Eval(xs[k], y).
func (n worleyNoise) EvalRow(xs []float64, y float64, v, dx, dy []float64) {
	v, dx, dy = v[:len(xs)], dx[:len(xs)], dy[:len(xs)]
	for k, x := range xs {
		v[k], dx[k], dy[k] = n.Eval(x, y)
	}
}
