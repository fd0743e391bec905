package main

// The scattered-point kernels (AVX-512 with its DQ extension, for 64-bit
// multiplies and conversions): value and Perlin noise with their analytic
// gradients at points (xs[k], ys[k]) that share no lattice row, such as
// Swiss turbulence's displaced octaves and a distorted octave's samples.
// Every lane does what noise/value.go's and noise/perlin.go's Eval do for
// one point, in the same order: floorFrac, the lattice rows' keys and
// hashCell's Mix64 (integer arithmetic, exact), the four corners' values
// or gradients, the column terms and the final lerps, each product rounded
// before its sum. So the kernels give Eval's bits.

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// pointConsts holds the float64 constants of fade and fadeD.
var pointConsts Mem

// Offsets in pointConsts.
const (
	ptSix, ptFifteen, ptTen, ptThirty = 0, 8, 16, 24
)

// pointKernels writes the value and Perlin kernels at scattered points.
// It needs simplexConsts (primes) and the hashing constants mix64A and
// mix64B, unit52: call it after simplexRows and hashRows.
func pointKernels() {
	pointConsts = GLOBL("pointconsts", RODATA|NOPTR)
	DATA(ptSix, F64(6))
	DATA(ptFifteen, F64(15))
	DATA(ptTen, F64(10))
	DATA(ptThirty, F64(30))
	pointEval("perlin", true)
	pointEval("perlin", false)
	pointEval("value", true)
	swissStepKernel()
}

