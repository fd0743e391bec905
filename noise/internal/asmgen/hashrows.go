package main

// The lattice hashing kernels (AVX-512 with its DQ extension, for 64-bit
// multiplies and conversions): one lattice row's Perlin gradients or value
// noise values at a Grid's prepared columns, noise/hash.go's
// Mix64(rowKey ^ i·primeX) in 8 lanes, with i·primeX made once per Grid.
// Integer arithmetic and an exact conversion: the bits are the Go loop's.
// Where the lattice is finer than the samples, as in a fractal's finest
// octaves, every row hashes new lattice rows, and this is most of the cost.

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// mix64A and mix64B are fmix64's multipliers; unit52 is the float64 2⁻⁵²
// that scales a lattice value's top 53 bits to [-1, 1); bits[b] is 1<<b,
// to test a direction's bit b, and signBit flips a float64's sign.
var mix64A, mix64B, unit52, signBit Mem
var bits [8]Mem

// hashRows writes the Perlin and value noise hashing kernels.
func hashRows() {
	mix64A = GLOBL("mix64a", RODATA|NOPTR)
	DATA(0, U64(0xFF51AFD7ED558CCD))
	mix64B = GLOBL("mix64b", RODATA|NOPTR)
	DATA(0, U64(0xC4CEB9FE1A85EC53))
	unit52 = GLOBL("unit52", RODATA|NOPTR)
	DATA(0, F64(0x1p-52))
	signBit = GLOBL("signbit", RODATA|NOPTR)
	DATA(0, U64(1<<63))
	for b := 4; b < 8; b++ {
		bits[b] = GLOBL("bit"+string(rune('0'+b)), RODATA|NOPTR)
		DATA(0, U64(1<<b))
	}
	hashRow("perlin")
	hashRow("value")
}

// mix64 returns Mix64(key ^ hx) in a vector: hashCell of the 8 lanes,
// hx holding the columns' products i·primeX (in memory or a register).
func mix64(hx Op, key Register) Register {
	h, t := ZMM(), ZMM()
	VPXORQ(hx, key, h)
	for _, c := range []Mem{mix64A, mix64B} {
		VPSRLQ(U8(33), h, t)
		VPXORQ(t, h, h)
		VPMULLQ_BCST(c, h, h)
	}
	VPSRLQ(U8(33), h, t)
	VPXORQ(t, h, h)
	return h
}

