package main

// The Quilez step kernel: one octave of Quilez turbulence (thesis listing
// 6.4) folded into a row of running states, lane by lane the expression
// of terrain's quilezStep:
//
//	d_x += ∂N/∂x, d_y += ∂N/∂y, H += amp·N / (1 + d_x·d_x + d_y·d_y)
//
// with each product rounded before its sum and IEEE division, so the
// rows are bit for bit the Go loop's. The division is what makes the
// scalar step slow: vectors divide several lanes at once.

import (
	"fmt"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// quilezRows writes the Quilez step kernel of both instruction sets.
func quilezRows() {
	quilezStep("AVX512", 64)
	quilezStep("AVX2", 32)
	for _, unroll := range []int{1, 2} {
		quilezRow("perlin", unroll)
		quilezRow("value", unroll)
	}
	quilezRowAVX2("perlin")
	quilezRowAVX2("value")
}

// quilezStep writes the kernel for vectors of width bytes, two vectors a
// step so that two divisions overlap.
func quilezStep(isa string, width int) {
	name := "quilezStep" + isa
	TEXT(name, NOSPLIT, "func(h, ddx, ddy, n, ndx, ndy *float64, amp float64, count int)")
	Doc(name+" folds octave noise n and its gradient (ndx, ndy) weighted by amp into the",
		"running heights h and gradient sums (ddx, ddy) of count steps of 16 samples",
		"(see QuilezStep).")
	ptrs := []Register{}
	for _, p := range []string{"h", "ddx", "ddy", "n", "ndx", "ndy"} {
		ptrs = append(ptrs, Load(Param(p), GP64()))
	}
	hp, dxp, dyp, np, ndxp, ndyp := ptrs[0], ptrs[1], ptrs[2], ptrs[3], ptrs[4], ptrs[5]
	amp := vec(width)
	VBROADCASTSD(Load(Param("amp"), XMM()), amp)
	count := Load(Param("count"), GP64())
	Label(name + "Step")
	TESTQ(count, count)
	JZ(LabelRef(name + "Done"))
	vectors := 128 / width // 16 samples
	for k := range vectors {
		at := func(p Register) Mem { return Mem{Base: p, Disp: k * width} }
		dx, dy, q, den := vec(width), vec(width), vec(width), vec(width)
		VMOVUPD(at(dxp), dx)
		VADDPD(at(ndxp), dx, dx)
		VMOVUPD(dx, at(dxp))
		VMOVUPD(at(dyp), dy)
		VADDPD(at(ndyp), dy, dy)
		VMOVUPD(dy, at(dyp))
		VMULPD(dx, dx, dx)
		VBROADCASTSD(oneF, den)
		VADDPD(dx, den, den)
		VMULPD(dy, dy, dy)
		VADDPD(dy, den, den)
		VMULPD(at(np), amp, q)
		VDIVPD(den, q, q)
		VADDPD(at(hp), q, q)
		VMOVUPD(q, at(hp))
	}
	for _, p := range ptrs {
		ADDQ(U8(128), p)
	}
	DECQ(count)
	JMP(LabelRef(name + "Step"))
	Label(name + "Done")
	VZEROUPPER()
	RET()
}

// The layout of noise's laneGradOctave: an octave's amplitude, its
// blocks, its samples' w'(u), w'(v) on the current row, and its columns'
// tables on that row (Perlin: cs, co, sx, sy, sv; value noise: ve, vca).
const (
	gOffAmp, gOffBlocks, gOffDu, gOffDv, gOffTables = 0, 8, 16, 24, 32
	gradOctaveSize                                  = 72
)

// quilezRow writes the fused AVX-512 kernel of Quilez turbulence over the
// basis ("perlin" or "value"): each block's height and gradient sums stay
// in registers across the octaves, which are evaluated, folded by the
// step above and summed from 0 in octave order as terrain's quilezStep
// does, and the heights are written once as float32, folded into the
// lanes' lowest, highest and NaN flags at rng like fbmRow's. It does
// unroll blocks at a time, whose divisions and permutes are independent.
func quilezRow(basis string, unroll int) {
	name := fmt.Sprintf("quilez%s%sAVX512x%d", strings.ToUpper(basis[:1]), basis[1:], unroll)
	TEXT(name, NOSPLIT, "func(out *float32, octaves *float64, count, first, n int, rng *float32)")
	Doc(name+" writes float32 Quilez turbulence over the count octaves to out, at the",
		fmt.Sprintf("%d samples of each of the n groups of blocks from block first, and folds them", 8*unroll),
		"into the lanes' lowest, highest and NaN flags at rng (see Quilez.Row).")
	out, octaves := Load(Param("out"), GP64()), Load(Param("octaves"), GP64())
	count, n := Load(Param("count"), GP64()), Load(Param("n"), GP64())
	offset := Load(Param("first"), GP64()) // the block's offset in every octave's blocks
	duOff := GP64()                        // and in every octave's w'(u)
	MOVQ(offset, duOff)
	SHLQ(U8(6), duOff)
	IMUL3Q(U32(blockSize), offset, offset)
	rng := Load(Param("rng"), GP64())
	lo, hi, nan := YMM(), YMM(), YMM()
	VMOVUPS(Mem{Base: rng}, lo)
	VMOVUPS(Mem{Base: rng, Disp: 32}, hi)
	VMOVUPS(Mem{Base: rng, Disp: 64}, nan)
	Label(name + "Block")
	TESTQ(n, n)
	JZ(LabelRef(name + "Done"))
	hs, ddxs, ddys := make([]Register, unroll), make([]Register, unroll), make([]Register, unroll)
	for u := range unroll {
		hs[u], ddxs[u], ddys[u] = ZMM(), ZMM(), ZMM()
		for _, z := range []Register{hs[u], ddxs[u], ddys[u]} {
			VPXORQ(z, z, z)
		}
	}
	oct, i := GP64(), GP64()
	MOVQ(octaves, oct)
	MOVQ(count, i)
	Label(name + "Octave")
	blk0, du := GP64(), GP64()
	MOVQ(Mem{Base: oct, Disp: gOffBlocks}, blk0)
	ADDQ(offset, blk0)
	MOVQ(Mem{Base: oct, Disp: gOffDu}, du)
	ADDQ(duOff, du)
	dv := ZMM()
	VBROADCASTSD(Mem{Base: oct, Disp: gOffDv}, dv)
	tables := make([]func() Register, 5)
	for k := range tables {
		tables[k] = func() Register {
			t := GP64()
			MOVQ(Mem{Base: oct, Disp: gOffTables + 8*k}, t)
			return t
		}
	}
	for u := range unroll {
		blk := blk0
		if u > 0 {
			blk = GP64()
			LEAQ(Mem{Base: blk0, Disp: u * blockSize}, blk)
		}
		h, ddx, ddy := hs[u], ddxs[u], ddys[u]
		dus := Mem{Base: du, Disp: 64 * u}
		var v, dx, dy Register
		if basis == "value" {
			v, dx, dy = valueEval(avx512{}, blk, dus, 0, tables[:2], dv)
		} else {
			v, dx, dy = perlinEval(avx512{}, blk, dus, 0, tables, dv, nil)
		}
		VADDPD(dx, ddx, ddx)
		VADDPD(dy, ddy, ddy)
		den, sq := ZMM(), ZMM()
		VBROADCASTSD(oneF, den)
		VMULPD(ddx, ddx, sq)
		VADDPD(sq, den, den)
		VMULPD(ddy, ddy, sq)
		VADDPD(sq, den, den)
		VMULPD_BCST(Mem{Base: oct, Disp: gOffAmp}, v, v)
		VDIVPD(den, v, v)
		VADDPD(v, h, h)
	}
	ADDQ(U8(gradOctaveSize), oct)
	DECQ(i)
	JNZ(LabelRef(name + "Octave"))
	for u, h := range hs {
		y := avx512{}.store32(h, out, u)
		VMINPS(y, lo, lo)
		VMAXPS(y, hi, hi)
		VCMPPS(U8(3), y, y, y) // unordered: NaN
		VORPS(y, nan, nan)
	}
	ADDQ(U8(32*unroll), out)
	ADDQ(U32(blockSize*unroll), offset)
	ADDQ(U32(64*unroll), duOff)
	DECQ(n)
	JMP(LabelRef(name + "Block"))
	Label(name + "Done")
	rng = Load(Param("rng"), GP64())
	VMOVUPS(lo, Mem{Base: rng})
	VMOVUPS(hi, Mem{Base: rng, Disp: 32})
	VMOVUPS(nan, Mem{Base: rng, Disp: 64})
	VZEROUPPER()
	RET()
}

// quilezRowAVX2 is quilezRow with AVX2: 16 registers of 4 lanes hold one
// half block's sums beside its evaluation, so each block runs the octaves
// once per half. N·amp and ∂N/∂x are folded as soon as they are made,
// which frees their registers while ∂N/∂y is made.
func quilezRowAVX2(basis string) {
	s := avx2{}
	name := fmt.Sprintf("quilez%s%sAVX2", strings.ToUpper(basis[:1]), basis[1:])
	TEXT(name, NOSPLIT, "func(out *float32, octaves *float64, count, first, n int, rng *float32)")
	Doc(name+" writes float32 Quilez turbulence over the count octaves to out, at the",
		"8 samples of each of the n blocks from block first, and folds them into the",
		"lanes' lowest, highest and NaN flags at rng (see Quilez.Row).")
	out, octaves := Load(Param("out"), GP64()), Load(Param("octaves"), GP64())
	n := Load(Param("n"), GP64())
	offset := Load(Param("first"), GP64()) // the block's offset in every octave's blocks
	duOff := GP64()                        // and in every octave's w'(u)
	MOVQ(offset, duOff)
	SHLQ(U8(6), duOff)
	IMUL3Q(U32(blockSize), offset, offset)
	Label(name + "Block")
	TESTQ(n, n)
	JZ(LabelRef(name + "Done"))
	for half := range s.halves() {
		label := fmt.Sprintf("%sOctave%d", name, half)
		h, ddx, ddy := YMM(), YMM(), YMM()
		for _, z := range []Register{h, ddx, ddy} {
			VXORPD(z, z, z)
		}
		oct, i := GP64(), GP64()
		MOVQ(octaves, oct)
		Load(Param("count"), i)
		Label(label)
		blk, du := GP64(), GP64()
		MOVQ(Mem{Base: oct, Disp: gOffBlocks}, blk)
		ADDQ(offset, blk)
		MOVQ(Mem{Base: oct, Disp: gOffDu}, du)
		ADDQ(duOff, du)
		dv := YMM()
		VBROADCASTSD(Mem{Base: oct, Disp: gOffDv}, dv)
		tables := make([]func() Register, 5)
		for k := range tables {
			tables[k] = func() Register {
				t := GP64()
				MOVQ(Mem{Base: oct, Disp: gOffTables + 8*k}, t)
				return t
			}
		}
		dus := Mem{Base: du, Disp: 32 * half}
		var q, dy Register
		if basis == "value" {
			var v, dx Register
			v, dx, dy = valueEval(s, blk, dus, half, tables[:2], dv)
			VADDPD(dx, ddx, ddx)
			q = v
		} else {
			_, _, dy = perlinEval(s, blk, dus, half, tables, dv, func(v, dx Register) {
				VADDPD(dx, ddx, ddx)
				q = YMM()
				VBROADCASTSD(Mem{Base: oct, Disp: gOffAmp}, q)
				VMULPD(q, v, q) // amp·N, as the fold's product
			})
		}
		VADDPD(dy, ddy, ddy)
		den, sq := YMM(), YMM()
		VBROADCASTSD(oneF, den)
		VMULPD(ddx, ddx, sq)
		VADDPD(sq, den, den)
		VMULPD(ddy, ddy, sq)
		VADDPD(sq, den, den)
		if basis == "value" {
			amp := YMM()
			VBROADCASTSD(Mem{Base: oct, Disp: gOffAmp}, amp)
			VMULPD(amp, q, q)
		}
		VDIVPD(den, q, q)
		VADDPD(q, h, h)
		ADDQ(U8(gradOctaveSize), oct)
		DECQ(i)
		JNZ(LabelRef(label))
		rng := Load(Param("rng"), GP64())
		lo, hi, nan := XMM(), XMM(), XMM()
		VMOVUPS(Mem{Base: rng}, lo)
		VMOVUPS(Mem{Base: rng, Disp: 32}, hi)
		VMOVUPS(Mem{Base: rng, Disp: 64}, nan)
		y := s.store32(h, out, half)
		VMINPS(y, lo, lo)
		VMAXPS(y, hi, hi)
		VCMPPS(U8(3), y, y, y) // unordered: NaN
		VORPS(y, nan, nan)
		VMOVUPS(lo, Mem{Base: rng})
		VMOVUPS(hi, Mem{Base: rng, Disp: 32})
		VMOVUPS(nan, Mem{Base: rng, Disp: 64})
	}
	ADDQ(U8(32), out)
	ADDQ(U32(blockSize), offset)
	ADDQ(U8(64), duOff)
	DECQ(n)
	JMP(LabelRef(name + "Block"))
	Label(name + "Done")
	VZEROUPPER()
	RET()
}