// pointEval writes one basis's kernel: Eval at the 8 points of each block,
// or with grad false (Perlin noise only) Value, for ValuePoints.
func pointEval(basis string, grad bool) {
	name := basis + "PointsAVX512"
	if !grad {
		TEXT("perlinPointValuesAVX512", NOSPLIT, "func(v, xs, ys *float64, key uint64, tx, ty *float64, n int)")
		Doc("perlinPointValuesAVX512 writes Perlin noise N at the points (xs[k], ys[k]) of each",
			"of the n blocks of 8 to v, for the basis key, with the directions' x and y in the",
			"tables tx and ty (see perlinNoise.Value): perlinPointsAVX512 without the gradient.")
		name = "perlinPointValuesAVX512"
	} else if basis == "perlin" {
		TEXT(name, NOSPLIT, "func(v, dx, dy, xs, ys *float64, key uint64, tx, ty *float64, n int)")
		Doc(name+" writes Perlin noise N and its gradient (∂N/∂x, ∂N/∂y) at the points",
			"(xs[k], ys[k]) of each of the n blocks of 8 to v, dx and dy, for the basis key,",
			"with the directions' x and y in the tables tx and ty (see perlinNoise.Eval).")
	} else {
		TEXT(name, NOSPLIT, "func(v, dx, dy, xs, ys *float64, key uint64, n int)")
		Doc(name+" writes value noise N and its gradient (∂N/∂x, ∂N/∂y) at the points",
			"(xs[k], ys[k]) of each of the n blocks of 8 to v, dx and dy, for the basis key",
			"(see valueNoise.Eval).")
	}
	vOut := Load(Param("v"), GP64())
	var dxOut, dyOut Register
	if grad {
		dxOut, dyOut = Load(Param("dx"), GP64()), Load(Param("dy"), GP64())
	}
	xs, ys := Load(Param("xs"), GP64()), Load(Param("ys"), GP64())
	var tx, ty Register
	if basis == "perlin" {
		tx, ty = Load(Param("tx"), GP64()), Load(Param("ty"), GP64())
	}
	n := Load(Param("n"), GP64())
	c := func(off int) Mem { return pointConsts.Offset(off) }
	sx := func(off int) Mem { return simplexConsts.Offset(off) }
	key, onesQ := ZMM(), ZMM()
	VPBROADCASTQ(Load(Param("key"), GP64()), key)
	VPBROADCASTQ(sx(sxOne), onesQ)

	// next ends the block: the loop back and, after the last block, the return.
	next := func() {
		DECQ(n)
		JMP(LabelRef(name + "Block"))
		Label(name + "Done")
		VZEROUPPER()
		RET()
	}
	Label(name + "Block")
	TESTQ(n, n)
	JZ(LabelRef(name + "Done"))

	// floorFrac: the index ⌊x⌋ as int(x), less one where x < float64(int(x)),
	// and the offset x − float64(⌊x⌋).
	floorFrac := func(p Mem) (Register, Register) {
		x, q, f, k := ZMM(), ZMM(), ZMM(), K()
		VMOVUPD(p, x)
		VCVTTPD2QQ(x, q)
		VCVTQQ2PD(q, f)
		VCMPPD(U8(1), f, x, k) // LT_OS: x < float64(q)
		VPSUBQ(onesQ, q, k, q)
		VCVTQQ2PD(q, f)
		VSUBPD(f, x, x)
		return q, x
	}
	// fade: t·t·t·(t·(t·6 − 15) + 10).
	fade := func(t Register) Register {
		t3, a := ZMM(), ZMM()
		VMULPD(t, t, t3)
		VMULPD(t, t3, t3)
		VMULPD_BCST(c(ptSix), t, a)
		VSUBPD_BCST(c(ptFifteen), a, a)
		VMULPD(t, a, a)
		VADDPD_BCST(c(ptTen), a, a)
		VMULPD(a, t3, t3)
		return t3
	}
	// fadeD: s = t·(t − 1), 30·s·s.
	fadeD := func(t Register) Register {
		s, d := ZMM(), ZMM()
		VSUBPD_BCST(oneF, t, s)
		VMULPD(s, t, s)
		VMULPD_BCST(c(ptThirty), s, d)
		VMULPD(s, d, d)
		return d
	}
	// hash is hashCell: Mix64(row ^ i·primeX), with i·primeX in col.
	hash := func(row, col Register) Register { return mix64(col, row) }

	i, u := floorFrac(Mem{Base: xs})
	j, t := floorFrac(Mem{Base: ys})
	// rowKey for rows j and j+1, and the columns' products.
	r0, r1, ip, ip1 := latticeKeys(i, j, key, sx(sxPrimeX), sx(sxPrimeY))
	wv := fade(t)

	if basis == "value" {
		// latticeValue: the hash's top 53 bits, signed, times 2⁻⁵².
		lattice := func(row, col Register) Register {
			h := hash(row, col)
			VPSRAQ(U8(11), h, h)
			VCVTQQ2PD(h, h)
			VMULPD_BCST(unit52, h, h)
			return h
		}
		// column: ca = c − a, e = a + ca·w(v).
		column := func(col Register) (e, ca Register) {
			a, cc := lattice(r0, col), lattice(r1, col)
			VSUBPD(a, cc, cc)
			e = ZMM()
			VMULPD(wv, cc, e)
			VADDPD(e, a, e)
			return e, cc
		}
		le, lca := column(ip)
		re, rca := column(ip1)
		wu := fade(u)
		VSUBPD(le, re, re) // e_r − e_l
		nv := ZMM()
		VMULPD(wu, re, nv)
		VADDPD(nv, le, nv)
		VMOVUPD(nv, Mem{Base: vOut})
		du := fadeD(u)
		VMULPD(du, re, re)
		VMOVUPD(re, Mem{Base: dxOut})
		VSUBPD(lca, rca, rca)
		VMULPD(wu, rca, rca)
		VADDPD(rca, lca, lca)
		dv := fadeD(t)
		VMULPD(dv, lca, lca)
		VMOVUPD(lca, Mem{Base: dyOut})
	} else {
		// gradient: the hash's top 8 bits pick one of the 256 (x, y). Gathers
		// are slow, so, as in hashRow, each lane permutes its direction out of
		// the first quarter's 64 (read from the tables tx and ty, 16 a
		// VPERMT2PD) and turns it into the other quarters exactly:
		// g_{64+r} = (−y_r, x_r), g_{128+r} = −g_r, g_{192+r} = (y_r, −x_r).
		gradient := func(row, col Register) (gx, gy Register) {
			h := hash(row, col)
			VPSRLQ(U8(56), h, h)
			var mask [8]Register
			for b := 4; b < 8; b++ {
				mask[b] = K()
				VPTESTMQ_BCST(bits[b], h, mask[b])
			}
			var xy [2]Register
			for t, table := range []Register{tx, ty} {
				var part [4]Register // directions 16p to 16p+15 picked by bits 0–3
				for p := range part {
					part[p] = ZMM()
					VMOVUPD(Mem{Base: table, Disp: 128 * p}, part[p])
					VPERMT2PD(Mem{Base: table, Disp: 128*p + 64}, h, part[p])
				}
				VBLENDMPD(part[1], part[0], mask[4], part[0])
				VBLENDMPD(part[3], part[2], mask[4], part[2])
				VBLENDMPD(part[2], part[0], mask[5], part[0])
				xy[t] = part[0]
			}
			gx, gy = ZMM(), ZMM()
			VBLENDMPD(xy[1], xy[0], mask[6], gx) // bit 6: y_r where set
			VBLENDMPD(xy[0], xy[1], mask[6], gy)
			negX := K()
			KXORW(mask[6], mask[7], negX)
			VPXORQ_BCST(signBit, gx, negX, gx)
			VPXORQ_BCST(signBit, gy, mask[7], gy)
			return gx, gy
		}
		tm := ZMM() // v − 1
		VSUBPD_BCST(oneF, t, tm)
		// columnSlope: y0 = g0y·v, y1 = g1y·(v − 1); s = g0x + (g1x − g0x)·w(v),
		// o = y0 + (y1 − y0)·w(v); sx = g1x − g0x, sy = y1 − y0,
		// sv = g0y + (g1y − g0y)·w(v).
		column := func(col Register) (s, o, csx, csy, sv Register) {
			g0x, g0y := gradient(r0, col)
			g1x, g1y := gradient(r1, col)
			y0, y1 := ZMM(), ZMM()
			VMULPD(t, g0y, y0)
			VMULPD(tm, g1y, y1)
			VSUBPD(g0x, g1x, g1x) // sx
			s = ZMM()
			VMULPD(wv, g1x, s)
			VADDPD(s, g0x, s)
			VSUBPD(y0, y1, y1) // sy
			o = ZMM()
			VMULPD(wv, y1, o)
			VADDPD(o, y0, o)
			if grad {
				VSUBPD(g0y, g1y, g1y)
				VMULPD(wv, g1y, g1y)
				VADDPD(g1y, g0y, g0y) // sv
			}
			return s, o, g1x, y1, g0y
		}
		// Each column's terms reduce at once to what the cell needs: the
		// slope s, e = s·u + o (f = s·(u − 1) + o on the right) and
		// ∂e/∂v = sv + (sx·u + sy)·w'(v) (∂f/∂v at u − 1).
		um := ZMM() // u − 1
		VSUBPD_BCST(oneF, u, um)
		var dv Register
		if grad {
			dv = fadeD(t)
		}
		edge := func(col, at Register) (s, e, dedv Register) {
			s, o, csx, csy, sv := column(col)
			e = ZMM()
			VMULPD(at, s, e)
			VADDPD(o, e, e)
			if !grad {
				return s, e, nil
			}
			VMULPD(at, csx, csx)
			VADDPD(csy, csx, csx)
			VMULPD(dv, csx, csx)
			VADDPD(csx, sv, sv)
			return s, e, sv
		}
		ls, e, dedv := edge(ip, u)
		rs, f, dfdv := edge(ip1, um)
		wu := fade(u)
		VSUBPD(e, f, f) // f − e
		nv := ZMM()
		VMULPD(wu, f, nv)
		VADDPD(nv, e, nv)
		VMOVUPD(nv, Mem{Base: vOut})
		if !grad {
			ADDQ(U8(64), vOut)
			ADDQ(U8(64), xs)
			ADDQ(U8(64), ys)
			next()
			return
		}
		du := fadeD(u)
		VSUBPD(ls, rs, rs) // s_r − s_l
		VMULPD(wu, rs, rs)
		VADDPD(rs, ls, ls)
		VMULPD(du, f, f)
		VADDPD(f, ls, ls)
		VMOVUPD(ls, Mem{Base: dxOut})
		VSUBPD(dedv, dfdv, dfdv)
		VMULPD(wu, dfdv, dfdv)
		VADDPD(dfdv, dedv, dedv)
		VMOVUPD(dedv, Mem{Base: dyOut})
	}

	for _, p := range []Register{vOut, dxOut, dyOut, xs, ys} {
		ADDQ(U8(64), p)
	}
	next()
}

