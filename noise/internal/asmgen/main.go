// Command asmgen writes the noise package's vector kernels with avo: Perlin
// and value noise along a grid row, and fBm's sum of their octaves (see
// noise/grid.go and noise/fbm.go), over 8 float64 lanes with AVX-512F and
// over 4 with AVX2. Every lane computes
// exactly the Go loop's expression, in the same order, with the multiplies
// and adds kept apart (no fused multiply-add), so the kernels' rows are bit
// for bit the Go loop's.
//
// It lives in its own module so that cordillera does not depend on avo. Run
// it from noise/ with go generate (see kernel_amd64.go).
package main

import (
	"fmt"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The layout of noise's laneBlock: 8 samples' u and w(u), their left
// columns relative to the block's base column, and base, padded to a
// multiple of 64 bytes.
const (
	offU, offWu, offRel, offBase = 0, 64, 128, 192
	blockSize                    = 256
)

// The layout of noise's laneOctave: an octave's amplitude, its blocks,
// and its columns' tables on the current row (Perlin: slopes and offsets;
// value noise: values). The kernels get
// the first block's u and the first octave's amp, the start of each.
const (
	offAmp, offBlocks, offCs, offCo = 0, 8, 16, 24
	octaveSize                      = 32
)

// one is the int64 1, broadcast to make right columns from left ones, and
// oneF the float64 1, to make u − 1.
var one, oneF Mem

func main() {
	ConstraintExpr("amd64,!purego")
	one = GLOBL("one", RODATA|NOPTR)
	DATA(0, U64(1))
	oneF = GLOBL("onef", RODATA|NOPTR)
	DATA(0, F64(1))
	for _, basis := range []string{"perlin", "value"} {
		row(avx512{}, basis)
		row(avx2{}, basis)
		for _, f := range []fold{foldFBm, foldHetero, foldHybrid} {
			fbmRow(avx512{}, basis, 1, f)
			fbmRow(avx512{}, basis, 2, f)
			fbmRow(avx2{}, basis, 1, f)
		}
	}
	gradientKernels()
	cellularRows()
	simplexRows()
	simplexRowsAVX2()
	pointKernels()
	Generate()
}

// isa is one instruction set's way to evaluate a block's samples.
type isa interface {
	name() string
	// halves is how many vectors a block of 8 samples takes.
	halves() int
	// noise returns Perlin N at half h of the block at blk, with the
	// columns' slopes and offsets at cs and co (AVX2: their pairs at cs).
	noise(blk, cs, co Register, h int) Register
	// value returns value noise N = e_l + (e_r − e_l)·w(u) at half h of
	// the block at blk, with the columns' values e at ve.
	value(blk, ve Register, h int) Register
	// acc returns a zeroed accumulator.
	acc() Register
	// store32 writes v's lanes as float32 to out, vector h, and returns
	// them in a register of float32 lanes.
	store32(v, out Register, h int) Register
	// float32s returns a new register as wide as store32's.
	float32s() Register
}

// lerp is the shared arithmetic: e = s_l·u + o_l, f = s_r·(u − 1) + o_r,
// N = e + (f − e)·w(u), each product rounded before its sum, in registers
// of the given width in bytes.
func lerp(blk Register, h, width int, ls, lo, rs, ro Register) Register {
	u, m, e, f := vec(width), vec(width), vec(width), vec(width)
	VMOVUPD(Mem{Base: blk, Disp: offU + h*width}, u)
	if width == 64 {
		VSUBPD_BCST(oneF, u, m)
	} else {
		VBROADCASTSD(oneF, m)
		VSUBPD(m, u, m)
	}
	VMULPD(u, ls, e)
	VADDPD(lo, e, e)
	VMULPD(m, rs, f)
	VADDPD(ro, f, f)
	VSUBPD(e, f, f)
	VMULPD(Mem{Base: blk, Disp: offWu + h*width}, f, f)
	VADDPD(f, e, e)
	return e
}

// lerpValue is value noise's arithmetic: N = e_l + (e_r − e_l)·w(u).
func lerpValue(blk Register, h, width int, le, re Register) Register {
	VSUBPD(le, re, re)
	VMULPD(Mem{Base: blk, Disp: offWu + h*width}, re, re)
	VADDPD(re, le, le)
	return le
}

// vec is a new vector register of width bytes.
func vec(width int) Register {
	if width == 64 {
		return ZMM()
	}
	return YMM()
}

// avx512 picks each lane's columns from the 16 at the block's base with
// two-table permutes: a block's samples read at most 16 columns, so each
// table's 16 are loaded once for the left and the right columns.
type avx512 struct{}

func (avx512) name() string { return "AVX512" }
func (avx512) halves() int  { return 1 }

func (avx512) noise(blk, cs, co Register, _ int) Register {
	base := GP64()
	MOVQ(Mem{Base: blk, Disp: offBase}, base)
	l, r := ZMM(), ZMM()
	VMOVDQU64(Mem{Base: blk, Disp: offRel}, l)
	VPADDQ_BCST(one, l, r)
	pick := func(table Register) (left, right Register) {
		lo, hi := ZMM(), ZMM()
		VMOVUPD(Mem{Base: table, Index: base, Scale: 8}, lo)
		VMOVUPD(Mem{Base: table, Index: base, Scale: 8, Disp: 64}, hi)
		left, right = ZMM(), ZMM()
		VMOVAPD(lo, left)
		VPERMT2PD(hi, l, left)
		VMOVAPD(lo, right)
		VPERMT2PD(hi, r, right)
		return left, right
	}
	ls, rs := pick(cs)
	lo, ro := pick(co)
	return lerp(blk, 0, 64, ls, lo, rs, ro)
}

func (avx512) value(blk, ve Register, _ int) Register {
	base := GP64()
	MOVQ(Mem{Base: blk, Disp: offBase}, base)
	l, r := ZMM(), ZMM()
	VMOVDQU64(Mem{Base: blk, Disp: offRel}, l)
	VPADDQ_BCST(one, l, r)
	lo, hi := ZMM(), ZMM()
	VMOVUPD(Mem{Base: ve, Index: base, Scale: 8}, lo)
	VMOVUPD(Mem{Base: ve, Index: base, Scale: 8, Disp: 64}, hi)
	le, re := ZMM(), ZMM()
	VMOVAPD(lo, le)
	VPERMT2PD(hi, l, le)
	VMOVAPD(lo, re)
	VPERMT2PD(hi, r, re)
	return lerpValue(blk, 0, 64, le, re)
}

func (avx512) acc() Register {
	z := ZMM()
	VPXORQ(z, z, z)
	return z
}

func (avx512) float32s() Register { return YMM() }

func (avx512) store32(v, out Register, h int) Register {
	y := YMM()
	VCVTPD2PS(v, y)
	VMOVUPS(y, Mem{Base: out, Disp: 32 * h})
	return y
}

// avx2 reads, per lane, its left and right columns' slope and offset in one
// load from the octave's interleaved table of (s, o) pairs (cs; co is
// unused), and transposes four such rows into the vectors of s_l, o_l,
// s_r and o_r: no gathers, which are slow, 4 lanes per half block.
type avx2 struct{}

func (avx2) name() string { return "AVX2" }
func (avx2) halves() int  { return 2 }

func (avx2) noise(blk, cs, _ Register, h int) Register {
	pairs := GP64() // the block's base column's pair
	MOVQ(Mem{Base: blk, Disp: offBase}, pairs)
	SHLQ(U8(4), pairs)
	ADDQ(cs, pairs)
	var rows [4]Register
	for c := range rows {
		at := GP64()
		MOVQ(Mem{Base: blk, Disp: offRel + 8*(4*h+c)}, at)
		SHLQ(U8(4), at)
		rows[c] = YMM()
		VMOVUPD(Mem{Base: pairs, Index: at, Scale: 1}, rows[c])
	}
	s01, o01, s23, o23 := YMM(), YMM(), YMM(), YMM()
	VUNPCKLPD(rows[1], rows[0], s01) // s_l0 s_l1 s_r0 s_r1
	VUNPCKHPD(rows[1], rows[0], o01) // o_l0 o_l1 o_r0 o_r1
	VUNPCKLPD(rows[3], rows[2], s23)
	VUNPCKHPD(rows[3], rows[2], o23)
	ls, lo, rs, ro := YMM(), YMM(), YMM(), YMM()
	VPERM2F128(U8(0x20), s23, s01, ls)
	VPERM2F128(U8(0x20), o23, o01, lo)
	VPERM2F128(U8(0x31), s23, s01, rs)
	VPERM2F128(U8(0x31), o23, o01, ro)
	return lerp(blk, h, 32, ls, lo, rs, ro)
}

// value loads each lane's left and right values, adjacent in ve, in one
// 16-byte load, and transposes them.
func (avx2) value(blk, ve Register, h int) Register {
	at := GP64() // the block's base column
	MOVQ(Mem{Base: blk, Disp: offBase}, at)
	LEAQ(Mem{Base: ve, Index: at, Scale: 8}, at)
	var pairs [4]Register
	for c := range pairs {
		i := GP64()
		MOVQ(Mem{Base: blk, Disp: offRel + 8*(4*h+c)}, i)
		pairs[c] = XMM()
		VMOVUPD(Mem{Base: at, Index: i, Scale: 8}, pairs[c])
	}
	p02, p13 := YMM(), YMM()
	VINSERTF128(U8(1), pairs[2], pairs[0].(VecVirtual).AsY(), p02) // e_l0 e_r0 e_l2 e_r2
	VINSERTF128(U8(1), pairs[3], pairs[1].(VecVirtual).AsY(), p13)
	le, re := YMM(), YMM()
	VUNPCKLPD(p13, p02, le) // e_l0 e_l1 e_l2 e_l3
	VUNPCKHPD(p13, p02, re)
	return lerpValue(blk, h, 32, le, re)
}

func (avx2) acc() Register {
	y := YMM()
	VXORPD(y, y, y)
	return y
}

func (avx2) float32s() Register { return XMM() }

func (avx2) store32(v, out Register, h int) Register {
	x := XMM()
	VCVTPD2PSY(v, x)
	VMOVUPS(x, Mem{Base: out, Disp: 16 * h})
	return x
}

// basisNoise is N of the basis ("perlin" or "value") at half h of the
// block at blk, from the octave's column tables t and t2 (see isa).
func basisNoise(s isa, basis string, blk, t, t2 Register, h int) Register {
	if basis == "value" {
		return s.value(blk, t, h)
	}
	return s.noise(blk, t, t2, h)
}

// row writes one octave's N of every block's samples to out.
func row(s isa, basis string) {
	name := basis + "Row" + s.name()
	TEXT(name, NOSPLIT, "func(out *float64, blocks *float64, cs, co *float64, n int)")
	Doc(name+" writes N at the 8 samples of each of the n blocks to out, from the",
		"columns' tables cs and co (see perlinValues and valueRow).")
	out, blk := Load(Param("out"), GP64()), Load(Param("blocks"), GP64())
	cs, co := Load(Param("cs"), GP64()), Load(Param("co"), GP64())
	n := Load(Param("n"), GP64())
	Label(name + "Block")
	TESTQ(n, n)
	JZ(LabelRef(name + "Done"))
	for h := range s.halves() {
		v := basisNoise(s, basis, blk, cs, co, h)
		VMOVUPD(v, Mem{Base: out, Disp: h * 64 / s.halves()})
	}
	ADDQ(U8(64), out)
	ADDQ(U32(blockSize), blk)
	DECQ(n)
	JMP(LabelRef(name + "Block"))
	Label(name + "Done")
	VZEROUPPER()
	RET()
}

// fold is how a fused row kernel folds each octave's N into its running
// sums, the per-sample step of terrain's fractal algorithms (thesis
// listings 6.1–6.3), each product rounded before its sum:
//
//	fbm:    H = 0, then H += amp·N
//	hetero: H = N₀ + offset, then H += (H·amp)·(N + offset)
//	hybrid: H = w = N₀ + offset, then w = min(w, 1) (NaN stays),
//	        w = w·(amp·(N + offset)), H += w
type fold string

const (
	foldFBm    fold = "fbm"
	foldHetero fold = "hetero"
	foldHybrid fold = "hybrid"
)

// fbmRow writes float32 of the octaves' sum, folded by f, at every block's
// samples: the sums stay in registers across the octaves. It does unroll
// blocks at a time, whose work is independent, to keep more loads and
// permutes in flight. It also keeps, per float32 lane, the lowest and
// highest value written and whether any was NaN, in the three vectors at
// rng (each lane's minimum is exact unless a NaN or a tie of −0 and +0 is
// involved: FBm.Row checks).
func fbmRow(s isa, basis string, unroll int, f fold) {
	name := fmt.Sprintf("%s%s%s%sx%d", f, strings.ToUpper(basis[:1]), basis[1:], s.name(), unroll)
	signature := "func(out *float32, octaves *float64, count, first, n int, rng *float32)"
	if f != foldFBm {
		signature = "func(out *float32, octaves *float64, count, first, n int, rng *float32, offset float64)"
	}
	TEXT(name, NOSPLIT, signature)
	switch f {
	case foldFBm:
		Doc(fmt.Sprintf("%s writes float32(Σ amp·N) over the count octaves to out, at the %d samples", name, 8*unroll),
			"of each of the n groups of blocks from block first, adding amp·N to a sum from 0",
			"in octave order (see FBm.Row), and folds them into the lanes' lowest, highest and",
			"NaN flags at rng.")
	default:
		Doc(fmt.Sprintf("%s writes float32 of the %s multifractal over the count ≥ 1 octaves to out,", name, f),
			fmt.Sprintf("at the %d samples of each of the n groups of blocks from block first, octave 0", 8*unroll),
			"starting the sum at N + offset (see FBm.Row), and folds them into the lanes'",
			"lowest, highest and NaN flags at rng.")
	}
	out, octaves := Load(Param("out"), GP64()), Load(Param("octaves"), GP64())
	count, n := Load(Param("count"), GP64()), Load(Param("n"), GP64())
	offset := Load(Param("first"), GP64()) // the current block's offset in every octave's blocks
	IMUL3Q(U32(blockSize), offset, offset)
	rng := Load(Param("rng"), GP64())
	lo, hi, nan := s.float32s(), s.float32s(), s.float32s()
	VMOVUPS(Mem{Base: rng}, lo)
	VMOVUPS(Mem{Base: rng, Disp: 32}, hi)
	VMOVUPS(Mem{Base: rng, Disp: 64}, nan)
	width := 64 / s.halves()
	var off, unit Register // the offset and 1 in every lane
	if f != foldFBm {
		off = broadcast(Load(Param("offset"), XMM()), width)
	}
	if f == foldHybrid {
		unit = vec(width)
		VBROADCASTSD(oneF, unit)
	}
	Label(name + "Block")
	TESTQ(n, n)
	JZ(LabelRef(name + "Done"))
	sums := make([]Register, unroll*s.halves())
	var ws []Register // hybrid's weights w
	oct, i := GP64(), GP64()
	MOVQ(octaves, oct)
	MOVQ(count, i)
	// each calls body with every half of every block's N at octave oct.
	each := func(body func(k int, v Register)) {
		blk, cs, co := GP64(), GP64(), GP64()
		MOVQ(Mem{Base: oct, Disp: offBlocks}, blk)
		ADDQ(offset, blk)
		MOVQ(Mem{Base: oct, Disp: offCs}, cs)
		MOVQ(Mem{Base: oct, Disp: offCo}, co)
		for u := range unroll {
			b := blk
			if u > 0 {
				b = GP64()
				LEAQ(Mem{Base: blk, Disp: u * blockSize}, b)
			}
			for h := range s.halves() {
				body(u*s.halves()+h, basisNoise(s, basis, b, cs, co, h))
			}
		}
	}
	// mulAmp writes x·amp to dst, the octave's amplitude broadcast from
	// memory where AVX-512 can.
	mulAmp := func(x, dst Register) {
		if s.halves() == 1 {
			VMULPD_BCST(Mem{Base: oct, Disp: offAmp}, x, dst)
			return
		}
		amp := YMM()
		VBROADCASTSD(Mem{Base: oct, Disp: offAmp}, amp)
		VMULPD(amp, x, dst)
	}
	if f == foldFBm {
		for h := range sums {
			sums[h] = s.acc()
		}
	} else { // octave 0 starts the sums, without its amplitude
		ws = make([]Register, len(sums))
		each(func(k int, v Register) {
			sums[k] = vec(width)
			VADDPD(off, v, sums[k])
			if f == foldHybrid {
				ws[k] = vec(width)
				VMOVAPD(sums[k], ws[k])
			}
		})
		ADDQ(U8(octaveSize), oct)
		DECQ(i)
		JZ(LabelRef(name + "Store"))
	}
	Label(name + "Octave")
	each(func(k int, v Register) {
		sum := sums[k]
		switch f {
		case foldFBm:
			mulAmp(v, v)
			VADDPD(v, sum, sum)
		case foldHetero:
			p := vec(width)
			VADDPD(off, v, v)
			mulAmp(sum, p)
			VMULPD(v, p, p)
			VADDPD(p, sum, sum)
		case foldHybrid:
			w := ws[k]
			VADDPD(off, v, v)
			mulAmp(v, v)
			VMINPD(w, unit, w) // 1 < w ? 1 : w, so NaN stays
			VMULPD(v, w, w)
			VADDPD(w, sum, sum)
		}
	})
	ADDQ(U8(octaveSize), oct)
	DECQ(i)
	JNZ(LabelRef(name + "Octave"))
	Label(name + "Store")
	for k, sum := range sums {
		v := s.store32(sum, out, k)
		VMINPS(v, lo, lo)
		VMAXPS(v, hi, hi)
		VCMPPS(U8(3), v, v, v) // unordered: NaN
		VORPS(v, nan, nan)
	}
	ADDQ(U8(32*unroll), out)
	ADDQ(U32(blockSize*unroll), offset)
	DECQ(n)
	JMP(LabelRef(name + "Block"))
	Label(name + "Done")
	VMOVUPS(lo, Mem{Base: rng})
	VMOVUPS(hi, Mem{Base: rng, Disp: 32})
	VMOVUPS(nan, Mem{Base: rng, Disp: 64})
	VZEROUPPER()
	RET()
}
