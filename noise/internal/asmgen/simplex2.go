package main

// The AVX2 simplex kernel: simplexKernel's lanes over 4 float64 at a time,
// for CPUs without AVX-512 (or with it, forced). AVX2 has neither 64-bit
// multiplies nor conversions between float64 and int64, so:
//
//   - the cell is floor(x + s) by rounding down (VROUNDPD), which is
//     floorFrac's index exactly, and its int64 comes from a conversion to
//     int32 and a sign extension. That is exact only for |x + s| < 2³¹, so
//     the Go side runs the kernel only on coordinates of magnitude at most
//     2²⁹ (simplexAVX2Reach), where |x + s| < 1.74·2²⁹;
//   - every uint64 product a·c with a constant c is built from 32-bit
//     products, a_lo·c_lo + ((a_hi·c_lo + a_lo·c_hi) << 32) mod 2⁶⁴, which
//     is the 64-bit product's low half exactly.
//
// The float64 arithmetic is simplexKernel's, operation for operation, so
// the lanes are bit for bit simplexNoise.Value's.

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// simplexHigh holds the high 32 bits of the hash's multipliers, for the
// cross products of the emulated 64-bit multiply (the low 32 bits are read
// from simplexConsts: VPMULUDQ uses only each lane's low half).
var simplexHigh Mem

const sxHiPrimeX, sxHiPrimeY, sxHiMix1, sxHiMix2 = 0, 8, 16, 24

// simplexRowsAVX2 writes the AVX2 kernels, after simplexRows.
func simplexRowsAVX2() {
	simplexHigh = GLOBL("simplexhigh", RODATA|NOPTR)
	for k, c := range []uint64{primeX, primeY, mix1, mix2} {
		DATA(8*k, U64(c>>32))
	}
	simplexKernelAVX2(false)
	simplexKernelAVX2(true)
}

// mul64 returns a·c mod 2⁶⁴ in every lane, c the constant whose whole
// value is at lo and high half at hi.
func mul64(a Register, lo, hi Mem) Register {
	clo, chi, p0, ah, p1, p2 := YMM(), YMM(), YMM(), YMM(), YMM(), YMM()
	VPBROADCASTQ(lo, clo)
	VPBROADCASTQ(hi, chi)
	VPMULUDQ(clo, a, p0) // a_lo·c_lo
	VPSRLQ(U8(32), a, ah)
	VPMULUDQ(clo, ah, p1) // a_hi·c_lo
	VPMULUDQ(chi, a, p2)  // a_lo·c_hi
	VPADDQ(p2, p1, p1)
	VPSLLQ(U8(32), p1, p1)
	VPADDQ(p1, p0, p0)
	return p0
}

// floorInt returns floor(v) as float64 and as int64 (|v| < 2³¹).
func floorInt(v Register) (f, q Register) {
	f, q = YMM(), YMM()
	d := XMM()
	VROUNDPD(U8(1), v, f) // toward −∞
	VCVTTPD2DQY(f, d)
	VPMOVSXDQ(d, q)
	return f, q
}

