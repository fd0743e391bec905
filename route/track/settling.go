package track

import "math"

// Settling: a receiver's altitude converges on the true one over the
// first minute or two of a recording, and again after a pause (a
// barometer warming up, a GPS altitude solution improving): a drop or a
// rise of up to hundreds of metres over the first ~100 fixes, steep at
// first and levelling off. A segment's start is settling when its
// altitude over the first settleReach metres (at least outlierMinPoints
// fixes) changes more steeply than settleFactor times the track's own
// steep grade (its 90th percentile, steepGrade), and than settleMinGrade;
// the settling lasts while the altitude over the settleReach metres ahead
// keeps moving that way more steeply than the track's steep grade (at
// least settleEndGrade), and counts where it moved more than outlierFloor
// metres in all. No path keeps climbing at three times its own steepest
// for its first tens of metres, and the robust outlier test, whose window
// of 2·outlierWindow metres lies mostly on the settling fixes themselves,
// repaired 2 of ~110 of them on a real recording.
const (
	settleReach    = outlierWindow / 2
	settleFactor   = 3.0
	settleMinGrade = 0.25
	settleEndGrade = 0.02
)

// repairSettling finds settling at the start of every segment (the start
// of the recording, and the first fixes after a pause or a jump) and
// takes the settling off the altitudes: a decay over fixes fitted to them
// (fitSettling), or where no decay fits, the settling fixes held at the
// level the altitude settled on (the median over settleReach metres from
// the first settled fix). Each is recorded as a "settling" repair.
// Positions are in metres (before fit).
func (p *Path) repairSettling(segs [][]Sample) {
	grade := steepGrade(segs)
	along := 0.0
	for _, seg := range segs {
		cum := Cumulative(seg)
		p.settle(seg, cum, grade, along)
		along += cum[len(cum)-1]
	}
}

func (p *Path) settle(seg []Sample, cum []float64, grade, along float64) {
	n := len(seg)
	if n < 4*outlierMinPoints {
		return
	}
	// Altitudes through a 5-fix running median: GPS noise does not end
	// the settling early, nor a spike start one.
	ele := make([]float64, n)
	buf := make([]float64, 0, 5)
	for i := range seg {
		lo, hi := max(i-2, 0), min(i+3, n)
		buf = buf[:0]
		for j := lo; j < hi; j++ {
			buf = append(buf, seg[j].Ele)
		}
		ele[i] = median(buf)
	}
	// fall returns the grade from i to settleReach metres ahead (falling
	// positive), or false at the segment's end.
	fall := func(i int) (float64, bool) {
		k := i + outlierMinPoints
		for k < n && cum[k]-cum[i] < settleReach {
			k++
		}
		if k >= n {
			return 0, false
		}
		return (ele[i] - ele[k]) / max(cum[k]-cum[i], settleReach), true
	}
	g0, ok := fall(0)
	if !ok || math.Abs(g0) <= max(settleFactor*grade, settleMinGrade) {
		return
	}
	sign := math.Copysign(1, g0)
	j := 0
	for j < n/2 {
		g, ok := fall(j)
		if !ok || sign*g <= max(grade, settleEndGrade) {
			break
		}
		j++
	}
	if j == 0 || j >= n/2 || math.Abs(ele[0]-ele[j]) <= outlierFloor {
		return // not settling, or the whole first half: a climb, not a receiver
	}
	r := Repair{Kind: "settling"}
	if a, tau, ok := fitSettling(seg, cum, j, sign); ok {
		// The settling is an error added to the altitude and decaying with
		// time (fixes): take it off wherever it is more than a centimetre.
		for q := 0; q < n; q++ {
			c := -a * math.Exp(-float64(q)/tau)
			if math.Abs(c) < 0.01 {
				break
			}
			seg[q].Ele += c
			r.Points++
			if math.Abs(c) > math.Abs(r.Change) {
				r.Change, r.At = c, along+cum[q]
			}
		}
	} else {
		level := levelAround(seg, cum, j, +1)
		for q := 0; q < j; q++ {
			if c := level - seg[q].Ele; math.Abs(c) > math.Abs(r.Change) {
				r.Change, r.At = c, along+cum[q]
			}
			seg[q].Ele = level
		}
		r.Points = j
	}
	p.Repairs = append(p.Repairs, r)
}

// fitSettling fits e(q) = b + g·s + c·s² + a·exp(−q/τ), s the metres along
// the segment, by least squares over the settling's first j fixes and
// twice as many after them (the ground there as a parabola, the settling
// as a decay over fixes, as a receiver settles with time), trying time
// constants τ from j/10 to 2j fixes. It returns a and τ where the decay
// moves the way the settling does (sign, falling positive), by more than
// outlierFloor and by no more than twice what the altitudes moved.
func fitSettling(seg []Sample, cum []float64, j int, sign float64) (a, tau float64, ok bool) {
	m := min(len(seg), 3*j+outlierMinPoints)
	moved := 0.0
	for q := 0; q < m; q++ {
		moved = max(moved, math.Abs(seg[q].Ele-seg[m-1].Ele))
	}
	best := math.Inf(1)
	scale := max(cum[m-1], 1)
	for t := float64(j) / 10; t <= 2*float64(j); t *= 1.03 {
		var ata [4][4]float64
		var atb [4]float64
		for q := 0; q < m; q++ {
			s := cum[q] / scale
			row := [4]float64{1, s, s * s, math.Exp(-float64(q) / t)}
			for u := range 4 {
				for v := range 4 {
					ata[u][v] += row[u] * row[v]
				}
				atb[u] += row[u] * seg[q].Ele
			}
		}
		x, solved := solve4(ata, atb)
		if !solved {
			continue
		}
		sse := 0.0
		for q := 0; q < m; q++ {
			s := cum[q] / scale
			d := x[0] + x[1]*s + x[2]*s*s + x[3]*math.Exp(-float64(q)/t) - seg[q].Ele
			sse += d * d
		}
		if sse < best && sign*x[3] > outlierFloor && math.Abs(x[3]) <= 2*moved {
			best, a, tau, ok = sse, x[3], t, true
		}
	}
	return a, tau, ok
}

// solve4 solves the 4×4 system m·x = b by Gaussian elimination with
// partial pivoting, or reports that it is singular.
func solve4(m [4][4]float64, b [4]float64) ([4]float64, bool) {
	for c := range 4 {
		p := c
		for r := c + 1; r < 4; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		if math.Abs(m[p][c]) < 1e-12 {
			return b, false
		}
		m[c], m[p] = m[p], m[c]
		b[c], b[p] = b[p], b[c]
		for r := c + 1; r < 4; r++ {
			f := m[r][c] / m[c][c]
			for k := c; k < 4; k++ {
				m[r][k] -= f * m[c][k]
			}
			b[r] -= f * b[c]
		}
	}
	var x [4]float64
	for r := 3; r >= 0; r-- {
		v := b[r]
		for k := r + 1; k < 4; k++ {
			v -= m[r][k] * x[k]
		}
		x[r] = v / m[r][r]
	}
	return x, true
}
