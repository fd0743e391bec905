package main

// The gradient kernels: Perlin and value noise with their analytic
// derivatives along a grid row (thesis appendix A, eqs. A.6 and A.11, in
// the column arrangement of noise/perlin.go and noise/value.go), for
// Quilez and Swiss turbulence. Like the value kernels, every lane computes
// the Go loop's expression (GridRows.Eval) in the same order, each product
// rounded before its sum, so the rows are bit for bit the Go loop's.

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// gradientKernels writes the kernels of the gradient paths and of what
// every generation pays for whatever its algorithm: the gradient rows,
// the fused Quilez rows and their step, lattice hashing, column terms and
// the rescale.
func gradientKernels() {
	gradientRows()
	quilezRows()
	hashRows()
	columnRows()
	rescaleConstants()
	rescaleRows()
}

// gradientRows writes the gradient kernels of both instruction sets.
func gradientRows() {
	for _, s := range []gradISA{avx512{}, avx2{}} {
		perlinEvalRow(s)
		valueEvalRow(s)
	}
}

// gradISA is how an instruction set picks the left and right columns'
// terms of each lane of a block.
type gradISA interface {
	isa
	// width is a vector's size in bytes.
	width() int
	// adjacent returns the left and right columns' entries of a plain
	// table (one float64 per column) for half h of the block at blk.
	adjacent(blk, table Register, h int) (left, right Register)
	// paired returns the left and right columns' a and b from a table of
	// (a, b) pairs, one pair per column (AVX-512: the separate tables a and
	// b), for half h of the block at blk.
	paired(blk, a, b Register, h int) (al, bl, ar, br Register)
}

func (avx512) width() int { return 64 }
func (avx2) width() int   { return 32 }

// pickIndex is a block's base column and its lanes' left and right
// columns relative to it, loaded by the first pick512 of an evaluation
// and kept for the others (see perlinEval), which read the same block.
type pickIndex struct{ blk, base, l, r Register }

// picked is the current evaluation's pickIndex; its blk is nil after
// resetPicks.
var picked pickIndex

// resetPicks makes the next pick512 load its block's indices afresh: every
// evaluation calls it first, as its block register (and the code path the
// indices were loaded on) is not the previous one's.
func resetPicks() { picked = pickIndex{} }