// hashRow writes the kernel of one basis: Perlin noise looks up each
// hash's gradient (its top 8 bits index the 256 directions); value noise
// converts its top 53 bits, signed.
//
// Gathers are slow, so the Perlin kernel keeps the first quarter's 64
// directions (x and y, from the tables tx and ty) in 16 registers and
// picks from them with permutes (4 of 16 entries each, then blends by
// bits 4 and 5), and makes the other quarters as noise/gradients.go builds
// them, exactly: g_{64+r} = (−y_r, x_r), g_{128+r} = (−x_r, −y_r),
// g_{192+r} = (y_r, −x_r), that is, x and y swapped where bit 6 is set,
// x negated where bits 6 and 7 differ and y where bit 7 is set.
func hashRow(basis string) {
	name := basis + "HashAVX512"
	if basis == "perlin" {
		TEXT(name, NOSPLIT, "func(gx, gy *float64, hx *uint64, key uint64, tx, ty *float64, n int)")
		Doc(name+" writes the gradients (gx, gy) of the lattice row with key key at the",
			"8 columns of each of n blocks, whose i·primeX are at hx, from the directions'",
			"tables tx and ty (see GridRows.hashRow).")
	} else {
		TEXT(name, NOSPLIT, "func(a *float64, hx *uint64, key uint64, n int)")
		Doc(name+" writes the values a of the lattice row with key key at the 8 columns",
			"of each of n blocks, whose i·primeX are at hx (see GridRows.hashRow).")
	}
	var gx, gy, tx, ty, a Register
	if basis == "perlin" {
		gx, gy = Load(Param("gx"), GP64()), Load(Param("gy"), GP64())
		tx, ty = Load(Param("tx"), GP64()), Load(Param("ty"), GP64())
	} else {
		a = Load(Param("a"), GP64())
	}
	hx := Load(Param("hx"), GP64())
	var quarter [2][8]Register // x and y of directions 0 to 63, 8 a register
	if basis == "perlin" {
		for t, table := range []Register{tx, ty} {
			for k := range quarter[t] {
				quarter[t][k] = ZMM()
				VMOVUPD(Mem{Base: table, Disp: 64 * k}, quarter[t][k])
			}
		}
	}
	key := ZMM()
	VPBROADCASTQ(Load(Param("key"), GP64()), key)
	n := Load(Param("n"), GP64())
	Label(name + "Block")
	TESTQ(n, n)
	JZ(LabelRef(name + "Done"))
	h := mix64(Mem{Base: hx}, key)
	if basis == "perlin" {
		VPSRLQ(U8(56), h, h)
		var mask [8]Register
		for b := 4; b < 8; b++ {
			mask[b] = K()
			VPTESTMQ_BCST(bits[b], h, mask[b])
		}
		var xy [2]Register
		for t := range xy {
			var part [4]Register // directions 16p to 16p+15 picked by bits 0–3
			for p := range part {
				part[p] = ZMM()
				VMOVAPD(quarter[t][2*p], part[p])
				VPERMT2PD(quarter[t][2*p+1], h, part[p])
			}
			VBLENDMPD(part[1], part[0], mask[4], part[0])
			VBLENDMPD(part[3], part[2], mask[4], part[2])
			VBLENDMPD(part[2], part[0], mask[5], part[0])
			xy[t] = part[0]
		}
		x, y := ZMM(), ZMM()
		VBLENDMPD(xy[1], xy[0], mask[6], x) // bit 6: y_r where set
		VBLENDMPD(xy[0], xy[1], mask[6], y)
		negX := K()
		KXORW(mask[6], mask[7], negX)
		VPXORQ_BCST(signBit, x, negX, x)
		VPXORQ_BCST(signBit, y, mask[7], y)
		VMOVUPD(x, Mem{Base: gx})
		VMOVUPD(y, Mem{Base: gy})
		ADDQ(U8(64), gx)
		ADDQ(U8(64), gy)
	} else {
		VPSRAQ(U8(11), h, h)
		VCVTQQ2PD(h, h)
		VMULPD_BCST(unit52, h, h)
		VMOVUPD(h, Mem{Base: a})
		ADDQ(U8(64), a)
	}
	ADDQ(U8(64), hx)
	DECQ(n)
	JMP(LabelRef(name + "Block"))
	Label(name + "Done")
	VZEROUPPER()
	RET()
}

// columnRows writes the column kernels: a row's Perlin columns
// (newPerlinColumn, with newPerlinColumnSlope's terms when slopes) and
// value noise columns (newValueColumn) from the kept lattice rows, 8
// columns a step in the Go loop's order of operations.
func columnRows() {
	perlinColumns(false)
	perlinColumns(true)
	valueColumns()
}