func simplexKernelAVX2(points bool) {
	name := "simplexRowAVX2"
	sig := "func(out *float64, xs *float64, y float64, key uint64, grads *float64, n int)"
	if points {
		name = "simplexPointsAVX2"
		sig = "func(out *float64, xs *float64, ys *float64, key uint64, grads *float64, n int)"
	}
	TEXT(name, NOSPLIT, sig)
	if points {
		Doc(name+" writes simplex noise N(xs[k], ys[k]) at the 8 samples of each of the n",
			"blocks of xs and ys to out, like simplexPointsAVX512; every coordinate must lie",
			"within ±2²⁹ (see simplexAVX2Reach).")
	} else {
		Doc(name+" writes simplex noise N(xs[k], y) at the 8 samples of each of the n blocks",
			"of xs to out, like simplexRowAVX512; y and every x must lie within ±2²⁹ (see",
			"simplexAVX2Reach).")
	}
	out, xs := Load(Param("out"), GP64()), Load(Param("xs"), GP64())
	grads, n := Load(Param("grads"), GP64()), Load(Param("n"), GP64())
	SHLQ(U8(1), n) // two vectors of 4 per block of 8
	c := func(off int) Mem { return simplexConsts.Offset(off) }
	hi := func(off int) Mem { return simplexHigh.Offset(off) }
	y, key := YMM(), YMM()
	var ys Register
	if points {
		ys = Load(Param("ys"), GP64())
	} else {
		VBROADCASTSD(Load(Param("y"), XMM()), y)
	}
	kx := XMM()
	MOVQ(Load(Param("key"), GP64()), kx)
	VPBROADCASTQ(kx, key)
	Label(name + "Block")
	TESTQ(n, n)
	JZ(LabelRef(name + "Done"))
	x := YMM()
	VMOVUPD(Mem{Base: xs}, x)
	if points {
		VMOVUPD(Mem{Base: ys}, y)
	}
	bc := func(off int) Register {
		r := YMM()
		VBROADCASTSD(c(off), r)
		return r
	}
	s := YMM()
	VADDPD(y, x, s)
	VMULPD(bc(sxSkew), s, s)
	xsk, ysk := YMM(), YMM()
	VADDPD(s, x, xsk)
	VADDPD(s, y, ysk)
	fi, i := floorInt(xsk)
	fj, j := floorInt(ysk)
	t := YMM()
	VADDPD(fj, fi, t) // float64(i + j), exactly: both are integers below 2³¹
	VMULPD(bc(sxUnskew), t, t)
	x0, y0 := YMM(), YMM()
	VSUBPD(t, fi, fi)
	VSUBPD(fi, x, x0)
	VSUBPD(t, fj, fj)
	VSUBPD(fj, y, y0)
	lower := YMM()
	VCMPPD(U8(0x0E), y0, x0, lower) // GT_OS: x0 > y0
	oneF := bc(sxOneF)
	i1, j1 := YMM(), YMM()
	VANDPD(oneF, lower, i1)  // 1 in the lower triangle, else 0
	VANDNPD(oneF, lower, j1) // the other way round
	x1, y1, x2, y2 := YMM(), YMM(), YMM(), YMM()
	VSUBPD(i1, x0, x1)
	VADDPD(bc(sxUnskew), x1, x1)
	VSUBPD(j1, y0, y1)
	VADDPD(bc(sxUnskew), y1, y1)
	far := bc(sxFar)
	VADDPD(far, x0, x2)
	VADDPD(far, y0, y2)
	// rowKey and hashCell's products, as latticeKeys makes them.
	r0, r1, ip, ip1 := mul64(j, c(sxPrimeY), hi(sxHiPrimeY)), YMM(), mul64(i, c(sxPrimeX), hi(sxHiPrimeX)), YMM()
	py, px := YMM(), YMM()
	VPBROADCASTQ(c(sxPrimeY), py)
	VPADDQ(py, r0, r1)
	VPXOR(key, r0, r0)
	VPXOR(key, r1, r1)
	VPBROADCASTQ(c(sxPrimeX), px)
	VPADDQ(px, ip, ip1)
	row1, col1 := YMM(), YMM()
	VBLENDVPD(lower, r0, r1, row1) // the lower triangle's corner 1 is (i+1, j)
	VBLENDVPD(lower, ip1, ip, col1)
	sum := YMM()
	corner := func(row, col, dx, dy Register, first bool) {
		var h Register = YMM()
		sh := YMM()
		VPXOR(col, row, h)
		for _, m := range []int{sxMix1, sxMix2, -1} { // Mix64
			VPSRLQ(U8(33), h, sh)
			VPXOR(sh, h, h)
			if m >= 0 {
				h = mul64(h, c(m), hi(map[int]int{sxMix1: sxHiMix1, sxMix2: sxHiMix2}[m]))
			}
		}
		VPSRLQ(U8(56), h, h)
		VPSLLQ(U8(1), h, h) // a gradient is two float64
		gx, gy := YMM(), YMM()
		for k, g := range []Register{gx, gy} {
			m := YMM()
			VPCMPEQQ(m, m, m)
			VXORPD(g, g, g)
			VGATHERQPD(m, Mem{Base: grads, Index: h, Scale: 8, Disp: 8 * k}, g)
		}
		tt, a, b := YMM(), YMM(), YMM()
		VMULPD(dx, dx, a)
		VMULPD(dy, dy, b)
		VBROADCASTSD(c(sxHalf), tt)
		VSUBPD(a, tt, tt)
		VSUBPD(b, tt, tt) // t = ½ − x² − y²
		VMULPD(dx, gx, a)
		VMULPD(dy, gy, b)
		VADDPD(b, a, a) // g·d
		VMULPD(tt, tt, b)
		VMULPD(b, b, b) // t⁴
		live, zero := YMM(), YMM()
		VXORPD(zero, zero, zero)
		VCMPPD(U8(6), zero, tt, live) // NLE_US: not t ≤ 0
		VMULPD(a, b, b)
		if first {
			VANDPD(live, b, sum)
			return
		}
		VANDPD(live, b, b)
		VADDPD(b, sum, sum)
	}
	corner(r0, ip, x0, y0, true)
	corner(row1, col1, x1, y1, false)
	corner(r1, ip1, x2, y2, false)
	VMULPD(bc(sxScale), sum, sum)
	VMOVUPD(sum, Mem{Base: out})
	ADDQ(U8(32), out)
	ADDQ(U8(32), xs)
	if points {
		ADDQ(U8(32), ys)
	}
	DECQ(n)
	JMP(LabelRef(name + "Block"))
	Label(name + "Done")
	VZEROUPPER()
	RET()
}