// Offsets in pointConsts of the Swiss step's constants.
const (
	ptWarp, ptAbs, ptSign, ptOne = 32, 40, 48, 56
)

// swissWarp is terrain's de Carpentier warp factor (terrain/fractal.go).
const swissWarp = 0.15

// swissStepKernel writes the Swiss turbulence fold (terrain's swissStep)
// over 8 samples a vector, followed by the next octave's displaced points:
//
//	sum += amp·(1 − |n|), dsx += amp·dx·(−n), dsy += amp·dy·(−n),
//	amp *= gain·min(max(sum, 0), 1),
//	px = (x + 0.15·dsx)·freq, py = (y + 0.15·dsy)·freq,
//
// each product rounded before its sum. Go's max and min order −0 below +0
// and return NaN for a NaN argument; MAXPD and MINPD return their second
// operand for two zeros (here +0 and 1, Go's answers) and for a NaN, so
// lanes where sum is NaN take sum instead.
func swissStepKernel() {
	DATA(ptWarp, F64(swissWarp))
	DATA(ptAbs, U64(1<<63-1))
	DATA(ptSign, U64(1<<63))
	DATA(ptOne, F64(1))
	name := "swissStepAVX512"
	TEXT(name, NOSPLIT, "func(sum, amp, dsx, dsy, n, dx, dy, xs, ys, px, py *float64, gain, freq float64, count int)")
	Doc(name+" folds one octave of Swiss turbulence into the count/8 blocks of 8 samples'",
		"running sum, amp, dsx and dsy, from the octave's noise n and gradient (dx, dy),",
		"and writes the next octave's points px, py at frequency freq (see noise.SwissStep).")
	names := []string{"sum", "amp", "dsx", "dsy", "n", "dx", "dy", "xs", "ys", "px", "py"}
	ptrs := map[string]Register{}
	for _, p := range names {
		ptrs[p] = Load(Param(p), GP64())
	}
	count := Load(Param("count"), GP64())
	gain, freq := ZMM(), ZMM()
	VBROADCASTSD(Load(Param("gain"), XMM()), gain)
	VBROADCASTSD(Load(Param("freq"), XMM()), freq)
	c := func(off int) Mem { return pointConsts.Offset(off) }
	zero := ZMM()
	VPXORQ(zero, zero, zero)
	Label(name + "Block")
	CMPQ(count, U8(8))
	JL(LabelRef(name + "Done"))
	at := func(p string) Mem { return Mem{Base: ptrs[p]} }
	sum, amp, n, t := ZMM(), ZMM(), ZMM(), ZMM()
	VMOVUPD(at("sum"), sum)
	VMOVUPD(at("amp"), amp)
	VMOVUPD(at("n"), n)
	VPANDQ_BCST(c(ptAbs), n, t) // |n|
	one := ZMM()
	VBROADCASTSD(c(ptOne), one)
	VSUBPD(t, one, t)
	VMULPD(t, amp, t)
	VADDPD(t, sum, sum)
	VMOVUPD(sum, at("sum"))
	VPXORQ_BCST(c(ptSign), n, n) // −n
	for _, d := range [][4]string{{"dx", "dsx", "xs", "px"}, {"dy", "dsy", "ys", "py"}} {
		g, ds, p := ZMM(), ZMM(), ZMM()
		VMULPD(at(d[0]), amp, g)
		VMULPD(n, g, g)
		VMOVUPD(at(d[1]), ds)
		VADDPD(g, ds, ds)
		VMOVUPD(ds, at(d[1]))
		VMULPD_BCST(c(ptWarp), ds, p)
		VADDPD(at(d[2]), p, p)
		VMULPD(freq, p, p)
		VMOVUPD(p, at(d[3]))
	}
	m, nan := ZMM(), K()
	VMAXPD(zero, sum, m)
	VMINPD(one, m, m)
	VCMPPD(U8(3), sum, sum, nan) // UNORD_Q: sum is NaN
	VBLENDMPD(sum, m, nan, m)
	VMULPD(m, gain, m)
	VMULPD(m, amp, amp)
	VMOVUPD(amp, at("amp"))
	for _, p := range names {
		ADDQ(U8(64), ptrs[p])
	}
	SUBQ(U8(8), count)
	JMP(LabelRef(name + "Block"))
	Label(name + "Done")
	VZEROUPPER()
	RET()
}
