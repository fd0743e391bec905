package main

// The cellular kernels: Worley noise values (F1 and F2 − F1) along a grid
// row (see noise/worley_grid.go). Each lane is one sample; it gathers the
// jittered feature points of the 3×3 cells around its own from the five
// kept lattice rows, and keeps the two smallest squared distances with min
// and max, which are exact. Then the 16 cells of the surrounding 5×5 ring:
// a ring cell is skipped when no lane's gap² to it is below that lane's
// bound (d1 for F1, d2 for F2 − F1), and otherwise evaluated in every lane,
// which cannot change a lane that did not need it (its distance is at least
// the gap², so at least the bound). So the two smallest distances are the
// Go path's, and every distance is its expression, (oi + f_x − u)² +
// (oj + f_y − v)², each product rounded before the sum: the rows are bit for
// bit the Go path's and the point form's.

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The layout of noise's worleyBlock: 8 samples' offsets u in their cells,
// their cells' prepared columns times two (a feature point is two float64,
// and a gather scales its index by at most 8), and their squared gaps to
// the columns −2, −1, +1, +2 away.
const (
	worleyOffU, worleyOffC2, worleyOffGx2 = 0, 64, 128
	worleyOffIdx, worleyOffBase           = 384, 448
	worleyOffSame                         = 456
	worleyBlockSize                       = 512
)

// worleyConsts holds the float64 −2, −1, 0, 1, 2 (at 8·(o+2): the cell
// offsets oi and oj), +Inf and 1.
var worleyConsts Mem

// worleyIdx holds the int64 1 … 5, the permute indices' steps.
var worleyIdx Mem

const worleyInf, worleyOne = 40, 48

// cellularRows writes the Worley kernels of both instruction sets.
func cellularRows() {
	worleyConsts = GLOBL("worleyconsts", RODATA|NOPTR)
	for k, f := range []float64{-2, -1, 0, 1, 2} {
		DATA(8*k, F64(f))
	}
	DATA(worleyInf, U64(0x7FF0000000000000))
	DATA(worleyOne, F64(1))
	worleyIdx = GLOBL("worleyidx", RODATA|NOPTR)
	for k := range 5 {
		DATA(8*k, U64(k+1))
	}
	for _, s := range []cellISA{cell512{}, cell2{}} {
		for _, ring := range []bool{true, false} {
			worleyRow(s, false, ring)
			worleyRow(s, true, ring)
		}
	}
}

// cellISA is how an instruction set gathers and tests a block's lanes.
type cellISA interface {
	name() string
	width() int  // a vector's size in bytes
	halves() int // vectors per block of 8 samples
	vec() Register
	// gather loads the float64 at base + index·8 + disp of every lane,
	// into a copy of the zero vector zero (AVX-512).
	gather(base, index, zero Register, disp int) Register
	// anyLess jumps to skip unless some lane of a is below b.
	anyLess(a, b Register, skip string)
	// permutes is whether the inner cells can come from two-table
	// permutes instead of gathers (AVX-512).
	permutes() bool
}

type cell512 struct{}

func (cell512) name() string  { return "AVX512" }
func (cell512) width() int    { return 64 }
func (cell512) halves() int   { return 1 }
func (cell512) vec() Register { return ZMM() }

func (cell512) gather(base, index, zero Register, disp int) Register {
	k, dst, ones := K(), ZMM(), GP32()
	// Fresh registers: an instruction that reads its own output (KXNORW
	// k, k, k; VPXORQ z, z, z) would leave them live from the function's
	// entry for the register allocator.
	MOVL(U32(0xFF), ones)
	KMOVW(ones, k)
	VMOVAPD(zero, dst)
	VGATHERQPD(Mem{Base: base, Index: index, Scale: 8, Disp: disp}, k, dst)
	return dst
}

func (cell512) permutes() bool { return true }
func (cell2) permutes() bool   { return false }

