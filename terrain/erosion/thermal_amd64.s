//go:build amd64 && !purego

#include "textflag.h"

// EXCHANGE adds to the four samples' change (Y6) and what they send out
// (Y7) the fluxes to the neighbours at addr, whose talus drop is drop:
// the arithmetic of exchange without its branches. With d = zi − zn,
//
//	fa = k·max(d − drop, 0)    what the sample sends (0 unless d > drop)
//	fb = −k·min(d + drop, 0)   what it receives (0 unless −d > drop)
//	change −= fa − fb, sent += fa
//
// At most one of fa and fb is not 0 and change is never −0, so adding
// them both rounds exactly as the branches do: change − fa, change + fb,
// or change; sent + fa or sent. −d − drop is −(d + drop) exactly, as
// rounding is symmetric.
#define EXCHANGE(addr, drop) \
	VMOVUPD addr, Y8 \
	VSUBPD  Y8, Y5, Y8 \
	VSUBPD  drop, Y8, Y9 \
	VADDPD  drop, Y8, Y10 \
	VMAXPD  Y4, Y9, Y9 \
	VMINPD  Y4, Y10, Y10 \
	VMULPD  Y1, Y9, Y9 \
	VMULPD  Y1, Y10, Y10 \
	VADDPD  Y10, Y9, Y10 \
	VSUBPD  Y10, Y6, Y6 \
	VADDPD  Y9, Y7, Y7

// func thermalCellsAVX2(up, mid, down, next *float64, n int, c *[3]float64, out float64) float64
TEXT ·thermalCellsAVX2(SB), NOSPLIT, $0-64
	MOVQ         up+0(FP), AX
	MOVQ         mid+8(FP), BX
	MOVQ         down+16(FP), CX
	MOVQ         next+24(FP), DX
	MOVQ         n+32(FP), SI
	MOVQ         c+40(FP), DI
	VMOVSD       out+48(FP), X0
	VBROADCASTSD 0(DI), Y1  // k
	VBROADCASTSD 8(DI), Y2  // axial drop
	VBROADCASTSD 16(DI), Y3 // diagonal drop
	VXORPD       Y4, Y4, Y4 // 0

group:
	TESTQ  SI, SI
	JZ     done
	VMOVUPD 8(BX), Y5 // zi
	VXORPD Y6, Y6, Y6 // change
	VXORPD Y7, Y7, Y7 // sent

	// The neighbours in the order of neighbours8.
	EXCHANGE(0(AX), Y3)
	EXCHANGE(8(AX), Y2)
	EXCHANGE(16(AX), Y3)
	EXCHANGE(0(BX), Y2)
	EXCHANGE(16(BX), Y2)
	EXCHANGE(0(CX), Y3)
	EXCHANGE(8(CX), Y2)
	EXCHANGE(16(CX), Y3)

	VADDPD  Y6, Y5, Y8
	VMOVUPD Y8, 8(DX)

	// out += sent, one sample at a time from the left.
	VADDSD       X7, X0, X0
	VPERMILPD    $1, X7, X9
	VADDSD       X9, X0, X0
	VEXTRACTF128 $1, Y7, X10
	VADDSD       X10, X0, X0
	VPERMILPD    $1, X10, X11
	VADDSD       X11, X0, X0

	ADDQ $32, AX
	ADDQ $32, BX
	ADDQ $32, CX
	ADDQ $32, DX
	DECQ SI
	JMP  group

done:
	VZEROUPPER
	VMOVSD X0, ret+56(FP)
	RET
