#include "textflag.h"

// func kernelAVX2(kc int, a, b, c *float64, ldc int, alpha float64)
//
// acc[r][0:8] = sum over l of a[4l+r] * b[8l:8l+8] by fused multiply-adds in order of l,
// then c[r*ldc : r*ldc+8] = alpha*acc[r] + c[...] by one more fused multiply-add.
// Y0..Y7 hold acc (two registers of four per row), Y8 and Y9 the row of b, Y10..Y13 the
// broadcast values of a, Y15 alpha.
TEXT ·kernelAVX2(SB), NOSPLIT, $0-48
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R8
	VBROADCASTSD alpha+40(FP), Y15
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

loop:
	VMOVUPD      (DI), Y8
	VMOVUPD      32(DI), Y9
	VBROADCASTSD (SI), Y10
	VBROADCASTSD 8(SI), Y11
	VBROADCASTSD 16(SI), Y12
	VBROADCASTSD 24(SI), Y13
	VFMADD231PD  Y8, Y10, Y0
	VFMADD231PD  Y9, Y10, Y1
	VFMADD231PD  Y8, Y11, Y2
	VFMADD231PD  Y9, Y11, Y3
	VFMADD231PD  Y8, Y12, Y4
	VFMADD231PD  Y9, Y12, Y5
	VFMADD231PD  Y8, Y13, Y6
	VFMADD231PD  Y9, Y13, Y7
	ADDQ         $32, SI
	ADDQ         $64, DI
	DECQ         CX
	JNZ          loop

	SHLQ $3, R8

	VMOVUPD     (DX), Y8
	VMOVUPD     32(DX), Y9
	VFMADD231PD Y0, Y15, Y8
	VFMADD231PD Y1, Y15, Y9
	VMOVUPD     Y8, (DX)
	VMOVUPD     Y9, 32(DX)
	ADDQ        R8, DX

	VMOVUPD     (DX), Y8
	VMOVUPD     32(DX), Y9
	VFMADD231PD Y2, Y15, Y8
	VFMADD231PD Y3, Y15, Y9
	VMOVUPD     Y8, (DX)
	VMOVUPD     Y9, 32(DX)
	ADDQ        R8, DX

	VMOVUPD     (DX), Y8
	VMOVUPD     32(DX), Y9
	VFMADD231PD Y4, Y15, Y8
	VFMADD231PD Y5, Y15, Y9
	VMOVUPD     Y8, (DX)
	VMOVUPD     Y9, 32(DX)
	ADDQ        R8, DX

	VMOVUPD     (DX), Y8
	VMOVUPD     32(DX), Y9
	VFMADD231PD Y6, Y15, Y8
	VFMADD231PD Y7, Y15, Y9
	VMOVUPD     Y8, (DX)
	VMOVUPD     Y9, 32(DX)

	VZEROUPPER
	RET