func (cell512) anyLess(a, b Register, skip string) {
	k := K()
	VCMPPD(U8(1), b, a, k) // LT_OS: a < b
	KORTESTW(k, k)
	JZ(LabelRef(skip))
}

type cell2 struct{}

func (cell2) name() string  { return "AVX2" }
func (cell2) width() int    { return 32 }
func (cell2) halves() int   { return 2 }
func (cell2) vec() Register { return YMM() }

func (cell2) gather(base, index, _ Register, disp int) Register {
	mask, dst := YMM(), YMM()
	VPCMPEQQ(mask, mask, mask)
	VXORPD(dst, dst, dst)
	VGATHERQPD(mask, Mem{Base: base, Index: index, Scale: 8, Disp: disp}, dst)
	return dst
}

func (cell2) anyLess(a, b Register, skip string) {
	m, bits := YMM(), GP32()
	VCMPPD(U8(1), b, a, m)
	VMOVMSKPD(m, bits)
	TESTL(bits, bits)
	JZ(LabelRef(skip))
}

// worleyRow writes N of every block's samples to out. Without the ring it
// searches the inner 3×3 cells only, for feature points whose jitter is
// bounded so that no ring cell can hold one of the nearest (worleyInner).
func worleyRow(s cellISA, edge, ring bool) {
	mode := "F1"
	if edge {
		mode = "F2F1"
	}
	inner := ""
	if !ring {
		inner = "Inner"
	}
	name := "worley" + mode + "Row" + inner + s.name()
	TEXT(name, NOSPLIT, "func(out *float64, blocks *float64, feat *float64, rowOff *int64, gy2 *float64, v, scale float64, n int)")
	Doc(name+" writes Worley "+mode+" noise N at the 8 samples of each of the n blocks to out,",
		"from the feature points of lattice rows j−2 … j+2 at feat + rowOff[0 … 4] and the",
		"row's offset v and squared gaps gy2 to them (see worleyRows.distances).")
	if !ring {
		Doc("It searches the inner 3×3 cells only, for jitters that need no more.")
	}
	out, blk := Load(Param("out"), GP64()), Load(Param("blocks"), GP64())
	feat, offs := Load(Param("feat"), GP64()), Load(Param("rowOff"), GP64())
	gy2 := Load(Param("gy2"), GP64())
	n := Load(Param("n"), GP64())
	var rows [5]Register
	for k := range rows {
		rows[k] = GP64()
		MOVQ(Mem{Base: offs, Disp: 8 * k}, rows[k])
		ADDQ(feat, rows[k])
	}
	v := s.vec()
	VBROADCASTSD(Load(Param("v"), XMM()), v)
	w := s.width()
	zero := s.vec()
	if w == 64 {
		VPXORQ(zero, zero, zero) // VXORPD on zmm needs AVX512DQ
	} else {
		VXORPD(zero, zero, zero)
	}
	Label(name + "Block")
	TESTQ(n, n)
	JZ(LabelRef(name + "Done"))
	for h := range s.halves() {
		u, c2 := s.vec(), s.vec()
		VMOVUPD(Mem{Base: blk, Disp: worleyOffU + w*h}, u)
		VMOVUPD(Mem{Base: blk, Disp: worleyOffC2 + w*h}, c2)
		d1, d2 := s.vec(), s.vec()
		VBROADCASTSD(worleyConsts.Offset(worleyInf), d1)
		VMOVAPD(d1, d2)
		// cellAt is the distance to the feature point at ox, oy (its
		// jitter, on entry) of cell (oi, oj), kept in d1 and d2.
		cellAt := func(oi, oj int, ox, oy Register) {
			if oi != 0 { // 0 + f_x is f_x: f_x is never −0
				o := s.vec()
				VBROADCASTSD(worleyConsts.Offset(8*(oi+2)), o)
				VADDPD(o, ox, ox)
			}
			VSUBPD(u, ox, ox)
			if oj != 0 {
				o := s.vec()
				VBROADCASTSD(worleyConsts.Offset(8*(oj+2)), o)
				VADDPD(o, oy, oy)
			}
			VSUBPD(v, oy, oy)
			VMULPD(ox, ox, ox)
			VMULPD(oy, oy, oy)
			VADDPD(oy, ox, ox) // d
			if edge {          // d2 = min(d2, max(d1, d)) before d1 = min(d1, d); F1 needs no d2
				t := s.vec()
				VMAXPD(ox, d1, t)
				VMINPD(t, d2, d2)
			}
			VMINPD(ox, d1, d1)
		}
		cell := func(oi, oj int) {
			cellAt(oi, oj, s.gather(rows[oj+2], c2, zero, 16*oi), s.gather(rows[oj+2], c2, zero, 16*oi+8))
		}
		ringLabel := fmt.Sprintf("%sRing%d", name, h)
		finish := fmt.Sprintf("%sFinish%d", name, h)
		if !s.permutes() {
			// A block whose samples all lie in one cell (worleyBlock.same
			// ≥ 0, that column's byte offset in a row) reads each cell's
			// feature point once for all lanes, broadcast, instead of
			// gathering it: the same values, without the gathers that
			// bound these rows.
			gather := fmt.Sprintf("%sGatherSame%d", name, h)
			same := GP64()
			MOVQ(Mem{Base: blk, Disp: worleyOffSame}, same)
			TESTQ(same, same)
			JS(LabelRef(gather))
			bcell := func(oi, oj int) {
				ox, oy := s.vec(), s.vec()
				VBROADCASTSD(Mem{Base: rows[oj+2], Index: same, Scale: 1, Disp: 16 * oi}, ox)
				VBROADCASTSD(Mem{Base: rows[oj+2], Index: same, Scale: 1, Disp: 16*oi + 8}, oy)
				cellAt(oi, oj, ox, oy)
			}
			for oj := -1; oj <= 1; oj++ {
				for oi := -1; oi <= 1; oi++ {
					bcell(oi, oj)
				}
			}
			if ring {
				worleyRing(s, name+"Same", h, edge, gy2, blk, d1, d2, bcell)
			}
			JMP(LabelRef(finish))
			Label(gather)
		}
		if s.permutes() {
			// A block whose inner cells lie within 8 columns from its base
			// (worleyBlock.base ≥ 0, a byte offset) picks their feature
			// points from those 16 float64 of each row with two-table
			// permutes; the lanes' indices are idx + 0 … 5 for the x and
			// y of the columns −1, 0, 1 away. Same values, fewer gathers.
			gather := fmt.Sprintf("%sGather%d", name, h)
			base := GP64()
			MOVQ(Mem{Base: blk, Disp: worleyOffBase}, base)
			TESTQ(base, base)
			JS(LabelRef(gather))
			var idx [6]Register
			idx[0] = s.vec()
			VMOVDQU64(Mem{Base: blk, Disp: worleyOffIdx}, idx[0])
			for k := 1; k < 6; k++ {
				idx[k] = s.vec()
				VPADDQ_BCST(worleyIdx.Offset(8*(k-1)), idx[0], idx[k])
			}
			for oj := -1; oj <= 1; oj++ {
				lo := s.vec()
				VMOVUPD(Mem{Base: rows[oj+2], Index: base, Scale: 1}, lo)
				for oi := -1; oi <= 1; oi++ {
					ox, oy := s.vec(), s.vec()
					VMOVAPD(lo, ox)
					VPERMT2PD(Mem{Base: rows[oj+2], Index: base, Scale: 1, Disp: 64}, idx[2*(oi+1)], ox)
					VMOVAPD(lo, oy)
					VPERMT2PD(Mem{Base: rows[oj+2], Index: base, Scale: 1, Disp: 64}, idx[2*(oi+1)+1], oy)
					cellAt(oi, oj, ox, oy)
				}
			}
			JMP(LabelRef(ringLabel))
			Label(gather)
		}
		for oj := -1; oj <= 1; oj++ {
			for oi := -1; oi <= 1; oi++ {
				cell(oi, oj)
			}
		}
		Label(ringLabel)
		if ring {
			worleyRing(s, name, h, edge, gy2, blk, d1, d2, cell)
		}
		Label(finish)
		scale, one := s.vec(), s.vec()
		VBROADCASTSD(Load(Param("scale"), XMM()), scale)
		VBROADCASTSD(worleyConsts.Offset(worleyOne), one)
		r := s.vec()
		VSQRTPD(d1, r)
		if edge {
			r2 := s.vec()
			VSQRTPD(d2, r2)
			VSUBPD(r, r2, r)
		}
		VMULPD(scale, r, r)
		VSUBPD(one, r, r)
		VMOVUPD(r, Mem{Base: out, Disp: w * h})
	}
	ADDQ(U8(64), out)
	ADDQ(U32(worleyBlockSize), blk)
	DECQ(n)
	JMP(LabelRef(name + "Block"))
	Label(name + "Done")
	VZEROUPPER()
	RET()
}