// perlinColumns writes the Perlin column kernel:
//
//	y0 = g0y·v, y1 = g1y·(v − 1), s = g0x + (g1x − g0x)·w(v), o = y0 + (y1 − y0)·w(v)
//	sx = g1x − g0x, sy = y1 − y0, sv = g0y + (g1y − g0y)·w(v)
func perlinColumns(slopes bool) {
	name := "perlinColumnsAVX512"
	sig := "func(cs, co, g0x, g0y, g1x, g1y *float64, v, wv float64, n int)"
	if slopes {
		name = "perlinColumnSlopesAVX512"
		sig = "func(cs, co, sx, sy, sv, g0x, g0y, g1x, g1y *float64, v, wv float64, n int)"
	}
	TEXT(name, NOSPLIT, sig)
	Doc(name+" writes the Perlin columns of the row at offset v, w(v) = wv, at the 8",
		"columns of each of n blocks, from the gradients of its lattice rows (see",
		"GridRows.perlinColumns).")
	outs := []string{"cs", "co"}
	if slopes {
		outs = append(outs, "sx", "sy", "sv")
	}
	names := append(outs, "g0x", "g0y", "g1x", "g1y")
	ptrs := map[string]Register{}
	for _, p := range names {
		ptrs[p] = Load(Param(p), GP64())
	}
	v, vm1, wv := ZMM(), ZMM(), ZMM()
	VBROADCASTSD(Load(Param("v"), XMM()), v)
	VBROADCASTSD(oneF, vm1)
	VSUBPD(vm1, v, vm1) // v − 1, as Go rounds it
	VBROADCASTSD(Load(Param("wv"), XMM()), wv)
	n := Load(Param("n"), GP64())
	Label(name + "Block")
	TESTQ(n, n)
	JZ(LabelRef(name + "Done"))
	at := func(p string) Mem { return Mem{Base: ptrs[p]} }
	g0x, g1x, g0y, g1y := ZMM(), ZMM(), ZMM(), ZMM()
	VMOVUPD(at("g0x"), g0x)
	VMOVUPD(at("g1x"), g1x)
	VMOVUPD(at("g0y"), g0y)
	VMOVUPD(at("g1y"), g1y)
	dx, y0, y1, t := ZMM(), ZMM(), ZMM(), ZMM()
	VSUBPD(g0x, g1x, dx) // g1x − g0x
	VMULPD(wv, dx, t)
	VADDPD(t, g0x, t)
	VMOVUPD(t, at("cs"))
	VMULPD(v, g0y, y0)
	VMULPD(vm1, g1y, y1)
	VSUBPD(y0, y1, y1) // y1 − y0
	VMULPD(wv, y1, t)
	VADDPD(t, y0, t)
	VMOVUPD(t, at("co"))
	if slopes {
		VMOVUPD(dx, at("sx"))
		VMOVUPD(y1, at("sy"))
		VSUBPD(g0y, g1y, t)
		VMULPD(wv, t, t)
		VADDPD(t, g0y, t)
		VMOVUPD(t, at("sv"))
	}
	for _, p := range names {
		ADDQ(U8(64), ptrs[p])
	}
	DECQ(n)
	JMP(LabelRef(name + "Block"))
	Label(name + "Done")
	VZEROUPPER()
	RET()
}

// valueColumns writes the value noise column kernel: with the lattice
// values a (row j) and c (row j+1), ca = c − a and e = a + ca·w(v).
func valueColumns() {
	name := "valueColumnsAVX512"
	TEXT(name, NOSPLIT, "func(ve, vca, a0, a1 *float64, wv float64, n int)")
	Doc(name+" writes the value noise columns e and c − a of the row with w(v) = wv at",
		"the 8 columns of each of n blocks, from the values of its lattice rows (see",
		"GridRows.valueLattice).")
	ve, vca := Load(Param("ve"), GP64()), Load(Param("vca"), GP64())
	a0, a1 := Load(Param("a0"), GP64()), Load(Param("a1"), GP64())
	wv := ZMM()
	VBROADCASTSD(Load(Param("wv"), XMM()), wv)
	n := Load(Param("n"), GP64())
	Label(name + "Block")
	TESTQ(n, n)
	JZ(LabelRef(name + "Done"))
	a, ca, e := ZMM(), ZMM(), ZMM()
	VMOVUPD(Mem{Base: a0}, a)
	VMOVUPD(Mem{Base: a1}, ca)
	VSUBPD(a, ca, ca)
	VMOVUPD(ca, Mem{Base: vca})
	VMULPD(wv, ca, e)
	VADDPD(e, a, e)
	VMOVUPD(e, Mem{Base: ve})
	for _, p := range []Register{ve, vca, a0, a1} {
		ADDQ(U8(64), p)
	}
	DECQ(n)
	JMP(LabelRef(name + "Block"))
	Label(name + "Done")
	VZEROUPPER()
	RET()
}

// latticeKeys returns rowKey of lattice rows j and j+1 (key ^ row·primeY)
// and the columns' products i·primeX and (i+1)·primeX, using
// (j+1)·primeY = j·primeY + primeY modulo 2⁶⁴; primeX and primeY are
// the constants to broadcast.
func latticeKeys(i, j, key Register, primeX, primeY Mem) (r0, r1, ip, ip1 Register) {
	r0, r1, ip, ip1 = ZMM(), ZMM(), ZMM(), ZMM()
	VPMULLQ_BCST(primeY, j, r0)
	VPADDQ_BCST(primeY, r0, r1)
	VPXORQ(key, r0, r0)
	VPXORQ(key, r1, r1)
	VPMULLQ_BCST(primeX, i, ip)
	VPADDQ_BCST(primeX, ip, ip1)
	return r0, r1, ip, ip1
}
