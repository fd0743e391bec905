//go:build amd64 && !purego

#include "textflag.h"

// func erodeBrushAVX2(centre *float64, quads *int, nq int, qw *float64, singles *int, ns int, sw *float64, e float64)
TEXT ·erodeBrushAVX2(SB), NOSPLIT, $0-64
	MOVQ         centre+0(FP), AX
	MOVQ         quads+8(FP), BX
	MOVQ         nq+16(FP), CX
	MOVQ         qw+24(FP), DX
	MOVQ         singles+32(FP), SI
	MOVQ         ns+40(FP), DI
	MOVQ         sw+48(FP), R8
	VBROADCASTSD e+56(FP), Y0
	TESTQ        CX, CX
	JZ           singles

quad:
	MOVQ    (BX), R9
	VMULPD  (DX), Y0, Y1         // e·weight
	VMOVUPD (AX)(R9*8), Y2
	VSUBPD  Y1, Y2, Y2           // cell − e·weight
	VMOVUPD Y2, (AX)(R9*8)
	ADDQ    $8, BX
	ADDQ    $32, DX
	DECQ    CX
	JNZ     quad

singles:
	TESTQ DI, DI
	JZ    done

single:
	MOVQ   (SI), R9
	VMULSD (R8), X0, X1
	VMOVSD (AX)(R9*8), X2
	VSUBSD X1, X2, X2
	VMOVSD X2, (AX)(R9*8)
	ADDQ   $8, SI
	ADDQ   $8, R8
	DECQ   DI
	JNZ    single

done:
	VZEROUPPER
	RET