// worleyRing searches the cells of the 5×5 ring that some lane's gap² puts
// nearer than its bound, d1 (F1) or d2 (edge), with cell.
func worleyRing(s cellISA, name string, h int, edge bool, gy2, blk, d1, d2 Register, cell func(oi, oj int)) {
	bound := d2
	if !edge {
		bound = d1
	}
	for oj := -2; oj <= 2; oj++ {
		for oi := -2; oi <= 2; oi++ {
			if oi > -2 && oi < 2 && oj > -2 && oj < 2 {
				continue // inner 3×3, done
			}
			skip := fmt.Sprintf("%sSkip%d_%d_%d", name, h, oi+2, oj+2)
			gap := s.vec()
			VBROADCASTSD(Mem{Base: gy2, Disp: 8 * (oj + 2)}, gap)
			if oi != 0 { // gx² + gy², with gx = 0 for oi = 0
				slot := map[int]int{-2: 0, -1: 1, 1: 2, 2: 3}[oi]
				VADDPD(Mem{Base: blk, Disp: worleyOffGx2 + 64*slot + s.width()*h}, gap, gap)
			}
			s.anyLess(gap, bound, skip)
			cell(oi, oj)
			Label(skip)
		}
	}
}

// The simplex kernel: Perlin's simplex noise values (noise/simplex.go)
// at 8 samples of a row per vector, AVX-512 only: it needs 64-bit
// multiplies and conversions between float64 and int64 (AVX512DQ), which
// AVX2 lacks. Each lane does what simplexNoise.Value does: the skew, the
// cell by truncation and a step down below it (floorFrac), the three
// corners' offsets, their gradients hashed from the lattice point with
// Mix64 and gathered from the table, and t⁴·(g·d) zeroed where t ≤ 0, each
// product rounded before its sum.

