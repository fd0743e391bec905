package main

// The rescale kernel: a generated map's float32 heights mapped from their
// range onto [0, 1] (terrain's rescale), v = float32((float64(v) − lo) / span)
// lane by lane. The conversions are exact one way and rounded to nearest
// the other, and the division is IEEE's, as Go's scalar code does, so the
// result is bit for bit the Go loop's.
//
// Division is slow, so the AVX-512 kernel first multiplies by r = 1/span
// (rounded), which may differ from the rounded quotient q by a few units
// in its last place (ulps): x·r = (x/span)(1+ε₁)(1+ε₂), |ε| ≤ 2⁻⁵³, so
// within 3 ulps. Rounding to a normal float32 keeps the top 24 of q's 53
// mantissa bits, and changes its result only across a float32 midpoint,
// where the dropped 29 bits are exactly 2²⁸ (also the threshold between
// the largest float32 and infinity). So where |x·r| ≥ 2⁻¹²⁵ (below, float32
// results are subnormal and rounded at coarser bits; zero lands here too)
// and its dropped bits are more than 16 from 2²⁸, x·r and q round to the
// same float32; the steps with a lane that is not so are divided.
// Infinities and NaN come out of the product as out of the quotient.

import (
	"strconv"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// rescaleUnroll is the vectors in flight per step: divisions are slow
// and independent, so several overlap.
const rescaleUnroll = 4

// rescaleRows writes the rescale kernel of both instruction sets.
func rescaleRows() {
	rescale("AVX512", 64)
	rescale("AVX2", 32)
}

// The constants of the AVX-512 kernel's check (see above), as int64 bit
// patterns of float64s: the sign bit cleared, the magnitude 2⁻¹²⁵ from
// which float32 results are normal, the 29 mantissa bits float32 drops,
// and the band of them around the midpoint 2²⁸ that is divided.
var absMask, normalLow, dropped, bandLow, bandWidth Mem

func rescaleConstants() {
	for _, c := range []struct {
		m *Mem
		v uint64
	}{
		{&absMask, 1<<63 - 1}, {&normalLow, (1023 - 125) << 52},
		{&dropped, 1<<29 - 1}, {&bandLow, 1<<28 - 16}, {&bandWidth, 33},
	} {
		*c.m = GLOBL("rescale"+strconv.FormatUint(c.v, 16), RODATA|NOPTR)
		DATA(0, U64(c.v))
	}
}

// rescale writes the kernel for vectors of width bytes of float64: each
// step reads rescaleUnroll·width/8 float32.
func rescale(isa string, width int) {
	name := "rescale32" + isa
	lanes := width / 8
	TEXT(name, NOSPLIT, "func(v *float32, n int, lo, span, r float64)")
	Doc(name+" replaces v[k] by float32((float64(v[k]) − lo) / span) for the",
		"n steps of "+strconv.Itoa(rescaleUnroll*lanes)+" float32 from v, r = 1/span (see Normalize32).")
	v, n := Load(Param("v"), GP64()), Load(Param("n"), GP64())
	lo, span := vec(width), vec(width)
	VBROADCASTSD(Load(Param("lo"), XMM()), lo)
	VBROADCASTSD(Load(Param("span"), XMM()), span)
	var r Register
	if width == 64 {
		r = vec(width)
		VBROADCASTSD(Load(Param("r"), XMM()), r)
	}
	Label(name + "Step")
	TESTQ(n, n)
	JZ(LabelRef(name + "Done"))
	var xs, hs [rescaleUnroll]Register
	for u := range hs {
		xs[u], hs[u] = vec(width), vec(width)
		VCVTPS2PD(Mem{Base: v, Disp: u * lanes * 4}, xs[u])
		VSUBPD(lo, xs[u], xs[u])
		if width == 32 {
			VDIVPD(span, xs[u], hs[u])
		}
	}
	if width == 64 {
		unsafe := K()
		KXORW(unsafe, unsafe, unsafe)
		for u, h := range hs {
			VMULPD(r, xs[u], h)
			a, k := ZMM(), K()
			VPANDQ_BCST(absMask, h, a)
			VPCMPQ_BCST(U8(1), normalLow, a, k) // below 2⁻¹²⁵, or zero
			KORW(k, unsafe, unsafe)
			VPANDQ_BCST(dropped, h, a)
			VPSUBQ_BCST(bandLow, a, a)
			VPCMPUQ_BCST(U8(1), bandWidth, a, k) // near a float32 midpoint
			KORW(k, unsafe, unsafe)
		}
		KORTESTW(unsafe, unsafe)
		JZ(LabelRef(name + "Store"))
		for u, h := range hs {
			VDIVPD(span, xs[u], h)
		}
		Label(name + "Store")
	}
	for u, h := range hs {
		if width == 64 {
			y := YMM()
			VCVTPD2PS(h, y)
			VMOVUPS(y, Mem{Base: v, Disp: u * lanes * 4})
		} else {
			x := XMM()
			VCVTPD2PSY(h, x)
			VMOVUPS(x, Mem{Base: v, Disp: u * lanes * 4})
		}
	}
	ADDQ(U32(rescaleUnroll*lanes*4), v)
	DECQ(n)
	JMP(LabelRef(name + "Step"))
	Label(name + "Done")
	VZEROUPPER()
	RET()
}
