package road

import (
	"context"
	"cordillera/internal/parallel"
	"math"
)

// squaredDistance returns, for every sample of a w×h grid, the squared
// distance in samples to the nearest sample marked in seed (+Inf where
// none is marked): the exact Euclidean distance transform of Felzenszwalb
// and Huttenlocher, the lower envelope of parabolas along each column and
// then along each row, O(w·h) whatever the distances. squaredDistanceBrute
// is its oracle.
func squaredDistance(ctx context.Context, seed []bool, w, h int) ([]float64, error) {
	d := make([]float64, w*h)
	for i, s := range seed {
		if s {
			d[i] = 0
		} else {
			d[i] = math.Inf(1)
		}
	}
	// Columns, in strips of columns that each worker owns.
	const strip = 64
	err := parallel.Each(ctx, (w+strip-1)/strip, func(b int) {
		f := make([]float64, h)
		env := newEnvelope(h)
		for c := b * strip; c < min((b+1)*strip, w); c++ {
			for r := range h {
				f[r] = d[r*w+c]
			}
			env.transform(f)
			for r := range h {
				d[r*w+c] = f[r]
			}
		}
	})
	if err != nil {
		return nil, err
	}
	err = parallel.Rows(ctx, h, nil, 0, 0, func(r int) {
		newEnvelope(w).transform(d[r*w : (r+1)*w])
	})
	return d, err
}

// envelope is the scratch of the 1-D transform: the parabolas' vertices
// and where each starts to be the lowest.
type envelope struct {
	v []int
	z []float64
	g []float64
}

func newEnvelope(n int) *envelope {
	return &envelope{v: make([]int, n), z: make([]float64, n+1), g: make([]float64, n)}
}

// transform replaces f by min over q of f[q] + (p − q)², in place.
func (e *envelope) transform(f []float64) {
	n := len(f)
	k := -1
	for q := range n {
		if math.IsInf(f[q], 1) {
			continue
		}
		for k >= 0 {
			p := e.v[k]
			s := ((f[q] + float64(q*q)) - (f[p] + float64(p*p))) / float64(2*(q-p))
			if s > e.z[k] {
				k++
				e.v[k], e.z[k] = q, s
				break
			}
			k--
		}
		if k < 0 {
			k = 0
			e.v[0], e.z[0] = q, math.Inf(-1)
		}
		e.z[k+1] = math.Inf(1)
	}
	if k < 0 {
		return // nothing marked: all +Inf
	}
	copy(e.g, f)
	j := 0
	for p := range n {
		for e.z[j+1] < float64(p) {
			j++
		}
		q := e.v[j]
		f[p] = e.g[q] + float64((p-q)*(p-q))
	}
}