// The constants of noise/simplex.go and noise/hash.go, the same literals.
const (
	skew2        = 0.36602540378443864676
	unskew2      = 0.21132486540518711775
	simplexScale = 99.204334582718712977
	primeX       = 0x9E3779B97F4A7C15
	primeY       = 0xC2B2AE3D27D4EB4F
	mix1, mix2   = 0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53
)

var simplexConsts Mem

// Offsets in simplexConsts.
const (
	sxSkew, sxUnskew, sxFar, sxHalf, sxScale  = 0, 8, 16, 24, 32
	sxOne, sxPrimeX, sxPrimeY, sxMix1, sxMix2 = 40, 48, 56, 64, 72
	sxOneF, sxCornerI, sxCornerJ              = 80, 128, 192
)

// simplexRows writes the simplex kernel.
func simplexRows() {
	simplexConsts = GLOBL("simplexconsts", RODATA|NOPTR)
	DATA(sxSkew, F64(skew2))
	DATA(sxUnskew, F64(unskew2))
	DATA(sxFar, F64(2*unskew2-1))
	DATA(sxHalf, F64(0.5))
	DATA(sxScale, F64(simplexScale))
	DATA(sxOne, U64(1))
	DATA(sxPrimeX, U64(primeX))
	DATA(sxPrimeY, U64(primeY))
	DATA(sxMix1, U64(mix1))
	DATA(sxMix2, U64(mix2))
	DATA(sxOneF, F64(1))
	for l := range 8 { // the four corners of a cell, twice (in increasing offsets, as the assembler wants)
		DATA(sxCornerI+8*l, U64(l&1))
	}
	for l := range 8 {
		DATA(sxCornerJ+8*l, U64(l>>1&1))
	}
	simplexKernel(false)
	simplexKernel(true)
}