// pick512 loads the 16 entries of table from the block's base column and
// permutes each lane's left and right column out of them.
func pick512(blk, table Register) (left, right Register) {
	if picked.blk != blk {
		picked = pickIndex{blk: blk, base: GP64(), l: ZMM(), r: ZMM()}
		MOVQ(Mem{Base: blk, Disp: offBase}, picked.base)
		VMOVDQU64(Mem{Base: blk, Disp: offRel}, picked.l)
		VPADDQ_BCST(one, picked.l, picked.r)
	}
	base, l, r := picked.base, picked.l, picked.r
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

func (avx512) adjacent(blk, table Register, _ int) (left, right Register) {
	return pick512(blk, table)
}

func (avx512) paired(blk, a, b Register, _ int) (al, bl, ar, br Register) {
	al, ar = pick512(blk, a)
	bl, br = pick512(blk, b)
	return al, bl, ar, br
}

// adjacent loads each lane's left and right entries, adjacent in table,
// in one 16-byte load, and transposes them (as avx2.value does).
func (avx2) adjacent(blk, table Register, h int) (left, right Register) {
	at := GP64()
	MOVQ(Mem{Base: blk, Disp: offBase}, at)
	LEAQ(Mem{Base: table, Index: at, Scale: 8}, at)
	var pairs [4]Register
	for c := range pairs {
		i := GP64()
		MOVQ(Mem{Base: blk, Disp: offRel + 8*(4*h+c)}, i)
		pairs[c] = XMM()
		VMOVUPD(Mem{Base: at, Index: i, Scale: 8}, pairs[c])
	}
	p02, p13 := YMM(), YMM()
	VINSERTF128(U8(1), pairs[2], pairs[0].(VecVirtual).AsY(), p02)
	VINSERTF128(U8(1), pairs[3], pairs[1].(VecVirtual).AsY(), p13)
	left, right = YMM(), YMM()
	VUNPCKLPD(p13, p02, left)
	VUNPCKHPD(p13, p02, right)
	return left, right
}

// paired reads each lane's left and right (a, b) pairs, adjacent in the
// interleaved table a, in one 32-byte load, and transposes four such rows
// (as avx2.noise does); b is unused.
func (avx2) paired(blk, a, _ Register, h int) (al, bl, ar, br Register) {
	pairs := GP64()
	MOVQ(Mem{Base: blk, Disp: offBase}, pairs)
	SHLQ(U8(4), pairs)
	ADDQ(a, pairs)
	var rows [4]Register
	for c := range rows {
		at := GP64()
		MOVQ(Mem{Base: blk, Disp: offRel + 8*(4*h+c)}, at)
		SHLQ(U8(4), at)
		rows[c] = YMM()
		VMOVUPD(Mem{Base: pairs, Index: at, Scale: 1}, rows[c])
	}
	a01, b01, a23, b23 := YMM(), YMM(), YMM(), YMM()
	VUNPCKLPD(rows[1], rows[0], a01) // a_l0 a_l1 a_r0 a_r1
	VUNPCKHPD(rows[1], rows[0], b01)
	VUNPCKLPD(rows[3], rows[2], a23)
	VUNPCKHPD(rows[3], rows[2], b23)
	al, bl, ar, br = YMM(), YMM(), YMM(), YMM()
	VPERM2F128(U8(0x20), a23, a01, al)
	VPERM2F128(U8(0x20), b23, b01, bl)
	VPERM2F128(U8(0x31), a23, a01, ar)
	VPERM2F128(U8(0x31), b23, b01, br)
	return al, bl, ar, br
}

// broadcast returns x's low float64 in every lane of a vector of width
// bytes.
func broadcast(x Register, width int) Register {
	v := vec(width)
	VBROADCASTSD(x, v)
	return v
}

// evalLoop is the block loop the gradient kernels share: it loads the
// outputs v, dx, dy, the blocks and their samples' w'(u) at du, and n, and
// calls body for each half of each block with the half's output offset.
func evalLoop(s gradISA, name string, body func(blk, du Register, h int, v, dx, dy Mem)) {
	v, dx, dy := Load(Param("v"), GP64()), Load(Param("dx"), GP64()), Load(Param("dy"), GP64())
	blk, du := Load(Param("blocks"), GP64()), Load(Param("du"), GP64())
	n := Load(Param("n"), GP64())
	Label(name + "Block")
	TESTQ(n, n)
	JZ(LabelRef(name + "Done"))
	for h := range s.halves() {
		off := h * s.width()
		body(blk, du, h, Mem{Base: v, Disp: off}, Mem{Base: dx, Disp: off}, Mem{Base: dy, Disp: off})
	}
	for _, p := range []Register{v, dx, dy, du} {
		ADDQ(U8(64), p)
	}
	ADDQ(U32(blockSize), blk)
	DECQ(n)
	JMP(LabelRef(name + "Block"))
	Label(name + "Done")
	VZEROUPPER()
	RET()
}

// perlinEvalRow writes Perlin N, ∂N/∂x and ∂N/∂y at every block's samples
// (perlinEval):
//
//	e = s_l·u + o_l, f = s_r·(u − 1) + o_r, N = e + (f − e)·w(u)
//	∂N/∂x = s_l + (s_r − s_l)·w(u) + (f − e)·w'(u)
//	∂e/∂v = sv_l + (sx_l·u + sy_l)·w'(v), ∂f/∂v likewise at u − 1
//	∂N/∂y = ∂e/∂v + (∂f/∂v − ∂e/∂v)·w(u)
func perlinEvalRow(s gradISA) {
	name := "perlinEvalRow" + s.name()
	TEXT(name, NOSPLIT, "func(v, dx, dy, blocks, du, cs, co, sx, sy, sv *float64, dv float64, n int)")
	Doc(name+" writes Perlin N, ∂N/∂x and ∂N/∂y at the 8 samples of each of the n blocks",
		"to v, dx and dy, from the columns' tables cs, co, sx, sy and sv and w'(v) = dv",
		"(AVX2: (s, o) pairs at cs and (sx, sy) pairs at sx; see GridRows.Eval).")
	w := s.width()
	cs, co := Load(Param("cs"), GP64()), Load(Param("co"), GP64())
	sx, sy := Load(Param("sx"), GP64()), Load(Param("sy"), GP64())
	sv := Load(Param("sv"), GP64())
	dv := broadcast(Load(Param("dv"), XMM()), w)
	evalLoop(s, name, func(blk, du Register, h int, vOut, dxOut, dyOut Mem) {
		_, _, dy := perlinEval(s, blk, Mem{Base: du, Disp: h * w}, h, fixed(cs, co, sx, sy, sv), dv,
			func(v, dx Register) {
				VMOVUPD(v, vOut)
				VMOVUPD(dx, dxOut)
			})
		VMOVUPD(dy, dyOut)
	})
}

// perlinEval returns Perlin N, ∂N/∂x and ∂N/∂y at half h of the block at
// blk, with w'(u) at du, from the column tables t (cs, co, sx, sy, sv; see
// perlinEvalRow, each made by its function when needed) and w'(v) in
// every lane of dv. If emit is not nil, it gets
// N and ∂N/∂x as soon as they are made, and their registers are free after
// it (AVX2 has too few to keep them while ∂N/∂y is made).
func perlinEval(s gradISA, blk Register, du Mem, h int, t []func() Register, dv Register, emit func(v, dx Register)) (v, dx, dy Register) {
	resetPicks()
	w := s.width()
	u, m, wu := vec(w), vec(w), vec(w)
	VMOVUPD(Mem{Base: blk, Disp: offU + h*w}, u)
	VBROADCASTSD(oneF, m)
	VSUBPD(m, u, m)
	VMOVUPD(Mem{Base: blk, Disp: offWu + h*w}, wu)
	ls, lo, rs, ro := s.paired(blk, t[0](), t[1](), h)
	e, f := vec(w), vec(w)
	VMULPD(u, ls, e)
	VADDPD(lo, e, e)
	VMULPD(m, rs, f)
	VADDPD(ro, f, f)
	VSUBPD(e, f, f) // f − e
	v = vec(w)
	VMULPD(wu, f, v)
	VADDPD(v, e, v)
	VSUBPD(ls, rs, rs) // s_r − s_l
	VMULPD(wu, rs, rs)
	VADDPD(rs, ls, ls)
	VMULPD(du, f, f)
	VADDPD(f, ls, ls)
	dx = ls
	if emit != nil {
		emit(v, dx)
	}
	lsx, lsy, rsx, rsy := s.paired(blk, t[2](), t[3](), h)
	lsv, rsv := s.adjacent(blk, t[4](), h)
	VMULPD(u, lsx, lsx)
	VADDPD(lsy, lsx, lsx)
	VMULPD(dv, lsx, lsx)
	VADDPD(lsx, lsv, lsv) // ∂e/∂v
	VMULPD(m, rsx, rsx)
	VADDPD(rsy, rsx, rsx)
	VMULPD(dv, rsx, rsx)
	VADDPD(rsx, rsv, rsv) // ∂f/∂v
	VSUBPD(lsv, rsv, rsv)
	VMULPD(wu, rsv, rsv)
	VADDPD(rsv, lsv, lsv)
	return v, dx, lsv
}

// valueEvalRow writes value noise N, ∂N/∂x and ∂N/∂y at every block's
// samples (valueEval):
//
//	N = e_l + (e_r − e_l)·w(u), ∂N/∂x = (e_r − e_l)·w'(u),
//	∂N/∂y = ((c − a)_l + ((c − a)_r − (c − a)_l)·w(u))·w'(v)
func valueEvalRow(s gradISA) {
	name := "valueEvalRow" + s.name()
	TEXT(name, NOSPLIT, "func(v, dx, dy, blocks, du, ve, vca *float64, dv float64, n int)")
	Doc(name+" writes value noise N, ∂N/∂x and ∂N/∂y at the 8 samples of each of the n",
		"blocks to v, dx and dy, from the columns' tables ve (e) and vca (c − a) and",
		"w'(v) = dv (see GridRows.Eval).")
	w := s.width()
	ve, vca := Load(Param("ve"), GP64()), Load(Param("vca"), GP64())
	dv := broadcast(Load(Param("dv"), XMM()), w)
	evalLoop(s, name, func(blk, du Register, h int, vOut, dxOut, dyOut Mem) {
		v, dx, dy := valueEval(s, blk, Mem{Base: du, Disp: h * w}, h, fixed(ve, vca), dv)
		VMOVUPD(v, vOut)
		VMOVUPD(dx, dxOut)
		VMOVUPD(dy, dyOut)
	})
}

// valueEval returns value noise N, ∂N/∂x and ∂N/∂y at half h of the
// block at blk, with w'(u) at du, from the column tables t (ve and vca,
// made by their functions when needed) and w'(v) in every lane of dv.
func valueEval(s gradISA, blk Register, du Mem, h int, t []func() Register, dv Register) (v, dx, dy Register) {
	resetPicks()
	w := s.width()
	wu := vec(w)
	VMOVUPD(Mem{Base: blk, Disp: offWu + h*w}, wu)
	le, re := s.adjacent(blk, t[0](), h)
	VSUBPD(le, re, re) // e_r − e_l
	v = vec(w)
	VMULPD(wu, re, v)
	VADDPD(v, le, v)
	VMULPD(du, re, re)
	lca, rca := s.adjacent(blk, t[1](), h)
	VSUBPD(lca, rca, rca)
	VMULPD(wu, rca, rca)
	VADDPD(rca, lca, lca)
	VMULPD(dv, lca, lca)
	return v, re, lca
}

// fixed returns functions that return the tables already in registers.
func fixed(tables ...Register) []func() Register {
	fs := make([]func() Register, len(tables))
	for k, t := range tables {
		fs[k] = func() Register { return t }
	}
	return fs
}
