//go:build amd64 && !purego

#include "textflag.h"

// func erodeBrushAVX2(centre *float64, rows *brushRow, nrows int, weights *float64, e float64)
// A brushRow is {off, k0, n int}: the row's first cell is centre+off, its
// weights weights[k0:k0+n].
TEXT ·erodeBrushAVX2(SB), NOSPLIT, $0-40
	MOVQ         centre+0(FP), AX
	MOVQ         rows+8(FP), BX
	MOVQ         nrows+16(FP), CX
	MOVQ         weights+24(FP), DX
	VBROADCASTSD e+32(FP), Y0

row:
	TESTQ CX, CX
	JZ    done
	MOVQ  0(BX), SI
	LEAQ  (AX)(SI*8), SI // the row's first cell
	MOVQ  8(BX), DI
	LEAQ  (DX)(DI*8), DI // its first weight
	MOVQ  16(BX), R8     // its cells

quad:
	CMPQ    R8, $4
	JLT     single
	VMULPD  (DI), Y0, Y1 // e·weight
	VMOVUPD (SI), Y2
	VSUBPD  Y1, Y2, Y2   // cell − e·weight
	VMOVUPD Y2, (SI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $4, R8
	JMP     quad

single:
	TESTQ  R8, R8
	JZ     nextrow
	VMULSD (DI), X0, X1
	VMOVSD (SI), X2
	VSUBSD X1, X2, X2
	VMOVSD X2, (SI)
	ADDQ   $8, SI
	ADDQ   $8, DI
	DECQ   R8
	JMP    single

nextrow:
	ADDQ $24, BX
	DECQ CX
	JMP  row

done:
	VZEROUPPER
	RET