// simplexKernel writes the kernel along a row (one y) or, with points, at
// points whose ys come in a second array (the distorted octaves).
func simplexKernel(points bool) {
	name := "simplexRowAVX512"
	sig := "func(out *float64, xs *float64, y float64, key uint64, grads *float64, n int)"
	if points {
		name = "simplexPointsAVX512"
		sig = "func(out *float64, xs *float64, ys *float64, key uint64, grads *float64, n int)"
	}
	TEXT(name, NOSPLIT, sig)
	if points {
		Doc(name+" writes simplex noise N(xs[k], ys[k]) at the 8 samples of each of the n",
			"blocks of xs and ys to out, for the basis key, with the gradient table at grads",
			"(see simplexNoise.Value).")
	} else {
		Doc(name+" writes simplex noise N(xs[k], y) at the 8 samples of each of the n blocks",
			"of xs to out, for the basis key, with the gradient table at grads (see simplexNoise.Value).")
	}
	out, xs := Load(Param("out"), GP64()), Load(Param("xs"), GP64())
	grads, n := Load(Param("grads"), GP64()), Load(Param("n"), GP64())
	c := func(off int) Mem { return simplexConsts.Offset(off) }
	y, key, zero, onesQ, oneF := ZMM(), ZMM(), ZMM(), ZMM(), ZMM()
	var ys Register
	if points {
		ys = Load(Param("ys"), GP64())
	} else {
		VBROADCASTSD(Load(Param("y"), XMM()), y)
	}
	VPBROADCASTQ(Load(Param("key"), GP64()), key)
	VPXORQ(zero, zero, zero)
	VPBROADCASTQ(c(sxOne), onesQ)
	VBROADCASTSD(c(sxOneF), oneF)
	// A row's blocks at the coarse octaves lie mostly inside one skewed
	// cell, the previous block's: such a block takes its four corners'
	// gradients from cache, hashed once per cell, instead of hashing and
	// gathering three per lane. cache holds their x (lanes 0–3) and y
	// (8–11) in the order (i, j), (i+1, j), (i, j+1), (i+1, j+1).
	var cache Mem
	var ci, cj, have Register
	if !points {
		cache = AllocLocal(128)
		ci, cj, have = ZMM(), ZMM(), GP64()
		// MOVQ, not XORQ r, r: an instruction that reads its own
		// output would leave r live from the function's entry.
		MOVQ(U32(0), have)
		VMOVDQU64(zero, ci)
		VMOVDQU64(zero, cj)
	}
	Label(name + "Block")
	TESTQ(n, n)
	JZ(LabelRef(name + "Done"))
	x := ZMM()
	VMOVUPD(Mem{Base: xs}, x)
	if points {
		VMOVUPD(Mem{Base: ys}, y)
	}
	s := ZMM()
	VADDPD(y, x, s)
	VMULPD_BCST(c(sxSkew), s, s)
	floor := func(v Register) VecVirtual { // floorFrac's index
		q, f, k := ZMM(), ZMM(), K()
		VCVTTPD2QQ(v, q)
		VCVTQQ2PD(q, f)
		VCMPPD(U8(1), f, v, k) // v < float64(q)
		VPSUBQ(onesQ, q, k, q)
		return q
	}
	xsk, ysk := ZMM(), ZMM()
	VADDPD(s, x, xsk)
	VADDPD(s, y, ysk)
	i, j := floor(xsk), floor(ysk)
	t, fi, fj := ZMM(), ZMM(), ZMM()
	VPADDQ(j, i, t)
	VCVTQQ2PD(t, t)
	VMULPD_BCST(c(sxUnskew), t, t)
	VCVTQQ2PD(i, fi)
	VCVTQQ2PD(j, fj)
	x0, y0 := ZMM(), ZMM()
	VSUBPD(t, fi, fi)
	VSUBPD(fi, x, x0)
	VSUBPD(t, fj, fj)
	VSUBPD(fj, y, y0)
	lower := K()
	VCMPPD(U8(0x0E), y0, x0, lower) // GT_OS: x0 > y0
	i1, j1 := ZMM(), ZMM()
	VBLENDMPD(oneF, zero, lower, i1)
	VBLENDMPD(zero, oneF, lower, j1)
	x1, y1, x2, y2 := ZMM(), ZMM(), ZMM(), ZMM()
	VSUBPD(i1, x0, x1)
	VADDPD_BCST(c(sxUnskew), x1, x1)
	VSUBPD(j1, y0, y1)
	VADDPD_BCST(c(sxUnskew), y1, y1)
	VADDPD_BCST(c(sxFar), x0, x2)
	VADDPD_BCST(c(sxFar), y0, y2)
	sum := ZMM()
	if !points {
		i0, j0, same, sj := ZMM(), ZMM(), K(), K()
		VPERMQ(i, zero, i0) // lane 0 everywhere
		VPERMQ(j, zero, j0)
		VPCMPEQQ(i0, i, same)
		VPCMPEQQ(j0, j, sj)
		KANDB(sj, same, same)
		KORTESTB(same, same) // CF: every lane in lane 0's cell
		JCC(LabelRef(name + "Lanes"))
		TESTQ(have, have)
		JZ(LabelRef(name + "Miss"))
		hit, hj := K(), K()
		VPCMPEQQ(ci, i, hit)
		VPCMPEQQ(cj, j, hj)
		KANDB(hj, hit, hit)
		KORTESTB(hit, hit) // CF: the cached cell
		JCS(LabelRef(name + "Hit"))
		Label(name + "Miss")
		{ // hash the four corners in lanes 0–3 (and again in 4–7)
			ii, jj := ZMM(), ZMM()
			VPADDQ(c(sxCornerI), i, ii)
			VPADDQ(c(sxCornerJ), j, jj)
			VPMULLQ_BCST(c(sxPrimeY), jj, jj)
			VPXORQ(key, jj, jj)
			VPMULLQ_BCST(c(sxPrimeX), ii, ii)
			h := hashIndex(jj, ii)
			for k := range 2 {
				m, g := allLanes(), ZMM()
				VMOVAPD(zero, g)
				VGATHERQPD(Mem{Base: grads, Index: h, Scale: 8, Disp: 8 * k}, m, g)
				VMOVUPD(g, cache.Offset(64*k))
			}
			VMOVDQU64(i0, ci)
			VMOVDQU64(j0, cj)
			MOVQ(U32(1), have)
		}
		Label(name + "Hit")
		g := func(corner, k int) Register {
			r := ZMM()
			VBROADCASTSD(cache.Offset(64*k+8*corner), r)
			return r
		}
		g1x, g1y := ZMM(), ZMM()
		VBLENDMPD(g(1, 0), g(2, 0), lower, g1x) // the lower triangle's corner 1 is (i+1, j)
		VBLENDMPD(g(1, 1), g(2, 1), lower, g1y)
		simplexTerm(g(0, 0), g(0, 1), x0, y0, zero, sum, true)
		simplexTerm(g1x, g1y, x1, y1, zero, sum, false)
		simplexTerm(g(3, 0), g(3, 1), x2, y2, zero, sum, false)
		JMP(LabelRef(name + "Store"))
		Label(name + "Lanes")
	}
	// The lattice rows' keys and the columns' products: rowKey and
	// hashCell.
	r0, r1, ip, ip1 := latticeKeys(i, j, key, c(sxPrimeX), c(sxPrimeY))
	row1, col1 := ZMM(), ZMM()
	VPBLENDMQ(r0, r1, lower, row1) // the lower triangle's corner 1 is (i+1, j)
	VPBLENDMQ(ip1, ip, lower, col1)
	corner := func(row, col, dx, dy Register, first bool) {
		h := hashIndex(row, col)
		gx, gy := ZMM(), ZMM()
		for k, g := range []Register{gx, gy} {
			m := allLanes()
			VMOVAPD(zero, g)
			VGATHERQPD(Mem{Base: grads, Index: h, Scale: 8, Disp: 8 * k}, m, g)
		}
		simplexTerm(gx, gy, dx, dy, zero, sum, first)
	}
	corner(r0, ip, x0, y0, true)
	corner(row1, col1, x1, y1, false)
	corner(r1, ip1, x2, y2, false)
	if !points {
		Label(name + "Store")
	}
	VMULPD_BCST(c(sxScale), sum, sum)
	VMOVUPD(sum, Mem{Base: out})
	ADDQ(U8(64), out)
	ADDQ(U8(64), xs)
	if points {
		ADDQ(U8(64), ys)
	}
	DECQ(n)
	JMP(LabelRef(name + "Block"))
	Label(name + "Done")
	VZEROUPPER()
	RET()
}

// hashIndex returns the gradient table index, times two, of the lattice
// points whose row keys are row and column products col: Mix64(row ^ col)
// >> 56, as gradient does.
func hashIndex(row, col Register) Register {
	h, sh := ZMM(), ZMM()
	VPXORQ(col, row, h)
	for _, m := range []int{sxMix1, sxMix2, -1} { // Mix64
		VPSRLQ(U8(33), h, sh)
		VPXORQ(sh, h, h)
		if m >= 0 {
			VPMULLQ_BCST(simplexConsts.Offset(m), h, h)
		}
	}
	VPSRLQ(U8(56), h, h)
	VPSLLQ(U8(1), h, h) // a gradient is two float64
	return h
}

// simplexTerm adds a corner's t⁴·(g·d), zeroed where t ≤ 0, to sum (or
// sets sum to it, first), from its gradient gx, gy and offset dx, dy.
func simplexTerm(gx, gy, dx, dy, zero, sum Register, first bool) {
	tt, a, b := ZMM(), ZMM(), ZMM()
	VMULPD(dx, dx, a)
	VMULPD(dy, dy, b)
	VBROADCASTSD(simplexConsts.Offset(sxHalf), tt)
	VSUBPD(a, tt, tt)
	VSUBPD(b, tt, tt) // t = ½ − x² − y²
	VMULPD(dx, gx, a)
	VMULPD(dy, gy, b)
	VADDPD(b, a, a) // g·d
	VMULPD(tt, tt, b)
	VMULPD(b, b, b) // t⁴
	live := K()
	VCMPPD(U8(6), zero, tt, live) // NLE_US: not t ≤ 0
	if first {
		VMULPD_Z(a, b, live, sum)
		return
	}
	VMULPD_Z(a, b, live, b)
	VADDPD(b, sum, sum)
}

// allLanes returns a mask of all 8 lanes, made through a general register:
// KXNORW k, k, k would read k and so leave it live from the function's
// entry for the register allocator, which runs out of mask registers.
func allLanes() Register {
	k, ones := K(), GP32()
	MOVL(U32(0xFF), ones)
	KMOVW(ones, k)
	return k
}
